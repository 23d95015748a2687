"""The core's dice sources and game records."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from henderson import games
from henderson.core.dice import DiceExhausted, ExternalDice, ScriptedDice, SeededDice, dice_from_json
from henderson.core.errors import RecordError
from henderson.core.events import Event, roll_event
from henderson.core.record import GameRecord, record_for, replay


@given(st.integers(min_value=0, max_value=2**62), st.integers(min_value=2, max_value=20))
def test_seeded_dice_are_reproducible_and_in_range(seed, sides):
    a, b = SeededDice(seed), SeededDice(seed)
    rolls = [a.roll("test", sides) for _ in range(20)]
    assert rolls == [b.roll("test", sides) for _ in range(20)]
    assert all(1 <= r <= sides for r in rolls)


def test_seeded_dice_clone_and_store():
    d = SeededDice(42)
    d.roll("x")
    twin = d.clone()
    stored = dice_from_json(json.loads(json.dumps(d.to_json())))
    assert [d.roll("x") for _ in range(5)] == [twin.roll("x") for _ in range(5)] == [stored.roll("x") for _ in range(5)]


def test_seeded_dice_are_fair_enough():
    d = SeededDice(7)
    counts = Counter(d.roll("x") for _ in range(60000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(abs(c - 10000) < 500 for c in counts.values())  # about 5 standard deviations


def test_scripted_and_external_dice():
    d = ScriptedDice([3, 6])
    assert d.roll("a") == 3 and d.roll("b") == 6
    with pytest.raises(DiceExhausted, match="for c"):
        d.roll("c")
    with pytest.raises(DiceExhausted):
        ScriptedDice([7]).roll("d6")
    asked = []
    e = ExternalDice(lambda purpose, sides: asked.append(purpose) or 4)
    assert e.roll("FB 14.1 supply") == 4 and asked == ["FB 14.1 supply"]
    with pytest.raises(ValueError, match="unknown dice kind"):
        dice_from_json({"kind": "loaded"})


def test_roll_event_names_its_purpose():
    e = roll_event("FB 14.1 supply roll", 6, 5)
    assert e.kind == "roll" and e.data == {"purpose": "FB 14.1 supply roll", "sides": 6, "value": 5}
    assert Event.from_json(e.to_json()) == e


def test_record_round_trip_and_replay():
    game = games.get("firstblood")
    state = game.new_state(9)
    record = record_for(game, state, {"us": "human", "jp": "random"})
    for text in ("setup default", "setup default"):
        record.add(state.current_player(), text, state.apply(text))
    while state.current_player() == "jp" and not state.is_terminal():
        action = state.legal_actions()[0]
        record.add("jp", str(action), state.apply(action))
    text = record.dumps()
    again = GameRecord.loads(text)
    assert again.dumps() == text
    assert replay(again, game).to_json() == state.to_json()


def test_replay_reports_the_line_that_differs():
    game = games.get("firstblood")
    state = game.new_state(9)
    record = record_for(game, state)
    record.add("us", "setup default", state.apply("setup default"))
    record.add("us", "move 1/1 0101", [])
    with pytest.raises(RecordError, match="line 3"):
        replay(record, game)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty"),
        ("not json\n", "not JSON"),
        ('{"format": "other"}\n', "format"),
        ('{"format": "henderson-record", "version": 9}\n', "version"),
        ('{"format": "henderson-record", "version": 1, "game": "firstblood"}\n', "data_version"),
        ('{"format": "henderson-record", "version": 1, "game": "g", "data_version": "1"}\n{"action": 3}\n', "line 2"),
    ],
)
def test_bad_records_are_refused_with_the_line(text, words):
    with pytest.raises(RecordError, match=words):
        GameRecord.loads(text)
