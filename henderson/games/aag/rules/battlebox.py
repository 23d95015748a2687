"""The battle box: which unit each die hits (AAG Declare Your Hits, Hitting Units the Enemy
Doesn't Have, Damaging and Destroying Units, Heavy Armor; Appendix 2)."""

from __future__ import annotations

from collections.abc import Collection

from henderson.games.aag.model import Neck
from henderson.games.aag.pieces import Mark


def is_hit(neck: Neck, value: int) -> bool:
    """A 1 or a 2 is a hit (AAG Declare Your Hits)."""
    return value in neck.hit_values


def target_type(neck: Neck, category: str, slot: int, present: Collection[str]) -> str | None:
    """The unit type a hit in `slot` falls on: the slot's type, or reading up the neck from
    slot 1 for the first type present (AAG Hitting Units the Enemy Doesn't Have)."""
    named = neck.type_at(category, slot)
    if named in present:
        return named
    for s in range(1, 13):
        kind = neck.type_at(category, s)
        if kind in present:
            return kind
    return None


def effect(resilient: bool, already_damaged: bool, value: int) -> Mark:
    """`damaged` or `destroyed`: a 2 damages a resilient unit, a 1 (or a second hit) destroys."""
    if already_damaged:
        return "destroyed"  # AAG Damaging and Destroying Units: a damaged unit hit again
    if resilient and value == 2:
        return "damaged"  # AAG Resilience
    return "destroyed"
