"""Optional rule: Hidden Movement (AAG Appendix 1) replaces Movement steps 1–6: both sides
load, then write their sea units' moves in secret (`move` is an order), which are revealed
and carried out together once both have written; then the submarines attack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from henderson.core.events import Event
from henderson.games.aag.actions import Action
from henderson.games.aag.rules import movement
from henderson.games.aag.rules.base import AagPhase
from henderson.games.aag.rules.common import note

if TYPE_CHECKING:
    from henderson.games.aag.state import AAGState


def reveal_orders(state: AAGState, events: list[Event]) -> None:
    """Both sides' written sea orders are revealed and carried out together."""
    for side in (state.first, state.second):
        for uid, dest in sorted(state.orders[side].items()):
            if uid in state.pieces:
                movement.move_piece(state, state.pieces[uid], dest, events)
        state.orders[side] = {}
    note(events, "reveal", "hidden sea orders revealed and carried out")


class Load(AagPhase):
    """Hidden Movement step 1: transports and destroyers load, before any sea unit moves."""

    def actions(self, state: AAGState) -> list[Action]:  # type: ignore[override]
        return movement.load_actions(state, state.mover, ("transport", "destroyer"), at_base=False)

    def do(self, state: AAGState, action: Action, events: list[Event]) -> None:  # type: ignore[override]
        movement.play_load(state, action, events)


class Orders(AagPhase):
    """Hidden Movement step 2: each sea unit's move is written down (one sea zone, as in
    Movement), hidden from the other side until both sides have written theirs; then all
    are revealed and carried out together."""

    def actions(self, state: AAGState) -> list[Action]:  # type: ignore[override]
        kinds = tuple(k for k, u in state.data.units.items() if u.category == "sea")
        return movement.sea_moves(state, state.mover, kinds)

    def do(self, state: AAGState, action: Action, events: list[Event]) -> None:  # type: ignore[override]
        dest = action.args[0]
        ids = action.args[1].split(",")
        side = state.pieces[ids[0]].side
        for uid in ids:
            state.orders[side][uid] = dest
            state.update(state.pieces[uid], moved=True)
        # the other side reads it redacted (AAGState.redact) until the game is over
        note(events, "order", f"{side} writes a sea order: {', '.join(ids)} to {dest}", side=side, units=ids, dest=dest)

    def leave(self, state: AAGState, events: list[Event]) -> None:
        if state.half == 1:  # both sides have written
            reveal_orders(state, events)


class Torpedo(AagPhase):
    """Hidden Movement step 3: the submarines make their torpedo attacks; a side's
    casualties are removed when its submarines are done."""

    def actions(self, state: AAGState) -> list[Action]:  # type: ignore[override]
        return movement.torpedo_actions(state, state.mover)

    def do(self, state: AAGState, action: Action, events: list[Event]) -> None:  # type: ignore[override]
        movement.play_torpedo(state, action, events)

    def leave(self, state: AAGState, events: list[Event]) -> None:
        movement.end_submarines(state, state.mover, events)


LOAD = Load()
ORDERS = Orders()
TORPEDO = Torpedo()
