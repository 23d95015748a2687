"""The examples in examples/ run as documented (with fast settings)."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_the_training_example_learns_and_measures_its_policy_against_random(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pettingzoo")
    example = runpy.run_path(str(EXAMPLES / "train_policy.py"))
    outcome = example["main"](["--games", "1", "--epochs", "3", "--eval", "2", "--max-plies", "300", "--hidden", "16"])
    assert outcome["losses"][-1] < outcome["losses"][0], "imitation lowers the loss on the teacher's tokens"
    assert outcome["games"] == 2 and 0.0 <= outcome["score"] <= 1.0
    low, high = outcome["interval"]
    assert 0.0 <= low <= outcome["score"] <= high <= 1.0
    assert "policy v random:" in capsys.readouterr().out


def test_the_search_example_chooses_tokens_with_openspiel_mcts() -> None:
    pytest.importorskip("pyspiel")
    example = runpy.run_path(str(EXAMPLES / "openspiel_search.py"))
    outcome = example["main"](["--game", "aag", "--simulations", "8", "--tokens", "4", "--max-plies", "30"])
    assert len(outcome["tokens"]) == 4
