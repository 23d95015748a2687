"""`game.odds(state, spec)` for Deluxe Guadalcanal: an assault built on a copy, read exactly, never rolled."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from henderson import games
from henderson.core.errors import HendersonError


def an_assault():
    game = games.get("deluxe")
    state = game.new_state(5)
    rng = random.Random(5)
    for _ in range(5000):
        acts = [str(a) for a in state.legal_actions()]
        for attack in (a for a in acts if a.startswith("attack ")):
            trial = state.clone()
            trial.apply(attack)
            withs = [str(a) for a in trial.legal_actions() if str(a).startswith("with ")]
            if withs:
                return game, state, f"{attack}; {withs[0]}"
        state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no assault came up")


def test_dg_8_2_1_4_odds_of_an_assault_are_exact_and_leave_the_position_alone():
    game, state, spec = an_assault()
    before = state.to_json()
    odds = game.odds(state, spec)
    assert state.to_json() == before
    data = odds.to_json()
    assert data["results"] and sum(Fraction(r["chance"]) for r in data["results"]) == 1
    assert "column" in odds.text()


def test_dg_odds_without_an_assault_say_so():
    game = games.get("deluxe")
    with pytest.raises(HendersonError, match="no assault"):
        game.odds(game.new_state(1), "")
