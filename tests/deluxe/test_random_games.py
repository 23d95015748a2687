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
