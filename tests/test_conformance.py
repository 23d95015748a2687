"""The game API, checked the same way on every registered game (OpenSpiel's conformance idea):
seeded random games through the public API only, with notation round-trips, clones that do not
share state, views without dice, and records that replay to the same position."""

from __future__ import annotations

import json
import random

import pytest

from henderson import games
from henderson.core.record import GameRecord, record_for, replay

GAMES = games.names()


def secrets_in(view: dict) -> bool:
    return "dice" in view or "seed" in view


@pytest.mark.parametrize("name", GAMES)
def test_random_games_through_the_api(name: str) -> None:
    game = games.get(name)
    for seed in range(3):
        state = game.new_state(seed)
        rng = random.Random(seed)
        record = record_for(game, state)
        steps = 0
        while not state.is_terminal() and steps < 5000:
            side = state.current_player()
            assert side in game.sides
            acts = state.legal_actions()
            assert acts, f"{name}: no legal action but the game is not over"
            assert [str(a) for a in acts] == [str(a) for a in state.legal_actions()]  # deterministic
            action = acts[rng.randrange(len(acts))]
            assert game.parse_action(str(action)) == action
            for who in (*game.sides, None):
                assert not secrets_in(state.view(who))
            if steps % 50 == 0:
                twin = state.clone()
                before = json.dumps(state.to_json(), sort_keys=True)
                twin.apply(twin.legal_actions()[0])
                assert json.dumps(state.to_json(), sort_keys=True) == before, "a clone shares state"
            record.add(side, str(action), state.apply(action))
            steps += 1
        if state.is_terminal():
            assert state.current_player() is None and not state.legal_actions()
            assert state.winner() in game.sides
            returns = state.returns()
            assert sorted(returns.values()) == [-1.0, 1.0]
        again = replay(GameRecord.loads(record.dumps()), game)
        assert json.dumps(again.to_json(), sort_keys=True) == json.dumps(state.to_json(), sort_keys=True)


@pytest.mark.parametrize("name", GAMES)
def test_positions_round_trip(name: str) -> None:
    game = games.get(name)
    state = game.new_state(11)
    rng = random.Random(11)
    for _ in range(200):
        if state.is_terminal():
            break
        acts = state.legal_actions()
        state.apply(acts[rng.randrange(len(acts))])
    data = json.loads(json.dumps(state.to_json()))
    again = game.load_state(data)
    assert again.to_json() == state.to_json()
    assert [str(a) for a in again.legal_actions()] == [str(a) for a in state.legal_actions()]
