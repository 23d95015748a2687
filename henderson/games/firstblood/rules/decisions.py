"""Decisions one side must take before play goes on: which units to lose, where to retreat,
whether to advance, where returning aircraft land. The owning player always decides for
his own units (FB 8.10), even in the other side's phase.

Each kind of decision (`state.Lose`, `Retreat`, `Advance`, `Entry`, `Land`) has its rules
here. `settle` carries out what is forced (a single choice, or none) so that players are
asked only real questions; the last pending decision is the one decided now.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from henderson.core.errors import IllegalAction
from henderson.core.events import Event
from henderson.core.game import Action
from henderson.games.firstblood import actions as A
from henderson.games.firstblood.rules import airfields, retreat
from henderson.games.firstblood.rules.phase import FBPhase
from henderson.games.firstblood.rules.placement import HEX_STACK
from henderson.games.firstblood.state import Advance, Entry, FBDecision, FBState, Lose, Retreat, enemy_of

D = TypeVar("D", bound=FBDecision)

LOSS_WHY = {
    "FB 8.10": "combat loss",
    "FB 14.1": "supply loss",
    "FB 7.5.4": "overstacked after entering from off the map",
    "FB 13.3.3": "destroyed by Japanese air attack",
    "FB 8.10.1": "destroyed by bombardment",
}


class DecisionRules(FBPhase):
    """The rules of one kind of pending decision; `settle` carries out what is forced."""

    def settle(self, st: FBState, d: FBDecision, events: list[Event]) -> bool:
        """Carry out what needs no choice; True when the decision changed or is done (settle
        again), False when a real choice is left to its owner."""
        raise NotImplementedError

    def do(self, st: FBState, action: Action, events: list[Event]) -> None:
        self.decide(st, st.pending[-1], action, events)
        settle(st, events)

    def decide(self, st: FBState, d: FBDecision, action: Action, events: list[Event]) -> None:
        """Carry out the owner's legal choice."""
        raise NotImplementedError


def settle(st: FBState, events: list[Event]) -> None:
    """Carry out forced decisions until a real choice is left (or none)."""
    while st.pending and st.result is None:
        d = st.pending[-1]
        rules = st.rules_named(d.rules)
        assert isinstance(rules, DecisionRules)
        if not rules.settle(st, d, events):
            return


def in_play(st: FBState, unit: str) -> bool:
    return unit in st.ground or unit in st.air or unit in st.ships


class LoseRules(DecisionRules):
    """FB 8.10, 14.1, 7.5.4, 13.3.3: the owner picks the units lost; identical counters are
    no choice; the survivors of a combat loss then retreat when the result says so."""

    def actions(self, st: FBState) -> list[Action]:
        d = st.pending[-1]
        return [A.Lose(u) for u in d.units if in_play(st, u)]

    def explain(self, st: FBState, action: Action) -> IllegalAction:
        d = st.pending[-1]
        assert isinstance(d, Lose)
        if isinstance(action, A.Lose):
            return IllegalAction(
                d.rule, f"{action.unit} is not one of the units that can be lost ({', '.join(d.units)})"
            )
        return IllegalAction(d.rule, f"{d.side.upper()} must first choose {d.count} unit(s) to lose: 'lose UNIT'")

    def decide(self, st: FBState, d: FBDecision, action: Action, events: list[Event]) -> None:
        assert isinstance(d, Lose) and isinstance(action, A.Lose)
        lose(st, d, action.unit, events)

    def settle(self, st: FBState, d: FBDecision, events: list[Event]) -> bool:
        assert isinstance(d, Lose)
        d.units = [u for u in d.units if in_play(st, u)]
        if d.count > 0 and 0 < len(d.units) <= d.count:
            for u in list(d.units):
                lose(st, d, u, events)
        if d.count > 0 and d.units and not identical(st, d.units):
            return False
        if d.count > 0 and d.units:  # every candidate alike: no real choice
            lose(st, d, d.units[0], events)
            return True
        st.pending.pop()
        left = [u for u in d.retreat if u in st.ground]
        if left:
            st.pending.append(Retreat(d.side, units=left, rule=d.rule))
        return True


def lose(st: FBState, d: Lose, unit: str, events: list[Event]) -> None:
    d.units.remove(unit)
    d.count -= 1
    st.eliminate(unit, d.rule, LOSS_WHY.get(d.rule, "lost"), events)


def identical(st: FBState, units: list[str]) -> bool:
    """Counters that differ in nothing the rules or the player care about."""

    def key(u: str) -> tuple[object, ...]:
        if u in st.data.air:
            return ("air", st.data.air[u].type, st.air.get(u), u in st.inverted)
        if u in st.data.ships:
            return ("ship", st.ships.get(u))
        return ("ground", u)

    return len({key(u) for u in units}) == 1


class RetreatRules(DecisionRules):
    """FB 8.10-8.12, 8.2.3: the owner retreats each unit; a unit with no retreat is eliminated
    (FB 8.11), one with a single retreat hex goes there."""

    def actions(self, st: FBState) -> list[Action]:
        d = st.pending[-1]
        return [A.Retreat(u, h) for u in d.units if u in st.ground for h in retreat.options(st, u)]

    def explain(self, st: FBState, action: Action) -> IllegalAction:
        d = st.pending[-1]
        if isinstance(action, A.Retreat):
            if action.unit not in d.units:
                return IllegalAction("FB 8.10", f"{action.unit} is not retreating")
            rule, why = retreat.refusal(st, action.unit, action.to)
            return IllegalAction(rule, f"{action.unit} cannot retreat to {action.to}: {why}")
        return IllegalAction("FB 8.10", f"{d.side.upper()} must first retreat {', '.join(d.units)}: 'retreat UNIT HEX'")

    def decide(self, st: FBState, d: FBDecision, action: Action, events: list[Event]) -> None:
        assert isinstance(action, A.Retreat)
        move_back(st, d, action.unit, action.to, events)

    def settle(self, st: FBState, d: FBDecision, events: list[Event]) -> bool:
        d.units = [u for u in d.units if u in st.ground]
        return settle_each(st, d, retreat.options, no_retreat, move_back, events)


def move_back(st: FBState, d: FBDecision, unit: str, to: str, events: list[Event]) -> None:
    d.units.remove(unit)
    frm = st.ground[unit]
    st.put(unit, to)
    events.append(Event("retreat", f"{unit} retreats {frm} → {to}", {"unit": unit, "from": frm, "to": to}))
    if st.data.ground[unit].side == "jp":
        airfields.occupied(st, to, events)


def no_retreat(st: FBState, d: FBDecision, unit: str, events: list[Event]) -> None:
    d.units.remove(unit)
    st.eliminate(unit, "FB 8.11", "no legal retreat", events)


class AdvanceRules(DecisionRules):
    """FB 8.10: on DE the attacker may occupy the vacated hex(es), within stacking, or stop."""

    def actions(self, st: FBState) -> list[Action]:
        d = st.pending[-1]
        assert isinstance(d, Advance)
        acts: list[Action] = [A.Advance(u, h) for u in d.units for h in advance_hexes(st, d, u)]
        acts.append(A.Stop())
        return acts

    def explain(self, st: FBState, action: Action) -> IllegalAction:
        d = st.pending[-1]
        assert isinstance(d, Advance)
        if isinstance(action, A.Advance):
            return IllegalAction("FB 8.10", f"{action.unit} may advance only into {'+'.join(d.hexes)}, within stacking")
        return IllegalAction(
            "FB 8.10", f"{d.side.upper()} may first advance into {'+'.join(d.hexes)} ('advance UNIT HEX') or 'stop'"
        )

    def decide(self, st: FBState, d: FBDecision, action: Action, events: list[Event]) -> None:
        if isinstance(action, A.Stop):
            st.pending.pop()
            return
        assert isinstance(action, A.Advance)
        d.units.remove(action.unit)
        frm = st.ground[action.unit]
        st.put(action.unit, action.to)
        events.append(
            Event(
                "advance",
                f"{action.unit} advances {frm} → {action.to} (FB 8.10)",
                {"unit": action.unit, "to": action.to},
            )
        )
        if d.side == "jp":
            airfields.occupied(st, action.to, events)

    def settle(self, st: FBState, d: FBDecision, events: list[Event]) -> bool:
        assert isinstance(d, Advance)
        d.units = [u for u in d.units if u in st.ground]
        if any(advance_hexes(st, d, u) for u in d.units):
            return False
        st.pending.pop()
        return True


def advance_hexes(st: FBState, d: Advance, unit: str) -> list[str]:
    """FB 8.10: on DE the attacker may occupy the vacated hex(es), within stacking."""
    if unit not in st.ground or not st.board.on_map(st.ground[unit]):
        return []
    enemy = enemy_of(d.side)
    return [h for h in d.hexes if st.owner_of_hex(h) != enemy and len(st.at(h)) < HEX_STACK and st.ground[unit] != h]


class EntryRules(DecisionRules):
    """FB 7.5.3: attackers out of an entry point or box must enter the emptied hex, or die;
    no choice, carried out as soon as the losses before it are taken."""

    def settle(self, st: FBState, d: FBDecision, events: list[Event]) -> bool:
        assert isinstance(d, Entry)
        st.pending.pop()
        enter_after_attack(st, d, events)
        return True


def enter_after_attack(st: FBState, d: Entry, events: list[Event]) -> None:
    enemy = enemy_of(d.side)
    survivors = [u for u in d.units if u in st.ground]
    target = d.hexes[0]
    if any(st.owner_of_hex(h) == enemy for h in d.hexes):
        for u in survivors:
            st.eliminate(u, "FB 7.5.3", "the defenders were not removed", events)
        return
    for u in survivors:
        st.put(u, target)
        events.append(Event("advance", f"{u} enters {target} (FB 7.5.3)", {"unit": u, "to": target}))
        if d.side == "jp":
            airfields.occupied(st, target, events)
    excess = len(st.at(target)) - HEX_STACK
    if excess > 0:  # FB 7.5.4
        st.pending.append(Lose(d.side, units=list(st.at(target)), count=excess, rule="FB 7.5.4"))
        if d.side == "jp":
            st.supply_credit += excess


class LandRules(DecisionRules):
    """FB 13.7: aircraft back from CAP and Ground Attack land, inverted, on an operative strip
    with room; one with nowhere to land goes to the USAF Reserve box (FB 12.2, 12.6)."""

    def actions(self, st: FBState) -> list[Action]:
        d = st.pending[-1]
        return [A.Land(u, h) for u in d.units for h in airfields.landing_hexes(st, u)]

    def explain(self, st: FBState, action: Action) -> IllegalAction:
        d = st.pending[-1]
        if isinstance(action, A.Land):
            return IllegalAction(
                "FB 13.7", f"{action.unit} may land only on an operative airstrip hex with room (FB 12.1, 12.5)"
            )
        return IllegalAction("FB 13.7", f"{d.side.upper()} must first land {', '.join(d.units)}: 'land UNIT HEX'")

    def decide(self, st: FBState, d: FBDecision, action: Action, events: list[Event]) -> None:
        assert isinstance(action, A.Land)
        land(st, d, action.unit, action.hex, events)

    def settle(self, st: FBState, d: FBDecision, events: list[Event]) -> bool:
        d.units = [u for u in d.units if u in st.air]
        return settle_each(st, d, airfields.landing_hexes, no_landing, land, events)


def land(st: FBState, d: FBDecision, unit: str, hex_id: str, events: list[Event]) -> None:
    d.units.remove(unit)
    st.air[unit] = hex_id
    st.inverted |= {unit}  # FB 13.7: returned units are inverted
    st.air_moved |= {unit}
    events.append(Event("air", f"{unit} lands on {hex_id}, inverted (FB 13.7)", {"unit": unit, "at": hex_id}))


def no_landing(st: FBState, d: FBDecision, unit: str, events: list[Event]) -> None:
    d.units.remove(unit)
    st.air[unit] = "usaf_reserve"  # FB 12.6: rerouted to the reserve
    events.append(Event("air", f"{unit} has nowhere to land: to the USAF Reserve box (FB 12.2, 12.6)"))


def settle_each(
    st: FBState,
    d: D,
    options: Callable[[FBState, str], list[str]],
    none: Callable[[FBState, D, str, list[Event]], None],
    only: Callable[[FBState, D, str, str, list[Event]], None],
    events: list[Event],
) -> bool:
    """For a decision about each of several units (retreats, landings): carry out every unit
    with no choice (no option, or exactly one). True when it changed something or is done
    (settle again), False when a real choice is left for the player."""
    progressed = False
    for u in list(d.units):
        opts = options(st, u)
        if not opts:
            none(st, d, u, events)
            progressed = True
        elif len(opts) == 1:
            only(st, d, u, opts[0], events)
            progressed = True
    if not d.units:
        st.pending.pop()
        return True
    return progressed


LOSE = LoseRules()
RETREAT = RetreatRules()
ADVANCE = AdvanceRules()
ENTRY = EntryRules()
LAND = LandRules()
