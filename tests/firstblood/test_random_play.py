"""Random play through the public API (the OpenSpiel-style conformance test): seeded complete games, every
action legal and round-tripping its notation, invariants after every action, and the record replaying to the
same final position. HENDERSON_RANDOM_GAMES sets how many games (CI runs thousands)."""

from __future__ import annotations

import os
import random

import pytest

from henderson import games
from henderson.core.record import GameRecord, record_for, replay
from henderson.games.firstblood import actions as A

GAMES = int(os.environ.get("HENDERSON_RANDOM_GAMES", "24"))
BATCH = 8


def play_one(game, seed: int, deep: bool) -> None:
    st = game.new_state(seed)
    rng = random.Random(seed)
    record = record_for(game, st, {"us": "random", "jp": "random"})
    while not st.is_terminal():
        assert st.ply < 30_000, f"seed {seed}: no end in sight at {st.turn_label} {st.step} (a loop of free actions?)"
        acts = st.legal_actions()
        action = acts[rng.randrange(len(acts))]
        text = str(action)
        assert game.parse_action(text) == action, text
        player = st.current_player()
        events = st.apply(action)
        record.add(player, text, events)
        assert not st.invariant_errors(), st.invariant_errors()
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


def test_legality_check_agrees_with_the_list() -> None:
    """`apply` checks a move without searching the list; both must give the same answer for any move."""
    game = games.get("firstblood")
    rng = random.Random(7)
    places = [*sorted(game.board.terrain), "A", "B", "C", "D"]
    checked = 0
    for seed in range(3):
        st = game.new_state(seed)
        while not st.is_terminal() and checked < 3000:
            acts = st.legal_actions()
            if st.step.endswith("_movement") and not st.pending:
                listed = set(acts)
                units = sorted(st.ground)
                for _ in range(20):
                    move = A.Move(rng.choice(units), rng.choice(places))
                    assert st.rules().is_legal(st, move) == (move in listed), move
                    checked += 1
            st.apply(acts[rng.randrange(len(acts))])
    assert checked > 500


@pytest.mark.parametrize("seed", [7, 8])
def test_always_taking_the_first_legal_action_finishes_a_game(seed: int) -> None:
    """The README's loop, `state.apply(state.legal_actions()[0])` until the end, plays a whole game: the legal
    actions are listed so that an attack that can be rolled comes before one that cannot, and while one is built,
    `resolve` (or the unit it still needs) comes before `cancel`. More plies than any game takes fail the test."""
    game = games.get("firstblood")
    st = game.new_state(seed)
    while not st.is_terminal():
        assert st.ply < 20_000, f"seed {seed}: the first legal action loops at {st.turn_label} {st.step}"
        st.apply(st.legal_actions()[0])
    assert st.winner() in ("us", "jp")


def test_the_first_legal_action_leaves_every_phase() -> None:
    """From positions of seeded random games (attacks half built included), always taking the first legal action
    leaves the phase within a bounded number of actions (FB 8.2 duties met, no attack opened and cancelled again)."""
    game = games.get("firstblood")
    checked = 0
    for seed in range(6):
        st = game.new_state(seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            if rng.random() < 0.05:
                trial = st.clone()
                phase = (trial.turn, trial.step)
                for _ in range(3_000):
                    if trial.is_terminal() or (trial.turn, trial.step) != phase:
                        break
                    trial.apply(trial.legal_actions()[0])
                assert trial.is_terminal() or (trial.turn, trial.step) != phase, (seed, st.ply, phase)
                checked += 1
            acts = st.legal_actions()
            st.apply(acts[rng.randrange(len(acts))])
    assert checked > 100
