"""Load and validate the FIRST BLOOD data files (`data/*.toml`) into the frozen model.

One pass reads every file and reports every problem at once, each as
`file: record: field: what is wrong`, then raises `DataErrors`. The checks that
docs/data.md fixes (the rule examples) run here too, in `datacheck.py`, so that a
user's edited copy is held to the same constraints as the shipped data.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from itertools import pairwise
from pathlib import Path
from typing import Any

from henderson.core.data import Collector, content_version, load_toml
from henderson.core.errors import DataError
from henderson.core.hexgrid import neighbours
from henderson.games.firstblood import datacheck
from henderson.games.firstblood.model import (
    FB_LAYOUT,
    ODDS_COLUMNS,
    RESULT_CODES,
    SIDES,
    Airfield,
    AirType,
    AirUnit,
    Box,
    CombatTable,
    EntryPoint,
    FBData,
    GroundUnit,
    HoldingBox,
    MapData,
    MapHex,
    MapLabel,
    Placement,
    Reinforcement,
    Ship,
    ShipType,
    SpecialShips,
)

DATA_DIR = Path(__file__).parent / "data"
FILES = ("game.toml", "map.toml", "counters.toml", "turns.toml", "tables.toml")
OPTIONAL_FILES = ("setup.toml",)
GRID_CODES = {"c": "clear", "j": "jungle", "r": "ridge"}
NO_HEX = "."
TERRAINS = ("clear", "jungle", "ridge")
HEXSIDE_TYPES = ("clear", "jungle", "ridge", "river", "ford")
START = "start"
HEXSIDE_PATTERN = re.compile(r"^(\d{4})-(\d{4})$")


def load_data(data_dir: Path | None = None) -> FBData:
    """Read, check and build the FIRST BLOOD data from `data_dir` (default: the shipped data)."""
    directory = Path(data_dir) if data_dir is not None else DATA_DIR
    c = Collector()
    raw: dict[str, dict[str, Any]] = {}
    for name in (*FILES, *OPTIONAL_FILES):
        path = directory / name
        if name in OPTIONAL_FILES and not path.exists():
            raw[name] = {}
            continue
        try:
            raw[name] = load_toml(path)
        except DataError as exc:
            c.add(name, "", "", exc.message)
            raw[name] = {}
    c.raise_if_any()  # cross-checks against a file that cannot be read would only be noise
    _manifest(c, raw["game.toml"])
    version = content_version(directory)
    game_map = _map(c, raw["map.toml"])
    ground, air_types, ship_types = _counters(c, raw["counters.toml"])
    turns, reinforcements, special, special_type = _turns(
        c, raw["turns.toml"], ground, air_types, ship_types
    )
    air, ships = _expand(reinforcements, special, special_type)
    tables = _tables(c, raw["tables.toml"])
    setup = _setup(c, raw["setup.toml"], game_map, ground, air, reinforcements)
    data = FBData(
        directory=directory,
        data_version=version,
        map=game_map,
        ground=ground,
        air_types=air_types,
        ship_types=ship_types,
        air=air,
        ships=ships,
        turns=turns,
        reinforcements=reinforcements,
        special_ships=special,
        tables=tables,
        setup=setup,
    )
    if not c.errors:  # the docs/data.md constraints only make sense on well-formed data
        datacheck.check(c, data)
    c.raise_if_any()
    return data


# --- helpers -----------------------------------------------------------------------------


def _records(c: Collector, doc: Mapping[str, Any], key: str, file: str) -> list[dict[str, Any]]:
    """The array of tables `[[key]]`, each a dict (errors for anything else)."""
    value = doc.get(key, [])
    if not isinstance(value, list):
        c.add(file, key, "", "expected an array of tables [[" + key + "]]")
        return []
    out = []
    for i, item in enumerate(value, 1):
        if isinstance(item, dict):
            out.append(item)
        else:
            c.add(file, f"{key} #{i}", "", "expected a table")
    return out


def _table(c: Collector, doc: Mapping[str, Any], key: str, file: str) -> dict[str, Any]:
    value = doc.get(key)
    if not isinstance(value, dict):
        c.add(file, f"[{key}]", "", "missing table" if value is None else "expected a table")
        return {}
    return value


def _str_list(c: Collector, obj: Mapping[str, Any], name: str, file: str, record: str) -> list[str]:
    value = c.field(obj, name, list, file, record, default=[])
    if not all(isinstance(v, str) for v in value):
        c.add(file, record, name, "expected a list of text")
        return []
    return list(value)


def _one_of(
    c: Collector, obj: Mapping[str, Any], name: str, allowed: Iterable[str], file: str, record: str
) -> str:
    value = c.field(obj, name, str, file, record, default="")
    allowed = tuple(allowed)
    if value and value not in allowed:
        c.add(file, record, name, f"{value!r} is not {_alternatives(allowed)}")
        return ""
    return value


def _alternatives(items: Iterable[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def adjacent(a: str, b: str) -> bool:
    """True when hex ids a and b are neighbours under the FB adjacency (docs/data.md)."""
    return FB_LAYOUT.to_hex(b) in neighbours(FB_LAYOUT.to_hex(a))


# --- game.toml -----------------------------------------------------------------------------


def _manifest(c: Collector, doc: Mapping[str, Any]) -> str:
    f = "game.toml"
    if not doc:
        return ""
    game = c.field(doc, "game", str, f, "manifest", default="")
    if game and game != "firstblood":
        c.add(f, "manifest", "game", f"{game!r} is not 'firstblood'")
    c.field(doc, "title", str, f, "manifest")
    return c.field(doc, "data_version", str, f, "manifest", default="")  # an edition label, for people


# --- map.toml ------------------------------------------------------------------------------


def _map(c: Collector, doc: Mapping[str, Any]) -> MapData:
    f = "map.toml"
    hexes = _grid(c, doc, f)
    fixed: set[str] = set()
    for rec in _records(c, doc, "hex", f):
        hid = c.field(rec, "id", str, f, "hex", default="")
        name = f"hex {hid}"
        terrain = _one_of(c, rec, "terrain", TERRAINS, f, name)
        source = c.source(rec, f, name)
        if hid and hid not in hexes:
            c.add(f, name, "id", "not a hex of the grid")
        elif hid in fixed:
            c.add(f, name, "id", "a second [[hex]] record for this hex")
        elif hid and terrain and source:
            fixed.add(hid)
            hexes[hid] = MapHex(hid, terrain, source)  # type: ignore[arg-type]
    hexsides = _hexsides(c, doc, f, hexes)
    airfields = _airfields(c, doc, f, hexes)
    entry_points = _entry_points(c, doc, f, hexes)
    boxes = _boxes(c, doc, f, hexes)
    holding = _holding_boxes(c, doc, f)
    area = _table(c, doc, "setup_area", f) if doc else {}
    rows = _range(c, area, "rows", f)
    cols = _range(c, area, "cols", f)
    if area:
        c.source(area, f, "setup_area")
    labels = []
    for rec in _records(c, doc, "label", f):
        text = c.field(rec, "text", str, f, "label", default="")
        record = f"label {text}"
        at = c.field(rec, "hex", str, f, record, default="")
        if at and at not in hexes:
            c.add(f, record, "hex", f"unknown hex {at}")
        source = c.source(rec, f, record)
        labels.append(MapLabel(text, at, source))
    return MapData(
        hexes, hexsides, airfields, entry_points, boxes, holding, rows, cols, labels=tuple(labels)
    )


def _range(c: Collector, obj: Mapping[str, Any], name: str, f: str) -> tuple[int, int]:
    value = c.field(obj, name, list, f, "setup_area", default=None) if obj else None
    if value is None:
        return (0, 0)
    if len(value) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        c.add(f, "setup_area", name, "expected [first, last], two integers")
        return (0, 0)
    return (value[0], value[1])


def _grid(c: Collector, doc: Mapping[str, Any], f: str) -> dict[str, MapHex]:
    """The terrain grid: one text line per row, west (high columns) on the left."""
    hexes: dict[str, MapHex] = {}
    if not doc:
        return hexes
    grid = _table(c, doc, "grid", f)
    if not grid:
        return hexes
    source = c.source(grid, f, "grid")
    columns = _str_list(c, grid, "columns", f, "grid")
    text = c.field(grid, "rows", str, f, "grid", default="")
    cols: list[int] = []
    for col in columns:
        if not re.fullmatch(r"\d{2}", col):
            c.add(f, "grid", "columns", f"{col!r} is not a two-digit column number")
            return hexes
        cols.append(int(col))
    seen_rows: set[int] = set()
    for line in text.splitlines():
        tokens = line.split()
        if not tokens or tokens[0].startswith("#"):
            continue
        label, codes = tokens[0], tokens[1:]
        if not re.fullmatch(r"\d{2}", label):
            c.add(
                f,
                "grid",
                "rows",
                f"line {line.strip()!r} does not start with a two-digit row number",
            )
            continue
        row = int(label)
        if row in seen_rows:
            c.add(f, "grid", f"row {label}", "given twice")
            continue
        seen_rows.add(row)
        if len(codes) != len(cols):
            c.add(
                f,
                "grid",
                f"row {label}",
                f"has {len(codes)} hexes, expected {len(cols)} (one per column)",
            )
            continue
        for col, code in zip(cols, codes, strict=True):
            if code == NO_HEX:
                continue
            hid = FB_LAYOUT.from_offset(row, col)
            if code not in GRID_CODES:
                c.add(
                    f,
                    f"hex {hid}",
                    "terrain",
                    f"{code!r} is not c (clear), j (jungle), r (ridge) or . (no hex)",
                )
                continue
            hexes[hid] = MapHex(hid, GRID_CODES[code], source)  # type: ignore[arg-type]
    if not hexes:
        c.add(f, "grid", "rows", "no hexes")
    return hexes


def _parse_hexside(
    c: Collector, text: str, f: str, record: str, hexes: Mapping[str, MapHex]
) -> tuple[str, str] | None:
    m = HEXSIDE_PATTERN.match(text)
    if not m:
        c.add(f, record, "hexsides", f"{text!r} is not a hexside 'RRCC-RRCC'")
        return None
    a, b = m.group(1), m.group(2)
    bad = [h for h in (a, b) if h not in hexes]
    if bad:
        c.add(f, record, "hexsides", f"{text}: unknown hex {', '.join(bad)}")
        return None
    if not adjacent(a, b):
        c.add(f, record, "hexsides", f"{text}: {a} and {b} are not adjacent")
        return None
    return _pair(a, b)


def _shares_vertex(x: tuple[str, str], y: tuple[str, str]) -> bool:
    """Two hexsides meet at a corner when their hexes are three mutually adjacent hexes."""
    ids = set(x) | set(y)
    if len(ids) != 3:
        return False
    a, b, d = sorted(ids)
    return adjacent(a, b) and adjacent(a, d) and adjacent(b, d)


def _hexsides(
    c: Collector, doc: Mapping[str, Any], f: str, hexes: Mapping[str, MapHex]
) -> dict[tuple[str, str], tuple[str, str]]:
    """Explicit hexsides, rivers, then hexsides derived from the terrain of the hexes they touch."""
    result: dict[tuple[str, str], tuple[str, str]] = {}
    explicit: dict[tuple[str, str], str] = {}
    for i, rec in enumerate(_records(c, doc, "hexside", f), 1):
        kind = _one_of(c, rec, "type", HEXSIDE_TYPES, f, f"hexside record #{i}")
        record = f"hexside record #{i} ({kind})"
        source = c.source(rec, f, record)
        for text in _str_list(c, rec, "hexsides", f, record):
            key = _parse_hexside(c, text, f, record, hexes)
            if key is None or not kind:
                continue
            if key in explicit:
                c.add(f, f"hexside {text}", "type", f"given twice ({explicit[key]} and {kind})")
                continue
            explicit[key] = kind
            result[key] = (kind, source)
    on_river: set[tuple[str, str]] = set()
    for i, rec in enumerate(_records(c, doc, "river", f), 1):
        name = c.field(rec, "name", str, f, f"river #{i}", default=f"#{i}")
        record = f"river {name}"
        source = c.source(rec, f, record)
        chain = []
        for text in _str_list(c, rec, "hexsides", f, record):
            key = _parse_hexside(c, text, f, record, hexes)
            if key is None:
                chain = []
                break
            chain.append(key)
        for prev, nxt in pairwise(chain):
            if not _shares_vertex(prev, nxt):
                c.add(
                    f,
                    record,
                    "hexsides",
                    f"{'-'.join(prev)} and {'-'.join(nxt)} do not meet"
                    " (a river is a connected chain of hexsides)",
                )
        for key in chain:
            if key in on_river:
                c.add(f, record, "hexsides", f"{'-'.join(key)} is on a river already")
            on_river.add(key)
            if key not in explicit:
                result[key] = ("river", source)
            elif explicit[key] not in ("river", "ford"):
                c.add(
                    f,
                    f"hexside {'-'.join(key)}",
                    "type",
                    f"{explicit[key]!r} but it lies on {record}",
                )
    for key, kind in explicit.items():
        if kind == "ford" and key not in on_river:
            c.add(f, f"hexside {'-'.join(key)}", "type", "a ford must lie on a river")
    defaults = _table(c, doc, "hexside_defaults", f) if doc else {}
    order = _str_list(c, defaults, "by_terrain", f, "hexside_defaults") if defaults else []
    source = c.source(defaults, f, "hexside_defaults") if defaults else ""
    for t in order:
        if t not in ("ridge", "jungle"):
            c.add(f, "hexside_defaults", "by_terrain", f"{t!r} is not ridge or jungle")
            order = []
    for hid, h in hexes.items():
        for nb in neighbours(FB_LAYOUT.to_hex(hid)):
            other = FB_LAYOUT.to_id(nb) if min(FB_LAYOUT.hex_to_offset(nb)) >= 0 else ""
            if other not in hexes or other < hid:
                continue
            key = (hid, other)
            if key in result:
                continue
            terrains = {h.terrain, hexes[other].terrain}
            for t in order:
                if t in terrains:
                    result[key] = (t, source)
                    break
    return result  # type: ignore[return-value]


def _airfields(
    c: Collector, doc: Mapping[str, Any], f: str, hexes: Mapping[str, MapHex]
) -> dict[str, Airfield]:
    out: dict[str, Airfield] = {}
    for rec in _records(c, doc, "airfield", f):
        aid = c.field(rec, "id", str, f, "airfield", default="")
        record = f"airfield {aid}"
        name = c.field(rec, "name", str, f, record, default="")
        kind = _one_of(c, rec, "kind", ("airfield", "fighter_strip"), f, record)
        cells = _str_list(c, rec, "hexes", f, record)
        for h in cells:
            if h not in hexes:
                c.add(f, record, "hexes", f"unknown hex {h}")
        built = c.field(rec, "built", bool, f, record, default=False)
        source = c.source(rec, f, record)
        if aid in out:
            c.add(f, record, "id", "duplicate id")
        elif aid:
            out[aid] = Airfield(aid, name, kind, tuple(cells), built, source)  # type: ignore[arg-type]
    return out


def edge_hexes(hexes: Mapping[str, Any]) -> set[str]:
    """Hexes with fewer than six neighbours on the map (the coast and the map edges)."""
    out = set()
    for hid in hexes:
        for nb in neighbours(FB_LAYOUT.to_hex(hid)):
            row, col = FB_LAYOUT.hex_to_offset(nb)
            if row < 0 or col < 0 or FB_LAYOUT.from_offset(row, col) not in hexes:
                out.add(hid)
                break
    return out


def _entry_points(
    c: Collector, doc: Mapping[str, Any], f: str, hexes: Mapping[str, MapHex]
) -> dict[int, EntryPoint]:
    out: dict[int, EntryPoint] = {}
    edges = edge_hexes(hexes)
    for rec in _records(c, doc, "entry_point", f):
        number = c.field(rec, "number", int, f, "entry point", default=0)
        record = f"entry point {number}"
        side = _one_of(c, rec, "side", SIDES, f, record)
        circled = c.field(rec, "circled", bool, f, record, default=False)
        arrows = _str_list(c, rec, "arrows", f, record)
        if not 1 <= len(arrows) <= 3:
            c.add(f, record, "arrows", f"{len(arrows)} arrows, expected 1 to 3")
        for h in arrows:
            if h not in hexes:
                c.add(f, record, "arrows", f"arrow to {h}, which is not a hex of the map")
            elif h not in edges:
                c.add(
                    f, record, "arrows", f"arrow to {h}, which is not on the map edge or the coast"
                )
        source = c.source(rec, f, record)
        if number in out:
            c.add(f, record, "number", "duplicate entry point")
        elif number:
            out[number] = EntryPoint(number, side, circled, tuple(arrows), source)  # type: ignore[arg-type]
    return out


def _boxes(
    c: Collector, doc: Mapping[str, Any], f: str, hexes: Mapping[str, MapHex]
) -> dict[str, Box]:
    out: dict[str, Box] = {}
    for rec in _records(c, doc, "box", f):
        bid = c.field(rec, "id", str, f, "box", default="")
        record = f"box {bid}"
        order = c.field(rec, "order", int, f, record, default=0)
        arrows = _str_list(c, rec, "arrows", f, record)
        if not 1 <= len(arrows) <= 4:
            c.add(f, record, "arrows", f"{len(arrows)} arrows, expected 1 to 4")
        for h in arrows:
            if h not in hexes:
                c.add(f, record, "arrows", f"arrow to {h}, which is not a hex of the map")
            elif FB_LAYOUT.to_offset(h)[0] != 0:
                c.add(f, record, "arrows", f"arrow to {h}, which is not on the south edge (row 00)")
        reinforcement = c.field(rec, "reinforcement", bool, f, record, default=False)
        source = c.source(rec, f, record)
        if bid in out:
            c.add(f, record, "id", "duplicate box")
        elif bid:
            out[bid] = Box(bid, order, tuple(arrows), reinforcement, source)
    return out


def _holding_boxes(c: Collector, doc: Mapping[str, Any], f: str) -> dict[str, HoldingBox]:
    out: dict[str, HoldingBox] = {}
    for rec in _records(c, doc, "holding_box", f):
        hid = c.field(rec, "id", str, f, "holding box", default="")
        record = f"holding box {hid}"
        name = c.field(rec, "name", str, f, record, default="")
        side = _one_of(c, rec, "side", SIDES, f, record)
        source = c.source(rec, f, record)
        if hid in out:
            c.add(f, record, "id", "duplicate holding box")
        elif hid:
            out[hid] = HoldingBox(hid, name, side, source)  # type: ignore[arg-type]
    return out


# --- counters.toml -------------------------------------------------------------------------

UNIT_FIELDS = ("id", "name", "side", "kind", "cf", "mf", "range", "source")


def _counters(
    c: Collector, doc: Mapping[str, Any]
) -> tuple[dict[str, GroundUnit], dict[str, AirType], dict[str, ShipType]]:
    """Ground units, air types and ship types.

    Ground units come in groups: a group's fields apply to each of its units (which may
    override them).
    """
    f = "counters.toml"
    ground: dict[str, GroundUnit] = {}
    for i, group in enumerate(_records(c, doc, "ground", f), 1):
        units = c.field(group, "units", list, f, f"ground group #{i}", default=[])
        for unknown in set(group) - {*UNIT_FIELDS, "units"}:
            c.add(f, f"ground group #{i}", unknown, "unknown field")
        for item in units:
            if not isinstance(item, dict):
                c.add(
                    f,
                    f"ground group #{i}",
                    "units",
                    "each unit is an inline table { id = ..., name = ... }",
                )
                continue
            rec = {**{k: v for k, v in group.items() if k != "units"}, **item}
            uid = c.field(rec, "id", str, f, f"ground group #{i}", default="")
            record = f"unit {uid}"
            for unknown in set(item) - set(UNIT_FIELDS):
                c.add(f, record, unknown, "unknown field")
            name = c.field(rec, "name", str, f, record, default="")
            side = _one_of(c, rec, "side", SIDES, f, record)
            kind = c.field(rec, "kind", str, f, record, default="")
            cf = c.field(rec, "cf", int, f, record, default=0)
            mf = c.field(rec, "mf", int, f, record, default=0)
            rng = c.field(rec, "range", int, f, record, required=False)
            if cf < 0:
                c.add(f, record, "cf", f"{cf} is negative")
            if mf < 1:
                c.add(f, record, "mf", f"{mf}: a ground unit needs a movement factor of 1 or more")
            if rng is not None and rng < 1:
                c.add(f, record, "range", f"{rng}: an artillery range is 1 or more")
            source = c.source(rec, f, record)
            if uid in ground:
                c.add(f, record, "id", "duplicate unit id")
            elif uid:
                ground[uid] = GroundUnit(uid, name, side, kind, cf, rng, mf, source)  # type: ignore[arg-type]
    air_types: dict[str, AirType] = {}
    for rec in _records(c, doc, "air_type", f):
        tid = c.field(rec, "id", str, f, "air type", default="")
        record = f"air type {tid}"
        name = c.field(rec, "name", str, f, record, default="")
        side = _one_of(c, rec, "side", SIDES, f, record)
        roles = _str_list(c, rec, "roles", f, record)
        if not roles or any(r not in ("fighter", "bomber") for r in roles):
            c.add(f, record, "roles", f"{roles!r}: expected one or both of fighter, bomber")
        source = c.source(rec, f, record)
        if tid in air_types:
            c.add(f, record, "id", "duplicate air type")
        elif tid:
            air_types[tid] = AirType(tid, name, side, tuple(roles), source)  # type: ignore[arg-type]
    ship_types: dict[str, ShipType] = {}
    for rec in _records(c, doc, "ship_type", f):
        tid = c.field(rec, "id", str, f, "ship type", default="")
        record = f"ship type {tid}"
        name = c.field(rec, "name", str, f, record, default="")
        source = c.source(rec, f, record)
        if tid in ship_types:
            c.add(f, record, "id", "duplicate ship type")
        elif tid:
            ship_types[tid] = ShipType(tid, name, source)
    return ground, air_types, ship_types


# --- turns.toml ----------------------------------------------------------------------------


def _turns(
    c: Collector,
    doc: Mapping[str, Any],
    ground: Mapping[str, GroundUnit],
    air_types: Mapping[str, AirType],
    ship_types: Mapping[str, ShipType],
) -> tuple[tuple[str, ...], tuple[Reinforcement, ...], SpecialShips, str]:
    f = "turns.toml"
    chart = _table(c, doc, "chart", f) if doc else {}
    turns = tuple(_str_list(c, chart, "turns", f, "chart")) if chart else ()
    if chart:
        c.source(chart, f, "chart")
    if len(set(turns)) != len(turns):
        c.add(f, "chart", "turns", "a turn is named twice")
    known_turns = (START, *turns)
    arrivals: list[Reinforcement] = []
    arrived: dict[str, str] = {}
    seen: set[tuple[str, str]] = set()
    for rec in _records(c, doc, "arrival", f):
        turn = c.field(rec, "turn", str, f, "arrival", default="")
        side = _one_of(c, rec, "side", SIDES, f, f"arrival {turn}")
        record = f"arrival {turn} {side}"
        if turn and turn not in known_turns:
            c.add(f, record, "turn", f"{turn!r} is not 'start' or a turn of the chart")
        if (turn, side) in seen:
            c.add(f, record, "", "given twice (one record per turn and side)")
        seen.add((turn, side))
        units = _str_list(c, rec, "units", f, record) if "units" in rec else []
        for uid in units:
            unit = ground.get(uid)
            if unit is None:
                c.add(f, record, "units", f"unknown unit {uid!r}")
            elif side and unit.side != side:
                c.add(f, record, "units", f"{uid} is a {unit.side} unit")
            if uid in arrived:
                c.add(f, record, "units", f"{uid} arrives already at {arrived[uid]}")
            else:
                arrived[uid] = turn
        air = _counts(
            c,
            rec,
            "air",
            f,
            record,
            {k for k, t in air_types.items() if t.side == side},
            "air type",
        )
        naval = _counts(c, rec, "naval", f, record, set(ship_types), "ship type")
        if naval and side == "us":
            c.add(f, record, "naval", "only the Japanese navy is represented (FB 10.0)")
        source = c.source(rec, f, record)
        arrivals.append(Reinforcement(turn, side, tuple(units), air, naval, source))  # type: ignore[arg-type]
    for uid in ground:
        if uid not in arrived:
            c.add(
                "counters.toml",
                f"unit {uid}",
                "",
                "never arrives (no arrival in turns.toml names it)",
            )
    order = {t: i for i, t in enumerate(known_turns)}
    arrivals.sort(key=lambda r: (order.get(r.turn, len(order)), r.side))
    special_doc = _table(c, doc, "special_ships", f) if doc else {}
    sp_type = (
        c.field(special_doc, "type", str, f, "special_ships", default="") if special_doc else ""
    )
    if sp_type and sp_type not in ship_types:
        c.add(f, "special_ships", "type", f"unknown ship type {sp_type!r}")
    ids = _str_list(c, special_doc, "ids", f, "special_ships") if special_doc else []
    earliest = (
        c.field(special_doc, "earliest", str, f, "special_ships", default="") if special_doc else ""
    )
    if earliest and earliest not in turns:
        c.add(f, "special_ships", "earliest", f"{earliest!r} is not a turn of the chart")
    sp_source = c.source(special_doc, f, "special_ships") if special_doc else ""
    special = SpecialShips(tuple(ids), earliest, sp_source)
    return turns, tuple(arrivals), special, sp_type


def _counts(
    c: Collector, rec: Mapping[str, Any], name: str, f: str, record: str, known: set[str], what: str
) -> dict[str, int]:
    value = c.field(rec, name, dict, f, record, required=False, default={})
    out: dict[str, int] = {}
    for key, n in value.items():
        if key not in known:
            c.add(f, record, name, f"unknown {what} {key!r} for this side")
        elif isinstance(n, bool) or not isinstance(n, int) or n < 1:
            c.add(f, record, name, f"{key} = {n!r}: expected a count of 1 or more")
        else:
            out[key] = n
    return out


def _expand(
    reinforcements: Iterable[Reinforcement], special: SpecialShips, special_type: str
) -> tuple[dict[str, AirUnit], dict[str, Ship]]:
    """Air and naval counters from the chart's counts (FB 7.6): "<type>-<n>" in arrival order."""
    air: dict[str, AirUnit] = {}
    ships: dict[str, Ship] = {}
    numbers: dict[str, int] = {}
    for r in reinforcements:  # already sorted: start first, then the chart's turns in order
        for t, n in r.air.items():
            for _ in range(n):
                numbers[t] = numbers.get(t, 0) + 1
                uid = f"{t}-{numbers[t]}"
                air[uid] = AirUnit(uid, t, r.side, r.turn)
        for t, n in r.naval.items():
            for _ in range(n):
                numbers["ship " + t] = numbers.get("ship " + t, 0) + 1
                uid = f"{t}-{numbers['ship ' + t]}"
                ships[uid] = Ship(uid, t, r.turn)
    for sid in special.ships:  # FB 10.1: the special IJN box
        ships[sid] = Ship(sid, special_type, "special")
    return air, ships


# --- tables.toml ---------------------------------------------------------------------------


def _tables(c: Collector, doc: Mapping[str, Any]) -> dict[str, CombatTable]:
    f = "tables.toml"
    out: dict[str, CombatTable] = {}
    for rec in _records(c, doc, "table", f):
        side = _one_of(c, rec, "attacker", SIDES, f, "table")
        record = f"table {side}"
        name = c.field(rec, "name", str, f, record, default="")
        results = c.field(rec, "results", dict, f, record, default={})
        source = c.source(rec, f, record)
        columns: dict[str, tuple[str, ...]] = {}
        for col in ODDS_COLUMNS:
            cells = results.get(col)
            if cells is None:
                c.add(f, record, f"results.{col}", "missing column")
                continue
            if not isinstance(cells, list) or len(cells) != 6:
                c.add(f, record, f"results.{col}", "expected six results, for die rolls 1 to 6")
                continue
            for die, code in enumerate(cells, 1):
                if code not in RESULT_CODES:
                    c.add(
                        f,
                        record,
                        f"results.{col}",
                        f"die {die}: {code!r} is not {_alternatives(RESULT_CODES)}",
                    )
            columns[col] = tuple(cells)
        for col in set(results) - set(ODDS_COLUMNS):
            c.add(
                f,
                record,
                f"results.{col}",
                f"unknown odds column (expected {', '.join(ODDS_COLUMNS)})",
            )
        if side in out:
            c.add(f, record, "attacker", "a second table for this side")
        elif side:
            out[side] = CombatTable(side, name, columns, source)  # type: ignore[arg-type]
    for side in SIDES:
        if doc and side not in out:
            c.add(f, f"table {side}", "", "missing (FB 8.9: one attack table per side)")
    return out


# --- setup.toml ----------------------------------------------------------------------------


def _setup(
    c: Collector,
    doc: Mapping[str, Any],
    game_map: MapData,
    ground: Mapping[str, GroundUnit],
    air: Mapping[str, AirUnit],
    reinforcements: Iterable[Reinforcement],
) -> tuple[Placement, ...]:
    f = "setup.toml"
    out: list[Placement] = []
    placed: set[str] = set()
    places = set(game_map.hexes) | set(game_map.boxes) | set(game_map.holding_boxes)
    for i, rec in enumerate(_records(c, doc, "place", f), 1):
        at = c.field(rec, "at", str, f, f"place #{i}", default="")
        record = f"place {at}"
        if at and at not in places:
            c.add(f, record, "at", f"{at!r} is not a hex, a box A-D or a holding box")
        source = c.source(rec, f, record)
        for uid in _str_list(c, rec, "units", f, record):
            if uid not in ground and uid not in air:
                c.add(f, record, "units", f"unknown unit {uid!r}")
            elif uid in placed:
                c.add(f, record, "units", f"{uid} is placed twice")
            else:
                placed.add(uid)
                out.append(Placement(uid, at, source))
    return tuple(out)
