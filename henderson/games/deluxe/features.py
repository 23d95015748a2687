"""The features of a Deluxe Guadalcanal position that the learned evaluation weighs
(`agents/learned.py`).

They are read from the position as the evaluation is given it: an agent that may not look
under the enemy's counters (DG 5.0, stealth and fog of war) evaluates a position built from
its own view, with the hidden units guessed, as it does for the hand-written evaluation.
Each feature changes sign with the side, so the learned value for one side is minus that for
the other:

- the hand-written evaluation's five parts (`evaluate.us_parts`), each already times its
  hand-written weight: victory points and their income (DG 9.1-9.2), Henderson Field's
  holder (DG 9.4), the strength near the field, steps on the island, artillery supply
  (DG 8.1.1);
- the hand-written evaluation itself;
- `side`: +1 for the United States, -1 for Japan (the sides are not alike);
- `late_side`: the side sign times the clock (0 at the start, 1 at the end);
- `late_strength` and `late_threat`: the steps on the island and the strength near the field,
  weighed, times the clock, so the model can count them differently as the end nears.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from henderson.games.deluxe.evaluate import W_FIELD, W_STRENGTH, W_SUPPLY, W_THREAT, W_VP, evaluate, us_parts

if TYPE_CHECKING:
    from henderson.games.deluxe.state import DGState

FEATURES: tuple[str, ...] = (
    "vp",
    "field",
    "threat",
    "strength",
    "supply",
    "hand",
    "side",
    "late_side",
    "late_strength",
    "late_threat",
)

# the weights with which the learned model is the hand-written evaluation (short of its cap)
HAND_WEIGHTS: dict[str, float] = {"vp": 1.0, "field": 1.0, "threat": 1.0, "strength": 1.0, "supply": 1.0}

# what tuning by play moves (`scripts/train_evaluation.py --spsa`): the parts and their late shares
SPSA_FEATURES: tuple[str, ...] = ("vp", "field", "threat", "strength", "supply", "late_strength", "late_threat")


def features(state: DGState, side: str) -> list[float]:
    """The feature vector of `state` (not over) for `side`, in the order of `FEATURES`."""
    sign = 1.0 if side == "us" else -1.0
    p = us_parts(state)
    strength = sign * W_STRENGTH * p.strength
    threat = sign * W_THREAT * p.threat
    return [
        sign * W_VP * p.vp,
        sign * W_FIELD * p.field,
        threat,
        strength,
        sign * W_SUPPLY * p.supply,
        evaluate(state, side),
        sign,
        sign * p.late,
        strength * p.late,
        threat * p.late,
    ]
