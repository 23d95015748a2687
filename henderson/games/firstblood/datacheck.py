"""The constraints docs/data.md fixes for FIRST BLOOD, checked on loaded data.

The rules' examples pin a few values of the printed map, counters and charts
(Henderson Field, the river at 0710, the ford, the ridge exceptions, SUY's
range, the entry points of FB 7.1 and 7.3, ...). `load_data` runs these checks
on every data directory, so a user's edited copy cannot silently contradict the
rules; each error names the file, the record and the rule.
"""

from __future__ import annotations

from collections import Counter

from henderson.core.data import Collector
from henderson.core.hexgrid import distance
from henderson.games.firstblood.model import FB_LAYOUT, FBData

HOLDING_BOXES = {
    "usaf_reserve": "us",
    "usaf_cap": "us",
    "usaf_ground_attack": "us",
    "ijaf_reserve": "jp",
    "ijaf_attack": "jp",
    "ijn_reserve": "jp",
    "ijn_attack": "jp",
}
NAMED_HEXES = ("0011", "0017", "0018", "0220", "0701", "0716", "1007")  # docs/data.md
TURNS = tuple(f"{m} {n}" for m in ("SEP", "OCT", "NOV", "DEC", "JAN") for n in ("I", "II", "III"))
JAPANESE_ENTRY = (1, 2, 3, 15, 16, 17)  # FB 7.2
US_ENTRY = tuple(range(4, 15))  # FB 7.1
GROUND_STACK = 3  # FB 5.0
AIR_STACK = 6  # FB 5.2, 12.1

# (a, b, hexside type, rule): FB 4.2, 4.4, 4.5
FIXED_HEXSIDES = (
    ("0710", "0809", "river", "FB 4.2"),
    ("0710", "0709", "river", "FB 4.2"),
    ("0710", "0810", "jungle", "FB 4.2"),
    ("0710", "0711", "clear", "FB 4.2"),
    ("0710", "0610", "clear", "FB 4.2"),
    ("0710", "0609", "clear", "FB 4.2"),
    ("0909", "0910", "ford", "FB 4.4"),
    ("0406", "0507", "clear", "FB 4.5"),
    ("0406", "0307", "clear", "FB 4.5"),
    ("0017", "0018", "clear", "FB 4.5"),
)
FIXED_TERRAIN = (
    ("0708", "clear", "FB 9.2"),
    ("0709", "clear", "FB 4.2"),
    ("0809", "jungle", "FB 4.2"),
)


def range_reaches(data_range: int, a: str, b: str) -> bool:
    """FB 9.2: range counts both the firing hex and the target hex."""
    return distance(FB_LAYOUT.to_hex(a), FB_LAYOUT.to_hex(b)) + 1 <= data_range


def check(c: Collector, data: FBData) -> None:
    """Record an error for every docs/data.md constraint the data breaks."""
    _map(c, data)
    _entries_and_boxes(c, data)
    _counters(c, data)
    _chart(c, data)
    _setup(c, data)


def _map(c: Collector, data: FBData) -> None:
    m = data.map
    f = "map.toml"
    rows = {FB_LAYOUT.to_offset(h)[0] for h in m.hexes}
    cols = {FB_LAYOUT.to_offset(h)[1] for h in m.hexes}
    if not (set(range(0, 13)) <= rows and set(range(1, 21)) <= cols):
        c.add(f, "grid", "rows", "the map must span at least rows 00-12 and columns 01-20 (docs/data.md)")
    for h in NAMED_HEXES:
        if h not in m.hexes:
            c.add(f, f"hex {h}", "", "missing: the rules name this hex (docs/data.md)")
    for h, terrain, rule in FIXED_TERRAIN:
        if h in m.hexes and m.hexes[h].terrain != terrain:
            c.add(f, f"hex {h}", "terrain", f"{m.hexes[h].terrain!r}, but {rule} makes it {terrain}")
    for a, b, kind, rule in FIXED_HEXSIDES:
        if a in m.hexes and b in m.hexes and m.hexside_type(a, b) != kind:
            c.add(
                f,
                f"hexside {a}-{b}",
                "type",
                f"{m.hexside_type(a, b)!r}, but {rule} makes it {kind}",
            )
    for h in ("0406", "0017", "0018"):  # FB 4.5: clear hexsides amid ridge hexsides
        if h in m.hexes and not any(kind == "ridge" for (a, b), (kind, _) in m.hexsides.items() if h in (a, b)):
            c.add(
                f,
                f"hex {h}",
                "hexsides",
                "no ridge hexside, but FB 4.5 puts it amid ridge hexsides",
            )
    henderson = m.airfields.get("henderson")
    if henderson is None:
        c.add(f, "airfield henderson", "", "missing (FB 9.2: Henderson Field, hexes 0708 and 0709)")
    else:
        if sorted(henderson.hexes) != ["0708", "0709"] or henderson.kind != "airfield":
            c.add(f, "airfield henderson", "hexes", "must be the airfield 0708 and 0709 (FB 9.2)")
        if not henderson.built:
            c.add(
                f,
                "airfield henderson",
                "built",
                "Henderson Field is operational at start (FB 12.3)",
            )
    strip = m.airfields.get("fighter_strip")
    if strip is None:
        c.add(f, "airfield fighter_strip", "", "missing (FB 11.2, 12.5: the Fighter Strip)")
    else:
        if len(strip.hexes) != 2 or strip.kind != "fighter_strip":
            c.add(
                f,
                "airfield fighter_strip",
                "hexes",
                "must be a fighter strip of two hexes (FB 11.2, 12.5)",
            )
        elif strip.hexes[1] not in _neighbour_ids(strip.hexes[0]):
            c.add(f, "airfield fighter_strip", "hexes", "its two hexes must be adjacent")
        if strip.built:
            c.add(f, "airfield fighter_strip", "built", "engineers build it during the game (FB 11.2)")
        if set(strip.hexes) & set(henderson.hexes if henderson else ()):
            c.add(f, "airfield fighter_strip", "hexes", "overlaps Henderson Field")
    for h in (*(henderson.hexes if henderson else ()), *(strip.hexes if strip else ())):
        if h in m.hexes and m.hexes[h].terrain != "clear":
            c.add(f, f"hex {h}", "terrain", "an airfield hex must be clear")
    if (m.setup_rows, m.setup_cols) != ((2, 12), (2, 15)):
        c.add(f, "setup_area", "rows", "FB 3.0 fixes rows 02 to 12 and columns 02 to 15")
    for hid, side in HOLDING_BOXES.items():
        box = m.holding_boxes.get(hid)
        if box is None:
            c.add(f, f"holding box {hid}", "", "missing")
        elif box.side != side:
            c.add(f, f"holding box {hid}", "side", f"must be {side}")
    for hid in set(m.holding_boxes) - set(HOLDING_BOXES):
        c.add(f, f"holding box {hid}", "id", f"unknown (expected {', '.join(HOLDING_BOXES)})")


def _neighbour_ids(h: str) -> set[str]:
    from henderson.core.hexgrid import neighbours

    out = set()
    for nb in neighbours(FB_LAYOUT.to_hex(h)):
        row, col = FB_LAYOUT.hex_to_offset(nb)
        if row >= 0 and col >= 0:
            out.add(FB_LAYOUT.from_offset(row, col))
    return out


def _entries_and_boxes(c: Collector, data: FBData) -> None:
    m = data.map
    f = "map.toml"
    for n in range(1, 18):
        ep = m.entry_points.get(n)
        want = "jp" if n in JAPANESE_ENTRY else "us"
        if ep is None:
            c.add(f, f"entry point {n}", "", "missing (FB 6.4: entry points 1 to 17)")
        elif ep.side != want:
            c.add(f, f"entry point {n}", "side", f"{ep.side!r}, but FB 7.1/7.2 make it {want}")
        elif ep.circled and want == "jp":
            c.add(f, f"entry point {n}", "circled", "only US entry points are circled (FB 7.1)")
    for n in set(m.entry_points) - set(range(1, 18)):
        c.add(f, f"entry point {n}", "number", "entry points are numbered 1 to 17 (FB 6.4)")
    if not any(ep.circled for ep in m.entry_points.values()):
        c.add(f, "entry points", "circled", "FB 7.1 names circled US entry points; none is circled")
    for n, h, rule in ((1, "0220", "FB 7.3"), (11, "1007", "FB 7.1")):
        ep = m.entry_points.get(n)
        if ep is not None and h not in ep.arrows:
            c.add(f, f"entry point {n}", "arrows", f"must include {h} ({rule})")
    if sorted(m.boxes) != ["A", "B", "C", "D"]:
        c.add(
            f,
            "boxes",
            "",
            f"expected boxes A, B, C, D (FB 6.0), found {', '.join(sorted(m.boxes))}",
        )
        return
    if sorted(b.order for b in m.boxes.values()) != [1, 2, 3, 4]:
        c.add(f, "boxes", "order", "the four boxes take the places 1 to 4 along the south edge")
    if [b.id for b in sorted(m.boxes.values(), key=lambda b: b.order)] not in (
        list("ABCD"),
        list("DCBA"),
    ):
        c.add(f, "boxes", "order", "boxes A to D lie in order along the south edge (FB 6.0)")
    if "0011" not in m.boxes["B"].arrows:
        c.add(f, "box B", "arrows", "must include 0011 (FB 6.2 example)")
    for box in m.boxes.values():
        takes = box.id in ("A", "D")
        if box.reinforcement != takes:
            c.add(f, f"box {box.id}", "reinforcement", f"must be {str(takes).lower()} (FB 7.2: A and D)")


def _counters(c: Collector, data: FBData) -> None:
    f = "counters.toml"
    suy = data.ground.get("SUY")
    if suy is None:
        c.add(f, "unit SUY", "", "missing (FB 9.2: the SUY artillery battalion)")
    else:
        if suy.side != "jp" or suy.range != 8:
            c.add(f, "unit SUY", "range", "SUY is Japanese artillery of range 8 (FB 9.2)")
        elif not range_reaches(8, "0701", "0708") or range_reaches(8, "0701", "0709"):
            c.add("map.toml", "hex 0701", "", "SUY at 0701 must reach 0708 and not 0709 (FB 9.2)")
    total = sum(u.cf for u in data.ground.values() if u.side == "jp" and u.is_artillery)
    if total != 19:
        c.add(f, "Japanese artillery", "cf", f"{total} combat factors in all, but FB 9.6 says 19")
    for uid, side, mf, turn, rule in (
        ("228/1", "jp", 8, "OCT III", "FB 7.3"),
        ("228/3", "jp", 8, "OCT III", "FB 7.3"),
        ("6DB", "us", 8, "OCT I", "FB 7.1"),
    ):
        unit = data.ground.get(uid)
        if unit is None:
            c.add(f, f"unit {uid}", "", f"missing ({rule})")
            continue
        if unit.side != side or unit.mf != mf:
            c.add(f, f"unit {uid}", "mf", f"{rule} makes it a {side} unit with movement 8")
        r = data.arrivals(turn, side)
        if r is None or uid not in r.units:
            c.add("turns.toml", f"arrival {turn} {side}", "units", f"must include {uid} ({rule})")
    for t in data.air_types.values():
        if t.id == "F4F" and set(t.roles) != {"fighter", "bomber"}:
            c.add(f, "air type F4F", "roles", "the F4F is both fighter and bomber (FB 13.1)")
    for s in ("us", "jp"):
        roles = {r for t in data.air_types.values() if t.side == s for r in t.roles}
        if roles != {"fighter", "bomber"}:
            c.add(f, f"air types {s}", "roles", "each side needs fighters and bombers (FB 13.1)")


def _chart(c: Collector, data: FBData) -> None:
    f = "turns.toml"
    if data.turns != TURNS:
        c.add(f, "chart", "turns", f"expected the 15 turns {TURNS[0]} ... {TURNS[-1]} (FB 2.0)")
    sp = data.special_ships
    if len(sp.ships) != 2 or any(data.ships[s].type != "DD" for s in sp.ships if s in data.ships):
        c.add(f, "special_ships", "ids", "the special IJN box holds two DDs (FB 10.1)")
    if sp.earliest in TURNS and TURNS.index(sp.earliest) < TURNS.index("OCT I"):
        c.add(f, "special_ships", "earliest", "OCT I or later (FB 10.1)")
    expanded = [s for s in data.ships.values() if s.arrives != "special"]
    if set(sp.ships) & {s.id for s in expanded}:
        c.add(f, "special_ships", "ids", "an id clashes with a counter of the chart")
    for r in data.reinforcements:
        if r.turn == "start" and r.side == "jp" and (r.air or r.naval):
            c.add(
                f,
                "arrival start jp",
                "",
                "Japanese at-start forces are ground units in boxes A/D (FB 3.1)",
            )
    if data.arrivals("start", "us") is None or data.arrivals("start", "jp") is None:
        c.add(f, "arrival start", "", "both sides need at-start forces (FB 3.0, 3.1)")


def _setup(c: Collector, data: FBData) -> None:
    """FB 3.0, 3.1, 5.0, 5.2: the default set-up places every at-start unit legally."""
    if not data.setup:
        return
    f = "setup.toml"
    m = data.map
    start = {s: data.arrivals("start", s) for s in ("us", "jp")}
    at_start = {u for r in start.values() if r for u in r.units}
    at_start_air = {a.id for a in data.air.values() if a.arrives == "start"}
    placed = {p.unit: p.at for p in data.setup}
    for uid in sorted(at_start | at_start_air):
        if uid not in placed:
            c.add(f, f"unit {uid}", "", "an at-start unit must be placed (FB 3.0, 3.1)")
    henderson = set(m.airfields["henderson"].hexes) if "henderson" in m.airfields else set()
    ground_count: Counter[str] = Counter()
    air_count: Counter[str] = Counter()
    for p in data.setup:
        record = f"place {p.at}"
        if p.unit in data.ground:
            unit = data.ground[p.unit]
            if p.unit not in at_start:
                c.add(f, record, "units", f"{p.unit} is not an at-start unit")
            if unit.side == "us":
                if p.at not in m.hexes:
                    c.add(
                        f,
                        record,
                        "units",
                        f"{p.unit}: US ground units set up on map hexes (FB 3.0)",
                    )
                else:
                    row, col = FB_LAYOUT.to_offset(p.at)
                    if not (m.setup_rows[0] <= row <= m.setup_rows[1] and m.setup_cols[0] <= col <= m.setup_cols[1]):
                        c.add(f, record, "at", f"{p.unit}: outside the US set-up area (FB 3.0)")
            elif p.at not in ("A", "D"):
                c.add(
                    f,
                    record,
                    "at",
                    f"{p.unit}: Japanese at-start units set up in box A or D (FB 3.1)",
                )
            if p.at in m.hexes:
                ground_count[p.at] += 1
        elif p.unit in data.air:
            if p.unit not in at_start_air:
                c.add(f, record, "units", f"{p.unit} is not an at-start air unit")
            if p.at not in henderson | {"usaf_cap", "usaf_ground_attack"}:
                c.add(
                    f,
                    record,
                    "at",
                    f"{p.unit}: US air units start on Henderson Field, USAF CAP or USAF Ground Attack (FB 3.0)",
                )
            if p.at in henderson:
                air_count[p.at] += 1
    for h, n in ground_count.items():
        if n > GROUND_STACK:
            c.add(f, f"place {h}", "units", f"{n} ground units, the limit is {GROUND_STACK} (FB 5.0)")
    for h, n in air_count.items():
        if n > AIR_STACK:
            c.add(f, f"place {h}", "units", f"{n} air units, the limit is {AIR_STACK} (FB 5.2)")
    sides: dict[str, set[str]] = {}
    for p in data.setup:
        if p.unit in data.ground and p.at in m.hexes:
            sides.setdefault(p.at, set()).add(data.ground[p.unit].side)
    for h, s in sides.items():
        if len(s) > 1:
            c.add(f, f"place {h}", "units", "American and Japanese units in one hex (FB 5.1)")
