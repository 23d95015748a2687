"""A backup that resumes (docs/server.md, docs/threat-model.md): mid-game in a game of hidden
information between people, each side's copy carries its share of a key and the whole
record sealed with it; one copy alone opens nothing, the copies together resume the game
where the server has it (POST /api/records with `other_copies`)."""

from __future__ import annotations

import base64
import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from henderson import games
from henderson.core.sealed import SealError, key_of, open_sealed, read_copy
from tests.server.conftest import act, auth, seat

pytestmark = pytest.mark.skipif("deluxe" not in games.names(), reason="Deluxe Guadalcanal is not installed")


def dg_match(client: TestClient, plies: int = 6, seed: int = 1) -> dict[str, Any]:
    """A DG match between two people on one screen, a few actions into the game."""
    response = client.post("/api/matches", json={"game": "deluxe", "hotseat": True})
    assert response.status_code == 201, response.text
    made = dict(response.json())
    rng = random.Random(seed)
    for _ in range(plies):
        anyone = seat(client, made["spectator"])
        token = made["seats"][anyone["current_player"]]
        mine = seat(client, token)
        action = rng.choice(mine["legal_actions"])
        assert act(client, token, str(action), mine["ply"]).status_code == 200
    return made


def copy_of(client: TestClient, token: str) -> str:
    response = client.get("/api/seat/record", headers=auth(token))
    assert response.status_code == 200 and response.headers["x-henderson-record"] == "seat-copy"
    return response.text


def head(text: str) -> dict[str, Any]:
    return dict(json.loads(text.splitlines()[0]))


def resume(client: TestClient, record: str, *others: str) -> Any:
    return client.post("/api/records", json={"record": record, "other_copies": list(others), "hotseat": True})


def test_the_download_is_named_by_game_match_and_seat(client: TestClient) -> None:
    made = dg_match(client, plies=1)
    response = client.get("/api/seat/record", headers=auth(made["seats"]["us"]))
    disposition = response.headers["content-disposition"]
    assert f'filename="deluxe-{made["match"]}-us-seat-copy.jsonl"' in disposition


def test_one_seat_copy_reveals_nothing_hidden(client: TestClient) -> None:
    made = dg_match(client)
    us = copy_of(client, made["seats"]["us"])
    copy = read_copy(us)
    sealed = base64.b64decode(copy.sealed["ciphertext"])
    whole_start = b'{"format":'
    assert not sealed.startswith(whole_start) and b'"dice"' not in sealed and b"deluxe" not in sealed
    with pytest.raises(SealError, match="does not check"):  # its own share is not the key
        open_sealed(copy.sealed, key_of([copy.share]))
    # a fresh nonce each download: the same record seals differently
    again = read_copy(copy_of(client, made["seats"]["us"]))
    assert again.share == copy.share and again.sealed["ciphertext"] != copy.sealed["ciphertext"]
    # the spectator holds no share and nothing sealed
    assert "sealed" not in head(copy_of(client, made["spectator"]))["meta"]["seat_copy"]


def test_one_copy_alone_is_refused_naming_the_other(client: TestClient) -> None:
    made = dg_match(client)
    response = resume(client, copy_of(client, made["seats"]["us"]))
    assert response.status_code == 422
    assert response.json()["error"] == "other-copy-needed" and "jp" in response.json()["message"]


def test_the_two_copies_resume_the_game_where_the_server_has_it(client: TestClient) -> None:
    made = dg_match(client)
    us, jp = copy_of(client, made["seats"]["us"]), copy_of(client, made["seats"]["jp"])
    response = resume(client, jp, us)
    assert response.status_code == 201, response.text
    resumed = response.json()["seats"]
    for side in ("us", "jp"):
        before, after = seat(client, made["seats"][side]), seat(client, resumed[side])
        assert after["ply"] == before["ply"] and after["view"] == before["view"]
        assert after["legal_actions"] == before["legal_actions"]


def test_the_latest_sealed_record_is_resumed(client: TestClient) -> None:
    made = dg_match(client, plies=3)
    early = copy_of(client, made["seats"]["us"])
    anyone = seat(client, made["spectator"])
    token = made["seats"][anyone["current_player"]]
    mine = seat(client, token)
    assert act(client, token, str(mine["legal_actions"][0]), mine["ply"]).status_code == 200
    late = copy_of(client, made["seats"]["jp"])
    response = resume(client, early, late)
    assert response.status_code == 201, response.text
    assert seat(client, response.json()["spectator"])["ply"] == seat(client, made["spectator"])["ply"]


def test_a_tampered_seal_is_refused(client: TestClient) -> None:
    made = dg_match(client)
    us, jp = copy_of(client, made["seats"]["us"]), copy_of(client, made["seats"]["jp"])
    header = head(us)
    body = bytearray(base64.b64decode(header["meta"]["seat_copy"]["sealed"]["ciphertext"]))
    body[10] ^= 1
    header["meta"]["seat_copy"]["sealed"]["ciphertext"] = base64.b64encode(bytes(body)).decode()
    tampered = "\n".join([json.dumps(header), *us.splitlines()[1:]]) + "\n"
    response = resume(client, tampered, jp)
    assert response.status_code == 422 and response.json()["error"] == "bad-seal"


def test_copies_of_two_matches_are_refused(client: TestClient) -> None:
    one, two = dg_match(client, seed=1), dg_match(client, seed=2)
    response = resume(client, copy_of(client, one["seats"]["us"]), copy_of(client, two["seats"]["jp"]))
    assert response.status_code == 422 and response.json()["error"] == "copies-differ"


def test_a_whole_record_with_other_copies_is_refused(client: TestClient) -> None:
    made = dg_match(client, plies=1)
    whole = client.post("/api/matches", json={"game": "deluxe", "players": {"jp": "holder"}}).json()
    text = client.get("/api/seat/record", headers=auth(whole["seats"]["us"])).text
    response = resume(client, text, copy_of(client, made["seats"]["jp"]))
    assert response.status_code == 422 and response.json()["error"] == "not-a-seat-copy"


def test_a_seat_copy_header_meets_the_published_schema(client: TestClient) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    from henderson.core import schemas

    made = dg_match(client, plies=1)
    schema = schemas.record_header_schema()
    for token in (made["seats"]["us"], made["spectator"]):
        jsonschema.Draft202012Validator(schema).validate(head(copy_of(client, token)))
    bad = head(copy_of(client, made["seats"]["us"]))
    bad["meta"]["seat_copy"]["share"] = "xyz"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(schema).validate(bad)


def run_cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    import io
    import sys

    from henderson import cli

    monkeypatch.setattr(sys, "argv", ["henderson", *args])
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    try:
        cli.main()
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out + out.err


def test_the_terminal_resumes_the_two_copies(
    client: TestClient, tmp_path: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from henderson.core.record import GameRecord

    made = dg_match(client)
    us, jp = tmp_path / "us.jsonl", tmp_path / "jp.jsonl"
    us.write_text(copy_of(client, made["seats"]["us"]))
    jp.write_text(copy_of(client, made["seats"]["jp"]))
    people = ("--us", "human", "--jp", "human")
    code, text = run_cli(monkeypatch, capsys, "play", "deluxe", "--resume", str(us), *people)
    assert code == 2 and "the copy of jp is needed" in text and "Traceback" not in text
    code, text = run_cli(monkeypatch, capsys, "play", "deluxe", "--resume", str(us), "--with-copy", str(jp), *people)
    assert code == 0, text
    saved = GameRecord.read(tmp_path / "us-resumed.jsonl")  # the seat copies are left as they were
    assert len(saved.entries) == seat(client, made["spectator"])["ply"]
    assert "seat_copy" in head(us.read_text())["meta"]
