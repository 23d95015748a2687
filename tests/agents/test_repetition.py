"""Agents do not swap for ever between positions a free choice can undo."""

from __future__ import annotations

from typing import Any

import pytest

from henderson import agents
from henderson.agents.evaluation import register_evaluator
from henderson.core.dice import SeededDice
from henderson.core.game import Game, State


class LoopState(State):
    """One side may `toggle` a flag for free, or `end` the game, which it loses."""

    def __init__(self, game: LoopGame) -> None:
        self._game = game
        self.dice = SeededDice(0)
        self.seed = 0
        self.options: dict[str, Any] = {}
        self.flag = False
        self.over = False
        self._ply = 0

    game = property(lambda self: self._game)
    ply = property(lambda self: self._ply)
    turn = property(lambda self: 1)
    step = property(lambda self: "loop")
    end_cause = property(lambda self: "ended" if self.over else None)

    def current_player(self) -> str | None:
        return None if self.over else "a"

    def legal_actions(self) -> list[str]:
        return [] if self.over else ["toggle", "end"]

    def _apply(self, action: Any) -> list[Any]:
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

    def to_json(self) -> dict[str, Any]:
        return {"flag": self.flag, "over": self.over, "ply": self._ply, "dice": self.dice.to_json()}


class LoopGame(Game):
    name = "loop"
    title = "Loop (test game)"
    sides = ("a", "b")
    rules_prefix = "LOOP"

    def _new_state(self, seed: int, options: dict[str, Any], dice: Any) -> LoopState:
        return LoopState(self)

    def load_state(self, obj: Any, *, dice: Any = None) -> LoopState:
        raise NotImplementedError

    def parse_action(self, text: str) -> Any:
        return text

    def render_text(self, state: State, viewer: str | None = None) -> str:
        return "loop"

    def client_data(self) -> dict[str, Any]:
        return {}


@pytest.mark.parametrize("spec", ["heuristic", "normal", "mcts:iterations=30", "hard:iterations=30"])
def test_a_free_undo_does_not_trap_an_agent(spec: str) -> None:
    register_evaluator("loop", lambda state, side: 0.5 if side == "a" else -0.5)
    state = LoopState(LoopGame())
    agent = agents.get(spec, 1)
    while not state.is_terminal() and state.ply < 50:
        state.apply(agent.choose(state))
    assert state.is_terminal(), "the agent toggled for ever"
    assert state.ply <= 3
