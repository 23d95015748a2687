"""Token-by-token play (`Match`): the same game as playing actions directly, and dice as
explicit chance nodes with their outcomes and probabilities."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from henderson import games
from henderson.core.dice import ScriptedDice
from henderson.core.record import RecordEntry
from henderson.research.chance import ChosenDice, PendingRoll, try_with_dice
from henderson.research.match import CHANCE, Match, MatchError
from tests.research.conftest import GAMES


def _position(state: object) -> dict:
    data = state.to_json()  # type: ignore[attr-defined]
    data.pop("dice", None)
    return data


@pytest.mark.parametrize("name", GAMES)
def test_playing_tokens_is_playing_the_actions(name: str) -> None:
    game = games.get(name)
    direct = game.new_state(11)
    match = Match(game, 11)
    rng = random.Random(4)
    texts = []
    for _ in range(150):
        if direct.is_terminal():
            break
        assert match.current_player() == direct.current_player()
        actions = direct.legal_actions()
        action = actions[rng.randrange(len(actions))]
        events = direct.apply(action)
        tokens = match.space.tokens(action)
        for token in tokens[:-1]:
            assert match.step(token) is None, "nothing is played before the action is complete"
        played = match.step(tokens[-1])
        assert [e.to_json() for e in played or []] == [e.to_json() for e in events]
        texts.append(str(action))
    assert match.state.to_json() == direct.to_json()
    assert [e.action for e in match.record.entries] == texts
    assert match.plies == len(texts)


def _rolls(match: Match, text: str) -> bool:
    """Whether playing `text` now needs a die (tried on a copy)."""
    action = next((a for a in match.state.legal_actions() if str(a) == text), None)
    return action is not None and isinstance(try_with_dice(match.state.clone(), action, []), PendingRoll)


def _first_state_with(name: str, verb: str, explicit: bool = True, limit: int = 5000) -> Match:
    """A match (explicit chance) at a decision where the action `verb` is legal and rolls."""
    game = games.get(name)
    rng = random.Random(2)
    match = Match(game, 5, explicit_chance=explicit)
    for _ in range(limit):
        if match.current_player() == CHANCE:
            match.step_chance(rng.randint(1, match.pending.sides))  # type: ignore[union-attr]
            continue
        if not match.prefix and _rolls(match, verb):
            return match
        match.step(rng.choice(match.legal_tokens()))
    raise AssertionError(f"no {verb} within {limit} steps")


def test_a_die_is_a_chance_node_with_six_equally_likely_faces_and_the_face_chosen_is_rolled() -> None:
    match = _first_state_with("firstblood", "resolve")
    action = next(a for a in match.state.legal_actions() if str(a) == "resolve")
    before = _position(match.state)
    match.play(action)
    assert match.current_player() == CHANCE
    assert match.chance_outcomes() == [(f, pytest.approx(1 / 6)) for f in range(1, 7)]
    assert _position(match.state) == before, "nothing happens before the die is known"
    assert match.legal_tokens() == []
    for face in range(1, 7):
        branch = match.clone()
        branch.step_chance(face)
        faces = [face]
        while branch.current_player() == CHANCE:  # the result may call for more dice
            faces.append(1)
            branch.step_chance(1)
        assert branch.record.entries[-1].rolls() == faces
        expected = match.state.clone()
        expected.dice = ScriptedDice(faces)
        expected.apply(action)
        assert _position(branch.state) == _position(expected)
    assert _position(match.state) == before, "branches are independent"


def test_an_action_with_several_dice_asks_for_each_in_turn() -> None:
    match = _first_state_with("aag", "roll")
    match.play("roll")
    faces = []
    rng = random.Random(8)
    while match.current_player() == CHANCE:
        assert {f for f, _ in match.chance_outcomes()} == set(range(1, 7))
        faces.append(rng.randint(1, 6))
        match.step_chance(faces[-1])
    assert len(faces) >= 1
    assert match.record.entries[-1].rolls() == faces
    assert isinstance(match.state.dice, ChosenDice), "with explicit chance no seeded die is ever rolled"


def test_with_explicit_chance_the_seed_does_not_matter() -> None:
    game = games.get("aag")
    a, b = Match(game, 1, explicit_chance=True), Match(game, 99, explicit_chance=True)
    rng = random.Random(3)
    for _ in range(400):
        if a.is_over():
            break
        if a.current_player() == CHANCE:
            face = rng.randint(1, 6)
            a.step_chance(face)
            b.step_chance(face)
        else:
            token = rng.choice(a.legal_tokens())
            a.step(token)
            b.step(token)
    assert a.history == b.history
    left, right = _position(a.state), _position(b.state)
    left.pop("seed", None)
    right.pop("seed", None)
    assert left == right


def test_wrong_tokens_and_outcomes_are_refused_in_one_line() -> None:
    match = Match(games.get("firstblood"), 2)
    illegal = next(t for t in range(match.space.size) if t not in match.legal_tokens())
    with pytest.raises(MatchError) as refused:
        match.step(illegal)
    assert "\n" not in str(refused.value) and "does not extend" in str(refused.value)
    with pytest.raises(MatchError, match="no die"):
        match.step_chance(3)
    with pytest.raises(MatchError, match="no die"):
        match.chance_outcomes()
    chance = _first_state_with("firstblood", "resolve")
    chance.play("resolve")
    with pytest.raises(MatchError, match="not a face"):
        chance.step_chance(7)
    with pytest.raises(MatchError, match="die is to be rolled"):
        chance.step(0)


def test_a_cut_game_is_truncated_with_no_winner() -> None:
    match = Match(games.get("aag"), 3, max_plies=5)
    rng = random.Random(0)
    while not match.is_over():
        match.step(rng.choice(match.legal_tokens()))
    assert match.truncated and match.plies == 5
    assert match.returns() == {"us": 0.0, "jp": 0.0}
    assert match.current_player() is None and match.legal_tokens() == []


def test_forced_tokens_are_chosen_without_asking() -> None:
    match = Match(games.get("aag"), 3, auto_forced=True, max_plies=60)
    rng = random.Random(1)
    while not match.is_over():
        tokens = match.legal_tokens()
        assert len(tokens) > 1
        match.step(rng.choice(tokens))


def test_copies_and_pickles_are_independent_and_keep_the_game() -> None:
    match = _first_state_with("firstblood", "resolve")
    match.play("resolve")
    for twin in (copy.deepcopy(match), pickle.loads(pickle.dumps(match))):
        assert twin.game is match.game and twin.space is match.space
        assert twin.current_player() == CHANCE
        assert _position(twin.state) == _position(match.state)
        assert isinstance(twin.state.dice, ChosenDice)
        twin.step_chance(6)
        assert match.current_player() == CHANCE
    assert all(isinstance(e, RecordEntry) for e in match.record.entries)
