"""A number of thousands of digits (more than Python turns into an integer from text) in any
JSON from outside is refused in one line naming the line, not an internal error: found by the
play-by-e-mail fuzz, and the same in records, through Python, the command line and HTTP."""

from __future__ import annotations

import json
from typing import Any

import pytest

from henderson.core import jsontext
from henderson.core.errors import RecordError
from henderson.core.record import GameRecord
from tests.fuzz.conftest import stored_matches
from tests.fuzz.support import assert_cli_refuses, cli_run, record_text

LONG = "9" * 5000


def with_long_number(text: str) -> str:
    lines = text.splitlines()
    lines[1] = lines[1].replace('"ply":', f'"ply":{LONG},"x":', 1)
    return "\n".join(lines) + "\n"


def test_jsontext_refuses_it_as_json() -> None:
    with pytest.raises(json.JSONDecodeError, match="too many digits"):
        jsontext.loads(f'{{"n": {LONG}}}')


def test_a_record_holding_one_is_refused_naming_the_line() -> None:
    with pytest.raises(RecordError, match="line 2: not JSON"):
        GameRecord.loads(with_long_number(record_text("aag")), "record")


def test_the_cli_refuses_it_in_one_line(monkeypatch: Any, capsys: Any, tmp_path: Any) -> None:
    path = tmp_path / "game.jsonl"
    path.write_text(with_long_number(record_text("firstblood")))
    code, _, err = cli_run(monkeypatch, capsys, "replay", str(path), "-q")
    assert_cli_refuses(code, err)
    assert "line 2" in err


def test_an_upload_holding_one_is_a_422(server: Any) -> None:
    before = stored_matches(server)
    text = with_long_number(record_text("deluxe"))
    response = server.post("/api/records", json={"record": text, "hotseat": True})
    assert response.status_code == 422 and response.json()["error"] == "bad-record", response.text
    assert stored_matches(server) == before
