"""Always-first-action play ends: `while not s.is_terminal(): s.apply(s.legal_actions()[0])`
plays a whole AAG game to a winner (AAG How to Win), with and without the optional rules.

A tie at 15 victory points or more goes on (AAG Score Victory Points), so a game ends only
when one side gets ahead; the order of the legal actions must not let the first action
repeat a standing tie for ever (before, both sides bought only infantry and their fleets
passed each other without meeting, 2 airfields each, tied for good)."""

from __future__ import annotations

import pytest

from .helpers import game

PLY_BOUND = 3000  # the longest of 240 seeded first-action games took 1,206 actions
OPTIONS = [
    {},
    {"hidden_movement": True},
    {"advantages": True},
    {"hidden_movement": True, "advantages": True},
]


@pytest.mark.parametrize("options", OPTIONS, ids=["plain", "hidden", "advantages", "both"])
@pytest.mark.parametrize("seed", [4, 10])
def test_always_first_action_play_ends_with_a_winner_rule_aag_how_to_win(seed: int, options: dict) -> None:
    state = game().new_state(seed, options=options)
    for _ in range(PLY_BOUND):
        if state.is_terminal():
            break
        state.apply(state.legal_actions()[0])
    assert state.is_terminal(), f"no winner after {PLY_BOUND} actions: turn {state.turn}, {state.vp}"
    target = state.data.rules.points_to_win
    winner = state.winner()
    assert state.vp[winner] >= target and state.vp[winner] > state.vp["jp" if winner == "us" else "us"]
