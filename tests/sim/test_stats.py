"""Wilson intervals, Elo-style ratings and summaries against values worked out by hand."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from henderson.sim.stats import Rate, elo_ratings, summarise, wilson


def test_wilson_seven_of_ten() -> None:
    # p = .7, z² = 3.8415: centre (.7 + .19207) / 1.38415 = .64449,
    # half-width 1.95996 * sqrt(.021 + .0096037) / 1.38415 = .24772
    lo, hi = wilson(7, 10)
    assert lo == pytest.approx(0.39678, abs=1e-5)
    assert hi == pytest.approx(0.89221, abs=1e-5)


def test_wilson_extremes() -> None:
    # 0 of 10: upper bound z² / (n + z²) = 3.8415 / 13.8415 = .27753
    assert wilson(0, 10) == pytest.approx((0.0, 0.27753), abs=1e-5)
    assert wilson(10, 10)[0] == pytest.approx(1 - 0.27753, abs=1e-5)
    assert wilson(0, 0) == (0.0, 1.0)


@given(st.integers(1, 500), st.data())
def test_wilson_contains_the_estimate(n: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, n))
    lo, hi = wilson(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0


def test_rate_text() -> None:
    assert Rate(7, 10).text() == "70.0% (39.7–89.2)"


def test_elo_two_agents_three_wins_in_four() -> None:
    # without the prior: odds 3 : 1, difference 400 log10 3 = 190.85, so ±95.42
    plain = elo_ratings({("a", "b"): (3.0, 4)}, ["a", "b"], prior_games=0)
    assert plain["a"] == pytest.approx(400 * math.log10(3) / 2, abs=1e-6)
    assert plain["b"] == pytest.approx(-plain["a"])
    # one drawn virtual game: 3.5 : 1.5, difference 400 log10 (7/3) = 147.19
    prior = elo_ratings({("a", "b"): (3.0, 4)}, ["a", "b"])
    assert prior["a"] - prior["b"] == pytest.approx(400 * math.log10(7 / 3), abs=1e-6)


def test_elo_recovers_bradley_terry_strengths() -> None:
    strengths = {"x": 1.0, "y": 2.0, "z": 4.0}
    scores = {}
    for a in strengths:
        for b in strengths:
            if a < b:
                p = strengths[a] / (strengths[a] + strengths[b])
                scores[(a, b)] = (1000 * p, 1000)
    ratings = elo_ratings(scores, list(strengths), prior_games=0)
    step = 400 * math.log10(2)
    assert ratings["x"] == pytest.approx(-step, abs=1e-4)
    assert ratings["y"] == pytest.approx(0.0, abs=1e-4)
    assert ratings["z"] == pytest.approx(step, abs=1e-4)


def test_an_unbeaten_agent_gets_a_finite_rating() -> None:
    ratings = elo_ratings({("a", "b"): (20.0, 20)}, ["a", "b"])
    # 20.5 : 0.5 over 21 games
    assert ratings["a"] - ratings["b"] == pytest.approx(400 * math.log10(41), abs=1e-6)


def test_summary_counts_wins_draws_unfinished_and_causes() -> None:
    rows = [
        {
            "winner": "us",
            "returns": {"us": 1, "jp": -1},
            "plies": 10,
            "turns": 3,
            "cause": "airfield",
        },
        {
            "winner": "us",
            "returns": {"us": 1, "jp": -1},
            "plies": 20,
            "turns": 5,
            "cause": "airfield",
        },
        {
            "winner": "jp",
            "returns": {"us": -1, "jp": 1},
            "plies": 30,
            "turns": 4,
            "cause": "points",
        },
        {"winner": None, "returns": {"us": 0, "jp": 0}, "plies": 40, "turns": 8, "cause": None},
        {"winner": None, "returns": None, "plies": 0, "turns": None, "cause": None, "error": "X"},
    ]
    s = summarise(rows, ["us", "jp"])
    assert (s.games, s.wins, s.draws, s.unfinished, s.errors) == (5, {"us": 2, "jp": 1}, 1, 1, 1)
    assert s.mean_plies == 20.0
    assert s.mean_turns == 5.0
    assert s.causes == {"airfield": 2, "points": 1, "not given": 1, "error": 1}
    assert s.rate("us").p == 0.4
