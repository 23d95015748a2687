"""The server with FIRST BLOOD: its board data, a game against the computer, attack odds."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from henderson import games
from tests.server.conftest import act, auth, seat, wait_for

if "firstblood" not in games.names():
    pytest.skip("FIRST BLOOD is not installed", allow_module_level=True)

from tests.server.records import record_until_us_attack


def test_the_board_data_is_the_games_client_data(client: TestClient) -> None:
    board = client.get("/api/games/firstblood/board").json()
    assert board == games.get("firstblood").client_data()
    assert len(board["hexes"]) > 100


def test_a_game_against_the_computer_reaches_the_us_turn(client: TestClient) -> None:
    made = client.post("/api/matches", json={"game": "firstblood", "players": {"jp": "random"}})
    assert made.status_code == 201, made.text
    us = made.json()["seats"]["us"]
    state = seat(client, us)
    assert state["view"]["step"] == "us_setup" and "setup default" in state["legal_actions"]
    assert act(client, us, "setup default", state["ply"]).status_code == 200
    wait_for(lambda: seat(client, us)["your_turn"] or seat(client, us)["terminal"], "the Japanese turn")
    after = seat(client, us)
    assert after["current_player"] == "us" or after["terminal"]
    assert all(e["player"] == "jp" for e in after["log"][1:])


def test_any_waiting_counter_has_its_placements_and_is_placed(client: TestClient) -> None:
    """FB 3.0: the legal actions list the next counter's placements only; the seat may ask
    where any other waiting counter goes (here the tank, then an aircraft) and place it."""
    made = client.post("/api/matches", json={"game": "firstblood", "players": {"jp": "random"}})
    seats = made.json()["seats"]
    us = seats["us"]
    state = seat(client, us)
    assert state["view"]["to_place"][0] == "1/1" and not any("1Tank" in a for a in state["legal_actions"])
    answer = client.get("/api/seat/placements", params={"unit": "1Tank"}, headers=auth(us))
    assert answer.status_code == 200, answer.text
    tank = answer.json()["actions"]
    assert tank and all(a["verb"] == "place" and a["args"][0]["value"] == "1Tank" for a in tank)
    listed = {a.split()[-1] for a in state["legal_actions"] if a.startswith("place 1/1 ")}
    assert {a["args"][1]["value"] for a in tank} == listed  # the same set-up area (FB 3.0)
    air = client.get("/api/seat/placements", params={"unit": "F4F-1"}, headers=auth(us)).json()["actions"]
    assert "usaf_cap" in {a["args"][1]["value"] for a in air} and "1215" not in {a["args"][1]["value"] for a in air}
    assert act(client, us, tank[0]["text"], state["ply"]).status_code == 200
    after = seat(client, us)
    assert "1Tank" not in after["view"]["to_place"] and after["view"]["ground"]["1Tank"] == tank[0]["args"][1]["value"]
    placed = client.get("/api/seat/placements", params={"unit": "1Tank"}, headers=auth(us))
    assert placed.status_code == 200 and placed.json()["actions"] == []  # no longer waiting
    refused = client.get("/api/seat/placements", params={"unit": "1/1"}, headers=auth(made.json()["spectator"]))
    assert refused.status_code == 403 and refused.json()["error"] == "spectator"


def test_odds_and_move_previews_on_a_real_position(client: TestClient) -> None:
    record = record_until_us_attack()
    made = client.post("/api/records", json={"record": record.dumps()})
    assert made.status_code == 201, made.text
    us = made.json()["seats"]["us"]
    state = seat(client, us)
    assert state["view"]["step"] == "us_combat"
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


def reach_us_movement(client: TestClient, us: str) -> dict:
    """Play the US side (set-up, then ending phases) until its movement phase."""
    for _ in range(80):
        wait_for(lambda: seat(client, us)["your_turn"] or seat(client, us)["terminal"], "the US turn")
        state = seat(client, us)
        if state["view"]["step"] == "us_movement":
            return state
        actions = state["legal_actions"]
        choice = next((a for a in ("setup default", "end") if a in actions), actions[0])
        assert act(client, us, choice, state["ply"]).status_code == 200
    raise AssertionError("the US movement phase did not come")


def test_a_move_is_taken_back_before_any_die_and_stays_taken_back(db_url: str) -> None:
    from henderson.server import create_app

    with TestClient(create_app(db_url)) as client:
        made = client.post("/api/matches", json={"game": "firstblood", "players": {"jp": "random"}})
        us = made.json()["seats"]["us"]
        start = reach_us_movement(client, us)
        assert start["can_undo"] is False or start["log"][-1]["player"] == "us"
        move = next(a for a in start["legal_actions"] if a.startswith("move "))
        assert act(client, us, move, start["ply"]).status_code == 200
        moved = seat(client, us)
        assert moved["can_undo"] is True
        response = client.post("/api/seat/undo", json={"ply": moved["ply"]}, headers=auth(us))
        assert response.status_code == 200, response.text
        back = seat(client, us)
        assert (back["view"], back["log"], back["ply"]) == (start["view"], start["log"], start["ply"])
        assert back["revision"] > moved["revision"]
        stale = client.post("/api/seat/undo", json={"ply": moved["ply"]}, headers=auth(us))
        assert stale.status_code == 409 and stale.json()["error"] == "stale"
        again = client.post("/api/seat/undo", json={"ply": back["ply"]}, headers=auth(us))
        assert again.status_code == 409 and again.json()["error"] == "cannot-undo"
    with TestClient(create_app(db_url)) as client:  # the database agrees after a restart
        after = seat(client, us)
        assert (after["view"], after["log"], after["ply"]) == (start["view"], start["log"], start["ply"])
