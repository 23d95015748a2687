"""A learned evaluation: a game's position features weighed by a model fitted to its own games.

A game that ships one has two things in its package: `features.py`, with `FEATURES` (the
names, in order) and `features(state, side) -> list[float]`, a fixed-length vector read from
the position as `side` may see it; and `data/evaluation.json`, the fitted model: `version`,
`game`, `features` (the names it was fitted on), `weights` (one a feature), and how it was
made (`command`, `seed`, `games`; `positions` for a fit to game results, `method: spsa` for
weights tuned by play). The value of a position is
`tanh(sum(weight * feature))`, on the evaluation scale (-1 surely lost, +1 surely won); every
feature changes sign with the side, so the value for one side is minus that for the other.

Play needs nothing beyond the standard library (the fitting, `scripts/train_evaluation.py`,
uses numpy). A game without the file has no learned evaluation: `eval=learned` then falls
back on the hand-written one (`evaluation.py`).
"""

from __future__ import annotations

import importlib
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from henderson.core.errors import HendersonError
from henderson.core.game import Game, Side, State

MODEL_VERSION = 1
MODEL_FILE = "evaluation.json"

FeatureFunction = Callable[[State, Side], Sequence[float]]


class LearnedModelError(HendersonError):
    """A learned-evaluation file that cannot be used: unreadable, or not for these features."""


@dataclass(frozen=True)
class LearnedModel:
    """A fitted linear model over a game's features, and how it was made."""

    game: str
    features: tuple[str, ...]
    weights: tuple[float, ...]
    provenance: dict[str, Any]

    def value(self, vector: Sequence[float]) -> float:
        """The evaluation of a feature vector, in (-1, 1)."""
        return math.tanh(math.fsum(w * x for w, x in zip(self.weights, vector, strict=True)))

    def to_json(self) -> dict[str, Any]:
        return {
            "version": MODEL_VERSION,
            "game": self.game,
            "features": list(self.features),
            "weights": list(self.weights),
            **self.provenance,
        }


def parse_model(obj: Any, game: str, names: Sequence[str], where: str) -> LearnedModel:
    """A model from its JSON form, checked against the game and its feature names."""
    if not isinstance(obj, dict):
        raise LearnedModelError(f"{where}: not a JSON object")
    if obj.get("version") != MODEL_VERSION:
        raise LearnedModelError(f"{where}: version {obj.get('version')!r}, expected {MODEL_VERSION}")
    if obj.get("game") != game:
        raise LearnedModelError(f"{where}: a model for game {obj.get('game')!r}, not {game!r}")
    features, weights = obj.get("features"), obj.get("weights")
    if features != list(names):
        raise LearnedModelError(f"{where}: features {features!r} are not this game's {list(names)!r}")
    if (
        not isinstance(weights, list)
        or len(weights) != len(names)
        or not all(isinstance(w, int | float) and not isinstance(w, bool) and math.isfinite(w) for w in weights)
    ):
        raise LearnedModelError(f"{where}: weights must be {len(names)} finite numbers, one a feature")
    provenance = {k: v for k, v in obj.items() if k not in ("version", "game", "features", "weights")}
    return LearnedModel(game, tuple(names), tuple(float(w) for w in weights), provenance)


def load_model(path: Path, game: str, names: Sequence[str]) -> LearnedModel:
    """Read and check a model file; a one-line `LearnedModelError` says what is wrong."""
    try:
        obj = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise LearnedModelError(f"{path.name}: cannot read it ({exc.strerror or exc})") from None
    except json.JSONDecodeError as exc:
        raise LearnedModelError(f"{path.name}: not JSON ({exc.msg}, line {exc.lineno})") from None
    return parse_model(obj, game, names, path.name)


def feature_module(game: Game) -> Any | None:
    """The game package's `features` module, or None when it has none."""
    package = type(game).__module__.rpartition(".")[0]
    try:
        return importlib.import_module(f"{package}.features")
    except ModuleNotFoundError as exc:
        if exc.name == f"{package}.features":
            return None
        raise


def model_path(game: Game) -> Path:
    """Where a game's learned model lives: `data/evaluation.json` in its package."""
    module = importlib.import_module(type(game).__module__.rpartition(".")[0])
    return Path(str(module.__file__)).parent / "data" / MODEL_FILE


class LearnedEvaluator:
    """`evaluate(state, side)` by a learned model: exactly 1 or -1 once the game is over."""

    def __init__(self, model: LearnedModel, features: FeatureFunction) -> None:
        self.model = model
        self.features = features

    def __call__(self, state: State, side: Side) -> float:
        if state.is_terminal():
            return float(state.returns().get(side, 0.0))
        return self.model.value(self.features(state, side))


def learned_evaluator(game: Game) -> LearnedEvaluator | None:
    """The game's learned evaluation, or None when it ships none (no features or no file)."""
    module = feature_module(game)
    if module is None:
        return None
    path = model_path(game)
    if not path.exists():
        return None
    return _cached(game.name, path, tuple(module.FEATURES), module.features)


_CACHE: dict[tuple[str, Path], LearnedEvaluator] = {}  # read each model file once


def _cached(name: str, path: Path, names: tuple[str, ...], features: FeatureFunction) -> LearnedEvaluator:
    hit = _CACHE.get((name, path))
    if hit is None:
        hit = _CACHE[(name, path)] = LearnedEvaluator(load_model(path, name, names), features)
    return hit
