"""Shared fixtures for the FIRST BLOOD rules tests: the game, and positions written by hand."""

from __future__ import annotations

from typing import Any

import pytest

from henderson import games
from henderson.core.dice import ScriptedDice
from henderson.games.firstblood.state import FBState


@pytest.fixture(scope="session")
def game() -> Any:
    return games.get("firstblood")


@pytest.fixture
def pos(game: Any) -> Any:
    """Build a state from a hand-written position: `pos("us_movement", ground={...}, dice=[4])`."""

    def make(phase: str, turn: str = "SEP II", dice: list[int] | None = None, **fields: Any) -> FBState:
        obj: dict[str, Any] = {"format": "henderson-position", "game": "firstblood", "version": 1}
        obj.update(turn=turn, phase=phase, **fields)
        return game.load_state(obj, dice=ScriptedDice(dice or []))

    return make


def mf_left(st: FBState, unit: str) -> float:
    return st.mf[unit] / 2
