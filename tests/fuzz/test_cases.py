"""Each malformed position, record and upload found by probing the engine, the command line
and the server (issue 18): refused with one line naming the field, and nothing written."""

from __future__ import annotations

import json
from typing import Any

import pytest

from henderson.core.errors import HendersonError, PositionError, RecordError
from henderson.core.record import GameRecord, replay
from tests.fuzz.conftest import stored_matches
from tests.fuzz.support import (
    GAMES,
    assert_cli_refuses,
    cli_run,
    game_of,
    header_and_entries,
    lines_text,
    positions,
    record_text,
    replaced,
)

# (place in the position, value, a word the error must name)
POSITION_CASES: list[tuple[tuple[str, ...], Any, str]] = [
    (("dice",), {"kind": "seeded", "seed": 10**80}, "dice"),
    (("dice",), {"kind": "seeded", "seed": -5}, "dice"),
    (("dice",), {"kind": "seeded", "seed": 3, "state": 2**64}, "dice"),
    (("dice",), {"kind": "scripted", "values": [0]}, "dice"),
    (("dice",), {"kind": "scripted", "values": [3, 99]}, "dice"),
    (("dice",), {"kind": "scripted", "values": ["six"]}, "dice"),
    (("dice",), {"kind": "loaded"}, "dice"),
    (("seed",), 10**80, "seed"),
    (("seed",), -1, "seed"),
    (("turn",), -1, "turn"),
    (("turn",), 10**15, "turn"),
    (("ply",), -3, "ply"),
    (("ply",), 10**20, "ply"),
    (("result",), "xy", "result"),
    (("result",), {"winner": "xy"}, "result"),
    (("options",), {"narnia": True}, "options"),
    (("options",), [], "options"),
    (("narnia",), 1, "narnia"),
]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize(("where", "value", "named"), POSITION_CASES)
def test_malformed_positions_are_refused(name: str, where: tuple[str, ...], value: Any, named: str) -> None:
    bad = replaced(positions(name)[-1], where, value)
    with pytest.raises(PositionError) as caught:
        game_of(name).load_state(bad)
    assert named in str(caught.value) and "\n" not in str(caught.value)


def test_a_firstblood_unit_on_the_map_and_eliminated_is_refused() -> None:
    position = positions("firstblood")[-1]
    unit = next(iter(position["ground"]))
    bad = replaced(position, ("eliminated",), [*position["eliminated"], unit])
    with pytest.raises(PositionError, match=f"eliminated.{unit}"):
        game_of("firstblood").load_state(bad)


def test_an_aag_zone_of_no_map_is_refused() -> None:
    position = positions("aag")[-1]
    piece = next(iter(position["pieces"]))
    with pytest.raises(PositionError, match="narnia"):
        game_of("aag").load_state(replaced(position, ("pieces", piece, "zone"), "narnia"))
    with pytest.raises(PositionError, match="narnia"):
        game_of("aag").load_state(replaced(position, ("control", "narnia"), "us"))


def test_deluxe_scripted_dice_may_draw_a_card_but_no_more() -> None:
    game = game_of("deluxe")
    position = positions("deluxe")[-1]
    faces = game.die_faces
    assert faces == 9
    game.load_state(replaced(position, ("dice",), {"kind": "scripted", "values": [faces]}))
    with pytest.raises(PositionError, match="dice"):
        game.load_state(replaced(position, ("dice",), {"kind": "scripted", "values": [faces + 1]}))


# -- records -------------------------------------------------------------------------------------


def _with_roll(objs: list[dict[str, Any]]) -> tuple[int, int]:
    for line, obj in enumerate(objs):
        for n, event in enumerate(obj.get("events", [])):
            if event.get("kind") == "roll":
                return line, n
    raise AssertionError("no roll event in the record")


def record_cases(name: str) -> list[tuple[str, str]]:
    """(what is wrong, the record's text) for one game."""
    objs = header_and_entries(record_text(name))
    cases: list[tuple[str, str]] = []

    def case(what: str, line: int, where: tuple[Any, ...], value: Any) -> None:
        changed = list(objs)
        changed[line] = replaced(objs[line], where, value)
        cases.append((what, lines_text(changed)))

    case("an event that is a string", 1, ("events",), ["boom"])
    case("options as a list", 0, ("options",), [])
    case("players as a list", 0, ("players",), ["us"])
    case("a player that is a number", 0, ("players",), {"us": 3})
    case("a seed of 10**80", 0, ("seed",), 10**80)
    case("a negative seed", 0, ("seed",), -1)
    case("an unknown header field", 0, ("narnia",), 1)
    case("an unknown entry field", 1, ("narnia",), 1)
    case("a ply that is text", 1, ("ply",), "x")
    case("a ply out of order", 1, ("ply",), 5)
    case("dice that are text", 1, ("dice",), "six")
    case("a die of 0", 1, ("dice",), [0])
    case("an event with an unknown field", 1, ("events",), [{"kind": "x", "text": "", "data": {}, "narnia": 1}])
    case("an event whose data is a list", 1, ("events",), [{"kind": "x", "text": "", "data": []}])
    case("a version that is true", 0, ("version",), True)
    case("a start that is a list", 0, ("start",), [])
    case("set-up dice of text", 0, ("setup_dice",), ["x"])
    if any(e.get("kind") == "roll" for o in objs for e in o.get("events", [])):
        line, n = _with_roll(objs)
        case("a roll value that is text", line, ("events", n, "data", "value"), "six")
    deep: Any = 1
    for _ in range(200):
        deep = {"a": deep}
    case("JSON nested too deep", 0, ("meta",), deep)
    cases.append(("JSON nested thousands deep", objs[0] and json.dumps(objs[0]) + "\n" + "[" * 50_000 + "]" * 50_000))
    cases.append(("a line that is no JSON", json.dumps(objs[0]) + "\n{oops\n"))
    cases.append(("an empty record", "\n"))
    return cases


def start_cases(name: str) -> list[tuple[str, str]]:
    """Records whose start position is wrong (DG `start` fields of the wrong type among them)."""
    objs = header_and_entries(record_text(name, from_position=True))
    start = objs[0]["start"]
    out = []
    for key, value in start.items():
        if key in ("format", "game", "version", "data_version"):
            continue
        for wrong in ("text", 10**80, [[]], {"narnia": 1}):
            if isinstance(value, type(wrong)) and not isinstance(value, bool):
                continue
            head = replaced(objs[0], ("start", key), wrong)
            out.append((f"start.{key} = {wrong!r}"[:60], lines_text([head, *objs[1:]])))
            break
    return out


@pytest.mark.parametrize("name", GAMES)
def test_malformed_records_are_refused_in_python(name: str) -> None:
    for what, text in record_cases(name) + start_cases(name):
        try:
            record = GameRecord.loads(text, "record")
            replay(record, game_of(name))
        except HendersonError as exc:
            assert "\n" not in str(exc), (what, str(exc))
            continue
        if what.startswith("start."):  # a wrong type where the engine reads any value would be a bug
            raise AssertionError(f"{name}: {what}: accepted")
        raise AssertionError(f"{name}: {what}: accepted")


@pytest.mark.parametrize("name", GAMES)
def test_malformed_uploads_answer_4xx_and_store_nothing(server: Any, name: str) -> None:
    before = stored_matches(server)
    sides = list(game_of(name).sides)
    for what, text in record_cases(name) + start_cases(name):
        response = server.post(
            "/api/records", json={"record": text, "players": dict.fromkeys(sides, "human"), "hotseat": True}
        )
        assert 400 <= response.status_code < 500, (what, response.status_code, response.text)
        body = response.json()
        assert body["error"] in ("bad-record", "bad-position", "bad-input", "invalid-body", "bad-json"), (what, body)
        assert stored_matches(server) == before, what
    # the connection is still good after the refusals, and a sound record is taken
    good = server.post("/api/records", json={"record": record_text(name), "hotseat": True})
    assert good.status_code == 201, good.text


def test_a_body_nested_too_deep_is_a_400(server: Any) -> None:
    body = '{"game": "firstblood", "options": ' + "[" * 20_000 + "]" * 20_000 + "}"
    response = server.post("/api/matches", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400 and response.json()["error"] == "bad-json"


# -- the command line ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_cli_refuses_malformed_positions_with_one_line(name: str, monkeypatch: Any, capsys: Any, tmp_path: Any) -> None:
    path = tmp_path / "pos.json"
    for where, value, _ in POSITION_CASES:
        text = json.dumps(replaced(positions(name)[-1], where, value))
        path.write_text(text)
        code, _, err = cli_run(monkeypatch, capsys, "apply", str(path), "end", "-o", str(path))
        assert_cli_refuses(code, err)
        assert path.read_text() == text  # nothing written


@pytest.mark.parametrize("name", GAMES)
def test_cli_refuses_malformed_records_with_one_line(name: str, monkeypatch: Any, capsys: Any, tmp_path: Any) -> None:
    path = tmp_path / "game.jsonl"
    for what, text in record_cases(name)[:12] + start_cases(name)[:6]:
        path.write_text(text)
        code, _, err = cli_run(monkeypatch, capsys, "replay", str(path), "-q")
        assert code == 2, (what, err)
        assert_cli_refuses(code, err)


def test_cli_refuses_a_seed_of_10_to_the_80(monkeypatch: Any, capsys: Any, tmp_path: Any) -> None:
    code, _, err = cli_run(monkeypatch, capsys, "new", "firstblood", "--seed", str(10**80))
    assert_cli_refuses(code, err)
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(positions("firstblood")[0]))
    code, _, err = cli_run(monkeypatch, capsys, "apply", str(path), "end", "--seed", str(10**80))
    assert_cli_refuses(code, err)


def test_record_error_names_the_line_and_field() -> None:
    objs = header_and_entries(record_text("firstblood"))
    text = lines_text([objs[0], replaced(objs[1], ("events",), ["boom"]), *objs[2:]])
    with pytest.raises(RecordError, match="line 2: 'events' must be a list of objects"):
        GameRecord.loads(text, "record")


def test_a_deluxe_unit_that_began_its_turn_nowhere_is_refused() -> None:
    position = positions("deluxe")[-1]
    unit = next(iter(position["units"]))
    with pytest.raises(PositionError, match=f"units.{unit}.start"):
        game_of("deluxe").load_state(replaced(position, ("units", unit, "start"), "narnia"))


def test_an_aag_piece_number_out_of_range_is_refused() -> None:
    with pytest.raises(PositionError, match="next_id"):
        game_of("aag").load_state(replaced(positions("aag")[-1], ("next_id", "us"), 10**11))


@pytest.mark.parametrize("command", [["verify"], ["replay", "-q"], ["legal"], ["apply", "--", "end"]])
def test_cli_refuses_json_nested_thousands_deep(
    command: list[str], monkeypatch: Any, capsys: Any, tmp_path: Any
) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000 + "\n")
    args = [command[0], str(path), *command[1:]]
    code, _, err = cli_run(monkeypatch, capsys, *args)
    assert_cli_refuses(code, err)
    assert "nested deeper" in err


def test_a_websocket_hello_nested_deep_gets_an_error_message(server: Any) -> None:
    with server.websocket_connect("/api/ws") as ws:
        ws.send_text("[" * 2000 + "]" * 2000)
        answer = ws.receive_json()
        assert answer["type"] == "error" and answer["error"] == "bad-json"
