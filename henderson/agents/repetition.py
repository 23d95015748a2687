"""Going round in circles: positions an agent has already decided in, and actions that lead back.

Some rules let a player undo a choice for free (re-place an air unit, add then
cancel an attacker). An evaluation that does not care which of two such
positions it is in would let a one-step agent swap between them for ever, so
agents remember the positions they decided in and pass over a sure action (one
that rolls no dice) leading back to one of them, unless every action does.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from henderson.agents.chance import sample_after

IGNORED = ("dice", "ply")  # the same position whatever the dice state and the action count


def fingerprint(state: Any) -> str:
    """The position without its dice and ply count, as text (positions compare equal by it)."""
    try:
        data = dict(state.to_json())
    except Exception:  # a state that cannot be written: never equal to another
        return f"unprintable {id(state)}"
    for key in IGNORED:
        data.pop(key, None)
    return json.dumps(data, sort_keys=True, default=str)


def digest(text: str) -> bytes:
    """A short digest of a fingerprint, to remember many positions cheaply."""
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


class History:
    """The positions one agent has decided in during one game."""

    def __init__(self) -> None:
        self.seen: set[bytes] = set()

    def note(self, state: Any) -> None:
        self.seen.add(digest(fingerprint(state)))

    def leads_back(self, state: Any, action: Any, rng: random.Random) -> bool:
        """Whether `action` surely (no dice) returns to a position already decided in."""
        after, chance = sample_after(state, action, rng)
        return not chance and digest(fingerprint(after)) in self.seen

    def first_new(self, state: Any, ranked: list[Any], rng: random.Random) -> Any:
        """The first of `ranked` (best first) that does not lead back; the best when all do."""
        for action in ranked:
            if not self.leads_back(state, action, rng):
                return action
        return ranked[0]

    def clear(self) -> None:
        self.seen.clear()
