"""Action notation: every action round-trips through its text, and bad text gets a precise error."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from henderson.core.errors import NotationError
from henderson.games.firstblood import actions as A

unit = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9/\-]{0,6}", fullmatch=True)
hexid = st.from_regex(r"[0-1][0-9][0-2][0-9]", fullmatch=True)
place = st.one_of(hexid, st.sampled_from(["A", "B", "C", "D", "EP1", "EP11", "EP17"]))
holding = st.sampled_from(sorted(A.BOX_NAMES.values()))
units = st.lists(unit, min_size=1, max_size=3).map(tuple)
maybe_units = st.lists(unit, max_size=3).map(tuple)

actions = st.one_of(
    st.builds(A.Place, unit, st.one_of(place, holding)),
    st.just(A.SetupDefault()),
    st.just(A.CommitSpecials()),
    st.builds(A.Move, unit, place, st.lists(place, max_size=3).map(tuple)),
    st.builds(A.Bomb, unit, hexid),
    st.builds(A.Attack, st.lists(hexid, min_size=1, max_size=3).map(tuple)),
    st.builds(
        A.Attack, st.lists(hexid, min_size=1, max_size=3).map(tuple), units, maybe_units, maybe_units, maybe_units
    ),
    st.builds(A.Add, unit),
    st.sampled_from([A.Resolve(), A.Cancel(), A.Stop(), A.End()]),
    st.builds(
        A.AirMission,
        st.lists(unit, min_size=1, max_size=2).map(tuple),
        st.one_of(hexid, st.sampled_from(["usaf_cap", "usaf_ground_attack"])),
    ),
    st.builds(A.Bombard, hexid, unit),
    st.builds(A.Lose, unit),
    st.builds(A.Retreat, unit, hexid),
    st.builds(A.Advance, unit, hexid),
    st.builds(A.Land, unit, hexid),
    st.builds(A.Fly, unit, st.one_of(hexid, st.sampled_from(["usaf_cap", "usaf_ground_attack"]))),
)


@given(actions)
def test_notation_round_trips(action):
    assert A.parse_action(str(action)) == action


def test_examples_read_as_documented():
    assert A.parse_action("move 6DB 1007") == A.Move("6DB", "1007")
    assert A.parse_action("MOVE 1/124 0011 via B") == A.Move("1/124", "0011", ("B",))
    assert A.parse_action("attack 0604+0605 with 1/1 art 2/11,3/11") == A.Attack(
        ("0604", "0605"), ("1/1",), ("2/11", "3/11")
    )
    assert A.parse_action("place DD-1 ijn-attack") == A.Place("DD-1", "ijn_attack")
    assert A.parse_action("air Zero-1 cap") == A.AirMission(("Zero-1",), "usaf_cap")
    assert A.parse_action("place 228/1 ep1") == A.Place("228/1", "EP1")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty"),
        ("fly", "expected 'fly UNIT PLACE'"),
        ("march 1/1 0707", "unknown verb"),
        ("move 1/1 Z9", "not a hex"),
        ("attack 07x8", "not a hex number"),
        ("attack 0708 art 1/11", "with"),
        ("attack 0708 with", "followed by a list"),
        ("retreat 1/1", "expected 'retreat UNIT HEX'"),
        ("bombard 0708 by SUY", "expected 'bombard HEX with UNIT'"),
    ],
)
def test_bad_notation_says_what_is_wrong(text, words):
    with pytest.raises(NotationError) as err:
        A.parse_action(text)
    assert words in str(err.value)
