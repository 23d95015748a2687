"""`simulate`: seeded, independent of the number of workers, JSON lines, records, Ctrl-C."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from henderson import games
from henderson.core.record import GameRecord, replay
from henderson.sim import SimulationError, read_results, simulate
from tests.sim import stubs

FIELDS = {"index", "seed", "agents", "winner", "returns", "plies", "turns", "cause"}


def test_the_same_seed_gives_the_same_games(tmp_path: Path) -> None:
    a = simulate("toy", 30, {"red": "heuristic", "blue": "random"}, seed=4)
    b = simulate("toy", 30, {"red": "heuristic", "blue": "random"}, seed=4)
    c = simulate("toy", 30, {"red": "heuristic", "blue": "random"}, seed=5)
    assert a.results == b.results
    assert a.results != c.results


def test_results_do_not_depend_on_the_number_of_workers(tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    specs = {"red": "mcts:iterations=20", "blue": "easy"}
    simulate("toy", 24, specs, workers=1, seed=9, out=one)
    simulate("toy", 24, specs, workers=2, seed=9, out=two)
    assert one.read_bytes() == two.read_bytes()


def test_one_json_line_per_game_in_index_order(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    result = simulate("toy", 12, {"red": "random"}, seed=1, out=out)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows == result.results == read_results(out)
    assert [r["index"] for r in rows] == list(range(12))
    for r in rows:
        assert set(r) >= FIELDS
        assert r["agents"] == {"red": "random", "blue": "random"}  # missing sides play random
        assert r["winner"] in ("red", "blue")
        assert r["returns"][r["winner"]] == 1.0
        assert r["plies"] > 0
    summary = result.summary()
    assert summary.games == 12 and sum(summary.wins.values()) == 12
    assert summary.mean_plies == sum(r["plies"] for r in rows) / 12


def test_records_written_to_a_file_stay_out_of_memory(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    result = simulate("toy", 3, {}, seed=2, keep_records=True, out=out)
    assert all("record" in row for row in read_results(out))
    assert not any("record" in row for row in result.results)


def test_kept_records_replay_to_the_same_end() -> None:
    game = games.get("toy")
    result = simulate(game, 5, {"red": "heuristic", "blue": "mcts:iterations=15"}, seed=2, keep_records=True)
    for r in result.results:
        text = "\n".join(json.dumps(line) for line in r["record"])
        record = GameRecord.loads(text)
        assert record.players == {"red": "heuristic", "blue": "mcts:iterations=15"}
        assert len(record.entries) == r["plies"]
        final = replay(record, game)
        assert final.winner() == r["winner"]


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_keeps_the_games_already_written(tmp_path: Path, workers: int) -> None:
    stubs.install()
    out = tmp_path / "r.jsonl"
    result = simulate("toy", 500, {"red": "interrupter", "blue": "random"}, workers=workers, out=out)
    assert result.interrupted
    assert 0 < len(result.results) < 500
    rows = read_results(out)
    assert rows == result.results
    assert [r["index"] for r in rows] == list(range(len(rows)))


def test_a_broken_agent_ends_its_game_not_the_run() -> None:
    stubs.install()
    result = simulate("toy", 3, {"red": "breaker", "blue": "random"})
    assert len(result.results) == 3
    for r in result.results:
        assert r["error"] == "RuntimeError: broken on purpose"
        assert r["winner"] is None and r["returns"] is None
    assert result.summary().errors == 3


def test_the_ply_limit_stops_a_game() -> None:
    r = simulate("toy", 1, {}, max_plies=2).results[0]
    assert r["plies"] == 2 and r["winner"] is None and r["cause"] == "ply limit 2"


@pytest.mark.parametrize(
    ("kwargs", "says"),
    [
        ({"agents_by_side": {"green": "random"}}, "toy has no side 'green' (sides: red, blue)"),
        ({"agents_by_side": {"red": "genius"}}, "unknown agent 'genius'"),
        ({"agents_by_side": {}, "n": -1}, "at least 0"),
        ({"agents_by_side": {}, "workers": 0}, "workers must be at least 1"),
    ],
)
def test_bad_input_is_a_one_line_error(kwargs: dict, says: str) -> None:
    args = {"game": "toy", "n": 1, **kwargs}
    with pytest.raises(Exception) as info:
        simulate(**args)
    assert says in str(info.value)
    assert "\n" not in str(info.value)


def test_unwritable_output_is_a_one_line_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(SimulationError, match="cannot write"):
        simulate("toy", 1, {}, out=blocker / "r.jsonl")


@pytest.mark.parametrize("name", ["firstblood", "deluxe", "aag"])
def test_the_turn_reached_is_the_games_own_turn_counted_from_one(name: str) -> None:
    """Every game counts its turns from 1 (`State.turn`); a run reports the turn reached
    and its name on the game's turn track, without adding one for a game that counts
    from 1 already."""
    from henderson.sim.play import play_game

    game = games.get(name)
    row = play_game(game, {s: "random" for s in game.sides}, 5, 0, keep_records=True, max_plies=400)
    state = replay(GameRecord.loads("\n".join(json.dumps(x) for x in row["record"])), game)
    assert row["turns"] == state.turn >= 1
    assert row["turn"] == state.turn_label
    fresh = game.new_state(1)
    assert fresh.turn == 1
