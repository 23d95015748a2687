"""The record downloads at any moment where it reveals nothing the seat may not see: the whole
record in a match that hides nothing (AAG without hidden movement) or against computer
players only, else the seat's own copy (DG, AAG with hidden movement, two humans)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from henderson import games
from henderson.core.record import GameRecord, replay
from tests.server.conftest import auth, seat


def download(client: TestClient, token: str) -> tuple[str, str]:
    response = client.get("/api/seat/record", headers=auth(token))
    assert response.status_code == 200, response.text
    return response.headers["x-henderson-record"], response.text


def two_humans(client: TestClient, game: str, options: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/matches", json={"game": game, "options": options, "hotseat": True})
    assert response.status_code == 201, response.text
    return dict(response.json())


def test_aag_without_hidden_movement_downloads_whole_mid_game(client: TestClient) -> None:
    made = two_humans(client, "aag", {})
    for token in [*made["seats"].values(), made["spectator"]]:
        kind, text = download(client, token)
        assert kind == "whole"
        record = GameRecord.loads(text)
        assert record.dice is not None and record.dice.secret is None
        assert replay(record, games.get("aag")).view(None) == seat(client, made["spectator"])["view"]


@pytest.mark.parametrize(("game", "options"), [("aag", {"hidden_movement": True}), ("deluxe", {})])
def test_a_match_with_secrets_gives_each_seat_its_copy(client: TestClient, game: str, options: dict[str, Any]) -> None:
    made = two_humans(client, game, options)
    for side, token in [*made["seats"].items(), (None, made["spectator"])]:
        kind, text = download(client, token)
        assert kind == "seat-copy"
        head = json.loads(text.splitlines()[0])
        assert head["meta"]["seat_copy"]["side"] == (side or "spectator")
        assert "setup_dice" not in head and "start" not in head
        assert [json.loads(line) for line in text.splitlines()[1:]] == seat(client, token)["log"]


def test_deluxe_against_the_computer_downloads_whole(client: TestClient) -> None:
    response = client.post("/api/matches", json={"game": "deluxe", "players": {"jp": "holder"}})
    assert response.status_code == 201, response.text
    kind, _ = download(client, response.json()["seats"]["us"])
    assert kind == "whole"
