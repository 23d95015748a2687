"""Artillery supply (DG 8.1.1, steps 5 and 15): fixed points, a roll on the Replenishment
table on a "+" turn (twice after holding Henderson Field, DG 10.2.2), or unlimited US supply;
never above forty points."""

from __future__ import annotations

from typing import TYPE_CHECKING

from henderson.core.events import Event

from .common import add_supply, roll

if TYPE_CHECKING:
    from ..state import DGState


def receive(state: DGState, side: str, events: list[Event]) -> None:
    """Steps 5 and 15: this turn's artillery supply for `side`."""
    turn = state.data.turn(state.turn)
    value = turn.supply[side]
    if value == "unl":
        events.append(
            Event("supply", f"{side} artillery is fully supplied this turn", {"side": side})
        )
        return
    if value == "+":
        rolls = 2 if side == "jp" and state.flags.get("double_supply") else 1
        for _ in range(rolls):
            die = roll(state, "DG 8.1.1 artillery supply replenishment", events)
            points = state.data.replenishment[turn.month][side][die - 1]
            add_supply(state, side, points, events, "DG 8.1.1 replenishment")
        return
    add_supply(state, side, int(value), events, "DG 8.1.1 artillery supply")
