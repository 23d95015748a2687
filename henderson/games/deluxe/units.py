"""The changing record of one counter during play: where it is, its steps, its turn status.

A unit's strength is also its number of steps (DG 2.2.1.7: 5 -> 4 -> 3 -> 2 -> 1 -> gone);
`lose_step` in `rules/common.py` is the one place where steps are taken away. The fields are
declared once (`core.fields`): a position writes each unit under its id in `units`.

Records are frozen: a position and its clones share them (a clone copies only the dict of
units), and a change puts a new record in its place (`DGState.update`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from henderson.core.fields import field, replaced

# where a unit can be when it is not on a map hex
OFF_MAP = ("turn", "rabaul", "next", "eliminated", "withdrawn", "absorbed")
OFF_MAP_SET = frozenset(OFF_MAP)  # for membership tests (the hot path of every rule)
NOT_LANDED = ("turn", "rabaul", "next")  # off the map, still to come (DG 3.0, 10.2)
MAX_POINTS = 999  # movement points: no allowance or stealth pool comes near it


@dataclass(frozen=True)
class UnitState:
    """One counter's changing status; the printed values are in `model.UnitType`. Frozen:
    shared between a position and its clones (`DGState.update` replaces it on a change)."""

    id: str = field("", cache="share", doc="its key in the position's units (set when loaded)")
    side: str = field("", required=True)
    at: str = field(
        "", required=True, doc="a hex number, or one of turn, rabaul, next, eliminated, withdrawn, absorbed"
    )
    strength: int = field(0, lo=0, hi=9, required=True, doc="steps left (DG 2.2.1.7)")
    stealth: int = field(0, lo=0, hi=9, doc="stealth marker value, 0 when not under stealth (DG 7.7)")
    pool: int = field(0, lo=0, hi=MAX_POINTS, doc="stealth movement points to spend this phase (DG 7.7.4)")
    self_exit: bool = field(False, doc="left stealth on its own this turn (DG 8.2.9)")
    pool_start: int = field(0, lo=0, hi=MAX_POINTS, doc="the stealth pool when it was earned (DG 8.2.9)")
    spent: int = field(0, lo=0, hi=MAX_POINTS, doc="movement points spent this phase")
    moved: bool = field(False, doc="has finished its movement this phase")
    leg: Literal["", "go", "halt"] = field(
        "", doc="part-way through its move: go may go on, halt had to stop (DG 7.5, 7.7.5)"
    )
    attacked: bool = field(False, doc="has attacked this turn (DG 8.2.2)")
    fired: bool = field(False, doc="artillery: has fired in this player's turn (DG 8.1, ruling 24a)")
    suppressed: bool = field(False, doc="artillery: suppressed until the turn ends (DG 8.1.8)")
    landed: int = field(0, lo=0, hi=99, doc="the turn it landed (DG 7.3.5 penalty)")
    order: int = field(0, lo=0, hi=10**9, doc="stacking order: the highest is the top counter (DG 7.8)")
    start: str = field("", doc="where it began its side's turn (DG 7.9, 7.10)")

    @property
    def on_map(self) -> bool:
        """True when the unit stands on a map hex."""
        return self.at not in OFF_MAP_SET

    def replaced(self, **changes: Any) -> UnitState:
        """A copy with `changes` (field name -> value): what `DGState.update` puts in play."""
        return replaced(self, **changes)


