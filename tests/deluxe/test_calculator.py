"""The DG battle calculator: any assault on one hex from strengths chosen freely (DG 8.2), added
up and read on the Attrition Table by the same code as an assault on the map."""

from __future__ import annotations

from fractions import Fraction

import pytest

from henderson import games
from henderson.core.errors import HendersonError
from henderson.core.game import Capability

from .test_oddsview import an_assault


@pytest.fixture(scope="module")
def game():
    return games.get("deluxe")


def test_the_form_comes_from_the_terrain_effects_table(game):
    assert Capability.CALCULATOR in game.capabilities
    fields = {f.name: f for f in game.calculator_form().fields}
    assert "attack_river" in fields  # the attacker's river multiplier (DG 8.2.1.1)
    assert fields["terrain"].choices == ("none", "village") and fields["strain"].hi == 5


def test_dg_8_2_combat_example_column_2_1(game):
    """DG 8.2 example, 2-1: a 3 costs the defender a step and a hex, the attacker may advance; a 6
    costs the attacker two steps and a hex (the Attrition Table's 2-1 column)."""
    calc = game.calculate({"attack": 6, "defence": 3})
    rows = calc.odds.to_json()["results"]
    assert calc.odds.to_json()["ratio"] == "2-1"
    assert rows[2]["defender"] == {"loss": 1, "retreat": 1, "advance": 0} and rows[2]["attacker"]["advance"] == 1
    assert rows[5]["attacker"] == {"loss": 2, "retreat": 1, "advance": 0}
    assert sum(o.chance for o in calc.outcomes) == 1


def test_terrain_multipliers_and_strain(game):
    """6 + 4 from a river hex (×1/2, DG 8.2.1.1) + 2 strain points (DG 8.2.3) = 10 against 2 in a
    village (×3/2) attacked uphill (×2, DG 8.2.1.2) = 6: 10-6 is 1-1, strain loss 2/6."""
    inputs = {"attack": 6, "attack_river": 4, "strain": 2, "defence": 2, "terrain": "village", "uphill": True}
    calc = game.calculate(inputs)
    details = calc.odds.to_json()
    assert (details["attack"], details["defense"], details["ratio"]) == ("10", "6", "1-1")
    assert details["strain_loss_chance"] == "1/3"
    assert [n.value for n in calc.notes if n.rule == "DG 8.2.1.2"] == ["×2", "×3/2"]


def test_ambush_doubles_units_not_support_and_the_event_shifts_a_column(game):
    """DG 8.2.9: (3 ×2) + 1 support = 7 against 7 is 1-1; DG 5.0 moves it to 2-1."""
    ambush = {"attacker": "jp", "attack": 3, "support": 1, "ambush": True, "defence": 7}
    assert game.calculate(ambush).odds.data["ratio"] == "1-1"
    shifted = game.calculate({**ambush, "combat_event": True})
    assert shifted.odds.data["ratio"] == "2-1"


def test_dg_10_2_3_the_air_bonus_helps_the_japanese_in_attack_and_defence(game):
    """Two Japanese units each one factor stronger: 4 + 2 against 3 is 2-1 in attack; in
    defence 3 + 2 = 5 against a US 6 is 1-1."""
    attack = game.calculate({"attacker": "jp", "attack": 4, "air_bonus": 2, "defence": 3}).odds.data
    assert (attack["attack"], attack["ratio"]) == ("6", "2-1")
    defence = game.calculate({"attacker": "us", "attack": 6, "air_bonus": 2, "defence": 3}).odds.data
    assert (defence["defense"], defence["ratio"]) == ("5", "1-1")


def test_dg_8_2_1_3_outside_the_table(game):
    calc = game.calculate({"attack": 1, "defence": 7})
    assert [(o.label, o.chance) for o in calc.outcomes] == [("attackers eliminated", 1)]
    calc = game.calculate({"attack": 7, "defence": 1})
    assert calc.outcomes[0].label.startswith("defenders eliminated")


def test_equals_the_odds_of_the_same_assault_on_the_map(game):
    _, state, spec = an_assault()
    on_map = game.odds(state, spec).to_json()
    attack, defence = Fraction(on_map["attack"]), Fraction(on_map["defense"])
    assert attack.denominator == defence.denominator == 1 and state.this_turn.event is None
    calc = game.calculate({"attack": int(attack), "defence": int(defence)}).odds.to_json()
    assert {**on_map, "unseen_counters": 0} == calc


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"attack": 100}, "attack"),
        ({"strain": 6}, "strain"),
        ({"attack": 1, "strain": 1}, "strain"),
        ({"terrain": "jungle"}, "terrain"),
        ({"uphill": "maybe"}, "uphill"),
        ({"attacker": "us", "ambush": True}, "ambush"),
    ],
)
def test_bad_inputs_are_refused_naming_the_field(game, inputs, field):
    with pytest.raises(HendersonError, match=f"^{field}: "):
        game.calculate(inputs)
