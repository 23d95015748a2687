"""The Deluxe Guadalcanal game object: validated data plus new positions, position loading,
action notation and a text rendering (the `henderson.core.game.Game` API)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from henderson.core.dice import Dice
from henderson.core.errors import HendersonError, PositionError
from henderson.core.events import Event
from henderson.core.game import Capability, Game, Option, State
from henderson.core.hexgrid import Hex
from henderson.core.position import read_dice

from .actions import DGAction, make, parse
from .data import DEFAULT_DIR, load_data
from .model import SIDES, GameData
from .render import render
from .rules import movement, sequence
from .state import POSITION_VERSION, DGState
from .units import OFF_MAP, UnitState

TITLE = "Deluxe Guadalcanal – The Battle for Henderson Field"
OPTIONS: dict[str, Option] = {
    "us_stealth": Option("us_stealth", "DG 7.7.6: U.S. infantry may use stealth movement too"),
}


class DGGame(Game):
    """Rules plus data for DG; sides are "us" and "jp" (the US moves first, DG 4.0). Stealth
    and fog of war (DG 7.7, 7.8) hide units from the other side."""

    name = "deluxe"
    title = TITLE
    sides = SIDES
    rules_prefix = "DG"
    options = OPTIONS
    capabilities = frozenset({Capability.HIDDEN_INFORMATION, Capability.ODDS, Capability.EVALUATION})
    end_rule = "DG 9.4"

    def __init__(self, data: GameData, data_dir: Path) -> None:
        self.data = data
        self.data_dir = data_dir
        self.data_version = data.version
        self.los_cache: dict[tuple[str, str], bool] = {}  # terrain never changes (DG 8.1.4)
        # route searches by everything they read (rules/movement.py), shared by all states
        self.route_cache: dict[tuple[Any, ...], dict[str, Any]] = {}
        self.coastal: tuple[str, ...] = tuple(
            sorted(h for h, info in data.map.hexes.items() if info.coastal)
        )
        self.list_cache: dict[tuple[Any, ...], list[tuple[str, DGAction]]] = {}
        self.allowed_cache: dict[tuple[Any, ...], list[DGAction]] = {}  # movement.legal
        self.near_cache: dict[tuple[str, int], frozenset[str]] = {}  # stealth.near
        self.detect_cache: dict[tuple[Any, ...], list[DGAction]] = {}  # stealth.detect_legal
        self.zoc_cache: dict[frozenset[str], frozenset[str]] = {}  # movement.Context
        self.hex_at: dict[Hex, str] = {info.hex: hid for hid, info in data.map.hexes.items()}
        # (verb, unit or stack) -> hex -> the shared action (movement lists, built often)
        self.unit_actions: dict[tuple[str, str], dict[str, DGAction]] = {}
        self.edges, self.stealth_edges = movement.edge_tables(data)  # fixed costs (DG 7.3)

    def action(self, verb: str, *args: str) -> DGAction:
        """The shared action with this verb and arguments (`actions.make`)."""
        return make(verb, *args)

    def _new_state(self, seed: int, options: dict[str, Any], dice: Dice) -> DGState:
        """The start of the game (DG 3.0): every unit waits on the turn track or at Rabaul."""
        state = DGState(self, dice, seed, options)
        for uid, t in self.data.units.items():
            at = "turn" if t.arrival else "rabaul"
            state.units[uid] = UnitState(uid, t.side, at, t.strength)
        sequence.begin_turn(state)
        events: list[Event] = []
        sequence.run(state, events)
        return state

    def load_state(self, obj: Mapping[str, Any], *, dice: Dice | None = None) -> DGState:
        """A position from its JSON (docs/deluxe.md); PositionError names what is wrong."""
        self.check_position_header(obj, POSITION_VERSION)
        obj = old_side_names(obj)
        try:
            options = self.check_options(obj.get("options"))
        except HendersonError as exc:
            raise PositionError("options", str(exc)) from None
        state = DGState(self, read_dice(obj, dice), _opt_int(obj, "seed"), options)
        d = self.data
        state.turn = _int(obj, "turn", 1, d.constants.turns)
        ids = [s.id for s in d.sequence]
        step = obj.get("step", ids[0])
        if step not in ids:
            raise PositionError(
                "step", f"{step!r} is not a step of the sequence of play ({', '.join(ids)})"
            )
        state.step_index = ids.index(step)
        state.open = bool(obj.get("open", False))
        state._ply = _int(obj, "ply", 0, 10**9, default=0)
        sup = obj.get("supply", {})
        if not isinstance(sup, Mapping):
            raise PositionError("supply", "expected an object {us: n, jp: n}")
        for s in SIDES:
            v = sup.get(s, 0)
            if not isinstance(v, int) or not 0 <= v <= d.constants.supply_cap:
                raise PositionError(
                    f"supply.{s}", f"expected 0..{d.constants.supply_cap}, got {v!r}"
                )
            state.supply[s] = v
        hf = obj.get("henderson_field", {})
        status, control = hf.get("status", d.constants.hf_start), hf.get("control", "jp")
        if not isinstance(status, int) or not 0 <= status <= d.constants.hf_max:
            raise PositionError(
                "henderson_field.status", f"expected 0..{d.constants.hf_max}, got {status!r}"
            )
        if control not in SIDES:
            raise PositionError("henderson_field.control", "expected 'us' or 'jp'")
        state.hf, state.hf_control = status, control
        vp = obj.get("vp", 0)
        if not isinstance(vp, int):
            raise PositionError("vp", "expected an integer (positive: the US leads)")
        state.vp = vp
        villages = obj.get("villages", {})
        for h, owner in villages.items():
            if h not in d.map.villages or owner not in SIDES:
                raise PositionError(f"villages.{h}", "expected a village hex and 'us' or 'jp'")
        state.villages.update(villages)
        units = obj.get("units", {})
        if not isinstance(units, Mapping):
            raise PositionError("units", "expected an object of unit id -> unit")
        for uid, t in d.units.items():
            raw = units.get(uid)
            if raw is None:
                state.units[uid] = UnitState(
                    uid, t.side, "turn" if t.arrival else "rabaul", t.strength
                )
                continue
            state.units[uid] = _unit(uid, raw, t.side, t.strength, d)
        for uid in units:
            if uid not in d.units:
                raise PositionError(f"units.{uid}", "no such counter in the data")
        for key in ("flags", "next_flags", "naval_last"):
            v = obj.get(key, {})
            if not isinstance(v, Mapping):
                raise PositionError(key, "expected an object")
            setattr(state, key, dict(v))
        state.drawn = [int(x) for x in obj.get("cards_drawn", [])]
        state.jp_withdrawn = _int(obj, "japan_withdrawn", 0, 999, default=0)
        state.counter = max(
            [
                _int(obj, "stack_counter", 0, 10**9, default=0),
                *(u.order for u in state.units.values()),
            ]
        )
        pending = obj.get("pending", [])
        if not isinstance(pending, list) or not all(
            isinstance(p, Mapping) and p.get("kind") in PENDING_FIELDS for p in pending
        ):
            raise PositionError(
                "pending", f"expected a list of pending decisions ({', '.join(PENDING_FIELDS)})"
            )
        state.pending = [dict(p) for p in pending]
        for i, p in enumerate(state.pending):
            _check_pending(p, f"pending[{i}]", d)
        res = obj.get("result")
        state.result = (str(res[0]), str(res[1])) if res else None
        errs = state.invariant_errors()
        if errs:
            raise PositionError("units", errs[0])
        if not state.open and not state.pending and state.result is None:
            sequence.run(state, [])
        return state

    def parse_action(self, text: str) -> DGAction:
        """The action written as `text` (docs/deluxe.md); NotationError otherwise."""
        return parse(text)

    def render_text(self, state: State, viewer: str | None = None) -> str:
        """The position as text for a terminal (as `viewer` may see it, when given)."""
        assert isinstance(state, DGState)
        return render(state, viewer)

    def odds(self, state: State, spec: str) -> Any:
        """The exact odds of an assault built from `spec` ("attack 3508; with 2/5; ..."), unrolled."""
        from .oddsview import assault_odds

        assert isinstance(state, DGState)
        return assault_odds(state, spec)

    def evaluate(self, state: State, side: str) -> float:
        from .evaluate import evaluate

        assert isinstance(state, DGState)
        return evaluate(state, side)

    def client_data(self) -> dict[str, Any]:
        """Static board data for the browser client (the map, counters, turn track)."""
        from .clientdata import client_data

        return client_data(self)


OLD_SIDE = "japan"  # Japan's side id before it became "jp" (as in FIRST BLOOD and AAG)


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


def _int(obj: Mapping[str, Any], key: str, lo: int, hi: int, default: int | None = None) -> int:
    v = obj.get(key, default)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise PositionError(key, f"expected an integer {lo}..{hi}, got {v!r}")
    return v


def _opt_int(obj: Mapping[str, Any], key: str) -> int | None:
    v = obj.get(key)
    if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
        raise PositionError(key, "expected an integer or null")
    return v


def _unit(uid: str, raw: Any, side: str, full: int, d: GameData) -> UnitState:
    where = f"units.{uid}"
    if not isinstance(raw, Mapping):
        raise PositionError(where, "expected an object with at least 'at'")
    at = raw.get("at")
    if not isinstance(at, str) or (at not in OFF_MAP and at not in d.map.hexes):
        raise PositionError(
            f"{where}.at", f"{at!r} is not a hex of the map nor one of {', '.join(OFF_MAP)}"
        )
    if at in d.map.hexes and not d.map.hexes[at].land:
        raise PositionError(f"{where}.at", f"{at} is a sea hex")
    if raw.get("side", side) != side:
        raise PositionError(f"{where}.side", f"{uid} is a {side} unit")
    u = UnitState(uid, side, at, full)
    for key, value in raw.items():
        if key in ("side", "at"):
            continue
        if key not in UnitState.__dataclass_fields__ or key == "id":
            raise PositionError(f"{where}.{key}", "unknown field")
        default = getattr(u, key)
        if type(value) is not type(default):
            raise PositionError(
                f"{where}.{key}", f"expected {type(default).__name__}, got {value!r}"
            )
        setattr(u, key, value)
    if not 0 <= u.strength <= full:
        raise PositionError(f"{where}.strength", f"must be 0..{full}")
    if u.on_map and u.strength == 0:
        raise PositionError(f"{where}.strength", "a unit on the map has at least one step")
    return u


# the fields each kind of pending decision needs, with their JSON types
PENDING_FIELDS: dict[str, dict[str, type]] = {
    "assault": {
        "side": str,
        "attacker": str,
        "stage": str,
        "targets": list,
        "units": list,
        "support": dict,
        "strain": int,
        "ambush": bool,
        "defend": int,
        "banzai": bool,
    },
    "stealth_move": {"side": str, "units": list},
    "rabaul": {"side": str, "count": int, "strength": int, "picked": list},
    "artillery_loss": {"side": str, "hex": str, "hits": int},
}
STAGES = (
    "build",
    "defend",
    "lose_d",
    "lose_a",
    "banzai",
    "banzai_choice",
    "retreat_d",
    "retreat_a",
    "hf",
    "advance",
    "counter_advance",
)


def _check_pending(p: dict[str, Any], where: str, d: GameData) -> None:
    """A pending decision must have its fields, known sides, units and hexes."""
    for key, kind in PENDING_FIELDS[p["kind"]].items():
        if not isinstance(p.get(key), kind):
            raise PositionError(f"{where}.{key}", f"expected {kind.__name__}")
    if p["side"] not in SIDES:
        raise PositionError(f"{where}.side", "expected 'us' or 'jp'")
    for key in ("units", "picked", "defenders"):
        for uid in p.get(key, []):
            if uid not in d.units:
                raise PositionError(f"{where}.{key}", f"no unit {uid!r}")
    for uid in p.get("support", {}):
        if uid not in d.units:
            raise PositionError(f"{where}.support", f"no unit {uid!r}")
    if "hex" in p and p["hex"] not in d.map.hexes:
        raise PositionError(f"{where}.hex", f"{p['hex']!r} is not a hex of the map")
    for h in p.get("targets", []):
        if h not in d.map.hexes:
            raise PositionError(f"{where}.targets", f"{h!r} is not a hex of the map")
    if p["kind"] == "assault":
        if p["stage"] not in STAGES:
            raise PositionError(f"{where}.stage", f"expected one of {', '.join(STAGES)}")
        if p["stage"] != "build":
            for key in ("loss", "retreat", "advance", "defenders"):
                if key not in p and p["stage"] != "defend":
                    raise PositionError(f"{where}.{key}", "missing for an assault being resolved")


def load_game(data_dir: Path | None = None) -> DGGame:
    """The game with the shipped data, or with the data in `data_dir`."""
    base = Path(data_dir) if data_dir else DEFAULT_DIR
    return DGGame(load_data(base), base)
