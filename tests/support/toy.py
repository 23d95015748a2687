"""A tiny two-player dice game implementing the game API, for testing game-independent code
(agents, simulation, records, server) without depending on a real game's rules.

Pig race: sides "red" and "blue" take turns; a turn is a sequence of `roll` (add
the die to the turn total, lose it on a 1) and `hold` (bank it). First to 20 wins.
Each side also holds a secret `card` drawn at the start, hidden from the other
side's view, so fog-of-war plumbing can be tested.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from henderson.core.dice import Dice, SeededDice, dice_from_json
from henderson.core.errors import NotationError, PositionError
from henderson.core.events import Event, roll_event
from henderson.core.game import Capability, Game, State

TITLE = "Pig race (test game)"
TARGET = 20


@dataclass(frozen=True)
class ToyAction:
    verb: str  # "roll" or "hold"

    def __str__(self) -> str:
        return self.verb


ROLL, HOLD = ToyAction("roll"), ToyAction("hold")


class ToyState(State):
    def __init__(self, game: ToyGame, dice: Dice, seed: int | None) -> None:
        self._game = game
        self.dice = dice
        self.seed = seed
        self.options: dict[str, Any] = {}
        self.scores = {"red": 0, "blue": 0}
        self.cards = {"red": 0, "blue": 0}
        self.turn_total = 0
        self.to_move = "red"
        self._ply = 0

    @property
    def game(self) -> ToyGame:
        return self._game

    @property
    def ply(self) -> int:
        return self._ply

    @property
    def turn(self) -> int:
        return self._ply // 2 + 1

    @property
    def step(self) -> str:
        return self.to_move

    @property
    def end_cause(self) -> str | None:
        return f"{TARGET} points" if self.is_terminal() else None

    def current_player(self) -> str | None:
        return None if self.is_terminal() else self.to_move

    def legal_actions(self) -> list[ToyAction]:
        return [] if self.is_terminal() else [ROLL, HOLD]

    def _apply(self, action: ToyAction) -> list[Event]:  # type: ignore[override]
        events: list[Event] = []
        if action == ROLL:
            value = self.dice.roll("TOY 2 turn roll")
            events.append(roll_event("TOY 2 turn roll", 6, value))
            if value == 1:
                self.turn_total = 0
                self._pass()
            else:
                self.turn_total += value
        else:
            self.scores[self.to_move] += self.turn_total
            events.append(Event("hold", f"{self.to_move} banks {self.turn_total}"))
            self.turn_total = 0
            if not self.is_terminal():
                self._pass()
        self._ply += 1
        return events

    def _pass(self) -> None:
        self.to_move = "blue" if self.to_move == "red" else "red"

    def clone(self) -> ToyState:
        other = ToyState(self._game, self.dice.clone(), self.seed)
        other.scores = dict(self.scores)
        other.cards = dict(self.cards)
        other.turn_total = self.turn_total
        other.to_move = self.to_move
        other._ply = self._ply
        return other

    def is_terminal(self) -> bool:
        return max(self.scores.values()) >= TARGET

    def winner(self) -> str | None:
        for side, score in self.scores.items():
            if score >= TARGET:
                return side
        return None

    def view(self, side: str | None) -> dict[str, Any]:
        data = self.to_json()
        data.pop("dice", None)
        data["cards"] = {s: c for s, c in self.cards.items() if s == side}
        return data

    def sample_unseen(self, side: str | None, rng: random.Random) -> ToyState:
        """The other side's secret card drawn again (a spectator sees neither)."""
        clone = self.clone()
        clone.dice = SeededDice(rng.getrandbits(63))
        for s in self._game.sides:
            if s != side:
                clone.cards[s] = rng.randint(1, 10)
        return clone

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "henderson-position",
            "game": "toy",
            "version": 1,
            "scores": dict(self.scores),
            "cards": dict(self.cards),
            "turn_total": self.turn_total,
            "to_move": self.to_move,
            "ply": self._ply,
            "dice": self.dice.to_json(),
        }


class ToyGame(Game):
    name = "toy"
    title = TITLE
    sides = ("red", "blue")
    rules_prefix = "TOY"
    capabilities = frozenset({Capability.HIDDEN_INFORMATION})  # each side's secret card
    end_rule = "TOY 1"
    data_version = "1"
    data_dir = Path(__file__).parent

    def _new_state(self, seed: int, options: dict[str, Any], dice: Dice) -> ToyState:
        state = ToyState(self, dice, seed)
        for side in self.sides:
            state.cards[side] = state.dice.roll(f"TOY 3 {side} secret card", 10)
        return state

    def load_state(self, obj: Mapping[str, Any], *, dice: Dice | None = None) -> ToyState:
        try:
            state = ToyState(self, dice or dice_from_json(obj.get("dice")) or SeededDice(0), None)
            state.scores = {s: int(obj["scores"][s]) for s in self.sides}
            state.cards = {s: int(obj["cards"][s]) for s in self.sides}
            state.turn_total = int(obj["turn_total"])
            state.to_move = str(obj["to_move"])
            state._ply = int(obj.get("ply", 0))
        except (KeyError, TypeError, ValueError) as exc:
            raise PositionError("", f"bad toy position ({exc})") from None
        return state

    def parse_action(self, text: str) -> ToyAction:
        text = text.strip().lower()
        if text == "roll":
            return ROLL
        if text == "hold":
            return HOLD
        raise NotationError(text, "expected 'roll' or 'hold'")

    def render_text(self, state: State, viewer: str | None = None) -> str:
        assert isinstance(state, ToyState)
        return f"red {state.scores['red']} blue {state.scores['blue']} ({state.to_move} has {state.turn_total})"

    def client_data(self) -> dict[str, Any]:
        return {}


def load_game(data_dir: Path | None = None) -> ToyGame:
    return ToyGame()
