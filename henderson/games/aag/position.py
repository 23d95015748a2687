"""AAG positions: version 2 is the kit's (`Sequenced.to_json`/`load`, docs/aag.md); a
version-1 position (the format before the kit, still written by hand in tests and kept in
users' files) is migrated to version 2 here before it is loaded.

Version 1 needed only `pieces`: a missing `format`, `game`, `version` and every other field
took the default of a game's first step, the first player and the control markers of the
set-up. It had no entry flag: a position was taken as written, so a migrated one has
`entered` true. Its `battle` held the pending hit `choice`; version 2 keeps the battle and
its decisions apart (`battle`, `pending`). Its `winner` becomes the kit's `result`.

Its `data_version` was the content hash of the data files before `sequence.toml` joined them:
a version-1 position written for this installation's data names that hash, and is read as
written for this data.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from henderson.core.errors import PositionError
from henderson.core.position import FORMAT
from henderson.games.aag.model import SIDES, other
from henderson.games.aag.rules.score import victory_cause

if TYPE_CHECKING:
    from henderson.games.aag.game import AAGGame

# version-1 fields read as they are (same name, same meaning, same shape)
KEPT = ("data_version", "options", "turn", "step", "half", "resolved", "ply", "dice")
PER_SIDE = {"vp": 0, "vp_ships": 0, "points": 0, "next_id": 1, "orders": {}, "tokens": {}}


def is_v1(obj: Any) -> bool:
    """Whether `obj` is a version-1 position (or names no version, as version 1 allowed)."""
    if not isinstance(obj, Mapping):
        return False
    version = obj.get("version", 1)
    return version == 1 and not isinstance(version, bool)


def migrate(game: AAGGame, obj: Any) -> Mapping[str, Any]:
    """A version-2 position from `obj`: version-1 objects (or without a version) converted,
    anything else returned as it is for the kit to read or refuse."""
    if not isinstance(obj, Mapping):
        raise PositionError("", "a position is a JSON object")
    if not is_v1(obj):
        return obj
    if obj.get("game", "aag") != "aag":
        raise PositionError("game", f"this is a {obj.get('game')!r} position, not 'aag'")
    return from_v1(game, obj)


def from_v1(game: AAGGame, old: Mapping[str, Any]) -> dict[str, Any]:
    """The version-2 object of a version-1 position (docs/aag.md describes both)."""
    known = {*KEPT, *PER_SIDE, "format", "game", "version", "first", "control", "airfields", "pieces"}
    known |= {"battle", "active", "deferred", "winner"}
    for key in old:
        if key not in known:
            raise PositionError(key, "unknown field")
    new: dict[str, Any] = {"format": FORMAT, "game": "aag", "version": 2, "entered": True}
    new.update({k: old[k] for k in KEPT if k in old})
    if old.get("data_version") == data_version_before_the_kit(game.data_dir):
        new["data_version"] = game.data_version
    new["first"] = old.get("first", game.data.rules.first_player)
    _check_step(game, new)
    for key, default in PER_SIDE.items():
        table = old.get(key, {})
        if not isinstance(table, Mapping):
            raise PositionError(key, "expected an object with 'us' and 'jp'")
        new[key] = {side: table.get(side, default) for side in SIDES} | {
            k: v for k, v in table.items() if k not in SIDES
        }
    new["control"] = old.get("control", dict(game.data.setup.control))
    new["airfields"] = _airfields(old.get("airfields", []))
    new["pieces"] = _pieces(old.get("pieces"))
    if old.get("battle") is not None:
        new["battle"], new["pending"] = _battle(old["battle"])
    new["active"] = _active(old.get("active", []))
    new["deferred"] = _deferred(old.get("deferred", {}))
    winner = old.get("winner")
    if winner is not None:
        if winner not in SIDES:
            raise PositionError("winner", f"expected 'us' or 'jp', got {winner!r}")
        loser = new["vp"].get(other(winner))
        cause = victory_cause(game.data.rules.points_to_win, loser if isinstance(loser, int) else 0)
        new["result"] = {"winner": winner, "cause": cause}
    return new


@cache
def data_version_before_the_kit(data_dir: Path) -> str:
    """The data version of `data_dir` as version 1 computed it (`core.data.content_version`
    of the same files, without `sequence.toml`, which the data had not then)."""
    digest = hashlib.sha256()
    for path in sorted(Path(data_dir).glob("*.toml")):
        if path.name == "sequence.toml":
            continue
        digest.update(path.name.encode())
        digest.update(b"\0")
        digest.update(path.read_bytes().replace(b"\r\n", b"\n"))
        digest.update(b"\0")
    return "sha256:" + digest.hexdigest()[:16]


def _check_step(game: AAGGame, new: dict[str, Any]) -> None:
    """Version 1 named a step and a half in any step; a step played by one side has half 0."""
    options = new.get("options", {})
    chosen = frozenset(k for k, v in options.items() if v is True) if isinstance(options, Mapping) else frozenset()
    plan = game.sequence().for_options(chosen)
    turn_ids = [s.id for s in plan.steps if not s.setup]
    step = new.get("step", turn_ids[0])
    if step not in turn_ids:
        raise PositionError("step", f"unknown step {step!r} (known: {', '.join(dict.fromkeys(turn_ids))})")
    new["step"] = step
    half = new.get("half", 0)
    if half == 1 and not any(s.id == step and s.half == 1 for s in plan.steps):
        new["half"] = 0


def _airfields(fields: Any) -> Any:
    """Version 1 read `island`, `side` and `damaged` (false when left out) of each airfield."""
    if not isinstance(fields, list):
        raise PositionError("airfields", "expected a list")
    out = []
    for i, a in enumerate(fields):
        if not isinstance(a, Mapping):
            raise PositionError(f"airfields[{i}]", "needs an 'island' that exists")
        out.append({"island": a.get("island"), "side": a.get("side"), "damaged": bool(a.get("damaged"))})
    return out


def _pieces(pieces: Any) -> dict[str, Any]:
    """Version 1's list of pieces, keyed by id as version 2 keeps them."""
    if not isinstance(pieces, list):
        raise PositionError("pieces", "expected a list of pieces")
    out: dict[str, Any] = {}
    for i, item in enumerate(pieces):
        if not isinstance(item, Mapping) or not isinstance(item.get("id"), str):
            raise PositionError(f"pieces[{i}]", "expected an object with an 'id'")
        if item["id"] in out:
            raise PositionError(f"pieces[{i}] ({item['id']})", "duplicate id")
        out[item["id"]] = dict(item)
    return out


def _battle(battle: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Version 1's battle: the hit choice pending in it becomes a decision; an attack not
    yet rolled waits for its attacker to declare it; an Amphibious Assault was the battle
    of one side alone (`sides`), of the units it unloaded (`only_unloaded`), outside the
    combat steps (`extra`)."""
    if not isinstance(battle, Mapping):
        raise PositionError("battle", "expected an object or null")
    rest = {k: v for k, v in battle.items() if k not in ("choice", "dice", "sides", "only_unloaded", "extra")}
    dice = battle.get("dice", [])
    if not isinstance(dice, list) or not all(isinstance(d, list) and len(d) == 2 for d in dice):
        raise PositionError("battle.dice", "expected a list of [slot, value] pairs")
    rest["dice"] = [{"slot": slot, "value": value} for slot, value in dice]
    rest["assault"] = bool(battle.get("only_unloaded"))
    choice = battle.get("choice")
    if choice is None:
        return rest, [{"kind": "declare", "side": battle.get("attacker")}]
    if not isinstance(choice, Mapping):
        raise PositionError("battle.choice", "expected chooser, value and candidates")
    hit = {"kind": "hit", "side": choice.get("chooser")}
    hit.update({k: v for k, v in choice.items() if k != "chooser"})
    return rest, [hit]


def _active(active: Any) -> list[dict[str, Any]]:
    """Advantages in force: version 1 named the token `id` and Coast Watchers' unit `type`."""
    if not isinstance(active, list) or not all(isinstance(a, Mapping) and "id" in a for a in active):
        raise PositionError("active", "expected a list of advantages in force")
    renamed = {"id": "token", "type": "unit"}
    return [{renamed.get(k, k): v for k, v in a.items()} for a in active]


def _deferred(deferred: Any) -> dict[str, Any]:
    """Coast Watchers' deferred unit types: version 1 read one type alone as a list."""
    if not isinstance(deferred, Mapping):
        raise PositionError("deferred", "expected an object side -> list of unit types")
    return {side: [kinds] if isinstance(kinds, str) else kinds for side, kinds in deferred.items()}
