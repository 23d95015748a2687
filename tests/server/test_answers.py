"""The state answer encoded in its worker thread: the same JSON, compressed only for a client
that accepts gzip, and a WebSocket message identical to the HTTP answer."""

from __future__ import annotations

import gzip
import json

import pytest
from fastapi.testclient import TestClient

from henderson import games
from henderson.server.answers import GZIP_MINIMUM, EncodedJSON, accepts_gzip
from henderson.server.app import create_app


@pytest.fixture
def client(tmp_path) -> TestClient:  # type: ignore[no-untyped-def]
    with TestClient(create_app(f"sqlite:///{tmp_path / 'answers.sqlite'}")) as c:
        yield c


@pytest.mark.parametrize(
    ("header", "accepted"),
    [
        ("gzip", True),
        ("gzip, deflate, br", True),
        ("br;q=1.0, gzip;q=0.8", True),
        ("*", True),
        ("identity", False),
        ("gzip;q=0", False),
        ("gzip; q=0.000", False),
        ("deflate", False),
        ("", False),
        (None, False),
    ],
)
def test_accept_encoding_is_read_as_http_says(header: str | None, accepted: bool) -> None:
    assert accepts_gzip(header) is accepted


def test_a_small_body_is_not_compressed() -> None:
    small = EncodedJSON('{"a":1}', gzipped=True)
    assert not small.gzipped and small.body == b'{"a":1}'
    large = EncodedJSON(json.dumps({"a": "x" * GZIP_MINIMUM}), gzipped=True)
    assert large.gzipped and json.loads(gzip.decompress(large.body)) == {"a": "x" * GZIP_MINIMUM}


def test_the_state_answer_reads_the_same_compressed_or_not(client: TestClient) -> None:
    sides = games.get("firstblood").sides
    made = client.post(
        "/api/matches", json={"game": "firstblood", "players": {s: "human" for s in sides}, "hotseat": True}
    )
    token = made.json()["seats"]["us"]
    auth = {"Authorization": f"Bearer {token}"}
    plain = client.get("/api/seat", headers={**auth, "Accept-Encoding": "identity"})
    packed = client.get("/api/seat", headers={**auth, "Accept-Encoding": "gzip"})
    assert plain.headers.get("content-encoding") is None
    assert packed.headers.get("content-encoding") == "gzip"
    assert "accept-encoding" in packed.headers["vary"].lower()
    assert plain.headers["content-type"] == "application/json"
    assert plain.json() == packed.json() and len(plain.json()["legal_actions"]) > 100
    with client.websocket_connect("/api/ws") as ws:
        ws.send_text(json.dumps({"token": token}))
        assert ws.receive_json() == plain.json()


@pytest.mark.parametrize("game", ["firstblood", "deluxe", "aag"])
def test_the_encoded_state_is_the_state_message(client: TestClient, game: str) -> None:
    """The JSON text spliced from cached action texts reads as the state message: every legal
    action described as the game describes it, the seat's own view, for the seat that decides,
    the other seat and a spectator, at the start and after a few actions."""
    sides = games.get(game).sides
    made = client.post("/api/matches", json={"game": game, "players": {s: "human" for s in sides}, "hotseat": True})
    body = made.json()
    hub = client.app.state.hub  # type: ignore[attr-defined]
    for _ in range(4):
        live = hub.live[body["match"]]
        for side in [*sides, None]:
            sent = json.loads(live.payload_json(side, 0, live.snapshot()))
            mine = sent["your_turn"]
            legal = live.state.legal_actions() if mine else []
            assert sent["legal_actions"] == [str(a) for a in legal]
            assert sent["actions"] == [live.game.describe(a).to_json() for a in legal]
            assert sent["view"] == json.loads(json.dumps(live.state.view(side)))
            assert sent["current_player"] == live.state.current_player() and sent["side"] == side
        token = body["seats"][live.state.current_player()]
        state = client.get("/api/seat", headers={"Authorization": f"Bearer {token}"}).json()
        played = client.post(
            "/api/seat/actions",
            json={"action": state["legal_actions"][-1], "ply": state["ply"]},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert played.status_code == 200, played.text
