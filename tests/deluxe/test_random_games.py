"""Complete seeded DG games by random play through the public API: the invariants after every
action (stacking, steps, supply within 0..40, Henderson Field status within its bounds), no
hidden unit ever named in the other side's view (fog of war, DG 7.8), and the record replaying
to the same final position. HENDERSON_RANDOM_GAMES sets the scale: a DG game costs about
twenty FIRST BLOOD games, so this plays a twentieth of that number of complete games (100
under the test command, at least 8)."""

from __future__ import annotations

import os
import random

import pytest

from henderson.core.record import GameRecord, record_for, replay

from .support import GAME
from .test_play import all_strings, hidden_ids

GAMES = max(8, int(os.environ.get("HENDERSON_RANDOM_GAMES", "24")) // 20)
BATCH = 4
MAX_PLIES = 50_000  # a game that has not ended by then has a loop of free actions


def play_one(seed: int) -> None:
    state = GAME.new_state(seed)
    record = record_for(GAME, state)
    rng = random.Random(seed)
    while not state.is_terminal():
        assert state.ply < MAX_PLIES, f"seed {seed}: no end in sight: {state.summary()}"
        acts = state.legal_actions()
        action = acts[rng.randrange(len(acts))]
        assert GAME.parse_action(str(action)) == action
        player = state.current_player()
        record.add(player, str(action), state.apply(action))
        assert state.invariant_errors() == [], (seed, state.summary())
        for viewer in ("us", "jp"):
            secret = hidden_ids(state, viewer)
            if secret:
                leaked = secret & set(all_strings(state.view(viewer)))
                assert not leaked, (seed, viewer, leaked)
    assert state.winner() in ("us", "jp") or state.end_cause == "even victory points at the end"  # DG 9.0 draw
    again = replay(GameRecord.loads(record.dumps()), GAME)
    assert again.to_json() == state.to_json()


@pytest.mark.parametrize("batch", range((GAMES + BATCH - 1) // BATCH))
def test_complete_random_games_keep_the_invariants(batch: int) -> None:
    for seed in range(batch * BATCH, min(GAMES, (batch + 1) * BATCH)):
        play_one(seed)


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
