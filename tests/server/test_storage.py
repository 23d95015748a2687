"""Storage: restart and resume from the database, record download and upload."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from henderson import games
from henderson.core.record import GameRecord, replay
from henderson.server import create_app
from tests.server.conftest import act, auth, create, seat, wait_for
from tests.support.toy import ToyGame


@pytest.fixture
def open_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy game without its secret cards counting as hidden information, so that its
    record may be downloaded while it goes on."""
    monkeypatch.setattr(ToyGame, "hidden_information", False)


def play_some(client: TestClient, made: dict, count: int) -> None:
    """Play `count` actions alternating roll and hold, whoever must act (both seats human)."""
    for n in range(count):
        state = seat(client, made["spectator"])
        if state["terminal"]:
            return
        token = made["seats"][state["current_player"]]
        assert act(client, token, "roll" if n % 3 else "hold", state["ply"]).status_code == 200


def test_a_game_resumes_after_a_server_restart(db_url: str) -> None:
    with TestClient(create_app(db_url)) as client:
        made = create(client)
        play_some(client, made, 8)
        before = {side: seat(client, token) for side, token in made["seats"].items()}
    with TestClient(create_app(db_url)) as client:
        after = {side: seat(client, token) for side, token in made["seats"].items()}
        assert after == before
        state = after["red"]
        token = made["seats"][state["current_player"]]
        assert act(client, token, "hold", state["ply"]).status_code == 200


def test_a_computer_player_resumes_its_turn_after_a_restart(db_url: str) -> None:
    with TestClient(create_app(db_url)) as client:
        made = create(client, blue="holder")
        red = made["seats"]["red"]
        assert act(client, red, "hold", 0).status_code == 200
        wait_for(lambda: seat(client, red)["current_player"] == "red", "blue's turn to end")
        before = seat(client, red)
    with TestClient(create_app(db_url)) as client:
        assert seat(client, red) == before


def test_against_the_computer_the_whole_record_downloads_mid_game(client: TestClient) -> None:
    made = create(client, blue="holder")
    red = made["seats"]["red"]
    assert act(client, red, "hold", 0).status_code == 200
    wait_for(lambda: seat(client, red)["current_player"] == "red", "blue's turn to end")
    response = client.get("/api/seat/record", headers=auth(red))
    assert response.status_code == 200 and response.headers["x-henderson-record"] == "whole"
    record = GameRecord.loads(response.text)
    assert record.dice is not None and record.dice.secret is None and "seat_copy" not in record.meta
    assert replay(record, games.get("toy")).view("red") == seat(client, red)["view"]
    spectator = client.get("/api/seat/record", headers=auth(made["spectator"]))
    assert spectator.headers["x-henderson-record"] == "seat-copy"  # a spectator watches a human too


@pytest.mark.usefixtures("open_game")
def test_the_downloaded_record_replays_to_the_same_position(client: TestClient) -> None:
    made = create(client, blue="holder")
    red = made["seats"]["red"]
    for _ in range(3):
        state = seat(client, red)
        assert act(client, red, "hold", state["ply"]).status_code == 200
        wait_for(
            lambda: seat(client, red)["current_player"] == "red" or seat(client, red)["terminal"],
            "blue's turn",
        )
    response = client.get("/api/seat/record", headers=auth(red))
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/x-ndjson")
    record = GameRecord.loads(response.text)
    assert record.game == "toy" and record.players == {"red": "human", "blue": "holder"}
    assert record.seed is None  # the rolls so far are in it; the next ones stay unknown
    state = replay(record, games.get("toy"))
    assert state.view("red") == seat(client, red)["view"]


@pytest.mark.usefixtures("open_game")
def test_an_uploaded_record_resumes_where_it_stopped(client: TestClient) -> None:
    made = create(client, blue="holder")
    red = made["seats"]["red"]
    assert act(client, red, "hold", 0).status_code == 200
    wait_for(lambda: seat(client, red)["current_player"] == "red", "blue's turn")
    text = client.get("/api/seat/record", headers=auth(red)).text
    upload = client.post("/api/records", json={"record": text})
    assert upload.status_code == 201, upload.text
    copy = upload.json()
    assert copy["match"] != made["match"] and set(copy["seats"]) == {"red"}
    resumed = seat(client, copy["seats"]["red"])
    original = seat(client, red)
    assert resumed["view"] == original["view"] and resumed["log"] == original["log"]
    # it plays on with new secret dice
    assert act(client, copy["seats"]["red"], "roll", resumed["ply"]).status_code == 200


@pytest.mark.usefixtures("open_game")
def test_a_bad_record_is_refused(client: TestClient) -> None:
    for text in ("not json at all", '{"format": "henderson-record", "version": 1, "game": "toy"}'):
        response = client.post("/api/records", json={"record": text})
        assert response.status_code == 422
        assert response.json()["error"] == "bad-record"
    made = create(client, blue="holder")
    red = made["seats"]["red"]
    act(client, red, "hold", 0)
    wait_for(lambda: seat(client, red)["current_player"] == "red", "blue's turn")
    lines = client.get("/api/seat/record", headers=auth(red)).text.splitlines()
    lines[1] = lines[1].replace('"hold"', '"roll"', 1)  # an action whose dice differ
    response = client.post("/api/records", json={"record": "\n".join(lines)})
    assert response.status_code == 422
    assert "line 2" in response.json()["message"]


def test_an_acknowledged_action_is_already_in_the_database(db_url: str) -> None:
    from henderson.server.storage import Store

    with TestClient(create_app(db_url)) as client:
        made = create(client)
        assert act(client, made["seats"]["red"], "hold", 0).status_code == 200
        stored = Store(db_url).record(made["match"])
        assert stored is not None
        assert [e.action for e in stored.entries] == ["hold"]
        assert stored.players == {"red": "human", "blue": "human"}
        # no seed: the dice come from a secret, kept apart from the header until the game ends
        assert stored.seed is None and stored.dice is not None and stored.dice.secret is None
        assert Store(db_url).secret(made["match"]) is not None


def test_tokens_are_stored_only_as_digests(db_url: str) -> None:
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from henderson.server.storage import SeatRow, Store

    with TestClient(create_app(db_url)) as client:
        made = create(client)
    store = Store(db_url)
    with Session(store.engine) as session:
        stored = set(session.scalars(select(SeatRow.token_hash)).all())
    for token in [*made["seats"].values(), made["spectator"]]:
        assert token not in stored


def test_history_agrees_with_a_replay_of_the_record_at_every_step(client: TestClient) -> None:
    made = create(client, red="random", blue="random")
    token = made["spectator"]
    wait_for(lambda: seat(client, token)["terminal"], "the game to end")
    record = GameRecord.loads(client.get("/api/seat/record", headers=auth(token)).text)
    steps = len(record.entries)
    # backwards first, so later steps are served from checkpoints made on the way
    for step in sorted({steps, steps - 1, 30, 26, 25, 24, steps // 2, 1, 0}, reverse=True):
        if not 0 <= step <= steps:
            continue
        seen = client.get("/api/seat/history", params={"step": step}, headers=auth(token)).json()
        expected = replay(record, games.get("toy"), upto=step)
        assert seen["view"] == expected.view(None), step
        assert seen["current_player"] == expected.current_player()


def test_a_database_made_by_an_older_version_is_refused_in_one_line(tmp_path) -> None:
    import sqlite3

    import pytest

    from henderson.server.storage import StorageError, Store

    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("create table matches (id varchar(32) primary key, game varchar(64))")
    with pytest.raises(StorageError, match="lacks column"):
        Store(f"sqlite:///{path}")
