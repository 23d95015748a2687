"""Load and validate the Deluxe Guadalcanal data files into frozen `model` values.

Every problem in every file is gathered by one `Collector` pass and reported together
(`file: record: field: what`); then the constraints the rulebook fixes (docs/data.md, DG
section) are checked on the result, so a replacement data set cannot silently break a rule.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise
from pathlib import Path
from typing import Any

from henderson.core.data import Collector, content_version, load_toml
from henderson.core.errors import DataError, DataErrors
from henderson.core.hexgrid import OffsetLayout, neighbours

from .model import (
    SIDES,
    AttritionTable,
    Card,
    Cell,
    CombatEffect,
    Constants,
    EventEffect,
    FireBand,
    GameData,
    HexInfo,
    MapData,
    Movement,
    Period,
    Step,
    Turn,
    UnitType,
    other,
)

DEFAULT_DIR = Path(__file__).parent / "data"
FILES = (
    "game.toml",
    "map.toml",
    "units.toml",
    "attrition.toml",
    "artillery.toml",
    "supply.toml",
    "turns.toml",
    "rabaul.toml",
    "terrain.toml",
    "events.toml",
    "sequence.toml",
    "rules.toml",
)
RATIOS = ("1-6", "1-5", "1-4", "1-3", "1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1")
MONTHS = ("Aug", "Sep", "Oct", "Nov", "Dec", "Jan")
UNIT_TYPES = ("infantry", "artillery", "engineer", "lvt", "labour", "special", "heavy", "armor")
TERRAIN_CHARS = {"~": "sea", ".": "clear", "#": "jungle"}
# The kinds of random event, and where each acts (DG 5.0 "lasts for this turn only"): None at
# once when drawn, otherwise (step kind, whose step): "target" the targeted side's own step,
# "other" the other side's (a `defence` event acts while the target defends in the enemy's
# assaults). `check_constraints` refuses a card whose event would come after every such step.
EVENT_KINDS: dict[str, tuple[str, str] | None] = {
    "supply": None,
    "hf": None,
    "vp": None,
    "combat": ("combat", "target"),
    "movement": ("move", "target"),
    "detect": ("move", "target"),
    "no_naval": ("naval", "target"),
    "sure_naval": ("naval", "target"),
    "no_fire": ("fire", "target"),
    "defence": ("combat", "other"),
}


def load_data(data_dir: Path | None = None) -> GameData:
    """All DG data from `data_dir` (the shipped data by default); DataErrors lists every problem."""
    base = Path(data_dir) if data_dir else DEFAULT_DIR
    raw: dict[str, dict[str, Any]] = {}
    problems: list[DataError] = []
    for name in FILES:
        try:
            raw[name] = load_toml(base / name)
        except DataError as exc:
            problems.append(exc)
    if problems:
        raise DataErrors(problems)
    col = Collector()
    manifest = raw["game.toml"]
    col.source(manifest, "game.toml", "game")
    if manifest.get("game") != "deluxe":
        col.add("game.toml", "game", "game", f"expected 'deluxe', got {manifest.get('game')!r}")
    loader = _Loader(col, raw)
    data = loader.build(content_version(base))
    col.raise_if_any()
    assert data is not None
    check_constraints(data, col)
    col.raise_if_any()
    return data


def _records(col: Collector, raw: dict[str, Any], file: str, key: str) -> list[dict[str, Any]]:
    value = raw.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        col.add(file, key, "", "expected an array of tables")
        return []
    return value


class _Loader:
    """Turns the raw TOML into model values, recording every problem in the collector."""

    def __init__(self, col: Collector, raw: dict[str, dict[str, Any]]) -> None:
        self.col = col
        self.raw = raw

    def build(self, version: str) -> GameData | None:
        """All model values, or None when a file is too broken to build them."""
        constants = self.constants()
        mapdata = self.map()
        units = self.units()
        attrition = self.attrition()
        fire, airfield, counter, naval_on, naval_first, naval = self.artillery()
        replenishment = self.replenishment()
        turns = self.turns()
        periods = self.periods()
        movement, effects = self.terrain()
        cards = self.cards()
        sequence = self.sequence()
        if self.col.errors or constants is None or mapdata is None or movement is None:
            return None
        return GameData(
            map=mapdata,
            units=units,
            attrition=attrition,
            fire=fire,
            airfield_damage_on=airfield,
            counter_battery_on=counter,
            naval_on=naval_on,
            naval_first_turn=naval_first,
            naval=naval,
            replenishment=replenishment,
            turns=turns,
            periods=periods,
            movement=movement,
            combat_effects=effects,
            cards=cards,
            sequence=sequence,
            constants=constants,
            version=version,
        )

    # -- rules.toml, supply.toml -------------------------------------------------------------
    def constants(self) -> Constants | None:
        """rules.toml and supply.toml: the values fixed by the text."""
        col, f = self.col, "rules.toml"
        game = self.raw[f].get("game")
        sup = self.raw["supply.toml"].get("supply")
        if not isinstance(game, dict) or not isinstance(sup, dict):
            col.add(f, "game", "", "missing [game] table (or supply.toml [supply])")
            return None
        col.source(game, f, "game")
        col.source(sup, "supply.toml", "supply")
        names = [
            n for n in Constants.__dataclass_fields__ if n not in ("supply_cap", "capture_bonus")
        ]
        values = {n: col.field(game, n, int, f, "game", default=0) for n in names}
        values["supply_cap"] = col.field(sup, "cap", int, "supply.toml", "supply", default=0)
        values["capture_bonus"] = col.field(
            sup, "capture_bonus", int, "supply.toml", "supply", default=0
        )
        return Constants(**values)

    # -- map.toml ----------------------------------------------------------------------------
    def map(self) -> MapData | None:
        """map.toml: hexes, levels, rivers, roads, villages, named hexes."""
        col, f = self.col, "map.toml"
        raw = self.raw[f]
        lay = raw.get("layout")
        if not isinstance(lay, dict):
            col.add(f, "layout", "", "missing [layout] table")
            return None
        col.source(lay, f, "layout")
        try:
            layout = OffsetLayout(
                lay.get("parity", ""), lay.get("order", ""), int(lay.get("digits", 2))
            )
            layout.offset_to_hex(0, 0)
            if layout.parity not in ("even-r", "odd-r", "even-q", "odd-q"):
                raise ValueError
        except (ValueError, TypeError):
            col.add(
                f,
                "layout",
                "parity",
                "expected parity even-r/odd-r/even-q/odd-q and order row-col/col-row",
            )
            return None
        c0 = col.field(lay, "first_column", int, f, "layout", default=1)
        c1 = col.field(lay, "last_column", int, f, "layout", default=1)
        r0 = col.field(lay, "first_row", int, f, "layout", default=1)
        r1 = col.field(lay, "last_row", int, f, "layout", default=1)
        width = c1 - c0 + 1
        base: dict[str, tuple[str, int]] = {}
        seen_rows: set[int] = set()
        for rec in _records(col, raw, f, "row"):
            row = col.field(rec, "row", int, f, "row ?", default=-1)
            name = f"row {row}"
            col.source(rec, f, name)
            terrain = col.field(rec, "terrain", str, f, name, default="")
            level = col.field(rec, "level", str, f, name, default="")
            if row in seen_rows:
                col.add(f, name, "row", "given twice")
            seen_rows.add(row)
            if len(terrain) != width or len(level) != width:
                col.add(f, name, "terrain", f"terrain and level need {width} characters each")
                continue
            for i, (ch, lv) in enumerate(zip(terrain, level, strict=True)):
                hid = layout.from_offset(row, c0 + i)
                if ch not in TERRAIN_CHARS:
                    col.add(f, name, "terrain", f"column {c0 + i}: {ch!r} is not one of ~ . #")
                    continue
                if not lv.isdigit():
                    col.add(f, name, "level", f"column {c0 + i}: {lv!r} is not a digit")
                    continue
                base[hid] = (TERRAIN_CHARS[ch], int(lv))
        missing = sorted(set(range(r0, r1 + 1)) - seen_rows)
        if missing:
            col.add(f, "row", "", f"rows {missing} missing")
        hexes_of = {hid: layout.to_hex(hid) for hid in base}
        by_hex = {h: hid for hid, h in hexes_of.items()}
        adjacent = {
            hid: tuple(by_hex[n] for n in neighbours(h) if n in by_hex)
            for hid, h in hexes_of.items()
        }

        def land(hid: str, record: str, field: str) -> bool:
            """True when hex_id is a land hex of the map (an error is recorded otherwise)."""
            if hid not in base:
                col.add(f, record, field, f"{hid} is not a hex of the map")
                return False
            if base[hid][0] == "sea":
                col.add(f, record, field, f"{hid} is a sea hex")
                return False
            return True

        def chain(kind: str) -> tuple[dict[str, tuple[str, ...]], set[frozenset[str]]]:
            """River or road records: hexes by name, and links between consecutive hexes."""
            named: dict[str, tuple[str, ...]] = {}
            links: set[frozenset[str]] = set()
            for rec in _records(col, raw, f, kind):
                name = f"{kind} {rec.get('name', '?')}"
                col.source(rec, f, name)
                hs = col.field(rec, "hexes", list, f, name, default=[])
                if not all(isinstance(h, str) and land(h, name, "hexes") for h in hs):
                    continue
                for a, b in pairwise(hs):
                    if b not in adjacent.get(a, ()):
                        col.add(f, name, "hexes", f"{a} and {b} are not adjacent")
                    links.add(frozenset((a, b)))
                named[str(rec.get("name"))] = tuple(hs)
            return named, links

        rivers, river_links = chain("river")
        roads, road_links = chain("road")
        villages: dict[str, str] = {}
        for rec in _records(col, raw, f, "village"):
            name = f"village {rec.get('name', '?')}"
            col.source(rec, f, name)
            hid = col.field(rec, "hex", str, f, name, default="")
            vname = col.field(rec, "name", str, f, name, default="")
            if hid and land(hid, name, "hex"):
                if hid in villages:
                    col.add(f, name, "hex", f"{hid} already holds {villages[hid]}")
                villages[hid] = vname
        river_hexes = {h for hs in rivers.values() for h in hs}
        road_hexes = {h for hs in roads.values() for h in hs}
        hexes = {}
        for hid, (kind, level) in base.items():
            coastal = kind != "sea" and any(base[n][0] == "sea" for n in adjacent[hid])
            hexes[hid] = HexInfo(
                hid,
                hexes_of[hid],
                kind,
                level,
                coastal,
                hid in river_hexes,
                hid in road_hexes,
                villages.get(hid, ""),
            )
        hf_rec = raw.get("henderson_field")
        hf = ""
        if not isinstance(hf_rec, dict):
            col.add(f, "henderson_field", "", "missing [henderson_field] table")
        else:
            col.source(hf_rec, f, "henderson_field")
            hf = col.field(hf_rec, "hex", str, f, "henderson_field", default="")
            if hf:
                land(hf, "henderson_field", "hex")
        mapdata = MapData(
            layout,
            hexes,
            adjacent,
            frozenset(river_links),
            frozenset(road_links),
            villages,
            hf,
            rivers,
            roads,
        )
        self.named(mapdata)
        return mapdata

    def named(self, m: MapData) -> None:
        """The hexes and hexsides the rules name must have the values the rules give them."""
        col, f, raw = self.col, "map.toml", self.raw["map.toml"]
        top = max((h.level for h in m.hexes.values()), default=0)
        for rec in _records(col, raw, f, "named"):
            hid = str(rec.get("hex", "?"))
            name = f"named {hid}"
            col.source(rec, f, name)
            if hid not in m.hexes:
                col.add(f, name, "hex", f"{hid} is not a hex of the map")
                continue
            info = m.hexes[hid]
            types = info.types()
            for t in col.field(rec, "is", list, f, name, default=[]):
                if t == "highest":
                    others = [h.level for h in m.hexes.values() if h.id != hid]
                    if info.level != top or info.level <= max(others, default=0):
                        col.add(
                            f, name, "is", f"{hid} must be the highest ground (level {info.level})"
                        )
                elif t not in types:
                    col.add(f, name, "is", f"{hid} must be {t} but is {sorted(types)}")
            for t in col.field(rec, "is_not", list, f, name, required=False, default=[]):
                if t in types:
                    col.add(f, name, "is_not", f"{hid} must not be {t}")
        for rec in _records(col, raw, f, "slope"):
            pair = rec.get("hexes", [])
            name = f"slope {'-'.join(map(str, pair))}"
            col.source(rec, f, name)
            if len(pair) != 2 or any(p not in m.hexes for p in pair):
                col.add(f, name, "hexes", "expected two hexes of the map")
            elif pair[1] not in m.adjacent[pair[0]]:
                col.add(f, name, "hexes", "the two hexes are not adjacent")
            elif not m.slope(pair[0], pair[1]):
                col.add(f, name, "hexes", "the levels must differ for a slope hexside")

    # -- units.toml --------------------------------------------------------------------------
    def units(self) -> dict[str, UnitType]:
        """units.toml: one record per counter."""
        col, f = self.col, "units.toml"
        units: dict[str, UnitType] = {}
        for rec in _records(col, self.raw[f], f, "unit"):
            uid = str(rec.get("id", "?"))
            name = f"unit {uid}"
            src = col.source(rec, f, name)
            side = col.field(rec, "side", str, f, name, default="us")
            utype = col.field(rec, "type", str, f, name, default="infantry")
            vals = {
                k: col.field(rec, k, int, f, name, default=0)
                for k in (
                    "strength",
                    "movement",
                    "range",
                    "arrival",
                    "rabaul_period",
                    "rabaul_periods",
                )
            }
            heavy = col.field(rec, "heavy", bool, f, name, required=False, default=False)
            bar = col.field(rec, "bar", str, f, name, default="")
            if uid in units:
                col.add(f, name, "id", "given twice")
            if side not in SIDES:
                col.add(f, name, "side", f"{side!r} is not us or jp")
            if utype not in UNIT_TYPES:
                col.add(f, name, "type", f"{utype!r} is not one of {', '.join(UNIT_TYPES)}")
            if not 1 <= vals["strength"] <= 9:
                col.add(f, name, "strength", "must be 1..9")
            if vals["movement"] < 1:
                col.add(f, name, "movement", "must be at least 1")
            if (utype == "artillery") != (vals["range"] > 0):
                col.add(f, name, "range", "artillery (only) has a range above 0")
            if not 0 <= vals["arrival"] <= 26:
                col.add(f, name, "arrival", "must be a turn 1..26 (0: Rabaul only)")
            if vals["rabaul_period"]:
                if side != "jp":
                    col.add(f, name, "rabaul_period", "only Japanese units wait at Rabaul")
                if not 1 <= vals["rabaul_period"] <= 4 or not (
                    1 <= vals["rabaul_periods"] <= 5 - vals["rabaul_period"]
                ):
                    col.add(
                        f, name, "rabaul_periods", "period 1..4 and a number of periods within 4"
                    )
            elif vals["arrival"] == 0:
                col.add(f, name, "arrival", "a unit needs an arrival turn or a Rabaul period")
            if " " in uid or not uid:
                col.add(f, name, "id", "an id is one word")
            units[uid] = UnitType(uid, side, utype, bar, heavy=heavy, source=src, **vals)
        return units

    # -- tables --------------------------------------------------------------------------------
    def attrition(self) -> AttritionTable:
        """attrition.toml: the Attrition Table (DG 8.2.1.4)."""
        col, f = self.col, "attrition.toml"
        results: dict[str, tuple[tuple[Cell, Cell], ...]] = {}
        for rec in _records(col, self.raw[f], f, "column"):
            ratio = str(rec.get("ratio", "?"))
            name = f"column {ratio}"
            col.source(rec, f, name)
            rows = []
            for side in ("attacker", "defender"):
                cells = col.field(rec, side, list, f, name, default=[])
                parsed = []
                for i, cell in enumerate(cells):
                    parts = str(cell).split("/")
                    if len(parts) != 3 or not all(p.isdigit() for p in parts):
                        col.add(f, name, side, f"die {i + 1}: {cell!r} is not L/R/A")
                        parsed.append(Cell(0, 0, 0))
                    else:
                        parsed.append(Cell(*map(int, parts)))
                if len(cells) != 6:
                    col.add(f, name, side, "needs six results, one per die face")
                rows.append(parsed)
            if ratio in results:
                col.add(f, name, "ratio", "given twice")
            if len(rows[0]) == 6 and len(rows[1]) == 6:
                results[ratio] = tuple(zip(rows[0], rows[1], strict=True))
        return AttritionTable(RATIOS, results)

    def artillery(self) -> tuple[Any, ...]:
        """artillery.toml: fire table, airfield damage, counter-battery, naval bombardment."""
        col, f = self.col, "artillery.toml"
        raw = self.raw[f]
        fire = raw.get("fire", {})
        col.source(fire, f, "fire")
        bands = []
        for rec in _records(col, fire, f, "band"):
            name = f"fire band {rec.get('min_strength', '?')}"
            col.source(rec, f, name)
            hits = col.field(rec, "hits", list, f, name, default=[0] * 6)
            if len(hits) != 6 or not all(isinstance(h, int) and h >= 0 for h in hits):
                col.add(f, name, "hits", "needs six non-negative integers")
                hits = [0] * 6
            bands.append(
                FireBand(
                    col.field(rec, "min_strength", int, f, name, default=0),
                    col.field(rec, "max_strength", int, f, name, default=0),
                    tuple(hits),
                )
            )
        sets = []
        for key, field in (
            ("airfield", "damage_on"),
            ("counter_battery", "suppress_on"),
            ("naval", "occurs_on"),
        ):
            rec = raw.get(key, {})
            col.source(rec, f, key)
            sets.append(frozenset(col.field(rec, field, list, f, key, default=[])))
        naval_rec = raw.get("naval", {})
        first = col.field(naval_rec, "first_turn", int, f, "naval", default=2)
        naval: dict[str, dict[str, int]] = {}
        for rec in _records(col, naval_rec, f, "month"):
            month = str(rec.get("month", "?"))
            name = f"naval month {month}"
            col.source(rec, f, name)
            naval[month] = {s: col.field(rec, s, int, f, name, default=0) for s in SIDES}
        for month in MONTHS:
            if month not in naval:
                col.add(f, "naval", "month", f"no Naval Bombardment row for {month}")
        return tuple(bands), sets[0], sets[1], sets[2], first, naval

    def replenishment(self) -> dict[str, dict[str, tuple[int, ...]]]:
        """supply.toml: the Artillery Supply Replenishment table (DG 8.1.1)."""
        col, f = self.col, "supply.toml"
        table: dict[str, dict[str, tuple[int, ...]]] = {}
        for rec in _records(col, self.raw[f], f, "replenishment"):
            month = str(rec.get("month", "?"))
            name = f"replenishment {month}"
            col.source(rec, f, name)
            row = {}
            for s in SIDES:
                vals = col.field(rec, s, list, f, name, default=[0] * 6)
                if len(vals) != 6 or not all(isinstance(v, int) and v >= 0 for v in vals):
                    col.add(f, name, s, "needs six non-negative integers")
                    vals = [0] * 6
                row[s] = tuple(vals)
            table[month] = row
        for month in MONTHS:
            if month not in table:
                col.add(f, "replenishment", "month", f"no Replenishment row for {month}")
        return table

    def turns(self) -> tuple[Turn, ...]:
        """turns.toml: the turn track with events and the supply schedule."""
        col, f = self.col, "turns.toml"
        out = []
        for i, rec in enumerate(_records(col, self.raw[f], f, "turn")):
            number = col.field(rec, "turn", int, f, f"turn {i + 1}", default=0)
            name = f"turn {number}"
            col.source(rec, f, name)
            if number != i + 1:
                col.add(f, name, "turn", f"turns must run 1, 2, 3 ... (expected {i + 1})")
            month = col.field(rec, "month", str, f, name, default="Aug")
            if month not in MONTHS:
                col.add(f, name, "month", f"{month!r} is not one of {', '.join(MONTHS)}")
            event = col.field(rec, "event", str, f, name, default="")
            if event not in ("", *SIDES):
                col.add(f, name, "event", "must be '', 'us' or 'jp'")
            supply = {}
            for s in SIDES:
                value = col.field(rec, f"{s}_supply", str, f, name, default="0")
                if not (value.isdigit() or value == "+" or (value == "unl" and s == "us")):
                    col.add(
                        f, name, f"{s}_supply", f"{value!r} is not a number, '+' or (US only) 'unl'"
                    )
                supply[s] = value
            out.append(
                Turn(number, col.field(rec, "date", str, f, name, default=""), month, event, supply)
            )
        return tuple(out)

    def periods(self) -> tuple[Period, ...]:
        """rabaul.toml: the four Rabaul periods (DG 10.1)."""
        col, f = self.col, "rabaul.toml"
        out = []
        for rec in _records(col, self.raw[f], f, "period"):
            name = f"period {rec.get('period', '?')}"
            col.source(rec, f, name)
            out.append(
                Period(
                    col.field(rec, "period", int, f, name, default=0),
                    col.field(rec, "colour", str, f, name, default=""),
                    col.field(rec, "first_turn", int, f, name, default=0),
                    col.field(rec, "last_turn", int, f, name, default=0),
                )
            )
        return tuple(out)

    def terrain(self) -> tuple[Movement | None, tuple[CombatEffect, ...]]:
        """terrain.toml: movement costs and combat multipliers (DG 7.3, 8.2.1)."""
        col, f = self.col, "terrain.toml"
        raw = self.raw[f]
        mv = raw.get("movement")
        movement = None
        if not isinstance(mv, dict):
            col.add(f, "movement", "", "missing [movement] table")
        else:
            col.source(mv, f, "movement")
            movement = Movement(
                **{
                    n: col.field(mv, n, int, f, "movement", default=0)
                    for n in Movement.__dataclass_fields__
                }
            )
        effects = []
        for i, rec in enumerate(_records(col, raw, f, "combat")):
            name = f"combat {i + 1}"
            col.source(rec, f, name)
            side = col.field(rec, "side", str, f, name, default="attacker")
            cond = col.field(rec, "condition", str, f, name, default="")
            if side not in ("attacker", "defender"):
                col.add(f, name, "side", "must be attacker or defender")
            if cond not in ("river", "jungle", "village", "uphill", "clear"):
                col.add(
                    f, name, "condition", f"{cond!r} is not river, jungle, village, clear or uphill"
                )
            try:
                mult = Fraction(str(col.field(rec, "multiplier", str, f, name, default="1")))
            except (ValueError, ZeroDivisionError):
                col.add(f, name, "multiplier", "expected a fraction such as 1/2 or 2")
                mult = Fraction(1)
            effects.append(CombatEffect(side, cond, mult))
        return movement, tuple(effects)

    def cards(self) -> tuple[Card, ...]:
        """events.toml: the nine random event cards (DG 2.3)."""
        col, f = self.col, "events.toml"
        out = []
        for rec in _records(col, self.raw[f], f, "card"):
            number = col.field(rec, "number", int, f, "card ?", default=0)
            name = f"card {number}"
            col.source(rec, f, name)
            halves = []
            for s in SIDES:
                ev = col.field(rec, s, dict, f, name, default={})
                kind = str(ev.get("kind", ""))
                target = str(ev.get("target", ""))
                if kind not in EVENT_KINDS:
                    col.add(f, name, s, f"kind {kind!r} is not one of {', '.join(EVENT_KINDS)}")
                if target not in ("self", "enemy", "both"):
                    col.add(f, name, s, f"target {target!r} is not self, enemy or both")
                amount = ev.get("amount", 0)
                if not isinstance(amount, int) or isinstance(amount, bool):
                    col.add(f, name, s, "amount must be an integer")
                    amount = 0
                halves.append(EventEffect(str(ev.get("title", "")), kind, target, amount))
            out.append(Card(number, halves[0], halves[1]))
        return tuple(out)

    def sequence(self) -> tuple[Step, ...]:
        """sequence.toml: the twenty steps of DG 4.0."""
        col, f = self.col, "sequence.toml"
        out = []
        kinds = (
            "event",
            "vp",
            "naval",
            "reinforce",
            "supply",
            "guerrilla",
            "move",
            "fire",
            "combat",
            "turn_end",
        )
        for i, rec in enumerate(_records(col, self.raw[f], f, "step")):
            name = f"step {rec.get('number', i + 1)}"
            col.source(rec, f, name)
            kind = col.field(rec, "kind", str, f, name, default="vp")
            if kind not in kinds:
                col.add(f, name, "kind", f"{kind!r} is not one of {', '.join(kinds)}")
            side = col.field(rec, "side", str, f, name, default="us")
            if side not in SIDES:
                col.add(f, name, "side", "must be us or jp")
            out.append(
                Step(
                    col.field(rec, "number", int, f, name, default=i + 1),
                    col.field(rec, "id", str, f, name, default=""),
                    side,
                    kind,
                    col.field(rec, "name", str, f, name, default=""),
                )
            )
        return tuple(out)


def _check_events_can_act(d: GameData, col: Collector) -> None:
    """DG 5.0: an event lasts for the turn it is drawn in, so each card's half must act in a
    step still to come after the drawing side's event step, for every side it targets."""
    for side in SIDES:
        drawn = next((i for i, st in enumerate(d.sequence) if st.kind == "event" and st.side == side), None)
        if drawn is None:
            continue
        later = {(st.kind, st.side) for st in d.sequence[drawn + 1 :]}
        for card in d.cards:
            eff = card.effect(side)
            where = EVENT_KINDS.get(eff.kind)
            if where is None:
                continue  # acts at once
            kind, whose = where
            targets = {"self": [side], "enemy": [other(side)], "both": [side, other(side)]}.get(eff.target, [])
            for t in targets:
                acting = t if whose == "target" else other(t)
                if (kind, acting) not in later:
                    col.add(
                        "events.toml",
                        f"card {card.number}",
                        side,
                        f"{eff.kind} for {t} would never act: no {kind} step of {acting} follows "
                        f"the {side} draw in the turn (rule DG 5.0)",
                    )


def check_constraints(d: GameData, col: Collector) -> None:
    """The values the DG rulebook fixes (docs/data.md, DG section) must hold on any data set."""
    m, c = d.map, d.constants
    want = {
        ("rules.toml", "game", "turns"): (c.turns, 26, "rule DG 12.0"),
        ("rules.toml", "game", "events_from_turn"): (c.events_from_turn, 9, "rule DG 5.0"),
        ("rules.toml", "game", "withdrawal_turn"): (c.withdrawal_turn, 19, "rule DG 7.9"),
        ("rules.toml", "game", "japan_withdrawals_per_turn"): (
            c.japan_withdrawals_per_turn,
            10,
            "rule DG 7.9.1",
        ),
        ("rules.toml", "game", "stacking"): (c.stacking, 3, "rule DG 7.5"),
        ("rules.toml", "game", "sea_moves_per_turn"): (c.sea_moves_per_turn, 3, "rule DG 7.6"),
        ("rules.toml", "game", "stealth_max"): (c.stealth_max, 3, "rule DG 7.7.3"),
        ("rules.toml", "game", "hf_start"): (c.hf_start, 20, "rule DG 7.11"),
        ("rules.toml", "game", "hf_operational"): (c.hf_operational, 10, "rule DG 7.11"),
        ("rules.toml", "game", "vp_to_win"): (c.vp_to_win, 61, "rule DG 9.4"),
        ("rules.toml", "game", "max_ratio"): (c.max_ratio, 6, "rule DG 8.2.1.3"),
        ("supply.toml", "supply", "cap"): (c.supply_cap, 40, "rule DG 8.1.1"),
        ("supply.toml", "supply", "capture_bonus"): (c.capture_bonus, 4, "rule DG 10.2.1"),
        ("map.toml", "henderson_field", "hex"): (m.henderson_field, "3707", "rule DG 2.1"),
    }
    for (file, record, field), (got, expected, rule) in want.items():
        if got != expected:
            col.add(file, record, field, f"must be {expected} ({rule}), not {got!r}")
    if c.hf_max < c.hf_start:
        col.add("rules.toml", "game", "hf_max", "must be at least hf_start")
    names = set(m.villages.values())
    for village in ("Matanikau", "Kukum", "Aola", "Tasimboko"):
        if village not in names:
            col.add(
                "map.toml", "village", "name", f"{village} must be a village (rule DG 2.1, 11.0)"
            )
    if len(d.turns) != c.turns:
        col.add("turns.toml", "turn", "", f"needs {c.turns} turns, has {len(d.turns)}")
    for t in d.turns:
        expected_event = (
            ""
            if t.turn < c.events_from_turn
            else ("us" if (t.turn - c.events_from_turn) % 2 == 0 else "jp")
        )
        if t.event != expected_event:
            col.add(
                "turns.toml",
                f"turn {t.turn}",
                "event",
                f"must be {expected_event or 'none'} (rule DG 5.0: US first from turn 9)",
            )
    for ratio in RATIOS:
        if ratio not in d.attrition.results:
            col.add(
                "attrition.toml", f"column {ratio}", "", "missing (rule DG 8.2.1.3: 1-6 ... 6-1)"
            )
    extra = set(d.attrition.results) - set(RATIOS)
    for ratio in sorted(extra):
        col.add("attrition.toml", f"column {ratio}", "ratio", "not a column of 1-6 ... 6-1")
    if len(d.cards) != 9 or sorted(card.number for card in d.cards) != list(range(1, 10)):
        col.add("events.toml", "card", "number", "needs nine cards numbered 1..9 (rule DG 2.3)")
    _check_events_can_act(d, col)
    if [s.number for s in d.sequence] != list(range(1, 21)):
        col.add("sequence.toml", "step", "number", "needs the twenty steps 1..20 (rule DG 4.0)")
    if sorted(p.period for p in d.periods) != [1, 2, 3, 4]:
        col.add("rabaul.toml", "period", "period", "needs the four periods 1..4 (rule DG 10.1)")
    fixed_units = {
        "2/2": ("us", "infantry"),
        "6/3": ("us", "infantry"),
        "7/1": ("us", "infantry"),
        "147/2": ("us", "infantry"),
        "10/3": ("us", "artillery"),
        "90": ("us", "artillery"),
        "124/2": ("jp", "infantry"),
        "20Mt": ("jp", "artillery"),
        "9RF": ("jp", None),
    }
    for uid, (side, utype) in fixed_units.items():
        u = d.units.get(uid)
        if u is None or u.side != side or (utype and u.type != utype):
            col.add(
                "units.toml",
                f"unit {uid}",
                "",
                f"must be a {side} {utype or 'unit'} (named in the rules' examples)",
            )
    for utype, side in (
        ("lvt", "us"),
        ("engineer", "us"),
        ("labour", "jp"),
        ("special", "jp"),
        ("heavy", "jp"),
    ):
        if not any(u.type == utype and u.side == side for u in d.units.values()):
            col.add(
                "units.toml",
                "unit",
                "type",
                f"needs a {side} {utype} unit (rule DG 7.3.3, 7.11, 8.2.3, 10.2)",
            )
    for u in d.units.values():
        if u.type == "heavy" and (u.rabaul_period, u.rabaul_periods) != (3, 2):
            col.add(
                "units.toml",
                f"unit {u.id}",
                "rabaul_period",
                "Heavy battalions: third period, two periods (rule DG 10.1)",
            )
        if u.type == "armor" and (u.rabaul_period, u.rabaul_periods) != (2, 3):
            col.add(
                "units.toml",
                f"unit {u.id}",
                "rabaul_period",
                "2nd Armor: second period, three periods (rule DG 10.1)",
            )
    if d.units.get("124/2") and d.units["124/2"].strength != 4:
        col.add("units.toml", "unit 124/2", "strength", "must be 4 (rule DG 8.1 artillery example)")
    if d.units.get("20Mt") and d.units["20Mt"].strength != 3:
        col.add("units.toml", "unit 20Mt", "strength", "must be 3 (rule DG 8.1 artillery example)")
    if d.units.get("124/2") and d.units["124/2"].movement * 3 != 30:
        col.add(
            "units.toml",
            "unit 124/2",
            "movement",
            "must be 10 (rule DG 7.7 stealth example: 30 points)",
        )
    if (
        set(d.naval_on) != {4, 5, 6}
        or set(d.airfield_damage_on) != {5, 6}
        or set(d.counter_battery_on) != {4, 5, 6}
    ):
        col.add(
            "artillery.toml",
            "naval",
            "",
            "die faces fixed by rule DG 8.1.6-8.1.8 (5-6 airfield, 4-6 suppress/bombard)",
        )
    if d.naval_first_turn != 2:
        col.add("artillery.toml", "naval", "first_turn", "must be 2 (rule DG 8.1.7)")
    strengths = [s for band in d.fire for s in range(band.min_strength, band.max_strength + 1)]
    if sorted(strengths)[:1] != [1] or len(set(strengths)) != len(strengths):
        col.add(
            "artillery.toml", "fire", "band", "bands must cover strengths from 1 without overlap"
        )
