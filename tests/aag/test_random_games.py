"""Complete seeded AAG games with the victory-point bookkeeping checked after every action
(points equal the airfields scored plus the capital ships sunk: the events tell it, the
position alone does not) and the record replaying. The soak every game goes through, with the
engine's invariants, is tests/test_soak.py; this one plays a fortieth of HENDERSON_RANDOM_GAMES
(50 under the test command)."""

from __future__ import annotations

import os

import pytest

from henderson.core.record import GameRecord, replay

from .test_play import play_game

GAMES = max(12, int(os.environ.get("HENDERSON_RANDOM_GAMES", "24")) // 40)
BATCH = 25
MAX_PLIES = 20_000  # a game that has not ended by then has a loop of free actions


def play_one(seed: int, options: dict[str, bool]) -> None:
    g, state, record = play_game(seed, options, plies=MAX_PLIES, every_notation=False)
    assert state.is_terminal(), f"seed {seed}: no end in sight at turn {state.turn} {state.step}"
    assert state.winner() in ("us", "jp")
    again = replay(GameRecord.loads(record.dumps()), g)
    assert again.to_json() == state.to_json()


@pytest.mark.parametrize("batch", range((GAMES + BATCH - 1) // BATCH))
def test_complete_random_games_keep_the_invariants(batch: int) -> None:
    for seed in range(batch * BATCH, min(GAMES, (batch + 1) * BATCH)):
        # every fourth game with the optional rules: advantage tokens, hidden movement
        options = {"advantages": seed % 4 == 1, "hidden_movement": seed % 4 == 3}
        play_one(seed, options)
