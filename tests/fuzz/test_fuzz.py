"""Generated malformed input for the three games (hypothesis): positions, records and action
texts broken at random places, through the Python API, the command line and the HTTP API.
Each is either sound or refused cleanly (the engine's one-line error, exit status 2, a 4xx
JSON body), and a refusal writes nothing. Example counts are small so the suite stays fast;
`HENDERSON_FUZZ_EXAMPLES` raises them for a longer hunt."""

from __future__ import annotations

import json
import os
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from henderson.core.errors import HendersonError
from henderson.core.record import GameRecord, replay
from tests.fuzz.conftest import stored_matches
from tests.fuzz.support import (
    GAMES,
    broken,
    cli_run,
    game_of,
    header_and_entries,
    lines_text,
    load_cleanly,
    positions,
    record_text,
)

EXAMPLES = int(os.environ.get("HENDERSON_FUZZ_EXAMPLES", "40"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)


@st.composite
def broken_position(draw: st.DrawFn) -> tuple[str, Any]:
    name = draw(st.sampled_from(GAMES))
    base = draw(st.sampled_from(positions(name)))
    return name, draw(broken(base))


@st.composite
def broken_record(draw: st.DrawFn) -> tuple[str, str]:
    """A record of one game with one line broken (its start position's fields included)."""
    name = draw(st.sampled_from(GAMES))
    objs = header_and_entries(record_text(name, from_position=draw(st.booleans())))
    line = draw(st.integers(0, len(objs) - 1))
    objs[line] = draw(broken(objs[line]))
    return name, lines_text(objs)


@FUZZ
@given(broken_position())
def test_positions_load_or_are_refused_in_python(case: tuple[str, Any]) -> None:
    load_cleanly(*case)


@FUZZ
@given(broken_record())
def test_records_replay_or_are_refused_in_python(case: tuple[str, str]) -> None:
    name, text = case
    try:
        replay(GameRecord.loads(text, "record"), game_of(name))
    except HendersonError as exc:
        assert "\n" not in str(exc), str(exc)


actions = st.one_of(
    st.text(max_size=30),
    st.builds(
        lambda verb, args: " ".join([verb, *args]),
        st.sampled_from(["move", "attack", "end", "land", "buy", "resolve", "fire", "setup", "narnia"]),
        st.lists(st.sampled_from(["1/1", "0000", "9999", "narnia", "-1", "10" * 30, "us", "+", ","]), max_size=4),
    ),
)


@FUZZ
@given(st.sampled_from(GAMES), st.integers(0, 2), actions)
def test_action_texts_are_played_or_refused(name: str, which: int, text: str) -> None:
    game = game_of(name)
    found = positions(name)
    state = game.load_state(found[min(which, len(found) - 1)])
    before = json.dumps(state.to_json(), sort_keys=True)
    try:
        state.apply(text)
    except HendersonError as exc:
        assert "\n" not in str(exc), str(exc)
        assert json.dumps(state.to_json(), sort_keys=True) == before  # a refused action changes nothing


@settings(FUZZ, max_examples=max(10, EXAMPLES // 2))
@given(case=broken_position())
def test_cli_loads_or_refuses_positions(case: tuple[str, Any], monkeypatch: Any, capsys: Any, tmp_path: Any) -> None:
    _, obj = case
    path = tmp_path / "pos.json"
    text = json.dumps(obj)
    path.write_text(text)
    code, _, err = cli_run(monkeypatch, capsys, "legal", str(path))
    assert code in (0, 2), err
    if code == 2:
        assert len(err.strip().splitlines()) == 1 and "internal error" not in err, err
    assert path.read_text() == text


@settings(FUZZ, max_examples=max(10, EXAMPLES // 2))
@given(case=broken_record())
def test_cli_replays_or_refuses_records(case: tuple[str, str], monkeypatch: Any, capsys: Any, tmp_path: Any) -> None:
    _, text = case
    path = tmp_path / "game.jsonl"
    path.write_text(text)
    code, _, err = cli_run(monkeypatch, capsys, "replay", str(path), "-q")
    assert code in (0, 2), err
    if code == 2:
        assert len(err.strip().splitlines()) == 1 and "internal error" not in err, err
    assert path.read_text() == text


@settings(FUZZ, max_examples=max(10, EXAMPLES // 2))
@given(case=broken_record())
def test_uploads_start_a_match_or_answer_4xx(case: tuple[str, str], server: Any) -> None:
    name, text = case
    before = stored_matches(server)
    sides = list(game_of(name).sides)
    response = server.post(
        "/api/records", json={"record": text, "players": dict.fromkeys(sides, "human"), "hotseat": True}
    )
    if response.status_code == 201:
        assert stored_matches(server) == before + 1
        return
    assert 400 <= response.status_code < 500, response.text
    assert set(response.json()) >= {"error", "message"}
    assert stored_matches(server) == before


@settings(FUZZ, max_examples=max(10, EXAMPLES // 2))
@given(
    game=st.sampled_from([*GAMES, "narnia", ""]),
    options=st.dictionaries(st.text(max_size=8), st.one_of(st.booleans(), st.integers(), st.text(max_size=3))),
    players=st.dictionaries(st.sampled_from(["us", "jp", "xx"]), st.sampled_from(["human", "random", "narnia", ""])),
)
def test_match_requests_start_a_match_or_answer_4xx(game: str, options: Any, players: Any, server: Any) -> None:
    before = stored_matches(server)
    response = server.post("/api/matches", json={"game": game, "options": options, "players": players})
    if response.status_code == 201:
        assert stored_matches(server) == before + 1
        return
    assert 400 <= response.status_code < 500, response.text
    assert stored_matches(server) == before


@settings(FUZZ, max_examples=max(10, EXAMPLES // 2))
@given(name=st.sampled_from(GAMES), text=actions, ply=st.one_of(st.just(None), st.integers(-5, 10**12)))
def test_action_requests_are_played_or_answer_4xx(name: str, text: str, ply: int | None, server: Any) -> None:
    made = server.post("/api/matches", json={"game": name, "hotseat": True}).json()
    headers = {"Authorization": f"Bearer {next(iter(made['seats'].values()))}"}
    before = server.get("/api/seat", headers=headers).json()
    decider = made["seats"].get(before["current_player"])
    if decider is not None:
        headers = {"Authorization": f"Bearer {decider}"}
    response = server.post(
        "/api/seat/actions", json={"action": text, "ply": before["ply"] if ply is None else ply}, headers=headers
    )
    assert response.status_code == 200 or 400 <= response.status_code < 500, response.text
    after = server.get("/api/seat", headers=headers).json()
    if response.status_code != 200:
        assert set(response.json()) >= {"error", "message"}
        assert after["steps"] == before["steps"]  # nothing written
    else:
        assert after["steps"] == before["steps"] + 1
