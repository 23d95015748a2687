"""The AAG data: every record has a source, and the board keeps every fact the manual and
docs/data.md fix (islands and capacities, sea zones A–M, the Slot, the two L shapes, the
movement examples, the base cards), with all errors of a broken directory in one report."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from henderson.core.data import load_toml, valid_source
from henderson.core.errors import DataErrors
from henderson.games.aag.data import DATA_DIR, FILES, load_data


@pytest.fixture(scope="module")
def data():
    return load_data()


def test_every_record_has_a_valid_source():
    for name in FILES:
        doc = load_toml(DATA_DIR / name)
        for key, value in doc.items():
            records = (
                value if isinstance(value, list) else [value] if isinstance(value, dict) else []
            )
            for rec in records:
                assert valid_source(rec.get("source")), f"{name}: {key}: {rec}"


def test_airfield_capacities_rule_aag_build_airfields(data):
    caps = {i.id: i.airfields for i in data.board.islands.values()}
    assert caps == {
        "guadalcanal": 2,
        "bougainville": 2,
        "new_georgia": 2,
        "santa_isabel": 1,
        "malaita": 1,
        "choiseul": 1,
    }


def test_sea_zones_ring_slot_and_open(data):
    assert sorted(data.board.seas) == list("ABCDEFGHIJKLM")
    roles = {
        r: sorted(s.id for s in data.board.seas.values() if s.role == r)
        for r in ("ring", "slot", "open")
    }
    assert len(roles["ring"]) == 8 and len(roles["slot"]) == 3


def test_two_l_shapes(data):
    chains = {}
    for isl in data.board.islands.values():
        chains.setdefault(isl.chain, set()).add(isl.id)
    assert sorted(map(sorted, chains.values())) == [
        ["bougainville", "guadalcanal", "new_georgia"],
        ["choiseul", "malaita", "santa_isabel"],
    ]


def test_new_caledonia_one_move_from_j_rule_aag_sea_movement_example(data):
    nc = data.board.bases["us"]
    assert nc.name == "New Caledonia" and "J" in data.board.sea_graph[nc.sea]
    assert data.board.bases["jp"].name == "Rabaul"


def test_i_and_g_not_adjacent_new_georgia_between(data):
    assert "G" not in data.board.sea_graph["I"]
    assert {"I", "G"} <= set(data.board.islands["new_georgia"].seas)


def test_c_and_h_air_goes_through_santa_isabel(data):
    assert "H" not in data.board.sea_graph["C"]
    assert (
        "santa_isabel" in data.board.air_graph["C"] and "H" in data.board.air_graph["santa_isabel"]
    )
    assert data.board.air_distances("C")["H"] == 2


def test_fighter_from_new_caledonia_reaches_j_in_two_rule_aag_air_movement_example(data):
    assert data.board.air_distances("new_caledonia")["J"] == 2
    assert data.board.air_distances("J")["guadalcanal"] == 1


def test_unit_statistics_rule_aag_units(data):
    stats = {
        k: (u.cost, u.attack["air"], u.attack["sea"], u.attack["land"])
        for k, u in data.units.items()
        if "token" not in u.abilities
    }
    assert stats == {
        "infantry": (1, 0, 0, 1),
        "artillery": (2, 0, 1, 1),
        "aa_gun": (2, 3, 0, 0),
        "transport": (2, 0, 0, 0),
        "submarine": (4, 0, 0, 0),
        "destroyer": (5, 1, 1, 0),
        "cruiser": (7, 1, 2, 1),
        "carrier": (7, 0, 0, 0),
        "battleship": (12, 1, 3, 2),
        "bomber": (5, 1, 2, 2),
        "fighter": (3, 2, 1, 1),
    }
    assert data.units["transport"].cargo == 2 and data.units["destroyer"].cargo == 1
    assert data.units["bomber"].range == 3 and data.units["fighter"].range == 2
    assert {k for k, u in data.units.items() if u.resilient} == {
        "destroyer",
        "cruiser",
        "carrier",
        "battleship",
    }
    assert {k for k, u in data.units.items() if u.capital} == {"carrier", "battleship"}
    assert data.rules.supply_cost == 2


def test_battle_box_neck_appendix_2(data):
    assert data.neck.slots["sea"][:6] == (
        "destroyer",
        "cruiser",
        "battleship",
        "carrier",
        "transport",
        "submarine",
    )
    assert data.neck.slots["air"][4:6] == ("bomber", "bomber")
    assert data.neck.slots["land"][5] == "aa_gun"
    assert data.neck.slot_of(12) == 1  # the 13th die is in slot 1 again


def test_setup_markers_rule_aag_game_setup(data):
    assert sorted((a.island, a.side) for a in data.setup.airfields) == [
        ("bougainville", "jp"),
        ("guadalcanal", "us"),
    ]
    assert data.setup.control["guadalcanal"] == "us"
    assert sum(1 for s in data.setup.control.values() if s == "jp") == 5


def _broken(tmp_path: Path, edits: dict[str, tuple[str, str]]) -> Path:
    target = tmp_path / "data"
    shutil.copytree(DATA_DIR, target)
    for name, (old, new) in edits.items():
        text = (target / name).read_text()
        assert old in text
        (target / name).write_text(text.replace(old, new, 1))
    return target


def test_broken_data_reports_every_error_at_once(tmp_path):
    path = _broken(
        tmp_path,
        {
            "units.toml": ('source = "rule AAG Units Infantry"', 'source = "a guess"'),
            "battlebox.toml": ('"destroyer", "cruiser"', '"destroyer", "fighter"'),
        },
    )
    with pytest.raises(DataErrors) as err:
        load_data(path)
    text = str(err.value)
    assert "units.toml: infantry: source:" in text
    assert "battlebox.toml: neck: sea: fighter is not a sea unit" in text


def test_constraint_i_g_adjacency_is_caught(tmp_path):
    path = _broken(
        tmp_path, {"board.toml": ('adjacent = ["E", "H"]', 'adjacent = ["E", "H", "I"]')}
    )
    with pytest.raises(DataErrors) as err:
        load_data(path)
    assert "does not list G back" in str(err.value)


def test_a_huge_count_is_refused_before_anything_is_built(tmp_path):
    """A count is checked against its range when the record is read: 100,000,000 infantry are
    refused at once, never placed."""

    path = _broken(tmp_path, {"setup.toml": ("infantry = 4,", "infantry = 100000000,")})
    with pytest.raises(DataErrors) as err:
        load_data(path)
    assert "setup.toml: place #1: units.infantry: expected an integer 0..99, got 100000000" in str(err.value)


def test_unknown_keys_and_every_problem_of_every_file_in_one_report(tmp_path):
    path = _broken(
        tmp_path,
        {
            "units.toml": ('name = "Cruiser"', 'name = "Cruiser"\ncolour = "grey"'),
            "board.toml": ('role = "slot"', 'role = "strait"'),
            "rules.toml": ("points_to_win = 15", "points_to_win = -1"),
            "advantages.toml": ('window = "move:end"', 'window = "combat:sea"'),
            "game.toml": ('game = "aag"', 'game = "chess"'),
        },
    )
    with pytest.raises(DataErrors) as err:
        load_data(path)
    text = str(err.value)
    assert "units.toml: cruiser: colour: unknown field" in text
    assert "board.toml: E: role: 'strait' is not one of 'ring', 'slot', 'open'" in text
    assert "rules.toml: victory: points_to_win: expected an integer 1..99, got -1" in text
    assert "advantages.toml: quick_drop: window: quick_drop is spent in move:end, not 'combat:sea'" in text
    assert "game.toml: game: game: 'chess' is not one of 'aag'" in text


def test_an_unknown_table_is_refused(tmp_path):
    path = _broken(tmp_path, {"board.toml": ("[[island]]", "[[isle]]\nid = 'x'\n\n[[island]]")})
    with pytest.raises(DataErrors) as err:
        load_data(path)
    assert "board.toml: isle: unknown table (expected island, sea, base, block)" in str(err.value)


def test_every_step_and_decision_names_a_phase_of_the_rules():
    """data/sequence.toml is the only list of steps: each names the phase of `rules/` that runs
    it, as each kind of decision does."""
    from henderson.core.sequence import Phase
    from henderson.games.aag.state import AAGDecision

    from .helpers import game

    state = game().new_state(1)
    refs = [step.phase for step, *_ in game().sequence().entries]
    refs += [kind.rules for kind in AAGDecision.__subclasses__()]
    assert all(isinstance(state.rules_named(ref), Phase) for ref in refs)
    ids = [step.id for step, *_ in game().sequence().entries]
    assert ids[0] == "setup" and ids[-1] == "regroup:score" and len(ids) == len(set(ids)) == 27
