"""Phase 2 Combat step 3: Unload Transports and Destroyers (AAG Combat step 3), the first
player and then the other: cargo goes ashore on an island zone next to its ship."""

from __future__ import annotations

from typing import TYPE_CHECKING

from henderson.core.events import Event
from henderson.games.aag.actions import Action, act
from henderson.games.aag.pieces import Piece
from henderson.games.aag.rules.base import AagPhase
from henderson.games.aag.rules.common import is_cargo, note
from henderson.games.aag.state import BY_RANK

if TYPE_CHECKING:
    from henderson.games.aag.state import AAGState


def cargo_of(state: AAGState, side: str) -> list[Piece]:
    """`side`'s land units and supply tokens aboard its ships, in id order: read from the
    pieces indexed by ship (a few), not from all its land pieces."""
    kinds = state.data.land_pieces  # what `land_piece` takes
    if state.index is None:
        return [p for p in state.on_board(side) if p.type in kinds and is_cargo(p)]
    found = [
        p
        for aboard in state.index.by_ship.values()
        for p in aboard
        if p.side == side and p.type in kinds and is_cargo(p) and not p.damaged
    ]
    found.sort(key=BY_RANK)
    return found


class Unload(AagPhase):
    """`unload PIECE ZONE`: a land unit or supply aboard goes ashore next to its ship, never
    onto the enemy's base card."""

    def actions(self, state: AAGState) -> list[Action]:  # type: ignore[override]
        side = state.mover
        out: list[Action] = []
        barred = state.enemy_base_zones(side)
        seen: set[tuple[str, str, str]] = set()
        for p in cargo_of(state, side):
            for dest in state.data.board.land_zones_by_sea(p.zone):
                if dest in barred:
                    continue
                key = (p.zone, p.type, dest)
                if key not in seen:
                    seen.add(key)
                    out.append(act("unload", p.id, dest))
        return out

    def do(self, state: AAGState, action: Action, events: list[Event]) -> None:  # type: ignore[override]
        p = state.pieces[action.args[0]]
        ship = p.aboard
        p = state.update(p, aboard=None, zone=action.args[1], unloaded=True)
        note(events, "unload", f"{p.id} ({p.type}) unloaded from {ship} onto {p.zone}")


PHASE = Unload()
