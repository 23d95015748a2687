"""Seats are private: the creator gets its own seat's token and an invite for each other human
seat, usable once; the seat an invite opens is bound to a token made for the claimer alone,
so the creator can neither act nor read as the other side. Playing on one screen (hotseat)
is the one case where the creator asks for every seat."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import act, auth, seat

CONTRIBUTION = "c" * 64


def made(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/matches", json={"game": "toy", **body})
    assert response.status_code == 201, response.text
    return dict(response.json())


def claim(client: TestClient, code: str, contribution: str | None = CONTRIBUTION) -> Any:
    body = {} if contribution is None else {"contribution": contribution}
    return client.post("/api/invite/claim", json=body, headers=auth(code))


def test_the_creator_gets_its_own_seat_and_an_invite_for_the_other(client: TestClient) -> None:
    game = made(client)
    assert set(game["seats"]) == {"red"} and set(game["invites"]) == {"blue"}
    code = game["invites"]["blue"]
    # an invite is no seat: it opens nothing until it is used
    assert client.get("/api/seat", headers=auth(code)).status_code == 404
    assert act(client, code, "hold", 0).status_code == 404
    info = client.get("/api/invite", headers=auth(code))
    assert info.status_code == 200
    assert info.json()["side"] == "blue" and info.json()["dice"]["commitment"] == game["dice"]["commitment"]
    red = seat(client, game["seats"]["red"])
    assert red["invited"] == ["blue"]


def test_the_creator_may_choose_its_side(client: TestClient) -> None:
    game = made(client, side="blue")
    assert set(game["seats"]) == {"blue"} and set(game["invites"]) == {"red"}
    response = client.post("/api/matches", json={"game": "toy", "side": "green"})
    assert response.status_code == 422 and response.json()["error"] == "bad-side"
    response = client.post("/api/matches", json={"game": "toy", "side": "blue", "players": {"blue": "random"}})
    assert response.status_code == 422 and "computer" in response.json()["message"]


def test_an_invite_is_used_once_and_its_seat_is_the_claimers_alone(client: TestClient) -> None:
    game = made(client, contribution=CONTRIBUTION)
    red_token, code = game["seats"]["red"], game["invites"]["blue"]
    first = claim(client, code)
    assert first.status_code == 200, first.text
    blue_token = first.json()["token"]
    assert first.json()["side"] == "blue" and blue_token not in (red_token, code, game["spectator"])
    second = claim(client, code)
    assert second.status_code == 409 and second.json()["error"] == "invite-used"
    assert client.get("/api/invite", headers=auth(code)).status_code == 409
    assert seat(client, blue_token)["side"] == "blue"
    assert seat(client, red_token)["invited"] == []
    # the creator holds no token of blue's: its own acts as red only, and reads red's view only
    assert act(client, red_token, "hold", 0).status_code == 200
    response = act(client, red_token, "hold", 1)
    assert response.status_code == 403 and response.json()["error"] == "not-your-decision"
    assert set(seat(client, red_token)["view"]["cards"]) == {"red"}
    assert act(client, blue_token, "hold", 1).status_code == 200


def test_no_answer_to_the_creator_holds_another_seats_token(client: TestClient) -> None:
    """Whatever the creator can read (the answer to create, its seat, its log, my games) never
    holds the token made for the player who claimed the other seat."""
    game = made(client)
    blue_token = claim(client, game["invites"]["blue"]).json()["token"]
    red_token = game["seats"]["red"]
    answers = [
        str(game),
        client.get("/api/seat", headers=auth(red_token)).text,
        client.get("/api/seat", headers=auth(game["spectator"])).text,
        client.post("/api/mine", json={"tokens": [red_token, game["spectator"]]}).text,
    ]
    assert not any(blue_token in text for text in answers)


def test_hotseat_gives_every_human_seat_to_the_one_screen(client: TestClient) -> None:
    game = made(client, hotseat=True)
    assert set(game["seats"]) == {"red", "blue"} and game["invites"] == {}


def test_an_invite_needs_a_code_of_this_server(client: TestClient) -> None:
    response = client.post("/api/invite/claim", json={})
    assert response.status_code == 401 and response.json()["error"] == "no-token"
    response = claim(client, "x" * 40)
    assert response.status_code == 404 and response.json()["error"] == "unknown-invite"
    game = made(client)
    response = claim(client, game["invites"]["blue"], contribution="not hex")
    assert response.status_code == 422
    assert claim(client, game["invites"]["blue"]).status_code == 200  # a refused claim used nothing


def test_a_computer_side_gets_no_invite(client: TestClient) -> None:
    game = made(client, players={"blue": "holder"})
    assert set(game["seats"]) == {"red"} and game["invites"] == {}
