"""An evaluation function for the toy pig race, as a game would supply in its `evaluate` module."""

from __future__ import annotations

import math
from typing import Any

from henderson import games
from henderson.agents.evaluation import register_evaluator

TURN_WEIGHT = 0.8  # points at risk in the turn total are worth less than banked ones


def evaluate(state: Any, side: str) -> float:
    """How far ahead `side` is, squashed into -1..1: banked points plus most of the turn total."""
    other = "blue" if side == "red" else "red"
    mine = state.scores[side] + (TURN_WEIGHT * state.turn_total if state.to_move == side else 0)
    theirs = state.scores[other] + (TURN_WEIGHT * state.turn_total if state.to_move == other else 0)
    return math.tanh((mine - theirs) / 8.0)


def install() -> None:
    """Register the toy game and this evaluation (idempotent)."""
    games.register("toy", "tests.support.toy")
    register_evaluator("toy", evaluate)
