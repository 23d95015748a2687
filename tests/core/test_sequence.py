"""The sequence-of-play engine (`core.sequence`): the sequence is data, checked when read;
alternating and optional steps; steps nobody decides in pass by themselves; a position
written at the start of a step gets that step's entry work; positions round-trip."""

from __future__ import annotations

import copy
import random
import textwrap
from pathlib import Path
from typing import Any

import pytest

from henderson import games
from henderson.core.dice import ScriptedDice
from henderson.core.errors import DataErrors, IllegalAction, PositionError
from henderson.core.sequence import is_end, load_sequence
from tests.support.toy import ToyGame, ToyState

GAME = ToyGame()


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "sequence.toml"
    path.write_text(textwrap.dedent(text))
    return path


STEP = """
[[step]]
id = "{id}"
side = "{side}"
phase = "p"
name = "a step"
rule = "TOY 1"
{extra}
"""


def steps(*entries: tuple[str, str, str]) -> str:
    return "".join(STEP.format(id=i, side=s, extra=e) for i, s, e in entries)


def test_alternate_and_optional_steps(tmp_path: Path) -> None:
    spec = load_sequence(
        write(
            tmp_path,
            steps(
                ("move", "first", "alternate = true"),
                ("secret", "first", 'when = "hidden"'),
                ("open", "first", 'unless = "hidden"'),
            ),
        ),
        ("us", "jp"),
        ["hidden"],
        "TOY",
    )
    plain = spec.for_options(frozenset())
    assert [(s.id, s.side, s.half) for s in plain.steps] == [
        ("move", "first", 0),
        ("move", "second", 1),
        ("open", "first", 0),
    ]
    hidden = spec.for_options(frozenset({"hidden"}))
    assert [s.id for s in hidden.steps] == ["move", "move", "secret"]
    assert plain.index("move", 1) == 1 and plain.first_turn_step == 0


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (steps(("a", "us", ""), ("a", "us", "")), "'a' is listed twice"),
        (steps(("a", "martians", "")), "'martians' is not a side"),
        (steps(("a", "us", 'when = "narnia"')), "'narnia' is not an option"),
        (steps(("a", "us", "colour = 1")), "colour: unknown field"),
        (STEP.format(id="a", side="us", extra="").replace("TOY 1", "FB 2"), "does not cite a rule"),
        ("", "a turn needs at least one step"),
        ('[[step]]\nid = "a"\n', "side: missing"),
    ],
)
def test_a_bad_sequence_is_refused_naming_the_entry(tmp_path: Path, text: str, says: str) -> None:
    with pytest.raises(DataErrors) as info:
        load_sequence(write(tmp_path, text), ("us", "jp"), ["hidden"], "TOY")
    assert says in str(info.value)


def test_a_step_nobody_decides_in_passes_by_itself() -> None:
    state = GAME.new_state(3)
    # the set-up step draws the cards and offers nothing to decide: play starts with red
    assert state.step == "red" and state.current_player() == "red"
    assert all(1 <= c <= 10 for c in state.cards.values())
    assert [str(a) for a in state.legal_actions()] == ["roll", "hold"]


def test_holding_ends_the_step_and_the_next_side_acts() -> None:
    state = GAME.new_state(3)
    events = state.apply("hold")
    assert state.step == "blue" and state.current_player() == "blue"
    assert [e.kind for e in events] == ["hold", "step"]
    state.apply("hold")
    assert state.turn == 2 and state.step == "red"


def test_a_position_written_at_the_start_of_a_step_gets_its_entry_work() -> None:
    """A hand-written position at the set-up step (`entered` left out) draws the cards as a
    new game would, with the dice given."""
    obj = {"format": "henderson-position", "game": "toy", "version": 1, "step": "cards"}
    state = GAME.load_state(obj, dice=ScriptedDice([4, 7]))
    assert state.cards == {"red": 4, "blue": 7} and state.step == "red"
    entered = GAME.load_state({**obj, "step": "red", "entered": True, "cards": {"red": 1, "blue": 2}})
    assert entered.cards == {"red": 1, "blue": 2}


def test_positions_round_trip_and_refuse_what_they_cannot_hold() -> None:
    state = GAME.new_state(5)
    rng = random.Random(5)
    for _ in range(30):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    obj = state.to_json()
    again = GAME.load_state(obj)
    assert again.to_json() == obj and again.key() == state.key()
    for change, where in [
        ({"step": "purple"}, "step"),
        ({"half": 1}, "half"),
        ({"turn": 0}, "turn"),
        ({"narnia": 1}, "narnia"),
        ({"scores": {"red": 1}}, "scores"),
        ({"turn_total": -1}, "turn_total"),
        ({"result": {"winner": "green", "cause": "x"}}, "result.winner"),
        ({"options": {"x": True}}, "options"),
    ]:
        with pytest.raises(PositionError) as info:
            GAME.load_state({**obj, **change})
        assert info.value.where == where, change


def test_a_finished_game_offers_nothing_and_names_its_end() -> None:
    state = GAME.new_state(1)
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    assert state.legal_actions() == [] and state.current_player() is None
    assert state.end_cause == "20 points" and state.winner() in ("red", "blue")
    assert isinstance(GAME.load_state(state.to_json()), ToyState)


@pytest.mark.parametrize("name", ["toy", "aag", "firstblood"])
def test_the_engines_fast_reads_agree_with_the_plain_ones(name: str) -> None:
    """`is_listed` (an identity scan, then a set) answers as plain list membership does, for
    actions taken from the list, equal copies of them and actions listed elsewhere, asked in
    either order; `rules` (read from a table of the steps) is the rules the position names."""
    game = GAME if name == "toy" else games.get(name)
    for seed in range(3):
        rng = random.Random(seed)
        state: Any = game.new_state(seed)
        elsewhere: list[Any] = []
        for _ in range(150):
            if state.is_terminal():
                break
            listed = list(state.legal_actions())
            ref = state.pending[-1].rules if state.pending else state.current_step.phase
            assert state.rules() is state.rules_named(ref)
            asked = [*rng.sample(listed, min(4, len(listed))), *elsewhere]
            probe = state.clone()  # its own set, built by whichever question comes first
            for action in (*asked, *(copy.copy(a) for a in asked)):
                plain = any(action == a for a in listed)
                assert state.is_listed(action) is plain, action
                assert probe.is_listed(copy.copy(action)) is plain, action
            elsewhere = listed[:3]
            state.apply(rng.choice(listed))


@pytest.mark.parametrize("name", ["toy", "aag", "firstblood", "deluxe"])
def test_may_end_answers_as_the_refusal_of_end_does(name: str) -> None:
    """`may_end` (asked at every listing) says yes exactly when `end_blocker` finds nothing, and
    an `end` refused is refused with the blocker's one-line message naming the rule."""
    game = GAME if name == "toy" else games.get(name)
    for seed in range(2):
        rng = random.Random(seed)
        state: Any = game.new_state(seed)
        for _ in range(120 if name == "deluxe" else 400):
            if state.is_terminal():
                break
            rules = state.rules()
            if not state.pending and rules.offers_end:
                blocker = rules.end_blocker(state)
                assert rules.may_end(state) is (blocker is None), (state.ply, state.step)
                assert (state.end_action in state.legal_actions()) is (blocker is None)
                if blocker is not None:
                    with pytest.raises(IllegalAction) as info:
                        state.clone().apply(state.end_action)
                    assert str(info.value) == str(blocker) and info.value.rule == blocker.rule
            state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", ["toy", "aag", "firstblood"])
def test_rules_that_list_afresh_hand_out_a_new_list_at_every_call(name: str) -> None:
    """The engine keeps the list of a phase that `lists_afresh` without copying it (and adds
    `end` to it): each call must make a new list, equal to the last."""
    game = GAME if name == "toy" else games.get(name)
    checked = 0
    for seed in range(2):
        rng = random.Random(seed)
        state: Any = game.new_state(seed)
        for _ in range(400):
            if state.is_terminal():
                break
            rules = state.rules()
            if rules.lists_afresh:
                first, again = rules.actions(state), rules.actions(state)
                assert first is not again and first == again, (state.ply, state.step)
                assert state.legal_actions()[: len(first)] == first
                checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 50 or name != "firstblood"


@pytest.mark.parametrize("name", ["toy", "aag", "firstblood", "deluxe"])
def test_the_end_is_told_apart_as_plain_equality_does(name: str) -> None:
    """`is_end` (type first, then equality) answers as `==` with the game's end action, for
    every action listed in seeded random play and equal copies of them."""
    game = GAME if name == "toy" else games.get(name)
    ends = 0
    for seed in range(2):
        rng = random.Random(seed)
        state: Any = game.new_state(seed)
        for _ in range(100 if name == "deluxe" else 300):
            if state.is_terminal():
                break
            end = state.end_action
            for action in state.legal_actions():
                for probe in (action, copy.copy(action)):
                    assert is_end(probe, end) is (probe == end), probe
                ends += action == end
            state.apply(rng.choice(state.legal_actions()))
    assert ends > 0 or name == "toy"
