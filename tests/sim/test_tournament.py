"""`tournament`: every pair from both sides, consistent scores, ratings, side balance."""

from __future__ import annotations

import pytest

from henderson.sim import SimulationError, tournament
from henderson.sim.stats import elo_ratings


def test_every_pairing_plays_from_both_sides() -> None:
    result = tournament("toy", ["random", "heuristic"], 20, seed=3)
    assert set(result.games) == {
        ("random", "random"),
        ("random", "heuristic"),
        ("heuristic", "random"),
        ("heuristic", "heuristic"),
    }
    assert all(len(rows) == 20 for rows in result.games.values())
    ab, ba = result.score("heuristic", "random"), result.score("random", "heuristic")
    assert ab.n == ba.n == 40
    assert ab.p + ba.p == pytest.approx(1.0)
    assert ab.interval[0] > 0.5  # the heuristic is clearly better than random here
    ratings = result.ratings()
    assert ratings["heuristic"] > ratings["random"]
    assert ratings == pytest.approx(
        elo_ratings(
            {("heuristic", "random"): result.points("heuristic", "random")}, ["heuristic", "random"]
        )
    )
    assert result.balance("random").n == 20
    red = result.seat_score("heuristic", "red")
    blue = result.seat_score("heuristic", "blue")
    assert red.n == blue.n == 20
    assert red.successes + blue.successes == result.points("heuristic", "random")[0]


def test_without_mirror_games_no_balance_is_measured() -> None:
    result = tournament("toy", ["random", "easy"], 4, mirror=False)
    assert set(result.games) == {("random", "easy"), ("easy", "random")}
    assert "balance" in result.to_json() and result.to_json()["balance"] == {}


def test_workers_do_not_change_a_tournament() -> None:
    one = tournament("toy", ["random", "normal"], 6, workers=1, seed=8)
    two = tournament("toy", ["random", "normal"], 6, workers=2, seed=8)
    assert one.games == two.games


@pytest.mark.parametrize(
    ("names", "says"),
    [
        (["random"], "at least two"),
        (["random", "random"], "at least two"),
        (["random", "zz"], "unknown agent"),
    ],
)
def test_bad_tournaments_are_one_line_errors(names: list[str], says: str) -> None:
    with pytest.raises(Exception, match=says):
        tournament("toy", names, 2)


def test_a_tournament_needs_games() -> None:
    with pytest.raises(SimulationError, match="at least 1"):
        tournament("toy", ["random", "easy"], 0)
