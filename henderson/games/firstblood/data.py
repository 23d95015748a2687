"""Load and validate the FIRST BLOOD data files (`data/*.toml`) into the frozen model.

Every table is read with the kit's loader (`core.data.read_records`) into the records that
`model.py` declares: types, ranges, choices and unknown keys are checked there. Then the
cross-references (hexes, units, types and turns that must exist), the shapes the rules
fix (a river is a chain of hexsides, six results a column) and the constraints docs/data.md
fixes (`datacheck.py`) are checked here. One pass reports every problem at once, each as
`file: record: field: what is wrong`, then raises `DataErrors`; the counts of counters are
checked before any counter is built.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping
from itertools import pairwise
from pathlib import Path
from typing import Any, TypeVar

from henderson.core.data import Collector, content_version, load_toml, read_records, report_unread
from henderson.core.errors import DataError, DataErrors
from henderson.core.hexgrid import neighbours
from henderson.core.sequence import load_sequence
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
    Chart,
    CombatTable,
    EntryPoint,
    FBData,
    GroundUnit,
    HexsideDefaults,
    Hexsides,
    HexsideType,
    HoldingBox,
    Manifest,
    MapData,
    MapHex,
    MapLabel,
    Placement,
    Placements,
    Reinforcement,
    River,
    SetupArea,
    Ship,
    ShipType,
    SpecialShips,
)

DATA_DIR = Path(__file__).parent / "data"
FILES = ("game.toml", "map.toml", "counters.toml", "turns.toml", "tables.toml")
OPTIONAL_FILES = ("setup.toml",)
GRID_CODES = {"c": "clear", "j": "jungle", "r": "ridge"}
NO_HEX = "."
START = "start"
HEXSIDE_PATTERN = re.compile(r"^(\d{4})-(\d{4})$")
UNIT_FIELDS = ("id", "name", "side", "kind", "cf", "mf", "range", "source")
R = TypeVar("R")


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
    _sequence(c, directory)
    _manifest(c, raw["game.toml"])
    game_map = _map(c, raw["map.toml"])
    ground, air_types, ship_types = _counters(c, raw["counters.toml"])
    turns, reinforcements, special = _turns(c, raw["turns.toml"], ground, air_types, ship_types)
    air, ships = _expand(reinforcements, special)
    tables = _tables(c, raw["tables.toml"])
    setup = _setup(c, raw["setup.toml"], game_map, ground, air)
    report_unread(c, raw)
    data = FBData(
        directory=directory,
        data_version=content_version(directory),
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


# --- reading records -------------------------------------------------------------------------


def _read(
    c: Collector, f: str, doc: Mapping[str, Any], key: str, cls: type[R], name: Callable[[int, Mapping[str, Any]], str]
) -> list[tuple[str, R]]:
    """The records of `[[key]]` (or of the single table `[key]`), each read into `cls` by the
    kit and given with the name messages call it by. Its provenance is checked apart, as
    `Collector.source` does, because the kit's text fields hold at most 200 characters and
    some of the data's notes are longer."""
    value = doc.get(key)
    if value is None:
        return []
    items = [value] if isinstance(value, Mapping) else value
    if not isinstance(items, list):
        c.add(f, key, "", f"expected an array of tables [[{key}]]")
        return []
    out: list[tuple[str, R]] = []
    for i, item in enumerate(items, 1):
        if not isinstance(item, Mapping):
            c.add(f, f"{key} #{i}", "", "expected a table")
            continue
        record = name(i, item)
        source = c.source(item, f, record)
        rest = {k: v for k, v in item.items() if k != "source"}
        found = read_records(c, f, [rest], cls, _called(record))
        if found:
            out.append((record, dataclasses.replace(found[0], source=source)))  # type: ignore[type-var]
    return out


def _called(record: str) -> Callable[[int, Mapping[str, Any]], str]:
    """What messages call one record."""
    return lambda _i, _raw: record


def _table(c: Collector, doc: Mapping[str, Any], key: str, f: str, cls: type[R]) -> R | None:
    """The single table `[key]`, which must be there when the file is."""
    if doc and key not in doc:
        c.add(f, f"[{key}]", "", "missing table")
        return None
    found = _read(c, f, doc, key, cls, lambda _i, _raw: key)
    return found[0][1] if found else None


def _alternatives(items: Iterable[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def adjacent(a: str, b: str) -> bool:
    """True when hex ids a and b are neighbours under the FB adjacency (docs/data.md)."""
    return FB_LAYOUT.to_hex(b) in neighbours(FB_LAYOUT.to_hex(a))


def _unique(
    c: Collector, f: str, records: Iterable[tuple[str, R]], key: Callable[[R], Any], what: str, field: str = "id"
) -> dict[Any, R]:
    """The records by `key`, each once: a second one is an error naming it."""
    out: dict[Any, R] = {}
    for name, r in records:
        k = key(r)
        if k in out:
            c.add(f, name, field, f"duplicate {what}")
        else:
            out[k] = r
    return out


# --- sequence.toml and game.toml ----------------------------------------------------------------


def _sequence(c: Collector, directory: Path) -> None:
    """The sequence of play, checked by the kit with the rest of the data (FB 3.2)."""
    from henderson.games.firstblood.game import FBGame

    try:
        load_sequence(directory / "sequence.toml", FBGame.sides, list(FBGame.options), FBGame.rules_prefix)
    except DataErrors as exc:
        c.errors.extend(exc.errors)
    except DataError as exc:
        c.add("sequence.toml", "", "", exc.message)


def _manifest(c: Collector, doc: Mapping[str, Any]) -> None:
    if not doc:
        return
    fields = {k: v for k, v in doc.items() if k in ("game", "title", "data_version", "source")}
    for k in sorted(set(doc) - set(fields)):
        c.add("game.toml", "manifest", k, "unknown field")
    found = read_records(c, "game.toml", [fields], Manifest, lambda _i, _raw: "manifest")
    if found and found[0].game != "firstblood":
        c.add("game.toml", "manifest", "game", f"{found[0].game!r} is not 'firstblood'")


# --- map.toml ------------------------------------------------------------------------------


def _map(c: Collector, doc: Mapping[str, Any]) -> MapData:
    f = "map.toml"
    hexes = _grid(c, doc, f)
    fixed: set[str] = set()
    for name, rec in _read(c, f, doc, "hex", MapHex, lambda _i, raw: f"hex {raw.get('id', '?')}"):
        if rec.id not in hexes:
            c.add(f, name, "id", "not a hex of the grid")
        elif rec.id in fixed:
            c.add(f, name, "id", "a second [[hex]] record for this hex")
        else:
            fixed.add(rec.id)
            hexes[rec.id] = rec
    hexsides = _hexsides(c, doc, f, hexes)
    airfields = _airfields(c, doc, f, hexes)
    entry_points = _entry_points(c, doc, f, hexes)
    boxes = _boxes(c, doc, f, hexes)
    holding = _unique(
        c,
        f,
        _read(c, f, doc, "holding_box", HoldingBox, lambda _i, raw: f"holding box {raw.get('id', '?')}"),
        lambda b: b.id,
        "holding box",
    )
    area = _table(c, doc, "setup_area", f, SetupArea)
    rows, cols = (0, 0), (0, 0)
    if area is not None:
        for name, span in (("rows", area.rows), ("cols", area.cols)):
            if len(span) != 2:
                c.add(f, "setup_area", name, "expected [first, last], two integers")
        if len(area.rows) == 2 and len(area.cols) == 2:
            rows, cols = (area.rows[0], area.rows[1]), (area.cols[0], area.cols[1])
    labels = _read(c, f, doc, "label", MapLabel, lambda _i, raw: f"label {raw.get('text', '?')}")
    for name, label in labels:
        if label.hex not in hexes:
            c.add(f, name, "hex", f"unknown hex {label.hex}")
    return MapData(
        hexes, hexsides, airfields, entry_points, boxes, holding, rows, cols, labels=tuple(x for _, x in labels)
    )


def _grid(c: Collector, doc: Mapping[str, Any], f: str) -> dict[str, MapHex]:
    """The terrain grid: one text line per row, west (high columns) on the left. Read apart
    from the kit: its rows are one long text."""
    hexes: dict[str, MapHex] = {}
    if not doc:
        return hexes
    grid = doc.get("grid")
    if not isinstance(grid, Mapping):
        c.add(f, "[grid]", "", "missing table" if grid is None else "expected a table")
        return hexes
    for k in sorted(set(grid) - {"columns", "rows", "source"}):
        c.add(f, "grid", k, "unknown field")
    source = c.source(grid, f, "grid")
    columns = c.field(grid, "columns", list, f, "grid", default=[])
    text = c.field(grid, "rows", str, f, "grid", default="")
    cols: list[int] = []
    for col in columns:
        if not isinstance(col, str) or not re.fullmatch(r"\d{2}", col):
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
            c.add(f, "grid", "rows", f"line {line.strip()!r} does not start with a two-digit row number")
            continue
        row = int(label)
        if row in seen_rows:
            c.add(f, "grid", f"row {label}", "given twice")
            continue
        seen_rows.add(row)
        if len(codes) != len(cols):
            c.add(f, "grid", f"row {label}", f"has {len(codes)} hexes, expected {len(cols)} (one per column)")
            continue
        for col, code in zip(cols, codes, strict=True):
            if code == NO_HEX:
                continue
            hid = FB_LAYOUT.from_offset(row, col)
            if code not in GRID_CODES:
                c.add(f, f"hex {hid}", "terrain", f"{code!r} is not c (clear), j (jungle), r (ridge) or . (no hex)")
                continue
            hexes[hid] = MapHex(id=hid, terrain=GRID_CODES[code], source=source)  # type: ignore[arg-type]
    if not hexes:
        c.add(f, "grid", "rows", "no hexes")
    return hexes


def _parse_hexside(c: Collector, text: str, f: str, record: str, hexes: Mapping[str, MapHex]) -> tuple[str, str] | None:
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
) -> dict[tuple[str, str], tuple[HexsideType, str]]:
    """Explicit hexsides, rivers, then hexsides derived from the terrain of the hexes they touch."""
    result: dict[tuple[str, str], tuple[HexsideType, str]] = {}
    explicit: dict[tuple[str, str], HexsideType] = {}
    for record, rec in _read(
        c, f, doc, "hexside", Hexsides, lambda i, raw: f"hexside record #{i} ({raw.get('type', '?')})"
    ):
        for text in rec.hexsides:
            key = _parse_hexside(c, text, f, record, hexes)
            if key is None:
                continue
            if key in explicit:
                c.add(f, f"hexside {text}", "type", f"given twice ({explicit[key]} and {rec.type})")
                continue
            explicit[key] = rec.type
            result[key] = (rec.type, rec.source)
    on_river: set[tuple[str, str]] = set()
    for record, river in _read(c, f, doc, "river", River, lambda i, raw: f"river {raw.get('name', f'#{i}')}"):
        chain: list[tuple[str, str]] = []
        for text in river.hexsides:
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
                    f"{'-'.join(prev)} and {'-'.join(nxt)} do not meet (a river is a connected chain of hexsides)",
                )
        for key in chain:
            if key in on_river:
                c.add(f, record, "hexsides", f"{'-'.join(key)} is on a river already")
            on_river.add(key)
            if key not in explicit:
                result[key] = ("river", river.source)
            elif explicit[key] not in ("river", "ford"):
                c.add(f, f"hexside {'-'.join(key)}", "type", f"{explicit[key]!r} but it lies on {record}")
    for key, kind in explicit.items():
        if kind == "ford" and key not in on_river:
            c.add(f, f"hexside {'-'.join(key)}", "type", "a ford must lie on a river")
    defaults = _table(c, doc, "hexside_defaults", f, HexsideDefaults)
    if defaults is None:
        return result
    for hid, h in hexes.items():
        for nb in neighbours(FB_LAYOUT.to_hex(hid)):
            other = FB_LAYOUT.to_id(nb) if min(FB_LAYOUT.hex_to_offset(nb)) >= 0 else ""
            if other not in hexes or other < hid:
                continue
            key = (hid, other)
            if key in result:
                continue
            terrains = {h.terrain, hexes[other].terrain}
            for t in defaults.by_terrain:
                if t in terrains:
                    result[key] = (t, defaults.source)
                    break
    return result


def _airfields(c: Collector, doc: Mapping[str, Any], f: str, hexes: Mapping[str, MapHex]) -> dict[str, Airfield]:
    found = _read(c, f, doc, "airfield", Airfield, lambda _i, raw: f"airfield {raw.get('id', '?')}")
    for name, af in found:
        for h in af.hexes:
            if h not in hexes:
                c.add(f, name, "hexes", f"unknown hex {h}")
    return _unique(c, f, found, lambda a: a.id, "id")


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


def _entry_points(c: Collector, doc: Mapping[str, Any], f: str, hexes: Mapping[str, MapHex]) -> dict[int, EntryPoint]:
    edges = edge_hexes(hexes)
    found = _read(c, f, doc, "entry_point", EntryPoint, lambda _i, raw: f"entry point {raw.get('number', '?')}")
    for record, ep in found:
        if not 1 <= len(ep.arrows) <= 3:
            c.add(f, record, "arrows", f"{len(ep.arrows)} arrows, expected 1 to 3")
        for h in ep.arrows:
            if h not in hexes:
                c.add(f, record, "arrows", f"arrow to {h}, which is not a hex of the map")
            elif h not in edges:
                c.add(f, record, "arrows", f"arrow to {h}, which is not on the map edge or the coast")
    return _unique(c, f, found, lambda e: e.number, "entry point", "number")


def _boxes(c: Collector, doc: Mapping[str, Any], f: str, hexes: Mapping[str, MapHex]) -> dict[str, Box]:
    found = _read(c, f, doc, "box", Box, lambda _i, raw: f"box {raw.get('id', '?')}")
    for record, box in found:
        if not 1 <= len(box.arrows) <= 4:
            c.add(f, record, "arrows", f"{len(box.arrows)} arrows, expected 1 to 4")
        for h in box.arrows:
            if h not in hexes:
                c.add(f, record, "arrows", f"arrow to {h}, which is not a hex of the map")
            elif FB_LAYOUT.to_offset(h)[0] != 0:
                c.add(f, record, "arrows", f"arrow to {h}, which is not on the south edge (row 00)")
    return _unique(c, f, found, lambda b: b.id, "box")


# --- counters.toml -------------------------------------------------------------------------


def _counters(
    c: Collector, doc: Mapping[str, Any]
) -> tuple[dict[str, GroundUnit], dict[str, AirType], dict[str, ShipType]]:
    """Ground units, air types and ship types.

    Ground units come in groups: a group's fields apply to each of its units (which may
    override them).
    """
    f = "counters.toml"
    merged: list[dict[str, Any]] = []
    groups = doc.get("ground", [])
    for i, group in enumerate(groups if isinstance(groups, list) else [], 1):
        record = f"ground group #{i}"
        if not isinstance(group, Mapping):
            c.add(f, record, "", "expected a table")
            continue
        for unknown in sorted(set(group) - {*UNIT_FIELDS, "units"}):
            c.add(f, record, unknown, "unknown field")
        units = c.field(group, "units", list, f, record, default=[])
        shared = {k: v for k, v in group.items() if k in UNIT_FIELDS}
        for item in units:
            if not isinstance(item, Mapping):
                c.add(f, record, "units", "each unit is an inline table { id = ..., name = ... }")
                continue
            merged.append({**shared, **item})
    units_read = _read(c, f, {"ground": merged}, "ground", GroundUnit, lambda _i, raw: f"unit {raw.get('id', '?')}")
    ground = _unique(c, f, units_read, lambda u: u.id, "unit id")
    types = _read(c, f, doc, "air_type", AirType, lambda _i, raw: f"air type {raw.get('id', '?')}")
    for name, t in types:
        if not t.roles:
            c.add(f, name, "roles", "expected one or both of fighter, bomber")
    air_types = _unique(c, f, types, lambda t: t.id, "air type")
    ship_types = _unique(
        c,
        f,
        _read(c, f, doc, "ship_type", ShipType, lambda _i, raw: f"ship type {raw.get('id', '?')}"),
        lambda t: t.id,
        "ship type",
    )
    return ground, air_types, ship_types


# --- turns.toml ----------------------------------------------------------------------------


def _turns(
    c: Collector,
    doc: Mapping[str, Any],
    ground: Mapping[str, GroundUnit],
    air_types: Mapping[str, AirType],
    ship_types: Mapping[str, ShipType],
) -> tuple[tuple[str, ...], tuple[Reinforcement, ...], SpecialShips]:
    f = "turns.toml"
    chart = _table(c, doc, "chart", f, Chart)
    turns = chart.turns if chart is not None else ()
    if len(set(turns)) != len(turns):
        c.add(f, "chart", "turns", "a turn is named twice")
    known_turns = (START, *turns)
    arrivals = _read(c, f, doc, "arrival", Reinforcement, lambda _i, raw: _arrival(raw))
    arrived: dict[str, str] = {}
    seen: set[tuple[str, str]] = set()
    for record, r in arrivals:
        if r.turn not in known_turns:
            c.add(f, record, "turn", f"{r.turn!r} is not 'start' or a turn of the chart")
        if (r.turn, r.side) in seen:
            c.add(f, record, "", "given twice (one record per turn and side)")
        seen.add((r.turn, r.side))
        for uid in r.units:
            unit = ground.get(uid)
            if unit is None:
                c.add(f, record, "units", f"unknown unit {uid!r}")
            elif unit.side != r.side:
                c.add(f, record, "units", f"{uid} is a {unit.side} unit")
            if uid in arrived:
                c.add(f, record, "units", f"{uid} arrives already at {arrived[uid]}")
            else:
                arrived[uid] = r.turn
        for key in r.air:
            if key not in air_types or air_types[key].side != r.side:
                c.add(f, record, "air", f"unknown air type {key!r} for this side")
        for key in r.naval:
            if key not in ship_types:
                c.add(f, record, "naval", f"unknown ship type {key!r} for this side")
        if r.naval and r.side == "us":
            c.add(f, record, "naval", "only the Japanese navy is represented (FB 10.0)")
    for uid in ground:
        if uid not in arrived:
            c.add("counters.toml", f"unit {uid}", "", "never arrives (no arrival in turns.toml names it)")
    order = {t: i for i, t in enumerate(known_turns)}
    by_turn = sorted((r for _, r in arrivals), key=lambda r: (order.get(r.turn, len(order)), r.side))
    special = _table(c, doc, "special_ships", f, SpecialShips)
    if special is None:
        special = SpecialShips(type="", ships=(), earliest="")
    if special.type and special.type not in ship_types:
        c.add(f, "special_ships", "type", f"unknown ship type {special.type!r}")
    if special.earliest and special.earliest not in turns:
        c.add(f, "special_ships", "earliest", f"{special.earliest!r} is not a turn of the chart")
    return turns, tuple(by_turn), special


def _arrival(raw: Mapping[str, Any]) -> str:
    return f"arrival {raw.get('turn', '?')} {raw.get('side', '?')}"


def _expand(
    reinforcements: Iterable[Reinforcement], special: SpecialShips
) -> tuple[dict[str, AirUnit], dict[str, Ship]]:
    """Air and naval counters from the chart's counts (FB 7.6): "<type>-<n>" in arrival order
    (the counts were checked, at most `model.MAX_COUNT` a type and turn, before this)."""
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
        ships[sid] = Ship(sid, special.type, "special")
    return air, ships


# --- tables.toml ---------------------------------------------------------------------------


def _tables(c: Collector, doc: Mapping[str, Any]) -> dict[str, CombatTable]:
    f = "tables.toml"
    out: dict[str, CombatTable] = {}
    for record, table in _read(c, f, doc, "table", CombatTable, lambda _i, raw: f"table {raw.get('attacker', '?')}"):
        for col in ODDS_COLUMNS:
            cells = table.results.get(col)
            if cells is None:
                c.add(f, record, f"results.{col}", "missing column")
                continue
            if len(cells) != 6:
                c.add(f, record, f"results.{col}", "expected six results, for die rolls 1 to 6")
                continue
            for die, code in enumerate(cells, 1):
                if code not in RESULT_CODES:
                    c.add(f, record, f"results.{col}", f"die {die}: {code!r} is not {_alternatives(RESULT_CODES)}")
        for col in sorted(set(table.results) - set(ODDS_COLUMNS)):
            c.add(f, record, f"results.{col}", f"unknown odds column (expected {', '.join(ODDS_COLUMNS)})")
        if table.attacker in out:
            c.add(f, record, "attacker", "a second table for this side")
        else:
            out[table.attacker] = table
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
) -> tuple[Placement, ...]:
    f = "setup.toml"
    out: list[Placement] = []
    placed: set[str] = set()
    places = set(game_map.hexes) | set(game_map.boxes) | set(game_map.holding_boxes)
    for record, rec in _read(c, f, doc, "place", Placements, lambda _i, raw: f"place {raw.get('at', '?')}"):
        if rec.at not in places:
            c.add(f, record, "at", f"{rec.at!r} is not a hex, a box A-D or a holding box")
        for uid in rec.units:
            if uid not in ground and uid not in air:
                c.add(f, record, "units", f"unknown unit {uid!r}")
            elif uid in placed:
                c.add(f, record, "units", f"{uid} is placed twice")
            else:
                placed.add(uid)
                out.append(Placement(uid, rec.at, rec.source))
    return tuple(out)
