"""Load and validate the AAG data directory into the frozen records of `model.py`.

Every table is read through `core.data.read_records` by its declared dataclass (types,
ranges, choices, provenance; unknown keys refused; counts bounded before any piece is
built). Then the cross-references are checked (zones, unit types, adjacency both ways) and,
once those hold, the constraints docs/data.md and the manual fix about the board and the
set-up. Every problem is collected in one pass (`file: record: field: what`) and raised
together.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

from henderson.core.data import Collector, content_version, load_toml, read_records
from henderson.core.errors import DataError
from henderson.games.aag.model import (
    CATEGORIES,
    SIDES,
    SUPPLY,
    Advantage,
    AirfieldRules,
    Base,
    Block,
    Board,
    Carriers,
    FirstPlayer,
    GameData,
    Income,
    Island,
    Manifest,
    Neck,
    Repair,
    Rules,
    Sea,
    Setup,
    SetupAirfield,
    SetupControl,
    SetupPlace,
    SetupShip,
    SupplyCost,
    Token,
    UnitType,
    Victory,
)

T = TypeVar("T")
DATA_DIR = Path(__file__).parent / "data"
FILES = (
    "game.toml",
    "board.toml",
    "units.toml",
    "battlebox.toml",
    "rules.toml",
    "setup.toml",
    "advantages.toml",
)
# where the engine applies each advantage token: the step it is spent in
TOKEN_WINDOWS = {
    Advantage.COMMAND_DECISION: "combat:begin",
    Advantage.BANZAI_CHARGE: "combat:before_land",
    Advantage.NIGHT_FIGHTING: "combat:before_sea",
    Advantage.QUICK_DROP: "move:end",
    Advantage.SUPERIOR_FIGHTERS: "move:fighter",
    Advantage.GOOD_LOGISTICS: "regroup:buy",
    Advantage.AMPHIBIOUS_ASSAULT: "combat:before_land",
    Advantage.PT_BOATS: "combat:before_sea",
    Advantage.COAST_WATCHERS: "move:any",
}
TOKENS_PER_SIDE = 8  # AAG Appendix 1: eight advantage tokens for each player
# the tables of each data file but the manifest (whose keys its record declares)
TABLES = {
    "board.toml": ("island", "sea", "base", "block"),
    "units.toml": ("unit",),
    "battlebox.toml": ("neck",),
    "rules.toml": ("victory", "income", "airfields", "carriers", "repair", "supply", "first_player"),
    "setup.toml": ("airfield", "control", "place", "ship"),
    "advantages.toml": ("token",),
}


def load_data(data_dir: Path | None = None) -> GameData:
    """Read and validate every AAG data file; DataErrors lists all problems at once."""
    data_dir = Path(data_dir) if data_dir else DATA_DIR
    c = Collector()
    raw: dict[str, dict[str, Any]] = {}
    for name in FILES:
        try:
            raw[name] = load_toml(data_dir / name)
        except DataError as exc:  # keep going to report every file
            c.errors.append(exc)
            raw[name] = {}
    c.raise_if_any()  # checks against a file that cannot be read would only be noise
    if raw["game.toml"]:
        read_records(c, "game.toml", [raw["game.toml"]], Manifest, name=lambda i, r: "game")
    for name, tables in TABLES.items():
        for key in sorted(set(raw[name]) - set(tables)):
            c.add(name, key, "", f"unknown table (expected {', '.join(tables)})")
    units = _units(raw["units.toml"], c)
    board = _board(raw["board.toml"], c)
    neck = _table(c, "battlebox.toml", raw["battlebox.toml"], "neck", Neck)
    if neck is not None:
        _check_neck(neck, units, c)
    rules = _rules(raw["rules.toml"], c)
    setup = _setup(raw["setup.toml"], board, units, c)
    tokens = _tokens(raw["advantages.toml"], c)
    c.raise_if_any()
    assert neck is not None and rules is not None and setup is not None  # else errors were raised
    check_constraints(board, setup, rules, c)
    c.raise_if_any()
    return GameData(board, units, neck, rules, setup, content_version(data_dir), data_dir, tokens)


def _table(c: Collector, file: str, doc: Mapping[str, Any], key: str, cls: type[T]) -> T | None:
    """A single table (`[neck]`, `[victory]`) read by its declared record."""
    table = doc.get(key)
    if not isinstance(table, Mapping):
        c.add(file, key, "", "missing" if table is None else "expected a table")
        return None
    found = read_records(c, file, [table], cls, name=lambda i, r: key)
    return found[0] if found else None


def _tokens(doc: dict[str, Any], c: Collector) -> tuple[Token, ...]:
    """The advantage tokens: the engine knows each effect and where it applies it, so the
    ids, windows and counts are checked (AAG Appendix 1)."""
    f = "advantages.toml"
    out = read_records(c, f, doc.get("token", []), Token)
    for t in out:
        if t.window != TOKEN_WINDOWS[t.id]:
            c.add(f, t.id, "window", f"{t.id} is spent in {TOKEN_WINDOWS[t.id]}, not {t.window!r}")
    for side in SIDES:
        total = sum(t.count for t in out if t.side == side)
        if out and total != TOKENS_PER_SIDE:
            c.add(f, "token", "count", f"{side} has {total} advantage tokens, the game gives {TOKENS_PER_SIDE}")
    return tuple(out)


def _units(doc: dict[str, Any], c: Collector) -> dict[str, UnitType]:
    f = "units.toml"
    out: dict[str, UnitType] = {}
    for u in read_records(c, f, doc.get("unit", []), UnitType):
        if len(u.dice) != len(CATEGORIES):
            c.add(f, u.id, "attack", "expected three non-negative integers [air, sea, land]")
        if u.category == "air" and u.range == 0:
            c.add(f, u.id, "range", "missing (an air unit flies a number of zones)")
        if u.id in out or u.id == SUPPLY:
            c.add(f, u.id, "id", "duplicate or reserved id")
        out[u.id] = u
    if not out:
        c.add(f, "", "unit", "no unit types")
    return out


def _board(doc: dict[str, Any], c: Collector) -> Board:
    """The board's records, their cross-references, and the sea and air graphs."""
    f = "board.toml"
    islands = {i.id: i for i in read_records(c, f, doc.get("island", []), Island)}
    seas = {s.id: s for s in read_records(c, f, doc.get("sea", []), Sea)}
    bases: dict[str, Base] = {}
    for base in read_records(c, f, doc.get("base", []), Base):
        routes = tuple(s.id for s in seas.values() if s.route_to_base == base.side)
        bases[base.side] = Base(
            id=base.id, side=base.side, name=base.name, land=base.land, sea=base.sea, source=base.source, routes=routes
        )
    blocks = read_records(c, f, doc.get("block", []), Block, name=lambda i, r: f"block #{i}")
    for i, blk in enumerate(blocks, 1):
        if len(blk.seas) != 2:
            c.add(f, f"block #{i}", "seas", "expected two sea zones")
    for isl in islands.values():
        for s in isl.seas:
            if s not in seas:
                c.add(f, isl.id, "seas", f"unknown sea zone {s!r}")
    for sea in seas.values():
        for s in sea.adjacent:
            if s not in seas:
                c.add(f, sea.id, "adjacent", f"unknown sea zone {s!r}")
            elif sea.id not in seas[s].adjacent:
                c.add(f, sea.id, "adjacent", f"{s} does not list {sea.id} back")
    for side in SIDES:
        if side not in bases:
            c.add(f, "base", "side", f"no base card for {side}")
    sea_graph: dict[str, set[str]] = {s: set(sea.adjacent) & set(seas) for s, sea in seas.items()}
    air_graph: dict[str, set[str]] = {z: set(n) for z, n in sea_graph.items()}
    for isl in islands.values():
        air_graph[isl.id] = {s for s in isl.seas if s in seas}
        for s in air_graph[isl.id]:
            air_graph[s].add(isl.id)
    for base in bases.values():
        sea_graph[base.sea] = set(base.routes)
        air_graph[base.sea] = {*base.routes, base.land}
        air_graph[base.land] = {base.sea}
        for r in base.routes:
            sea_graph[r].add(base.sea)
            air_graph[r].add(base.sea)
    return Board(
        islands,
        seas,
        bases,
        tuple(blocks),
        {k: frozenset(v) for k, v in sea_graph.items()},
        {k: frozenset(v) for k, v in air_graph.items()},
    )


def _check_neck(neck: Neck, units: dict[str, UnitType], c: Collector) -> None:
    """Twelve slots per category, each naming a unit type of that category (Appendix 2)."""
    f = "battlebox.toml"
    for cat in CATEGORIES:
        row = neck.slots[cat]
        if len(row) != 12:
            c.add(f, "neck", cat, f"expected 12 slots, got {len(row)}")
        for name in row:
            if name not in units:
                c.add(f, "neck", cat, f"unknown unit type {name!r}")
            elif units[name].category != cat:
                c.add(f, "neck", cat, f"{name} is not a {cat} unit")


def _rules(doc: dict[str, Any], c: Collector) -> Rules | None:
    f = "rules.toml"
    parts = (
        _table(c, f, doc, "victory", Victory),
        _table(c, f, doc, "income", Income),
        _table(c, f, doc, "airfields", AirfieldRules),
        _table(c, f, doc, "carriers", Carriers),
        _table(c, f, doc, "repair", Repair),
        _table(c, f, doc, "supply", SupplyCost),
        _table(c, f, doc, "first_player", FirstPlayer),
    )
    if any(p is None for p in parts):
        return None
    return Rules(*parts)  # type: ignore[arg-type]


def _setup(doc: dict[str, Any], board: Board, units: dict[str, UnitType], c: Collector) -> Setup | None:
    """The set-up's records, each naming zones, islands and unit types that exist."""
    f = "setup.toml"
    zones = set(board.zone_ids())
    airfields = read_records(c, f, doc.get("airfield", []), SetupAirfield, name=lambda i, r: f"airfield #{i}")
    for i, a in enumerate(airfields, 1):
        if a.island not in board.islands:
            c.add(f, f"airfield #{i}", "island", f"unknown island {a.island!r}")
    markers = _table(c, f, doc, "control", SetupControl)
    if markers is not None:
        seen: set[str] = set()
        for side in SIDES:
            for island in getattr(markers, side):
                if island not in board.islands:
                    c.add(f, "control", side, f"unknown island {island!r}")
                elif island in seen:
                    c.add(f, "control", side, f"{island} is controlled twice")
                seen.add(island)
        for island in board.islands:
            if island not in seen:
                c.add(f, "control", "", f"no control marker for {island}")

    def known(rid: str, key: str, table: dict[str, int]) -> None:
        for name in table:
            if name != SUPPLY and name not in units:
                c.add(f, rid, key, f"unknown unit type {name!r}")

    def placed(rid: str, zone: str) -> None:
        if zone not in zones:
            c.add(f, rid, "zone", f"unknown zone {zone!r}")

    places = read_records(c, f, doc.get("place", []), SetupPlace, name=lambda i, r: f"place #{i}")
    for i, place in enumerate(places, 1):
        rid = f"place #{i}"
        placed(rid, place.zone)
        known(rid, "units", place.units)
        for name in place.units:
            cat = "land" if name == SUPPLY else units[name].category if name in units else ""
            if place.zone in zones and cat == "sea" and not board.is_sea(place.zone):
                c.add(f, rid, "units", f"{name} cannot be placed on land zone {place.zone}")
            if place.zone in zones and cat == "land" and board.is_sea(place.zone):
                c.add(f, rid, "units", f"{name} cannot be placed in sea zone {place.zone} (use a [[ship]])")
    ships = read_records(c, f, doc.get("ship", []), SetupShip, name=lambda i, r: f"ship #{i}")
    for i, ship in enumerate(ships, 1):
        rid = f"ship #{i}"
        placed(rid, ship.zone)
        known(rid, "cargo", ship.cargo)
        ut = units.get(ship.type)
        if ut is None or ut.category != "sea":
            c.add(f, rid, "type", f"{ship.type!r} is not a sea unit type")
        elif sum(ship.cargo.values()):
            if ship.cargo.get("fighter", 0) and "flight_deck" not in ut.abilities:
                c.add(f, rid, "cargo", f"a {ship.type} cannot carry fighters")
            n_land = sum(v for k, v in ship.cargo.items() if k != "fighter")
            if n_land > ut.cargo:
                c.add(f, rid, "cargo", f"a {ship.type} has {ut.cargo} spaces, not {n_land}")
            for name in ship.cargo:
                if name not in (SUPPLY, "fighter") and name in units and units[name].category != "land":
                    c.add(f, rid, "cargo", f"{name} cannot be carried")
    if markers is None:
        return None
    return Setup(tuple(airfields), markers, tuple(places), tuple(ships))


def check_constraints(board: Board, setup: Setup, rules: Rules, c: Collector) -> None:
    """The facts docs/data.md and the manual fix about the AAG board and set-up."""
    f = "board.toml"
    caps = {
        "guadalcanal": 2,
        "bougainville": 2,
        "new_georgia": 2,
        "santa_isabel": 1,
        "malaita": 1,
        "choiseul": 1,
    }  # AAG Build Airfields
    if set(board.islands) != set(caps):
        c.add(f, "island", "id", f"expected the six islands {sorted(caps)}")
    for isl, cap in caps.items():
        if isl in board.islands and board.islands[isl].airfields != cap:
            c.add(f, isl, "airfields", f"the manual gives capacity {cap}")
    if sorted(board.seas) != [chr(ord("A") + i) for i in range(13)]:
        c.add(f, "sea", "id", "expected sea zones A to M")
    roles = {r: sorted(s.id for s in board.seas.values() if s.role == r) for r in ("ring", "slot")}
    if len(roles["ring"]) != 8:
        c.add(f, "sea", "role", f"eight sea zones ring the islands, found {len(roles['ring'])}")
    if len(roles["slot"]) != 3:
        c.add(f, "sea", "role", f"three sea zones form the Slot, found {len(roles['slot'])}")
    ring = set(roles["ring"])
    for z in ring:  # the ring is a cycle: each ring zone touches exactly two others
        if len(board.sea_graph[z] & ring) != 2:
            c.add(f, z, "adjacent", "a ring zone must touch exactly two other ring zones")
    for z in roles["slot"]:
        chains = {board.islands[i].chain for i in board.islands if z in board.islands[i].seas}
        if len(chains) != 2:
            c.add(f, z, "role", "a Slot zone lies between the two chains of islands")
    for z in ring:
        if not any(z in i.seas for i in board.islands.values()):
            c.add(f, z, "role", "a ring zone touches an island")
    # the two L shapes (docs/data.md)
    for chain, members, cap in (
        ("north", ("choiseul", "santa_isabel", "malaita"), 1),
        ("south", ("bougainville", "new_georgia", "guadalcanal"), 2),
    ):
        for isl in members:
            if isl in board.islands and (board.islands[isl].chain != chain or board.islands[isl].airfields != cap):
                c.add(f, isl, "chain", f"belongs to the {chain} L with {cap} airfield(s) each")
        for a, b in itertools.pairwise(members):
            if (
                a in board.islands
                and b in board.islands
                and not (set(board.islands[a].seas) & set(board.islands[b].seas))
            ):
                c.add(f, a, "seas", f"{a} and {b} are neighbours in their chain: share a sea zone")
    # the manual's movement examples
    us, jp = board.bases.get("us"), board.bases.get("jp")
    if us is None or us.id != "new_caledonia" or "J" not in board.sea_graph.get(us.sea, ()):
        c.add(f, "new_caledonia", "sea", "New Caledonia's sea zone must be one move from J")
    if jp is None or jp.id != "rabaul" or not jp.routes:
        c.add(f, "rabaul", "side", "Rabaul is Japan's base with at least one route-to-base zone")
    if "G" in board.sea_graph.get("I", ()):
        c.add(f, "I", "adjacent", "I and G are not adjacent (New Georgia lies between)")
    if "H" in board.sea_graph.get("C", ()):
        c.add(f, "C", "adjacent", "C and H are not adjacent (Santa Isabel lies between)")
    for isl, (a, b) in (("new_georgia", ("I", "G")), ("santa_isabel", ("C", "H"))):
        if isl in board.islands and not {a, b} <= set(board.islands[isl].seas):
            c.add(f, isl, "seas", f"{board.islands[isl].name} touches both {a} and {b}")
    if not ("santa_isabel" in board.air_graph.get("C", ()) and "H" in board.air_graph.get("santa_isabel", ())):
        c.add(f, "santa_isabel", "seas", "an air unit goes C -> Santa Isabel -> H")
    if us is not None and board.air_distances(us.land).get("J") != 2:
        c.add(f, "new_caledonia", "", "a fighter on New Caledonia reaches J in two moves")
    # blocks listed must be exactly the pairs the islands separate
    derived = set()
    for island in board.islands.values():
        for a, b in itertools.combinations(sorted(island.seas), 2):
            if b not in board.sea_graph.get(a, ()):
                derived.add((island.id, a, b))
    listed = {(blk.island, *sorted(blk.seas)) for blk in board.blocks}
    for extra in sorted(listed - derived):
        c.add(f, f"block {extra[0]}", "seas", f"{extra[1]}-{extra[2]} is not separated by {extra[0]}")
    for missing in sorted(derived - listed):
        c.add(f, f"block {missing[0]}", "seas", f"{missing[1]}-{missing[2]} blocked but not listed")
    for side in SIDES:
        if not any(side in s.deployment for s in board.seas.values()):
            c.add(f, "sea", "deployment", f"no deployment zone for {side}")
    # set-up facts fixed by the manual (AAG Game Setup)
    fs = "setup.toml"
    if sorted((a.island, a.side) for a in setup.airfields) != [("bougainville", "jp"), ("guadalcanal", "us")]:
        c.add(fs, "airfield", "", "the set-up has one US airfield on Guadalcanal, one Japanese on Bougainville")
    expected = {i: ("us" if i == "guadalcanal" else "jp") for i in caps}
    if setup.control != expected:
        c.add(fs, "control", "", "US control of Guadalcanal, Japanese control of the other islands")
    if rules.points_to_win != 15 or rules.income_base != 10 or rules.income_per_island != 4:
        c.add("rules.toml", "", "", "15 points to win and income 10 + 4 per island (AAG)")
