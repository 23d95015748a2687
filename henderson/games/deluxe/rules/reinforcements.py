"""Reinforcements (DG 6.0, steps 4 and 14): arriving units land on coastal hexes outside
enemy zones of control; US units only on villages or clear coastal hexes, Japanese units on
any coastal hex. Rabaul picks (DG 10.2) arrive the same way the turn after they are chosen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from henderson.core.events import Event
from henderson.core.game import Action

from ..actions import DGAction
from .common import occupancy, place, room, side_in, take_control, visible_units
from .movement import action_table
from .phase import DGPhase

if TYPE_CHECKING:
    from ..state import DGState
    from ..units import UnitState


def arriving(state: DGState, side: str) -> list[UnitState]:
    """Units due now: on the turn track for this turn or earlier, or picked from Rabaul."""
    out = []
    for uid, t in state.data.units.items():
        u = state.units[uid]
        if u.side != side:
            continue
        if (u.at == "turn" and 0 < t.arrival <= state.turn) or u.at == "next":
            out.append(u)
    return out


def landing_hexes(state: DGState, u: UnitState, occ: dict) -> list[str]:
    """DG 4.0 steps 4 / 14: a coastal hex, not in an enemy zone of control, not enemy-held;
    US: a village or a clear (non-jungle) coastal hex; stacking counts Heavy units twice."""
    out = []
    hexes = state.data.map.hexes
    adjacent = state.data.map.adjacent
    near: set[str] = set()  # the hexes next to an enemy unit not under stealth (`in_enemy_zoc`)
    for hid, units in occ.items():
        if units[0].side != u.side and visible_units(units):
            near.update(adjacent[hid])
    for hid in state.game.coastal:  # the coastal hexes, listed once per game
        h = hexes[hid]
        here = occ.get(hid)
        if here and here[0].side != u.side:
            continue
        if u.side == "us" and h.jungle and not h.village:
            continue
        if hid in near and not h.jungle:  # DG 7.4, 7.4.2 jungle negates it
            continue
        if here and not room(state, occ, hid, u, landing=True):  # an empty hex has room for a Heavy
            continue
        out.append(hid)
    return out  # in hex order, as the coastal hexes are


def fallback_hexes(state: DGState, u: UnitState, occ: dict) -> list[str]:
    """DG 2.2.2.6 note: with nowhere to land, any coastal hex free of the enemy will do, but
    the unit may not move any farther this turn."""
    return sorted(
        hid
        for hid in state.game.coastal
        if side_in(occ, hid) in (None, u.side) and room(state, occ, hid, u, landing=True)
    )


def options(state: DGState, u: UnitState, occ: dict) -> tuple[list[str], bool]:
    """Where `u` may land, and whether it lands by the DG 2.2.2.6 fallback."""
    hexes = landing_hexes(state, u, occ)
    return (hexes, False) if hexes else (fallback_hexes(state, u, occ), True)


def legal(state: DGState, side: str) -> list[DGAction]:
    """Land the first arriving unit (in counter order) on any legal hex."""
    occ = occupancy(state)
    for u in arriving(state, side):
        hexes, _ = options(state, u, occ)
        if hexes:
            return list(map(action_table(state, "land", u.id).__getitem__, hexes))  # made once a hex
    return []


def land(state: DGState, u: UnitState, hex_id: str, events: list[Event]) -> None:
    """Place an arriving unit on its landing hex; it takes control of a village there."""
    _, stuck = options(state, u, occupancy(state))
    u = state.update(u, landed=state.turn, start=hex_id)
    if stuck:
        state.this_turn.stuck.append(u.id)
    u = place(state, u, hex_id)
    take_control(state, u, hex_id, events)
    events.append(Event("land", f"{u.id} lands at {hex_id}", {"unit": u.id, "hex": hex_id}))


class Reinforcements(DGPhase):
    """Steps 4 and 14: every unit due lands, one at a time in counter order (DG 6.0, ruling 10);
    there is nothing to decline."""

    kind = "reinforce"
    offers_end = False

    def has_choice(self, state: DGState) -> bool:
        # the listing itself, kept with the position for the decision that follows (this
        # step offers no `end`: the list is `legal`'s)
        return bool(state.listed())

    def actions(self, state: DGState) -> list[Action]:
        return list(legal(state, state.side_of(state.current_step)))

    def do(self, state: DGState, action: Action, events: list[Event]) -> None:
        assert isinstance(action, DGAction)
        land(state, state.units[action.args[0]], action.args[1], events)


PHASE = Reinforcements()
