"""The `simulate` and `tournament` commands on a fresh command-line app."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from henderson.sim.cli import parse_side_args, register
from henderson.sim.simulate import SimulationError


@pytest.fixture
def app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """Test app."""

    register(app)
    return app


runner = CliRunner()


def test_simulate_prints_a_summary_and_writes_results_and_a_plot(app: typer.Typer, tmp_path: Path) -> None:
    out, plot = tmp_path / "r.jsonl", tmp_path / "p.png"
    args = ["simulate", "toy", "-n", "15", "--red", "heuristic", "--blue=random", "--seed", "3"]
    result = runner.invoke(app, [*args, "-o", str(out), "--plot", str(plot), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "win rate (95% CI)" in result.output and "heuristic" in result.output
    assert "mean plies" in result.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 15 and rows[0]["agents"] == {"red": "heuristic", "blue": "random"}
    assert plot.stat().st_size > 0


def test_simulate_with_workers_and_records(app: typer.Typer, tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    result = runner.invoke(
        app,
        [
            "simulate",
            "toy",
            "-n",
            "4",
            "--workers",
            "2",
            "--records",
            "-o",
            str(out),
            "--no-progress",
        ],
    )
    assert result.exit_code == 0, result.output
    assert all("record" in json.loads(line) for line in out.read_text().splitlines())


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (
            ["simulate", "toy", "--green", "random"],
            "unknown option or side --green (sides: --red, --blue)",
        ),
        (["simulate", "toy", "--red", "genius"], "unknown agent 'genius'"),
        (["simulate", "toy", "--red"], "--red needs an agent name"),
        (["simulate", "nogame"], "unknown game 'nogame'"),
        (["tournament", "toy", "--agents", "random"], "at least two different agents"),
    ],
)
def test_bad_input_is_one_line_and_status_2(app: typer.Typer, args: list[str], says: str) -> None:
    result = runner.invoke(app, [*args, "--no-progress"])
    assert result.exit_code == 2
    assert says in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_tournament_prints_the_table_ratings_and_balance(app: typer.Typer) -> None:
    result = runner.invoke(
        app,
        [
            "tournament",
            "toy",
            "--agents",
            "random,heuristic",
            "-n",
            "6",
            "--workers",
            "2",
            "--no-progress",
        ],
    )
    assert result.exit_code == 0, result.output
    for text in ("score of row against column", "Elo-style ratings", "side balance", "24 games"):
        assert text in result.output


def test_side_arguments() -> None:
    assert parse_side_args(["--us", "hard", "--jp=easy"], ["us", "jp"]) == {
        "us": "hard",
        "jp": "easy",
    }
    with pytest.raises(SimulationError, match="unexpected argument 'hard'"):
        parse_side_args(["hard"], ["us", "jp"])
