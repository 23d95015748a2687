"""FIRST BLOOD records made by playing the engine, for the server and browser tests."""

from __future__ import annotations

import random

from henderson import games
from henderson.core.record import GameRecord, record_for


def record_until_us_attack(seed: int = 3, choice_seed: int = 1, limit: int = 3000) -> GameRecord:
    """Default set-ups, then random play until the US combat phase offers an attack."""
    game = games.get("firstblood")
    state = game.new_state(seed)
    record = record_for(game, state, {"us": "human", "jp": "random"})
    rng = random.Random(choice_seed)
    for _ in range(limit):
        side = state.current_player()
        actions = [str(a) for a in state.legal_actions()]
        if state.view("us")["phase"] == "us_combat" and any(a.startswith("attack") for a in actions):
            return record
        if actions and actions[0] == "setup default":
            action = "setup default"
        else:
            action = rng.choice(actions)
        record.add(side, action, state.apply(action))
    raise AssertionError("no US attack came up")
