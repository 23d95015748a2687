"""How agents find a game's evaluation function, and how they use it."""

from __future__ import annotations

from henderson import games
from henderson.agents import evaluation
from henderson.agents.evaluation import (
    evaluator_for,
    find_evaluator,
    register_evaluator,
    unregister_evaluator,
    value,
)
from henderson.core.game import Capability
from tests.server.hex_toy import HexGame


def test_a_game_with_the_evaluation_capability_supplies_its_own() -> None:
    for name in ("firstblood", "deluxe", "aag"):
        game = games.get(name)
        assert Capability.EVALUATION in game.capabilities
        assert find_evaluator(game) == game.evaluate
        state = game.new_state(3)
        assert -1.0 <= evaluator_for(game)(state, "us") <= 1.0


def test_a_game_without_evaluation_gets_the_neutral_one() -> None:
    game = HexGame()
    assert Capability.EVALUATION not in game.capabilities
    assert find_evaluator(game) is None
    assert evaluator_for(game) is evaluation.neutral


def test_a_registered_evaluation_takes_the_place_of_the_games_own() -> None:
    game = games.get("deluxe")
    register_evaluator("deluxe", lambda state, side: 0.25)
    try:
        assert evaluator_for(game)(game.new_state(1), "us") == 0.25
    finally:
        unregister_evaluator("deluxe")
    assert find_evaluator(game) == game.evaluate


def test_value_uses_returns_when_over_and_clamps_the_evaluation() -> None:
    game = games.get("toy")
    over = game.load_state(
        {
            "format": "henderson-position",
            "game": "toy",
            "version": 1,
            "step": "blue",
            "entered": True,
            "scores": {"red": 21, "blue": 0},
            "cards": {"red": 1, "blue": 1},
            "turn_total": 0,
            "result": {"winner": "red", "cause": "20 points"},
        }
    )
    assert value(over, "red", lambda s, side: 0.0) == 1.0
    assert value(over, "blue", lambda s, side: 0.0) == -1.0
    going = game.new_state(0)
    assert value(going, "red", lambda s, side: 7.0) == 1.0
    assert value(going, "red", lambda s, side: -7.0) == -1.0
