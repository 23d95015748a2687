"""The JSON API: creating, joining, acting, and every refusal leaving the game untouched."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from tests.server.conftest import act, auth, create, seat, wait_for


def test_games_list_the_toy_game_with_its_sides(client: TestClient) -> None:
    found = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert found["toy"]["sides"] == ["red", "blue"]
    assert "random" in client.get("/api/agents").json()["agents"]


def test_board_data_is_empty_for_a_game_without_client_data(client: TestClient) -> None:
    response = client.get("/api/games/toy/board")
    assert response.status_code == 200
    assert response.json() == {}


def test_create_gives_a_token_per_human_seat_and_a_spectator(client: TestClient) -> None:
    made = create(client)
    assert set(made["seats"]) == {"red", "blue"}
    tokens = [*made["seats"].values(), made["spectator"]]
    assert len(set(tokens)) == 3 and all(len(t) >= 32 for t in tokens)
    red = seat(client, made["seats"]["red"])
    assert red["side"] == "red" and red["your_turn"] is True
    assert red["legal_actions"] == ["roll", "hold"]
    blue = seat(client, made["seats"]["blue"])
    assert blue["your_turn"] is False and blue["legal_actions"] == []
    watcher = seat(client, made["spectator"])
    assert watcher["role"] == "spectator" and watcher["side"] is None


def test_a_seat_acts_and_the_state_moves_on(client: TestClient) -> None:
    made = create(client)
    red = made["seats"]["red"]
    response = act(client, red, "hold", 0)
    assert response.status_code == 200, response.text
    assert response.json()["ply"] == 1
    blue = seat(client, made["seats"]["blue"])
    assert blue["your_turn"] is True and blue["ply"] == 1
    assert [e["action"] for e in blue["log"]] == ["hold"]
    assert blue["log"][0]["events"][0]["kind"] == "hold"


def test_the_notation_is_stored_in_its_canonical_form(client: TestClient) -> None:
    made = create(client)
    assert act(client, made["seats"]["red"], "  HOLD ", 0).status_code == 200
    assert seat(client, made["spectator"])["log"][0]["action"] == "hold"


def test_a_stale_action_is_refused_and_changes_nothing(client: TestClient) -> None:
    made = create(client)
    red = made["seats"]["red"]
    assert act(client, red, "roll", 0).status_code == 200
    before = seat(client, red)
    if before["current_player"] != "red":  # the roll was a 1: make it red's turn again
        assert act(client, made["seats"]["blue"], "hold", before["ply"]).status_code == 200
        before = seat(client, red)
    response = act(client, red, "hold", 0)
    assert response.status_code == 409
    assert response.json()["error"] == "stale"
    assert seat(client, red) == before


def test_the_wrong_seat_is_refused(client: TestClient) -> None:
    made = create(client)
    response = act(client, made["seats"]["blue"], "hold", 0)
    assert response.status_code == 403
    assert response.json()["error"] == "not-your-decision"
    assert seat(client, made["spectator"])["ply"] == 0


def test_a_spectator_cannot_act(client: TestClient) -> None:
    made = create(client)
    response = act(client, made["spectator"], "hold", 0)
    assert response.status_code == 403
    assert response.json()["error"] == "spectator"
    assert seat(client, made["spectator"])["ply"] == 0


def test_bad_notation_is_a_4xx_naming_the_problem(client: TestClient) -> None:
    made = create(client)
    response = act(client, made["seats"]["red"], "fly away", 0)
    assert response.status_code == 422
    body = response.json()
    assert body["error"] == "bad-notation" and "fly away" in body["message"]
    assert seat(client, made["spectator"])["ply"] == 0


def test_an_illegal_action_names_its_rule(client: TestClient) -> None:
    made = client.post("/api/matches", json={"game": "stricttoy"}).json()
    red = made["seats"]["red"]
    response = act(client, red, "hold", 0)
    assert response.status_code == 422
    assert response.json() == {
        "error": "illegal-action",
        "rule": "STRICT 1",
        "message": "there is nothing to bank: roll first",
    }
    assert seat(client, red)["ply"] == 0 and seat(client, red)["log"] == []


def test_a_finished_game_refuses_every_action(client: TestClient) -> None:
    made = create(client, red="random", blue="random")
    token = made["spectator"]
    wait_for(lambda: seat(client, token)["terminal"], "the computer players to finish")
    upload = client.post(
        "/api/records",
        json={
            "record": client.get("/api/seat/record", headers=auth(token)).text,
            "players": {"red": "human", "blue": "human"},
        },
    )
    assert upload.status_code == 201, upload.text
    tokens = upload.json()["seats"]
    response = act(client, tokens["red"], "roll", seat(client, tokens["red"])["ply"])
    assert response.status_code == 409
    assert response.json()["error"] == "game-over"


def test_hidden_cards_are_never_sent_to_the_other_seat(client: TestClient) -> None:
    made = create(client)
    red = seat(client, made["seats"]["red"])
    blue = seat(client, made["seats"]["blue"])
    watcher = seat(client, made["spectator"])
    assert set(red["view"]["cards"]) == {"red"}
    assert set(blue["view"]["cards"]) == {"blue"}
    assert watcher["view"]["cards"] == {}
    history = client.get("/api/seat/history", params={"step": 0}, headers=auth(made["seats"]["red"]))
    assert set(history.json()["view"]["cards"]) == {"red"}


def test_while_two_humans_play_each_seat_downloads_its_own_copy(client: TestClient) -> None:
    made = create(client)
    assert act(client, made["seats"]["red"], "roll", 0).status_code == 200
    for side, token in [*made["seats"].items(), (None, made["spectator"])]:
        response = client.get("/api/seat/record", headers=auth(token))
        assert response.status_code == 200 and response.headers["x-henderson-record"] == "seat-copy"
        assert f"-{side or 'spectator'}-seat-copy.jsonl" in response.headers["content-disposition"]
        lines = [json.loads(line) for line in response.text.splitlines()]
        head, entries = lines[0], lines[1:]
        assert head["meta"]["seat_copy"]["side"] == (side or "spectator")
        assert "setup_dice" not in head and "start" not in head and head["dice"]["secret"] is None
        assert entries == seat(client, token)["log"]  # each entry as the seat read it, no dice
        assert all("dice" not in entry for entry in entries)


def test_an_agent_seat_moves_by_itself(client: TestClient) -> None:
    made = create(client, blue="holder")
    assert set(made["seats"]) == {"red"}
    red = made["seats"]["red"]
    assert act(client, red, "hold", 0).status_code == 200  # blue, the computer, must act now
    wait_for(lambda: seat(client, red)["current_player"] == "red", "the computer to play blue's turn")
    after = seat(client, red)
    assert after["ply"] >= 2
    assert all(e["player"] == "blue" for e in after["log"][1:])


def test_two_computer_players_finish_a_game_alone(client: TestClient) -> None:
    made = create(client, red="random", blue="random")
    token = made["spectator"]
    wait_for(lambda: seat(client, token)["terminal"], "the game to end")
    final = seat(client, token)
    assert final["winner"] in ("red", "blue")
    assert final["legal_actions"] == []


def test_history_steps_through_the_record(client: TestClient) -> None:
    made = create(client)
    red, blue = made["seats"]["red"], made["seats"]["blue"]
    assert act(client, red, "hold", 0).status_code == 200
    assert act(client, blue, "hold", 1).status_code == 200
    steps = [client.get("/api/seat/history", params={"step": n}, headers=auth(red)).json() for n in range(3)]
    assert [s["current_player"] for s in steps] == ["red", "blue", "red"]
    assert client.get("/api/seat/history", params={"step": 9}, headers=auth(red)).status_code == 422


def test_my_games_lists_known_tokens_and_sets_aside_the_others(client: TestClient) -> None:
    made = create(client, blue="random")
    response = client.post("/api/mine", json={"tokens": [made["seats"]["red"], "not-a-token"]})
    body = response.json()
    assert [g["side"] for g in body["games"]] == ["red"]
    assert body["games"][0]["match"] == made["match"]
    assert body["unknown"] == ["not-a-token"]


def test_create_refuses_unknown_games_sides_and_players(client: TestClient) -> None:
    response = client.post("/api/matches", json={"game": "chess"})
    assert response.status_code == 404 and response.json()["error"] == "unknown-game"
    response = client.post("/api/matches", json={"game": "toy", "players": {"green": "human"}})
    assert response.status_code == 422 and response.json()["error"] == "bad-players"
    response = client.post("/api/matches", json={"game": "toy", "players": {"red": "deep-blue"}})
    assert response.status_code == 422 and "deep-blue" in response.json()["message"]


def test_odds_need_a_game_with_odds_and_the_deciding_seat(client: TestClient) -> None:
    made = create(client)
    red, blue = made["seats"]["red"], made["seats"]["blue"]
    response = client.post("/api/seat/odds", json={"attack": "roll"}, headers=auth(red))
    assert response.status_code == 404 and response.json()["error"] == "no-odds"
    response = client.post("/api/seat/odds", json={"attack": "roll"}, headers=auth(blue))
    assert response.status_code == 403 and response.json()["error"] == "not-your-decision"
    response = client.post("/api/seat/odds", json={"attack": "x"}, headers=auth(made["spectator"]))
    assert response.status_code == 403 and response.json()["error"] == "spectator"


def test_a_preview_never_rolls_nor_crosses_a_change_of_player(
    client: TestClient,
) -> None:
    """A preview shows nothing a die would do, and stops where the decision passes to the
    other side (holding ends red's turn: what follows is blue's to decide)."""
    made = create(client)
    red = made["seats"]["red"]
    body = {"actions": ["hold", "roll", "jump"], "fields": ["to_act", "cards"]}
    response = client.post("/api/seat/preview", json=body, headers=auth(red))
    assert response.status_code == 200, response.text
    hold, roll, jump = response.json()["results"]
    assert hold["ok"] is False and "decision passed to the other side" in hold["message"] and "view" not in hold
    assert roll["ok"] is False and "dice" in roll["message"] and "view" not in roll
    assert jump["ok"] is False and "jump" in jump["message"]
    assert seat(client, red)["ply"] == 0  # the game itself is untouched
    response = client.post("/api/seat/preview", json=body, headers=auth(made["seats"]["blue"]))
    assert response.status_code == 403


def test_an_action_that_rolled_a_die_cannot_be_taken_back(client: TestClient) -> None:
    made = client.post("/api/matches", json={"game": "toy", "players": {"blue": "random"}}).json()
    red = made["seats"]["red"]
    state = seat(client, red)
    while True:  # roll until a roll keeps the turn
        assert act(client, red, "roll", state["ply"]).status_code == 200
        wait_for(lambda: seat(client, red)["your_turn"] or seat(client, red)["terminal"], "red's turn")
        state = seat(client, red)
        if state["terminal"] or state["log"][-1]["player"] == "red":
            break
    if state["terminal"]:
        return
    assert state["can_undo"] is False
    response = client.post("/api/seat/undo", json={"ply": state["ply"]}, headers=auth(red))
    assert response.status_code == 409 and response.json()["error"] == "cannot-undo"
