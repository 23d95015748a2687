"""Actions as structured values for every client: a verb and typed arguments (units, hexes,
zones, boxes, numbers), next to the notation that round-trips. The browser draws and picks
actions from these; it never parses notation.

A game describes each of its actions (`Game.describe`) with the vocabulary below; what a
unit id or a hex id means is in the game's client data.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any


class ArgKind(enum.Enum):
    """What an argument of an action names."""

    UNIT = "unit"  # a counter or piece id, as the board shows it
    UNITS = "units"  # several, moving or acting together
    HEX = "hex"  # a hex of the map
    ZONE = "zone"  # an area: a sea zone, an island
    BOX = "box"  # an off-map box or holding area
    PLACE = "place"  # any of hex, zone or box (a destination that may be either)
    NUMBER = "number"  # a count, a die modifier, a number of points
    KIND = "kind"  # a unit type, a category of combat
    SIDE = "side"
    WORD = "word"  # anything else, in notation


@dataclass(frozen=True)
class Arg:
    """One argument: what it names, its role in the action ("to", "target", "with") and its
    value (a list for UNITS)."""

    kind: ArgKind
    role: str
    value: Any

    def to_json(self) -> dict[str, Any]:
        value = list(self.value) if isinstance(self.value, tuple) else self.value
        return {"kind": self.kind.value, "role": self.role, "value": value}


@dataclass(frozen=True)
class ActionInfo:
    """An action as a structured value: its notation, its verb and its arguments."""

    text: str
    verb: str
    args: tuple[Arg, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "verb": self.verb, "args": [a.to_json() for a in self.args]}

    def first(self, kind: ArgKind) -> Any:
        """The value of the first argument of `kind`, or None."""
        return next((a.value for a in self.args if a.kind is kind), None)


def words_of(text: str) -> ActionInfo:
    """The structure every game has at least: the first word is the verb, the rest words."""
    verb, *rest = text.split() or [""]
    return ActionInfo(text, verb, tuple(Arg(ArgKind.WORD, f"arg{i}", w) for i, w in enumerate(rest)))
