"""Building DG test positions by hand, the way a player would write one in a text editor."""

from __future__ import annotations

from typing import Any

from henderson.core.dice import ScriptedDice
from henderson.games.deluxe import load_game
from henderson.games.deluxe.game import DGGame
from henderson.games.deluxe.state import DGState

GAME: DGGame = load_game()


def position(turn: int, step: str, units: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A position JSON: `units` maps a unit id to a hex or to a dict of unit fields."""
    obj: dict[str, Any] = {
        "format": "henderson-position",
        "game": "deluxe",
        "version": 1,
        "turn": turn,
        "step": step,
        "open": True,
        "units": {},
    }
    for uid, value in units.items():
        fields = {"at": value} if isinstance(value, str) else dict(value)
        fields.setdefault("side", GAME.data.units[uid].side)
        fields.setdefault("strength", GAME.data.units[uid].strength)
        fields.setdefault("start", fields["at"])
        obj["units"][uid] = fields
    obj.update(extra)
    return obj


def state(
    turn: int, step: str, units: dict[str, Any], dice: list[int] | None = None, **extra: Any
) -> DGState:
    """A loaded position whose dice are `dice` in order (no die may be rolled unexpectedly)."""
    return GAME.load_state(position(turn, step, units, **extra), dice=ScriptedDice(dice or []))


def rolls(events: list[Any]) -> list[tuple[str, int]]:
    return [(e.data["purpose"], e.data["value"]) for e in events if e.kind == "roll"]


def redacted(
    s: DGState, player: str, action: str, events: list[dict[str, Any]], side: str | None
) -> tuple[str, list[dict[str, Any]]]:
    """How `player`'s `action` and its events read to `side`, judged on `s` (`State.redact`)."""
    entry = s.redact({"ply": 0, "player": player, "action": action, "events": events}, side)
    return entry["action"], entry["events"]
