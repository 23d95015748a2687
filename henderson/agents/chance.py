"""Chance and hidden information for agents: determinised clones whose dice the agent
seeds itself, and whose hidden parts are guessed from the deciding side's view.

An agent must not peek at the game's own dice (a seeded game's future rolls are
predictable from them), so every look-ahead runs on a clone given fresh seeded
dice (every state keeps its dice source in `dice`, docs/architecture.md). Nor may it
read what its side cannot see (enemy stacks, stealth, secret choices): in a game
with hidden information, `sample_unseen(side, rng)` gives a clone where those are
a guess from the side's view, and every look-ahead starts from such a clone.
"""

from __future__ import annotations

import random
from typing import Any

from henderson.core.dice import Dice, SeededDice
from henderson.core.game import Side, State


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


SAMPLED = "_observer_sample"  # set on a clone made from one side's view: no secrets left in it


def unseen_sample(state: State, side: Side | None, rng: random.Random) -> State:
    """A clone of `state` as `side` may know it: in a game with hidden information, the
    game's `sample_unseen(side, rng)` (what `side` cannot see replaced by a guess consistent
    with its view), else a plain clone. A clone already made this way is not sampled again
    (it holds no secret)."""
    if not state.game.hidden_information or getattr(state, SAMPLED, False):
        return state.clone()
    clone = state.sample_unseen(side, rng)
    setattr(clone, SAMPLED, True)
    return clone


def observer_clone(state: State, side: Side | None, rng: random.Random) -> State:
    """What a player deciding for `side` may look ahead on: a guess at what it cannot see
    (`unseen_sample`), with future dice from a seed drawn from `rng`."""
    clone = unseen_sample(state, side, rng)
    clone.dice = SeededDice(rng.getrandbits(63))
    return clone


def determinise(state: State, rng: random.Random, side: Side | None = None) -> State:
    """A clone of `state` for `side` (by default the player to decide): hidden parts guessed
    from its view, future dice from a seed drawn from `rng`."""
    return observer_clone(state, state.current_player() if side is None else side, rng)


def sample_after(state: State, action: Any, rng: random.Random, side: Side | None = None) -> tuple[State, bool]:
    """A determinised clone of `state` after `action`, and whether any die was rolled; the
    clone guesses what `side` (by default the player to decide) cannot see."""
    clone = unseen_sample(state, state.current_player() if side is None else side, rng)
    dice = CountingDice(SeededDice(rng.getrandbits(63)))
    clone.dice = dice
    clone.apply(action)
    return clone, dice.rolls > 0
