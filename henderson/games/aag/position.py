"""Reading a hand-written AAG position (docs/aag.md describes the format, version 1).

Only `pieces` is required; everything else has the default of a game's first step.
Errors name the field: `position: pieces[3]: field 'zone' missing or not text`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from henderson.core.errors import PositionError
from henderson.core.position import check_data_version
from henderson.games.aag.actions import id_key
from henderson.games.aag.model import SIDES, SUPPLY
from henderson.games.aag.pieces import Piece

if TYPE_CHECKING:
    from henderson.games.aag.state import AagState


def load_into(state: AagState, obj: Any) -> None:
    """Fill `state` from a position object, checking every field against the data."""
    if not isinstance(obj, dict):
        raise PositionError("", "expected a JSON object")
    if obj.get("game", "aag") != "aag":
        raise PositionError("game", f"expected 'aag', got {obj.get('game')!r}")
    version = obj.get("version", 1)
    if version != 1:
        raise PositionError("version", f"unsupported version {version!r} (this is version 1)")
    check_data_version(obj.get("data_version"), state.data.data_version, "data_version")
    data = state.data
    board = data.board
    options = obj.get("options", {})
    if not isinstance(options, dict) or set(options) - {"hidden_movement", "advantages"}:
        raise PositionError("options", "only 'hidden_movement' and 'advantages' are known")
    state.options = {
        "hidden_movement": bool(options.get("hidden_movement", False)),
        "advantages": bool(options.get("advantages", False)),
    }
    state.turn = _int(obj, "turn", 1, 1)
    state.first = _side(obj.get("first", data.rules.first_player), "first")
    step = obj.get("step", state.steps[0])
    if step not in state.steps:
        raise PositionError("step", f"unknown step {step!r} (known: {', '.join(state.steps)})")
    state.step_index = state.steps.index(step)
    state.half = _int(obj, "half", 0, 0)
    if state.half > 1:
        raise PositionError("half", "must be 0 (first player) or 1 (the other)")
    for key in ("vp", "vp_ships", "points", "next_id"):
        table = obj.get(key, {})
        if not isinstance(table, dict) or set(table) - set(SIDES):
            raise PositionError(key, "expected an object with 'us' and 'jp'")
        current = getattr(state, key)
        for side in SIDES:
            value = table.get(side, current[side])
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise PositionError(f"{key}.{side}", "expected a non-negative integer")
            current[side] = value
    control = obj.get("control", dict(data.setup.control))
    if not isinstance(control, dict):
        raise PositionError("control", "expected an object island -> side")
    for island in board.islands:
        if island not in control:
            raise PositionError("control", f"no side controls {island}")
    for island, side in control.items():
        if island not in board.islands:
            raise PositionError("control", f"unknown island {island!r}")
        _side(side, f"control.{island}")
    state.control = dict(control)
    fields = obj.get("airfields", [])
    if not isinstance(fields, list):
        raise PositionError("airfields", "expected a list")
    state.airfields = []
    for i, a in enumerate(fields):
        where = f"airfields[{i}]"
        if not isinstance(a, dict) or a.get("island") not in board.islands:
            raise PositionError(where, "needs an 'island' that exists")
        _side(a.get("side"), f"{where}.side")
        state.airfields.append(
            {"island": a["island"], "side": a["side"], "damaged": bool(a.get("damaged"))}
        )
    for island, isl in board.islands.items():
        if sum(1 for a in state.airfields if a["island"] == island) > isl.airfields:
            raise PositionError("airfields", f"{island} holds at most {isl.airfields} airfield(s)")
    raw = obj.get("pieces")
    if not isinstance(raw, list):
        raise PositionError("pieces", "expected a list of pieces")
    state.pieces = {}
    zones = set(board.zone_ids())
    for i, item in enumerate(raw):
        p = Piece.from_json(item, f"pieces[{i}]")
        where = f"pieces[{i}] ({p.id})"
        if p.id in state.pieces:
            raise PositionError(where, "duplicate id")
        _side(p.side, f"{where}.side")
        if p.type != SUPPLY and p.type not in data.units:
            raise PositionError(where, f"unknown unit type {p.type!r}")
        if p.zone not in zones:
            raise PositionError(where, f"unknown zone {p.zone!r}")
        state.pieces[p.id] = p
        number = p.id[2:]
        if p.id[:2] in SIDES and number.isdigit():
            state.next_id[p.id[:2]] = max(state.next_id[p.id[:2]], int(number) + 1)
    state.pieces = dict(sorted(state.pieces.items(), key=lambda kv: id_key(kv[0])))
    for p in state.pieces.values():
        check_piece(state, p)
    state.resolved = [z for z in obj.get("resolved", []) if isinstance(z, str)]
    battle = obj.get("battle")
    if battle is not None:
        check_battle(state, battle)
    state.battle = battle
    orders = obj.get("orders", {})
    state.orders = {s: dict(orders.get(s, {})) if isinstance(orders, dict) else {} for s in SIDES}
    tokens = obj.get("tokens", {})
    if not isinstance(tokens, dict):
        raise PositionError("tokens", "expected an object side -> {token: count}")
    state.tokens = {s: dict(tokens.get(s, {})) for s in SIDES}
    known = {t.id for t in data.advantages}
    for side, table in state.tokens.items():
        for token, count in table.items():
            if (
                token not in known
                or not isinstance(count, int)
                or isinstance(count, bool)
                or count < 0
            ):
                raise PositionError(
                    f"tokens.{side}", f"{token} = {count!r}: unknown token or bad count"
                )
    active = obj.get("active", [])
    if not isinstance(active, list) or not all(isinstance(a, dict) and "id" in a for a in active):
        raise PositionError("active", "expected a list of advantages in force")
    state.active = [dict(a) for a in active]
    deferred = obj.get("deferred", {})
    if not isinstance(deferred, dict):
        raise PositionError("deferred", "expected an object side -> list of unit types")
    state.deferred = {}
    for side, kinds in deferred.items():
        kinds = [kinds] if isinstance(kinds, str) else kinds  # one type alone is read as a list
        if side not in SIDES or not isinstance(kinds, list) or not all(k in state.data.units for k in kinds):
            raise PositionError(f"deferred.{side}", f"{kinds!r}: expected a list of unit types")
        state.deferred[side] = list(kinds)
    winner = obj.get("winner")
    state.winner_side = None if winner is None else _side(winner, "winner")
    state._ply = _int(obj, "ply", 0, 0)


def check_battle(state: AagState, battle: Any) -> None:
    """The combat in progress: zone, category, stage, attacker, dice and any pending choice."""
    if not isinstance(battle, dict):
        raise PositionError("battle", "expected an object or null")
    if battle.get("zone") not in state.data.board.zone_ids():
        raise PositionError("battle.zone", f"unknown zone {battle.get('zone')!r}")
    if battle.get("category") not in ("air", "sea", "land"):
        raise PositionError("battle.category", "expected air, sea or land")
    stage = battle.get("stage")
    if not isinstance(stage, int) or isinstance(stage, bool) or not 0 <= stage <= 2:
        raise PositionError("battle.stage", "expected 0, 1 or 2")
    _side(battle.get("attacker"), "battle.attacker")
    dice = battle.get("dice", [])
    if not isinstance(dice, list) or not all(
        isinstance(d, list) and len(d) == 2 and all(isinstance(v, int) for v in d) for d in dice
    ):
        raise PositionError("battle.dice", "expected a list of [slot, value] pairs")
    battle.setdefault("dice", [])
    choice = battle.get("choice")
    if choice is not None:
        if not isinstance(choice, dict) or not isinstance(choice.get("candidates"), list):
            raise PositionError("battle.choice", "expected chooser, value and candidates")
        _side(choice.get("chooser"), "battle.choice.chooser")
        if choice.get("value") not in (1, 2, 3):
            raise PositionError("battle.choice.value", "expected the die value 1, 2 (or 3)")
        for uid in choice["candidates"]:
            if uid not in state.pieces:
                raise PositionError("battle.choice.candidates", f"no piece {uid!r}")


def check_piece(state: AagState, p: Piece) -> None:
    """A piece must be where its kind can be: ships at sea, land units ashore or aboard."""
    board = state.data.board
    where = f"piece {p.id}"
    cat = state.category(p)
    if p.damaged:
        check_damaged(state, p)
    if p.aboard is not None:
        ship = state.pieces.get(p.aboard)
        if ship is None or state.category(ship) != "sea":
            raise PositionError(where, f"aboard {p.aboard!r}, which is not a ship")
        if ship.damaged:  # AAG Loss of Cargo: a hit ship's cargo is lost
            raise PositionError(
                where,
                f"aboard {ship.id}, a damaged {ship.type}: a damaged ship carries nothing "
                "(AAG Loss of Cargo)",
            )
        if ship.zone != p.zone or ship.side != p.side:
            raise PositionError(where, f"must be in its ship's zone {ship.zone} and side")
        ut = state.data.units[ship.type]
        if p.type == "fighter":
            if "flight_deck" not in ut.abilities:
                raise PositionError(where, f"a fighter cannot ride a {ship.type}")
            deck = state.data.rules.carrier_capacity
            if len(state.fighters_aboard(ship)) > deck:  # AAG Aircraft Carrier Flight Deck
                raise PositionError(
                    where, f"{ship.id} carries at most {deck} fighters (AAG Aircraft Carrier Flight Deck)"
                )
        elif cat != "land" or len(state.land_cargo(ship)) > ut.cargo:
            raise PositionError(where, f"{ship.id} ({ship.type}) carries at most {ut.cargo}")
        return
    if cat == "sea" and not board.is_sea(p.zone):
        raise PositionError(where, f"a {p.type} must be in a sea zone, not {p.zone}")
    if cat == "land" and board.is_sea(p.zone):
        raise PositionError(where, f"{p.type} in sea zone {p.zone} must be aboard a ship")


def check_damaged(state: AagState, p: Piece) -> None:
    """A damaged unit is a resilient sea unit in the damaged area of its own base, where it
    stays until repaired (AAG Damaging and Destroying Units, Resilience)."""
    rule = "AAG Damaging and Destroying Units"
    where = f"piece {p.id}"
    ut = state.data.units.get(p.type)
    if ut is None or ut.category != "sea" or not ut.resilient:
        raise PositionError(
            where,
            f"a {p.type} is never damaged, only destroyed: only ships with Resilience are "
            f"damaged ({rule})",
        )
    base = state.base_sea(p.side)
    if p.zone != base or p.aboard is not None:
        raise PositionError(
            where,
            f"a damaged {p.type} cannot be in {p.zone}: it stays in the damaged area of its "
            f"base ({base}) until repaired ({rule})",
        )
    if p.hit is not None:
        raise PositionError(where, f"a damaged {p.type} at its base cannot be hit ({rule})")


def _side(value: Any, where: str) -> str:
    if value not in SIDES:
        raise PositionError(where, f"expected 'us' or 'jp', got {value!r}")
    return str(value)


def _int(obj: dict[str, Any], key: str, default: int, minimum: int) -> int:
    value = obj.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise PositionError(key, f"expected an integer >= {minimum}")
    return value
