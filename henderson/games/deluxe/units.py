"""The mutable record of one counter during play: where it is, its steps, its turn status.

A unit's strength is also its number of steps (DG 2.2.1.7: 5 -> 4 -> 3 -> 2 -> 1 -> gone);
`lose_step` in `rules/common.py` is the one place where steps are taken away.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

# where a unit can be when it is not on a map hex
OFF_MAP = ("turn", "rabaul", "next", "eliminated", "withdrawn", "absorbed")
OFF_MAP_SET = frozenset(OFF_MAP)  # for membership tests (the hot path of every rule)


@dataclass(slots=True)
class UnitState:
    """One counter's changing status; the printed values are in `model.UnitType`."""

    id: str
    side: str
    at: str  # a hex number, or one of OFF_MAP
    strength: int
    stealth: int = 0  # stealth marker value, 0 when not under stealth (DG 7.7)
    pool: int = 0  # stealth movement points to spend this phase (DG 7.7.4)
    self_exit: bool = False  # left stealth on its own this turn (DG 8.2.9)
    pool_start: int = 0  # the stealth pool when it was earned (DG 8.2.9 half allowance)
    spent: int = 0  # movement points spent this phase
    moved: bool = False  # has finished its movement this phase
    leg: str = ""  # part-way through its move: "go" may go on, "halt" had to stop (DG 7.5, 7.7.5)
    attacked: bool = False  # has attacked this turn (DG 8.2.2)
    fired: bool = False  # artillery: has fired this phase
    suppressed: bool = False  # artillery: suppressed until the turn ends (DG 8.1.8)
    landed: int = 0  # turn it landed (DG 7.3.5 penalty)
    order: int = 0  # stacking order: the highest is the top counter (DG 7.8)
    start: str = ""  # where it began the side's turn (DG 7.9, 7.10)

    @property
    def on_map(self) -> bool:
        """True when the unit stands on a map hex."""
        return self.at not in OFF_MAP_SET

    def copy(self) -> UnitState:
        """An independent copy (field by field, written out: clones copy every unit, and
        this is several times faster than a loop over the field names)."""
        o = _new(UnitState)
        o.id = self.id
        o.side = self.side
        o.at = self.at
        o.strength = self.strength
        o.stealth = self.stealth
        o.pool = self.pool
        o.self_exit = self.self_exit
        o.pool_start = self.pool_start
        o.spent = self.spent
        o.moved = self.moved
        o.leg = self.leg
        o.attacked = self.attacked
        o.fired = self.fired
        o.suppressed = self.suppressed
        o.landed = self.landed
        o.order = self.order
        o.start = self.start
        return o

    def to_json(self) -> dict[str, Any]:
        """Only the fields that differ from their defaults, so positions stay short."""
        out: dict[str, Any] = {"side": self.side, "at": self.at, "strength": self.strength}
        for key, default in OPTIONAL_DEFAULTS:
            value = getattr(self, key)
            if value != default:
                out[key] = value
        return out


OPTIONAL_DEFAULTS: tuple[tuple[str, Any], ...] = tuple(
    (f.name, f.default) for f in fields(UnitState) if f.name not in ("id", "side", "at", "strength")
)


SLOTS: tuple[str, ...] = tuple(f.name for f in fields(UnitState))
_new = object.__new__
