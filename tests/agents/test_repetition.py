"""Agents do not swap for ever between positions a free choice can undo."""

from __future__ import annotations

from typing import Any

import pytest

from henderson import agents
from henderson.agents.evaluation import register_evaluator
from henderson.core.dice import SeededDice


class LoopState:
    """One side may `toggle` a flag for free, or `end` the game, which it loses."""

    def __init__(self, game: LoopGame) -> None:
        self._game = game
        self.dice = SeededDice(0)
        self.flag = False
        self.over = False
        self._ply = 0

    game = property(lambda self: self._game)
    ply = property(lambda self: self._ply)

    def current_player(self) -> str | None:
        return None if self.over else "a"

    def legal_actions(self) -> list[str]:
        return [] if self.over else ["toggle", "end"]

    def apply(self, action: Any) -> list[Any]:
        if str(action) == "toggle":
            self.flag = not self.flag
        else:
            self.over = True
        self._ply += 1
        return []

    def clone(self) -> LoopState:
        other = LoopState(self._game)
        other.flag, other.over, other._ply, other.dice = self.flag, self.over, self._ply, self.dice.clone()
        return other

    def is_terminal(self) -> bool:
        return self.over

    def winner(self) -> str | None:
        return "b" if self.over else None

    def returns(self) -> dict[str, float]:
        return {"a": -1.0, "b": 1.0} if self.over else {"a": 0.0, "b": 0.0}

    def to_json(self) -> dict[str, Any]:
        return {"flag": self.flag, "over": self.over, "ply": self._ply, "dice": self.dice.to_json()}


class LoopGame:
    name = "loop"
    sides = ("a", "b")


@pytest.mark.parametrize("spec", ["heuristic", "normal", "mcts:iterations=30", "hard:iterations=30"])
def test_a_free_undo_does_not_trap_an_agent(spec: str) -> None:
    register_evaluator("loop", lambda state, side: 0.5 if side == "a" else -0.5)
    state = LoopState(LoopGame())
    agent = agents.get(spec, 1)
    while not state.is_terminal() and state.ply < 50:
        state.apply(agent.choose(state))
    assert state.is_terminal(), "the agent toggled for ever"
    assert state.ply <= 3
