"""The evaluation the heuristic and search agents use: the game's own.

A game with `Capability.EVALUATION` supplies `game.evaluate(state, side) -> float`: how
good a (non-terminal) position is for `side`, from -1 (surely lost) to +1 (surely won), on
the same scale as `state.returns()`; it must not change the state nor roll dice. A
function registered with `register_evaluator(game_name, fn)` takes its place (plug-ins,
tests); without either, nobody is ahead and the search agent plays
random playouts to the end of the game instead. An agent's `eval=learned` option plays by
the game's learned evaluation instead, where it ships one (`learned.py`).
"""

from __future__ import annotations

from collections.abc import Callable

from henderson.core.game import Capability, Game, Side, State

Evaluator = Callable[[State, Side], float]

_REGISTERED: dict[str, Evaluator] = {}


def register_evaluator(game_name: str, evaluate: Evaluator) -> None:
    """Use `evaluate` for the game `game_name` (plug-ins and tests)."""
    _REGISTERED[game_name] = evaluate


def unregister_evaluator(game_name: str) -> None:
    """Go back to the game's own evaluation."""
    _REGISTERED.pop(game_name, None)


def neutral(state: State, side: Side) -> float:
    """The evaluation used when a game supplies none: nobody is ahead."""
    return 0.0


def find_evaluator(game: Game) -> Evaluator | None:
    """The game's evaluation function, or None when it supplies none."""
    registered = _REGISTERED.get(game.name)
    if registered is not None:
        return registered
    if Capability.EVALUATION in game.capabilities:
        return game.evaluate
    return None


# which evaluation an agent plays by (its `eval` option): the hand-written one or the learned one
EVALUATIONS = ("hand", "learned")


def check_evaluation(which: str) -> str:
    """`which` when it names an evaluation, else a ValueError saying what may be named."""
    if which not in EVALUATIONS:
        raise ValueError(f"eval={which!r}: choose {' or '.join(EVALUATIONS)}")
    return which


def chosen_evaluator(game: Game, which: str) -> Evaluator | None:
    """The evaluation named `which` for `game`: `learned` is the game's learned evaluation
    (`learned.py`) where it ships one, else the same as `hand`, `find_evaluator`."""
    if which == "learned":
        from henderson.agents.learned import learned_evaluator

        learned = learned_evaluator(game)
        if learned is not None:
            return learned
    return find_evaluator(game)


def evaluator_for(game: Game) -> Evaluator:
    """The game's evaluation function, or `neutral`."""
    return find_evaluator(game) or neutral


def value(state: State, side: Side, evaluate: Evaluator) -> float:
    """The worth of `state` for `side`: its return when the game is over, else the evaluation."""
    if state.is_terminal():
        return float(state.returns().get(side, 0.0))
    v = float(evaluate(state, side))
    return -1.0 if v < -1.0 else 1.0 if v > 1.0 else v


def values(state: State, sides: tuple[Side, ...], evaluate: Evaluator) -> dict[Side, float]:
    """`value` for every side at once."""
    if state.is_terminal():
        ret = state.returns()
        return {s: float(ret.get(s, 0.0)) for s in sides}
    return {s: value(state, s, evaluate) for s in sides}
