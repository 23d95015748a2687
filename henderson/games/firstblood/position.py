"""FIRST BLOOD positions as JSON: documented (docs/firstblood.md), versioned, hand-editable.

Only `format`, `game`, `version`, `turn` and `phase` are required; everything else has
a default (airfields as printed, full movement factors, no pending decision), so a
player can set up any situation in a text editor.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from henderson.core.dice import Dice
from henderson.core.errors import HendersonError, PositionError
from henderson.core.position import read_dice
from henderson.games.firstblood.state import Building, Decision, FBState

if TYPE_CHECKING:
    from henderson.games.firstblood.game import FirstBlood

FORMAT = "henderson-position"
VERSION = 1
PHASES = (
    "us_setup",
    "jp_setup",
    "jp_reinforcement",
    "jp_movement",
    "jp_combat",
    "jp_supply",
    "jp_strategic",
    "us_reinforcement",
    "us_movement",
    "us_combat",
    "us_engineer",
    "us_air",
)
AIRFIELD_STATUS = ("operational", "damaged", "destroyed", "unbuilt")
US_AIR_PLACES = ("usaf_reserve", "usaf_cap", "usaf_ground_attack", "returning")
JP_AIR_PLACES = ("ijaf_reserve", "ijaf_attack")
SHIP_PLACES = ("ijn_reserve", "ijn_attack")
DECISIONS = ("lose", "retreat", "advance", "land", "entry")


def half(mf: int) -> float | int:
    return mf // 2 if mf % 2 == 0 else mf / 2


def to_json(st: FBState) -> dict[str, Any]:
    b = st.building
    return {
        "format": FORMAT,
        "game": "firstblood",
        "version": VERSION,
        "data_version": st.data.data_version,
        "turn": st.turn_name,
        "phase": st.phase,
        "ply": st.ply,
        "options": dict(st.options),
        "ground": dict(sorted(st.ground.items())),
        "movement": {u: half(m) for u, m in sorted(st.mf.items())},
        "boxes_visited": dict(sorted(st.visited.items())),
        "held": sorted(st.held),
        "moved": sorted(st.moved),
        "air": dict(sorted(st.air.items())),
        "inverted": sorted(st.inverted),
        "air_moved": sorted(st.air_moved),
        "bombing": dict(sorted(st.bombing.items())),
        "ships": dict(sorted(st.ships.items())),
        "airfields": dict(sorted(st.airfield.items())),
        "engineer_work": dict(sorted(st.work.items())),
        "workers": dict(sorted(st.workers.items())),
        "disturbed": sorted(st.disturbed),
        "specials": st.specials,
        "to_place": list(st.to_place),
        "combat": {
            "attacked": sorted(st.attacked),
            "attacked_hexes": sorted(st.attacked_hexes),
            "must_attack": sorted(st.must_attack),
            "must_defend": sorted(st.must_defend),
            "building": None
            if b is None
            else {
                "defenders": list(b.defenders),
                "attackers": list(b.attackers),
                "artillery": list(b.artillery),
                "ships": list(b.ships),
                "air": list(b.air),
            },
        },
        "pending": [d.to_json() for d in st.pending],
        "eliminated": list(st.eliminated),
        "supply_credit": st.supply_credit,
        "result": None if st.winner_side is None else {"winner": st.winner_side, "cause": st.cause},
        "seed": st.seed,
        "dice": st.dice.to_json(),
    }


class _Reader:
    """Typed access to the position's fields with errors naming the field."""

    def __init__(self, obj: Mapping[str, Any]) -> None:
        self.obj = obj

    def get(self, key: str, kind: type | tuple[type, ...], default: Any) -> Any:
        value = self.obj.get(key, default)
        if value is default:
            return default
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            raise PositionError(key, f"expected {getattr(kind, '__name__', kind)}, got {value!r}")
        return value

    def mapping(self, key: str) -> dict[str, Any]:
        return dict(self.get(key, dict, {}))

    def strings(self, key: str) -> list[str]:
        values = self.get(key, list, [])
        if not all(isinstance(v, str) for v in values):
            raise PositionError(key, "expected a list of texts")
        return list(values)


def load(game: FirstBlood, obj: Mapping[str, Any], dice: Dice | None = None) -> FBState:
    """A state from a position; PositionError names the field that is wrong."""
    game.check_position_header(obj, VERSION)
    r = _Reader(obj)
    data = game.data
    board = game.board
    turn = r.get("turn", str, None)
    if turn not in data.turns:
        raise PositionError("turn", f"{turn!r} is not a turn ({data.turns[0]} … {data.turns[-1]})")
    phase = r.get("phase", str, None)
    if phase not in PHASES:
        raise PositionError("phase", f"{phase!r} is not a phase ({', '.join(PHASES)})")
    seed = r.get("seed", int, None)
    try:
        options = game.check_options(r.mapping("options"))
    except HendersonError as exc:
        raise PositionError("options", str(exc)) from None
    st = FBState(game, read_dice(obj, dice), seed, options)
    st.turn_index = data.turns.index(turn)
    st.phase = phase
    st._ply = r.get("ply", int, 0)

    for unit, where in r.mapping("ground").items():
        g = data.ground.get(unit)
        if g is None:
            raise PositionError(f"ground.{unit}", "no such ground unit")
        if not isinstance(where, str):
            raise PositionError(f"ground.{unit}", "a place is a hex number, a box letter or an entry point")
        if board.on_map(where):
            pass
        elif where in board.box_arrows:
            if g.side != "jp":
                raise PositionError(f"ground.{unit}", "only Japanese units use the off-board boxes (FB 6.0)")
        elif where in board.ep_side:
            if board.ep_side[where] != g.side:
                raise PositionError(f"ground.{unit}", f"{where} is an entry point of the other side (FB 7.1, 7.2)")
        else:
            raise PositionError(
                f"ground.{unit}", f"{where!r} is not a hex of the map, a box A-D or an entry point EP1-EP17"
            )
        st.put(unit, where)
    for place, units in st.occ.items():
        if board.on_map(place):
            sides = {data.ground[u].side for u in units}
            if len(sides) > 1:
                raise PositionError(f"ground.{units[0]}", f"US and Japanese units share hex {place} (FB 5.1)")
            if len(units) > 3 and phase not in ("us_movement", "jp_movement"):
                raise PositionError(f"ground.{units[0]}", f"{len(units)} ground units in {place} (FB 5.0: at most 3)")

    for unit, where in r.mapping("air").items():
        a = data.air.get(unit)
        if a is None:
            raise PositionError(f"air.{unit}", "no such air unit")
        allowed = US_AIR_PLACES if a.side == "us" else JP_AIR_PLACES
        if not isinstance(where, str) or not (where in allowed or (a.side == "us" and where in board.airfield_hexes)):
            raise PositionError(f"air.{unit}", f"{where!r} is not a place for a {a.side.upper()} air unit")
        st.air[unit] = where
    for unit, where in r.mapping("ships").items():
        if unit not in data.ships:
            raise PositionError(f"ships.{unit}", "no such ship")
        if where not in SHIP_PLACES:
            raise PositionError(f"ships.{unit}", "ships are in ijn_reserve or ijn_attack")
        st.ships[unit] = where

    st.airfield = {
        h: ("operational" if data.map.airfields[a].built else "unbuilt")
        for a in data.map.airfields
        for h in data.map.airfields[a].hexes
    }
    for h, status in r.mapping("airfields").items():
        if h not in st.airfield:
            raise PositionError(f"airfields.{h}", "not an airfield or Fighter Strip hex")
        if status not in AIRFIELD_STATUS:
            raise PositionError(f"airfields.{h}", f"status must be one of {', '.join(AIRFIELD_STATUS)}")
        st.airfield[h] = status

    movement = r.mapping("movement")
    if phase.endswith("_movement"):
        side = phase.split("_")[0]
        held = set(r.strings("held"))
        for unit in st.ground:
            g = data.ground[unit]
            if g.side == side and unit not in held:
                st.mf[unit] = 2 * g.mf
        for unit, left in movement.items():
            if unit not in st.mf:
                raise PositionError(f"movement.{unit}", "not a unit that can move in this phase")
            if not isinstance(left, int | float) or isinstance(left, bool) or left < 0 or (2 * left) % 1:
                raise PositionError(f"movement.{unit}", "movement left is a number of whole or half MF")
            st.mf[unit] = int(2 * left)
    elif movement:
        raise PositionError("movement", "movement left is only kept during a movement phase")

    st.visited = {u: v for u, v in r.mapping("boxes_visited").items()}
    for u, where in st.ground.items():
        if where in board.box_arrows and where not in st.visited.get(u, ""):
            st.visited[u] = st.visited.get(u, "") + where
    st.held = set(r.strings("held"))
    st.moved = set(r.strings("moved"))
    st.inverted = set(r.strings("inverted"))
    st.air_moved = set(r.strings("air_moved"))
    st.bombing = {u: h for u, h in r.mapping("bombing").items()}
    st.work = {h: int(n) for h, n in r.mapping("engineer_work").items()}
    st.workers = {u: h for u, h in r.mapping("workers").items()}
    st.disturbed = set(r.strings("disturbed"))
    specials = r.get("specials", str, None)
    if specials is None:
        earliest = data.turns.index(data.special_ships.earliest)
        specials = (
            "available"
            if st.turn_index >= earliest and not any(s in st.ships for s in data.special_ships.ships)
            else "unavailable"
        )
    if specials not in ("unavailable", "available", "committed"):
        raise PositionError("specials", "must be unavailable, available or committed")
    st.specials = specials
    st.to_place = r.strings("to_place")
    for u in st.to_place:
        if u not in data.ground and u not in data.ships and u not in data.air:
            raise PositionError("to_place", f"no such counter {u!r}")
    st.eliminated = r.strings("eliminated")
    st.supply_credit = r.get("supply_credit", int, 0)
    combat = r.mapping("combat")
    if phase.endswith("_combat") and not combat:
        from henderson.games.firstblood.rules import combat as combat_rules

        combat_rules.enter(st, [])
    else:
        c = _Reader(combat)
        st.attacked = set(c.strings("attacked"))
        st.attacked_hexes = set(c.strings("attacked_hexes"))
        st.must_attack = set(c.strings("must_attack"))
        st.must_defend = set(c.strings("must_defend"))
        bld = combat.get("building")
        if bld is not None:
            b = _Reader(bld)
            st.building = Building(
                tuple(b.strings("defenders")),
                b.strings("attackers"),
                b.strings("artillery"),
                b.strings("ships"),
                b.strings("air"),
            )
    pending = r.get("pending", list, [])
    for i, d in enumerate(pending):
        if not isinstance(d, dict) or d.get("kind") not in DECISIONS or d.get("side") not in ("us", "jp"):
            raise PositionError(
                f"pending[{i}]", f"a decision has a kind ({', '.join(DECISIONS)}) and a side (us or jp)"
            )
        try:
            st.pending.append(Decision.from_json(d))
        except (KeyError, TypeError, ValueError) as exc:
            raise PositionError(f"pending[{i}]", str(exc)) from None
    if phase.endswith("_movement") and not st.pending:
        from henderson.games.firstblood.rules.stacking import Stacking, overfull

        over = overfull(st)
        if over and not Stacking(st).ok:
            raise PositionError(
                "ground",
                f"{len(st.at(over[0]))} ground units in {over[0]}, and the moves left could not bring every hex "
                "within the limit of 3 by the end of the movement phase (FB 5.0)",
            )
    result = obj.get("result")
    if result is not None:
        if not isinstance(result, dict) or result.get("winner") not in ("us", "jp"):
            raise PositionError("result", "a result names the winner, us or jp")
        st.winner_side = result["winner"]
        st.cause = str(result.get("cause", ""))
    return st
