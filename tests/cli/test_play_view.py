"""Terminal play against the computer shows the person only what their side may see
(DG 7.7, 7.8 fog of war; AAG hidden movement): the board as their view and the computer's
actions and events as the state's `redact` gives them (`core.record.seen_by`)."""

from __future__ import annotations

import io
import random
import sys

from rich.console import Console

from henderson import games
from henderson.play import board_text, play_terminal
from tests.support import toy


def test_the_computers_actions_reach_the_person_redacted(monkeypatch, tmp_path):
    def redact(self, entry, side):
        if entry["player"] == side:
            return dict(entry)
        hidden = [{"kind": "hidden", "text": "out of sight", "data": {}}]
        return {**entry, "action": f"{entry['player']} acts out of sight", "events": hidden}

    monkeypatch.setattr(toy.ToyState, "redact", redact, raising=False)
    monkeypatch.setattr(sys, "stdin", io.StringIO("hold\nquit\n"))
    out = io.StringIO()
    play_terminal(
        toy.load_game(),
        {"red": "human", "blue": "random"},
        seed=5,
        record_path=tmp_path / "g.jsonl",
        console=Console(file=out, width=100),
    )
    text = out.getvalue()
    assert "BLUE: blue acts out of sight" in text
    assert "BLUE: roll" not in text and "BLUE: hold" not in text


def test_the_dg_board_is_drawn_as_the_persons_side_sees_it():
    game = games.get("deluxe")
    state = game.new_state(3)
    rng = random.Random(3)
    for _ in range(300):
        if state.is_terminal():
            break
        acts = state.legal_actions()
        state.apply(acts[rng.randrange(len(acts))])
    assert board_text(game, state, "us") == game.render_text(state, "us")
    assert board_text(game, state, None) == game.render_text(state)
