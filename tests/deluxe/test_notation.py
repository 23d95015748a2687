"""Action notation (docs/deluxe.md): every action prints as text that parses back to itself,
and bad text is a NotationError naming the problem."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from henderson.core.errors import NotationError
from henderson.games.deluxe.actions import VERBS, DGAction, parse

from .support import GAME

HEXES = sorted(GAME.data.map.hexes)
UNITS = sorted(GAME.data.units)


@st.composite
def actions(draw):
    verb = draw(st.sampled_from(sorted(VERBS)))
    needed, _, optional = VERBS[verb].partition("?")
    args = []
    for kind in needed + optional[: draw(st.integers(0, len(optional)))]:
        if kind == "h":
            args.append(draw(st.sampled_from(HEXES)))
        elif kind == "u":
            args.append(draw(st.sampled_from(UNITS)))
        elif kind == "s":
            ids = draw(st.lists(st.sampled_from(UNITS), min_size=2, max_size=3, unique=True))
            args.append("+".join(sorted(ids)))
        else:
            args.append(str(draw(st.integers(0, 40))))
    return DGAction(verb, tuple(args))


@given(actions())
def test_notation_round_trips(action):
    assert parse(str(action)) == action
    assert GAME.parse_action(str(action)) == action


@given(actions(), actions())
def test_actions_are_values_made_once(action, other):
    # made directly or shared (`make`, `parse`): equal, hashed alike and never changed
    shared = parse(str(action))
    assert shared == action and hash(shared) == hash(action) and parse(str(action)) is shared
    assert (action == other) == (str(action) == str(other))
    assert (action == other) <= (hash(action) == hash(other))
    assert action != str(action) and action != (action.verb, action.args)
    assert copy.deepcopy(action) is shared and pickle.loads(pickle.dumps(action)) is shared
    with pytest.raises(AttributeError):
        action.verb = "end"
    assert repr(action) == f"DGAction(verb={action.verb!r}, args={action.args!r})"


@given(st.text(max_size=30))
def test_any_text_parses_or_raises_notation_error(text):
    try:
        action = parse(text)
    except NotationError as exc:
        assert text in str(exc) or repr(text) in str(exc)
    else:
        assert parse(str(action)) == action


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty action"),
        ("fly 7/1 3707", "unknown verb 'fly'"),
        ("move 7/1", "move takes 2 argument"),
        ("move 7/1 37a7", "not a four-digit hex"),
        ("fire 10/3 3708 x", "not a number"),
    ],
)
def test_bad_notation(text, message):
    with pytest.raises(NotationError, match=message):
        parse(text)


def test_stack_notation_is_written_in_id_order():  # DG 7.5
    assert parse("stack 7/1+6/3 3909") == DGAction("stack", ("6/3+7/1", "3909"))
    with pytest.raises(NotationError, match="names a unit twice"):
        parse("stack 7/1+7/1 3909")
    with pytest.raises(NotationError, match="not a stack"):
        parse("stack 7/1 3909")


def test_detection_takes_an_optional_leg():  # DG 7.7.5
    assert parse("detect 6/3 4012 3810").args == ("6/3", "4012", "3810")
    with pytest.raises(NotationError, match="detect takes 2-3 argument"):
        parse("detect 6/3")


def test_whitespace_and_case_are_forgiven():
    assert parse("  MOVE 7/1   3707 ") == DGAction("move", ("7/1", "3707"))
    assert parse("fire 10/3 3708 02") == DGAction("fire", ("10/3", "3708", "2"))
