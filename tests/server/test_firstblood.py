"""The server with FIRST BLOOD: its board data, a game against the computer, attack odds."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from henderson import games
from tests.server.conftest import act, auth, seat, wait_for

if "firstblood" not in games.names():
    pytest.skip("FIRST BLOOD is not installed", allow_module_level=True)

from tests.server.firstblood_records import record_until_us_attack


def test_the_board_data_is_the_games_client_data(client: TestClient) -> None:
    board = client.get("/api/games/firstblood/board").json()
    assert board == games.get("firstblood").client_data()
    assert len(board["hexes"]) > 100


def test_a_game_against_the_computer_reaches_the_us_turn(client: TestClient) -> None:
    made = client.post("/api/matches", json={"game": "firstblood", "players": {"jp": "random"}})
    assert made.status_code == 201, made.text
    us = made.json()["seats"]["us"]
    state = seat(client, us)
    assert state["view"]["phase"] == "us_setup" and "setup default" in state["legal_actions"]
    assert act(client, us, "setup default", state["ply"]).status_code == 200
    wait_for(lambda: seat(client, us)["your_turn"] or seat(client, us)["terminal"], "the Japanese turn")
    after = seat(client, us)
    assert after["current_player"] == "us" or after["terminal"]
    assert all(e["player"] == "jp" for e in after["log"][1:])


def test_odds_and_move_previews_on_a_real_position(client: TestClient) -> None:
    record = record_until_us_attack()
    made = client.post("/api/records", json={"record": record.dumps()})
    assert made.status_code == 201, made.text
    us = made.json()["seats"]["us"]
    state = seat(client, us)
    assert state["view"]["phase"] == "us_combat"
    opening = next(a for a in state["legal_actions"] if a.startswith("attack"))
    assert act(client, us, opening, state["ply"]).status_code == 200
    state = seat(client, us)
    adds = [a for a in state["legal_actions"] if a.startswith("add ")]
    assert adds
    hexes = "+".join(state["view"]["combat"]["building"]["defenders"])
    spec = f"attack {hexes} with {adds[0].split(' ', 1)[1]}"
    response = client.post("/api/seat/odds", json={"attack": spec}, headers=auth(us))
    assert response.status_code == 200, response.text
    odds = response.json()["odds"]
    assert abs(sum(odds["probabilities"].values()) - 1) < 1e-9 or odds["column"] is None
    assert "text" in response.json()
    bad = client.post("/api/seat/odds", json={"attack": "attack 9999 with nobody"}, headers=auth(us))
    assert bad.status_code == 422
