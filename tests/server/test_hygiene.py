"""Bad input: garbage, oversize bodies, unknown or foreign tokens; always 4xx JSON, no traceback."""

from __future__ import annotations

import logging

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import act, auth, create, seat


def test_garbage_json_is_a_400(client: TestClient) -> None:
    made = create(client)
    response = client.post(
        "/api/seat/actions",
        content=b"{not json",
        headers={**auth(made["seats"]["red"]), "Content-Type": "application/json"},
    )
    assert response.status_code == 400
    assert response.json()["error"] == "bad-json"
    assert seat(client, made["spectator"])["ply"] == 0


def test_a_body_with_unknown_fields_or_wrong_types_is_a_422(client: TestClient) -> None:
    made = create(client)
    red = made["seats"]["red"]
    for body in (
        {"action": "hold", "ply": 0, "cheat": True},
        {"action": "hold", "ply": "zero"},
        {"action": "", "ply": 0},
        ["hold"],
    ):
        response = client.post("/api/seat/actions", json=body, headers=auth(red))
        assert response.status_code == 422, body
        assert response.json()["error"] == "invalid-body"
    assert seat(client, red)["ply"] == 0


def test_an_oversize_body_is_a_413(client: TestClient) -> None:
    made = create(client)
    body = b'{"action": "' + b"x" * 100_000 + b'", "ply": 0}'
    response = client.post(
        "/api/seat/actions",
        content=body,
        headers={**auth(made["seats"]["red"]), "Content-Type": "application/json"},
    )
    assert response.status_code == 413
    assert response.json()["error"] == "too-large"


def test_an_oversize_body_without_a_declared_length_is_a_413(client: TestClient) -> None:
    def chunks():  # a streamed body: no Content-Length
        for _ in range(100):
            yield b"x" * 1000

    response = client.post("/api/matches", content=chunks(), headers={"Content-Type": "application/json"})
    assert response.status_code == 413


def test_unknown_and_missing_tokens_are_4xx(client: TestClient) -> None:
    response = client.get("/api/seat", headers=auth("nobody-has-this-token"))
    assert response.status_code == 404 and response.json()["error"] == "unknown-token"
    response = client.get("/api/seat")
    assert response.status_code == 401 and response.json()["error"] == "no-token"
    response = act(client, "x" * 500, "hold", 0)
    assert response.status_code == 404


def test_a_foreign_token_cannot_act_in_another_game(client: TestClient) -> None:
    first, second = create(client), create(client)
    # blue's token of the first game is a seat of the first game only
    assert act(client, first["seats"]["red"], "hold", 0).status_code == 200
    assert seat(client, second["seats"]["red"])["ply"] == 0
    assert seat(client, first["seats"]["blue"])["match"] == first["match"]
    response = act(client, second["seats"]["blue"], "hold", 0)
    assert response.status_code == 403
    assert seat(client, second["spectator"])["ply"] == 0


def test_unknown_paths_and_games_are_json_404s(client: TestClient) -> None:
    response = client.get("/api/nothing-here")
    assert response.status_code == 404 and response.json()["error"] == "not-found"
    response = client.get("/api/games/chess/board")
    assert response.status_code == 404 and response.json()["error"] == "unknown-game"


def test_tokens_are_never_logged(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    made = create(client, blue="random")
    red = made["seats"]["red"]
    act(client, red, "hold", 0)
    act(client, red, "hold", 0)
    seat(client, red)
    text = caplog.text
    assert red not in text and made["spectator"] not in text


def test_the_openapi_schema_documents_the_api(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    for path in ("/api/matches", "/api/seat", "/api/seat/actions", "/api/records", "/api/mine", "/api/invite/claim"):
        assert path in schema["paths"]


def test_every_answer_carries_the_fixed_headers(client: TestClient) -> None:
    """No MIME sniffing, no referrer, no caching: on answers, refusals and the client's files."""
    made = create(client)
    answers = [
        client.get("/api/seat", headers=auth(made["seats"]["red"])),
        client.get("/api/seat", headers=auth("nobody-has-this-token")),
        client.get("/play"),
    ]
    for response in answers:
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "no-referrer"
        assert response.headers["cache-control"] == "no-store"
