"""The FIRST BLOOD data: every docs/data.md constraint on the shipped data, and the loader's checks.

Each constraint the rules fix is its own test naming the rule; broken copies of
the data (written to tmp_path) must be rejected with a message naming the file,
the record and the field.
"""

from __future__ import annotations

import dataclasses
import shutil
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from henderson.core.data import Collector, valid_source
from henderson.core.errors import DataErrors, HendersonError
from henderson.core.hexgrid import distance, neighbours
from henderson.games.firstblood import datacheck
from henderson.games.firstblood.data import DATA_DIR, adjacent, edge_hexes, load_data
from henderson.games.firstblood.datacheck import range_reaches
from henderson.games.firstblood.model import FB_LAYOUT, ODDS_COLUMNS, RESULT_CODES, FBData


@pytest.fixture(scope="module")
def data() -> FBData:
    return load_data()


def hx(hex_id: str):
    return FB_LAYOUT.to_hex(hex_id)


def neighbour_ids(hex_id: str) -> set[str]:
    return {FB_LAYOUT.to_id(n) for n in neighbours(hx(hex_id)) if min(FB_LAYOUT.hex_to_offset(n)) >= 0}


def move_cost(data: FBData, a: str, b: str) -> int:
    """FB 4.2.1: what crossing the hexside a-b costs (a test oracle, not the engine's code)."""
    kind = data.map.hexside_type(a, b)
    if kind == "river":
        return 4 if data.map.hexes[b].terrain == "jungle" else 3
    return {"clear": 1, "ford": 1, "jungle": 2, "ridge": 2}[kind]


# --- adjacency (docs/data.md) ----------------------------------------------------------


def test_adjacency_fb_4_2_example_0710():
    assert neighbour_ids("0710") == {"0709", "0711", "0809", "0810", "0609", "0610"}


def test_adjacency_fb_4_5_example_0406():
    assert {"0507", "0307"} <= neighbour_ids("0406")


def test_adjacency_fb_8_2_example():
    assert "0606" in neighbour_ids("0707")
    assert "0605" not in neighbour_ids("0707")
    assert "0604" in neighbour_ids("0705")


def test_adjacency_fb_9_3_example():
    assert {"0603", "0604"} <= neighbour_ids("0504")


def test_adjacency_rule_of_data_md():
    """Odd rows touch r±1 at c-1 and c; even rows at c and c+1."""
    for r in range(1, 12):
        for c in range(2, 20):
            hid = f"{r:02d}{c:02d}"
            off = (-1, 0) if r % 2 else (0, 1)
            want = {f"{r:02d}{c - 1:02d}", f"{r:02d}{c + 1:02d}"}
            want |= {f"{r + dr:02d}{c + d:02d}" for dr in (-1, 1) for d in off}
            assert neighbour_ids(hid) == want, hid


# --- the map ----------


def test_map_extent_and_hexes_named_by_the_rules(data):
    rows = {FB_LAYOUT.to_offset(h)[0] for h in data.map.hexes}
    cols = {FB_LAYOUT.to_offset(h)[1] for h in data.map.hexes}
    assert set(range(0, 13)) <= rows and set(range(1, 21)) <= cols
    assert rows <= set(range(0, 14)) and cols <= set(range(1, 23))
    for h in ("0011", "0017", "0018", "0220", "0701", "0716", "1007", "0202", "0215"):
        assert h in data.map.hexes


def test_north_coast_is_the_top(data):
    """History: the sea is north; only the highest rows are partial (hexes beyond the coast)."""
    for row in range(0, 10):
        for col in range(1, 21):
            if not (row <= 3 and col >= 21):
                assert f"{row:02d}{col:02d}" in data.map.hexes
    for col in range(1, 23):  # each column is one unbroken run of hexes up to the coast
        rows = sorted(FB_LAYOUT.to_offset(h)[0] for h in data.map.hexes if FB_LAYOUT.to_offset(h)[1] == col)
        assert rows == list(range(rows[0], rows[-1] + 1)) and rows[-1] >= 9


def test_henderson_field_fb_9_2(data):
    field = data.map.airfields["henderson"]
    assert sorted(field.hexes) == ["0708", "0709"] and field.built
    assert data.map.hexes["0708"].terrain == "clear"
    assert data.map.hexes["0709"].terrain == "clear"


def test_movement_example_fb_4_2(data):
    costs = {b: move_cost(data, "0710", b) for b in ("0809", "0709", "0810", "0711", "0610", "0609")}
    assert costs == {"0809": 4, "0709": 3, "0810": 2, "0711": 1, "0610": 1, "0609": 1}
    assert data.map.hexside_type("0710", "0809") == "river"
    assert data.map.hexside_type("0710", "0709") == "river"
    assert data.map.hexes["0809"].terrain == "jungle"
    assert data.map.hexside_type("0710", "0810") == "jungle"


def test_ford_fb_4_4(data):
    assert data.map.hexside_type("0909", "0910") == "ford"
    assert data.map.hexside_type("0910", "0909") == "ford"


def test_ridge_exceptions_fb_4_5(data):
    m = data.map
    for a, b in (("0406", "0507"), ("0406", "0307"), ("0017", "0018")):
        assert m.hexside_type(a, b) == "clear"
    for h in ("0406", "0017", "0018"):
        kinds = {m.hexside_type(h, n) for n in neighbour_ids(h) if n in m.hexes}
        assert "ridge" in kinds, h


def test_fighter_strip_fb_11_2_and_12_5(data):
    strip = data.map.airfields["fighter_strip"]
    assert strip.kind == "fighter_strip" and not strip.built and len(strip.hexes) == 2
    assert adjacent(*strip.hexes)
    for h in strip.hexes:  # history: Fighter One, about a mile (~3 hexes) east-south-east of the field
        assert 2 <= distance(hx(h), hx("0708")) <= 4
        row, col = FB_LAYOUT.to_offset(h)
        assert col < 8 and row <= 7
        assert data.map.hexes[h].terrain == "clear"


def test_suy_range_fb_9_2(data):
    suy = data.ground["SUY"]
    assert suy.side == "jp" and suy.range == 8 and suy.is_artillery
    assert range_reaches(suy.range, "0701", "0708")
    assert not range_reaches(suy.range, "0701", "0709")


def test_japanese_artillery_totals_19_fb_9_6(data):
    assert sum(u.cf for u in data.ground.values() if u.side == "jp" and u.is_artillery) == 19


def test_entry_point_1_and_the_228th_fb_7_3(data):
    assert "0220" in data.map.entry_points[1].arrows
    arrivals = data.arrivals("OCT III", "jp")
    for uid in ("228/1", "228/3"):
        unit = data.ground[uid]
        assert unit.side == "jp" and unit.mf == 8
        assert uid in arrivals.units


def test_entry_point_11_and_6db_fb_7_1(data):
    assert "1007" in data.map.entry_points[11].arrows
    unit = data.ground["6DB"]
    assert unit.side == "us" and unit.mf == 8
    assert "6DB" in data.arrivals("OCT I", "us").units


def test_entry_point_sides_fb_7_1_and_7_2(data):
    eps = data.map.entry_points
    assert sorted(eps) == list(range(1, 18))
    assert {n for n, e in eps.items() if e.side == "jp"} == {1, 2, 3, 15, 16, 17}
    assert any(e.circled for e in eps.values() if e.side == "us")
    assert not any(e.circled for e in eps.values() if e.side == "jp")


def test_entry_point_arrows_go_to_one_to_three_edge_hexes(data):
    edges = edge_hexes(data.map.hexes)
    for ep in data.map.entry_points.values():
        assert 1 <= len(ep.arrows) <= 3
        assert set(ep.arrows) <= edges, ep.number


def test_entry_points_lie_where_history_puts_them(data):
    """1-3 west, 15-17 east (Japanese); 4-14 US along the north coast, west to east."""

    def mean_col(n):
        arrows = data.map.entry_points[n].arrows
        return sum(FB_LAYOUT.to_offset(h)[1] for h in arrows) / len(arrows)

    assert all(mean_col(n) >= 18 for n in (1, 2, 3))
    assert all(mean_col(n) <= 2 for n in (15, 16, 17))
    us_cols = [mean_col(n) for n in range(4, 15)]
    assert us_cols == sorted(us_cols, reverse=True)


def test_boxes_fb_6_0_to_6_2_and_7_2(data):
    boxes = data.map.boxes
    assert sorted(boxes) == ["A", "B", "C", "D"]
    assert "0011" in boxes["B"].arrows
    assert [b.id for b in sorted(boxes.values(), key=lambda b: b.order)] == ["A", "B", "C", "D"]
    assert {b for b, box in boxes.items() if box.reinforcement} == {"A", "D"}
    for box in boxes.values():
        assert 1 <= len(box.arrows) <= 4
        assert all(FB_LAYOUT.to_offset(h)[0] == 0 for h in box.arrows)
    # A in the west (high columns) ... D in the east, in order
    mean = {b: sum(FB_LAYOUT.to_offset(h)[1] for h in box.arrows) / len(box.arrows) for b, box in boxes.items()}
    assert mean["A"] > mean["B"] > mean["C"] > mean["D"]


def test_holding_boxes(data):
    assert set(data.map.holding_boxes) == {
        "usaf_reserve",
        "usaf_cap",
        "usaf_ground_attack",
        "ijaf_reserve",
        "ijaf_attack",
        "ijn_reserve",
        "ijn_attack",
    }


def test_setup_area_fb_3_0(data):
    assert data.map.setup_rows == (2, 12) and data.map.setup_cols == (2, 15)


def river_components(data: FBData) -> list[set[tuple[str, str]]]:
    sides = [k for k, (kind, _) in data.map.hexsides.items() if kind in ("river", "ford")]
    comps: list[set[tuple[str, str]]] = []
    for s in sides:
        touching = [c for c in comps if any(len(set(s) | set(t)) == 3 and _meet(s, t) for t in c)]
        merged = {s}.union(*touching) if touching else {s}
        comps = [c for c in comps if c not in touching] + [merged]
    return comps


def _meet(x, y):
    a, b, c = sorted(set(x) | set(y))
    return adjacent(a, b) and adjacent(a, c) and adjacent(b, c)


def test_rivers_run_from_the_south_edge_to_the_coast(data):
    """History: the Lunga, the Ilu and the Matanikau flow north to the sea, along hexsides."""
    comps = river_components(data)
    assert len(comps) == 3
    edges = edge_hexes(data.map.hexes)
    for comp in comps:
        hexes = {h for side in comp for h in side}
        assert any(FB_LAYOUT.to_offset(h)[0] == 0 for h in hexes)
        top = max(FB_LAYOUT.to_offset(h)[0] for h in hexes)
        assert top >= 9 and any(h in edges and FB_LAYOUT.to_offset(h)[0] == top for h in hexes)


def test_lunga_west_of_the_field_ilu_east_matanikau_west(data):
    row7 = [(a, b) for (a, b), (k, _) in data.map.hexsides.items() if k == "river" and a[:2] == b[:2] == "07"]
    cols = sorted(min(FB_LAYOUT.to_offset(a)[1], FB_LAYOUT.to_offset(b)[1]) for a, b in row7)
    assert cols[0] < 8  # the Ilu, east of the field
    assert 9 in cols  # the Lunga, between 0709 and 0710
    assert cols[-1] > 14  # the Matanikau, far west


def test_edsons_ridge_south_of_the_field(data):
    ridge = {h for h, x in data.map.hexes.items() if x.terrain == "ridge"}
    assert {"0406", "0507", "0307"} <= ridge
    assert all(distance(hx(h), hx("0708")) <= 4 for h in ("0406", "0507", "0307"))


# --- counters and the Turn Record Chart ----------------------------------------------------


def test_turns_fb_2_0(data):
    months = ("SEP", "OCT", "NOV", "DEC", "JAN")
    assert data.turns == tuple(f"{m} {n}" for m in months for n in ("I", "II", "III"))


def test_every_ground_unit_arrives_exactly_once(data):
    seen = Counter(u for r in data.reinforcements for u in r.units)
    assert set(seen) == set(data.ground) and max(seen.values()) == 1


def test_order_of_battle(data):
    def arrives(uid):
        return next(r.turn for r in data.reinforcements if uid in r.units)

    start = set(data.arrivals("start", "us").units)
    assert {"1/1", "2/1", "3/1", "1/5", "2/5", "3/5", "1Rdr", "1Para"} <= start
    assert {arrives(u) for u in ("1/7", "2/7", "3/7")} == {"SEP II"}
    assert {arrives(u) for u in ("1/164", "2/164", "3/164")} == {"OCT II"}
    japanese_start = set(data.arrivals("start", "jp").units)
    assert {"1/124", "3/124"} <= japanese_start
    assert all(data.ground[u].side == "jp" for u in japanese_start)


def test_counter_values_in_the_usual_ranges(data):
    mfs = [u.mf for u in data.ground.values()]
    cfs = [u.cf for u in data.ground.values()]
    assert sum(2 <= m <= 8 for m in mfs) == len(mfs)
    assert sum(4 <= m <= 8 for m in mfs) >= 0.8 * len(mfs)
    assert sum(1 <= c <= 6 for c in cfs) == len(cfs)


def test_air_types_fb_13_1(data):
    assert set(data.air_types["F4F"].roles) == {"fighter", "bomber"}
    assert data.air_types["SBD"].roles == ("bomber",)
    for side in ("us", "jp"):
        types = [t for t in data.air_types.values() if t.side == side]
        assert any(t.is_fighter for t in types) and any(t.is_bomber for t in types)


def test_air_and_naval_counters_are_numbered_by_arrival_fb_7_6(data):
    for type_id in data.air_types:
        ids = [a.id for a in data.air.values() if a.type == type_id]
        assert ids == [f"{type_id}-{n}" for n in range(1, len(ids) + 1)]
        order = ("start", *data.turns)
        turns = [order.index(data.air[i].arrives) for i in ids]
        assert turns == sorted(turns)
    chart = Counter()
    for r in data.reinforcements:
        chart.update(r.air)
    assert chart == Counter(a.type for a in data.air.values())
    assert data.air["F4F-1"].arrives == "start"


def test_special_ijn_box_fb_10_1(data):
    sp = data.special_ships
    assert len(sp.ships) == 2
    assert all(data.ships[s].type == "DD" and data.ships[s].arrives == "special" for s in sp.ships)
    assert data.turns.index(sp.earliest) >= data.turns.index("OCT I")


def test_only_japanese_ships_fb_10_0(data):
    assert not any(r.naval for r in data.reinforcements if r.side == "us")
    assert "BB" in {s.type for s in data.ships.values() if s.arrives == "OCT II"}


# --- the attack tables ----------

STRENGTH = {code: i for i, code in enumerate(RESULT_CODES)}  # AE worst ... DE best for the attacker


def test_tables_complete_fb_8_6_and_8_10(data):
    assert set(data.tables) == {"us", "jp"}
    for table in data.tables.values():
        assert tuple(table.results) == ODDS_COLUMNS
        assert all(len(col) == 6 and set(col) <= set(RESULT_CODES) for col in table.results.values())


def test_tables_about_an_even_chance_of_de_at_3_1(data):
    for table in data.tables.values():
        assert 2 <= table.results["3-1"].count("DE") <= 4


def test_tables_better_odds_never_worse(data):
    for table in data.tables.values():
        for die in range(6):
            column = [STRENGTH[table.results[c][die]] for c in ODDS_COLUMNS]
            assert column == sorted(column)
        for col in table.results.values():  # a higher roll is never worse for the attacker
            assert [STRENGTH[x] for x in col] == sorted(STRENGTH[x] for x in col)


def test_american_table_favours_the_attacker_a_little_more(data):
    us, jp = data.tables["us"], data.tables["jp"]
    diffs = [STRENGTH[us.results[c][d]] - STRENGTH[jp.results[c][d]] for c in ODDS_COLUMNS for d in range(6)]
    assert min(diffs) >= 0 and 0 < sum(diffs) <= len(diffs)


def test_tables_littered_with_retreats_and_exchanges(data):
    for table in data.tables.values():
        cells = [x for col in table.results.values() for x in col]
        assert sum(x in ("EX", "DR", "A1", "D1", "A2") for x in cells) >= len(cells) / 2


# --- the default set-up ----------


def test_setup_fb_3_0_and_3_1(data):
    placed = {p.unit: p.at for p in data.setup}
    for uid in data.arrivals("start", "us").units:
        row, col = FB_LAYOUT.to_offset(placed[uid])
        assert 2 <= row <= 12 and 2 <= col <= 15, uid
    for uid in data.arrivals("start", "jp").units:
        assert placed[uid] in ("A", "D")
    field = set(data.map.airfields["henderson"].hexes) | {"usaf_cap", "usaf_ground_attack"}
    for a in data.air.values():
        if a.arrives == "start":
            assert placed[a.id] in field


def test_setup_stacking_fb_5_0_and_5_2(data):
    ground = Counter(p.at for p in data.setup if p.unit in data.ground and p.at in data.map.hexes)
    air = Counter(p.at for p in data.setup if p.unit in data.air and p.at in data.map.hexes)
    assert max(ground.values()) <= 3 and max(air.values()) <= 6


def test_setup_perimeter_around_the_lunga(data):
    """History: the US holds the ridge, the field, the Ilu line and the coast west of the Lunga."""
    placed = {p.at for p in data.setup if p.unit in data.ground}
    assert "0406" in placed  # Edson's Ridge
    assert all(distance(hx(h), hx("0708")) <= 8 for h in placed if h in data.map.hexes)


# --- balance (the reasoning of docs/firstblood-data.md) ----------


def _cf_by(data: FBData, side: str, last_turn: str) -> int:
    order = ("start", *data.turns)
    return sum(
        data.ground[u].cf
        for r in data.reinforcements
        if r.side == side and order.index(r.turn) <= order.index(last_turn)
        for u in r.units
        if not data.ground[u].is_artillery
    )


def test_balance_japanese_punch_early_us_mass_late(data):
    # September-October: the Japanese bring about as many infantry factors as the US holds
    assert _cf_by(data, "jp", "OCT III") >= 0.8 * _cf_by(data, "us", "OCT III")
    # December-January: the US outnumbers everything Japan ever lands by 7 to 4 or more,
    # before the supply losses (FB 14.1) and the losses of the Japanese offensives
    assert 4 * _cf_by(data, "us", "JAN III") >= 7 * _cf_by(data, "jp", "JAN III")
    late = sum(len(r.units) for r in data.reinforcements if r.side == "jp" and r.turn[:3] in ("DEC", "JAN"))
    assert late <= 3


# --- provenance ----------


def test_every_record_has_a_valid_source(data):
    m = data.map
    records = [
        *m.hexes.values(),
        *m.airfields.values(),
        *m.entry_points.values(),
        *m.boxes.values(),
        *m.holding_boxes.values(),
        *m.labels,
        *data.ground.values(),
        *data.air_types.values(),
        *data.ship_types.values(),
        *data.reinforcements,
        data.special_ships,
        *data.tables.values(),
        *data.setup,
    ]
    for r in records:
        assert valid_source(r.source), r
    for key, (_kind, source) in m.hexsides.items():
        assert valid_source(source), key


def test_every_toml_record_names_its_source():
    for path in sorted(DATA_DIR.glob("*.toml")):
        doc = tomllib.loads(path.read_text())
        for key, value in doc.items():
            if path.name == "sequence.toml":  # the kit's format: each step cites its rule (docs/architecture.md)
                assert all(valid_source(f"rule {step['rule']}") for step in value), (path.name, key)
            elif isinstance(value, list) and value and isinstance(value[0], dict):
                for rec in value:
                    units = rec.get("units") if key == "ground" else None
                    if units and all(isinstance(u, dict) for u in units) and "source" not in rec:
                        assert all("source" in u for u in units), (path.name, key)
                    else:
                        assert valid_source(rec.get("source")), (path.name, key, rec)
            elif isinstance(value, dict) and key != "results":
                assert valid_source(value.get("source")), (path.name, key)


def test_rule_fixed_values_cite_their_rule(data):
    assert "FB 9.2" in data.map.hexes["0708"].source
    assert "FB 4.4" in data.map.hexsides[("0909", "0910")][1]
    assert "FB 4.5" in data.map.hexsides[("0017", "0018")][1]
    assert "FB 7.3" in data.ground["228/1"].source and "FB 7.1" in data.ground["6DB"].source
    assert "FB 9.2" in data.ground["SUY"].source
    assert "FB 10.1" in data.special_ships.source


# --- broken copies ----------


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(DATA_DIR, target)
    return target


def edit(directory: Path, name: str, old: str, new: str) -> None:
    path = directory / name
    text = path.read_text()
    assert old in text, f"{old!r} not in {name}"
    path.write_text(text.replace(old, new, 1))


def errors_of(directory: Path) -> list[str]:
    with pytest.raises(DataErrors) as info:
        load_data(directory)
    assert isinstance(info.value, HendersonError)
    return [str(e) for e in info.value.errors]


def test_copy_of_the_data_loads(copy):
    assert load_data(copy).directory == copy


def test_malformed_toml_names_file_and_line(copy):
    edit(copy, "counters.toml", 'id = "6DB"\n', 'id = "6DB\n')
    (msg,) = errors_of(copy)  # nothing is cross-checked against a file that cannot be read
    assert msg.startswith("counters.toml: malformed TOML") and "line" in msg


def test_missing_file(copy):
    (copy / "tables.toml").unlink()
    assert "tables.toml: file not found" in errors_of(copy)


def test_unknown_hex_in_an_arrow(copy):
    edit(copy, "map.toml", 'arrows = ["0622", "0722", "0822"]', 'arrows = ["0622", "0722", "4022"]')
    assert "map.toml: entry point 2: arrows: arrow to 4022, which is not a hex of the map" in errors_of(copy)


def test_unknown_hex_in_a_terrain_record(copy):
    edit(copy, "map.toml", 'id = "0809"', 'id = "1501"')
    assert "map.toml: hex 1501: id: not a hex of the grid" in errors_of(copy)


def test_bad_terrain_letter(copy):
    edit(copy, "map.toml", "\n05     j   j", "\n05     x   j")
    assert "map.toml: hex 0522: terrain: 'x' is not c (clear), j (jungle), r (ridge) or . (no hex)" in errors_of(copy)


def test_hexside_between_non_adjacent_hexes(copy):
    edit(copy, "map.toml", '"0406-0507", "0406-0307"', '"0406-0507", "0406-0307", "0101-0303"')
    msgs = errors_of(copy)
    assert any("0101-0303: 0101 and 0303 are not adjacent" in m for m in msgs)


def test_broken_river_chain(copy):
    edit(copy, "map.toml", '"0910-0809",', "")
    msgs = errors_of(copy)
    assert any(m.startswith("map.toml: river Lunga River: hexsides: 0809-0810 and 0909-0910 do not meet") for m in msgs)


def test_dangling_unit_in_an_arrival(copy):
    edit(
        copy,
        "turns.toml",
        'units = ["1/7", "2/7", "3/7", "1/11"]',
        'units = ["1/7", "2/7", "3/7", "1/11", "9/99"]',
    )
    assert "turns.toml: arrival SEP II us: units: unknown unit '9/99'" in errors_of(copy)


def test_dangling_air_type(copy):
    edit(copy, "turns.toml", "air = { SBD = 1, TBF = 1 }", "air = { SBD = 1, B17 = 1 }")
    assert "turns.toml: arrival SEP I us: air: unknown air type 'B17' for this side" in errors_of(copy)


def test_unit_at_start_and_again_as_reinforcement(copy):
    edit(
        copy,
        "turns.toml",
        'units = ["1/7", "2/7", "3/7", "1/11"]',
        'units = ["1/7", "2/7", "3/7", "1/11", "1/5"]',
    )
    assert "turns.toml: arrival SEP II us: units: 1/5 arrives already at start" in errors_of(copy)


def test_duplicate_unit_id(copy):
    edit(copy, "counters.toml", '{ id = "3/7", name', '{ id = "2/7", name')
    msgs = errors_of(copy)
    assert "counters.toml: unit 2/7: id: duplicate unit id" in msgs


def test_unit_without_source(copy):
    edit(
        copy,
        "counters.toml",
        'source = "history: the 1st Tank Battalion',
        'note = "history: the 1st Tank Battalion',
    )
    msgs = errors_of(copy)
    assert "counters.toml: unit 1Tank: source: missing (every record needs its provenance)" in msgs


def test_invalid_source(copy):
    edit(
        copy,
        "map.toml",
        'source = "rule FB 4.4: the ford between 0909 and 0910"',
        'source = "the rulebook"',
    )
    msgs = errors_of(copy)
    assert any(m.startswith("map.toml: hexside record #2 (ford): source: 'the rulebook' is not") for m in msgs)


def test_table_with_a_missing_cell_and_an_unknown_code(copy):
    edit(
        copy,
        "tables.toml",
        '"1-1" = ["AE", "A2", "A1", "EX", "DR", "D1"]',
        '"1-1" = ["AE", "A2", "A1", "EX", "DR"]',
    )
    edit(
        copy,
        "tables.toml",
        '"3-1" = ["EX", "DR", "D1", "DE", "DE", "DE"]',
        '"3-1" = ["EX", "DR", "D1", "DE", "DE", "XX"]',
    )
    msgs = errors_of(copy)
    assert "tables.toml: table jp: results.1-1: expected six results, for die rolls 1 to 6" in msgs
    assert "tables.toml: table us: results.3-1: die 6: 'XX' is not AE, A2, A1, EX, DR, D1 or DE" in msgs


def test_data_md_constraint_the_ford_fb_4_4(copy):
    edit(copy, "map.toml", 'type = "ford"', 'type = "river"')
    assert errors_of(copy) == ["map.toml: hexside 0909-0910: type: 'river', but FB 4.4 makes it ford"]


def test_data_md_constraint_henderson_clear_fb_9_2(copy):
    edit(copy, "map.toml", 'id = "0708"\nterrain = "clear"', 'id = "0708"\nterrain = "jungle"')
    msgs = errors_of(copy)
    assert "map.toml: hex 0708: terrain: 'jungle', but FB 9.2 makes it clear" in msgs


def test_data_md_constraint_suy_range_fb_9_2(copy):
    edit(copy, "counters.toml", "cf = 6, range = 8, mf = 3", "cf = 6, range = 9, mf = 3")
    assert "counters.toml: unit SUY: range: SUY is Japanese artillery of range 8 (FB 9.2)" in errors_of(copy)


def test_data_md_constraint_artillery_total_fb_9_6(copy):
    edit(
        copy,
        "counters.toml",
        '"38Mt", name = "38th Mountain Artillery Regiment", cf = 2',
        '"38Mt", name = "38th Mountain Artillery Regiment", cf = 3',
    )
    assert "counters.toml: Japanese artillery: cf: 20 combat factors in all, but FB 9.6 says 19" in errors_of(copy)


def test_data_md_constraint_setup_stacking_fb_5_0(copy):
    edit(copy, "setup.toml", 'units = ["2/11", "3/11"]', 'units = ["2/11", "3/11", "1Tank", "1Pio"]')
    edit(copy, "setup.toml", 'at = "0707"\nunits = ["1Tank"]', 'at = "0707"\nunits = []')
    edit(copy, "setup.toml", 'at = "1008"\nunits = ["1Pio"]', 'at = "1008"\nunits = []')
    assert errors_of(copy) == ["setup.toml: place 0808: units: 4 ground units, the limit is 3 (FB 5.0)"]


def test_all_problems_in_one_pass(copy):
    edit(copy, "map.toml", 'type = "ford"', 'type = "river"')  # a docs/data.md constraint ...
    edit(copy, "turns.toml", 'units = ["228/1", "228/3"]', 'units = ["228/1", "228/3", "ZZZ"]')
    edit(copy, "counters.toml", 'id = "6DB"\n', 'id = "6DB"\nextra = 1\n')
    msgs = errors_of(copy)
    assert "turns.toml: arrival OCT III jp: units: unknown unit 'ZZZ'" in msgs
    assert "counters.toml: ground group #8: extra: unknown field" in msgs
    assert len(msgs) == 2  # ... is only checked once the data is well-formed


def test_duplicate_terrain_record(copy):
    edit(copy, "map.toml", 'id = "0809"', 'id = "0708"')
    assert "map.toml: hex 0708: id: a second [[hex]] record for this hex" in errors_of(copy)


def test_grid_row_of_the_wrong_length(copy):
    edit(copy, "map.toml", "\n05     j   j", "\n05     j")
    assert "map.toml: grid: row 05: has 21 hexes, expected 22 (one per column)" in errors_of(copy)


def test_setup_is_optional(copy):
    (copy / "setup.toml").unlink()
    assert load_data(copy).setup == ()


def test_setup_outside_the_us_area_fb_3_0(copy):
    edit(copy, "setup.toml", 'at = "1112"', 'at = "1116"')
    assert errors_of(copy) == ["setup.toml: place 1116: at: 1/5: outside the US set-up area (FB 3.0)"]


def test_japanese_setup_only_in_boxes_a_and_d_fb_3_1(copy):
    edit(copy, "setup.toml", 'at = "A"', 'at = "B"')
    assert errors_of(copy) == ["setup.toml: place B: at: 2/124: Japanese at-start units set up in box A or D (FB 3.1)"]


def test_entry_point_side_fb_7_2(copy):
    edit(copy, "map.toml", 'number = 16\nside = "jp"', 'number = 16\nside = "us"')
    assert errors_of(copy) == ["map.toml: entry point 16: side: 'us', but FB 7.1/7.2 make it jp"]


def test_boxes_out_of_order_fb_6_0(copy):
    edit(copy, "map.toml", 'id = "B"\norder = 2', 'id = "B"\norder = 3')
    edit(copy, "map.toml", 'id = "C"\norder = 3', 'id = "C"\norder = 2')
    assert errors_of(copy) == ["map.toml: boxes: order: boxes A to D lie in order along the south edge (FB 6.0)"]


def test_fighter_strip_built_at_start_fb_11_2(copy):
    edit(
        copy,
        "map.toml",
        'hexes = ["0605", "0604"]\nbuilt = false',
        'hexes = ["0605", "0604"]\nbuilt = true',
    )
    assert errors_of(copy) == ["map.toml: airfield fighter_strip: built: engineers build it during the game (FB 11.2)"]


def test_special_box_too_early_fb_10_1(copy):
    edit(copy, "turns.toml", 'earliest = "OCT I"', 'earliest = "SEP III"')
    assert errors_of(copy) == ["turns.toml: special_ships: earliest: OCT I or later (FB 10.1)"]


def test_the_228th_must_arrive_oct_iii_fb_7_3(copy):
    edit(copy, "turns.toml", 'units = ["228/1", "228/3"]', 'units = ["228/1"]')
    edit(copy, "turns.toml", 'units = ["228/2", "230/1"]', 'units = ["228/2", "230/1", "228/3"]')
    assert errors_of(copy) == ["turns.toml: arrival OCT III jp: units: must include 228/3 (FB 7.3)"]


def test_map_too_small(data):
    """docs/data.md: at least rows 00-12 and columns 01-20 (checked on the model: a file edit would
    first break the entry points and boxes that point at the missing hexes)."""
    hexes = {h: x for h, x in data.map.hexes.items() if not h.startswith("12")}
    small = dataclasses.replace(data, map=dataclasses.replace(data.map, hexes=hexes))
    c = Collector()
    datacheck.check(c, small)
    want = "map.toml: grid: rows: the map must span at least rows 00-12 and columns 01-20 (docs/data.md)"
    assert want in [str(e) for e in c.errors]


def test_an_unknown_key_is_refused(copy):
    edit(copy, "map.toml", 'number = 16\nside = "jp"', 'number = 16\ncolour = "red"\nside = "jp"')
    assert "map.toml: entry point 16: colour: unknown field" in errors_of(copy)


def test_a_huge_count_is_refused_before_any_counter_is_built(copy):
    """FB 7.6 numbers the air and naval counters from the chart's counts: a count is checked (at most 99 of a
    type on a turn) before the counters are made, so a hundred million is refused at once, not built."""
    edit(copy, "turns.toml", "air = { SBD = 1, TBF = 1 }", "air = { SBD = 100000000, TBF = 1 }")
    msgs = errors_of(copy)
    assert "turns.toml: arrival SEP I us: air.SBD: expected an integer 1..99, got 100000000" in msgs


def test_the_sequence_of_play_is_checked_with_the_rest(copy):
    """data/sequence.toml (FB 3.2, the only list of the steps) is checked in the same pass as the other files."""
    edit(copy, "sequence.toml", 'phase = "supply"', 'phase = "supply"\nwhen = "fog"')
    edit(copy, "turns.toml", 'units = ["228/1", "228/3"]', 'units = ["228/1", "228/3", "ZZZ"]')
    msgs = errors_of(copy)
    assert "sequence.toml: step[3]: when: 'fog' is not an option of the game" in msgs
    assert "turns.toml: arrival OCT III jp: units: unknown unit 'ZZZ'" in msgs
