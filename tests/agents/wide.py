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

from henderson.core.dice import Dice, SeededDice
from henderson.core.errors import IllegalAction, NotationError
from henderson.core.events import Event, roll_event

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


class WideState:
    def __init__(self, game: WideGame, dice: Dice) -> None:
        self._game = game
        self.dice = dice
        self.scores = {"a": 0, "b": 0}
        self._ply = 0

    @property
    def game(self) -> WideGame:
        return self._game

    @property
    def ply(self) -> int:
        return self._ply

    def current_player(self) -> str | None:
        return None if self.is_terminal() else ("a" if self._ply % 2 == 0 else "b")

    def legal_actions(self) -> list[Take]:
        if self.is_terminal():
            return []
        return [Take(i, j) for i in range(UNITS) for j in range(UNITS)]

    def apply(self, action: Take | str) -> list[Event]:
        if isinstance(action, str):
            action = self._game.parse_action(action)
        if self.is_terminal():
            raise IllegalAction("WIDE 1", "the game is over")
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

    def returns(self) -> dict[str, float]:
        w = self.winner()
        return {s: 0.0 if w is None else (1.0 if s == w else -1.0) for s in ("a", "b")}

    def view(self, side: str | None) -> dict[str, Any]:
        return self.to_json()

    def to_json(self) -> dict[str, Any]:
        return {"scores": dict(self.scores), "ply": self._ply, "dice": self.dice.to_json()}


class WideGame:
    name = "wide"
    title = TITLE
    sides = ("a", "b")
    data_version = "1"
    data_dir = Path(__file__).parent

    def new_state(self, seed: int | None = None, *, options: Any = None, dice: Any = None) -> WideState:
        return WideState(self, dice or SeededDice(seed or 0))

    def load_state(self, obj: Any, *, dice: Any = None) -> WideState:
        raise NotImplementedError

    def parse_action(self, text: str) -> Take:
        words = text.split()
        try:
            assert words[0] == "take" and words[1].startswith("u")
            return Take(int(words[1][1:]), int(words[2]))
        except (AssertionError, IndexError, ValueError):
            raise NotationError(text, "expected 'take uI J'") from None

    def render_text(self, state: WideState) -> str:
        return str(state.scores)


def evaluate(state: WideState, side: str) -> float:
    """Score difference, squashed."""
    other = "b" if side == "a" else "a"
    return math.tanh((state.scores[side] - state.scores[other]) / 60.0)


def load_game(data_dir: Path | None = None) -> WideGame:
    return WideGame()
