"""Exact battle-box odds: they sum to one, match hand calculations, and match the engine
itself over every roll of the dice."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from henderson.core.errors import NotationError
from henderson.games.aag.odds import airfield_odds, odds

from .helpers import game, piece, position


def test_one_die_against_one_infantry():
    o = odds(game().data, "land", 1, {"infantry": 1})
    assert o.by_type() == {"infantry": {(0, 0): Fraction(2, 3), (1, 0): Fraction(1, 3)}}


def test_probabilities_sum_to_one_and_heavy_armor_absorbs_first_hit():
    o = odds(
        game().data, "sea", 10, {"destroyer": 2, "cruiser": 1, "battleship": 1, "transport": 2}
    )
    assert sum(o.outcomes.values()) == 1
    bb = odds(game().data, "sea", 1, {"battleship": 1})
    assert bb.by_type()["battleship"] == {(0, 0): Fraction(1)}  # AAG Heavy Armor


def test_airfield_odds_one_damage_per_two_hits():
    dist = airfield_odds(2, 1)
    assert dist == {0: Fraction(8, 9), 1: Fraction(1, 9)}


def test_odds_match_the_engine_over_every_roll():
    """3 sea dice against a destroyer, a battleship and a transport: all 216 rolls."""
    force = {"destroyer": 1, "battleship": 1, "transport": 1}
    expected = odds(game().data, "sea", 3, force).outcomes
    seen: Counter = Counter()
    for roll in itertools.product(range(1, 7), repeat=3):
        pieces = [
            piece("us1", "battleship", "H"),
            piece("jp1", "destroyer", "H"),
            piece("jp2", "battleship", "H"),
            piece("jp3", "transport", "H"),
        ]
        state = position(pieces, [*roll, 6, 6, 6, 6], step="combat:sea", first="us", airfields=[])
        state.apply("fight H")
        outcome = []
        for pid, kind in (("jp2", "battleship"), ("jp1", "destroyer"), ("jp3", "transport")):
            p = state.pieces.get(pid)
            outcome.append((kind, int(p is None), int(p is not None and p.damaged)))
        seen[tuple(outcome)] += 1
    got = {k: Fraction(v, 216) for k, v in seen.items()}
    assert got == {k: v for k, v in expected.items() if v}


def test_odds_spec_parsing():
    g = game()
    o = g.odds(None, "10 sea: 2 destroyers, 1 cruiser, 1 battleship, 2 transport")
    assert o.force == {"battleship": 1, "cruiser": 1, "destroyer": 2, "transport": 2}
    assert (
        g.odds(None, "6 airfields: 2")[0]
        == Fraction(2, 3) ** 6 + 6 * Fraction(1, 3) * Fraction(2, 3) ** 5
    )
    with pytest.raises(NotationError):
        g.odds(None, "10 sea: 2 infantry")
    with pytest.raises(NotationError):
        g.odds(None, "sea 10")


def test_state_odds_for_a_zone():
    state = position(
        [piece("us1", "cruiser", "H"), piece("jp1", "transport", "H")],
        step="combat:sea",
        first="us",
    )
    o = state.odds("H", "sea", "us")
    assert o.dice == 2 and o.by_type()["transport"][(1, 0)] == Fraction(5, 9)
