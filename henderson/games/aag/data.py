"""Load and validate the AAG data directory into frozen `model` records.

Every problem is collected in one pass (`file: record: field: what`) and raised
together; then the constraints docs/data.md lists for AAG are checked on the board.
"""

from __future__ import annotations

import itertools
from itertools import combinations
from pathlib import Path
from typing import Any

from henderson.core.data import Collector, content_version, load_toml
from henderson.games.aag.model import (
    CATEGORIES,
    SIDES,
    SUPPLY,
    Base,
    Block,
    Board,
    GameData,
    Island,
    Neck,
    Rules,
    Sea,
    Setup,
    SetupPlace,
    SetupShip,
    Token,
    UnitType,
)

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
ABILITIES = frozenset(
    {"ranged_fire", "torpedo", "resilience", "flight_deck", "capital", "heavy_armor", "token"}
)


def load_data(data_dir: Path | None = None) -> GameData:
    """Read and validate every AAG data file; DataErrors lists all problems at once."""
    data_dir = Path(data_dir) if data_dir else DATA_DIR
    c = Collector()
    raw: dict[str, dict[str, Any]] = {}
    for name in FILES:
        try:
            raw[name] = load_toml(data_dir / name)
        except Exception as exc:  # DataError: keep going to report every file
            c.errors.append(exc)  # type: ignore[arg-type]
            raw[name] = {}
    manifest = raw["game.toml"]
    c.field(manifest, "data_version", str, "game.toml", "game", default="?")  # an edition label, for people
    version = content_version(data_dir)
    if manifest and manifest.get("game") != "aag":
        c.add("game.toml", "game", "game", f"expected 'aag', got {manifest.get('game')!r}")
    if manifest:
        c.source(manifest, "game.toml", "game")
    units = _units(raw["units.toml"], c)
    board = _board(raw["board.toml"], c)
    neck = _neck(raw["battlebox.toml"], units, c)
    rules = _rules(raw["rules.toml"], c)
    setup = _setup(raw["setup.toml"], board, units, c)
    tokens = _tokens(raw["advantages.toml"], c)
    c.raise_if_any()
    check_constraints(board, units, setup, rules, c)
    c.raise_if_any()
    return GameData(board, units, neck, rules, setup, str(version), data_dir, tokens)


TOKEN_WINDOWS = {
    "command_decision": "combat:begin",
    "banzai_charge": "combat:before_land",
    "night_fighting": "combat:before_sea",
    "quick_drop": "move:end",
    "superior_fighters": "move:fighter",
    "good_logistics": "regroup:buy",
    "amphibious_assault": "combat:before_land",
    "pt_boats": "combat:before_sea",
    "coast_watchers": "move:any",
}


def _tokens(doc: dict[str, Any], c: Collector) -> tuple[Token, ...]:
    """The advantage tokens; the engine knows each effect, so ids and windows are checked."""
    f = "advantages.toml"
    out = []
    for i, rec in enumerate(doc.get("token", [])):
        rid = str(rec.get("id", f"token #{i + 1}"))
        src = c.source(rec, f, rid)
        side = c.field(rec, "side", str, f, rid, default="us")
        count = c.field(rec, "count", int, f, rid, default=0)
        window = c.field(rec, "window", str, f, rid, default="")
        if rid not in TOKEN_WINDOWS:
            c.add(f, rid, "id", f"unknown advantage (known: {', '.join(TOKEN_WINDOWS)})")
        elif window != TOKEN_WINDOWS[rid]:
            c.add(f, rid, "window", f"{rid} is spent in {TOKEN_WINDOWS[rid]}, not {window!r}")
        if side not in SIDES:
            c.add(f, rid, "side", f"expected us or jp, got {side!r}")
        out.append(Token(rid, side, count, window, src))
    for side in SIDES:
        total = sum(t.count for t in out if t.side == side)
        if out and total != 8:
            c.add(f, "token", "count", f"{side} has {total} advantage tokens, the game gives 8")
    return tuple(out)


def _units(doc: dict[str, Any], c: Collector) -> dict[str, UnitType]:
    f = "units.toml"
    out: dict[str, UnitType] = {}
    for i, rec in enumerate(doc.get("unit", [])):
        rid = rec.get("id", f"unit #{i + 1}")
        uid = c.field(rec, "id", str, f, rid, default="")
        src = c.source(rec, f, rid)
        category = c.field(rec, "category", str, f, rid, default="land")
        if category not in CATEGORIES:
            c.add(f, rid, "category", f"expected one of {', '.join(CATEGORIES)}, got {category!r}")
        cost = c.field(rec, "cost", int, f, rid, default=0)
        attack = c.field(rec, "attack", list, f, rid, default=[0, 0, 0])
        if len(attack) != 3 or not all(isinstance(a, int) and a >= 0 for a in attack):
            c.add(f, rid, "attack", "expected three non-negative integers [air, sea, land]")
            attack = [0, 0, 0]
        abilities = c.field(rec, "abilities", list, f, rid, default=[])
        for ab in abilities:
            if ab not in ABILITIES:
                c.add(f, rid, "abilities", f"unknown ability {ab!r}")
        cargo = c.field(rec, "cargo", int, f, rid, required=False, default=0)
        rng = c.field(rec, "range", int, f, rid, required=category == "air", default=0)
        if uid in out or uid == SUPPLY:
            c.add(f, rid, "id", "duplicate or reserved id")
        out[uid] = UnitType(
            uid,
            str(rec.get("name", uid)),
            category,
            cost,
            dict(zip(CATEGORIES, attack, strict=True)),
            frozenset(abilities),
            cargo,
            rng,
            src,
        )
    if not out:
        c.add(f, "", "unit", "no unit types")
    return out


def _board(doc: dict[str, Any], c: Collector) -> Board:
    f = "board.toml"
    islands: dict[str, Island] = {}
    for rec in doc.get("island", []):
        rid = rec.get("id", "?")
        src = c.source(rec, f, rid)
        cap = c.field(rec, "airfields", int, f, rid, default=0)
        seas = c.field(rec, "seas", list, f, rid, default=[])
        chain = c.field(rec, "chain", str, f, rid, default="")
        islands[rid] = Island(rid, str(rec.get("name", rid)), cap, chain, tuple(seas), src)
    seas_: dict[str, Sea] = {}
    for rec in doc.get("sea", []):
        rid = rec.get("id", "?")
        src = c.source(rec, f, rid)
        role = c.field(rec, "role", str, f, rid, default="ring")
        if role not in ("ring", "slot", "open"):
            c.add(f, rid, "role", f"expected ring, slot or open, got {role!r}")
        adj = c.field(rec, "adjacent", list, f, rid, default=[])
        route = c.field(rec, "route_to_base", str, f, rid, required=False)
        if route is not None and route not in SIDES:
            c.add(f, rid, "route_to_base", f"expected us or jp, got {route!r}")
        dep = c.field(rec, "deployment", dict, f, rid, required=False, default={})
        for side, n in dep.items():
            if side not in SIDES or not isinstance(n, int) or isinstance(n, bool) or n < 1:
                c.add(f, rid, "deployment", f"{side} = {n!r}: expected a side and a number >= 1")
        seas_[rid] = Sea(rid, role, tuple(adj), route, dict(dep), src)
    bases: dict[str, Base] = {}
    for rec in doc.get("base", []):
        rid = rec.get("id", "?")
        src = c.source(rec, f, rid)
        side = c.field(rec, "side", str, f, rid, default="us")
        routes = tuple(s.id for s in seas_.values() if s.route_to_base == side)
        bases[side] = Base(
            rid,
            side,
            str(rec.get("name", rid)),
            str(rec.get("land", rid)),
            str(rec.get("sea", f"{rid}_sea")),
            routes,
            src,
        )
    blocks = []
    for i, rec in enumerate(doc.get("block", [])):
        rid = f"block #{i + 1}"
        src = c.source(rec, f, rid)
        pair = c.field(rec, "seas", list, f, rid, default=["?", "?"])
        island = c.field(rec, "island", str, f, rid, default="?")
        if len(pair) != 2:
            c.add(f, rid, "seas", "expected two sea zones")
            continue
        blocks.append(Block(island, (pair[0], pair[1]), src))
    # cross-references
    for isl in islands.values():
        for s in isl.seas:
            if s not in seas_:
                c.add(f, isl.id, "seas", f"unknown sea zone {s!r}")
    for sea in seas_.values():
        for s in sea.adjacent:
            if s not in seas_:
                c.add(f, sea.id, "adjacent", f"unknown sea zone {s!r}")
            elif sea.id not in seas_[s].adjacent:
                c.add(f, sea.id, "adjacent", f"{s} does not list {sea.id} back")
    for side in SIDES:
        if side not in bases:
            c.add(f, "base", "side", f"no base card for {side}")
    sea_graph: dict[str, set[str]] = {s: set(sea.adjacent) & set(seas_) for s, sea in seas_.items()}
    air_graph: dict[str, set[str]] = {z: set(n) for z, n in sea_graph.items()}
    for isl in islands.values():
        air_graph[isl.id] = {s for s in isl.seas if s in seas_}
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
        seas_,
        bases,
        tuple(blocks),
        {k: frozenset(v) for k, v in sea_graph.items()},
        {k: frozenset(v) for k, v in air_graph.items()},
    )


def _neck(doc: dict[str, Any], units: dict[str, UnitType], c: Collector) -> Neck:
    f = "battlebox.toml"
    rec = doc.get("neck", {})
    src = c.source(rec, f, "neck")
    slots: dict[str, tuple[str, ...]] = {}
    for cat in CATEGORIES:
        row = c.field(rec, cat, list, f, "neck", default=[])
        if len(row) != 12:
            c.add(f, "neck", cat, f"expected 12 slots, got {len(row)}")
        for name in row:
            if name not in units:
                c.add(f, "neck", cat, f"unknown unit type {name!r}")
            elif units[name].category != cat:
                c.add(f, "neck", cat, f"{name} is not a {cat} unit")
        slots[cat] = tuple(row)
    hits = c.field(rec, "hit_values", list, f, "neck", default=[1, 2])
    return Neck(slots, frozenset(hits), src)


def _rules(doc: dict[str, Any], c: Collector) -> Rules:
    f = "rules.toml"
    sources: dict[str, str] = {}

    def num(table: str, key: str) -> int:
        rec = doc.get(table, {})
        if table not in sources:
            sources[table] = c.source(rec, f, table)
        return int(c.field(rec, key, int, f, table, default=0))

    first = doc.get("first_player", {})
    sources["first_player"] = c.source(first, f, "first_player")
    side = c.field(first, "side", str, f, "first_player", default="jp")
    if side not in SIDES:
        c.add(f, "first_player", "side", f"expected us or jp, got {side!r}")
    return Rules(
        num("victory", "points_to_win"),
        num("income", "base"),
        num("income", "per_island"),
        num("airfields", "build_cost"),
        num("airfields", "air_capacity"),
        num("airfields", "repair_cost"),
        num("carriers", "fighter_capacity"),
        num("repair", "sea_unit_cost"),
        num("supply", "cost"),
        side,
        sources,
    )


def _setup(doc: dict[str, Any], board: Board, units: dict[str, UnitType], c: Collector) -> Setup:
    f = "setup.toml"
    zones = set(board.zone_ids())
    airfields = []
    for i, rec in enumerate(doc.get("airfield", [])):
        rid = f"airfield #{i + 1}"
        src = c.source(rec, f, rid)
        island = c.field(rec, "island", str, f, rid, default="")
        side = c.field(rec, "side", str, f, rid, default="")
        if island not in board.islands:
            c.add(f, rid, "island", f"unknown island {island!r}")
        if side not in SIDES:
            c.add(f, rid, "side", f"expected us or jp, got {side!r}")
        airfields.append((island, side, src))
    ctrl = doc.get("control", {})
    csrc = c.source(ctrl, f, "control")
    control: dict[str, str] = {}
    for side in SIDES:
        for island in c.field(ctrl, side, list, f, "control", default=[]):
            if island not in board.islands:
                c.add(f, "control", side, f"unknown island {island!r}")
            elif island in control:
                c.add(f, "control", side, f"{island} is controlled twice")
            control[island] = side
    for island in board.islands:
        if island not in control:
            c.add(f, "control", "", f"no control marker for {island}")

    def pieces(rec: dict[str, Any], rid: str, key: str) -> dict[str, int]:
        table = c.field(rec, key, dict, f, rid, default={})
        for name, n in table.items():
            if name != SUPPLY and name not in units:
                c.add(f, rid, key, f"unknown unit type {name!r}")
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                c.add(f, rid, key, f"{name} = {n!r}: expected a count")
        return dict(table)

    def where(rec: dict[str, Any], rid: str) -> tuple[str, str]:
        side = c.field(rec, "side", str, f, rid, default="us")
        zone = c.field(rec, "zone", str, f, rid, default="")
        if side not in SIDES:
            c.add(f, rid, "side", f"expected us or jp, got {side!r}")
        if zone not in zones:
            c.add(f, rid, "zone", f"unknown zone {zone!r}")
        return side, zone

    places = []
    for i, rec in enumerate(doc.get("place", [])):
        rid = f"place #{i + 1}"
        src = c.source(rec, f, rid)
        side, zone = where(rec, rid)
        table = pieces(rec, rid, "units")
        for name in table:
            cat = "land" if name == SUPPLY else units[name].category if name in units else ""
            if zone in zones and cat == "sea" and not board.is_sea(zone):
                c.add(f, rid, "units", f"{name} cannot be placed on land zone {zone}")
            if zone in zones and cat == "land" and board.is_sea(zone):
                c.add(
                    f, rid, "units", f"{name} cannot be placed in sea zone {zone} (use a [[ship]])"
                )
        places.append(SetupPlace(side, zone, table, src))
    ships = []
    for i, rec in enumerate(doc.get("ship", [])):
        rid = f"ship #{i + 1}"
        src = c.source(rec, f, rid)
        side, zone = where(rec, rid)
        kind = c.field(rec, "type", str, f, rid, default="")
        cargo = pieces(rec, rid, "cargo")
        ut = units.get(kind)
        if ut is None or ut.category != "sea":
            c.add(f, rid, "type", f"{kind!r} is not a sea unit type")
        elif sum(cargo.values()):
            fighters = cargo.get("fighter", 0)
            if fighters and "flight_deck" not in ut.abilities:
                c.add(f, rid, "cargo", f"a {kind} cannot carry fighters")
            n_land = sum(v for k, v in cargo.items() if k != "fighter")
            if n_land > ut.cargo:
                c.add(f, rid, "cargo", f"a {kind} has {ut.cargo} spaces, not {n_land}")
            for name in cargo:
                if (
                    name not in (SUPPLY, "fighter")
                    and name in units
                    and units[name].category != "land"
                ):
                    c.add(f, rid, "cargo", f"{name} cannot be carried")
        ships.append(SetupShip(side, zone, kind, cargo, src))
    return Setup(tuple(airfields), control, csrc, tuple(places), tuple(ships))


def check_constraints(
    board: Board, units: dict[str, UnitType], setup: Setup, rules: Rules, c: Collector
) -> None:
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
            if isl in board.islands and (
                board.islands[isl].chain != chain or board.islands[isl].airfields != cap
            ):
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
    if "santa_isabel" in board.air_graph.get("C", ()) and "H" in board.air_graph.get(
        "santa_isabel", ()
    ):
        pass
    else:
        c.add(f, "santa_isabel", "seas", "an air unit goes C -> Santa Isabel -> H")
    if us is not None and board.air_distances(us.land).get("J") != 2:
        c.add(f, "new_caledonia", "", "a fighter on New Caledonia reaches J in two moves")
    # blocks listed must be exactly the pairs the islands separate
    derived = set()
    for isl in board.islands.values():
        for a, b in combinations(sorted(isl.seas), 2):
            if b not in board.sea_graph.get(a, ()):
                derived.add((isl.id, a, b))
    listed = {(blk.island, *sorted(blk.seas)) for blk in board.blocks}
    for extra in sorted(listed - derived):
        c.add(
            f, f"block {extra[0]}", "seas", f"{extra[1]}-{extra[2]} is not separated by {extra[0]}"
        )
    for missing in sorted(derived - listed):
        c.add(f, f"block {missing[0]}", "seas", f"{missing[1]}-{missing[2]} blocked but not listed")
    for side in SIDES:
        if not any(side in s.deployment for s in board.seas.values()):
            c.add(f, "sea", "deployment", f"no deployment zone for {side}")
    # set-up facts fixed by the manual (AAG Game Setup)
    fs = "setup.toml"
    if sorted((i, s) for i, s, _ in setup.airfields) != [
        ("bougainville", "jp"),
        ("guadalcanal", "us"),
    ]:
        c.add(
            fs,
            "airfield",
            "",
            "the set-up has one US airfield on Guadalcanal, one Japanese on Bougainville",
        )
    expected = {i: ("us" if i == "guadalcanal" else "jp") for i in caps}
    if setup.control != expected:
        c.add(fs, "control", "", "US control of Guadalcanal, Japanese control of the other islands")
    if rules.points_to_win != 15 or rules.income_base != 10 or rules.income_per_island != 4:
        c.add("rules.toml", "", "", "15 points to win and income 10 + 4 per island (AAG)")
