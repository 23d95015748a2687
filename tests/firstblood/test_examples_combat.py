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
    assert st.step == "us_combat"
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
    assert st.step != "jp_combat"  # the duties are met: the phase could end


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


def test_fb_8_1_adjacent_units_must_fight(pos):
    """FB 8.1: combat must occur whenever opposing ground units are adjacent at the beginning of the combat phase;
    units a hex apart need not fight."""
    st = pos("us_combat", ground={"1/1": "0905", "Kuma": "0906"})
    assert A.End() not in st.legal_actions()
    with pytest.raises(IllegalAction) as err:
        st.apply("end")
    assert err.value.rule == "FB 8.2" and "1/1" in err.value.message
    apart = pos("us_combat", ground={"1/1": "0904", "Kuma": "0906"})
    assert apart.legal_actions() == [A.End()]


def test_fb_8_2_2_a_retreat_through_zones_of_control_eliminates(pos):
    """FB 8.2.2, 8.11: a defender that can retreat only into enemy zones of control is eliminated; with a free hex
    next to it, it retreats there instead."""
    st = pos("us_combat", ground={"1/1": "0905", "2/1": "0907", "Kuma": "0906"}, dice=[3])  # 8-3: 2-1, die 3: DR
    events = st.apply("attack 0906 with 1/1,2/1")
    assert "Kuma" in st.eliminated
    assert any(e.kind == "eliminated" and e.data["rule"] == "FB 8.11" for e in events)
    st = pos("us_combat", ground={"1/1": "0905", "Kuma": "0906"}, dice=[4])  # 4-3: 1-1, die 4: DR
    st.apply("attack 0906 with 1/1")
    assert "Kuma" in st.ground and (st.ground["Kuma"] != "0906" or st.pending[-1].kind == "retreat")


def test_fb_8_2_3_a_retreat_goes_on_past_full_hexes(game, pos):
    """FB 8.2.3: units that would overstack keep retreating until a hex lets them stack properly (normal retreat
    rules still apply: never into an enemy zone of control)."""
    full = {"0907": ("1/124", "2/124", "3/124"), "0806": ("2/4", "1/4", "3/4"), "1006": ("1/16", "2/16", "3/16")}
    ground = {u: h for h, units in full.items() for u in units}
    st = pos("us_combat", ground={**ground, "1/1": "0905", "Kuma": "0906"}, dice=[4])  # 1-1, die 4: DR
    st.apply("attack 0906 with 1/1")
    assert st.current_player() == "jp"
    options = {a.to for a in st.legal_actions() if isinstance(a, A.Retreat)}
    zoc = game.board.zoc(["0905"])
    assert options and not options & set(full) and not options & zoc
    assert all(any(h in game.board.adj[o] for h in full) for o in options)


def test_fb_8_7_2_a_ridge_doubles_only_against_attackers_off_the_ridge(game, pos):
    """FB 8.7.2: a defender in a ridge hex is doubled when none of the attackers is in a ridge hex."""
    st = pos("jp_combat", ground={"1/1": "0507", "1/124": "0508"})  # 0508 is clear, across a ridge hexside
    odds = game.odds(st, "attack 0507 with 1/124")
    assert odds.defence == 8 and [d.rule for d in odds.doublings] == ["FB 8.7.2"]
    st = pos("jp_combat", ground={"1/1": "0507", "1/124": "0406"})  # 0406 is a ridge hex (FB 4.5: clear hexside)
    odds = game.odds(st, "attack 0507 with 1/124")
    assert odds.defence == 4 and not odds.doublings


def test_fb_8_7_4_river_and_jungle_double_and_subtract_one(game, pos):
    """FB 8.7.4: a defender behind a river in a jungle hex is doubled and one is subtracted from the die; FB 8.7.5:
    one attacker adjacent across no river or ridge hexside and the doubling goes, the jungle -1 stays (8.7.1)."""
    st = pos("jp_combat", ground={"1/1": "0809", "1/124": "0710"})  # 0710-0809 is a river hexside
    odds = game.odds(st, "attack 0809 with 1/124")
    assert odds.defence == 8 and [d.rule for d in odds.doublings] == ["FB 8.7.3"]
    assert [(m.value, m.rule) for m in odds.modifiers] == [(-1, "FB 8.7.1")]
    st = pos("jp_combat", ground={"1/1": "0809", "1/124": "0710", "2/124": "0709"})  # 0709-0809: jungle hexside
    odds = game.odds(st, "attack 0809 with 1/124,2/124")
    assert odds.defence == 4 and not odds.doublings
    assert [(m.value, m.rule) for m in odds.modifiers] == [(-1, "FB 8.7.1")]


def test_fb_8_8_modified_die_rolls_stay_between_1_and_6(pos):
    """FB 8.8: a die roll above 6 after modifiers is resolved as 6, one below 1 as 1."""
    ships = {"DD-1": "ijn_attack", "DD-2": "ijn_attack"}
    st = pos("jp_combat", ground={"1/124": "0905", "1/1": "0906"}, ships=ships, dice=[5, 1])  # 1-1, +4; supply
    events = st.apply("attack 0906 with 1/124 ships DD-1,DD-2")
    result = next(e for e in events if e.kind == "result")
    assert (result.data["die"], result.data["modified"]) == (5, 6)
    st = pos("us_combat", ground={"1/1": "0710", "Kuma": "0810"}, dice=[1])  # 0810 is jungle: -1
    events = st.apply("attack 0810 with 1/1")
    result = next(e for e in events if e.kind == "result")
    assert (result.data["die"], result.data["modified"]) == (1, 1)


def test_fb_8_9_each_side_uses_its_own_table(game, pos):
    """FB 8.9: the US player attacks on the American Attack Table, the Japanese player on the Japanese one."""
    us = pos("us_combat", ground={"1/1": "0905", "Kuma": "0906"})
    jp = pos("jp_combat", ground={"1/1": "0905", "Kuma": "0906"})
    assert game.odds(us, "attack 0906 with 1/1").table == game.data.tables["us"].name == "American Attack Table"
    assert game.odds(jp, "attack 0905 with Kuma").table == game.data.tables["jp"].name == "Japanese Attack Table"


def test_fb_8_10_2_bombarding_artillery_takes_no_losses(pos):
    """FB 8.10.2: bombarding (non-adjacent) artillery may not be used to satisfy the attacker's losses."""
    st = pos("jp_combat", ground={"1/124": "0905", "SUY": "0902", "1/1": "0906"}, dice=[2, 1])  # 2-1, die 2: A1
    st.apply("attack 0906 with 1/124 art SUY")
    assert "1/124" in st.eliminated and st.ground["SUY"] == "0902"


def test_fb_8_12_no_retreat_across_a_river(pos):
    """FB 8.12: a unit forced to retreat across a river is eliminated; with a hex on its own side free it goes
    there (0710's river hexsides lead to 0709 and 0809)."""
    st = pos("us_combat", ground={"1/1": "0711", "Kuma": "0710"}, dice=[4])  # 1-1, die 4: DR
    st.apply("attack 0710 with 1/1")
    assert st.ground["Kuma"] == "0609"  # 0610 and 0810 are in 0711's zone of control
    st = pos("us_combat", ground={"1/1": "0711", "2/1": "0608", "Kuma": "0710"}, dice=[4])
    st.apply("attack 0710 with 1/1")
    assert "Kuma" in st.eliminated  # 0609 now in a zone of control: only the river is left


def test_fb_9_1_only_artillery_fires_from_afar(pos):
    """FB 9.1: units without a range number are not artillery: they cannot add their factors from a distance."""
    st = pos("jp_combat", ground={"2/124": "0905", "1/124": "0903", "1/1": "0906"})
    with pytest.raises(IllegalAction) as err:
        st.apply("attack 0906 with 2/124 art 1/124")
    assert err.value.rule == "FB 8.2" and "FB 9.1" in err.value.message
    st.apply("attack 0906")
    assert [a.unit for a in st.legal_actions() if isinstance(a, A.Add)] == ["2/124"]


def test_fb_9_4_1_bombarding_artillery_leaves_the_river_doubling(game, pos):
    """FB 9.4.1: artillery bombarding a defender behind a river does not cost it its doubling."""
    st = pos("jp_combat", ground={"1/1": "0709", "1/124": "0710", "20Mt": "0711"})
    odds = game.odds(st, "attack 0709 with 1/124 art 20Mt")
    assert odds.artillery == 2 and odds.defence == 8 and [d.rule for d in odds.doublings] == ["FB 8.7.3"]


def test_fb_9_4_2_no_artillery_fire_out_of_a_box(pos):
    """FB 9.4.2: artillery may not fire from an off-board box (except in an attack out of it, FB 7.5.1)."""
    st = pos("jp_combat", ground={"1/124": "0905", "1/1": "0906", "20Mt": "A"})
    with pytest.raises(IllegalAction) as err:
        st.apply("attack 0906 with 1/124 art 20Mt")
    assert err.value.rule == "FB 9.4.2"


def test_fb_9_7_artillery_defends_as_a_normal_unit(game, pos):
    """FB 9.7: artillery attacked is a normal combat unit for defensive benefit: on a ridge it is doubled."""
    st = pos("jp_combat", ground={"2/11": "0507", "1/124": "0508"})
    odds = game.odds(st, "attack 0507 with 1/124")
    assert (odds.defence_base, odds.defence) == (2, 4)


def test_fb_7_5_2_box_attacks_only_where_the_arrows_point(game, pos):
    """FB 7.5.2: an attack out of a box may only be made on a hex its arrows point to."""
    arrows = game.board.box_arrows["A"]
    us = dict(zip(["1/1", "2/1", "3/1"], arrows, strict=False))
    st = pos("jp_combat", ground={**us, "1/5": "0012", "1/124": "A"}, boxes_visited={"1/124": "BA"})
    assert "0012" not in arrows and "0012" in game.board.adj[arrows[0]]
    with pytest.raises(IllegalAction) as err:
        st.apply("attack 0012 with 1/124")
    assert err.value.rule == "FB 7.5.2"
    assert not any(isinstance(a, A.Attack) and "0012" in a.defenders for a in st.legal_actions())


def test_fb_7_5_4_overstacking_on_required_entry(game, pos):
    """FB 7.5.3, 7.5.4: four units out of Box A that empty the hex must all enter it; the Japanese player chooses
    which of the four is lost to stacking, and that loss counts towards the next supply loss (FB 14.1)."""
    arrows = game.board.box_arrows["A"]
    us = dict(zip(["1/1", "2/1", "3/1"], arrows, strict=False))
    jp = ["1/124", "2/124", "3/124", "2/4"]
    st = pos(
        "jp_combat", ground={**us, **dict.fromkeys(jp, "A")}, boxes_visited=dict.fromkeys(jp, "BA"), dice=[6, 5]
    )  # 16 against 4 doubled: 2-1, die 6 -1 (jungle): D1; then the supply roll, 5
    st.apply(f"attack {arrows[0]} with {','.join(jp)}")
    assert st.current_player() == "jp" and st.pending[-1].rule == "FB 7.5.4"
    assert {a.unit for a in st.legal_actions()} == set(jp)
    events = st.apply("lose 2/4")  # nothing left to attack with: the supply phase follows at once
    assert sorted(st.at(arrows[0])) == sorted(jp[:3]) and "2/4" in st.eliminated
    assert any(e.kind == "supply" and "FB 7.5.4" in e.text for e in events)  # the roll of 5 is met by it
    assert st.supply_credit == 0 and all(u in st.ground for u in jp[:3])
