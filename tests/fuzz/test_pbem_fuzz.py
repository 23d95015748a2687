"""Generated malformed play-by-e-mail files for the three games (hypothesis): sound exchanges,
and the players' secrets files beside them, broken at random places (a field of the wrong
type or deleted, a number far out of range, JSON nested too deep, the text cut short, lines
lost, doubled or swapped, a commitment, reveal or value that is well formed but not the
one sent, another game's name) and given to every `henderson pbem` command and to
`henderson verify`. Each either goes on or is refused cleanly (exit status 2 and one line,
no traceback; `verify` may also answer its one-line verdict, exit 1), and a refusal writes
nothing. `HENDERSON_FUZZ_EXAMPLES` raises the example counts."""

from __future__ import annotations

import functools
import json
import os
import random
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from henderson import games, pbem
from tests.fuzz.support import GAMES, assert_cli_refuses, broken, cli_run

EXAMPLES = int(os.environ.get("HENDERSON_FUZZ_EXAMPLES", "40"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
EXCHANGE, SECRETS = "game.pbem", "{side}.secrets"


@functools.cache
def stages(name: str) -> tuple[dict[str, str], ...]:
    """A sound exchange of a game as it stood after each message (the exchange file and each
    player's secrets file, by name), played at random until some dice were rolled."""
    game = games.get(name)
    rng = random.Random(5)
    found: list[dict[str, str]] = []
    with tempfile.TemporaryDirectory() as where:
        folder = Path(where)
        file = folder / EXCHANGE
        keys = {side: folder / SECRETS.format(side=side) for side in game.sides}
        pbem.new_exchange(game, game.sides[0], {}, file, keys[game.sides[0]])
        for count in range(60):
            found.append({p.name: p.read_text() for p in folder.iterdir()})
            ex = pbem.Exchange.load(file.read_text())
            side = ex.waiting_for()
            if side is None or (count >= 20 and ex.dice):
                break
            if not ex.joined or (ex.pending is not None and ex.pending.waits_on == side):
                pbem.take_turn(file, keys[side], [], join=not ex.joined)
            else:
                assert ex.state is not None
                pbem.take_turn(file, keys[side], [str(rng.choice(ex.state.legal_actions()))])
    return tuple(found)


def json_lines(text: str) -> list[Any]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def hex_places(obj: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Where a message holds a commitment, a reveal or a random value."""
    if isinstance(obj, dict):
        for key, value in obj.items():
            if key in ("commit", "reveal", "value") and isinstance(value, str):
                yield (*prefix, key)
            else:
                yield from hex_places(value, (*prefix, key))
    elif isinstance(obj, list):
        for index, value in enumerate(obj):
            yield from hex_places(value, (*prefix, index))


def set_at(obj: Any, where: tuple[Any, ...], value: Any) -> None:
    for key in where[:-1]:
        obj = obj[key]
    obj[where[-1]] = value


DEEP = "[" * 5000 + "]" * 5000
HUGE = "9" * 5000  # past the digits Python turns into an int by default


@st.composite
def broken_text(draw: st.DrawFn, text: str, other_game: str) -> str:
    """A JSON Lines (or JSON) text broken in one of many ways."""
    lines = [line for line in text.splitlines() if line.strip()]
    way = draw(
        st.sampled_from(["field", "cut", "game", "hex", "deep", "huge", "lose", "double", "swap", "bytes", "empty"])
    )
    index = draw(st.integers(0, len(lines) - 1))
    objs = json_lines(text)
    if way == "field":
        objs[index] = draw(broken(objs[index]))
        return "\n".join(json.dumps(o) for o in objs) + "\n"
    if way == "cut":
        return text[: draw(st.integers(0, max(0, len(text) - 1)))]
    if way == "game" and isinstance(objs[0], dict) and "game" in objs[0]:
        objs[0]["game"] = draw(st.sampled_from([other_game, "narnia", "", "toy"]))
        return "\n".join(json.dumps(o) for o in objs) + "\n"
    if way == "hex":
        places = [(i, p) for i, o in enumerate(objs) for p in hex_places(o)]
        if places:
            line, where = draw(st.sampled_from(places))
            old = str(functools.reduce(lambda o, k: o[k], where, objs[line]))
            set_at(objs[line], where, draw(st.sampled_from(["0" * len(old), "f" * len(old), old[::-1], old + "0"])))
            return "\n".join(json.dumps(o) for o in objs) + "\n"
    if way == "deep":
        lines[index] = draw(st.sampled_from([DEEP, lines[index][:-1] + f',"n2":{DEEP}}}', '{"n":' + DEEP + "}"]))
    elif way == "huge":
        lines[index] = lines[index].replace('"n":', f'"n":{HUGE}, "x":', 1) if '"n":' in lines[index] else HUGE
    elif way == "lose":
        del lines[index]
    elif way == "double":
        lines.insert(index, lines[index])
    elif way == "swap" and index + 1 < len(lines):
        lines[index], lines[index + 1] = lines[index + 1], lines[index]
    elif way == "bytes":
        return lines[index][: len(lines[index]) // 2] + "\udcff\x00\x01"
    elif way == "empty":
        return ""
    return "\n".join(lines) + "\n"


@st.composite
def broken_exchange(draw: st.DrawFn) -> tuple[str, dict[str, str], str]:
    """A game's exchange and secrets at some stage, one of the files broken; and the game."""
    name = draw(st.sampled_from(GAMES))
    files = dict(draw(st.sampled_from(stages(name))))
    target = draw(st.sampled_from(sorted(files)))
    other = draw(st.sampled_from([g for g in GAMES if g != name]))
    text = files[target]
    if target != EXCHANGE:  # a secrets file is one JSON object, indented: broken as one line
        text = json.dumps(json.loads(text)) + "\n"
    files[target] = draw(broken_text(text, other))
    return name, files, target


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@contextmanager
def written(files: dict[str, str]) -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as where:
        folder = Path(where)
        for name, text in files.items():
            (folder / name).write_bytes(text.encode("utf-8", "surrogateescape"))
        yield folder


def commands(name: str, folder: Path, files: dict[str, str]) -> list[list[str]]:
    """Every command a player runs on an exchange, as each side (a side without a secrets file
    joins with `answer`)."""
    file = str(folder / EXCHANGE)
    out = [["verify", file]]
    ex = pbem.Exchange.load(stages(name)[-1][EXCHANGE])
    assert ex.state is not None
    action = str(ex.state.legal_actions()[0]) if ex.state.legal_actions() else "end"
    for side in games.get(name).sides:
        key = str(folder / SECRETS.format(side=side))
        out += [
            ["pbem", "answer", file, "--secrets", key],
            ["pbem", "play", file, action, "--secrets", key],
            ["pbem", "show", file, "--secrets", key],
        ]
    return out


@FUZZ
@given(case=broken_exchange(), which=st.integers(0, 6))
def test_pbem_commands_go_on_or_refuse_broken_files_cleanly(
    case: tuple[str, dict[str, str], str], which: int, monkeypatch: Any, capsys: Any
) -> None:
    name, files, _ = case
    with written(files) as folder:
        args = commands(name, folder, files)[which]
        before = snapshot(folder)
        code, out, err = cli_run(monkeypatch, capsys, *args)
        if code == 0:
            return
        assert "Traceback" not in out + err and "internal error" not in out + err, out + err
        if args[0] == "verify" and code == 1:  # its verdict: one line, FAILED and the line
            assert "FAILED" in out and len(out.strip().splitlines()) == 1 and not err.strip(), out + err
        else:
            assert_cli_refuses(code, err)
        assert snapshot(folder) == before, args  # a refusal writes nothing


@settings(FUZZ, max_examples=max(10, EXAMPLES // 2))
@given(
    game=st.sampled_from([*GAMES, "narnia", ""]),
    side=st.sampled_from(["us", "jp", "", "narnia", "US"]),
    options=st.lists(st.sampled_from(["x=1", "narnia=true", "=", "a", "optional=maybe", "x" * 300]), max_size=2),
    existing=st.sampled_from(["", "exchange", "secrets"]),
)
def test_pbem_new_starts_an_exchange_or_refuses_cleanly(
    game: str, side: str, options: list[str], existing: str, monkeypatch: Any, capsys: Any
) -> None:
    with written({existing: "kept\n"} if existing else {}) as folder:
        before = snapshot(folder)
        args = ["pbem", "new", game, str(folder / "exchange"), "--side", side, "--secrets", str(folder / "secrets")]
        for option in options:
            args += ["--option", option]
        code, _, err = cli_run(monkeypatch, capsys, *args)
        if code == 0:
            assert not existing and {p.name for p in folder.iterdir()} == {"exchange", "secrets"}
            return
        assert_cli_refuses(code, err)
        assert snapshot(folder) == before


# -- what the generated cases found, each kept as a case of its own -------------------------------


def refused(monkeypatch: Any, capsys: Any, files: dict[str, str], command: str, *extra: str) -> str:
    """Run a command on a sound FIRST BLOOD exchange with some files replaced: it must refuse
    in one line (`verify`: or its verdict, FAILED) and write nothing. The line."""
    sound = stages("firstblood")[-1]
    with written({**sound, **files}) as folder:
        before = snapshot(folder)
        file, key = str(folder / EXCHANGE), str(folder / SECRETS.format(side="us"))
        args = ["verify", file] if command == "verify" else ["pbem", command, file, "--secrets", key, *extra]
        code, out, err = cli_run(monkeypatch, capsys, *args)
        assert snapshot(folder) == before
        if command == "verify" and code == 1:  # its verdict, in one line
            assert out.startswith(f"{file}: FAILED") and len(out.strip().splitlines()) == 1 and not err, out + err
            return out
        assert_cli_refuses(code, err)
        return err


def test_a_number_of_thousands_of_digits_is_refused_in_one_line(monkeypatch: Any, capsys: Any) -> None:
    lines = stages("firstblood")[-1][EXCHANGE].splitlines()
    lines[3] = lines[3].replace('"n":', f'"n":{HUGE}, "x":', 1)
    for command in ("show", "answer", "verify"):
        assert "not JSON" in refused(monkeypatch, capsys, {EXCHANGE: "\n".join(lines) + "\n"}, command)


def test_a_file_that_is_not_utf8_is_refused_in_one_line(monkeypatch: Any, capsys: Any) -> None:
    text = stages("firstblood")[-1][EXCHANGE][:80] + "\udcff"
    for command in ("show", "answer", "verify"):
        assert "not UTF-8" in refused(monkeypatch, capsys, {EXCHANGE: text}, command)
    assert "not UTF-8" in refused(monkeypatch, capsys, {SECRETS.format(side="us"): "\udcff"}, "show")


def test_a_secrets_file_with_a_field_of_the_wrong_kind_is_refused(monkeypatch: Any, capsys: Any) -> None:
    mine = json.loads(stages("firstblood")[-1][SECRETS.format(side="us")])
    for where, value, named in [
        (("seen", "lines"), [1], "seen.lines"),
        (("seen", "lines"), "x", "seen.lines"),
        (("seen", "digest"), 7, "seen.digest"),
        (("side",), ["us"], "side"),
        (("exchange",), None, "exchange"),
    ]:
        broken_secrets = json.loads(json.dumps(mine))
        set_at(broken_secrets, where, value)
        err = refused(monkeypatch, capsys, {SECRETS.format(side="us"): json.dumps(broken_secrets)}, "show")
        assert named in err
    wrong_value = json.loads(json.dumps(mine))
    wrong_value["values"] = {key: "ab" * 32 for key in mine["values"]}
    assert "does not match its commitment" in refused(
        monkeypatch, capsys, {SECRETS.format(side="us"): json.dumps(wrong_value)}, "answer"
    )
    other_side = {**mine, "side": "narnia"}
    assert "no side" in refused(monkeypatch, capsys, {SECRETS.format(side="us"): json.dumps(other_side)}, "show")


def test_a_message_whose_number_is_not_its_place_is_refused(monkeypatch: Any, capsys: Any) -> None:
    objs = json_lines(stages("firstblood")[-1][EXCHANGE])
    for wrong in (None, "2", [2], 10**6, True):
        changed = [*objs[:2], {**objs[2], "n": wrong}, *objs[3:]]
        text = "\n".join(json.dumps(o) for o in changed) + "\n"
        assert "line 3: 'n' must be the message's number, 2" in refused(monkeypatch, capsys, {EXCHANGE: text}, "show")


def test_an_unknown_header_field_is_refused(monkeypatch: Any, capsys: Any) -> None:
    objs = json_lines(stages("firstblood")[-1][EXCHANGE])
    text = "\n".join(json.dumps(o) for o in [{**objs[0], "seed": 7}, *objs[1:]]) + "\n"
    assert "line 1: unknown header field 'seed'" in refused(monkeypatch, capsys, {EXCHANGE: text}, "show")
