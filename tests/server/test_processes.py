"""Several server processes on one database (issue 18): they start together on a new
database, each live copy of a match reloads when another process changed it, a write that
loses the race is a 409 that changes nothing, and a computer player's move is stored once.
Two applications made by `create_app` on the same database stand for two processes (an
SQLite file, and PostgreSQL when HENDERSON_TEST_POSTGRES is set)."""

from __future__ import annotations

import json
import secrets
import threading
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from henderson import agents, games
from henderson.core.record import GameRecord, replay
from henderson.server import create_app
from henderson.server.matches import Hub, secret_of
from henderson.server.storage import Store, normalise_url
from tests.server.conftest import POSTGRES, act, auth, seat, wait_for

Pair = tuple[TestClient, TestClient]


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


@pytest.fixture
def pair(db_url: str) -> Iterator[Pair]:
    """Two server processes on one database."""
    with ExitStack() as stack:
        first = stack.enter_context(TestClient(create_app(db_url, poll_seconds=0.05), raise_server_exceptions=False))
        second = stack.enter_context(TestClient(create_app(db_url, poll_seconds=0.05), raise_server_exceptions=False))
        yield first, second


def hotseat(client: TestClient, **players: str) -> dict[str, Any]:
    response = client.post("/api/matches", json={"game": "toy", "hotseat": True, "players": players})
    assert response.status_code == 201, response.text
    return dict(response.json())


def position(state: Any) -> str:
    """A position without its dice (a live match rolls secret dice, a replay scripted ones)."""
    return json.dumps({k: v for k, v in state.to_json().items() if k not in ("dice", "seed")}, sort_keys=True)


def assert_same_game(pair: Pair, match_id: str) -> None:
    """The stored record replays to the position each process holds, and both hold its actions."""
    hubs = [hub_of(c) for c in pair]
    record = hubs[0].store.record(match_id)
    assert record is not None
    replayed = position(replay(record, games.get("toy")))
    for hub in hubs:
        assert position(hub.live[match_id].state) == replayed
        assert [str(e.action) for e in hub.live[match_id].record.entries] == [str(e.action) for e in record.entries]


def test_two_processes_play_one_match_alternately(pair: Pair) -> None:
    made = hotseat(pair[0])
    tokens = made["seats"]
    for turn in range(12):
        client = pair[turn % 2]  # each decision goes to the other process
        state = seat(client, tokens["red"])
        if state["terminal"]:
            break
        side = state["current_player"]
        state = seat(client, tokens[side])
        response = act(client, tokens[side], state["legal_actions"][turn % len(state["legal_actions"])], state["ply"])
        assert response.status_code == 200, response.text
        other = seat(pair[(turn + 1) % 2], tokens[side])
        assert other["revision"] == seat(client, tokens[side])["revision"] and other["steps"] == state["steps"] + 1
    for client in pair:
        seat(client, tokens["red"])
    assert hub_of(pair[0]).reloads > 0 and hub_of(pair[1]).reloads > 0
    assert_same_game(pair, made["match"])


def test_a_process_that_missed_a_change_reloads_before_it_acts(pair: Pair) -> None:
    made = hotseat(pair[0])
    red = made["seats"]["red"]
    assert seat(pair[1], red)["ply"] == 0  # live in both
    assert act(pair[0], red, "hold", 0).status_code == 200
    # sent again to the second process, which still held the state before it: it reloads first
    # and answers from the match as it is now (blue's decision), not with a failed write
    stale = act(pair[1], red, "hold", 0)
    assert stale.status_code == 403 and stale.json()["error"] == "not-your-decision"
    assert hub_of(pair[1]).live[made["match"]].state.ply == 1
    blue = made["seats"]["blue"]
    assert act(pair[1], blue, "hold", 1).status_code == 200
    assert seat(pair[0], red)["your_turn"]
    assert_same_game(pair, made["match"])


def test_a_write_that_loses_the_race_is_a_409_and_nothing_forks(pair: Pair, monkeypatch: pytest.MonkeyPatch) -> None:
    made = hotseat(pair[0])
    red, blue = made["seats"]["red"], made["seats"]["blue"]
    assert seat(pair[1], red)["ply"] == 0
    second = hub_of(pair[1])

    async def checked_before_the_other_wrote(live: Any) -> bool:
        return False

    # the second process checks the revision, then the first one stores its action, then the
    # second writes: the window is made wide by skipping the second's check
    monkeypatch.setattr(second, "_catch_up", checked_before_the_other_wrote)
    assert act(pair[0], red, "roll", 0).status_code == 200
    lost = act(pair[1], red, "hold", 0)
    assert lost.status_code == 409 and lost.json()["error"] == "changed-elsewhere", lost.text
    monkeypatch.undo()
    record = second.store.record(made["match"])
    assert record is not None and [e.action for e in record.entries] == ["roll"]  # the winner's alone
    assert second.live[made["match"]].state.ply == 1  # reloaded at once
    again = seat(pair[1], red)
    side = again["current_player"]
    token = red if side == "red" else blue
    assert act(pair[1], token, "hold", again["ply"]).status_code == 200  # decided again: it goes through
    seat(pair[0], red)
    assert_same_game(pair, made["match"])


def at_once(pair: Pair, token: str, ply: int) -> list[int]:
    """The statuses of the same decision sent to both processes at the same moment."""
    start = threading.Barrier(2)
    answers = [0, 0]

    def send(index: int) -> None:
        start.wait()
        answers[index] = act(pair[index], token, "hold", ply).status_code

    threads = [threading.Thread(target=send, args=(i,)) for i in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


def test_actions_sent_to_both_processes_at_once_store_one(pair: Pair) -> None:
    made = hotseat(pair[0])
    tokens = made["seats"]
    for _ in range(8):
        states = [seat(c, tokens["red"]) for c in pair]
        assert states[0]["ply"] == states[1]["ply"]
        if states[0]["terminal"]:
            break
        ply = states[0]["ply"]
        answers = at_once(pair, tokens[states[0]["current_player"]], ply)
        # one is played; the other is refused: a lost write (409), or on the state reloaded
        # before it (409 stale, or 403 when the decision passed to the other side)
        assert sorted(answers) in ([200, 403], [200, 409]), answers
        record = hub_of(pair[0]).store.record(made["match"])
        assert record is not None and len(record.entries) == ply + 1
    for client in pair:
        seat(client, tokens["red"])
    assert_same_game(pair, made["match"])


def test_a_computer_move_raced_by_two_processes_is_stored_once(db_url: str) -> None:
    with ExitStack() as stack:
        pair = tuple(
            stack.enter_context(TestClient(create_app(db_url, agent_delay=0.02), raise_server_exceptions=False))
            for _ in range(2)
        )
        made = pair[0].post("/api/matches", json={"game": "toy", "players": {"red": "holder", "blue": "holder"}})
        spectator = made.json()["spectator"]
        seat(pair[1], spectator)  # loaded here too: both processes' computer players play
        hubs = [hub_of(c) for c in pair]
        match_id = made.json()["match"]
        wait_for(lambda: hubs[1].live[match_id].state.ply >= 10, "ten computer moves")
        assert hubs[0].reloads + hubs[1].reloads > 0
        record = hubs[0].store.record(match_id)
        assert record is not None
        assert [e.ply for e in record.entries] == list(range(len(record.entries)))
        replay(record, games.get("toy"))
        assert all(h.live[match_id].problem is None for h in hubs)
        # two holders never finish: stopped, so that no later server on this database plays on
        hubs[0].store.set_problem(match_id, "the test is over")


def test_a_websocket_listener_is_pushed_what_another_process_did(pair: Pair) -> None:
    made = hotseat(pair[0])
    red = made["seats"]["red"]
    with pair[1].websocket_connect("/api/ws") as ws:
        ws.send_json({"token": red})
        assert ws.receive_json()["ply"] == 0
        assert act(pair[0], red, "hold", 0).status_code == 200
        wait_for(lambda: hub_of(pair[1]).live[made["match"]].revision == 1, "the second process to notice")
        pushed = ws.receive_json()
        assert pushed["ply"] == 1 and [e["action"] for e in pushed["log"]] == ["hold"]


def test_a_claim_races_an_action_in_another_process(pair: Pair, monkeypatch: pytest.MonkeyPatch) -> None:
    made = pair[0].post("/api/matches", json={"game": "toy", "side": "red"}).json()
    red, code = made["seats"]["red"], made["invites"]["blue"]
    assert seat(pair[1], red)["ply"] == 0
    second = hub_of(pair[1])

    async def checked_before_the_other_wrote(live: Any) -> bool:
        return False

    monkeypatch.setattr(second, "_catch_up", checked_before_the_other_wrote)
    assert act(pair[0], red, "roll", 0).status_code == 200  # rolls: the claim's contribution comes after
    lost = pair[1].post("/api/invite/claim", json={"contribution": "ab" * 16}, headers=auth(code))
    assert lost.status_code == 409 and lost.json()["error"] == "changed-elsewhere"
    monkeypatch.undo()
    claimed = pair[1].post("/api/invite/claim", json={"contribution": "ab" * 16}, headers=auth(code))
    assert claimed.status_code == 200, claimed.text
    assert seat(pair[0], red)["invited"] == []
    assert_same_game(pair, made["match"])


class Crasher:
    """A computer player with a bug: it fails whenever it must decide."""

    name = "crasher"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, state: Any) -> Any:
        raise RuntimeError("a bug")


@pytest.fixture
def crasher() -> Iterator[None]:
    agents.register("crasher", Crasher)
    yield
    agents._FACTORIES.pop("crasher", None)


def test_why_a_computer_player_stopped_survives_eviction_and_shows_in_every_process(
    db_url: str, crasher: None
) -> None:
    with ExitStack() as stack:
        first = stack.enter_context(TestClient(create_app(db_url, max_live=1), raise_server_exceptions=False))
        second = stack.enter_context(TestClient(create_app(db_url), raise_server_exceptions=False))
        made = first.post("/api/matches", json={"game": "toy", "players": {"red": "crasher"}}).json()
        blue = made["seats"]["blue"]
        wait_for(lambda: seat(first, blue)["problem"] is not None, "the computer player to fail")
        problem = seat(first, blue)["problem"]
        assert "crasher" in problem
        first.post("/api/matches", json={"game": "toy", "hotseat": True})  # pushes it out of memory
        assert made["match"] not in hub_of(first).live
        assert seat(first, blue)["problem"] == problem  # loaded again, it still says why
        assert seat(second, blue)["problem"] == problem


def test_an_undo_in_one_process_is_seen_by_the_other(pair: Pair) -> None:
    from tests.server.test_firstblood import reach_us_movement

    made = pair[0].post("/api/matches", json={"game": "firstblood", "players": {"jp": "random"}}).json()
    us = made["seats"]["us"]
    start = reach_us_movement(pair[0], us)
    assert seat(pair[1], us)["ply"] == start["ply"]  # live in both
    move = next(a for a in start["legal_actions"] if a.startswith("move "))
    assert act(pair[0], us, move, start["ply"]).status_code == 200
    moved = seat(pair[0], us)
    undone = pair[1].post("/api/seat/undo", json={"ply": moved["ply"]}, headers=auth(us))
    assert undone.status_code == 200, undone.text  # the second process reloaded: it knew of the move
    for client in pair:
        back = seat(client, us)
        assert (back["view"], back["log"], back["ply"]) == (start["view"], start["log"], start["ply"])
    again = pair[0].post("/api/seat/undo", json={"ply": moved["ply"]}, headers=auth(us))
    assert again.status_code == 409 and again.json()["error"] == "stale"


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database URL with no table yet: an SQLite file, or a PostgreSQL schema of its own."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'new.sqlite'}"
        return
    if not POSTGRES:
        pytest.skip("HENDERSON_TEST_POSTGRES is not set (scripts/ensure-postgres prints a URL)")
    schema = f"test_new_{secrets.token_hex(4)}"
    engine = create_engine(normalise_url(POSTGRES))
    with engine.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    yield f"{POSTGRES}{'&' if '?' in POSTGRES else '?'}options=-csearch_path%3D{schema}"
    with engine.begin() as connection:
        connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    engine.dispose()


def open_at_once(url: str, processes: int = 6) -> tuple[list[Store], list[BaseException]]:
    """Open `processes` stores on one database at the same instant: those opened, the errors."""
    start = threading.Barrier(processes)
    failures: list[BaseException] = []
    stores: list[Store] = []

    def open_store() -> None:
        start.wait()
        try:
            stores.append(Store(url))
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=open_store) for _ in range(processes)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return stores, failures


def test_several_processes_started_at_once_on_a_new_database_all_start(empty_db: str) -> None:
    stores, failures = open_at_once(empty_db)
    assert not failures, failures[:1]
    stores[0].create_match("m1", GameRecord(game="toy", data_version="x"), {}, "red", False)
    assert all(store.revision("m1") == 0 and store.summary("m1") is not None for store in stores)
    for store in stores:
        store.close()


def test_six_processes_opening_one_new_sqlite_file_never_find_it_locked(tmp_path: Path) -> None:
    """Switching a new file to its write-ahead log answers "database is locked" at once, without
    SQLite's busy timeout, while another process switches it too: about one round in ten failed
    before the store looked again. Forty rounds make that loss all but certain to show."""
    for round_ in range(40):
        stores, failures = open_at_once(f"sqlite:///{tmp_path / f'new{round_}.sqlite'}")
        for store in stores:
            store.close()
        assert not failures, (round_, failures[:1])


def test_a_process_behind_plays_only_the_actions_it_missed(pair: Pair, monkeypatch: pytest.MonkeyPatch) -> None:
    made = hotseat(pair[0])
    tokens = made["seats"]
    assert seat(pair[1], tokens["red"])["ply"] == 0  # live in both
    for turn in range(8):  # rolls and holds through the first process only
        state = seat(pair[0], tokens["red"])
        side = state["current_player"]
        assert act(pair[0], tokens[side], "roll" if turn % 3 else "hold", state["ply"]).status_code == 200
    second = hub_of(pair[1])

    def whole_replay(match_id: str) -> Any:
        raise AssertionError("the whole record was replayed")

    monkeypatch.setattr(second, "_load", whole_replay)
    seat(pair[1], tokens["red"])  # catches up on the eight actions alone
    monkeypatch.undo()
    caught_up = second.live[made["match"]]
    full = second._load(made["match"])
    assert position(caught_up.state) == position(full.state)
    assert secret_of(caught_up.state).index == secret_of(full.state).index  # the next die is the same
    assert caught_up.state.dice.clone().roll("a test die", 6) == full.state.dice.clone().roll("a test die", 6)
    assert_same_game(pair, made["match"])
