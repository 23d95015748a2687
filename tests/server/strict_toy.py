"""The toy game with one extra rule, so that an illegal action (not just bad notation) exists:
holding with nothing to bank is forbidden ("STRICT 1")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from henderson.core.dice import Dice
from henderson.core.errors import IllegalAction
from henderson.core.events import Event
from tests.support.toy import ToyAction, ToyGame, ToyState

TITLE = "Strict pig race (test game)"


class StrictState(ToyState):
    """A toy position whose `hold` needs a turn total above zero."""

    def _apply(self, action: ToyAction) -> list[Event]:  # type: ignore[override]
        if str(action) == "hold" and self.turn_total == 0:
            raise IllegalAction("STRICT 1", "there is nothing to bank: roll first")
        return super()._apply(action)

    def clone(self) -> StrictState:
        other = super().clone()
        other.__class__ = StrictState
        return other  # type: ignore[return-value]


class StrictGame(ToyGame):
    """The toy game under its own name."""

    name = "stricttoy"
    title = TITLE

    def _new_state(self, seed: int, options: dict[str, Any], dice: Dice) -> StrictState:
        state = super()._new_state(seed, options, dice)
        state.__class__ = StrictState
        return state  # type: ignore[return-value]


def load_game(data_dir: Path | None = None) -> StrictGame:
    return StrictGame()
