"""The features of a FIRST BLOOD position that the learned evaluation weighs (`agents/learned.py`).

FIRST BLOOD hides nothing but the dice, so every feature is read from the position itself.
Each changes sign with the side (the learned value for one side is minus that for the
other): the parts of the hand-written evaluation (`evaluate.breakdown`, from the US point of
view) (counts of units by 10) times +1 for the United States and -1 for Japan; the hand-written evaluation itself;
`side`, that sign alone (the sides are not alike); and `late_side`, the sign times the
clock (0 at SEP I, 1 at the end of JAN III, FB 2.0), so the model can weigh a side's edge
by the stage of the game.
"""

from __future__ import annotations

from typing import Any

from henderson.games.firstblood.evaluate import breakdown, clock

# each part and what it is divided by, so that all are about as large (counts of units by 10)
PARTS: dict[str, float] = {
    "p_capture": 1.0,
    "p_survivor": 1.0,
    "material": 1.0,
    "guard": 1.0,
    "hunt": 1.0,
    "air": 1.0,
    "jp_survivors": 10.0,
    "us_kills_next": 10.0,
    "supply_losses": 10.0,
}
FEATURES: tuple[str, ...] = (*PARTS, "hand", "side", "late_side")


def features(state: Any, side: str) -> list[float]:
    """The feature vector of `state` (not over) for `side`, in the order of `FEATURES`."""
    sign = 1.0 if side == "us" else -1.0
    parts = breakdown(state)
    out = [sign * parts[p] / scale for p, scale in PARTS.items()]
    out += [sign * parts["value"], sign, sign * clock(state)]
    return out
