"""The DG evaluation for the computer players (henderson.games.deluxe.evaluate): exact at
the end of the game, zero-sum, within [-1, 1], and moving the right way when one thing in a
position gets better for one side (DG 9 victory points, Henderson Field, steps, supply)."""

from __future__ import annotations

import importlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from henderson.games.deluxe.evaluate import evaluate

from .support import GAME, state

BASE_UNITS = {"1/1": "3707", "1/2": "3806", "124/1": "4010", "124/2": "4012", "10/3": "3508"}


def base(**extra):
    """A quiet mid-game position: US on the field, Japan in the jungle to the south-east."""
    units = dict(extra.pop("units", BASE_UNITS))
    extra.setdefault("henderson_field", {"status": 20, "control": "us"})
    extra.setdefault("supply", {"us": 5, "jp": 5})
    return state(12, "us_move", units, **extra)


def test_the_hook_is_where_the_agents_look():
    module = importlib.import_module("henderson.games.deluxe.evaluate")
    assert module.evaluate is evaluate


def test_finished_games_are_exactly_won_or_lost():  # DG 9.4
    s = state(26, "turn_end", {}, open=False, vp=50, henderson_field={"status": 5, "control": "jp"})
    assert s.winner() == "jp"
    assert evaluate(s, "jp") == 1.0 and evaluate(s, "us") == -1.0
    s = state(12, "turn_end", {}, open=False, vp=70, henderson_field={"status": 5, "control": "us"})
    assert s.winner() == "us"
    assert evaluate(s, "us") == 1.0 and evaluate(s, "jp") == -1.0
    s = state(26, "turn_end", {}, open=False, vp=0, henderson_field={"status": 5, "control": "us"})
    assert s.is_terminal() and s.winner() is None  # even points, field inoperable: a draw
    assert evaluate(s, "us") == 0.0


def test_unknown_side_is_refused():
    with pytest.raises(ValueError, match="unknown side"):
        evaluate(base(), "germany")


@settings(max_examples=4, deadline=None)
@given(st.integers(0, 2**31))
def test_zero_sum_and_in_range_over_random_play(seed):
    s = GAME.new_state(seed)
    rng = random.Random(seed)
    for _ in range(150):
        if s.is_terminal():
            break
        us, jp = evaluate(s, "us"), evaluate(s, "jp")
        assert us == -jp
        assert -1.0 < us < 1.0  # only a finished game is worth a whole win
        before = s.to_json()
        evaluate(s, "us")
        assert s.to_json() == before  # evaluation never changes the position
        s.apply(rng.choice(s.legal_actions()))


def test_more_victory_points_are_better():  # DG 9.0
    assert evaluate(base(vp=10), "us") > evaluate(base(vp=0), "us") > evaluate(base(vp=-10), "us")


def test_holding_henderson_field_is_better():  # DG 9.1, 9.2, 9.4
    ours = base(henderson_field={"status": 20, "control": "us"})
    theirs = base(henderson_field={"status": 20, "control": "jp"})
    assert evaluate(ours, "us") > evaluate(theirs, "us")
    assert evaluate(theirs, "jp") > evaluate(ours, "jp")


def test_an_operational_field_is_worth_more_to_its_holder():  # DG 7.11, 9.1
    working = base(henderson_field={"status": 20, "control": "us"})
    wrecked = base(henderson_field={"status": 4, "control": "us"})
    assert evaluate(working, "us") > evaluate(wrecked, "us")


def test_the_field_counts_more_as_the_end_nears():  # DG 9.4
    # an inoperable field scores nothing a turn, and the US gains a point a turn from the
    # villages: only the final-turn control of the field makes the late position better
    villages = {h: "us" for h in sorted(GAME.data.map.villages)[:5]}
    field = {"status": 5, "control": "jp"}
    early = state(5, "us_move", BASE_UNITS, henderson_field=field, villages=villages)
    late = state(25, "us_move", BASE_UNITS, henderson_field=field, villages=villages)
    assert evaluate(late, "jp") > evaluate(early, "jp")


def test_more_steps_are_better():  # DG 2.2.1.7
    weak = base(units={**BASE_UNITS, "124/1": {"at": "4010", "strength": 1}})
    assert evaluate(weak, "us") > evaluate(base(), "us")
    more = base(units={**BASE_UNITS, "1/3": "3608"})
    assert evaluate(more, "us") > evaluate(base(), "us")


def test_more_artillery_supply_is_better():  # DG 8.1.1
    rich = base(supply={"us": 20, "jp": 5})
    assert evaluate(rich, "us") > evaluate(base(), "us")


def test_enemy_next_to_the_field_is_a_threat():  # DG 9.3
    far = base()
    near = base(units={**BASE_UNITS, "124/1": "3808"})
    assert GAME.data.map.distance("3808", GAME.data.map.henderson_field) <= 2
    assert evaluate(near, "us") < evaluate(far, "us")


def banzai_choice():
    """1-1, a 6: the attackers have taken their two losses and owe a retreat (DG 8.2.1.4);
    Japan may banzai instead, taking the losses again, then attack again (DG 8.2.10)."""
    from .support import state as dice_state

    s = dice_state(7, "jp_combat", {"124/1": "3909", "124/2": "3909", "7/1": "3808"}, dice=[6, 5])
    for a in ("attack 3808", "with 124/1", "with 124/2", "go", "lose 124/1", "lose 124/1"):
        s.apply(a)
    assert {str(a) for a in s.legal_actions()} == {"banzai", "pass"}
    return s


def test_losses_an_assault_has_rolled_count_before_they_are_taken():  # DG 8.2.1.4, 8.2.10
    """The banzai's doubled losses are owed once it is declared: the evaluation sees them then,
    not a decision later, so the look-ahead does not take a banzai for free."""
    from henderson.games.deluxe.evaluate import owed_losses

    s = banzai_choice()
    assert owed_losses(s) == {"us": 0, "jp": 0}
    banzai, passed = s.clone(), s.clone()
    banzai.apply("banzai")
    passed.apply("pass")
    assert owed_losses(banzai) == {"us": 0, "jp": 2}  # the two losses taken, again (doubled)
    assert evaluate(banzai, "jp") < evaluate(passed, "jp")
    banzai.apply("lose 124/2")
    assert owed_losses(banzai) == {"us": 0, "jp": 1}


def test_owed_losses_are_at_most_the_steps_in_the_assault():  # DG 8.2.1.4
    from henderson.games.deluxe.evaluate import owed_losses

    s = banzai_choice()
    s.apply("banzai")
    p = s.pending[-1]
    p.loss = {"us": 0, "jp": 99}  # type: ignore[attr-defined]
    steps = sum(s.units[u].strength for u in ("124/1", "124/2"))
    assert owed_losses(s) == {"us": 0, "jp": steps}
