"""Random play through the public API (the OpenSpiel-style conformance test): seeded complete games, every
action legal and round-tripping its notation, invariants after every action, and the record replaying to the
same final position. HENDERSON_RANDOM_GAMES sets how many games (CI runs thousands)."""

from __future__ import annotations

import os
import random

import pytest

from henderson import games
from henderson.core.record import GameRecord, record_for, replay

from . import invariants

GAMES = int(os.environ.get("HENDERSON_RANDOM_GAMES", "24"))
BATCH = 8


def play_one(game, seed: int, deep: bool) -> None:
    st = game.new_state(seed)
    rng = random.Random(seed)
    record = record_for(game, st, {"us": "random", "jp": "random"})
    while not st.is_terminal():
        acts = st.legal_actions()
        action = acts[rng.randrange(len(acts))]
        text = str(action)
        assert game.parse_action(text) == action, text
        player = st.current_player()
        events = st.apply(action)
        record.add(player, text, events)
        invariants.check(st)
        if deep and st.ply % 97 == 0:
            copy = game.load_state(st.to_json())
            assert copy.to_json() == st.to_json()
            assert [str(a) for a in copy.legal_actions()] == [str(a) for a in st.legal_actions()]
    again = replay(GameRecord.loads(record.dumps()), game)
    assert again.to_json() == st.to_json()


@pytest.mark.parametrize("batch", range((GAMES + BATCH - 1) // BATCH))
def test_random_games(batch: int) -> None:
    game = games.get("firstblood")
    for seed in range(batch * BATCH, min(GAMES, (batch + 1) * BATCH)):
        play_one(game, seed, deep=seed < 16)
