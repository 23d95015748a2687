"""`tournament`: every pair from both sides, consistent scores, ratings, side balance."""

from __future__ import annotations

import json

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
        elo_ratings({("heuristic", "random"): result.points("heuristic", "random")}, ["heuristic", "random"])
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


def test_resume_keeps_finished_games_and_plays_the_rest(tmp_path) -> None:
    out = tmp_path / "games.jsonl"
    small = tournament("toy", ["random", "normal"], 3, seed=4, out=out)
    lines = out.read_text().splitlines()
    # a game broken off (an error) is played again; a line of another run's seed is dropped
    broken = json.loads(lines[0])
    broken["error"] = "KeyboardInterrupt: "
    foreign = json.loads(lines[1])
    foreign["seed"] += 1
    out.write_text("\n".join([json.dumps(broken), json.dumps(foreign), *lines[2:]]) + "\n")
    larger = tournament("toy", ["random", "normal"], 5, seed=4, out=out, resume=True)
    fresh = tournament("toy", ["random", "normal"], 5, seed=4)

    def every(result: object) -> list[dict]:
        rows = [r for group in result.games.values() for r in group]  # type: ignore[attr-defined]
        return sorted(rows, key=lambda r: (r["agents"]["red"], r["agents"]["blue"], r["index"]))

    assert every(larger) == every(fresh)
    assert len(out.read_text().splitlines()) == 4 * 5  # every game once
    assert all(small.games[p][i] in larger.games[p] for p in small.games for i in range(3))


def test_resume_needs_a_results_file() -> None:
    with pytest.raises(SimulationError, match="--resume needs the results file"):
        tournament("toy", ["random", "normal"], 2, resume=True)


def test_games_are_played_index_by_index_in_every_seating(tmp_path) -> None:
    # a run stopped early then holds as many games of each seating, paired by game seed
    out = tmp_path / "order.jsonl"
    tournament("toy", ["random", "easy"], 3, seed=5, mirror=False, out=out)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["index"] for r in rows] == [0, 0, 1, 1, 2, 2]
    assert [r["agents"]["red"] for r in rows] == ["random", "easy"] * 3
    assert rows[0]["seed"] == rows[1]["seed"] != rows[2]["seed"]
