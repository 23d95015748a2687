"""The random-play soak every game goes through (the OpenSpiel-style conformance test), through
the public API only: complete seeded games where, after every action, the engine's own
invariants hold (`State.invariant_errors`), the chosen action's notation round-trips, the
contract holds (who decides, what a side sees, no dice or seed in any view), what a side
cannot see can be redrawn without changing its view (`sample_unseen`), and positions
round-trip; at the end the record replays to the same final position.

HENDERSON_RANDOM_GAMES sets the scale (2,000 under the test command): half that many FIRST
BLOOD games, a quarter as many AAG games (a quarter of those with each option), a tenth as
many DG games (a DG game costs about three FIRST BLOOD games here, and DG has the most
branching rules)."""

from __future__ import annotations

import os
import random

import pytest

from henderson import games
from henderson.core.game import State
from henderson.core.record import GameRecord, record_for, replay

SCALE = int(os.environ.get("HENDERSON_RANDOM_GAMES", "24"))
GAMES = {"firstblood": max(8, SCALE // 2), "deluxe": max(4, SCALE // 10), "aag": max(8, SCALE // 4)}
BATCH = {"firstblood": 8, "deluxe": 2, "aag": 16}
MAX_PLIES = 50_000  # a game that has not ended by then has a loop of free actions
DEEP_EVERY = 97  # plies between the costlier checks (positions, redraws)


def options_for(name: str, seed: int) -> dict[str, bool]:
    """AAG's optional rules in a share of the games (Appendix 1); none elsewhere."""
    if name != "aag":
        return {}
    return {"advantages": seed % 4 in (1, 2), "hidden_movement": seed % 4 in (2, 3)}


def check_contract(state: State, seed: int) -> None:
    """What every position of every game must hold, whatever the game."""
    game = state.game
    where = f"{game.name} seed {seed} ply {state.ply} ({state.turn_label}, {state.step})"
    assert state.invariant_errors() == [], (where, state.invariant_errors())
    player = state.current_player()
    assert (player is None) == state.is_terminal(), where
    assert player is None or player in game.sides, where
    assert state.turn >= 1, where
    if state.is_terminal():
        assert state.legal_actions() == [] and state.end_cause, where
        assert state.winner() in (None, *game.sides), where
    else:
        acts = state.legal_actions()
        assert acts and len(set(acts)) == len(acts), where


def check_deep(state: State, seed: int, rng: random.Random) -> None:
    """The costlier checks, every so often: the position round-trips and lists the same
    actions; a clone is equal; what each side cannot see can be redrawn without changing
    that side's view (the observer is consistent); no view holds the dice or the seed."""
    game = state.game
    where = f"{game.name} seed {seed} ply {state.ply}"
    position = state.to_json()
    again = game.load_state(position)
    assert again.to_json() == position, where
    assert [str(a) for a in again.legal_actions()] == [str(a) for a in state.legal_actions()], where
    assert state.clone().key() == state.key(), where
    for side in (*game.sides, None):
        seen = state.view(side)
        assert "dice" not in seen and "seed" not in seen, (where, side)
        if game.hidden_information:
            redrawn = state.sample_unseen(side, rng)
            assert redrawn.view(side) == seen, (where, side, "the redraw changed what the side sees")
            if side is not None:
                assert redrawn.key(side) == state.key(side), (where, side)


def play_one(name: str, seed: int) -> None:
    game = games.get(name)
    state = game.new_state(seed, options=options_for(name, seed))
    record = record_for(game, state, {s: "random" for s in game.sides})
    rng = random.Random(seed)
    check_contract(state, seed)
    while not state.is_terminal():
        assert state.ply < MAX_PLIES, f"{name} seed {seed}: no end in sight at {state.turn_label} {state.step}"
        acts = state.legal_actions()
        action = acts[rng.randrange(len(acts))]
        text = str(action)
        assert game.parse_action(text) == action, (name, seed, text)
        player = state.current_player()
        record.add(str(player), text, state.apply(action))
        check_contract(state, seed)
        if state.ply % DEEP_EVERY == 0:
            check_deep(state, seed, rng)
    again = replay(GameRecord.loads(record.dumps()), game)
    assert again.to_json() == state.to_json(), f"{name} seed {seed}: the record replays elsewhere"


def batches() -> list[tuple[str, int]]:
    return [(name, b) for name, n in GAMES.items() for b in range((n + BATCH[name] - 1) // BATCH[name])]


@pytest.mark.parametrize(("name", "batch"), batches())
def test_complete_random_games_keep_every_invariant(name: str, batch: int) -> None:
    for seed in range(batch * BATCH[name], min(GAMES[name], (batch + 1) * BATCH[name])):
        play_one(name, seed)
