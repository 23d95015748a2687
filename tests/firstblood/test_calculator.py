"""The FB battle calculator: any attack on one hex from factors chosen freely (FB 8.4–8.8),
read through the same odds as an attack on the board."""

from __future__ import annotations

from fractions import Fraction

import pytest

from henderson.core.errors import HendersonError
from henderson.core.game import Capability


def test_the_form_names_every_input_with_its_rule(game):
    assert Capability.CALCULATOR in game.capabilities
    fields = {f.name: f for f in game.calculator_form().fields}
    assert fields["terrain"].choices == ("clear", "jungle", "ridge")
    assert fields["artillery"].rule == "FB 9.6" and fields["bombers"].rule == "FB 13.6"


def test_fb_8_7_1_jungle_shifts_the_die_on_the_american_table(game):
    """US 7 against 3 is 2-1 (FB 8.4); jungle is -1 (FB 8.7.1) and the die stays in 1-6 (FB 8.8):
    rolls 1..6 read rows 1,1,2,3,4,5 of the 2-1 column, A1 A1 EX DR D1 DE."""
    odds = game.calculate({"attacker": "us", "ground": 7, "defence": 3, "terrain": "jungle"}).odds
    assert odds.column == "2-1" and [m.rule for m in odds.modifiers] == ["FB 8.7.1"]
    assert odds.distribution == {
        "A1": Fraction(1, 3), "EX": Fraction(1, 6), "DR": Fraction(1, 6), "D1": Fraction(1, 6), "DE": Fraction(1, 6)
    }


def test_fb_9_6_artillery_capped_and_fb_8_6_above_3_1(game):
    """Artillery adds at most twice the ground factors (FB 9.6); beyond 3-1 is 3-1 with +1 (FB 8.6)."""
    odds = game.calculate({"ground": 2, "artillery": 9, "defence": 1}).odds
    assert (odds.artillery, odds.attack, odds.column) == (4, 6, "3-1")
    assert [(m.value, m.rule) for m in odds.modifiers] == [(1, "FB 8.6")]


def test_fb_8_7_3_river_doubling_and_fb_10_4_ships(game):
    """7 against 3 doubled behind a river is 7-6, 1-1 (FB 8.7.3); two ships give +4 (FB 10.4):
    the Japanese 1-1 column read at rows 5 and 6 only, DR once and D1 five times."""
    odds = game.calculate({"attacker": "jp", "ground": 7, "defence": 3, "doubling": "river", "ships": 2}).odds
    assert (odds.defence, odds.column, odds.drm) == (6, "1-1", 4)
    assert odds.distribution == {"DR": Fraction(1, 6), "D1": Fraction(5, 6)}


def test_fb_8_6_below_1_2_has_no_roll(game):
    calc = game.calculate({"ground": 1, "defence": 3})
    assert calc.odds.column is None and calc.odds.distribution == {}
    assert [(o.label, o.chance) for o in calc.outcomes] == [("AE", 1)]


def test_equals_the_odds_of_the_same_attack_on_the_board(game, pos):
    """FB 4.4 ford example: 1/1 (4) on 0910, jungle, behind the ford (1/124, 4, doubled to 8)."""
    st = pos("us_combat", ground={"1/124": "0910", "1/1": "0909"})
    on_board = game.odds(st, "attack 0910 with 1/1")
    calc = game.calculate({"ground": 4, "defence": 4, "terrain": "jungle", "doubling": "river"})
    board, free = on_board.to_json(), calc.odds.to_json()
    board["doublings"] = free["doublings"] = None  # the board names the hex, the calculator does not
    assert board == free


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"ground": "x"}, "ground"),
        ({"ground": 100}, "ground"),
        ({"terrain": "swamp"}, "terrain"),
        ({"attacker": "jp", "bombers": 1}, "bombers"),
        ({"ships": 1}, "ships"),
        ({"doubling": "ridge", "terrain": "clear"}, "doubling"),
        ({"doubling": "box"}, "doubling"),
        ({"tanks": 1}, "tanks"),
    ],
)
def test_bad_inputs_are_refused_naming_the_field(game, inputs, field):
    with pytest.raises(HendersonError, match=f"^{field}: "):
        game.calculate(inputs)


def test_the_common_shape_lists_each_rule_and_result(game):
    calc = game.calculate({"ground": 2, "artillery": 9, "defence": 1, "terrain": "jungle", "doubling": "river"})
    assert [(n.rule, n.value) for n in calc.notes] == [("FB 8.7.3", "×2"), ("FB 9.6", ""), ("FB 8.7.1", "-1")]
    assert sum(o.chance for o in calc.outcomes) == 1
    assert calc.to_json()["summary"] == "6 against 2: 6-2 → 3-1, column 3-1 of the American Attack Table"
