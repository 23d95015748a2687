"""What the terminal shows a player: a map for every game (DG's hexes, FB's rivers and ford,
which AAG zones touch), the actions that can be typed now under `?`, and a quit game resumed
from its record."""

from __future__ import annotations

import io
import sys

from rich.console import Console

from henderson import games
from henderson.core.record import GameRecord
from henderson.games.deluxe.render import map_text
from henderson.play import play_terminal


def test_dg_draws_a_window_of_the_hex_map_with_henderson_field_and_its_stacks():
    game = games.get("deluxe")
    state = game.load_state(
        {
            "format": "henderson-position",
            "game": "deluxe",
            "version": 1,
            "turn": 3,
            "step": "us_move",
            "units": {"1/1": {"side": "us", "at": "3806", "strength": 5, "start": "3806"}},
        }
    )
    lines = map_text(state)
    text = "\n".join(lines)
    assert "HF" in text and "U1" in text  # DG 2.1 Henderson Field at 3707, a stack at 3806
    row = next(line for line in lines if line.startswith("07 "))
    column = lines[1].index("37")  # odd columns head the first header line
    assert row[column : column + 2] == "HF"
    assert "~~" in text and '"' in text  # sea and jungle marked


def test_dg_hides_what_the_side_may_not_see_on_the_map():
    """DG 7.8: an enemy stack under stealth shows only its markers."""
    game = games.get("deluxe")
    state = game.load_state(
        {
            "format": "henderson-position",
            "game": "deluxe",
            "version": 1,
            "turn": 3,
            "step": "us_move",
            "units": {
                "1/1": {"side": "us", "at": "3806", "strength": 5, "start": "3806"},
                "28/1": {"side": "jp", "at": "3912", "strength": 4, "start": "3912", "stealth": 2},
            },
        }
    )
    assert "J1" in "\n".join(map_text(state))
    seen = "\n".join(map_text(state, "us"))
    assert "J1" not in seen and "S1" in seen


def test_fb_marks_river_hexsides_and_the_ford():
    """FB 4.2, 4.4: the rivers and the ford 0909-0910 between the hexes."""
    game = games.get("firstblood")
    text = game.render_text(game.new_state(1))
    row = next(line for line in text.splitlines() if line.startswith("09 "))
    assert "=" in row and "~" in text
    key = text[text.index("key:") :]
    assert "river" in key and "ford" in key


def test_aag_says_which_zones_touch():
    game = games.get("aag")
    text = game.render_text(game.new_state(1))
    line = next(x for x in text.splitlines() if x.strip().startswith("G:"))
    assert "seas E, H" in line and "Guadalcanal" in line


def test_help_lists_the_actions_that_can_be_typed_now(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "stdin", io.StringIO("?\nquit\n"))
    out = io.StringIO()
    play_terminal(
        games.get("firstblood"),
        {"us": "human", "jp": "random"},
        seed=3,
        record_path=tmp_path / "g.jsonl",
        console=Console(file=out, width=120),
    )
    text = out.getvalue()
    assert "setup" in text and "e.g. 'place " in text and "unit:unit to:hex" in text


def test_a_quit_game_resumes_from_its_record_and_saves_back_into_it(monkeypatch, tmp_path):
    game = games.get("firstblood")
    path = tmp_path / "g.jsonl"
    monkeypatch.setattr(sys, "stdin", io.StringIO("setup default\nquit\n"))
    out = io.StringIO()
    first = play_terminal(
        game, {"us": "human", "jp": "random"}, seed=3, record_path=path, console=Console(file=out, width=120)
    )
    assert f"--resume {path}" in out.getvalue()
    saved = GameRecord.read(path)
    played = len(saved.entries)
    monkeypatch.setattr(sys, "stdin", io.StringIO("end\nquit\n"))
    again = play_terminal(
        game,
        {"us": "human", "jp": "random"},
        seed=None,
        record_path=path,
        resume=saved,
        console=Console(file=io.StringIO()),
    )
    assert again.ply > first.ply
    resumed = GameRecord.read(path)
    assert len(resumed.entries) > played
    assert [e.action for e in resumed.entries[:played]] == [e.action for e in saved.entries[:played]]
