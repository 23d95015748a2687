"""Building hand-written AAG positions for rule tests."""

from __future__ import annotations

from typing import Any

import henderson.games
from henderson.core.dice import ScriptedDice
from henderson.games.aag.state import AAGState


def game() -> Any:
    return henderson.games.get("aag")


def piece(pid: str, kind: str, zone: str, **extra: Any) -> dict[str, Any]:
    return {"id": pid, "side": pid[:2], "type": kind, "zone": zone, **extra}


def position(
    pieces: list[dict[str, Any]], dice: list[int] | None = None, **fields: Any
) -> AAGState:
    """A position with the set-up's control and airfields unless given; scripted dice."""
    obj: dict[str, Any] = {
        "format": "henderson-position",
        "game": "aag",
        "version": 1,
        "pieces": pieces,
    }
    obj.setdefault(
        "airfields",
        [{"island": "guadalcanal", "side": "us"}, {"island": "bougainville", "side": "jp"}],
    )
    obj.update(fields)
    return game().load_state(obj, dice=ScriptedDice(dice or []))


def acts(state: AAGState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def without_dice(state: AAGState) -> dict[str, Any]:
    """The position without its dice state (what two copies with other dice share)."""
    obj = state.to_json()
    obj.pop("dice")
    return obj
