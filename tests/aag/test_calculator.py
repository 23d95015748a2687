"""The AAG battle calculator: each side's units chosen freely, both sides firing (AAG Combat),
through the same battle-box odds as a battle on the board."""

from __future__ import annotations

from fractions import Fraction

import pytest

from henderson.core.errors import HendersonError
from henderson.core.game import Capability
from henderson.games.aag.odds import OddsTooLarge

from .helpers import game, piece, position


def chances(calc, group_start: str) -> dict[str, Fraction]:
    return {o.label: o.chance for o in calc.outcomes if o.group.startswith(group_start)}


def test_the_form_has_every_unit_type_for_each_side():
    g = game()
    assert Capability.CALCULATOR in g.capabilities
    names = {f.name for f in g.calculator_form().fields}
    assert {"attacker_cruiser", "defender_cruiser", "category", "airfields", "night_fighting"} <= names


def test_one_die_hits_one_infantry_a_third_of_the_time():
    """AAG Declare Your Hits: a 1 or a 2 hits; infantry is not resilient, so the hit destroys it."""
    calc = game().calculate({"category": "land", "attacker_infantry": 1, "defender_infantry": 1})
    expected = {"infantry: 0 destroyed": Fraction(2, 3), "infantry: 1 destroyed": Fraction(1, 3)}
    assert chances(calc, "attacker") == expected
    assert chances(calc, "defender") == chances(calc, "attacker")  # both sides fire (AAG Combat)


def test_heavy_armor_absorbs_the_first_hit():
    """AAG Heavy Armor: one die against a battleship never hurts it."""
    calc = game().calculate({"category": "sea", "attacker_destroyer": 1, "defender_battleship": 1})
    assert chances(calc, "attacker") == {"battleship: 0 destroyed": 1}


def test_airfields_one_damaged_for_two_hits():
    """AAG Combat step 4: a bomber's 2 land dice against one airfield: both must hit, 1/9."""
    calc = game().calculate({"category": "airfields", "attacker_bomber": 1, "airfields": 1})
    expected = {"0 airfield(s) damaged": Fraction(8, 9), "1 airfield(s) damaged": Fraction(1, 9)}
    assert chances(calc, "attacker") == expected


def test_equals_the_odds_of_the_same_battle_on_the_board():
    state = position([piece("us1", "cruiser", "H"), piece("jp1", "transport", "H")], step="combat:sea", first="us")
    on_board = state.odds("H", "sea", "us")
    calc = game().calculate({"category": "sea", "attacker_cruiser": 1, "defender_transport": 1})
    assert calc.odds.fire[0][1] == on_board
    by_dice = game().calculate({"category": "sea", "attacker_dice": on_board.dice, "defender_transport": 1})
    assert by_dice.odds.fire[0][1] == on_board  # the dice a position's odds name, given by hand


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"category": "lake"}, "category"),
        ({"attacker_cruiser": -1}, "attacker_cruiser"),
        ({"defender_tank": 1}, "defender_tank"),
        ({"category": "airfields", "attacker_infantry": 1}, "attacker_infantry"),
        ({"category": "land", "night_fighting": True}, "night_fighting"),
        ({"category": "sea", "banzai_charge": "yes"}, "banzai_charge"),
    ],
)
def test_bad_inputs_are_refused_naming_the_field(inputs, field):
    with pytest.raises(HendersonError, match=f"^{field}: "):
        game().calculate(inputs)


def test_a_battle_too_large_to_work_out_is_refused_in_one_line():
    with pytest.raises(OddsTooLarge, match="too long to work out"):
        game().calculate(
            {
                "category": "sea",
                **{f"attacker_{kind}": 20 for kind in ("battleship", "cruiser", "bomber", "fighter", "pt_boat")},
                "attacker_dice": 60,
                **{
                    f"defender_{kind}": 20
                    for kind in ("battleship", "cruiser", "destroyer", "carrier", "transport", "submarine", "pt_boat")
                },
            }
        )
