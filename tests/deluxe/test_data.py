"""The shipped DG data loads, satisfies every constraint the rulebook fixes (docs/data.md), and a
broken data set is reported all at once, one `file: record: field: what` line per problem."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from henderson.core.data import load_toml, valid_source
from henderson.core.errors import DataErrors
from henderson.games.deluxe.data import DEFAULT_DIR, FILES, RATIOS, load_data

from .support import GAME

D = GAME.data
M = D.map


def test_every_record_has_a_valid_source():
    def walk(obj, where):
        if isinstance(obj, dict):
            if "source" in obj:
                assert valid_source(obj["source"]), where
            for k, v in obj.items():
                walk(v, f"{where}.{k}")
        elif isinstance(obj, list):
            for i, v in enumerate(obj):
                if isinstance(v, dict):
                    assert "source" in v, f"{where}[{i}] has no source"
                walk(v, f"{where}[{i}]")

    for name in FILES:
        if name != "sequence.toml":  # its steps cite their rule (`rule = "DG 4.0 step 7"`, core.sequence)
            walk(load_toml(DEFAULT_DIR / name), name)


@pytest.mark.parametrize(
    ("hex_id", "types"),
    [
        ("3707", {"clear"}),  # DG 2.1, 2.1.1 Henderson Field
        ("3907", {"clear"}),  # DG 2.1.1
        ("3908", {"jungle"}),  # DG 2.1.2
        ("3309", {"river"}),  # DG 2.1.3
        ("3209", {"river", "jungle", "village", "road", "coastal"}),  # DG 2.1.3 Matanikau
        ("3408", {"coastal"}),  # DG 2.1.5
        ("3308", {"road"}),  # DG 2.1.6
        ("3507", {"village"}),  # DG 2.1.7
    ],
)
def test_hexes_named_by_the_rules(hex_id, types):
    assert types <= M.hexes[hex_id].types()


def test_henderson_field_is_3707_and_not_a_village():  # DG 2.1, 2.1.7
    assert M.henderson_field == "3707"
    assert "village" not in M.hexes["3707"].types()


def test_slope_between_3212_and_3312_and_mount_austen_highest():  # DG 2.1.4
    assert "3312" in M.adjacent["3212"]
    assert M.slope("3212", "3312")
    top = M.hexes["3313"].level
    assert all(h.level < top for hid, h in M.hexes.items() if hid != "3313")


def test_villages_and_map_size():  # DG 2.1, 11.0; about 17 x 55 inches, long east-west
    assert {"Matanikau", "Kukum", "Aola", "Tasimboko"} <= set(M.villages.values())
    cols = {int(h[:2]) for h in M.hexes}
    rows = {int(h[2:]) for h in M.hexes}
    assert len(cols) > 3 * len(rows)


def test_turn_track():  # DG 2.1.8.1, 5.0, 7.9, 12.0
    assert len(D.turns) == 26
    assert [t.event for t in D.turns[:8]] == [""] * 8
    assert D.turn(9).event == "us" and D.turn(10).event == "jp" and D.turn(26).event == "jp"


def test_constants_fixed_by_the_text():
    c = D.constants
    assert (c.hf_start, c.hf_operational, c.supply_cap, c.vp_to_win) == (20, 10, 40, 61)
    assert (c.stacking, c.withdrawal_turn, c.japan_withdrawals_per_turn) == (3, 19, 10)


def test_attrition_table_columns_and_fixed_cells():
    assert set(D.attrition.results) == set(RATIOS)
    a, d = D.attrition.result("4-1", 5)  # DG 8.2.1.4 example
    assert (a.loss, d.loss, d.retreat, a.advance) == (1, 3, 3, 2)
    a, d = D.attrition.result("2-1", 6)  # DG 8.2 combat example
    assert (a.loss, a.retreat, d.loss) == (2, 1, 0)
    a, d = D.attrition.result("2-1", 3)
    assert (d.loss, d.retreat, a.advance, a.loss) == (1, 1, 1, 0)


def test_fire_table_matches_the_artillery_example():  # DG 8.1
    assert [D.hits(4, die) for die in (1, 3, 4)] == [1, 0, 0]
    assert D.hits(4, 2) == 0


def test_units_named_in_examples():
    assert D.units["124/2"].strength == 4 and D.units["124/2"].movement * 3 == 30  # DG 7.7, 8.1
    assert D.units["20Mt"].strength == 3 and D.units["20Mt"].artillery  # DG 8.1
    h = D.units["H1"]
    assert (h.rabaul_period, h.rabaul_periods, h.heavy) == (3, 2, True)  # DG 10.1
    ar = D.units["2Ar"]
    assert (ar.rabaul_period, ar.rabaul_periods) == (2, 3)  # DG 10.1
    assert len(D.cards) == 9 and all(c.us.title and c.jp.title for c in D.cards)  # DG 2.3


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(DEFAULT_DIR, target)
    return target


def test_broken_data_reports_every_problem_at_once(tmp_path):
    d = _copy(tmp_path)
    units = (d / "units.toml").read_text()
    units = units.replace('source = "rule DG 8.1 artillery example (20Mt', 'sauce = "x (20Mt', 1)
    (d / "units.toml").write_text(units)
    table = (d / "attrition.toml").read_text().replace('"0/0/2", "0/0/1"', '"0/0/2", "x/0/1"', 1)
    (d / "attrition.toml").write_text(table)
    with pytest.raises(DataErrors) as info:
        load_data(d)
    lines = str(info.value).splitlines()
    assert "units.toml: unit 20Mt: source: missing (every record needs its provenance)" in lines
    assert "units.toml: unit 20Mt: sauce: unknown field" in lines
    assert "attrition.toml: column 3-1: attacker: die 2: 'x/0/1' is not L/R/A" in lines
    assert len(lines) == 3


def test_constraint_errors_are_listed_together(tmp_path):
    d = _copy(tmp_path)
    mp = (d / "map.toml").read_text().replace('name = "Aola"', 'name = "Aola Bay"')
    (d / "map.toml").write_text(mp)
    rules = (d / "rules.toml").read_text().replace("stacking = 3", "stacking = 4")
    (d / "rules.toml").write_text(rules)
    with pytest.raises(DataErrors) as info:
        load_data(d)
    lines = str(info.value).splitlines()
    assert "rules.toml: game: stacking: must be 3 (rule DG 7.5), not 4" in lines
    assert any(line.startswith("map.toml: village: name: Aola must be a village") for line in lines)


def test_named_hex_with_wrong_terrain_is_reported(tmp_path):
    d = _copy(tmp_path)
    text = (d / "map.toml").read_text()
    text = text.replace('name = "Kukum"\nhex = "3507"', 'name = "Kukum"\nhex = "3508"')
    (d / "map.toml").write_text(text)
    with pytest.raises(DataErrors) as info:
        load_data(d)
    assert "map.toml: named 3507: is: 3507 must be village" in str(info.value)


def test_river_hexes_must_be_adjacent(tmp_path):
    d = _copy(tmp_path)
    text = (d / "map.toml").read_text().replace('"3311", "3310", "3309"', '"3311", "3309"')
    (d / "map.toml").write_text(text)
    with pytest.raises(DataErrors) as info:
        load_data(d)
    assert "map.toml: river Matanikau: hexes: 3311 and 3309 are not adjacent" in str(info.value)


def test_an_event_that_could_never_act_is_refused(tmp_path):  # DG 5.0 "lasts for this turn only"
    # the Japanese draw in step 11, after the US movement of step 7: slowing US movement then
    # would do nothing (the shipped card 7 weakens the US defenders instead)
    d = _copy(tmp_path)
    text = (d / "events.toml").read_text()
    old = 'kind = "defence", target = "enemy", amount = -1'
    assert old in text
    (d / "events.toml").write_text(text.replace(old, 'kind = "movement", target = "enemy", amount = -2'))
    with pytest.raises(DataErrors) as info:
        load_data(d)
    assert str(info.value).splitlines() == [
        "events.toml: card 7: jp: movement for us would never act: no move step of us follows the jp draw "
        "in the turn (rule DG 5.0)"
    ]


def _broken(tmp_path: Path, edits: dict[str, tuple[str, str]]) -> str:
    """The data set with `old` replaced by `new` in each file: its report, one line a problem."""
    d = _copy(tmp_path)
    for name, (old, new) in edits.items():
        text = (d / name).read_text()
        assert old in text, (name, old)
        (d / name).write_text(text.replace(old, new, 1))
    with pytest.raises(DataErrors) as info:
        load_data(d)
    return str(info.value)


def test_a_huge_count_is_refused_before_anything_is_built(tmp_path):
    report = _broken(
        tmp_path,
        {
            "map.toml": ("last_row = 21", "last_row = 100000000"),
            "artillery.toml": ("max_strength = 99", "max_strength = 100000000"),
        },
    )
    assert "map.toml: layout: last_row: expected an integer 0..99, got 100000000" in report
    assert "artillery.toml: fire band 13: max_strength: expected an integer 1..99, got 100000000" in report


def test_unknown_keys_are_refused_and_every_file_reported(tmp_path):
    report = _broken(
        tmp_path,
        {
            "terrain.toml": ("stealth_hex = 4", "stealth_hex = 4\nteleport = 0"),
            "rabaul.toml": ('colour = "yellow"', 'color = "yellow"'),
            "events.toml": ('kind = "supply", target = "enemy"', 'kind = "famine", target = "enemy"'),
        },
    )
    lines = report.splitlines()
    assert "terrain.toml: movement: teleport: unknown field" in lines
    assert "rabaul.toml: period 1: color: unknown field" in lines
    assert any(line.startswith("events.toml: card 1: us.kind: 'famine' is not one of") for line in lines)


def test_a_counters_kinds_are_read_from_its_type():  # DG 8.1, 10.2.3 note
    # the kinds kept on each printed counter once worked out are its type's, and keeping them
    # leaves the record equal to one read afresh
    import dataclasses

    for t in GAME.data.units.values():
        assert t.artillery == (t.type == "artillery") and t.infantry == (t.type in ("infantry", "heavy"))
        assert t == dataclasses.replace(t) and hash(t) == hash(dataclasses.replace(t))
