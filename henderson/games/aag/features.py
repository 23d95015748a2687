"""The features of an AAG position that the learned evaluation weighs (`agents/learned.py`).

Each is read from what `side` may see (pieces, airfields, control and victory points are
public; the other side's secret sea orders are not read, AAG Appendix 1) and changes sign
with the side, so the learned value for one side is minus that for the other:

- the hand-written evaluation's terms (`evaluate.terms`), in its units of 5 victory points:
  victory points, material, islands held, airfields, airfields to come, moving second;
- the hand-written evaluation itself;
- `side`: +1 for the United States, -1 for Japan (the sides are not alike);
- `settled`: +1 or -1 when this turn's scoring settles the race to 15 (AAG How to Win);
- `islands_held` and `airfields_up`: islands controlled and undamaged airfields (1 victory
  point a turn each, AAG Regroup step 5), mine less theirs;
- `late_side`: the side sign times how far the race has run (the larger total of victory
  points over the 15 to win), so the model can weigh a side's edge by the stage of the race;
- `race`: the race to 15 if the airfields stayed as they are (`evaluate.race`): +1 or -1 for
  the side projected to win it, times the pull the hand-written evaluation gives it (larger
  the fewer scorings it takes), 0 when no side would win it within eight scorings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from henderson.games.aag.evaluate import SCALE, TERMS, evaluate, race, race_pull, settled, tables, terms

if TYPE_CHECKING:
    from henderson.games.aag.state import AAGState

FEATURES: tuple[str, ...] = (
    *(f"term_{t}" for t in TERMS),
    "hand",
    "side",
    "settled",
    "islands_held",
    "airfields_up",
    "late_side",
    "race",
)

# the weights with which the learned model is the hand-written evaluation where no race is
# projected (short of its 0.95 cap and the settled race): tanh of the terms' sum over SCALE;
# the race's pull, which the hand-written evaluation mixes in after the tanh, is matched near
# an even position (there a pull of 0.6 moves the value from 0 to 0.57, the tanh of about 0.7)
HAND_WEIGHTS: dict[str, float] = {f"term_{t}": 1.0 for t in TERMS}
HAND_WEIGHTS["race"] = 1.2


def features(state: AAGState, side: str) -> list[float]:
    """The feature vector of `state` for `side`, in the order of `FEATURES`."""
    sign = 1.0 if side == "us" else -1.0
    by_term = terms(state)
    out = [sign * by_term[t] / SCALE for t in TERMS]
    lead = settled(state)
    control = state.control
    held = sum(1 if c == side else -1 for c in control.values() if c is not None)
    up = sum((1 if f.side == side else -1) for f in state.airfields if not f.damaged)
    vp = state.vp
    to_win = tables(state.data).to_win
    out += [
        evaluate(state, side),
        sign,
        sign * lead if lead is not None else 0.0,
        held / len(state.data.board.islands),
        up / 4.0,
        sign * min(max(vp.values()) / to_win, 1.0),
    ]
    projected = race(state)
    out.append(sign * projected[0] * race_pull(projected[1]) if projected is not None else 0.0)
    return out
