"""The `random` agent: uniform over legal actions, seeded."""

from __future__ import annotations

import random

from henderson.core.game import Action, State


class RandomAgent:
    """Chooses uniformly among the legal actions."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Action:
        actions = state.legal_actions()
        if not actions:
            raise ValueError("no legal action: the game is over")
        return actions[self.rng.randrange(len(actions))]
