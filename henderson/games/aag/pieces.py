"""Pieces on the AAG board: every unit and supply token is one `Piece` with an id.

A piece aboard a ship keeps `aboard` = the ship's id and the ship's zone. A damaged
sea unit waits in its base's damaged area (`damaged`, zone = the base sea zone).
`hit` marks a casualty that is removed when the combat step in that zone ends.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from henderson.core.errors import PositionError

FLAGS = ("damaged", "moved", "armor_used", "fired", "landed", "aimed", "joined", "unloaded")


@dataclass
class Piece:
    """One unit or supply token."""

    id: str
    side: str
    type: str
    zone: str
    aboard: str | None = None
    damaged: bool = (
        False  # in the damaged area of its base card (AAG Damaging and Destroying Units)
    )
    moved: bool = False  # moved (or attacked, for submarines) in this Movement phase
    armor_used: bool = False  # battleship heavy armour spent this turn
    fired: bool = False  # ranged fire declared this turn
    landed: bool = False  # air unit landed in this Regroup
    aimed: bool = False  # attacks airfields in the current land attack
    joined: bool = False  # ranged unit joined the current attack
    unloaded: bool = False  # unloaded onto an island this turn (Amphibious Assault)
    hit: str | None = None  # pending casualty: "damaged" or "destroyed"
    flown: int = 0  # zones flown in the current phase (air units)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "side": self.side,
            "type": self.type,
            "zone": self.zone,
        }
        if self.aboard:
            out["aboard"] = self.aboard
        for name in FLAGS:
            if getattr(self, name):
                out[name] = True
        if self.hit:
            out["hit"] = self.hit
        if self.flown:
            out["flown"] = self.flown
        return out

    @classmethod
    def from_json(cls, obj: Any, where: str) -> Piece:
        if not isinstance(obj, dict):
            raise PositionError(where, "expected an object")
        known = {f.name for f in fields(cls)}
        for key in obj:
            if key not in known:
                raise PositionError(where, f"unknown field {key!r}")
        for key in ("id", "side", "type", "zone"):
            if not isinstance(obj.get(key), str):
                raise PositionError(where, f"field {key!r} missing or not text")
        for key in FLAGS:
            if key in obj and not isinstance(obj[key], bool):
                raise PositionError(where, f"{key} must be true or false")
        if obj.get("hit") not in (None, "damaged", "destroyed"):
            raise PositionError(where, "hit must be 'damaged' or 'destroyed'")
        if not isinstance(obj.get("flown", 0), int):
            raise PositionError(where, "flown must be an integer")
        return cls(**obj)

    def copy(self) -> Piece:
        new = object.__new__(Piece)
        new.__dict__ = self.__dict__.copy()
        return new
