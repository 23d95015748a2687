"""Chance for agents: determinised clones whose dice the agent seeds itself.

An agent must not peek at the game's own dice (a seeded game's future rolls are
predictable from them), so every look-ahead runs on a clone given fresh seeded
dice. States keep their dice source in a `dice` attribute (DESIGN.md, Dice);
a state without a settable `dice` keeps a clone of its own.
"""

from __future__ import annotations

import random
from typing import Any

from henderson.core.dice import Dice, SeededDice


class CountingDice:
    """A dice source that counts its rolls, so an agent can tell chance actions from sure ones."""

    __slots__ = ("inner", "rolls")

    def __init__(self, inner: Dice) -> None:
        self.inner = inner
        self.rolls = 0

    def roll(self, purpose: str, sides: int = 6) -> int:
        self.rolls += 1
        return self.inner.roll(purpose, sides)

    def clone(self) -> CountingDice:
        return CountingDice(self.inner.clone())

    def to_json(self) -> dict[str, Any] | None:
        return self.inner.to_json()


def set_dice(state: Any, dice: Dice) -> bool:
    """Give `state` the dice source `dice`; False when the state does not allow it."""
    if not hasattr(state, "dice"):
        return False
    try:
        state.dice = dice
    except AttributeError:
        return False
    return True


def determinise(state: Any, rng: random.Random) -> Any:
    """A clone of `state` whose future dice come from a seed drawn from `rng`."""
    clone = state.clone()
    set_dice(clone, SeededDice(rng.getrandbits(63)))
    return clone


def sample_after(state: Any, action: Any, rng: random.Random) -> tuple[Any, bool]:
    """A determinised clone of `state` after `action`, and whether any die was rolled."""
    clone = state.clone()
    dice = CountingDice(SeededDice(rng.getrandbits(63)))
    counted = set_dice(clone, dice)
    clone.apply(action)
    # without our own dice we cannot tell: treat the action as a chance one
    return clone, (dice.rolls > 0 if counted else True)
