"""The WebSocket: the first message names the seat; every change is pushed to every seat."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import act, create


def test_each_seat_is_pushed_its_own_view_after_an_action(client: TestClient) -> None:
    made = create(client)
    red, blue = made["seats"]["red"], made["seats"]["blue"]
    with (
        client.websocket_connect("/api/ws") as red_ws,
        client.websocket_connect("/api/ws") as blue_ws,
    ):
        red_ws.send_json({"token": red})
        blue_ws.send_json({"token": blue})
        first = red_ws.receive_json()
        assert first["type"] == "state" and first["your_turn"] and first["log"] == []
        assert set(first["view"]["cards"]) == {"red"}
        assert blue_ws.receive_json()["your_turn"] is False
        assert act(client, red, "hold", 0).status_code == 200
        pushed = blue_ws.receive_json()
        assert pushed["your_turn"] is True and pushed["ply"] == 1
        assert pushed["log_from"] == 0 and [e["action"] for e in pushed["log"]] == ["hold"]
        assert set(pushed["view"]["cards"]) == {"blue"}
        assert red_ws.receive_json()["your_turn"] is False
        red_ws.send_json({"type": "ping"})
        assert red_ws.receive_json() == {"type": "pong"}
        assert act(client, blue, "hold", 1).status_code == 200
        again = red_ws.receive_json()
        assert again["log_from"] == 1 and [e["action"] for e in again["log"]] == ["hold"]


def test_a_computer_move_is_pushed(client: TestClient) -> None:
    made = create(client, blue="random")
    red = made["seats"]["red"]
    with client.websocket_connect("/api/ws") as ws:
        ws.send_json({"token": red})
        assert ws.receive_json()["your_turn"]
        assert act(client, red, "hold", 0).status_code == 200
        players = []
        while True:
            message = ws.receive_json()
            players += [e["player"] for e in message["log"]]
            if message["your_turn"] or message["terminal"]:
                break
        assert players[0] == "red" and "blue" in players[1:]


def test_an_unknown_token_gets_an_error_message(client: TestClient) -> None:
    with client.websocket_connect("/api/ws") as ws:
        ws.send_json({"token": "nobody"})
        message = ws.receive_json()
        assert message["type"] == "error" and message["error"] == "unknown-token"


def test_garbage_first_message_gets_an_error_message(client: TestClient) -> None:
    with client.websocket_connect("/api/ws") as ws:
        ws.send_text("{garbage")
        message = ws.receive_json()
        assert message["type"] == "error" and message["error"] == "bad-json"


def test_a_chat_message_is_pushed_to_the_other_seat(client: TestClient) -> None:
    made = create(client)
    red, blue = made["seats"]["red"], made["seats"]["blue"]
    with client.websocket_connect("/api/ws") as blue_ws:
        blue_ws.send_json({"token": blue})
        assert blue_ws.receive_json()["type"] == "state"
        said = client.post("/api/seat/chat", json={"text": "hello  there"}, headers={"Authorization": f"Bearer {red}"})
        assert said.status_code == 201
        pushed = blue_ws.receive_json()
        assert pushed == {"type": "chat", "message": said.json()}
        assert pushed["message"]["side"] == "red" and pushed["message"]["text"] == "hello there"
        assert act(client, red, "hold", 0).status_code == 200  # state changes still come after
        assert blue_ws.receive_json()["type"] == "state"


def test_a_chat_of_another_match_is_not_pushed(client: TestClient) -> None:
    mine, theirs = create(client), create(client)
    with client.websocket_connect("/api/ws") as ws:
        ws.send_json({"token": mine["seats"]["blue"]})
        assert ws.receive_json()["type"] == "state"
        other = {"Authorization": f"Bearer {theirs['seats']['red']}"}
        assert client.post("/api/seat/chat", json={"text": "elsewhere"}, headers=other).status_code == 201
        assert act(client, mine["seats"]["red"], "hold", 0).status_code == 200
        assert ws.receive_json()["type"] == "state"  # the next message is the state, not their chat
