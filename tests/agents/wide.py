"""A test game with a wide action space: each ply a side takes one of 16 x 16 items.

Sides "a" and "b" alternate for six plies; `take uI J` adds a fixed worth (from a
seeded table) plus a d6 roll to the taker's score; the higher score wins (a on ties).
The notation's first words name the "unit" (uI), so search can group by it.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from henderson.core.dice import Dice
from henderson.core.errors import NotationError
from henderson.core.events import Event, roll_event
from henderson.core.game import Capability, Game, State

TITLE = "Wide take (test game)"
UNITS = 16
PLIES = 6
_rng = random.Random(5)
WORTH = {(p, i, j): _rng.randrange(100) for p in range(PLIES) for i in range(UNITS) for j in range(UNITS)}


@dataclass(frozen=True)
class Take:
    unit: int
    item: int

    def __str__(self) -> str:
        return f"take u{self.unit} {self.item}"


class WideState(State):
    def __init__(self, game: WideGame, dice: Dice) -> None:
        self._game = game
        self.dice = dice
        self.seed = None
        self.options: dict[str, Any] = {}
        self.scores = {"a": 0, "b": 0}
        self._ply = 0

    @property
    def game(self) -> WideGame:
        return self._game

    @property
    def ply(self) -> int:
        return self._ply

    @property
    def turn(self) -> int:
        return self._ply // 2 + 1

    @property
    def step(self) -> str:
        return "take"

    @property
    def end_cause(self) -> str | None:
        return "the higher score" if self.is_terminal() else None

    def current_player(self) -> str | None:
        return None if self.is_terminal() else ("a" if self._ply % 2 == 0 else "b")

    def legal_actions(self) -> list[Take]:
        if self.is_terminal():
            return []
        return [Take(i, j) for i in range(UNITS) for j in range(UNITS)]

    def _apply(self, action: Take) -> list[Event]:  # type: ignore[override]
        roll = self.dice.roll("WIDE 2 bonus")
        side = self.current_player()
        assert side is not None
        self.scores[side] += WORTH[(self._ply, action.unit, action.item)] + roll
        self._ply += 1
        return [roll_event("WIDE 2 bonus", 6, roll)]

    def clone(self) -> WideState:
        other = WideState(self._game, self.dice.clone())
        other.scores = dict(self.scores)
        other._ply = self._ply
        return other

    def is_terminal(self) -> bool:
        return self._ply >= PLIES

    def winner(self) -> str | None:
        if not self.is_terminal():
            return None
        return "a" if self.scores["a"] >= self.scores["b"] else "b"

    def to_json(self) -> dict[str, Any]:
        return {"scores": dict(self.scores), "ply": self._ply, "dice": self.dice.to_json()}


class WideGame(Game):
    name = "wide"
    title = TITLE
    sides = ("a", "b")
    rules_prefix = "WIDE"
    capabilities = frozenset({Capability.EVALUATION})
    end_rule = "WIDE 1"
    data_version = "1"
    data_dir = Path(__file__).parent

    def _new_state(self, seed: int, options: dict[str, Any], dice: Dice) -> WideState:
        state = WideState(self, dice)
        state.seed = seed
        return state

    def load_state(self, obj: Any, *, dice: Any = None) -> WideState:
        raise NotImplementedError

    def parse_action(self, text: str) -> Take:
        words = text.split()
        try:
            assert words[0] == "take" and words[1].startswith("u")
            return Take(int(words[1][1:]), int(words[2]))
        except (AssertionError, IndexError, ValueError):
            raise NotationError(text, "expected 'take uI J'") from None

    def render_text(self, state: State, viewer: str | None = None) -> str:
        assert isinstance(state, WideState)
        return str(state.scores)

    def client_data(self) -> dict[str, Any]:
        return {}

    def evaluate(self, state: State, side: str) -> float:
        assert isinstance(state, WideState)
        return evaluate(state, side)


def evaluate(state: WideState, side: str) -> float:
    """Score difference, squashed."""
    other = "b" if side == "a" else "a"
    return math.tanh((state.scores[side] - state.scores[other]) / 60.0)


def load_game(data_dir: Path | None = None) -> WideGame:
    return WideGame()
