"""Gymnasium spaces and observations shared by the PettingZoo and Gymnasium environments."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from henderson import games
from henderson.core.dice import fresh_seed
from henderson.core.errors import HendersonError
from henderson.core.game import Game, Side
from henderson.research.actions import ActionSpace, action_space
from henderson.research.match import Match
from henderson.research.observation import Observer

try:
    from gymnasium import spaces
except ModuleNotFoundError as exc:  # pragma: no cover - depends on the installation
    from henderson.core.game import needs_extra

    raise needs_extra(exc, "rl", "the Gymnasium and PettingZoo environments") from None


def resolve(game: Game | str) -> Game:
    """A game object from a game or its registry name."""
    return games.get(game) if isinstance(game, str) else game


class Seat:
    """What every environment needs of a game: its token space, its observer and the
    Gymnasium spaces of one seat."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.space: ActionSpace = action_space(game)
        self.observer = Observer(game, self.space.size)
        self.action_space = spaces.Discrete(self.space.size)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, np.inf, (self.observer.spec.size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (self.space.size,), dtype=np.int8),
            }
        )

    def observe(self, match: Match, side: Side, chooser: bool) -> dict[str, Any]:
        """The observation of `side`: its tensor and, when it is the side choosing, the mask
        of its legal tokens (zeros otherwise)."""
        mask = match.legal_action_mask() if chooser else np.zeros(self.space.size, dtype=np.int8)
        return {"observation": self.observer.tensor(match, side), "action_mask": mask}


def game_seed(seed: Any) -> int:
    """A seed given to `reset`, checked."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise HendersonError(f"a seed is a non-negative integer, not {seed!r}")
    return int(seed) % (2**63)


class ResetSeeds:
    """The game seed of each `reset`, one rule for every environment: a given seed is used
    (checked) and seeds the later resets that give none; with none ever given, a fresh seed."""

    def __init__(self) -> None:
        self._rng: random.Random | None = None

    def next(self, seed: Any) -> int:
        if seed is not None:
            number = game_seed(seed)
            self._rng = random.Random(number)
            return number
        return self._rng.getrandbits(63) if self._rng is not None else fresh_seed()
