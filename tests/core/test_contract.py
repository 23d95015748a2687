"""The kit's contract (`henderson.core.game`), checked on every game: one seeding rule, the
standard turn, step and end cause, atomic `apply`, copies that never copy the game's data,
`key` with one meaning, the data version, and undo barriers asked of the engine."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from henderson import games
from henderson.core.dice import DiceExhausted, ScriptedDice, SeededDice
from henderson.core.errors import IllegalAction, PositionError, RecordError
from henderson.core.game import Capability, Game, State
from henderson.core.record import GameRecord, record_for, replay

GAMES = ["firstblood", "deluxe", "aag"]


def played(name: str, seed: int, plies: int) -> State:
    """A position reached by `plies` random actions from a seeded start."""
    state = games.get(name).new_state(seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        acts = state.legal_actions()
        state.apply(acts[rng.randrange(len(acts))])
    return state


@pytest.mark.parametrize("name", GAMES)
def test_every_game_implements_the_contract(name: str) -> None:
    game = games.get(name)
    assert isinstance(game, Game)
    state = game.new_state(1)
    assert isinstance(state, State) and state.game is game
    assert game.rules_prefix in ("FB", "DG", "AAG")
    assert game.sides == ("us", "jp")
    assert state.turn == 1 and state.turn_label
    assert state.end_cause is None and state.winner() is None
    assert state.returns() == {"us": 0.0, "jp": 0.0}


@pytest.mark.parametrize("name", GAMES)
def test_no_seed_means_a_fresh_secret_seed_kept_in_the_state(name: str) -> None:
    """One seeding rule for every game: `henderson play deluxe` without --seed used to roll
    the same dice every game (DG and AAG fell back to seed 0)."""
    game = games.get(name)
    a, b = game.new_state(), game.new_state()
    assert a.seed is not None and b.seed is not None and a.seed != b.seed
    assert a.dice.to_json() != b.dice.to_json()
    again = game.new_state(a.seed)
    assert again.to_json() == game.new_state(a.seed).to_json()


@pytest.mark.parametrize("name", GAMES)
def test_a_position_without_dice_rolls_fresh_dice(name: str) -> None:
    game = games.get(name)
    position = game.new_state(4).to_json()
    position.pop("dice")
    first, second = game.load_state(position), game.load_state(position)
    assert first.dice.to_json() != second.dice.to_json()


@pytest.mark.parametrize("name", GAMES)
def test_a_bad_seed_is_refused(name: str) -> None:
    game = games.get(name)
    for seed in (-1, 2**80, True, "7"):
        with pytest.raises(Exception, match="seed"):
            game.new_state(seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", GAMES)
def test_unknown_options_are_refused(name: str) -> None:
    game = games.get(name)
    with pytest.raises(Exception, match=r"unknown .* option 'narnia'"):
        game.new_state(1, options={"narnia": True})
    position = game.new_state(1).to_json()
    position["options"] = {"narnia": True}
    with pytest.raises(PositionError):
        game.load_state(position)


def rolling_action(state: State) -> tuple[State, object] | None:
    """A legal action of `state` that rolls at least one die, with the state it is played on."""
    for action in state.legal_actions():
        trial = state.clone()
        trial.dice = SeededDice(1)
        events = trial.apply(action)
        if any(e.kind == "roll" for e in events):
            return state, action
    return None


@pytest.mark.parametrize("name", GAMES)
def test_apply_is_atomic_when_the_dice_run_dry(name: str) -> None:
    """A scripted dice source that runs out part-way leaves the position exactly as before."""
    rng = random.Random(2)
    state = games.get(name).new_state(2)
    found = None
    for _ in range(3000):
        found = rolling_action(state)
        if found is not None:
            break
        acts = state.legal_actions()
        state.apply(acts[rng.randrange(len(acts))])
    assert found is not None, "no action that rolls a die in 3,000 plies"
    state, action = found
    state.dice = ScriptedDice([])
    before = state.to_json()
    legal_before = [str(a) for a in state.legal_actions()]
    with pytest.raises(DiceExhausted):
        state.apply(action)  # type: ignore[arg-type]
    assert state.to_json() == before
    assert [str(a) for a in state.legal_actions()] == legal_before
    state.dice = SeededDice(5)
    state.apply(action)  # type: ignore[arg-type]
    assert state.ply == before["ply"] + 1


@pytest.mark.parametrize("name", GAMES)
def test_a_refused_action_changes_nothing(name: str) -> None:
    """Actions listed at other moments of a seeded game and refused now leave the position,
    its legal actions and the play that follows exactly as they were (with seeded dice, where
    a game that checks before changing keeps no copy to undo a refusal)."""
    game = games.get(name)
    state = game.new_state(6)
    rng = random.Random(6)
    seen: list[str] = []
    refused = 0
    while not state.is_terminal() and state.ply < 600:
        acts = state.legal_actions()
        listed = {str(a) for a in acts}
        seen.extend(text for text in listed if rng.random() < 0.05)
        if state.ply % 5 == 0:
            for text in rng.sample(seen, min(4, len(seen))):
                if text in listed:
                    continue
                trial = state.clone()
                before = trial.to_json()
                try:
                    trial.apply(text)
                except IllegalAction:
                    refused += 1
                    assert trial.to_json() == before, (name, state.ply, text)
                    assert [str(a) for a in trial.legal_actions()] == [str(a) for a in acts], (name, text)
                    action = acts[rng.randrange(len(acts))]
                    follow = state.clone()
                    assert trial.apply(str(action)) == follow.apply(str(action))
                    assert trial.to_json() == follow.to_json(), (name, state.ply, text)
        state.apply(acts[rng.randrange(len(acts))])
    assert refused > 20


@pytest.mark.parametrize("name", [n for n in GAMES if games.get(n).new_state(1).checks_before_changing])
def test_a_game_that_checks_first_keeps_no_copy_unless_the_dice_may_fail(name: str, monkeypatch) -> None:
    """`apply` copies the position to undo a failure only where one can happen part-way: with
    seeded dice a game that checks before changing plays without the copy; with scripted dice
    (which may run dry) the copy is kept."""
    state = played(name, 1, 30)
    cls = type(state)
    copies: list[State] = []
    real_clone = cls.clone

    def counted(self: State) -> State:
        copies.append(self)
        return real_clone(self)

    monkeypatch.setattr(cls, "clone", counted)
    state.apply(state.legal_actions()[0])
    assert copies == []
    state.dice = ScriptedDice([1, 2, 3, 4, 5, 6] * 10)
    state.apply(state.legal_actions()[0])
    assert copies == [state]


@pytest.mark.parametrize("name", GAMES)
def test_deepcopy_and_pickle_go_through_clone_and_the_position(name: str) -> None:
    state = played(name, 3, 120)
    copied = copy.deepcopy(state)
    assert copied.game is state.game and copied.to_json() == state.to_json()
    blob = pickle.dumps(state)
    assert len(blob) < 200_000  # the position, never the game's data
    loaded = pickle.loads(blob)
    assert loaded.game is state.game and loaded.to_json() == state.to_json()
    assert [str(a) for a in loaded.legal_actions()] == [str(a) for a in state.legal_actions()]


@pytest.mark.parametrize("name", GAMES)
def test_key_is_the_position_as_a_side_knows_it(name: str) -> None:
    state = played(name, 5, 80)
    twin = state.clone()
    twin.dice = SeededDice(99)
    assert state.key() == twin.key()
    for side in state.game.sides:
        assert state.key(side) == twin.key(side)
        if not state.game.hidden_information:
            assert state.key(side) == state.key()


@pytest.mark.parametrize("name", GAMES)
def test_data_version_is_a_content_hash_checked_on_load(name: str) -> None:
    game = games.get(name)
    assert game.data_version.startswith("sha256:")
    position = game.new_state(1).to_json()
    assert position["data_version"] == game.data_version
    position["data_version"] = "sha256:0000000000000000"
    with pytest.raises(PositionError, match="data_version: written for game data"):
        game.load_state(position)
    record = record_for(game, game.new_state(1))
    record.data_version = "sha256:0000000000000000"
    with pytest.raises(RecordError, match="written for game data"):
        replay(record, game)


@pytest.mark.parametrize("name", GAMES)
def test_a_step_ending_action_cannot_be_taken_back(name: str) -> None:
    """The server asks the engine (`undo_barrier`), not the view: an action that ends a step
    or hands the decision over is final in every game."""
    state = games.get(name).new_state(6)
    rng = random.Random(6)
    finals = takebacks = 0
    for _ in range(400):
        if state.is_terminal():
            break
        before = state.clone()
        acts = state.legal_actions()
        state.apply(acts[rng.randrange(len(acts))])
        barrier = state.undo_barrier(before)
        if (state.turn, state.step) != (before.turn, before.step) or state.current_player() != before.current_player():
            assert barrier is not None
            finals += 1
        else:
            takebacks += barrier is None
    assert finals and takebacks


def test_capabilities_are_declared_not_probed() -> None:
    fb, dg, aag = (games.get(n) for n in GAMES)
    assert not fb.hidden_information and dg.hidden_information and aag.hidden_information
    assert Capability.MAP_DRAWING in fb.capabilities
    for game in (fb, dg, aag):
        assert Capability.ODDS in game.capabilities and Capability.EVALUATION in game.capabilities


def test_a_record_replays_bit_for_bit_with_its_recorded_seed() -> None:
    for name in GAMES:
        game = games.get(name)
        state = game.new_state()
        record = record_for(game, state)
        rng = random.Random(1)
        for _ in range(150):
            if state.is_terminal():
                break
            side = state.current_player()
            action = rng.choice(list(state.legal_actions()))
            record.add(str(side), str(action), state.apply(action))
        again = replay(GameRecord.loads(record.dumps()), game)
        assert again.to_json() == state.to_json()
