"""The per-game evaluation hook the heuristic and search agents use.

A game supplies `evaluate(state, side) -> float`: how good a (non-terminal)
position is for `side`, from -1 (surely lost) to +1 (surely won), on the same
scale as `state.returns()`. It must not change the state nor roll dice. The
agents look for it, first found wins:

1. a function registered with `register_evaluator(game_name, fn)`;
2. the function `evaluate` in the module `<game module>.evaluate`
   (for FIRST BLOOD: `henderson.games.firstblood.evaluate.evaluate`);
3. a function `evaluate` in the game module itself;
4. otherwise the neutral evaluation (0.0 for everybody), with which the
   search agent plays random playouts to the end of the game instead.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from henderson import games

Evaluator = Callable[[Any, str], float]

_REGISTERED: dict[str, Evaluator] = {}
_FOUND: dict[str, Evaluator | None] = {}


def register_evaluator(game_name: str, evaluate: Evaluator) -> None:
    """Use `evaluate` for the game `game_name` (plug-ins and tests)."""
    _REGISTERED[game_name] = evaluate
    _FOUND.pop(game_name, None)


def neutral(state: Any, side: str) -> float:
    """The evaluation used when a game supplies none: nobody is ahead."""
    return 0.0


def find_evaluator(game: Any) -> Evaluator | None:
    """The game's evaluation function, or None when it supplies none."""
    name = str(game.name)
    if name in _REGISTERED:
        return _REGISTERED[name]
    if name not in _FOUND:
        _FOUND[name] = _lookup(name)
    return _FOUND[name]


def evaluator_for(game: Any) -> Evaluator:
    """The game's evaluation function, or `neutral`."""
    return find_evaluator(game) or neutral


def _lookup(name: str) -> Evaluator | None:
    module_name = games.REGISTRY.get(name)
    if module_name is None:
        return None
    hook = f"{module_name}.evaluate"
    try:
        module = importlib.import_module(hook)
    except ModuleNotFoundError as exc:
        if exc.name is None or not hook.startswith(exc.name):
            raise  # the hook exists but imports something missing: a real error
        module = None
    fn = getattr(module, "evaluate", None) if module is not None else None
    if callable(fn):
        return fn
    try:
        game_module = importlib.import_module(module_name)
    except ModuleNotFoundError:
        return None
    fn = getattr(game_module, "evaluate", None)
    return fn if callable(fn) else None


def value(state: Any, side: str, evaluate: Evaluator) -> float:
    """The worth of `state` for `side`: its return when the game is over, else the evaluation."""
    if state.is_terminal():
        return float(state.returns().get(side, 0.0))
    v = float(evaluate(state, side))
    return -1.0 if v < -1.0 else 1.0 if v > 1.0 else v


def values(state: Any, sides: tuple[str, ...], evaluate: Evaluator) -> dict[str, float]:
    """`value` for every side at once."""
    if state.is_terminal():
        ret = state.returns()
        return {s: float(ret.get(s, 0.0)) for s in sides}
    return {s: value(state, s, evaluate) for s in sides}
