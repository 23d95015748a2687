"""A tiny hex-map game for testing the client's map drawing: one unit a side on a 3x5 map;
a unit moves to an adjacent hex; entering the enemy's starting hex wins ("HEX 1").
Its board data (`client_data`) follows the documented format of docs/server.md."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from henderson.core.dice import Dice
from henderson.core.errors import IllegalAction, NotationError
from henderson.core.events import Event
from henderson.core.game import Game, State
from henderson.core.hexgrid import Hex, distance

TITLE = "Hex race (test game)"
ROWS, COLS = 3, 5
HOME = {"red": "0101", "blue": "0305"}
UNITS = {"red": "r1", "blue": "b1"}
LIMIT = 40


def axial(hex_id: str) -> Hex:
    row, col = int(hex_id[:2]), int(hex_id[2:])
    return Hex(col - (row - (row & 1)) // 2, row)


HEXES = [f"{r:02d}{c:02d}" for r in range(1, ROWS + 1) for c in range(1, COLS + 1)]


@dataclass(frozen=True)
class Move:
    unit: str
    to: str

    def __str__(self) -> str:
        return f"{self.unit} {self.to}"


class HexState(State):
    def __init__(self, game: HexGame, seed: int, dice: Dice) -> None:
        self.seed = seed
        self.dice = dice
        self.options: dict[str, Any] = {}
        self._game = game
        self.at = dict(HOME)
        self.to_move = "red"
        self._ply = 0

    @property
    def game(self) -> HexGame:
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
        if not self.is_terminal():
            return None
        return "a home hex taken" if self.winner() else f"{LIMIT} plies"

    def current_player(self) -> str | None:
        return None if self.is_terminal() else self.to_move

    def legal_actions(self) -> list[Move]:
        if self.is_terminal():
            return []
        here = axial(self.at[self.to_move])
        return [Move(UNITS[self.to_move], h) for h in HEXES if distance(axial(h), here) == 1]

    def _apply(self, action: Move) -> list[Event]:  # type: ignore[override]
        if action not in self.legal_actions():
            raise IllegalAction("HEX 1", f"{action} is not a move to an adjacent hex")
        self.at[self.to_move] = action.to
        event = Event("move", f"{action.unit} moves to {action.to}", {"unit": action.unit, "to": action.to})
        self.to_move = "blue" if self.to_move == "red" else "red"
        self._ply += 1
        return [event]

    def clone(self) -> HexState:
        other = HexState(self._game, self.seed, self.dice.clone())
        other.at = dict(self.at)
        other.to_move = self.to_move
        other._ply = self._ply
        return other

    def winner(self) -> str | None:
        if self.at["red"] == HOME["blue"]:
            return "red"
        if self.at["blue"] == HOME["red"]:
            return "blue"
        return None

    def is_terminal(self) -> bool:
        return self.winner() is not None or self._ply >= LIMIT

    def view(self, side: str | None) -> dict[str, Any]:
        return {
            "to_move": self.to_move,
            "ply": self._ply,
            "units": [
                {"id": UNITS[s], "side": s, "hex": self.at[s], "lines": [UNITS[s], "1-1"]} for s in ("red", "blue")
            ],
        }

    def to_json(self) -> dict[str, Any]:
        return {"format": "henderson-position", "game": "hextoy", "version": 1, **self.view(None)}


class HexGame(Game):
    name = "hextoy"
    title = TITLE
    sides = ("red", "blue")
    rules_prefix = "HEX"
    end_rule = "HEX 1"
    data_version = "1"
    data_dir = Path(__file__).parent

    def _new_state(self, seed: int, options: dict[str, Any], dice: Dice) -> HexState:
        return HexState(self, seed, dice)

    def load_state(self, obj: Mapping[str, Any], *, dice: Dice | None = None) -> HexState:
        raise NotImplementedError

    def parse_action(self, text: str) -> Move:
        parts = text.split()
        if len(parts) != 2 or parts[1] not in HEXES:
            raise NotationError(text, "expected '<unit> <hex>', e.g. 'r1 0102'")
        return Move(parts[0], parts[1])

    def render_text(self, state: State, viewer: str | None = None) -> str:
        assert isinstance(state, HexState)
        return str(state.at)

    def client_data(self) -> dict[str, Any]:
        """Hex centres for pointy-top hexes of circumradius 1, rows drawn top to bottom."""
        hexes = []
        for h in HEXES:
            a = axial(h)
            hexes.append(
                {
                    "id": h,
                    "x": math.sqrt(3) * (a.q + a.r / 2),
                    "y": 1.5 * a.r,
                    "terrain": "jungle" if h in ("0203", "0204") else "clear",
                }
            )
        return {
            "hex_size": 1,
            "orientation": "pointy",
            "hexes": hexes,
            "hexsides": [{"hexes": ["0102", "0103"], "kind": "river"}],
            "markers": [{"hex": "0201", "kind": "airfield", "short": "AF"}],
            "labels": [{"hex": "0303", "text": "Hills"}],
            "boxes": [{"id": "reserve", "text": "Reserve", "x": 0, "y": 5.5, "w": 4, "h": 1.5}],
        }


def load_game(data_dir: Path | None = None) -> HexGame:
    return HexGame()
