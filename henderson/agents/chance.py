"""Chance and hidden information for agents: determinised clones whose dice the agent
seeds itself, and whose hidden parts are guessed from the deciding side's view.

An agent must not peek at the game's own dice (a seeded game's future rolls are
predictable from them), so every look-ahead runs on a clone given fresh seeded
dice. States keep their dice source in a `dice` attribute (DESIGN.md, Dice);
a state without a settable `dice` keeps a clone of its own. Nor may it read
what its side cannot see (enemy stacks, stealth, secret choices): a state with
`sample_unseen(side, rng)` gives a clone where those are a guess from the side's
view, and every look-ahead starts from such a clone.
"""

from __future__ import annotations

import contextlib
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


SAMPLED = "_observer_sample"  # set on a clone made from one side's view: no secrets left in it


def unseen_sample(state: Any, side: str | None, rng: random.Random) -> Any:
    """A clone of `state` as `side` may know it: the game's `sample_unseen(side, rng)` when it
    has one (what `side` cannot see replaced by a guess consistent with its view), else a
    plain clone. A clone already made this way is not sampled again (it holds no secret)."""
    sample = getattr(state, "sample_unseen", None)
    if sample is None or getattr(state, SAMPLED, False):
        return state.clone()
    clone = sample(side, rng)
    with contextlib.suppress(AttributeError):  # a state with slots is sampled again: harmless
        setattr(clone, SAMPLED, True)
    return clone


def observer_clone(state: Any, side: str | None, rng: random.Random) -> Any:
    """What a player deciding for `side` may look ahead on: a guess at what it cannot see
    (`unseen_sample`), with future dice from a seed drawn from `rng`."""
    clone = unseen_sample(state, side, rng)
    set_dice(clone, SeededDice(rng.getrandbits(63)))
    return clone


def determinise(state: Any, rng: random.Random, side: str | None = None) -> Any:
    """A clone of `state` for `side` (by default the player to decide): hidden parts guessed
    from its view, future dice from a seed drawn from `rng`."""
    return observer_clone(state, state.current_player() if side is None else side, rng)


def sample_after(state: Any, action: Any, rng: random.Random, side: str | None = None) -> tuple[Any, bool]:
    """A determinised clone of `state` after `action`, and whether any die was rolled; the
    clone guesses what `side` (by default the player to decide) cannot see."""
    clone = unseen_sample(state, state.current_player() if side is None else side, rng)
    dice = CountingDice(SeededDice(rng.getrandbits(63)))
    counted = set_dice(clone, dice)
    clone.apply(action)
    # without our own dice we cannot tell: treat the action as a chance one
    return clone, (dice.rolls > 0 if counted else True)
