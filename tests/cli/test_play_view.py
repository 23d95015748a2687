"""Terminal play against the computer shows the person only what their side may see
(DG 7.7, 7.8 fog of war; AAG hidden movement): the board as their view and the computer's
actions and events as the state's `redact` gives them."""

from __future__ import annotations

import random

from henderson import games
from henderson.core.events import Event
from henderson.play import board_text, seen_by


class Secretive:
    """A state whose redaction hides every other side's action."""

    def redact(self, player, action, events, side):
        return f"{player} acts out of sight", [{"kind": "hidden", "text": "something out of sight", "data": {}}]


def test_the_computers_actions_are_redacted_for_the_person():
    events = [Event("move", "5/Kawaguchi moves to 3508", {})]
    assert seen_by(Secretive(), "jp", "move 5/Kawaguchi 3508", events, "us") == (
        "jp acts out of sight",
        ["something out of sight"],
    )


def test_nothing_is_hidden_without_a_single_person_or_from_oneself():
    events = [Event("move", "A moves", {})]
    assert seen_by(Secretive(), "jp", "move A 1", events, None) == ("move A 1", ["A moves"])
    assert seen_by(Secretive(), "us", "move A 1", events, "us") == ("move A 1", ["A moves"])


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
