"""The `henderson` command: each command works, and bad input gets one line and exit status 2."""

from __future__ import annotations

import json
import sys

import pytest

from henderson import cli


def run(monkeypatch, capsys, *args: str, stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["henderson", *args])
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO(stdin))
    code = 0
    try:
        cli.main()
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_games_lists_firstblood(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, "games")
    assert code == 0 and "firstblood" in out


def test_data_check_passes_and_fails(monkeypatch, capsys, tmp_path):
    code, out, _ = run(monkeypatch, capsys, "data", "check", "firstblood")
    assert code == 0 and "valid" in out
    code, _, err = run(monkeypatch, capsys, "data", "check", str(tmp_path))
    assert code == 2 and "game.toml" in err and "Traceback" not in err


def test_new_legal_apply_odds(monkeypatch, capsys, tmp_path):
    pos = tmp_path / "pos.json"
    code, _, _ = run(monkeypatch, capsys, "new", "firstblood", "--seed", "3", "-o", str(pos))
    assert code == 0 and json.loads(pos.read_text())["step"] == "us_setup"
    code, out, _ = run(monkeypatch, capsys, "legal", str(pos), "--json")
    assert code == 0 and "setup default" in json.loads(out)["actions"]
    after = tmp_path / "after.json"
    code, out, _ = run(monkeypatch, capsys, "apply", str(pos), "setup default", "setup default", "-o", str(after))
    assert code == 0 and json.loads(after.read_text())["step"] == "jp_reinforcement"
    combat = tmp_path / "combat.json"
    combat.write_text(
        json.dumps(
            {
                "format": "henderson-position",
                "game": "firstblood",
                "version": 1,
                "turn": "SEP II",
                "phase": "us_combat",
                "ground": {"1/1": "0905", "2/1": "0907", "Kuma": "0906"},
            }
        )
    )
    code, out, _ = run(monkeypatch, capsys, "odds", str(combat), "attack 0906 with 1/1,2/1")
    assert code == 0 and "column 2-1" in out and "DE" in out
    code, out, _ = run(monkeypatch, capsys, "odds", str(combat), "attack 0906 with 1/1,2/1", "--json")
    assert json.loads(out)["column"] == "2-1"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("new", "monopoly"), "unknown game"),
        (("legal", "missing.json"), "cannot read"),
        (("apply", "POS", "march 1/1 0707"), "unknown verb"),
        (("apply", "POS", "place 1/1 0101"), "FB 3.0"),
        (("odds", "POS", "attack 0906 with 1/1"), "combat phase"),
        (("replay", "missing.jsonl"), "cannot read"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(monkeypatch, capsys, tmp_path, args, words):
    pos = tmp_path / "pos.json"
    run(monkeypatch, capsys, "new", "firstblood", "--seed", "1", "-o", str(pos))
    before = pos.read_text()
    out_file = tmp_path / "out.json"
    args = tuple(str(pos) if a == "POS" else a for a in args)
    if args[0] == "apply":
        args = (*args, "-o", str(out_file))
    code, _, err = run(monkeypatch, capsys, *args)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and "Traceback" not in err
    assert pos.read_text() == before and not out_file.exists()


def test_broken_position_file(monkeypatch, capsys, tmp_path):
    pos = tmp_path / "pos.json"
    pos.write_text("{not json")
    code, _, err = run(monkeypatch, capsys, "legal", str(pos))
    assert code == 2 and "not JSON" in err


def test_play_against_random_and_replay(monkeypatch, capsys, tmp_path):
    record = tmp_path / "game.jsonl"
    code, out, _ = run(
        monkeypatch,
        capsys,
        "play",
        "firstblood",
        "--us",
        "random",
        "--jp",
        "random",
        "--seed",
        "2",
        "--record",
        str(record),
    )
    assert code == 0 and "Game over" in out and record.exists()
    code, out, _ = run(monkeypatch, capsys, "replay", str(record), "--quiet")
    assert code == 0 and "GAME OVER" in out


def test_play_human_quits_and_saves(monkeypatch, capsys, tmp_path):
    record = tmp_path / "g.jsonl"
    code, out, _ = run(
        monkeypatch,
        capsys,
        "play",
        "firstblood",
        "--us",
        "human",
        "--jp",
        "random",
        "--seed",
        "2",
        "--record",
        str(record),
        stdin="help\nsetup default\nboard\nlist 1/1\nmarch\nquit\n",
    )
    assert code == 0 and "record saved" in out and "unknown verb" in out
    assert "setup default" in record.read_text()


def test_map_draws_svg(monkeypatch, capsys, tmp_path):
    target = tmp_path / "map.svg"
    code, _, _ = run(monkeypatch, capsys, "map", "firstblood", "-o", str(target))
    assert code == 0 and target.read_text().lstrip().startswith("<?xml")


def test_unknown_side_in_play(monkeypatch, capsys):
    code, _, err = run(monkeypatch, capsys, "play", "firstblood", "--usa", "human")
    assert code == 2 and "--us human|AGENT" in err


@pytest.mark.parametrize(("args", "words"), [(("new",), "Missing"), (("nonsense",), "No such command")])
def test_usage_errors_are_one_line(monkeypatch, capsys, args, words):
    code, _, err = run(monkeypatch, capsys, *args)
    assert code == 2 and words in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_data_check_covers_the_aag_board_layout(monkeypatch, capsys, tmp_path):
    """`data check` also validates what the browser board is drawn from (board_layout.toml)."""
    import shutil
    from pathlib import Path

    import henderson.games.aag as aag

    data = tmp_path / "aag"
    shutil.copytree(Path(aag.__file__).parent / "data", data)
    layout = data / "board_layout.toml"
    text = layout.read_text()
    start = text.index('source = "')
    end = text.index('"', start + len('source = "'))
    layout.write_text(text[:start] + 'source = "nonsense"' + text[end + 1 :])
    code, _, err = run(monkeypatch, capsys, "data", "check", str(data))
    assert code == 2 and "board_layout.toml" in err and "Traceback" not in err
