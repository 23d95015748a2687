"""Positions: the JSON round-trips, hand-written positions fill in defaults, and bad ones are refused
with the field named."""

from __future__ import annotations

import json

import pytest

from henderson.core.dice import ScriptedDice
from henderson.core.errors import PositionError

BASE = {"format": "henderson-position", "game": "firstblood", "version": 1, "turn": "OCT I", "phase": "us_movement"}


def test_new_game_round_trips(game):
    st = game.new_state(5)
    st.apply("setup default")
    st.apply("setup default")
    data = st.to_json()
    again = game.load_state(json.loads(json.dumps(data)))
    assert again.to_json() == data
    assert [str(a) for a in again.legal_actions()] == [str(a) for a in st.legal_actions()]


def test_minimal_hand_written_position(game):
    st = game.load_state({**BASE, "ground": {"1/1": "0906", "Kuma": "0015"}})
    assert st.mf["1/1"] == 12  # full movement by default, in half MF
    assert st.airfield["0708"] == "operational" and st.airfield["0604"] == "unbuilt"
    assert st.current_player() == "us"


def test_half_movement_points_are_kept(game):
    st = game.load_state({**BASE, "ground": {"1/1": "0906"}, "movement": {"1/1": 2.5}})
    assert st.mf == {"1/1": 5} and st.to_json()["half_mf"] == {"1/1": 5}  # version 2 counts half MF


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"format": "x"}, "format", "henderson-position"),
        ({"game": "aag"}, "game", "not 'firstblood'"),
        ({"version": 9}, "version", "unsupported"),
        ({"turn": "MAR I"}, "turn", "not a turn"),
        ({"phase": "lunch"}, "phase", "not a phase"),
        ({"ground": {"9/9": "0906"}}, "ground.9/9", "no such ground unit"),
        ({"ground": {"1/1": "9999"}}, "ground.1/1", "not a hex"),
        ({"ground": {"1/1": "A"}}, "ground.1/1", "only Japanese"),
        ({"ground": {"1/1": "EP1"}}, "ground.1/1", "other side"),
        ({"ground": {"1/1": "0906", "Kuma": "0906"}}, "ground", "share hex"),
        (
            {"phase": "us_combat", "ground": {"1/1": "0906", "2/1": "0906", "3/1": "0906", "1/5": "0906"}},
            "ground",
            "at most 3",
        ),
        (
            {
                "ground": {"1/1": "0906", "2/1": "0906", "3/1": "0906", "1/5": "0906"},
                "movement": {"1/1": 0, "2/1": 0, "3/1": 0, "1/5": 0},
            },
            "ground",
            "FB 5.0",
        ),
        ({"air": {"F4F-1": "ijaf_attack"}}, "air.F4F-1", "not a place"),
        ({"ships": {"DD-1": "0708"}}, "ships.DD-1", "ijn_reserve"),
        ({"airfields": {"0101": "operational"}}, "airfields.0101", "not an airfield"),
        ({"airfields": {"0708": "bombed"}}, "airfields.0708", "status"),
        ({"movement": {"1/1": "far"}, "ground": {"1/1": "0906"}}, "movement.1/1", "MF"),
        ({"dice": {"kind": "loaded"}}, "dice", "unknown dice kind"),
        ({"pending": [{"kind": "dance", "side": "us"}]}, "pending[0]", "decision"),
    ],
)
def test_bad_positions_name_the_field(game, change, field, words):
    with pytest.raises(PositionError) as err:
        game.load_state({**BASE, **change})
    assert err.value.where.startswith(field) and words in str(err.value)


def test_view_never_shows_the_dice(game):
    st = game.new_state(1234)
    for side in ("us", "jp", None):
        view = st.view(side)
        assert "dice" not in view and "seed" not in view and "1234" not in str(view)


def test_key_matches_the_position(game):
    """`key()` is equal for two states exactly when their positions (less dice, seed, ply) are."""
    import random

    def position(st):
        data = st.to_json()
        for field in ("dice", "seed", "ply"):
            data.pop(field, None)
        return json.dumps(data, sort_keys=True)

    seen: dict = {}
    for seed in range(3):
        st = game.new_state(seed)
        rng = random.Random(seed)
        for _ in range(400):
            if st.is_terminal():
                break
            k, p = st.key(), position(st)
            hash(k)
            assert seen.setdefault(k, p) == p
            twin = game.load_state(json.loads(json.dumps(st.to_json())))
            assert twin.key() == k
            acts = st.legal_actions()
            st.apply(acts[rng.randrange(len(acts))])
    positions = set(seen.values())
    assert len(positions) == len(seen)


# --- version 2, and version 1 migrated to it ----------------------------------------------------

V2 = {"format": "henderson-position", "game": "firstblood", "version": 2}


def test_a_version_1_position_reads_as_version_2(game):
    """Every version-1 field lands in its version-2 place: the turn counted from 1, the step, half MF,
    the decision taken first last, a loss's `then`/`survivors` as its `retreat`."""
    v1 = {
        **BASE,
        "turn": "OCT II",
        "phase": "us_combat",
        "ground": {"1/1": "0905", "2/1": "0907", "Kuma": "0906", "1/124": "A"},
        "boxes_visited": {"1/124": "A"},
        "airfields": {"0709": "damaged"},
        "specials": "committed",
        "combat": {
            "attacked": ["1/1"],
            "attacked_hexes": ["0906"],
            "must_attack": [],
            "must_defend": [],
            "building": None,
        },
        "pending": [
            {"kind": "lose", "side": "jp", "units": ["Kuma"], "count": 1, "rule": "FB 8.10"}
            | {"then": "retreat", "survivors": ["Kuma"]},
            {"kind": "advance", "side": "us", "units": ["1/1"], "hexes": ["0906"], "rule": "FB 8.10"},
        ],
    }
    st = game.load_state(v1)
    data = st.to_json()
    assert (data["version"], data["turn"], data["step"], data["entered"]) == (2, 5, "us_combat", True)
    assert st.turn_label == "OCT II" and st.airfield["0709"] == "damaged" and st.specials == "committed"
    assert [d["kind"] for d in data["pending"]] == ["advance", "lose"]  # the last is decided first
    assert data["pending"][1]["retreat"] == ["Kuma"] and st.current_player() == "jp"
    assert game.load_state(data).to_json() == data
    st.apply("lose Kuma")
    assert st.current_player() == "us" and [d.kind for d in st.pending] == ["advance"]


def test_a_version_1_position_stays_as_written_and_version_2_moves_on(game):
    """Version 1 never moved on by itself: a position at a step with nothing to decide stays there. Version 2
    is the kit's: it moves on to the first real decision."""
    old = game.load_state({**BASE, "turn": "SEP II", "phase": "us_engineer", "ground": {"1/1": "0906"}})
    assert old.step == "us_engineer" and [str(a) for a in old.legal_actions()] == ["end"]
    new = game.load_state({**V2, "turn": 2, "step": "us_engineer", "entered": True, "ground": {"1/1": "0906"}})
    assert new.step == "jp_reinforcement" and new.turn == 3 and new.current_player() == "jp"


def test_version_2_does_the_entry_work_of_a_step_not_entered(game):
    """`entered` false or left out: the step's entry work is done as the position is loaded (FB 7.0 arrivals,
    FB 14.1 the supply roll)."""
    st = game.load_state({**V2, "turn": 2, "step": "us_reinforcement", "ground": {"Kuma": "0015"}})
    assert st.to_place == ["1/7", "2/7", "3/7", "1/11"] and st.air["F4F-4"] == "usaf_reserve"
    supply = {**V2, "turn": 2, "step": "jp_supply", "ground": {"Kuma": "0015", "1/124": "A", "1/1": "0906"}}
    st = game.load_state(supply, dice=ScriptedDice([5]))  # 4-6: a Japanese unit is lost
    assert (st.step, st.current_player()) == ("jp_supply", "jp")
    assert sorted(str(a) for a in st.legal_actions()) == ["lose 1/124", "lose Kuma"]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"turn": 16}, "turn"),
        ({"step": "lunch"}, "step"),
        ({"phase": "us_combat"}, "phase"),
        ({"half_mf": {"1/1": 4}}, "half_mf"),
        ({"airfields": {"0708": "bombed"}}, "airfields.0708"),
        ({"ships": {"DD-1": "0708"}}, "ships.DD-1"),
        ({"pending": [{"kind": "dance", "side": "us"}]}, "pending[0].kind"),
        ({"pending": [{"kind": "lose", "side": "us", "units": ["9/99"]}]}, "pending[0].units"),
        ({"combat": {"building": {"defenders": ["9999"]}}}, "combat.building.defenders"),
        ({"combat": {"building": {"defenders": []}}}, "combat.building.defenders"),
        ({"specials": "sunk"}, "specials"),
        (  # FB 5.0: four in a hex at the start of a movement phase, none of them free to move
            {"step": "us_movement", "entered": False, "ground": dict.fromkeys(["1/1", "2/1", "3/1", "1/5"], "0906")}
            | {"held": ["1/1", "2/1", "3/1", "1/5"]},
            "ground",
        ),
    ],
)
def test_version_2_refuses_what_it_cannot_hold(game, change, field):
    base = {**V2, "turn": 2, "step": "us_combat", "entered": True, "ground": {"1/1": "0906"}}
    with pytest.raises(PositionError) as err:
        game.load_state({**base, **change})
    assert err.value.where == field


def test_the_benchmark_positions_still_load():
    """bench/positions/firstblood/*.json are version-1 positions: they load, and say the same in version 2."""
    from pathlib import Path

    from henderson import games

    game = games.get("firstblood")
    files = sorted((Path(__file__).parents[2] / "bench" / "positions" / "firstblood").glob("*.json"))
    assert len(files) == 3
    for path in files:
        v1 = json.loads(path.read_text())
        st = game.load_state(v1)
        assert v1["version"] == 1 and st.legal_actions() and st.turn_label == v1["turn"] and st.step == v1["phase"]
        v2 = st.to_json()
        again = game.load_state(v2)
        assert again.to_json() == v2 and [str(a) for a in again.legal_actions()] == [str(a) for a in st.legal_actions()]
