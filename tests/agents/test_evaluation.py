"""How agents find a game's evaluation function, and how they use it."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from henderson import games
from henderson.agents import evaluation
from henderson.agents.evaluation import evaluator_for, find_evaluator, value


class Named:
    def __init__(self, name: str) -> None:
        self.name = name


@pytest.fixture
def plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An importable package folder, cleaned up after the test."""
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(evaluation, "_FOUND", {})
    yield tmp_path
    for name in [m for m in sys.modules if m.startswith(("hookgame", "attrgame", "plaingame"))]:
        del sys.modules[name]


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))


def test_the_evaluate_module_of_a_game_package_is_found(plugin: Path, monkeypatch) -> None:
    write(plugin / "hookgame" / "__init__.py", "TITLE = 'x'\n")
    write(plugin / "hookgame" / "evaluate.py", "def evaluate(state, side):\n    return 0.25\n")
    monkeypatch.setitem(games.REGISTRY, "hookgame", "hookgame")
    assert find_evaluator(Named("hookgame"))(None, "us") == 0.25


def test_an_evaluate_function_in_the_game_module_is_found(plugin: Path, monkeypatch) -> None:
    write(plugin / "attrgame.py", "def evaluate(state, side):\n    return -0.5\n")
    monkeypatch.setitem(games.REGISTRY, "attrgame", "attrgame")
    assert find_evaluator(Named("attrgame"))(None, "us") == -0.5


def test_a_game_without_evaluation_gets_the_neutral_one(plugin: Path, monkeypatch) -> None:
    write(plugin / "plaingame.py", "TITLE = 'plain'\n")
    monkeypatch.setitem(games.REGISTRY, "plaingame", "plaingame")
    assert find_evaluator(Named("plaingame")) is None
    assert evaluator_for(Named("plaingame")) is evaluation.neutral


def test_a_broken_hook_is_not_hidden(plugin: Path, monkeypatch) -> None:
    write(plugin / "hookgame" / "__init__.py", "")
    write(plugin / "hookgame" / "evaluate.py", "import no_such_module_anywhere\n")
    monkeypatch.setitem(games.REGISTRY, "hookgame", "hookgame")
    with pytest.raises(ModuleNotFoundError):
        find_evaluator(Named("hookgame"))


def test_value_uses_returns_when_over_and_clamps_the_evaluation() -> None:
    game = games.get("toy")
    over = game.load_state(
        {
            "scores": {"red": 21, "blue": 0},
            "cards": {"red": 1, "blue": 1},
            "turn_total": 0,
            "to_move": "blue",
        }
    )
    assert value(over, "red", lambda s, side: 0.0) == 1.0
    assert value(over, "blue", lambda s, side: 0.0) == -1.0
    going = game.new_state(0)
    assert value(going, "red", lambda s, side: 7.0) == 1.0
    assert value(going, "red", lambda s, side: -7.0) == -1.0
