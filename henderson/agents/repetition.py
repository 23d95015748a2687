"""Going round in circles: positions an agent has already decided in, and actions that lead back.

Some rules let a player undo a choice for free (re-place an air unit, add then
cancel an attacker). An evaluation that does not care which of two such
positions it is in would let a one-step agent swap between them for ever, so
agents remember the positions they decided in and pass over a sure action (one
that rolls no dice) leading back to one of them, unless every action does.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

from henderson.agents.chance import sample_after
from henderson.core.game import Side, State


class History:
    """The positions one agent has decided in during one game, as the agent knew them
    (`state.key(side)`: what that side cannot see is not part of it)."""

    def __init__(self) -> None:
        self.seen: set[Hashable] = set()

    def note(self, state: State) -> None:
        self.seen.add(state.key(state.current_player()))

    def leads_back(self, state: State, action: Any, rng: random.Random, side: Side | None = None) -> bool:
        """Whether `action` surely (no dice) returns to a position already decided in."""
        side = state.current_player() if side is None else side
        after, chance = sample_after(state, action, rng, side)
        return not chance and after.key(side) in self.seen

    def first_new(self, state: State, ranked: list[Any], rng: random.Random) -> Any:
        """The first of `ranked` (best first) that does not lead back; the best when all do."""
        side = state.current_player()
        for action in ranked:
            if not self.leads_back(state, action, rng, side):
                return action
        return ranked[0]

    def clear(self) -> None:
        self.seen.clear()
