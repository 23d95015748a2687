"""Always taking the same legal action ends a DG game (the soak of complete random games
every game goes through is tests/test_soak.py)."""

from __future__ import annotations

import pytest

from .support import GAME

FIRST_ACTION_PLIES = 10_000  # a whole game takes about two thousand such actions


@pytest.mark.parametrize(("seed", "pick"), [(0, 0), (3, 0), (5, -1)])
def test_always_the_same_legal_action_finishes_a_game(seed: int, pick: int) -> None:
    # DG 4.0, 12.0: every step ends and the turn marker advances, whatever is chosen: no
    # action may be repeated for free forever, so always taking the first (or the last)
    # legal action plays a whole game to its end (DG 9.4)
    state = GAME.new_state(seed)
    while not state.is_terminal():
        assert state.ply < FIRST_ACTION_PLIES, f"seed {seed}: no end in sight: {state.summary()}"
        state.apply(state.legal_actions()[pick])
    assert state.turn <= state.data.constants.turns and state.is_terminal()
