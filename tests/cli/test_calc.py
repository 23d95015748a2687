"""`henderson calc GAME KEY=VALUE...`: the battle calculator's table in a terminal; bad input
gets one line naming the field and exit status 2."""

from __future__ import annotations

import json

import pytest

from .test_cli import run


def test_calc_prints_the_table_with_each_rule(monkeypatch, capsys):
    """FB 8.4: 7 against 3 is 2-1; FB 8.7.1: jungle -1, so A1 on two rolls of six."""
    code, out, _ = run(monkeypatch, capsys, "calc", "firstblood", "ground=7", "defence=3", "terrain=jungle")
    assert code == 0
    assert "column 2-1 of the American Attack Table" in out and "(FB 8.7.1)" in out
    assert any(line.split()[:2] == ["A1", "1/3"] for line in out.splitlines())


def test_calc_json_and_form(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, "calc", "deluxe", "attack=6", "defence=3", "--json")
    assert code == 0 and json.loads(out)["details"]["ratio"] == "2-1"
    code, out, _ = run(monkeypatch, capsys, "calc", "aag", "--form")
    assert code == 0 and "attacker_cruiser=0..20" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["firstblood", "ground=x"], "ground: expected a whole number"),
        (["firstblood", "ground"], "expected KEY=VALUE"),
        (["deluxe", "strain=9"], "strain: 9 is outside 0..5"),
        (["nosuchgame"], "unknown game"),
    ],
)
def test_calc_bad_input_is_one_line_and_exit_2(monkeypatch, capsys, args, message):
    code, out, err = run(monkeypatch, capsys, "calc", *args)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err
