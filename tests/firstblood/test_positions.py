"""Positions: the JSON round-trips, hand-written positions fill in defaults, and bad ones are refused
with the field named."""

from __future__ import annotations

import json

import pytest

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
