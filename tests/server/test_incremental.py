"""Incremental state messages: `GET /api/seat?since=N` and the WebSocket's `since` send only the
log entries after the first N; without it the whole log comes, as before."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import act, auth, create, seat


def play_holds(client: TestClient, made: dict[str, object], count: int) -> None:
    seats = made["seats"]
    assert isinstance(seats, dict)
    for ply in range(count):
        token = seats["red"] if ply % 2 == 0 else seats["blue"]
        assert act(client, token, "hold", ply).status_code == 200


def test_since_sends_only_the_newer_entries(client: TestClient) -> None:
    made = create(client)
    play_holds(client, made, 6)
    red = made["seats"]["red"]
    whole = seat(client, red)
    assert whole["log_from"] == 0 and len(whole["log"]) == 6 and whole["steps"] == 6
    part = client.get("/api/seat", params={"since": 4}, headers=auth(red)).json()
    assert part["log_from"] == 4 and part["log"] == whole["log"][4:]
    assert {k: v for k, v in part.items() if k not in ("log", "log_from")} == {
        k: v for k, v in whole.items() if k not in ("log", "log_from")
    }
    caught_up = client.get("/api/seat", params={"since": 6}, headers=auth(red)).json()
    assert caught_up["log"] == [] and caught_up["log_from"] == 6
    past = client.get("/api/seat", params={"since": 99}, headers=auth(red)).json()
    assert past["log"] == [] and past["log_from"] == 6  # the client holds more than the log: it refetches


def test_since_out_of_range_is_a_422(client: TestClient) -> None:
    made = create(client)
    red = made["seats"]["red"]
    for bad in ("-1", "x", str(10**30)):
        response = client.get("/api/seat", params={"since": bad}, headers=auth(red))
        assert response.status_code == 422 and response.json()["error"] == "invalid-body", response.text


def test_the_websocket_hello_may_say_since(client: TestClient) -> None:
    made = create(client)
    play_holds(client, made, 4)
    red = made["seats"]["red"]
    with client.websocket_connect("/api/ws") as ws:
        ws.send_json({"token": red, "since": 3})
        first = ws.receive_json()
        assert first["log_from"] == 3 and [e["ply"] for e in first["log"]] == [3]
    with client.websocket_connect("/api/ws") as ws:
        ws.send_json({"token": red, "since": "three"})
        error = ws.receive_json()
        assert error["type"] == "error" and error["error"] == "invalid-body"
