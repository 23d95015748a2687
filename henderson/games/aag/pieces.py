"""Pieces on the AAG board: every unit and supply token is one `Piece` with an id.

A piece aboard a ship keeps `aboard` = the ship's id and the ship's zone. A damaged
sea unit waits in its base's damaged area (`damaged`, zone = the base sea zone).
`hit` marks a casualty that is removed when the combat in that zone ends.
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass
from typing import Any, Literal

from henderson.core.errors import PositionError
from henderson.core.fields import field, kept, replaced
from henderson.games.aag.actions import id_key
from henderson.games.aag.model import SUPPLY, Side

Mark = Literal["damaged", "destroyed"]  # a casualty marked in combat, removed after it


def _unit_type(state: Any, value: str, where: str) -> None:
    if value != SUPPLY and value not in state.data.units:
        raise PositionError(where, f"unknown unit type {value!r}")


def _zone(state: Any, value: str, where: str) -> None:
    if value not in state.data.board.zone_ids():
        raise PositionError(where, f"unknown zone {value!r}")


@dataclass(frozen=True)
class Piece:
    """One unit or supply token. Frozen: pieces are shared between a position and its clones
    (a clone copies only the dict of pieces), and a change puts a new piece in its place
    (`AAGState.update`)."""

    id: str
    side: Side
    type: str = field(check=_unit_type)
    zone: str = field(check=_zone)
    aboard: str | None = None  # the carrying ship's id
    damaged: bool = False  # in the damaged area of its base card (AAG Damaging and Destroying Units)
    moved: bool = False  # moved (or attacked, for submarines) in this Movement phase
    armor_used: bool = False  # battleship heavy armour spent this turn
    fired: bool = False  # ranged fire declared this turn
    landed: bool = False  # air unit landed in this Regroup
    aimed: bool = False  # attacks airfields in the current land attack
    joined: bool = False  # ranged unit joined the current attack
    unloaded: bool = False  # unloaded onto an island this turn (Amphibious Assault)
    hit: Mark | None = None  # pending casualty
    flown: int = field(0, lo=0, hi=9)  # zones flown in the current phase (air units)

    def with_changes(self, **changes: Any) -> Piece:
        """A copy with `changes`, without the traits (and their mark) kept for this piece: what
        `core.fields.replaced` gives (its TypeError names a field a piece does not have),
        made here in one copy of the attributes, since pieces change at nearly every action."""
        return self.copy_with(changes)

    def copy_with(self, changes: dict[str, Any]) -> Piece:
        """`with_changes(**changes)`, the changes given as they are (`AAGState.update`)."""
        if not changes.keys() <= PIECE_FIELDS:
            return replaced(self, **changes)
        attrs = self.__dict__.copy()
        attrs.pop("traits", None)
        attrs.pop("mark", None)
        attrs.update(changes)
        new = object.__new__(Piece)
        object.__setattr__(new, "__dict__", attrs)
        return new

    @classmethod
    def new(cls, pid: str, side: Side, kind: str, zone: str, aboard: str | None = None) -> Piece:
        """`Piece(pid, side, kind, zone, aboard)` with every flag at its default, made from a
        copy of a blank piece's attributes (the frozen class's `__init__` sets each field
        one call at a time; pieces are made at every purchase)."""
        attrs = BLANK.copy()
        attrs["id"], attrs["side"], attrs["type"], attrs["zone"], attrs["aboard"] = pid, side, kind, zone, aboard
        new = object.__new__(cls)
        object.__setattr__(new, "__dict__", attrs)
        return new

    @kept
    def rank(self) -> tuple[str, int]:
        """The piece's place in id order (`actions.id_key`): kept with the piece, and carried
        to its changed copies (`with_changes`), which keep its id."""
        return id_key(self.id)

    @kept
    def traits(self) -> tuple[object, ...]:
        """Every flag a rule reads to tell this unit from another of its side and type, its
        cargo aside (`rules.common.signature`): kept with the piece, which never changes."""
        return (
            self.side,
            self.type,
            self.zone,
            self.aboard is not None,
            self.damaged,
            self.landed,
            self.unloaded,
            self.moved,
            self.armor_used,
            self.fired,
            self.hit,
            self.joined,
            self.aimed,
            self.flown,
        )

    @kept
    def mark(self) -> int:
        """A number that stands for the piece's `traits`, the same for equal traits
        (`MARKS`): what `rules.common.representatives` tells units apart by, as it would by
        the traits, with a hash of one number instead of the whole tuple."""
        traits = self.traits
        found = MARKS.get(traits)
        if found is None:  # a new number each time, kept by the first to put one (thread-safe)
            found = MARKS.setdefault(traits, next(NUMBERS))
        return found


# every piece's `traits` met so far, each with its number (`Piece.mark`): some hundreds after
# hundreds of games, since a unit's traits are its side, type, zone and a few flags
MARKS: dict[tuple[object, ...], int] = {}
NUMBERS = itertools.count()  # the numbers `Piece.mark` gives out
PIECE_FIELDS = frozenset(f.name for f in dataclasses.fields(Piece))  # what `with_changes` may change
BLANK = dict(Piece("us0", "us", SUPPLY, "").__dict__)  # a new piece's attributes (`Piece.new`)
