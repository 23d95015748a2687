"""Assault combat (DG 8.2): the combat example with straining, the odds examples of
8.2.1.3, the straining example of 8.2.3, the 4-1 example of 8.2.1.4, and the special cases."""

from __future__ import annotations

from fractions import Fraction

import pytest

from henderson.core.errors import IllegalAction
from henderson.games.deluxe.rules.assault import (
    artillery_capacity,
    attack_strength,
    defense_strength,
    ratio_index,
    ratio_name,
    strain_points,
)
from henderson.games.deluxe.rules.common import occupancy
from henderson.games.deluxe.rules.movement import routes
from henderson.games.deluxe.rules.reinforcements import landing_hexes

from .support import GAME, rolls, state


@pytest.mark.parametrize(
    ("attack", "defense", "ratio"),
    [
        (12, 9, "1-1"),
        (12, 5, "2-1"),
        (4, 11, "1-3"),  # DG 8.2.1.3 examples
        (10, 6, "1-1"),
        (12, 6, "2-1"),  # DG 8.2.3 example
        (7, 4, "1-1"),
        (8, 4, "2-1"),
        (5, 3, "1-1"),
        (6, 3, "2-1"),
        (3, 1, "3-1"),  # DG 8.2 example
        (1, 6, "1-6"),
        (1, 7, "below 1-6"),
        (6, 1, "6-1"),
        (7, 1, "above 6-1"),
        (Fraction(7, 2), 3, "1-1"),
        (5, Fraction(5, 2), "2-1"),
    ],
)
def test_combat_ratio_rounds_for_the_defender(attack, defense, ratio):
    s = state(10, "us_combat", {})
    assert ratio_name(ratio_index(s, Fraction(attack), Fraction(defense))) == ratio
    assert ratio_name(ratio_index(GAME.new_state(0), Fraction(attack), Fraction(defense))) == ratio


def example(dice):
    """DG 8.2 combat example, laid out along the Lunga (river hexes 3608-3610)."""
    return state(
        15,
        "us_combat",
        {
            "1Eng": "3911",
            "147/2": "3808",
            "2/2": "3608",
            "10/3": "3608",
            "7/1": "3610",
            "6/3": "3609",
            "20Mt": "4011",
            "124/2": "3708",
            "9RF": "3510",
        },
        dice=dice,
        supply={"us": 2, "jp": 2},
    )


def test_combat_example():  # DG 8.2 combat example
    s = example([5, 6, 3, 3, 2])
    m = s.data.map
    assert m.hexes["3911"].jungle and m.hexes["3608"].river and m.hexes["3609"].river
    assert "end" not in {str(a) for a in s.legal_actions()}  # units in enemy zones must attack
    # the engineer, in jungle and not obliged, attacks the lone artillery unit
    s.apply("attack 4011")
    s.apply("with 1Eng")
    s.apply("go")
    assert s.current_player() == "jp"  # it may spend up to two supply points in defence
    assert {str(a) for a in s.legal_actions()} == {"defend 0", "defend 1", "defend 2"}
    ev = s.apply("defend 0")
    assert any(e.kind == "assault" and e.data["ratio"] == "3-1" for e in ev)
    # 147/2, 2/2 and 10/3 (two supply points) attack the 124/2: 4 + 4/2 + 2/2 = 7 to 4
    s.apply("attack 3708")
    for a in ("with 147/2", "with 2/2", "support 10/3 2"):
        s.apply(a)
    p = s.pending[-1]
    assert attack_strength(s, p) == 7 and defense_strength(s, p) == 4
    assert ratio_name(ratio_index(s, Fraction(7), Fraction(4))) == "1-1"
    assert strain_points(s, p) == 1  # one point to reach 2-1
    s.apply("strain")
    ev = s.apply("go")
    assert [v for _, v in rolls(ev)] == [6, 3]  # the attack, then the strain check: no extra loss
    assert s.supply["us"] == 0
    assert s.current_player() == "us"  # two step losses to take
    s.apply("lose 147/2")
    s.apply("lose 2/2")
    assert (s.units["147/2"].strength, s.units["2/2"].strength) == (3, 3)
    while s.pending and s.pending[-1].stage == "retreat_a":  # everyone retreats one hex
        s.apply(s.legal_actions()[0])
    for uid in ("147/2", "2/2", "10/3"):
        assert s.data.map.distance(s.units[uid].at, "3708") == 2
    # 7/1 and 6/3, both in river hexes, attack the 9RF: (5 + 5) / 2 = 5 to 3
    s.apply("attack 3510")
    s.apply("with 7/1")
    s.apply("with 6/3")
    p = s.pending[-1]
    assert attack_strength(s, p) == 5 and defense_strength(s, p) == 3
    assert strain_points(s, p) == 2  # two raw points, halved in the river, make 6 to 3
    s.apply("strain")
    ev = s.apply("go")
    assert [v for _, v in rolls(ev)] == [3, 2]  # 2-1: the defender loses one and retreats
    assert s.units["9RF"].strength == 2
    assert s.current_player() == "us"  # the strain check (2 <= 2) costs the attacker a step
    s.apply("lose 7/1")
    assert s.units["7/1"].strength == 4
    if s.current_player() == "jp":  # the 9RF retreats one hex, where its owner chooses
        s.apply(s.legal_actions()[0])
    assert s.data.map.distance(s.units["9RF"].at, "3510") == 1
    assert "advance 6/3 3510" in {str(a) for a in s.legal_actions()}
    s.apply("advance 6/3 3510")
    s.apply("stop")
    assert s.units["6/3"].at == "3510"
    assert s.legal_actions()[-1].verb == "end"


def test_four_to_one_example():  # DG 8.2.1.4 example: a 5 at 4-1
    s = state(
        15,
        "us_combat",
        {"147/1": "3808", "147/2": "3808", "7/1": "3808", "124/2": {"at": "3708", "strength": 3}},
        dice=[5, 1, 1, 1],
    )
    for a in ("attack 3708", "with 147/1", "with 147/2", "with 7/1"):
        s.apply(a)
    assert attack_strength(s, s.pending[-1]) == 13
    s.apply("go")  # 13 to 3: 4-1
    s.apply("lose 7/1")  # the attacker loses one
    assert s.units["124/2"].at == "eliminated"  # the defender loses three: all its steps
    advances = {str(a) for a in s.legal_actions() if a.verb == "advance"}
    assert "advance 147/1 3708" in advances
    assert any(s.data.map.distance(a.split()[2], "3808") == 2 for a in advances)  # up to two


def test_attack_above_six_to_one_eliminates_the_defender():  # DG 8.2.1.3
    s = state(
        15, "us_combat", {"147/1": "3808", "147/2": "3808", "124/2": {"at": "3708", "strength": 1}}
    )
    for a in ("attack 3708", "with 147/1", "with 147/2", "go"):
        s.apply(a)
    assert s.units["124/2"].at == "eliminated" and s.vp == 2  # DG 9.2: 2 VP a Japanese factor


def test_attack_below_one_to_six_eliminates_the_attacker():  # DG 8.2.1.3
    s = state(
        15,
        "jp_combat",
        {"84G": {"at": "3708", "strength": 1}, "147/1": "3808", "147/2": "3808", "7/1": "3808"},
    )
    for a in ("attack 3808", "with 84G", "go"):
        s.apply(a)
    assert s.units["84G"].at == "eliminated" and s.vp == 2


def attack_3708_with_147_1():
    """Two US units in 3808 next to Japanese units in 3708 and 3909; 147/1 has attacked 3708
    alone and the attack is resolved."""
    s = state(
        15, "us_combat", {"147/1": "3808", "147/2": "3808", "124/2": "3708", "124/1": "3909"},
        dice=[5, 5],
    )
    for a in ("attack 3708", "with 147/1", "go"):
        s.apply(a)
    while s.pending:
        s.apply(s.legal_actions()[0])
    return s


def test_each_unit_attacks_once_each_hex_once():  # DG 8.2, 8.2.2
    s = attack_3708_with_147_1()
    legal = {str(a) for a in s.legal_actions()}
    assert "attack 3708" not in legal and "with 147/1" not in legal
    with pytest.raises(IllegalAction, match=r"DG 8\.2"):
        s.apply("attack 3708")


def through(s, step_id):
    """Play `end`/`pass` (and land reinforcements far west) until the sequence of play
    reaches `step_id`."""
    while s.step != step_id:
        verbs = {a.verb: a for a in s.legal_actions()}
        s.apply(verbs.get("end") or verbs.get("pass") or verbs["land"])


def test_a_hex_attacked_by_the_us_may_be_attacked_by_japan_in_its_combat_phase():  # DG 8.2
    # "each defending hex may only be attacked once" holds in each combat phase: the US
    # takes 3708 in step 10, and the Japanese next to it in step 19 must attack it
    s = state(
        2,
        "us_combat",
        {
            "147/1": "3808",
            "147/2": "3808",
            "124/2": {"at": "3708", "strength": 1},
            "124/1": "3607",
        },
    )
    for a in ("attack 3708", "with 147/1", "with 147/2", "go"):
        s.apply(a)  # 8 to 1, above 6-1: the defender is eliminated
    s.apply("advance 147/1 3708")
    s.apply("stop")
    # DG 8.2.2: 147/1 advanced into the zone of the 124/1 and does not attack it now
    assert "end" in {str(a) for a in s.legal_actions()}
    through(s, "jp_combat")
    legal = {str(a) for a in s.legal_actions()}
    assert "attack 3708" in legal and "end" not in legal  # 124/1 is in the 147/1's zone


def test_a_unit_must_attack_every_adjacent_enemy_hex():  # DG 8.2, 8.2.6
    # 147/1 is in the zones of the 124/2 (3708) and the 124/1 (3909): alone it must attack
    # both, as one combined defence
    s = state(15, "us_combat", {"147/1": "3808", "124/2": "3708", "124/1": "3909"}, dice=[5])
    s.apply("attack 3708")
    s.apply("with 147/1")
    legal = {str(a) for a in s.legal_actions()}
    assert "go" not in legal and "target 3909" in legal
    with pytest.raises(IllegalAction, match=r"DG 8\.2: .*3909 unattacked"):
        s.apply("go")
    s.apply("target 3909")
    s.apply("go")
    assert sorted(s.this_turn.attacked_hexes) == ["3708", "3909"]


def test_a_soak_off_leaves_the_other_hex_owed():  # DG 8.2, 8.2.6 soak-off
    # two units in 3808: one may attack 3708 alone (a soak-off) because the other is left to
    # attack 3909; the phase cannot end until someone has
    s = attack_3708_with_147_1()
    legal = {str(a) for a in s.legal_actions()}
    assert "end" not in legal and "attack 3909" in legal  # 147/1 attacked, 3909 still owed
    s.apply("attack 3909")
    s.apply("with 147/2")
    s.apply("go")
    while s.pending:
        s.apply(s.legal_actions()[0])
    assert [str(a) for a in s.legal_actions()] == ["end"]


def jungle_beside_a_duty():
    """147/1 in 3808 (clear) is in the zones of the 124/2 (3708) and the 124/1 (3909); the 7/1
    in 3908 (jungle) is next to the 124/1 too, but jungle negates the zone (DG 7.4.2)."""
    s = state(
        15,
        "us_combat",
        {"147/1": "3808", "7/1": "3908", "124/2": "3708", "124/1": "3909"},
        dice=[3, 3],  # 1-1, a 3: one loss each, nobody retreats
    )
    m = s.data.map
    assert m.hexes["3908"].jungle and not m.hexes["3808"].jungle
    return s


def test_dg_8_2_7_a_unit_in_jungle_is_never_compelled_to_attack():
    # DG 8.2: 147/1 "must attack all enemy units to which they are adjacent"; DG 8.2.7: the
    # 7/1 in jungle is "not required to attack". So 147/1 may not attack 3708 alone and leave
    # the 124/1 to the 7/1: it attacks both hexes, and the 7/1 need not attack at all
    s = jungle_beside_a_duty()
    for a in ("attack 3708", "with 147/1"):
        s.apply(a)
    assert "go" not in {str(a) for a in s.legal_actions()}
    with pytest.raises(IllegalAction, match=r"DG 8\.2: .*3909 unattacked.*jungle need not"):
        s.apply("go")
    s.apply("target 3909")
    s.apply("go")
    while s.pending:
        s.apply(s.legal_actions()[0])
    assert [str(a) for a in s.legal_actions()] == ["end"]  # the 7/1 sits out
    assert not s.units["7/1"].attacked


def test_dg_8_2_7_a_unit_in_jungle_may_attack_an_owed_hex_first():
    # DG 8.2.7 "may attack at their option": once the 7/1 has attacked the 124/1, that hex
    # may not be attacked again (DG 8.2), and 147/1 attacks the 124/2 alone
    s = jungle_beside_a_duty()
    for a in ("attack 3909", "with 7/1", "go"):
        s.apply(a)
    while s.pending:
        s.apply(s.legal_actions()[0])
    assert "end" not in {str(a) for a in s.legal_actions()}  # 147/1 has not attacked yet
    for a in ("attack 3708", "with 147/1", "go"):
        s.apply(a)
    while s.pending:
        s.apply(s.legal_actions()[0])
    assert [str(a) for a in s.legal_actions()] == ["end"]


def test_dg_8_2_7_units_in_jungle_need_not_attack():
    # the 7/1 in jungle next to the 124/1 is in no zone of control: it may attack or not
    s = state(15, "us_combat", {"7/1": "3908", "124/1": "3909"})
    assert {str(a) for a in s.legal_actions()} == {"attack 3909", "end"}


@pytest.mark.parametrize("mate", ["3808", "3807"])
def test_dg_8_2_every_unit_in_a_zone_of_control_must_attack(mate):
    # DG 8.2 "any combat units that are within an enemy zone of control must attack", and
    # DG 8.2.1 "all units in the hex must attack": 147/1 may not attack the 124/2 alone while
    # 147/2 (in its hex, or in another hex next to the 124/2) sits out
    s = state(15, "us_combat", {"147/1": "3808", "147/2": mate, "124/2": "3708"}, dice=[3])
    assert "end" not in {str(a) for a in s.legal_actions()}
    for a in ("attack 3708", "with 147/1"):
        s.apply(a)
    assert "go" not in {str(a) for a in s.legal_actions()}
    with pytest.raises(IllegalAction, match=r"DG 8\.2: .*147/2 in an enemy zone of control"):
        s.apply("go")
    s.apply("with 147/2")
    s.apply("go")
    assert s.units["147/1"].attacked and s.units["147/2"].attacked


def test_dg_8_2_6_units_of_one_hex_may_share_out_its_enemy_hexes():
    # DG 8.2.6 "designate different attacking units to attack different hexes": 147/1 takes
    # the 124/2, 147/2 the 124/1; neither attacks both
    s = state(
        15, "us_combat", {"147/1": "3808", "147/2": "3808", "124/2": "3708", "124/1": "3909"},
        dice=[3, 3],
    )
    for a in ("attack 3708", "with 147/1", "go"):
        s.apply(a)
    while s.pending:
        s.apply(s.legal_actions()[0])
    for a in ("attack 3909", "with 147/2", "go"):
        s.apply(a)
    while s.pending:
        s.apply(s.legal_actions()[0])
    assert [str(a) for a in s.legal_actions()] == ["end"]


def test_dg_8_2_5_every_attacking_unit_is_next_to_every_defending_hex():
    # DG 8.2.5 combines units of several hexes "adjacent to the same defending hex", DG 8.2.6
    # the units of one hex against several hexes: the 7/2 (4010), next to the 124/1 (4009)
    # but not to the 124/2 (3909), may not join an attack on both
    s = state(15, "us_combat", {"7/1": "3910", "7/2": "4010", "124/2": "3909", "124/1": "4009"})
    for a in ("attack 3909", "with 7/1", "target 4009"):
        s.apply(a)
    assert "with 7/2" not in {str(a) for a in s.legal_actions()}
    with pytest.raises(IllegalAction, match=r"DG 8\.2\.5: 7/2 is not next to 3909"):
        s.apply("with 7/2")
    s = state(15, "us_combat", {"7/1": "3910", "7/2": "4010", "124/2": "3909", "124/1": "4009"})
    for a in ("attack 4009", "with 7/1", "with 7/2"):  # both next to the 124/1: one attack
        s.apply(a)
    assert "go" in {str(a) for a in s.legal_actions()}
    assert "target 3909" not in {str(a) for a in s.legal_actions()}  # the 7/2 is not next to it


def test_dg_8_2_an_assault_that_could_never_be_committed_is_not_begun():
    # 147/1 (3808) is next to the 124/2 (3708) and the 124/1 (3909), 147/2 (3807) only to the
    # 124/2. If 147/1 attacked the 124/2, the 124/1 would be left to nobody bound to attack it,
    # so it would have to join that attack; then 147/2 would have nothing left to attack and
    # would have to join too, but it is not next to the 124/1 (DG 8.2.5). So 147/1 takes the
    # 124/1 and 147/2 the 124/2
    units = {"147/1": "3808", "147/2": "3807", "124/2": "3708", "124/1": "3909"}
    s = state(15, "us_combat", units, dice=[5, 5])
    s.apply("attack 3708")
    assert {str(a) for a in s.legal_actions()} == {"with 147/2"}
    for a in ("with 147/2", "go"):
        s.apply(a)
    while s.pending:
        s.apply(s.legal_actions()[0])
    for a in ("attack 3909", "with 147/1", "go"):
        s.apply(a)
    while s.pending:
        s.apply(s.legal_actions()[0])
    assert [str(a) for a in s.legal_actions()] == ["end"]


def test_a_duty_no_unit_can_meet_lapses():  # DG 8.2, 8.2.2 (ruling 21)
    # the 124/1 came next to the 147/1 after the 147/1 had attacked (a retreat, an advance):
    # no unit may attack twice, so the phase ends
    s = state(15, "us_combat", {"147/1": {"at": "3808", "attacked": True}, "124/1": "3909"})
    assert [str(a) for a in s.legal_actions()] == ["end"]


def test_a_unit_whose_enemy_hexes_were_all_attacked_does_not_hold_up_other_attacks():
    # DG 8.2 "each defending hex may only be attacked once": the 124/1 came next to 147/1 into
    # a hex attacked already, so 147/1 cannot meet its duty; it lapses, and the 7/1 attacks
    # the 124/2 on its own
    s = state(
        15,
        "us_combat",
        {"147/1": "3808", "124/1": "3909", "7/1": "3610", "124/2": "3510"},
        flags={"attacked_hexes": ["3909"]},
    )
    assert [str(a) for a in s.legal_actions()] == ["attack 3510"]
    s.apply("attack 3510")
    s.apply("with 7/1")
    assert "go" in {str(a) for a in s.legal_actions()}


def test_multi_hex_defence():  # DG 8.2.6 two hexes as one defence
    s = state(15, "us_combat", {"147/1": "3808", "124/2": "3708", "124/1": "3807"}, dice=[4])
    s.apply("attack 3708")
    s.apply("with 147/1")
    s.apply("target 3807")
    assert defense_strength(s, s.pending[-1]) == 8


def test_defender_uphill_doubles():  # design (Terrain Effects table): slopes affect combat
    s = state(15, "us_combat", {"147/1": "3808", "124/1": "3809"})
    s.apply("attack 3809")
    s.apply("with 147/1")
    assert defense_strength(s, s.pending[-1]) == 8


def test_straining_needs_two_points():  # DG 8.2.3
    s = state(15, "us_combat", {"1LVT": {"at": "3808", "strength": 1}, "124/2": "3708"})
    s.apply("attack 3708")
    s.apply("with 1LVT")
    assert "strain" not in {str(a) for a in s.legal_actions()}


def test_assault_on_henderson_field_reduces_it():  # DG 8.2.8
    s = state(
        15,
        "us_combat",
        {"147/1": "3807", "147/2": "3807", "7/1": "3807", "84G": {"at": "3707", "strength": 1}},
        dice=[4],
        henderson_field={"status": 20, "control": "jp"},
    )
    for a in ("attack 3707", "with 147/1", "with 147/2", "with 7/1", "go"):
        s.apply(a)
    assert s.units["84G"].at == "eliminated"  # 13 to 1: above 6-1
    assert s.airfield.status == 16  # the die (4) comes off the field's status
    s.apply("advance 147/1 3707")
    assert s.airfield.control == "us"


def test_artillery_alone_defends_with_one_point():  # DG 8.2.4
    s = state(15, "us_combat", {"1Eng": "3911", "20Mt": "4011"}, supply={"jp": 0})
    s.apply("attack 4011")
    s.apply("with 1Eng")
    assert defense_strength(s, s.pending[-1]) == 1


def test_suppressed_artillery_neither_supports_nor_spends_supply_in_defence():  # DG 8.1.8
    # "Suppressed artillery may not fire": no factors added to an assault (DG 8.2.4) ...
    s = state(
        15,
        "us_combat",
        {"147/2": "3808", "10/3": {"at": "3808", "suppressed": True}, "124/2": "3708"},
        supply={"us": 3},
    )
    s.apply("attack 3708")
    s.apply("with 147/2")
    assert not [a for a in s.legal_actions() if a.verb == "support"]
    # ... and none in defence: alone it defends with its one free point (DG 8.2.4)
    s = state(
        15,
        "us_combat",
        {"1Eng": "3911", "20Mt": {"at": "4011", "suppressed": True}},
        supply={"jp": 2},
        dice=[6],
    )
    s.apply("attack 4011")
    s.apply("with 1Eng")
    assert artillery_capacity(s, s.pending[-1]) == 0 and defense_strength(s, s.pending[-1]) == 1
    s.apply("go")
    assert s.supply["jp"] == 2  # the defender was never asked to spend supply


def test_artillery_that_fired_at_range_does_not_fire_again_in_the_assault():  # DG 8.1 (24a)
    # the 10/3, in jungle (no enemy zone), fires at the 124/1 in the US artillery phase; an
    # artillery unit fires at range or "as part of the assault process", not both
    s = state(
        15,
        "us_fire_1",
        {"10/3": "3908", "147/1": "3808", "124/1": "3909"},
        dice=[6],
        supply={"us": 3},
    )
    s.apply("fire 10/3 3909 1")
    assert s.step == "us_combat"
    s.apply("attack 3909")
    s.apply("with 147/1")
    assert not [a for a in s.legal_actions() if a.verb == "support"]
    # without the ranged fire the same unit supports the assault
    s = state(15, "us_combat", {"10/3": "3908", "147/1": "3808", "124/1": "3909"}, supply={"us": 3})
    s.apply("attack 3909")
    s.apply("with 147/1")
    assert "support 10/3 2" in {str(a) for a in s.legal_actions()}


def test_artillery_alone_defends_with_its_supply():  # DG 8.2.4 example
    # "a 3-point artillery unit could defend with three points if two supply points were spent"
    s = state(15, "us_combat", {"1Eng": "3911", "20Mt": "4011"}, supply={"jp": 2}, dice=[6])
    for a in ("attack 4011", "with 1Eng", "go"):
        s.apply(a)
    assert s.current_player() == "jp" and "defend 2" in {str(a) for a in s.legal_actions()}
    assert "defend 3" not in {str(a) for a in s.legal_actions()}  # at most its strength
    fought = next(e for e in s.apply("defend 2") if e.kind == "assault")
    assert fought.data["defense"] == "3" and s.supply["jp"] == 0


def test_straining_example():  # DG 8.2.3 example: 10 to 6 strains two points to 12 to 6
    s = state(
        15,
        "us_combat",
        {
            "1/1": "3808",
            "1/2": "3808",
            "124/2": {"at": "3708", "strength": 3},
            "124/1": {"at": "3807", "strength": 3},
        },
    )
    for a in ("attack 3708", "with 1/1", "with 1/2", "target 3807"):  # one defence (DG 8.2.6)
        s.apply(a)
    p = s.pending[-1]
    assert attack_strength(s, p) == 10 and defense_strength(s, p) == 6
    assert ratio_name(ratio_index(s, Fraction(10), Fraction(6))) == "1-1"
    assert strain_points(s, p) == 2
    s.apply("strain")
    assert attack_strength(s, p) == 12
    assert ratio_name(ratio_index(s, attack_strength(s, p), defense_strength(s, p))) == "2-1"


def test_banzai_attacks_again():  # DG 8.2.10
    s = state(7, "jp_combat", {"124/1": "3909", "124/2": "3909", "7/1": "3808"}, dice=[4, 1])
    for a in ("attack 3808", "with 124/1", "with 124/2", "go"):
        s.apply(a)
    # 8 to 5 is 1-1; a 4: one loss each, nobody retreats
    assert s.current_player() == "jp"
    s.apply("lose 124/1")
    assert {str(a) for a in s.legal_actions()} == {"banzai", "pass"}
    ev = s.apply("banzai")
    assert any(e.kind == "banzai" for e in ev) and rolls(ev)[-1][1] == 1


def test_banzai_instead_of_retreating_doubles_the_losses():  # DG 8.2.10
    s = state(7, "jp_combat", {"124/1": "3909", "124/2": "3909", "7/1": "3808"}, dice=[6, 5])
    for a in ("attack 3808", "with 124/1", "with 124/2", "go"):
        s.apply(a)  # 1-1, a 6: two losses and a retreat for the attacker
    s.apply("lose 124/1")
    s.apply("lose 124/1")
    assert "banzai" in {str(a) for a in s.legal_actions()}
    s.apply("banzai")  # two more losses instead of the retreat, then attack again
    s.apply("lose 124/2")
    s.apply("lose 124/2")
    assert s.units["124/1"].strength + s.units["124/2"].strength == 4
    assert s.units["124/2"].at == "3909"  # no retreat


def test_heavy_battalion_counts_two_when_landing():  # DG 10.2.3 note
    s = state(16, "jp_reinforce", {"H1": {"at": "next"}, "124/1": "2508", "124/2": "2508"})
    hexes = landing_hexes(s, s.units["H1"], occupancy(s))
    assert "2508" not in hexes and "2407" in hexes
    assert "2508" in landing_hexes(s, s.units["124/3"], occupancy(s))


@pytest.mark.parametrize(("landed", "room_left"), [(16, False), (15, True)])
def test_a_landed_heavy_counts_two_in_its_landing_hex_that_turn(landed, room_left):
    # DG 10.2.3 note, ruling 8: "only one other non-heavy unit may stack with one heavy unit
    # in the landing hex": on its landing turn, H1 and 124/1 fill 2407 for the movement phase
    s = state(
        16,
        "jp_move",
        {
            "H1": {"at": "2407", "landed": landed, "start": "2407"},
            "124/1": "2407",
            "124/2": "2508",
            "124/3": "2307",
            "4/1": "2307",
        },
    )
    assert ("2407" in routes(s, s.units["124/2"])) is room_left
    assert ("move 124/2 2407" in {str(a) for a in s.legal_actions()}) is room_left
    if landed == 16:  # once H1 has left its landing hex it counts one wherever it goes
        s.apply("move H1 2307")  # the third unit there
        s.apply("move 124/2 2407")
        assert (s.units["H1"].at, s.units["124/2"].at) == ("2307", "2407")
        assert s.invariant_errors() == []


def test_japanese_air_bonus():  # DG 10.2.3 one more factor for each non-artillery unit
    s = state(7, "jp_combat", {"124/1": "3909", "7/1": "3808"}, flags={"air_bonus": True})
    s.apply("attack 3808")
    s.apply("with 124/1")
    assert attack_strength(s, s.pending[-1]) == 5
    s = state(7, "us_combat", {"124/1": "3708", "7/1": "3808"}, flags={"air_bonus": True})
    s.apply("attack 3708")
    s.apply("with 7/1")
    assert defense_strength(s, s.pending[-1]) == 5


@pytest.mark.parametrize(
    ("field", "attack"),
    [
        ({"status": 20, "control": "jp"}, 5),
        ({"status": 20, "control": "us"}, 4),  # captured by the US this turn
        ({"status": 9, "control": "jp"}, 4),  # reduced to inoperability by the US
    ],
)
def test_air_bonus_ends_when_the_field_is_captured_or_reduced(field, attack):  # DG 10.2.3
    # "This bonus continues until Henderson Field is captured or reduced to inoperability by
    # the U.S. forces": read when the assault is fought, not fixed for the whole turn
    s = state(
        7,
        "jp_combat",
        {"124/1": "3909", "7/1": "3808"},
        flags={"air_bonus": True},
        henderson_field=field,
    )
    s.apply("attack 3808")
    s.apply("with 124/1")
    assert attack_strength(s, s.pending[-1]) == attack


def test_attacking_a_stack_reveals_its_stealth_units():  # DG 8.2.11
    s = state(
        7,
        "us_combat",
        {"7/1": "3808", "124/1": "3909", "124/2": {"at": "3909", "stealth": 2}},
        dice=[6],
    )
    s.apply("attack 3909")
    s.apply("with 7/1")
    ev = s.apply("go")
    assert s.units["124/2"].stealth == 0 and any(e.kind == "reveal" for e in ev)


def test_odds_preview_is_exact():  # DG 8.2.1.4, 8.2.3
    s = example([])
    for a in ("attack 3708", "with 147/2", "with 2/2", "support 10/3 2", "strain"):
        s.apply(a)
    o = s.odds()
    assert (o["attack"], o["defense"], o["ratio"]) == ("8", "4", "2-1")
    assert o["strain_loss_chance"] == "1/6"
    six = o["results"][5]
    assert six["attacker"] == {"loss": 2, "retreat": 1, "advance": 0}
    assert state(15, "us_move", {}).odds() is None


@pytest.mark.parametrize(
    "hidden",
    [
        {"124/1": {"at": "3708", "order": 1}},  # below the top counter (DG 7.8)
        {"124/1": {"at": "3708", "stealth": 2}},  # under a stealth marker (DG 7.7, 8.2.11)
    ],
)
def test_hidden_defenders_do_not_leak_before_the_attack_is_committed(hidden):  # DG 7.8
    # what the attacker is offered (straining) and shown (the odds) while it builds the
    # assault are worked out from what it can see; the hidden unit counts from `go` on
    seen = {"147/1": "3808", "147/2": "3808", "124/2": {"at": "3708", "order": 2}}
    plain = state(15, "us_combat", seen)
    stack = state(15, "us_combat", {**seen, **hidden}, dice=[1])
    for s in (plain, stack):
        for a in ("attack 3708", "with 147/1", "with 147/2"):
            s.apply(a)
    assert [str(a) for a in stack.legal_actions()] == [str(a) for a in plain.legal_actions()]
    assert "strain" in {str(a) for a in stack.legal_actions()}  # 8 to 4 seen: strain to 3-1
    shown = stack.odds()
    assert (shown["attack"], shown["defense"], shown["ratio"]) == ("8", "4", "2-1")
    assert shown["results"] == plain.odds()["results"]
    assert shown["unseen_counters"] == (0 if hidden["124/1"].get("stealth") else 1)
    ev = stack.apply("go")
    fought = next(e for e in ev if e.kind == "assault")
    assert (fought.data["defense"], fought.data["ratio"]) == ("8", "1-1")  # revealed at go


def test_support_never_spends_more_supply_than_there_is():  # DG 8.1.2, 8.2.4
    s = state(
        15,
        "us_combat",
        {"147/2": "3808", "10/3": "3808", "11/1": "3607", "124/2": "3708"},
        supply={"us": 3},
    )
    s.apply("attack 3708")
    s.apply("with 147/2")
    s.apply("support 10/3 2")
    assert {str(a) for a in s.legal_actions() if a.verb == "support"} == {"support 11/1 1"}
