"""Deluxe Guadalcanal positions. Version 2 is the kit's (`Sequenced.to_json`/`load`, from the
fields declared in `state.py`; docs/deluxe.md). Version 1, the format before the kit, is still
read: users' files and hand-written tests use it. `migrate` turns a version-1 object into
version 2, which is then loaded like any other.

What changes: `open` (the step waits for decisions) is `entered`, and a version-1 step written
as waiting stays where it was written (`game.load_state`); `flags` and `next_flags`
(string-keyed bookkeeping) are the typed `this_turn` and `next_turn`; `result` `[winner,
reason]` is `{"winner", "cause"}`; a unit's fields are all written, with its side and
strength; a position without a step is at the first step of a turn (version 1 had no
set-up step); Japan's side id was once "japan" (and a step id "japan_move"); the shipped data
of version 1 is the shipped data of version 2 (`VERSION_1_DATA`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from henderson.core.errors import PositionError
from henderson.core.position import FORMAT

from .data import DEFAULT_DIR
from .rules.victory import cause

if TYPE_CHECKING:
    from .game import DGGame

OLD_SIDE = "japan"  # Japan's side id before it became "jp" (as in FIRST BLOOD and AAG)
# the shipped data when version 1 was written: the same counters, map and tables; only
# sequence.toml was written otherwise (each step's kind, no set-up step)
VERSION_1_DATA = "sha256:c57573373efdb9ee"
CARRIED = ("air_bonus", "double_supply", "rabaul_bonus")  # what version 1 kept in next_flags


def is_version_1(game: DGGame, obj: Any) -> bool:
    """Whether `obj` is a Deluxe Guadalcanal position of version 1."""
    return (
        isinstance(obj, Mapping)
        and obj.get("format") == FORMAT
        and obj.get("game") == game.name
        and obj.get("version") == 1
        and not isinstance(obj.get("version"), bool)
    )


def migrate(game: DGGame, obj: Mapping[str, Any]) -> Mapping[str, Any]:
    """`obj` as a version-2 position when it is a version-1 Deluxe Guadalcanal position;
    anything else unchanged (the kit's loader then checks its header and fields)."""
    if not is_version_1(game, obj):
        return obj
    obj = old_side_names(obj)
    out = {k: v for k, v in obj.items() if k not in ("open", "flags", "next_flags", "result", "units", "pending")}
    out["version"] = 2
    if obj.get("data_version") == VERSION_1_DATA and game.data_dir.resolve() == DEFAULT_DIR.resolve():
        out["data_version"] = game.data_version
    plan = game.sequence().for_options(frozenset())
    steps = [s.id for s in plan.steps[plan.first_turn_step :]]
    out["step"] = obj.get("step", steps[0])
    if out["step"] not in steps:
        raise PositionError("step", f"{out['step']!r} is not a step of the sequence of play ({', '.join(steps)})")
    pending = _list(obj, "pending")
    result = obj.get("result")
    # version 1 ran a step's entry work on loading unless it was written as waiting, a decision
    # was pending or the game was over
    out["entered"] = bool(obj.get("open", False)) or bool(pending) or bool(result)
    if result:
        if not isinstance(result, list) or len(result) != 2:
            raise PositionError("result", "expected [winner, reason]")
        out["result"] = {"winner": result[0] or None, "cause": cause(str(result[1]))}
    out["units"] = _units(game, _mapping(obj, "units"))
    out["this_turn"] = dict(_mapping(obj, "flags"))
    carried = _mapping(obj, "next_flags")
    for key in carried:
        if key not in CARRIED:
            raise PositionError(f"next_flags.{key}", f"unknown (expected {', '.join(CARRIED)})")
    out["next_turn"] = dict(carried)
    out["pending"] = pending
    return out


def old_side_names(obj: Any) -> Any:
    """A position written when Japan's side id was "japan", with "jp" instead: every key or
    value "japan" and every step id "japan_…"; a position already using "jp" is unchanged."""
    if isinstance(obj, Mapping):
        out = {("jp" if k == OLD_SIDE else k): old_side_names(v) for k, v in obj.items()}
        step = out.get("step")
        if isinstance(step, str) and step.startswith(OLD_SIDE + "_"):
            out["step"] = "jp_" + step[len(OLD_SIDE) + 1 :]
        return out
    if isinstance(obj, list):
        return [old_side_names(v) for v in obj]
    return "jp" if obj == OLD_SIDE else obj


def _mapping(obj: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = obj.get(key) or {}
    if not isinstance(value, Mapping):
        raise PositionError(key, "expected an object")
    return value


def _list(obj: Mapping[str, Any], key: str) -> list[Any]:
    value = obj.get(key) or []
    if not isinstance(value, list):
        raise PositionError(key, "expected a list")
    return value


def _units(game: DGGame, units: Mapping[str, Any]) -> dict[str, Any]:
    """Version 1 took a unit's side and strength left out as the printed ones; version 2
    writes them."""
    out: dict[str, Any] = {}
    for uid, raw in units.items():
        t = game.data.units.get(uid)
        if t is None:
            raise PositionError(f"units.{uid}", "no such counter in the data")
        if not isinstance(raw, Mapping):
            raise PositionError(f"units.{uid}", "expected an object with at least 'at'")
        if "at" not in raw:
            raise PositionError(f"units.{uid}.at", "missing")
        out[uid] = {"side": t.side, "strength": t.strength, **raw}
    return out
