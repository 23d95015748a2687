"""Load and validate the Deluxe Guadalcanal data files into the frozen values of `model.py`.

Every table is read through `core.data.read_records` by its declared dataclass (types,
ranges, choices; unknown keys refused; every count bounded before anything is built from
it), and every record's provenance by `Collector.source` (`_records`). Then the
cross-references are checked (hexes of the map, adjacent river and road hexes, months and
periods), and once they hold, the constraints the rulebook fixes
(docs/data.md, DG section), so a replacement data set cannot silently break a rule. Every
problem in every file is gathered in one pass and reported together (`file: record: field:
what`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise
from pathlib import Path
from typing import Any, Literal, TypeVar

from henderson.core.data import Collector, content_version, load_toml, read_records, report_unread
from henderson.core.errors import DataError, DataErrors
from henderson.core.fields import field
from henderson.core.hexgrid import OffsetLayout, neighbours
from henderson.core.sequence import SequenceSpec, load_sequence

from .model import (
    MAX_NUMBER,
    SIDES,
    AttritionTable,
    Card,
    Cell,
    CombatEffect,
    Constants,
    FireBand,
    GameData,
    HexInfo,
    MapData,
    Movement,
    Period,
    Turn,
    UnitType,
    other,
)

T = TypeVar("T")
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
Month = Literal["Aug", "Sep", "Oct", "Nov", "Dec", "Jan"]
TERRAIN_CHARS = {"~": "sea", ".": "clear", "#": "jungle"}
TURN_STEPS = 20  # DG 4.0: twenty steps a turn
OPTIONS = ("us_stealth",)  # the optional rules the sequence may name (game.py)
# The kinds of random event, and where each acts (DG 5.0 "lasts for this turn only"): None at
# once when drawn, otherwise (the phase of the step, whose step): "target" the targeted side's
# own step, "other" the other side's (a `defence` event acts while the target defends in the
# enemy's assaults). `check_constraints` refuses a card whose event would come after every
# such step.
EVENT_STEPS: dict[str, tuple[str, str] | None] = {
    "supply": None,
    "hf": None,
    "vp": None,
    "combat": ("assault:COMBAT", "target"),
    "movement": ("move", "target"),
    "detect": ("move", "target"),
    "no_naval": ("artillery:NAVAL", "target"),
    "sure_naval": ("artillery:NAVAL", "target"),
    "no_fire": ("artillery:FIRE", "target"),
    "defence": ("assault:COMBAT", "other"),
}


# -- the records as the files write them ------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Manifest:
    """game.toml: which game this data directory belongs to."""

    game: Literal["deluxe"]
    title: str


@dataclass(frozen=True, kw_only=True)
class RulesTable:
    """rules.toml `[game]`: the values fixed by the text of the rules."""

    turns: int = field(lo=1, hi=MAX_NUMBER)
    events_from_turn: int = field(lo=1, hi=MAX_NUMBER)
    withdrawal_turn: int = field(lo=1, hi=MAX_NUMBER)
    japan_withdrawals_per_turn: int = field(lo=0, hi=MAX_NUMBER)
    stacking: int = field(lo=1, hi=9)
    sea_moves_per_turn: int = field(lo=0, hi=MAX_NUMBER)
    stealth_max: int = field(lo=1, hi=9)
    hf_start: int = field(lo=0, hi=MAX_NUMBER)
    hf_max: int = field(lo=0, hi=MAX_NUMBER)
    hf_operational: int = field(lo=0, hi=MAX_NUMBER)
    vp_to_win: int = field(lo=1, hi=999)
    max_ratio: int = field(lo=1, hi=9)


@dataclass(frozen=True, kw_only=True)
class SupplyTable:
    """supply.toml `[supply]`: the supply cap and the capture bonus (DG 8.1.1, 10.2.1)."""

    cap: int = field(lo=0, hi=MAX_NUMBER)
    capture_bonus: int = field(lo=0, hi=MAX_NUMBER)


@dataclass(frozen=True, kw_only=True)
class Replenishment:
    """A row of the Artillery Supply Replenishment table: points for die 1..6 (DG 8.1.1)."""

    month: Month
    us: tuple[int, ...] = field(lo=0, hi=MAX_NUMBER)
    jp: tuple[int, ...] = field(lo=0, hi=MAX_NUMBER)


@dataclass(frozen=True, kw_only=True)
class Layout:
    """map.toml `[layout]`: how hex numbers are printed, and the map's columns and rows."""

    parity: Literal["even-r", "odd-r", "even-q", "odd-q"]
    order: Literal["row-col", "col-row"]
    digits: int = field(lo=1, hi=2)
    first_column: int = field(lo=0, hi=MAX_NUMBER)
    last_column: int = field(lo=0, hi=MAX_NUMBER)
    first_row: int = field(lo=0, hi=MAX_NUMBER)
    last_row: int = field(lo=0, hi=MAX_NUMBER)


@dataclass(frozen=True, kw_only=True)
class Row:
    """One map row: a terrain character and a level digit per column (DG 2.1)."""

    row: int = field(lo=0, hi=MAX_NUMBER)
    terrain: str
    level: str


@dataclass(frozen=True, kw_only=True)
class Chain:
    """A river or a road: its hexes in order, consecutive hexes connected (DG 2.1.3, 2.1.6)."""

    name: str
    hexes: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class Village:
    """A village and its hex (DG 2.1.7)."""

    name: str
    hex: str


@dataclass(frozen=True, kw_only=True)
class Named:
    """A hex the rules name, with the terrain they give it (checked against the map)."""

    hex: str
    name: str = ""
    is_: tuple[str, ...] = field(json="is")
    is_not: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Slope:
    """A slope hexside the rules name (DG 2.1.4): the levels must put one there."""

    hexes: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class FieldHex:
    """map.toml `[henderson_field]` (DG 2.1)."""

    hex: str


@dataclass(frozen=True, kw_only=True)
class Column:
    """A column of the Attrition Table: six "L/R/A" cells a side, for die 1..6 (DG 8.2.1.4)."""

    ratio: str
    attacker: tuple[str, ...]
    defender: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class Bands:
    """artillery.toml `[fire]`: nothing but its provenance and its `[[fire.band]]` records."""


@dataclass(frozen=True, kw_only=True)
class DieFaces:
    """artillery.toml `[airfield]`, `[counter_battery]`: the die faces that do it (DG 8.1.6, 8.1.8)."""

    damage_on: tuple[int, ...] = field((), lo=1, hi=6)
    suppress_on: tuple[int, ...] = field((), lo=1, hi=6)


@dataclass(frozen=True, kw_only=True)
class NavalMonth:
    """A row of the Naval Bombardment table: dice rolled for the attacks, by side (DG 8.1.7)."""

    month: Month
    us: int = field(lo=0, hi=9)
    jp: int = field(lo=0, hi=9)


@dataclass(frozen=True, kw_only=True)
class Naval:
    """artillery.toml `[naval]`: when a bombardment takes place, from which turn (DG 8.1.7)."""

    occurs_on: tuple[int, ...] = field(lo=1, hi=6)
    first_turn: int = field(lo=1, hi=MAX_NUMBER)


@dataclass(frozen=True, kw_only=True)
class TurnBox:
    """A box of the turn track (DG 2.1.8.1-2): date, month, the side drawing an event (DG 5.0),
    the artillery supply schedule: a number, "+" (a roll) or "unl" (US only, DG 8.1.1)."""

    turn: int = field(lo=1, hi=MAX_NUMBER)
    date: str
    month: Month
    event: Literal["", "us", "jp"]
    us_supply: str
    jp_supply: str


@dataclass(frozen=True, kw_only=True)
class CombatMultiplier:
    """A combat multiplier of the Terrain Effects table, as a fraction "n/d" (DG 8.2.1.1-2)."""

    side: Literal["attacker", "defender"]
    condition: Literal["river", "jungle", "village", "uphill", "clear"]
    multiplier: str


# -- loading ------------------------------------------------------------------------------------


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
    data = _Loader(col, raw, base).build(content_version(base))
    report_unread(col, raw)
    col.raise_if_any()
    assert data is not None  # else errors were raised
    check_constraints(data, col)
    col.raise_if_any()
    return data


Namer = Callable[[int, Mapping[str, Any]], str]


def _records(col: Collector, file: str, items: Any, cls: type[T], name: Namer) -> list[T]:
    """The records of an array of tables, each read by its declared dataclass (`read_records`)
    and its provenance checked by `Collector.source` (a provenance line may be longer than the
    kit's text fields allow: core.fields caps text at 200 characters)."""
    if items is None:
        return []
    if not isinstance(items, list) or not all(isinstance(x, Mapping) for x in items):
        col.add(file, "", "", "expected an array of tables")
        return []
    rest = []
    for i, raw in enumerate(items, 1):
        col.source(raw, file, name(i, raw))
        rest.append({k: v for k, v in raw.items() if k != "source"})
    return read_records(col, file, rest, cls, name)


def _one(col: Collector, file: str, doc: Mapping[str, Any], key: str, cls: type[T], inner: str = "") -> T | None:
    """A single table (`[layout]`, `[movement]`) read by its declared record; `inner`: the
    array of tables inside it, read apart (`[[fire.band]]`)."""
    table = doc.get(key)
    if not isinstance(table, Mapping):
        col.add(file, key, "", "missing table" if table is None else "expected a table")
        return None
    found = _records(col, file, [{k: v for k, v in table.items() if k != inner}], cls, lambda i, r: key)
    return found[0] if found else None


def _inner(doc: Mapping[str, Any], key: str, inner: str) -> Any:
    """The array of tables `inner` inside the table `key` (`[[fire.band]]`), if any."""
    table = doc.get(key)
    return table.get(inner) if isinstance(table, Mapping) else None


def _named(prefix: str, key: str) -> Namer:
    """How a record is named in messages: `unit 7/1`, `turn 3`."""
    return lambda i, r: f"{prefix} {r.get(key, '?')}"


class _Loader:
    """Reads the files into model values, recording every problem in the collector."""

    def __init__(self, col: Collector, raw: dict[str, dict[str, Any]], base: Path) -> None:
        self.col = col
        self.raw = raw
        self.base = base

    def build(self, version: str) -> GameData | None:
        """All model values, or None when a file is too broken to build them."""
        _records(self.col, "game.toml", [self.raw["game.toml"]], Manifest, lambda i, r: "game")
        constants = self.constants()
        mapdata = self.map()
        units = self.units()
        attrition = self.attrition()
        artillery = self.artillery()
        replenishment = self.replenishment()
        turns = self.turns()
        periods = tuple(
            _records(self.col, "rabaul.toml", self.raw["rabaul.toml"].get("period"), Period, _named("period", "period"))
        )
        movement = _one(self.col, "terrain.toml", self.raw["terrain.toml"], "movement", Movement)
        effects = self.combat_effects()
        cards = tuple(
            _records(self.col, "events.toml", self.raw["events.toml"].get("card"), Card, _named("card", "number"))
        )
        sequence = self.sequence()
        if self.col.errors or None in (constants, mapdata, movement, artillery, sequence):
            return None
        assert constants and mapdata and movement and artillery and sequence
        bands, airfield, counter, naval, dice = artillery
        return GameData(
            map=mapdata,
            units=units,
            attrition=attrition,
            fire=bands,
            airfield_damage_on=frozenset(airfield.damage_on),
            counter_battery_on=frozenset(counter.suppress_on),
            naval_on=frozenset(naval.occurs_on),
            naval_first_turn=naval.first_turn,
            naval=dice,
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
        rules = _one(self.col, "rules.toml", self.raw["rules.toml"], "game", RulesTable)
        supply = _one(self.col, "supply.toml", self.raw["supply.toml"], "supply", SupplyTable)
        if rules is None or supply is None:
            return None
        values = {k: v for k, v in vars(rules).items() if k != "source"}
        return Constants(**values, supply_cap=supply.cap, capture_bonus=supply.capture_bonus)

    # -- map.toml ----------------------------------------------------------------------------
    def map(self) -> MapData | None:
        """map.toml: hexes, levels, rivers, roads, villages, named hexes."""
        col, f = self.col, "map.toml"
        raw = self.raw[f]
        lay = _one(col, f, raw, "layout", Layout)
        if lay is None:
            return None
        layout = OffsetLayout(lay.parity, lay.order, lay.digits)
        width = lay.last_column - lay.first_column + 1
        base: dict[str, tuple[str, int]] = {}
        seen_rows: set[int] = set()
        for rec in _records(col, f, raw.get("row"), Row, _named("row", "row")):
            name = f"row {rec.row}"
            if rec.row in seen_rows:
                col.add(f, name, "row", "given twice")
            seen_rows.add(rec.row)
            if len(rec.terrain) != width or len(rec.level) != width:
                col.add(f, name, "terrain", f"terrain and level need {width} characters each")
                continue
            for i, (ch, lv) in enumerate(zip(rec.terrain, rec.level, strict=True)):
                hid = layout.from_offset(rec.row, lay.first_column + i)
                if ch not in TERRAIN_CHARS:
                    col.add(f, name, "terrain", f"column {lay.first_column + i}: {ch!r} is not one of ~ . #")
                elif not lv.isdigit():
                    col.add(f, name, "level", f"column {lay.first_column + i}: {lv!r} is not a digit")
                else:
                    base[hid] = (TERRAIN_CHARS[ch], int(lv))
        missing = sorted(set(range(lay.first_row, lay.last_row + 1)) - seen_rows)
        if missing:
            col.add(f, "row", "", f"rows {missing} missing")
        hexes_of = {hid: layout.to_hex(hid) for hid in base}
        by_hex = {h: hid for hid, h in hexes_of.items()}
        adjacent = {hid: tuple(by_hex[n] for n in neighbours(h) if n in by_hex) for hid, h in hexes_of.items()}

        def land(hid: str, record: str, key: str) -> bool:
            """True when `hid` is a land hex of the map (an error is recorded otherwise)."""
            if hid not in base:
                col.add(f, record, key, f"{hid} is not a hex of the map")
                return False
            if base[hid][0] == "sea":
                col.add(f, record, key, f"{hid} is a sea hex")
                return False
            return True

        def chain(kind: str) -> tuple[dict[str, tuple[str, ...]], set[frozenset[str]]]:
            """River or road records: hexes by name, and links between consecutive hexes."""
            named: dict[str, tuple[str, ...]] = {}
            links: set[frozenset[str]] = set()
            for rec in _records(col, f, raw.get(kind), Chain, _named(kind, "name")):
                name = f"{kind} {rec.name}"
                if not all(land(h, name, "hexes") for h in rec.hexes):
                    continue
                for a, b in pairwise(rec.hexes):
                    if b not in adjacent.get(a, ()):
                        col.add(f, name, "hexes", f"{a} and {b} are not adjacent")
                    links.add(frozenset((a, b)))
                named[rec.name] = rec.hexes
            return named, links

        rivers, river_links = chain("river")
        roads, road_links = chain("road")
        villages: dict[str, str] = {}
        for v in _records(col, f, raw.get("village"), Village, _named("village", "name")):
            if land(v.hex, f"village {v.name}", "hex"):
                if v.hex in villages:
                    col.add(f, f"village {v.name}", "hex", f"{v.hex} already holds {villages[v.hex]}")
                villages[v.hex] = v.name
        river_hexes = {h for hs in rivers.values() for h in hs}
        road_hexes = {h for hs in roads.values() for h in hs}
        hexes = {}
        for hid, (kind, level) in base.items():
            coastal = kind != "sea" and any(base[n][0] == "sea" for n in adjacent[hid])
            hexes[hid] = HexInfo(
                hid, hexes_of[hid], kind, level, coastal, hid in river_hexes, hid in road_hexes, villages.get(hid, "")
            )
        hf = _one(col, f, raw, "henderson_field", FieldHex)
        if hf is not None:
            land(hf.hex, "henderson_field", "hex")
        mapdata = MapData(
            layout,
            hexes,
            adjacent,
            frozenset(river_links),
            frozenset(road_links),
            villages,
            hf.hex if hf is not None else "",
            rivers,
            roads,
        )
        self.named(mapdata)
        return mapdata

    def named(self, m: MapData) -> None:
        """The hexes and hexsides the rules name must have the values the rules give them."""
        col, f, raw = self.col, "map.toml", self.raw["map.toml"]
        top = max((h.level for h in m.hexes.values()), default=0)
        for rec in _records(col, f, raw.get("named"), Named, _named("named", "hex")):
            name = f"named {rec.hex}"
            if rec.hex not in m.hexes:
                col.add(f, name, "hex", f"{rec.hex} is not a hex of the map")
                continue
            info = m.hexes[rec.hex]
            types = info.types()
            for t in rec.is_:
                if t == "highest":
                    others = [h.level for h in m.hexes.values() if h.id != rec.hex]
                    if info.level != top or info.level <= max(others, default=0):
                        col.add(f, name, "is", f"{rec.hex} must be the highest ground (level {info.level})")
                elif t not in types:
                    col.add(f, name, "is", f"{rec.hex} must be {t} but is {sorted(types)}")
            for t in rec.is_not:
                if t in types:
                    col.add(f, name, "is_not", f"{rec.hex} must not be {t}")
        for slope in _records(
            col, f, raw.get("slope"), Slope, lambda i, r: f"slope {'-'.join(map(str, r.get('hexes', [])))}"
        ):
            pair = slope.hexes
            name = f"slope {'-'.join(pair)}"
            if len(pair) != 2 or any(p not in m.hexes for p in pair):
                col.add(f, name, "hexes", "expected two hexes of the map")
            elif pair[1] not in m.adjacent[pair[0]]:
                col.add(f, name, "hexes", "the two hexes are not adjacent")
            elif not m.slope(pair[0], pair[1]):
                col.add(f, name, "hexes", "the levels must differ for a slope hexside")

    # -- units.toml --------------------------------------------------------------------------
    def units(self) -> dict[str, UnitType]:
        """units.toml: one record per counter, with the checks across its fields."""
        col, f = self.col, "units.toml"
        units: dict[str, UnitType] = {}
        for u in _records(col, f, self.raw[f].get("unit"), UnitType, _named("unit", "id")):
            name = f"unit {u.id}"
            if u.id in units:
                col.add(f, name, "id", "given twice")
            if (u.type == "artillery") != (u.range > 0):
                col.add(f, name, "range", "artillery (only) has a range above 0")
            if u.rabaul_period:
                if u.side != "jp":
                    col.add(f, name, "rabaul_period", "only Japanese units wait at Rabaul")
                if not 1 <= u.rabaul_periods <= 5 - u.rabaul_period:
                    col.add(f, name, "rabaul_periods", "period 1..4 and a number of periods within 4")
            elif u.arrival == 0:
                col.add(f, name, "arrival", "a unit needs an arrival turn or a Rabaul period")
            if " " in u.id or not u.id:
                col.add(f, name, "id", "an id is one word")
            units[u.id] = u
        return units

    # -- tables --------------------------------------------------------------------------------
    def attrition(self) -> AttritionTable:
        """attrition.toml: the Attrition Table (DG 8.2.1.4)."""
        col, f = self.col, "attrition.toml"
        results: dict[str, tuple[tuple[Cell, Cell], ...]] = {}
        for rec in _records(col, f, self.raw[f].get("column"), Column, _named("column", "ratio")):
            name = f"column {rec.ratio}"
            rows = []
            for side, cells in (("attacker", rec.attacker), ("defender", rec.defender)):
                parsed = []
                for i, cell in enumerate(cells):
                    parts = cell.split("/")
                    if len(parts) != 3 or not all(p.isdigit() for p in parts):
                        col.add(f, name, side, f"die {i + 1}: {cell!r} is not L/R/A")
                        parsed.append(Cell(0, 0, 0))
                    else:
                        parsed.append(Cell(*map(int, parts)))
                if len(cells) != 6:
                    col.add(f, name, side, "needs six results, one per die face")
                rows.append(parsed)
            if rec.ratio in results:
                col.add(f, name, "ratio", "given twice")
            if len(rows[0]) == 6 and len(rows[1]) == 6:
                results[rec.ratio] = tuple(zip(rows[0], rows[1], strict=True))
        return AttritionTable(RATIOS, results)

    def artillery(self) -> tuple[tuple[FireBand, ...], DieFaces, DieFaces, Naval, dict[str, dict[str, int]]] | None:
        """artillery.toml: fire table, airfield damage, counter-battery, naval bombardment."""
        col, f = self.col, "artillery.toml"
        raw = self.raw[f]
        fire = _one(col, f, raw, "fire", Bands, inner="band")
        bands = _records(col, f, _inner(raw, "fire", "band"), FireBand, _named("fire band", "min_strength"))
        for band in bands:
            if len(band.hits) != 6:
                col.add(f, f"fire band {band.min_strength}", "hits", "needs six non-negative integers")
        airfield = _one(col, f, raw, "airfield", DieFaces)
        counter = _one(col, f, raw, "counter_battery", DieFaces)
        naval = _one(col, f, raw, "naval", Naval, inner="month")
        months = _records(col, f, _inner(raw, "naval", "month"), NavalMonth, _named("naval month", "month"))
        dice: dict[str, dict[str, int]] = {m.month: {"us": m.us, "jp": m.jp} for m in months}
        for month in MONTHS:
            if month not in dice:
                col.add(f, "naval", "month", f"no Naval Bombardment row for {month}")
        if fire is None or airfield is None or counter is None or naval is None:
            return None
        return tuple(bands), airfield, counter, naval, dice

    def replenishment(self) -> dict[str, dict[str, tuple[int, ...]]]:
        """supply.toml: the Artillery Supply Replenishment table (DG 8.1.1)."""
        col, f = self.col, "supply.toml"
        table: dict[str, dict[str, tuple[int, ...]]] = {}
        for rec in _records(col, f, self.raw[f].get("replenishment"), Replenishment, _named("replenishment", "month")):
            for s in SIDES:
                if len(getattr(rec, s)) != 6:
                    col.add(f, f"replenishment {rec.month}", s, "needs six non-negative integers")
            table[rec.month] = {"us": rec.us, "jp": rec.jp}
        for month in MONTHS:
            if month not in table:
                col.add(f, "replenishment", "month", f"no Replenishment row for {month}")
        return table

    def turns(self) -> tuple[Turn, ...]:
        """turns.toml: the turn track with events and the supply schedule."""
        col, f = self.col, "turns.toml"
        out = []
        for i, rec in enumerate(_records(col, f, self.raw[f].get("turn"), TurnBox, _named("turn", "turn"))):
            name = f"turn {rec.turn}"
            if rec.turn != i + 1:
                col.add(f, name, "turn", f"turns must run 1, 2, 3 ... (expected {i + 1})")
            supply = {"us": rec.us_supply, "jp": rec.jp_supply}
            for s, value in supply.items():
                if not (value.isdigit() or value == "+" or (value == "unl" and s == "us")):
                    col.add(f, name, f"{s}_supply", f"{value!r} is not a number, '+' or (US only) 'unl'")
            out.append(Turn(rec.turn, rec.date, rec.month, rec.event, supply))
        return tuple(out)

    def combat_effects(self) -> tuple[CombatEffect, ...]:
        """terrain.toml: the combat multipliers (DG 8.2.1)."""
        col, f = self.col, "terrain.toml"
        effects = []
        for i, rec in enumerate(
            _records(col, f, self.raw[f].get("combat"), CombatMultiplier, lambda i, r: f"combat {i}")
        ):
            try:
                mult = Fraction(rec.multiplier)
            except (ValueError, ZeroDivisionError):
                col.add(f, f"combat {i + 1}", "multiplier", "expected a fraction such as 1/2 or 2")
                mult = Fraction(1)
            effects.append(CombatEffect(rec.side, rec.condition, mult))
        return tuple(effects)

    def sequence(self) -> SequenceSpec | None:
        """sequence.toml: the set-up and the twenty steps of DG 4.0 (`core.sequence`)."""
        try:
            return load_sequence(self.base / "sequence.toml", SIDES, OPTIONS, "DG")
        except DataErrors as exc:
            self.col.errors.extend(exc.errors)
            return None


def _turn_steps(d: GameData) -> list[tuple[str, str]]:
    """(phase, side) of each step of a turn, in order."""
    return [(step.phase, step.side) for step, *_ in d.sequence.entries if not step.setup]


def _check_events_can_act(d: GameData, col: Collector) -> None:
    """DG 5.0: an event lasts for the turn it is drawn in, so each card's half must act in a
    step still to come after the drawing side's event step, for every side it targets."""
    steps = _turn_steps(d)
    for side in SIDES:
        drawn = next((i for i, st in enumerate(steps) if st == ("events", side)), None)
        if drawn is None:
            continue
        later = set(steps[drawn + 1 :])
        for card in d.cards:
            eff = card.effect(side)
            where = EVENT_STEPS[eff.kind]
            if where is None:
                continue  # acts at once
            phase, whose = where
            targets = {"self": [side], "enemy": [other(side)], "both": [side, other(side)]}[eff.target]
            for t in targets:
                acting = t if whose == "target" else other(t)
                if (phase, acting) not in later:
                    col.add(
                        "events.toml",
                        f"card {card.number}",
                        side,
                        f"{eff.kind} for {t} would never act: no {phase} step of {acting} follows "
                        f"the {side} draw in the turn (rule DG 5.0)",
                    )


def check_constraints(d: GameData, col: Collector) -> None:
    """The values the DG rulebook fixes (docs/data.md, DG section) must hold on any data set."""
    m, c = d.map, d.constants
    want = {
        ("rules.toml", "game", "turns"): (c.turns, 26, "rule DG 12.0"),
        ("rules.toml", "game", "events_from_turn"): (c.events_from_turn, 9, "rule DG 5.0"),
        ("rules.toml", "game", "withdrawal_turn"): (c.withdrawal_turn, 19, "rule DG 7.9"),
        ("rules.toml", "game", "japan_withdrawals_per_turn"): (c.japan_withdrawals_per_turn, 10, "rule DG 7.9.1"),
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
    for (file, record, key), (got, expected, rule) in want.items():
        if got != expected:
            col.add(file, record, key, f"must be {expected} ({rule}), not {got!r}")
    if c.hf_max < c.hf_start:
        col.add("rules.toml", "game", "hf_max", "must be at least hf_start")
    names = set(m.villages.values())
    for village in ("Matanikau", "Kukum", "Aola", "Tasimboko"):
        if village not in names:
            col.add("map.toml", "village", "name", f"{village} must be a village (rule DG 2.1, 11.0)")
    if len(d.turns) != c.turns:
        col.add("turns.toml", "turn", "", f"needs {c.turns} turns, has {len(d.turns)}")
    for t in d.turns:
        expected_event = (
            "" if t.turn < c.events_from_turn else ("us" if (t.turn - c.events_from_turn) % 2 == 0 else "jp")
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
            col.add("attrition.toml", f"column {ratio}", "", "missing (rule DG 8.2.1.3: 1-6 ... 6-1)")
    for ratio in sorted(set(d.attrition.results) - set(RATIOS)):
        col.add("attrition.toml", f"column {ratio}", "ratio", "not a column of 1-6 ... 6-1")
    if len(d.cards) != 9 or sorted(card.number for card in d.cards) != list(range(1, 10)):
        col.add("events.toml", "card", "number", "needs nine cards numbered 1..9 (rule DG 2.3)")
    _check_events_can_act(d, col)
    if len(_turn_steps(d)) != TURN_STEPS:
        col.add("sequence.toml", "step", "", f"needs the {TURN_STEPS} steps of a turn (rule DG 4.0)")
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
                "units.toml", f"unit {uid}", "", f"must be a {side} {utype or 'unit'} (named in the rules' examples)"
            )
    for utype, side in (("lvt", "us"), ("engineer", "us"), ("labour", "jp"), ("special", "jp"), ("heavy", "jp")):
        if not any(u.type == utype and u.side == side for u in d.units.values()):
            col.add("units.toml", "unit", "type", f"needs a {side} {utype} unit (rule DG 7.3.3, 7.11, 8.2.3, 10.2)")
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
                "units.toml", f"unit {u.id}", "rabaul_period", "2nd Armor: second period, three periods (rule DG 10.1)"
            )
    if d.units.get("124/2") and d.units["124/2"].strength != 4:
        col.add("units.toml", "unit 124/2", "strength", "must be 4 (rule DG 8.1 artillery example)")
    if d.units.get("20Mt") and d.units["20Mt"].strength != 3:
        col.add("units.toml", "unit 20Mt", "strength", "must be 3 (rule DG 8.1 artillery example)")
    if d.units.get("124/2") and d.units["124/2"].movement * 3 != 30:
        col.add("units.toml", "unit 124/2", "movement", "must be 10 (rule DG 7.7 stealth example: 30 points)")
    if set(d.naval_on) != {4, 5, 6} or set(d.airfield_damage_on) != {5, 6} or set(d.counter_battery_on) != {4, 5, 6}:
        col.add(
            "artillery.toml", "naval", "", "die faces fixed by rule DG 8.1.6-8.1.8 (5-6 airfield, 4-6 suppress/bombard)"
        )
    if d.naval_first_turn != 2:
        col.add("artillery.toml", "naval", "first_turn", "must be 2 (rule DG 8.1.7)")
    strengths = [s for band in d.fire for s in range(band.min_strength, band.max_strength + 1)]
    if sorted(strengths)[:1] != [1] or len(set(strengths)) != len(strengths):
        col.add("artillery.toml", "fire", "band", "bands must cover strengths from 1 without overlap")
