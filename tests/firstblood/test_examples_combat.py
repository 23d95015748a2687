"""The rulebook's combat examples (FB 8.2, 8.4, 8.6, 9.2, 9.3, 9.6) and the combat rules around them."""

from __future__ import annotations

from fractions import Fraction

import pytest

from henderson.core.errors import IllegalAction
from henderson.games.firstblood import actions as A
from henderson.games.firstblood.odds import odds_column
from henderson.games.firstblood.rules import combat

LINE = {"2/124": "0604", "1/124": "0605", "3/124": "0606", "1/1": "0705", "2/1": "0706", "3/1": "0707"}


@pytest.mark.parametrize(
    ("attack", "defence", "column", "above"),
    [
        (6, 3, "2-1", False),
        (6, 5, "1-1", False),
        (10, 6, "1-1", False),
        (6, 12, "1-2", False),
        (13, 3, "3-1", True),
        (12, 4, "3-1", False),
        (3, 7, None, False),
        (5, 11, None, False),
    ],
)
def test_fb_8_4_and_8_6_odds(attack, defence, column, above):
    """FB 8.4: 6 vs 3 is 2-1, 6 vs 5 is 1-1; FB 8.6: 10-6 is 1-1, 1-3 or less kills the attacker, 4-1 or more
    is 3-1 with +1."""
    got, got_above, _ = odds_column(attack, defence)
    assert (got, got_above) == (column, above)


def test_fb_8_4_example_through_the_game(game, pos):
    """FB 8.4 example: two Japanese units with six factors against one US unit of 3 is 2-1, against 5 it is 1-1."""
    ground = {"20Mt": "0905", "2/124": "0907"}  # 2 + 4 = 6 factors, both next to 0906 across clear hexsides
    st = pos("jp_combat", ground={**ground, "1Tank": "0906"})
    assert game.odds(st, "attack 0906 with 20Mt,2/124").column == "2-1"
    st = pos("jp_combat", ground={**ground, "1Rdr": "0906"})
    odds = game.odds(st, "attack 0906 with 20Mt,2/124")
    assert (odds.attack, odds.defence, odds.column) == (6, 5, "1-1")


def test_fb_8_2_forced_attacks_example(pos):
    """FB 8.2 example: Japanese in 0604, 0605, 0606, US in 0705, 0706, 0707: 0707 must attack 0606 and 0705
    must attack 0604; each unit may attack alone, or one may attack two hexes and two attack the third."""
    st = pos("us_combat", ground=LINE)
    with pytest.raises(IllegalAction) as err:
        st.apply("end")
    assert err.value.rule == "FB 8.2"
    # 0705 taking 0605 alone would leave 0604 with nobody to attack it
    with pytest.raises(IllegalAction) as err:
        st.apply("attack 0605 with 1/1")
    assert err.value.rule == "FB 8.2"
    # 0706 taking 0606 alone would leave 3/1 (0707) with nothing to attack
    with pytest.raises(IllegalAction):
        st.apply("attack 0606 with 2/1")
    # "two units with one and one unit with two"
    legal = st.legal_actions()
    assert A.Attack(("0604", "0605")) in legal
    one = st.clone()
    one.dice.values.extend([1])  # 4 against 8 is 1-2; die 1: AE, nothing left to decide
    one.apply("attack 0604+0605 with 1/1")
    combat.building_from(one, A.Attack(("0606",), ("2/1", "3/1")))  # legal, not rolled
    # "attack every unit with each of his": 1-1 each, die 1: A2, each attacker gone
    each = st.clone()
    each.dice.values.extend([1, 1, 1])
    for h, u in (("0604", "1/1"), ("0605", "2/1"), ("0606", "3/1")):
        each.apply(f"attack {h} with {u}")


def test_fb_8_2_multi_hex_attacks_need_every_defender_adjacent(pos):
    """FB 8.2: units may attack several hexes only if all the defenders are adjacent."""
    st = pos("us_combat", ground=LINE)
    with pytest.raises(IllegalAction) as err:
        st.apply("attack 0605+0606 with 1/1")  # 0705 is not next to 0606
    assert err.value.rule == "FB 8.2"


def test_fb_8_6_below_1_2_attackers_die_without_a_roll(pos):
    """FB 8.6: attackers at less than 1-2 are eliminated before any die roll, the defender untouched."""
    st = pos("jp_combat", ground={"20Mt": "0905", "1Rdr": "0906"}, dice=[1])  # 2 against 5 is 1-3
    events = st.apply("attack 0906 with 20Mt")
    assert "20Mt" not in st.ground and st.ground["1Rdr"] == "0906"
    assert [e.data["purpose"] for e in events if e.kind == "roll"] == ["FB 14.1 Japanese supply roll"]


def test_fb_8_7_3_river_doubles_unless_one_attacker_is_not_across(game, pos):
    """FB 8.7.3, 8.7.5: a defender behind a river in a clear hex is doubled unless an attacker is not across it."""
    st = pos("jp_combat", ground={"1/1": "0709", "1/124": "0710", "2/124": "0609"})
    odds = game.odds(st, "attack 0709 with 1/124,2/124")
    assert odds.defence == 8 and odds.doublings[0].rule == "FB 8.7.3"
    st = pos("jp_combat", ground={"1/1": "0709", "1/124": "0710", "2/124": "0708"})
    odds = game.odds(st, "attack 0709 with 1/124,2/124")
    assert odds.defence == 4 and not odds.doublings


def test_fb_4_4_ford_still_doubles_the_defender(game, pos):
    """FB 4.4: the ford is a river hexside for the defender's doubling."""
    st = pos("us_combat", ground={"1/124": "0910", "1/1": "0909"})
    odds = game.odds(st, "attack 0910 with 1/1")
    assert odds.defence == 8
    assert [m.rule for m in odds.modifiers] == ["FB 8.7.1"]  # 0910 is jungle: -1, once (rulings)


def test_fb_9_2_suy_from_0701_reaches_0708_not_0709(game, pos):
    """FB 9.2 example: SUY (range 8) in 0701 may fire on 0708 but not 0709: range counts both hexes."""
    assert game.data.ground["SUY"].range == 8
    assert game.board.in_range("0701", "0708", 8) and not game.board.in_range("0701", "0709", 8)
    st = pos("jp_combat", ground={"SUY": "0701"})
    bombards = {a.hex for a in st.legal_actions() if isinstance(a, A.Bombard) and a.unit == "SUY"}
    assert "0708" in bombards and "0709" not in bombards


def test_fb_9_3_every_defending_hex_in_range(game, pos):
    """FB 9.3 example: a unit in 0504 attacking 0603 and 0604: bombarding artillery must reach both."""
    board = game.board
    rng = game.data.ground["2/11"].range
    spot = next(
        h
        for h in sorted(board.terrain)
        if board.in_range(h, "0603", rng) and not board.in_range(h, "0604", rng) and board.distance(h, "0603") > 1
    )
    st = pos("us_combat", ground={"1/1": "0504", "1/124": "0603", "2/124": "0604", "2/11": spot}, dice=[4])
    st.apply("attack 0603+0604")
    st.apply("add 1/1")
    with pytest.raises(IllegalAction) as err:
        st.apply("add 2/11")
    assert err.value.rule == "FB 9.3"


def test_fb_9_6_artillery_at_most_twice_the_ground_factors(game, pos):
    """FB 9.6: artillery adds at most twice the ground factors; the Japanese have 19 artillery factors."""
    jp_art = sum(u.cf for u in game.data.ground.values() if u.side == "jp" and u.range is not None)
    assert jp_art == 19
    st = pos("jp_combat", ground={"1/1": "0906", "20Mt": "0905", "SUY": "0902", "4H": "0903"})
    odds = game.odds(st, "attack 0906 with 20Mt art SUY,4H")
    assert (odds.ground, odds.artillery_offered, odds.artillery, odds.attack) == (2, 11, 4, 6)


def test_fb_9_5_artillery_needs_a_ground_attack(pos):
    """FB 9.5: artillery cannot fire at non-adjacent units unless friendly ground units attack them too."""
    st = pos("jp_combat", ground={"1/1": "0906", "SUY": "0902"})
    assert not any(isinstance(a, A.Attack) for a in st.legal_actions())
    with pytest.raises(IllegalAction):
        st.apply("attack 0906 with SUY")


def test_fb_8_10_de_lets_the_attacker_advance(pos):
    """FB 8.10: on DE the defenders are eliminated and the attacker may occupy the vacated hex."""
    st = pos("us_combat", ground={"1/1": "0905", "2/1": "0907", "Kuma": "0906"}, dice=[6])  # 8-3: 2-1, die 6 DE
    st.apply("attack 0906 with 1/1,2/1")
    assert "Kuma" not in st.ground
    assert st.current_player() == "us" and A.Advance("1/1", "0906") in st.legal_actions()
    st.apply("advance 1/1 0906")
    assert st.ground["1/1"] == "0906"


def test_fb_8_10_d1_owner_chooses_loss_then_retreats(pos):
    """FB 8.10: D1 — the defender loses one unit of his choice and the rest retreat; the owner decides."""
    st = pos(
        "us_combat", ground={"1/1": "0905", "2/1": "0907", "3/1": "0806", "Kuma": "0906", "1/124": "0906"}, dice=[5]
    )  # 12 vs 7: 1-1, die 5: D1
    st.apply("attack 0906 with 1/1,2/1,3/1")
    assert st.current_player() == "jp"
    assert set(st.legal_actions()) == {A.Lose("Kuma"), A.Lose("1/124")}
    st.apply("lose Kuma")
    # the survivor must retreat, but every hex around is in a US zone of control: eliminated (FB 8.11)
    assert "1/124" not in st.ground


def test_fb_8_11_retreat_only_away_from_enemy_zoc(game, pos):
    """FB 8.11, 8.12: retreats avoid enemy units, their zones of control and rivers."""
    st = pos("us_combat", ground={"1/1": "0905", "Kuma": "0906"}, dice=[4])  # 4-3 1-1 die 4: DR
    st.apply("attack 0906 with 1/1")
    options = {a.to for a in st.legal_actions()}
    zoc = game.board.zoc(["0905"])
    assert options and not options & zoc and "0905" not in options


def test_fb_8_10_1_a_results_owner_loses_attackers(pos):
    """FB 8.10: A1 — the attacker loses one unit and the survivors retreat."""
    st = pos("us_combat", ground={"1/1": "0905", "2/1": "0907", "Kuma": "0906"}, dice=[1])  # 2-1 die 1: A1
    st.apply("attack 0906 with 1/1,2/1")
    assert st.current_player() == "us"
    st.apply("lose 2/1")
    assert "2/1" not in st.ground
    assert st.current_player() == "us"
    assert {type(a) for a in st.legal_actions()} == {A.Retreat}


def test_fb_10_4_ships_add_two_each(game, pos):
    """FB 10.4: each ship in shore bombardment adds 2 to the die; FB 10.1.3 only from the IJN Attack box."""
    st = pos("jp_combat", ground={"1/1": "0906", "2/124": "0905"}, ships={"DD-1": "ijn_attack", "DD-2": "ijn_reserve"})
    odds = game.odds(st, "attack 0906 with 2/124 ships DD-1")
    assert [(m.value, m.rule) for m in odds.modifiers] == [(2, "FB 10.4")]
    with pytest.raises(IllegalAction) as err:
        game.odds(st, "attack 0906 with 2/124 ships DD-2")
    assert err.value.rule == "FB 10.1.3"


def test_fb_13_6_bombers_add_one_each(game, pos):
    """FB 13.6: US bombers placed on a Japanese stack add 1 each to that combat, then go back to their box."""
    st = pos(
        "us_movement",
        ground={"1/1": "0905", "Kuma": "0906"},
        air={"SBD-1": "usaf_ground_attack", "SBD-2": "usaf_ground_attack"},
        dice=[3],
    )
    st.apply("bomb SBD-1 0906")
    st.apply("bomb SBD-2 0906")
    st.apply("end")
    assert st.phase == "us_combat"
    odds = game.odds(st, "attack 0906 with 1/1")
    assert [(m.value, m.rule) for m in odds.modifiers] == [(2, "FB 13.6")]
    assert odds.distribution == {"EX": Fraction(1, 6), "DR": Fraction(1, 6), "D1": Fraction(1, 6), "DE": Fraction(1, 2)}
    st.apply("attack 0906 with 1/1")
    assert not st.bombing


def test_fb_8_2_one_unit_may_have_to_attack_four_hexes(pos):
    """FB 8.2: a unit alone next to four enemy hexes must attack them all, in one attack (found by random play:
    a cap of three hexes an attack left this phase with no way to end)."""
    ground = {"Yano": "1122", "1/10": "1022", "3/164": "1121", "2/35": "1221", "1/35": "1222"}
    st = pos("jp_combat", turn="JAN II", ground=ground, dice=[1, 1])
    assert A.Attack(("1022", "1121", "1221", "1222")) in st.legal_actions()
    with pytest.raises(IllegalAction):
        st.apply("attack 1022+1121+1221 with Yano")  # 1222 would be left with nobody to attack it
    st.apply("attack 1022+1121+1221+1222 with Yano")
    assert st.phase != "jp_combat"  # the duties are met: the phase could end


def test_fb_7_5_1_an_attack_out_of_a_box_doubles_the_defenders(game, pos):
    """FB 7.5.1: Japanese attacks out of a box are made "as in 7.5 above", so the US defenders are doubled, in
    the odds preview and in the roll alike; artillery in the box attacks by direct fire (FB 9.4)."""
    arrows = game.board.box_arrows["D"]
    us = {"1/1": arrows[0], "2/1": arrows[1]}
    visited = {"1/4": "CD", "20Mt": "CD"}
    st = pos("jp_combat", ground={**us, "1/4": "D", "20Mt": "D"}, boxes_visited=visited, dice=[4, 1])
    odds = game.odds(st, f"attack {arrows[0]} with 1/4,20Mt")
    assert (odds.attack, odds.defence_base, odds.defence) == (7, 4, 8)
    assert [(d.hex, d.rule) for d in odds.doublings] == [(arrows[0], "FB 7.5.1")]
    assert odds.column == "1-2"  # 7 against 8; undoubled it would be 1-1
    events = st.apply(f"attack {arrows[0]} with 1/4,20Mt")
    result = next(e for e in events if e.kind == "result")
    assert result.data["column"] == "1-2"
    assert result.data["result"] == game.data.tables["jp"].results["1-2"][4 - 1 - 1]  # die 4, -1 jungle
