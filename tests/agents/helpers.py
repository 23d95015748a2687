"""Small game drivers shared by the agent tests."""

from __future__ import annotations

from typing import Any

from henderson import agents, games
from henderson.sim.stats import wilson


def play(game: Any, specs: dict[str, str], seed: int) -> Any:
    """Play one seeded game between agents named by side; the final state."""
    state = game.new_state(seed)
    seats = {side: agents.get(spec, seed * 7 + i) for i, (side, spec) in enumerate(specs.items())}
    while not state.is_terminal():
        state.apply(seats[state.current_player()].choose(state))
    return state


def match(a: str, b: str, games_per_side: int, seed: int = 0) -> tuple[int, int]:
    """Wins of `a` against `b` on the toy game, `games_per_side` games from each side."""
    game = games.get("toy")
    wins = 0
    for i in range(games_per_side):
        wins += play(game, {"red": a, "blue": b}, seed + 2 * i).winner() == "red"
        wins += play(game, {"red": b, "blue": a}, seed + 2 * i + 1).winner() == "blue"
    return wins, 2 * games_per_side


def clearly_better(wins: int, n: int) -> bool:
    """The 95 % Wilson interval of the win rate lies above a coin toss."""
    return wilson(wins, n)[0] > 0.5
