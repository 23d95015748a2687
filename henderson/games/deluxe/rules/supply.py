"""Artillery supply (DG 8.1.1, steps 5 and 15): fixed points, a roll on the Replenishment
table on a "+" turn (twice after holding Henderson Field, DG 10.2.2), or unlimited US supply;
never above forty points. The villages held score as the step begins (DG 9.1, 9.2)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from henderson.core.events import Event, roll

from .common import add_supply
from .phase import DGPhase
from .victory import score_villages

if TYPE_CHECKING:
    from ..state import DGState


def receive(state: DGState, side: str, events: list[Event]) -> None:
    """Steps 5 and 15: this turn's artillery supply for `side`."""
    turn = state.data.turn(state.turn)
    value = turn.supply[side]
    if value == "unl":
        events.append(Event("supply", f"{side} artillery is fully supplied this turn", {"side": side}))
        return
    if value == "+":
        rolls = 2 if side == "jp" and state.this_turn.double_supply else 1
        for _ in range(rolls):
            die = roll(state.dice, "DG 8.1.1 artillery supply replenishment", events)
            points = state.data.replenishment[turn.month][side][die - 1]
            add_supply(state, side, points, events, "DG 8.1.1 replenishment")
        return
    add_supply(state, side, int(value), events, "DG 8.1.1 artillery supply")


class Supply(DGPhase):
    """Steps 5 and 15: the villages held score (after the reinforcements, DG 9.1), then the
    artillery supply arrives."""

    kind = "supply"

    def enter(self, state: DGState, events: list[Event]) -> None:
        side = state.side_of(state.current_step)
        score_villages(state, side, events)
        receive(state, side, events)


PHASE = Supply()
