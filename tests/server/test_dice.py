"""The server's dice: a secret per match, its SHA-256 published in the record's header, each
seat's contribution mixed in, the secret revealed when the game ends and never before, and
`henderson verify` checking every die of the finished record. Uploaded records resume with
new secret dice: no seed, start dice or listed dice in them decide a die to come, and a
position of the uploader's own is never the start of a game with an invited player."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from henderson import games
from henderson.core.dice import ScriptedDice, SeededDice, commitment
from henderson.core.record import GameRecord, record_for, replay, verify
from henderson.server import create_app
from henderson.server.storage import Store
from tests.server.conftest import act, auth, seat, wait_for
from tests.support.toy import ToyGame

CONTRIBUTION = "d" * 64


@pytest.fixture
def open_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy game without its secret cards counting as hidden information, so that its
    record may be downloaded while it goes on."""
    monkeypatch.setattr(ToyGame, "hidden_information", False)


def new(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/matches", json={"game": "toy", **body})
    assert response.status_code == 201, response.text
    return dict(response.json())


def upload(client: TestClient, record: GameRecord, **body: Any) -> Any:
    return client.post("/api/records", json={"record": record.dumps(), **body})


def roll_on(client: TestClient, tokens: dict[str, str], count: int) -> list[int]:
    """`count` rolls by whichever of the seats decides (waiting while a computer player
    plays); the dice the server rolled."""
    values: list[int] = []
    while len(values) < count:
        wait_for(
            lambda: seat(client, tokens["red"])["current_player"] in (*tokens, None),
            "the computer player's turn to end",
        )
        state = seat(client, tokens["red"])
        if state["terminal"]:
            break
        token = tokens[state["current_player"]]
        response = act(client, token, "roll", state["ply"])
        assert response.status_code == 200, response.text
        values += [e["data"]["value"] for e in response.json()["entry"]["events"] if e["kind"] == "roll"]
    return values


def test_the_record_holds_the_commitment_and_no_seed(client: TestClient, db_url: str) -> None:
    game = new(client, hotseat=True, contribution=CONTRIBUTION)
    stored = Store(db_url)
    secret = stored.secret(game["match"])
    assert secret is not None and len(secret) == 64
    record = stored.record(game["match"])
    assert record is not None and record.dice is not None
    assert record.seed is None and record.dice.commitment == commitment(secret) == game["dice"]["commitment"]
    assert record.dice.secret is None
    assert [(c.side, c.value, c.roll) for c in record.dice.contributions] == [("red", CONTRIBUTION, 0)]
    assert record.setup_dice is not None and len(record.setup_dice) == 2  # the secret cards


@pytest.mark.usefixtures("open_game")
def test_the_secret_never_leaves_the_server_while_the_game_goes_on(client: TestClient, db_url: str) -> None:
    game = new(client, contribution=CONTRIBUTION)
    red, code = game["seats"]["red"], game["invites"]["blue"]
    invite = client.get("/api/invite", headers=auth(code)).text
    claimed = client.post("/api/invite/claim", json={"contribution": "e" * 64}, headers=auth(code))
    tokens = {"red": red, "blue": claimed.json()["token"]}
    roll_on(client, tokens, 6)
    secret = Store(db_url).secret(game["match"])
    assert secret is not None
    answers = [json.dumps(game), invite, claimed.text]
    for token in [*tokens.values(), game["spectator"]]:
        answers.append(client.get("/api/seat", headers=auth(token)).text)
        answers.append(client.get("/api/seat/history", params={"step": 1}, headers=auth(token)).text)
        answers.append(client.get("/api/seat/record", headers=auth(token)).text)
    answers.append(client.post("/api/mine", json={"tokens": list(tokens.values())}).text)
    deciding = tokens[seat(client, red)["current_player"]]
    body = {"actions": ["hold"], "fields": ["to_act"]}
    answers.append(client.post("/api/seat/preview", json=body, headers=auth(deciding)).text)
    assert not any(secret in text for text in answers)
    downloaded = GameRecord.loads(client.get("/api/seat/record", headers=auth(red)).text)
    assert downloaded.dice is not None and downloaded.dice.secret is None
    assert not verify(downloaded, games.get("toy")).ok


def test_the_secret_is_revealed_at_the_end_and_every_die_verifies(client: TestClient, db_url: str) -> None:
    game = new(client, players={"red": "random", "blue": "random"}, contribution=CONTRIBUTION)
    token = game["spectator"]
    wait_for(lambda: seat(client, token)["terminal"], "the computer players to finish")
    secret = Store(db_url).secret(game["match"])
    assert seat(client, token)["dice"]["secret"] == secret
    text = client.get("/api/seat/record", headers=auth(token)).text
    record = GameRecord.loads(text)
    assert record.dice is not None and record.dice.secret == secret
    verdict = verify(record, games.get("toy"))
    assert verdict.ok and verdict.text.startswith("verified: "), verdict.text
    # the same record with one die changed is caught, on its line
    lines = text.splitlines()
    number = next(i for i, line in enumerate(lines[1:], 2) if json.loads(line).get("dice"))
    entry = json.loads(lines[number - 1])
    entry["dice"][0] = entry["dice"][0] % 6 + 1
    for event in entry["events"]:
        if event["kind"] == "roll":
            event["data"]["value"] = entry["dice"][0]
            break
    lines[number - 1] = json.dumps(entry)
    verdict = verify(GameRecord.loads("\n".join(lines)), games.get("toy"))
    assert not verdict.ok and verdict.text.startswith(f"FAILED: line {number}: "), verdict.text


def test_a_late_contribution_keys_the_dice_from_the_next_die_and_the_record_says_which(
    client: TestClient,
) -> None:
    game = new(client, contribution=CONTRIBUTION)
    red = game["seats"]["red"]
    rolled = roll_on(client, {"red": red}, 1)  # red's first roll (then red holds, if the die allows)
    before = seat(client, red)
    if before["current_player"] == "red":
        assert act(client, red, "hold", before["ply"]).status_code == 200
    code = game["invites"]["blue"]
    claimed = client.post("/api/invite/claim", json={"contribution": "e" * 64}, headers=auth(code))
    assert claimed.status_code == 200
    contributions = claimed.json()["dice"]["contributions"]
    assert contributions == [{"side": "red", "roll": 0}, {"side": "blue", "roll": 2 + len(rolled)}]


def seeded_toy_record(seed: int, actions: list[str]) -> GameRecord:
    game = games.get("toy")
    state = game.new_state(seed)
    record = record_for(game, state, {"red": "human", "blue": "human"})
    for action in actions:
        side = state.current_player()
        record.add(side, action, state.apply(action))
    return record


def test_an_uploaded_seed_decides_no_die_to_come(client: TestClient) -> None:
    """The issue: with a chosen seed every server roll could be predicted offline."""
    record = seeded_toy_record(11, ["hold", "hold"])
    response = upload(client, record, hotseat=True)
    assert response.status_code == 201, response.text
    tokens = response.json()["seats"]
    header = GameRecord.loads(record.dumps())
    assert header.seed == 11
    served = roll_on(client, tokens, 20)
    # what the seed would have rolled next
    predicted = replay(header, games.get("toy"))
    assert isinstance(predicted.dice, SeededDice)
    foreseen = [predicted.dice.roll("x") for _ in range(len(served))]
    assert served != foreseen
    # the uploaded past is kept as history, its dice listed
    history = seat(client, tokens["red"])["log"][:2]
    assert [e["action"] for e in history] == ["hold", "hold"]


def test_uploaded_start_dice_decide_no_die_to_come(client: TestClient) -> None:
    """The issue: a scripted `start.dice` made 13 of 13 rolls sixes."""
    game = games.get("toy")
    state = game.new_state(5)
    state.dice = ScriptedDice([6] * 13)
    record = record_for(game, state, {"red": "human", "blue": "holder"}, from_position=True)
    assert record.start is not None and record.start["dice"]["values"] == [6] * 13
    response = upload(client, record)
    assert response.status_code == 201, response.text
    rolled = roll_on(client, response.json()["seats"], 13)
    assert rolled != [6] * len(rolled)


def forged(name: str, change: Any, players: dict[str, str]) -> GameRecord:
    game = games.get(name)
    position = game.new_state(4).to_json()
    change(position)
    return record_for(game, game.load_state(position), players, from_position=True)


def test_a_made_up_start_is_refused_for_a_game_with_an_invited_player(client: TestClient) -> None:
    """The issue: a forged start (DG VP -60) was accepted, and the invited opponent could not
    tell. A position of the uploader's own starts only a game the uploader plays alone."""

    def minus_sixty(position: dict[str, Any]) -> None:
        position["vp"] = -60

    humans = {"us": "human", "jp": "human"}
    record = forged("deluxe", minus_sixty, humans)
    response = upload(client, record)
    assert response.status_code == 422 and response.json()["error"] == "bad-record"
    assert "invited player cannot check" in response.json()["message"]
    # the uploader's own game: alone against the computer, or both sides on one screen
    assert upload(client, record, players={"us": "human", "jp": "random"}).status_code == 201
    assert upload(client, record, hotseat=True).status_code == 201


def test_a_start_that_is_a_new_games_set_up_may_be_played_with_an_invited_player(client: TestClient) -> None:
    game = games.get("firstblood")
    state = game.new_state(2)
    position = state.to_json()
    position.pop("dice")
    record = record_for(game, game.load_state(position), {"us": "human", "jp": "human"}, from_position=True)
    record.add("us", "setup default", game.load_state(position).apply("setup default"))
    response = upload(client, record)
    assert response.status_code == 201, response.text
    made = response.json()
    assert set(made["seats"]) == {"us"} and set(made["invites"]) == {"jp"}
    # the invited player is told that the first action and its dice came with the upload
    info = client.get("/api/invite", headers=auth(made["invites"]["jp"])).json()
    assert info["dice"]["from_entry"] == 1 and info["steps"] == 1
    record.start = dict(position, turn="OCT I")  # not where a new game starts
    response = upload(client, record)
    assert response.status_code == 422 and response.json()["error"] == "bad-record"


def test_an_inconsistent_start_is_refused(client: TestClient) -> None:
    game = games.get("toy")
    record = record_for(game, game.new_state(3), {"red": "human", "blue": "holder"}, from_position=True)
    record.options = {"fast": True}
    response = upload(client, record)
    assert response.status_code == 422 and "options" in response.json()["message"]


@pytest.mark.usefixtures("open_game")
def test_a_game_going_on_downloads_with_every_die_listed_and_no_secret(client: TestClient) -> None:
    game = new(client, players={"blue": "holder"}, contribution=CONTRIBUTION)
    red = game["seats"]["red"]
    roll_on(client, {"red": red}, 3)
    wait_for(lambda: seat(client, red)["current_player"] == "red" or seat(client, red)["terminal"], "red's turn")
    record = GameRecord.loads(client.get("/api/seat/record", headers=auth(red)).text)
    assert record.seed is None and record.setup_dice is not None
    assert all(e.dice is not None for e in record.entries)
    assert record.dice is not None and record.dice.secret is None
    state = replay(record, games.get("toy"))
    assert state.view("red") == seat(client, red)["view"]


def test_a_match_stored_by_an_older_version_goes_on_with_secret_dice(db_url: str) -> None:
    """A match whose header has a seed and no commitment (stored before the dice were secret)
    replays with its seed and plays on with a new secret, stored."""
    record = seeded_toy_record(8, ["hold"])
    store = Store(db_url)
    seats = {"r" * 32: ("red", "human"), "b" * 32: ("blue", "human")}
    store.create_match("0123456789abcdef", record, seats, "blue", False)
    with TestClient(create_app(db_url)) as client:
        blue = seat(client, "b" * 32)
        assert blue["ply"] == 1 and blue["dice"]["from_entry"] == 1
        assert act(client, "b" * 32, "roll", 1).status_code == 200
    converted = Store(db_url).record("0123456789abcdef")
    assert converted is not None and converted.dice is not None and converted.setup_dice is not None
    assert Store(db_url).secret("0123456789abcdef") is not None
    assert replay(converted, games.get("toy")).ply == 2  # with the dice it lists
