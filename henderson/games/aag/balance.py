"""Set-up balance check: seeded games between two greedy players on `evaluate.py`.

The greedy player tries every legal action on a clone (with fresh dice, so it never sees
the real rolls) and keeps the one the evaluation likes best for the side to act. It is
how the `design` values of `data/setup.toml` were tuned; run it with
`python -m henderson.games.aag.balance FIRST_SEED LAST_SEED`.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from dataclasses import dataclass

from henderson.core.dice import SeededDice
from henderson.games.aag.actions import Action
from henderson.games.aag.evaluate import evaluate
from henderson.games.aag.game import AagGame
from henderson.games.aag.state import AagState


def greedy_action(state: AagState, rng: random.Random) -> Action:
    """The legal action whose outcome evaluates best for the side to act (ties at random)."""
    side = state.current_player()
    legal = state.legal_actions()
    if len(legal) == 1 or side is None:
        return legal[0]
    best: list[Action] = []
    best_value = -2.0
    for action in legal:
        trial = state.clone()
        trial.dice = SeededDice(rng.randrange(1 << 30))
        trial.apply(action)
        value = evaluate(trial, side)
        if value > best_value + 1e-9:
            best, best_value = [action], value
        elif abs(value - best_value) <= 1e-9:
            best.append(action)
    return best[rng.randrange(len(best))]


@dataclass(frozen=True)
class Result:
    """How one game ended: the winner (None if cut off), the turn and the points."""

    seed: int
    winner: str | None
    turn: int
    vp: dict[str, int]


def play(game: AagGame, seed: int, max_turns: int = 15) -> Result:
    """One seeded game between two greedy players, cut off after `max_turns`."""
    state = game.new_state(seed)
    rng = random.Random(seed * 7919 + 1)
    while not state.is_terminal() and state.turn <= max_turns:
        state.apply(greedy_action(state, rng))
    return Result(seed, state.winner(), state.turn, dict(state.vp))


def main(argv: list[str]) -> None:
    """Play seeds FIRST..LAST-1 and print each result, then wins by side and game lengths."""
    from henderson.games.aag import load_game

    first, last = (int(a) for a in argv[:2]) if len(argv) >= 2 else (0, 10)
    game = load_game()
    results = []
    for seed in range(first, last):
        r = play(game, seed)
        results.append(r)
        print(f"seed {seed}: {r.winner} wins in turn {r.turn} {r.vp}", flush=True)
    print("wins:", dict(Counter(r.winner for r in results)))
    print("turns:", dict(sorted(Counter(r.turn for r in results).items())))


if __name__ == "__main__":
    main(sys.argv[1:])
