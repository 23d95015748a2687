"""Simulation on Ray: `--backend ray` plays the same games as the local process pool, bit for
bit, on a local Ray instance started by the test (the local backend stays the default)."""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from henderson.cli import app
from henderson.sim import SimulationError, simulate, tournament

ROOT = Path(__file__).resolve().parents[2]


def test_the_ray_backend_reproduces_the_local_backend_bit_for_bit(tmp_path: Path) -> None:
    ray = pytest.importorskip("ray")
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        logging_level="ERROR",
        log_to_driver=False,
        runtime_env={"env_vars": {"PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}},
    )
    try:
        address = ray.get_runtime_context().gcs_address
        # simulate: the results file and the returned games
        agents = {"us": "random", "jp": "random"}  # seeded per game and side, as every agent
        local = simulate("aag", 6, agents, seed=5, out=tmp_path / "local.jsonl")
        remote = simulate("aag", 6, agents, seed=5, out=tmp_path / "ray.jsonl", backend="ray", address=address)
        assert (tmp_path / "ray.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()
        assert remote.results == local.results and not remote.interrupted
        # a tournament
        kwargs = {"seed": 2, "max_plies": 60}
        here = tournament("aag", ["random", "easy"], 1, **kwargs)
        there = tournament("aag", ["random", "easy"], 1, backend="ray", address=address, workers=3, **kwargs)
        assert there.games == here.games and there.ratings() == here.ratings()
        # the command line, connected to the running instance
        runner = CliRunner()
        common = ["simulate", "aag", "-n", "2", "--us", "random", "--jp", "random", "--no-progress", "--seed", "9"]
        done = runner.invoke(app, [*common, "-o", str(tmp_path / "cli-local.jsonl")])
        assert done.exit_code == 0, done.output
        done = runner.invoke(
            app, [*common, "--backend", "ray", "--address", address, "-o", str(tmp_path / "cli.jsonl")]
        )
        assert done.exit_code == 0, done.output
        assert (tmp_path / "cli.jsonl").read_bytes() == (tmp_path / "cli-local.jsonl").read_bytes()
        done = runner.invoke(
            app,
            [
                "tournament",
                "aag",
                "--agents",
                "random,easy",
                "-n",
                "1",
                "--max-plies",
                "40",
                "--backend",
                "ray",
                "--no-progress",
            ],
        )
        assert done.exit_code == 0, done.output
        # the example runs and says the backends agree
        example = runpy.run_path(str(ROOT / "examples" / "ray_simulation.py"))
        outcome = example["main"](
            ["--game", "aag", "-n", "2", "--address", address, "--agents", "random,random", "--check"]
        )
        assert outcome["same"] is True and len(outcome["results"]) == 2
        # every game ran in a Ray worker process with this checkout's code
        where = ray.get(ray.remote(lambda: __import__("henderson").__file__).remote())
        assert where.startswith(str(ROOT))
    finally:
        ray.shutdown()


def test_backend_input_errors_are_one_line() -> None:
    with pytest.raises(SimulationError, match="unknown backend 'spark'"):
        simulate("aag", 1, {}, backend="spark")
    with pytest.raises(SimulationError, match="--address is for --backend ray"):
        simulate("aag", 1, {}, address="auto")
    runner = CliRunner()
    done = runner.invoke(app, ["simulate", "aag", "-n", "1", "--backend", "spark"])
    assert done.exit_code == 2
    assert [x for x in done.output.splitlines() if x.strip()] == [
        "henderson: unknown backend 'spark' (known: local, ray)"
    ]


def test_without_ray_the_backend_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # an import of ray now fails
    runner = CliRunner()
    done = runner.invoke(app, ["simulate", "aag", "-n", "1", "--backend", "ray", "--no-progress"])
    assert done.exit_code == 2
    lines = [x for x in done.output.splitlines() if x.strip()]
    assert len(lines) == 1 and "pip install 'henderson[ray]'" in lines[0]
