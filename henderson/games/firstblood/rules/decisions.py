"""Decisions one side must take before play goes on: which units to lose, where to retreat,
whether to advance, where returning aircraft land. The owning player always decides for
his own units (FB 8.10), even in the other side's phase.

`settle` carries out what is forced (a single choice, or none) so that players are
asked only real questions.
"""

from __future__ import annotations

from collections.abc import Callable

from henderson.core.errors import IllegalAction
from henderson.core.events import Event
from henderson.games.firstblood import actions as A
from henderson.games.firstblood.rules import airfields, retreat
from henderson.games.firstblood.rules.placement import HEX_STACK
from henderson.games.firstblood.state import OTHER, Decision, FBState

LOSS_WHY = {
    "FB 8.10": "combat loss",
    "FB 14.1": "supply loss",
    "FB 7.5.4": "overstacked after entering from off the map",
    "FB 13.3.3": "destroyed by Japanese air attack",
    "FB 8.10.1": "destroyed by bombardment",
}


def in_play(st: FBState, unit: str) -> bool:
    return unit in st.ground or unit in st.air or unit in st.ships


def actions(st: FBState) -> list[A.FBAction]:
    d = st.pending[0]
    if d.kind == "lose":
        return [A.Lose(u) for u in d.units if in_play(st, u)]
    if d.kind == "retreat":
        return [A.Retreat(u, h) for u in d.units if u in st.ground for h in retreat.options(st, u)]
    if d.kind == "advance":
        acts: list[A.FBAction] = [A.Advance(u, h) for u in d.units for h in advance_hexes(st, d, u)]
        acts.append(A.Stop())
        return acts
    if d.kind == "land":
        return [A.Land(u, h) for u in d.units for h in airfields.landing_hexes(st, u)]
    raise AssertionError(f"decision {d.kind} is never left to a player")


def advance_hexes(st: FBState, d: Decision, unit: str) -> list[str]:
    """FB 8.10: on DE the attacker may occupy the vacated hex(es), within stacking."""
    if unit not in st.ground or not st.board.on_map(st.ground[unit]):
        return []
    enemy = OTHER[d.side]
    return [h for h in d.hexes if st.owner_of_hex(h) != enemy and len(st.at(h)) < HEX_STACK and st.ground[unit] != h]


def explain(st: FBState, action: A.FBAction) -> IllegalAction:
    d = st.pending[0]
    who = d.side.upper()
    if d.kind == "lose":
        if isinstance(action, A.Lose):
            return IllegalAction(
                d.rule, f"{action.unit} is not one of the units that can be lost ({', '.join(d.units)})"
            )
        return IllegalAction(d.rule, f"{who} must first choose {d.count} unit(s) to lose: 'lose UNIT'")
    if d.kind == "retreat":
        if isinstance(action, A.Retreat):
            if action.unit not in d.units:
                return IllegalAction("FB 8.10", f"{action.unit} is not retreating")
            rule, why = retreat.refusal(st, action.unit, action.to)
            return IllegalAction(rule, f"{action.unit} cannot retreat to {action.to}: {why}")
        return IllegalAction("FB 8.10", f"{who} must first retreat {', '.join(d.units)}: 'retreat UNIT HEX'")
    if d.kind == "advance":
        if isinstance(action, A.Advance):
            return IllegalAction("FB 8.10", f"{action.unit} may advance only into {'+'.join(d.hexes)}, within stacking")
        return IllegalAction(
            "FB 8.10", f"{who} may first advance into {'+'.join(d.hexes)} ('advance UNIT HEX') or 'stop'"
        )
    if isinstance(action, A.Land):
        return IllegalAction(
            "FB 13.7", f"{action.unit} may land only on an operative airstrip hex with room (FB 12.1, 12.5)"
        )
    return IllegalAction("FB 13.7", f"{who} must first land {', '.join(d.units)}: 'land UNIT HEX'")


def do(st: FBState, action: A.FBAction, events: list[Event]) -> None:
    d = st.pending[0]
    if isinstance(action, A.Lose):
        lose(st, d, action.unit, events)
    elif isinstance(action, A.Retreat):
        move_back(st, d, action.unit, action.to, events)
    elif isinstance(action, A.Advance):
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
    elif isinstance(action, A.Stop):
        st.pending.pop(0)
    elif isinstance(action, A.Land):
        land(st, d, action.unit, action.hex, events)
    settle(st, events)


def lose(st: FBState, d: Decision, unit: str, events: list[Event]) -> None:
    d.units.remove(unit)
    d.count -= 1
    st.eliminate(unit, d.rule, LOSS_WHY.get(d.rule, "lost"), events)


def move_back(st: FBState, d: Decision, unit: str, to: str, events: list[Event]) -> None:
    d.units.remove(unit)
    frm = st.ground[unit]
    st.put(unit, to)
    events.append(Event("retreat", f"{unit} retreats {frm} → {to}", {"unit": unit, "from": frm, "to": to}))
    if st.data.ground[unit].side == "jp":
        airfields.occupied(st, to, events)


def land(st: FBState, d: Decision, unit: str, hex_id: str, events: list[Event]) -> None:
    d.units.remove(unit)
    st.air[unit] = hex_id
    st.inverted.add(unit)  # FB 13.7: returned units are inverted
    st.air_moved.add(unit)
    events.append(Event("air", f"{unit} lands on {hex_id}, inverted (FB 13.7)", {"unit": unit, "at": hex_id}))


def settle(st: FBState, events: list[Event]) -> None:
    """Carry out forced decisions until a real choice is left (or none)."""
    while st.pending and st.winner_side is None:
        d = st.pending[0]
        if d.kind == "lose":
            d.units = [u for u in d.units if in_play(st, u)]
            if d.count > 0 and 0 < len(d.units) <= d.count:
                for u in list(d.units):
                    lose(st, d, u, events)
            if d.count > 0 and d.units and not identical(st, d.units):
                return
            if d.count > 0 and d.units:  # every candidate alike: no real choice
                lose(st, d, d.units[0], events)
                continue
            st.pending.pop(0)
            if d.then == "retreat":
                left = [u for u in d.survivors if u in st.ground]
                if left:
                    st.pending.insert(0, Decision("retreat", d.side, left, rule=d.rule))
            continue
        if d.kind == "retreat":
            d.units = [u for u in d.units if u in st.ground]
            if settle_each(st, d, retreat.options, no_retreat, move_back, events):
                continue
            return
        if d.kind == "advance":
            d.units = [u for u in d.units if u in st.ground]
            if any(advance_hexes(st, d, u) for u in d.units):
                return
            st.pending.pop(0)
            continue
        if d.kind == "entry":
            st.pending.pop(0)
            enter_after_attack(st, d, events)
            continue
        if d.kind == "land":
            d.units = [u for u in d.units if u in st.air]
            if settle_each(st, d, airfields.landing_hexes, no_landing, land, events):
                continue
            return
        raise AssertionError(d.kind)


def no_retreat(st: FBState, d: Decision, unit: str, events: list[Event]) -> None:
    d.units.remove(unit)
    st.eliminate(unit, "FB 8.11", "no legal retreat", events)


def no_landing(st: FBState, d: Decision, unit: str, events: list[Event]) -> None:
    d.units.remove(unit)
    st.air[unit] = "usaf_reserve"  # FB 12.6: rerouted to the reserve
    events.append(Event("air", f"{unit} has nowhere to land: to the USAF Reserve box (FB 12.2, 12.6)"))


def settle_each(
    st: FBState,
    d: Decision,
    options: Callable[[FBState, str], list[str]],
    none: Callable[[FBState, Decision, str, list[Event]], None],
    only: Callable[[FBState, Decision, str, str, list[Event]], None],
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
        st.pending.pop(0)
        return True
    return progressed


def identical(st: FBState, units: list[str]) -> bool:
    """Counters that differ in nothing the rules or the player care about."""

    def key(u: str) -> tuple[object, ...]:
        if u in st.data.air:
            return ("air", st.data.air[u].type, st.air.get(u), u in st.inverted)
        if u in st.data.ships:
            return ("ship", st.ships.get(u))
        return ("ground", u)

    return len({key(u) for u in units}) == 1


def enter_after_attack(st: FBState, d: Decision, events: list[Event]) -> None:
    """FB 7.5.3: attackers out of an entry point or box must enter the emptied hex, or die."""
    enemy = OTHER[d.side]
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
        st.pending.insert(0, Decision("lose", d.side, list(st.at(target)), excess, rule="FB 7.5.4"))
        if d.side == "jp":
            st.supply_credit += excess
