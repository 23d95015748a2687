"""What the malformed-input tests share: sound positions and records of the three games to
break, ways to break them, and the checks that a refusal is clean (an error of the engine,
exit status 2 with one line, or a 4xx JSON body) and that nothing was written."""

from __future__ import annotations

import copy
import functools
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from henderson import cli, games
from henderson.core.dice import RecordedDice, SeededDice
from henderson.core.errors import HendersonError
from henderson.core.record import GameRecord, record_for

GAMES = ("firstblood", "deluxe", "aag")
Path_ = tuple[str | int, ...]


@functools.cache
def positions(name: str) -> tuple[dict[str, Any], ...]:
    """A few sound positions of a game: its set-up and positions along seeded random play."""
    game = games.get(name)
    state = game.new_state(7)
    found = [state.to_json()]
    rng = random.Random(7)
    for ply in range(45):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
        if ply % 15 == 14:
            found.append(state.to_json())
    return tuple(found)


@functools.cache
def record_text(name: str, from_position: bool = False) -> str:
    """A sound record of a game listing every die: from its set-up, or from a position
    reached by random play (`start`)."""
    game = game_of(name)
    rng = random.Random(11)
    counted = RecordedDice(SeededDice(11))
    state = game.new_state(None, dice=counted)
    setup = counted.take()
    if from_position:
        for _ in range(20):
            state.apply(rng.choice(state.legal_actions()))
        counted.take()
    record = record_for(game, state, from_position=from_position)
    if from_position:
        assert record.start is not None
        record.start.pop("dice", None)
        record.start.pop("seed", None)
    record.setup_dice = [] if from_position else setup
    for _ in range(25):
        if state.is_terminal():
            break
        side = state.current_player()
        action = rng.choice(state.legal_actions())
        events = state.apply(action)
        record.add(str(side), str(action), events, counted.take())
    return record.dumps()


def game_of(name: str) -> Any:
    return games.get(name)


def paths(obj: Any, prefix: Path_ = (), depth: int = 0) -> Iterator[Path_]:
    """Every place in a JSON value (its first few list items), the whole value's included."""
    yield prefix
    if depth > 6:
        return
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield from paths(value, (*prefix, key), depth + 1)
    elif isinstance(obj, list):
        for index, value in enumerate(obj[:3]):
            yield from paths(value, (*prefix, index), depth + 1)


def replaced(obj: Any, where: Path_, value: Any) -> Any:
    """A deep copy of `obj` with the value at `where` replaced (or deleted: `DELETE`)."""
    out = copy.deepcopy(obj)
    if not where:
        return value
    cur = out
    for key in where[:-1]:
        cur = cur[key]
    if value is DELETE:
        del cur[where[-1]]
    else:
        cur[where[-1]] = value
    return out


DELETE: Any = object()

# values that are wrong somewhere: of the wrong type, out of any range, names of nothing
junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**100), max_value=2**100),
    st.sampled_from([-1, 0, 10**9 + 1, 2**63, 10**80, -(10**80)]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
    st.sampled_from(["narnia", "xy", "", "0000", "us", "jp"]),
    st.lists(st.integers(min_value=-3, max_value=9), max_size=3),
    st.dictionaries(st.sampled_from(["narnia", "kind", "us"]), st.integers(), max_size=2),
    st.just(DELETE),
)


@st.composite
def broken(draw: st.DrawFn, obj: Any) -> Any:
    """`obj` with one place replaced by junk, deleted, or given an unknown field."""
    places = [p for p in paths(obj) if p]
    where = draw(st.sampled_from(places))
    if draw(st.integers(0, 9)) == 0:
        parent = where[:-1]
        target = obj
        for key in parent:
            target = target[key]
        if isinstance(target, dict):
            return replaced(obj, (*parent, "narnia_field"), draw(junk.filter(lambda v: v is not DELETE)))
    value = draw(junk)
    if value is DELETE and isinstance(where[-1], int):
        value = None
    return replaced(obj, where, value)


def load_cleanly(name: str, obj: Any) -> bool:
    """Load a position through the Python API: True when it loads (it must then round-trip),
    False when it is refused with the engine's error; anything else fails the test."""
    game = game_of(name)
    try:
        state = game.load_state(obj)
    except HendersonError as exc:
        assert "\n" not in str(exc), str(exc)
        return False
    again = game.load_state(state.to_json())
    assert again.to_json() == state.to_json()
    return True


def cli_run(monkeypatch: Any, capsys: Any, *args: str) -> tuple[int, str, str]:
    """Run `henderson ARGS` in-process: exit status, standard output and error."""
    monkeypatch.setattr(sys, "argv", ["henderson", *args])
    code = 0
    try:
        cli.main()
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def assert_cli_refuses(code: int, err: str) -> None:
    """A clean refusal at the command line: exit status 2 and one line, no traceback."""
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2, err
    assert len(lines) == 1, err
    assert "internal error" not in err and "Traceback" not in err, err


def write_json(path: Path, obj: Any) -> str:
    text = json.dumps(obj)
    path.write_text(text)
    return text


def header_and_entries(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def lines_text(objs: list[Any]) -> str:
    return "\n".join(json.dumps(o) for o in objs) + "\n"


def record_loads(text: str) -> GameRecord:
    return GameRecord.loads(text, "record")
