"""Which actions a look-ahead agent considers when a decision offers too many to score all.

Some decisions list thousands of actions (DG: every stack and every destination in a
movement phase). Scoring each costs a clone, an action and an evaluation, so the
heuristic scores at most `limit` of them: every one-word action (`end`, `pass`), then
an even share of each group of actions that begin with the same two words (one unit's
moves, one hex's attacks), chosen by the agent's seeded generator, so that every unit
keeps some of its moves in view.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any


def group_of(notation: str) -> str:
    """The first two words of an action's notation: `move 1/5 0405` -> `move 1/5`."""
    return " ".join(notation.split(None, 2)[:2])


def considered(actions: Sequence[Any], limit: int, rng: random.Random) -> list[int]:
    """Indexes (in order) of at most `limit` actions to score; all of them when they fit."""
    if len(actions) <= limit:
        return list(range(len(actions)))
    groups: dict[str, list[int]] = {}
    chosen: list[int] = []
    for i, action in enumerate(actions):
        text = str(action)
        if " " not in text.strip():
            chosen.append(i)  # end, pass, resolve…: always weighed
        else:
            groups.setdefault(group_of(text), []).append(i)
    room = max(limit - len(chosen), 0)
    members = [rng.sample(g, len(g)) for g in groups.values()]  # each group in a seeded order
    rng.shuffle(members)  # which groups get the odd places left over
    taken = 0
    depth = 0
    while taken < room:
        added = False
        for g in members:
            if depth < len(g) and taken < room:
                chosen.append(g[depth])
                taken += 1
                added = True
        if not added:
            break
        depth += 1
    return sorted(chosen)
