"""Random play through the public API over seeded games: invariants after every action, fog
of war in every view, legal actions that round-trip their notation, positions that survive
JSON, and records that replay to the same final position."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from henderson import games
from henderson.core.errors import IllegalAction, PositionError
from henderson.core.record import GameRecord, record_for, replay
from henderson.games.deluxe import load_game
from henderson.games.deluxe.rules.common import change_hf
from henderson.games.deluxe.units import UnitState

from .support import GAME, position

PLIES = 250  # per game here; longer runs belong in the simulator


def hidden_ids(state, viewer):
    """Enemy units the viewer may not see: under stealth, or below the top of a stack."""
    out = set()
    by_hex = {}
    for u in state.units.values():
        if u.on_map and u.side != viewer:
            by_hex.setdefault(u.at, []).append(u)
    for units in by_hex.values():
        shown = sorted((u for u in units if not u.stealth), key=lambda u: (u.order, u.id))
        out.update(u.id for u in units if u.stealth)
        out.update(u.id for u in shown[:-1])
    return out


def all_strings(obj):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield str(k)
            yield from all_strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from all_strings(v)
    elif isinstance(obj, str):
        yield obj


def play(seed, plies=PLIES):
    state = GAME.new_state(seed)
    record = record_for(GAME, state)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        acts = state.legal_actions()
        assert acts, state.summary()
        assert acts == state.legal_actions()  # deterministic
        ends = [a for a in acts if a.verb in ("end", "pass", "stop", "go")]
        action = rng.choice(ends) if ends and rng.random() < 0.35 else rng.choice(acts)
        assert GAME.parse_action(str(action)) == action
        player = state.current_player()
        events = state.apply(str(action))
        record.add(player, str(action), events)
        assert state.invariant_errors() == []
        for viewer in ("us", "jp"):
            secret = hidden_ids(state, viewer)
            if secret:
                seen = set(all_strings(state.view(viewer)))
                assert not (secret & seen), (viewer, secret & seen)
    return state, record


@pytest.mark.parametrize("seed", range(4))
def test_random_play_keeps_the_invariants_and_replays(seed):
    state, record = play(seed)
    again = replay(GameRecord.loads(record.dumps()), GAME)
    assert again.to_json() == state.to_json()


def test_position_json_round_trip():
    state, _ = play(7, plies=120)
    obj = json.loads(json.dumps(state.to_json()))
    loaded = GAME.load_state(obj)
    assert loaded.to_json() == state.to_json()
    assert [str(a) for a in loaded.legal_actions()] == [str(a) for a in state.legal_actions()]


def test_clone_is_independent():
    state, _ = play(3, plies=60)
    copy = state.clone()
    before = state.to_json()
    for _ in range(20):
        if copy.is_terminal():
            break
        copy.apply(copy.legal_actions()[-1])
    assert state.to_json() == before


def test_registry_and_protocol():
    game = games.get("deluxe")
    assert game.name == "deluxe" and game.sides == ("us", "jp")
    s = game.new_state(5)
    assert s.current_player() == "us" and not s.is_terminal() and s.winner() is None
    assert s.returns() == {"us": 0.0, "jp": 0.0}
    assert "turn 1" in game.render_text(s)


def test_illegal_action_names_the_rule():
    s = GAME.new_state(5)
    with pytest.raises(IllegalAction) as info:
        s.apply("move 7/1 3707")
    assert info.value.rule.startswith("DG ")
    with pytest.raises(IllegalAction, match="no unit 'XX'"):
        s.apply("land XX 3507")


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"turn": 27}, "turn"),
        ({"step": "lunch"}, "step"),
        ({"supply": {"us": 41}}, "supply.us"),
        ({"units": {"7/1": {"at": "3701"}}}, "units.7/1.at"),
        ({"units": {"7/1": {"at": "3707", "strength": 9}}}, "units.7/1.strength"),
        ({"units": {"ZZ": {"at": "3707"}}}, "units.ZZ"),
        ({"version": 3}, "version"),
    ],
)
def test_bad_positions_name_the_field(change, where):
    obj = position(5, "us_move", {})
    obj.update(change)
    with pytest.raises(PositionError, match=f"position: {where}"):
        GAME.load_state(obj)


def test_overstacked_position_is_refused():
    obj = position(5, "us_move", {u: "3707" for u in ("1/1", "1/2", "1/3", "5/1")})
    with pytest.raises(PositionError, match=r"DG 7\.5"):
        GAME.load_state(obj)


@settings(max_examples=3, deadline=None)
@given(st.integers(0, 2**32))
def test_any_seed_keeps_the_invariants(seed):
    state, _ = play(seed, plies=120)
    assert state.invariant_errors() == []


def test_pending_decisions_are_checked():
    obj = position(5, "us_combat", {})
    obj["pending"] = [
        {
            "kind": "assault",
            "side": "us",
            "attacker": "us",
            "stage": "lunch",
            "targets": ["3708"],
            "units": [],
            "support": {},
            "strain": 0,
            "ambush": False,
            "defend": 0,
            "banzai": False,
        }
    ]
    with pytest.raises(PositionError, match=r"pending\[0\]\.stage"):
        GAME.load_state(obj)
    obj["pending"] = [{"kind": "rabaul", "side": "jp", "count": 2}]
    with pytest.raises(PositionError, match=r"pending\[0\]\.strength"):
        GAME.load_state(obj)


class _NoCache(dict):
    """A cache that keeps nothing: every search is made afresh."""

    def __setitem__(self, key, value):
        pass


def test_cached_searches_change_nothing():  # the route and action caches are invisible
    plain = load_game()
    plain.route_cache = _NoCache()
    plain.allowed_cache = _NoCache()
    plain.detect_cache = _NoCache()
    plain.unit_actions = _NoCache()
    a, b = GAME.new_state(21), plain.new_state(21)
    rng = random.Random(21)
    for _ in range(150):
        if a.is_terminal():
            break
        acts = [str(x) for x in a.legal_actions()]
        assert acts == [str(x) for x in b.legal_actions()]
        choice = rng.choice(acts)
        a.apply(choice)
        b.apply(choice)
        assert a.to_json() == b.to_json()


def test_unit_copy_carries_every_field():  # clones must not lose any counter status
    s = GAME.new_state(1)
    u = s.units["7/1"]
    names = [f.name for f in dataclasses.fields(UnitState)]
    changes: dict[str, object] = {}
    for i, name in enumerate(names):
        value = getattr(u, name)
        if isinstance(value, bool):
            changes[name] = not value
        elif isinstance(value, int):
            changes[name] = value + i + 1
        elif name not in ("id", "side", "at"):
            changes[name] = f"x{i}"
    u = s.update(u, **changes)
    c = s.clone().units["7/1"]
    assert all(getattr(c, name) == getattr(u, name) for name in names)


def test_units_are_shared_with_a_clone_until_changed():  # copy on write: a change stays in its copy
    s = GAME.new_state(1)
    c = s.clone()
    assert c.units["7/1"] is s.units["7/1"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.units["7/1"].spent = 3  # type: ignore[misc]
    c.update(c.units["7/1"], spent=3)
    assert (c.units["7/1"].spent, s.units["7/1"].spent) == (3, 0)
    with pytest.raises(TypeError, match="no field 'speed'"):
        s.update(s.units["7/1"], speed=3)


def test_henderson_field_is_shared_with_a_clone_until_changed():  # DG 7.11 status, DG 9.3 control
    s = GAME.new_state(1)
    c = s.clone()
    assert c.airfield is s.airfield
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.airfield.status = 3  # type: ignore[misc]
    change_hf(c, -4, "us", [], "a test")
    assert (c.airfield.status, s.airfield.status) == (s.airfield.status - 4, s.airfield.status)


def test_a_position_written_with_the_old_side_name_loads():  # Japan was "japan", now "jp"
    obj = position(12, "jp_move", {"124/2": "3708", "7/1": "3707"}, supply={"us": 2, "jp": 3})
    old = json.loads(json.dumps(obj).replace('"jp', '"japan'))
    assert old["step"] == "japan_move" and old["units"]["124/2"]["side"] == "japan"
    old["henderson_field"] = {"status": 15, "control": "japan"}
    old["villages"] = {"6004": "japan"}
    s = GAME.load_state(old)
    assert s.step == "jp_move" and s.current_player() == "jp" and s.supply == {"us": 2, "jp": 3}
    assert s.airfield.control == "jp" and s.villages["6004"] == "jp" and s.units["124/2"].side == "jp"
    text = json.dumps(s.to_json())
    assert '"japan"' not in text and "japan_move" not in text


def test_the_drawn_event_and_rabaul_terms_are_shared_with_a_clone():  # DG 5.0, 10.2: replaced, never changed
    from henderson.games.deluxe.state import DrawnEvent, RabaulTerms

    s = GAME.new_state(1)
    s.this_turn.event = DrawnEvent("us", 3, "supply", "self", 2)
    s.next_turn.rabaul_bonus = RabaulTerms(2, 1, 3)
    c = s.clone()
    assert c.this_turn.event is s.this_turn.event and c.next_turn.rabaul_bonus is s.next_turn.rabaul_bonus
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.this_turn.event.amount = 1  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.next_turn.rabaul_bonus.count = 2  # type: ignore[misc]
