"""Phase 3 Regroup, step 4 (AAG Reinforce, Repair, Deploy): reinforcement points bought as
units at the base, repairs paid in supply tokens, ships deployed from the base sea zone;
ships at the base may load in all three."""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING

from henderson.core.events import Event
from henderson.games.aag.actions import Action, act
from henderson.games.aag.model import SUPPLY, Advantage
from henderson.games.aag.pieces import Piece
from henderson.games.aag.rules import advantages, movement
from henderson.games.aag.rules.base import AagPhase
from henderson.games.aag.rules.common import note, representatives

if TYPE_CHECKING:
    from henderson.games.aag.state import AAGState


LOADERS = ("transport", "destroyer", "carrier")  # the ships that load at the base (AAG Reinforce)


def base_loads(state: AAGState) -> list[Action]:
    """AAG Reinforce: new or existing ships at the base load, moved or not. What they may
    load depends only on the pieces in the base's two zones (the ships, their cargo, and
    what waits ashore), so it is kept with the index's lists of those zones while both are
    in place (`ZoneIndex.loads`): a list shared by the listings, never to be changed."""
    side = state.mover
    index = state.index
    if index is None:
        return movement.load_actions(state, side, LOADERS, at_base=True)
    ships, shore = index.by_zone.get(state.base_sea(side)), index.by_zone.get(state.base_land(side))
    kept = index.loads.get(side)
    if kept is not None and kept[0] is ships and kept[1] is shore:
        return kept[2]
    found = movement.load_actions(state, side, LOADERS, at_base=True)
    index.loads[side] = (ships, shore, found)
    return found


def buys(state: AAGState, points: int) -> tuple[Action, ...]:
    """`buy TYPE` for each purchase `points` pay for, from the most expensive: a tail of the
    purchases in listing order (sorted by falling cost), found by halves."""
    costs, actions = state.data.purchase_table
    return actions[bisect.bisect_left(costs, -points) :]


def loaders_at_base(state: AAGState) -> bool:
    """Whether a ship of the side to act that may load is in its base sea zone: without one,
    nothing loads there (a quick test, before listing)."""
    return any(p.type in LOADERS for p in state.in_zone(state.base_sea(state.mover), state.mover))


def spend(state: AAGState, side: str, zone: str, count: int) -> None:
    for p in state.supplies(side, zone)[:count]:
        state.remove(p)


class Reinforce(AagPhase):
    """AAG Reinforce: 10 reinforcement points plus 4 per island zone controlled, spent on
    units placed at the base (sea units in its sea zone); unspent points are lost.

    Purchases are listed from the most expensive, so that a player who always takes the first
    action buys ships and not infantry alone: otherwise two such players' fleets never meet,
    each holds its airfields, and the tie at 15 victory points goes on for ever
    (AAG Regroup step 5: a tie continues until broken)."""

    def enter(self, state: AAGState, events: list[Event]) -> None:
        side = state.mover
        state.points[side] = state.income(side)
        note(events, "income", f"{side} has {state.points[side]} reinforcement points")

    def actions(self, state: AAGState) -> list[Action]:  # type: ignore[override]
        return [*advantages.at_reinforce(state), *buys(state, state.points[state.mover]), *base_loads(state)]

    def do(self, state: AAGState, action: Action, events: list[Event]) -> None:  # type: ignore[override]
        if action.verb == "use":
            advantages.play(state, action, events)
        elif action.verb == "load":
            movement.play_load(state, action, events)
        else:
            self.buy(state, action.args[0], events)

    def buy(self, state: AAGState, kind: str, events: list[Event]) -> None:
        side = state.mover
        cost = state.data.rules.supply_cost if kind == SUPPLY else state.data.units[kind].cost
        state.points[side] -= cost
        sea = kind != SUPPLY and state.data.units[kind].category == "sea"
        p = state.new_piece(side, kind, state.base_sea(side) if sea else state.base_land(side))
        if state.category(p) == "air":
            p = state.update(p, landed=True)
        note(events, "buy", f"{side} buys {kind} {p.id} for {cost}", unit=p.id)
        if kind in (SUPPLY, "artillery") and state.in_force(Advantage.GOOD_LOGISTICS, side):
            free = state.new_piece(side, kind, p.zone)  # AAG Appendix 1 Good Logistics
            note(events, "buy", f"{side} gets a second {kind} {free.id} free (Good Logistics)")

    def leave(self, state: AAGState, events: list[Event]) -> None:
        state.points[state.mover] = 0  # AAG Reinforce: unspent points are lost


class Repairs(AagPhase):
    """AAG Repair: a damaged sea unit at the base for 1 supply token there; a damaged
    airfield for 1 supply token on its island."""

    def has_choice(self, state: AAGState) -> bool | None:
        """With no ship at the base to load, a choice exactly when something can be repaired
        (else the step ends by itself, nothing listed); with one, list the actions to know."""
        return None if loaders_at_base(state) else bool(self.repairs(state))

    def actions(self, state: AAGState) -> list[Action]:  # type: ignore[override]
        return [*self.repairs(state), *base_loads(state)]

    def repairs(self, state: AAGState) -> list[Action]:
        """`repair SHIP` and `repair ISLAND` the side to act can pay for now."""
        side = state.mover
        out = []
        if len(state.supplies(side, state.base_land(side))) >= state.data.rules.sea_repair_cost:
            damaged = [p for p in state.pieces.values() if p.side == side and p.damaged]
            out += [act("repair", p.id) for p in representatives(state, damaged)]
        for island in sorted(state.data.board.islands):
            if any(a.damaged for a in state.airfields_of(side, island)) and (
                len(state.supplies(side, island)) >= state.data.rules.airfield_repair_cost
            ):
                out.append(act("repair", island))
        return out

    def do(self, state: AAGState, action: Action, events: list[Event]) -> None:  # type: ignore[override]
        if action.verb == "load":
            movement.play_load(state, action, events)
            return
        side, what = state.mover, action.args[0]
        if what in state.pieces:
            spend(state, side, state.base_land(side), state.data.rules.sea_repair_cost)
            p = state.update(state.pieces[what], damaged=False, zone=state.base_sea(side))
            note(events, "repair", f"{p.id} ({p.type}) repaired", unit=p.id)
        else:
            spend(state, side, what, state.data.rules.airfield_repair_cost)
            field = next(a for a in state.airfields_of(side, what) if a.damaged)
            state.change_airfield(field, damaged=False)
            note(events, "repair", f"{side} airfield on {what} repaired", island=what)


class Deploy(AagPhase):
    """AAG Deploy: a sea unit in the base sea zone moves to a sea zone for that zone's
    deployment number in supply tokens at the base, with its cargo."""

    def has_choice(self, state: AAGState) -> bool | None:
        """With no ship at the base to load, a choice exactly when a ship there can be
        deployed (else the step ends by itself, nothing listed); with one, list the actions
        to know."""
        if loaders_at_base(state):
            return None
        return bool(self.ships(state)) and bool(self.zones(state))

    def actions(self, state: AAGState) -> list[Action]:  # type: ignore[override]
        zones = self.zones(state)
        ships = representatives(state, self.ships(state))
        out = [act("deploy", ship.id, zone) for ship in ships for zone in zones]
        return [*out, *base_loads(state)]

    def ships(self, state: AAGState) -> list[Piece]:
        """The sea units of the side to act in its base sea zone, not aboard."""
        side = state.mover
        return [p for p in state.in_zone(state.base_sea(side), side) if not p.aboard]

    def zones(self, state: AAGState) -> list[str]:
        """The sea zones the side to act can pay to deploy to with its supply tokens at the base."""
        side = state.mover
        have = len(state.supplies(side, state.base_land(side)))
        return [
            zone
            for zone, sea in sorted(state.data.board.seas.items())
            if (cost := sea.deployment.get(side)) is not None and cost <= have
        ]

    def do(self, state: AAGState, action: Action, events: list[Event]) -> None:  # type: ignore[override]
        if action.verb == "load":
            movement.play_load(state, action, events)
            return
        side = state.mover
        ship, zone = state.pieces[action.args[0]], action.args[1]
        cost = state.data.board.seas[zone].deployment[side]
        spend(state, side, state.base_land(side), cost)
        for c in state.cargo(ship):
            state.update(c, zone=zone)
        state.update(ship, zone=zone)
        note(events, "deploy", f"{ship.id} ({ship.type}) deployed to {zone} for {cost} supplies", unit=ship.id)


BUY = Reinforce()
REPAIR = Repairs()
DEPLOY = Deploy()
