"""FIRST BLOOD positions. Version 2 is the kit's (`Sequenced.to_json`/`load`, from the fields
declared in `state.py`; docs/firstblood.md). Version 1, the format before the kit, is still
read: users' files, the benchmark positions and hand-written tests use it. `migrate` turns a
version-1 object into version 2, which is then loaded like any other.

What changes: `turn` is counted from 1 (version 1 named it, "OCT II"); `phase` is `step`;
`movement` (MF left, halves allowed) is `half_mf` (half MF, whole numbers); `pending` lists
the decision taken next last (version 1: first), a loss's `then`/`survivors` is its
`retreat`. A version-1 position is the position as written, its step's entry work done,
with the defaults version 1 gave: full movement in a movement phase, the combat phase's
duties computed when `combat` is left out, the special IJN box from the turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from henderson.core.errors import PositionError
from henderson.core.position import FORMAT

if TYPE_CHECKING:
    from henderson.games.firstblood.game import FBGame

STATUSES = ("operational", "damaged", "destroyed", "unbuilt")
DECISIONS = ("lose", "retreat", "advance", "land", "entry")


def migrate(game: FBGame, obj: Mapping[str, Any]) -> Mapping[str, Any]:
    """`obj` as a version-2 position when it is a FIRST BLOOD position of version 1; anything
    else unchanged (the kit's loader then checks its header and fields)."""
    if not isinstance(obj, Mapping) or obj.get("format") != FORMAT or obj.get("game") != game.name:
        return obj
    if obj.get("version") != 1 or isinstance(obj.get("version"), bool):
        return obj
    data = game.data
    out = {k: v for k, v in obj.items() if k not in ("phase", "movement", "pending")}
    out["version"] = 2
    turn = obj.get("turn")
    if turn not in data.turns:
        raise PositionError("turn", f"{turn!r} is not a turn ({data.turns[0]} … {data.turns[-1]})")
    out["turn"] = data.turns.index(turn) + 1
    steps = game.sequence().for_options(frozenset()).ids()
    phase = obj.get("phase")
    if phase not in steps:
        raise PositionError("phase", f"{phase!r} is not a phase ({', '.join(steps)})")
    out["step"] = phase
    out["entered"] = not (phase.endswith("_combat") and "combat" not in obj)  # the duties, FB 8.1, 8.2
    _movement(game, obj, phase, out)
    airfields = obj.get("airfields")
    if isinstance(airfields, Mapping):
        for h, status in airfields.items():
            if status not in STATUSES:
                raise PositionError(f"airfields.{h}", f"status must be one of {', '.join(STATUSES)}")
    if "specials" not in obj:
        ships = obj.get("ships")
        present = isinstance(ships, Mapping) and any(s in ships for s in data.special_ships.ships)
        earliest = data.turns.index(data.special_ships.earliest)
        out["specials"] = "available" if data.turns.index(turn) >= earliest and not present else "unavailable"
    out["pending"] = [_decision(d, i) for i, d in enumerate(_list(obj, "pending"))][::-1]
    return out


def _list(obj: Mapping[str, Any], key: str) -> list[Any]:
    value = obj.get(key, [])
    if not isinstance(value, list):
        raise PositionError(key, f"expected a list, got {value!r}"[:80])
    return value


def _movement(game: FBGame, obj: Mapping[str, Any], phase: str, out: dict[str, Any]) -> None:
    """FB 4.1: MF left, by default the full printed MF of every unit of the moving side not
    held in a box (FB 7.2); version 1 counted it in MF with halves, version 2 in half MF."""
    given = obj.get("movement", {})
    if not isinstance(given, Mapping):
        raise PositionError("movement", f"expected an object, got {given!r}"[:80])
    if not phase.endswith("_movement"):
        if given:
            raise PositionError("movement", "movement left is only kept during a movement phase")
        return
    side = phase.split("_", 1)[0]
    ground = obj.get("ground", {})
    held = obj.get("held", [])
    half_mf: dict[str, Any] = {}
    if isinstance(ground, Mapping) and isinstance(held, list):
        for unit in ground:
            g = game.data.ground.get(unit)
            if g is not None and g.side == side and unit not in held:
                half_mf[unit] = 2 * g.mf
    for unit, left in given.items():
        if unit not in half_mf:
            raise PositionError(f"movement.{unit}", "not a unit that can move in this phase")
        if not isinstance(left, int | float) or isinstance(left, bool) or left < 0 or (2 * left) % 1:
            raise PositionError(f"movement.{unit}", "movement left is a number of whole or half MF")
        half_mf[unit] = int(2 * left)
    out["half_mf"] = half_mf


def _decision(d: Any, i: int) -> dict[str, Any]:
    """A version-1 decision as version 2 writes it."""
    if not isinstance(d, Mapping) or d.get("kind") not in DECISIONS or d.get("side") not in ("us", "jp"):
        raise PositionError(f"pending[{i}]", f"a decision has a kind ({', '.join(DECISIONS)}) and a side (us or jp)")
    out = {"kind": d["kind"], "side": d["side"], "units": d.get("units", [])}
    if d.get("rule"):
        out["rule"] = d["rule"]
    if d["kind"] == "lose":
        out["count"] = d.get("count", 0)
        out["retreat"] = d.get("survivors", []) if d.get("then") == "retreat" else []
    if d["kind"] in ("advance", "entry"):
        out["hexes"] = d.get("hexes", [])
    return out
