"""The rulings of docs/rulings/firstblood.md, one test each, named by rule."""

from __future__ import annotations

import pytest

from henderson.core.errors import IllegalAction
from henderson.games.firstblood import actions as A
from henderson.games.firstblood.rules import retreat

from .conftest import mf_left


def test_fb_6_1_half_of_an_odd_movement_factor(pos):
    """FB 6.1 ruling: half of SUY's 3 MF is exactly 1½."""
    st = pos("jp_movement", ground={"SUY": "A", "Kuma": "0015"})
    st.apply("move SUY B")
    assert mf_left(st, "SUY") == 1.5
    assert st.to_json()["half_mf"]["SUY"] == 3


def test_fb_7_1_uncircled_us_entry_points_have_no_limit(game, pos):
    """FB 7.1 ruling: only circled US entry points hold at most 4 units."""
    uncircled = next(ep for ep, s in game.board.ep_side.items() if s == "us" and not game.board.ep_circled[ep])
    circled = next(ep for ep, s in game.board.ep_side.items() if s == "us" and game.board.ep_circled[ep])
    units = ["1/2", "2/2", "3/2", "2Rdr", "1/8"]
    st = pos("us_reinforcement", turn="NOV I", to_place=units, ground={"Kuma": "0015"})
    for u in units:
        st.apply(f"place {u} {uncircled}")
    assert len(st.at(uncircled)) == 5
    st = pos("us_reinforcement", turn="NOV I", to_place=units, ground={"Kuma": "0015"})
    for u in units[:4]:
        st.apply(f"place {u} {circled}")
    with pytest.raises(IllegalAction) as err:
        st.apply(f"place 1/8 {circled}")
    assert err.value.rule == "FB 7.1"


def test_fb_7_5_1_blocked_japanese_entry_points_are_not_offered(game, pos):
    """FB 7.2/7.5.1 ruling: a Japanese entry point whose every entry hex holds US units is not used."""
    arrows = game.board.ep_arrows["EP1"]
    us = dict(zip(["1/1", "2/1", "3/1"], arrows, strict=False))
    st = pos("jp_reinforcement", turn="OCT III", to_place=["228/1"], ground=us, specials="committed")
    places = {a.at for a in st.legal_actions() if isinstance(a, A.Place)}
    assert "EP1" not in places and {"A", "D", "EP2"} <= places


def test_fb_8_7_jungle_modifier_once_for_several_hexes(game, pos):
    """FB 8.7 ruling: the jungle -1 applies once however many defending hexes are jungle."""
    board = game.board
    attacker, (h1, h2) = next(
        (h, js[:2])
        for h in sorted(board.terrain)
        for js in [[n for n in board.adj[h] if board.terrain[n] == "jungle" and board.side[(h, n)] != "river"]]
        if len(js) >= 2 and js[0] in board.adj[js[1]]
    )
    st = pos("us_combat", ground={"1/1": attacker, "Kuma": h1, "1/124": h2})
    odds = game.odds(st, f"attack {h1}+{h2} with 1/1")
    assert [m.value for m in odds.modifiers if m.rule == "FB 8.7.1"] == [-1]


def test_fb_4_4_retreat_across_the_ford_is_allowed(game, pos):
    """FB 4.4: units retreating across the ford are not eliminated; across another river they may not go."""
    st = pos("us_combat", ground={"1/124": "0910", "1/1": "0911"})
    opts = retreat.options(st, "1/124")
    assert "0909" in opts
    assert not any(game.board.side[("0910", h)] == "river" for h in opts if h in game.board.adj["0910"])


def test_fb_13_3_japanese_missions_in_the_movement_phase(pos):
    """FB 13.3 ruling: Japanese air missions may also be flown in the Japanese movement phase."""
    st = pos("jp_movement", ground={"Kuma": "0015"}, air={"F4F-1": "usaf_cap", "Zero-1": "ijaf_reserve"})
    assert A.AirMission(("Zero-1",), "usaf_cap") in st.legal_actions()
    st.apply("air Zero-1 cap")
    assert "F4F-1" not in st.air


def test_fb_10_1_special_destroyers_come_together_once(pos):
    """FB 10.1 ruling: both special destroyers are committed by one action, once, from OCT I."""
    st = pos("jp_reinforcement", turn="SEP III", ground={"Kuma": "0015"}, to_place=[])
    assert A.CommitSpecials() not in st.legal_actions()
    st = pos("jp_reinforcement", turn="OCT I", ground={"Kuma": "0015"}, to_place=[])
    st.apply("commit specials")
    assert st.to_place == ["DD-S1", "DD-S2"]
    st.apply("place DD-S1 ijn-attack")
    st.apply("place DD-S2 ijn-reserve")
    assert A.CommitSpecials() not in st.legal_actions()


def test_fb_11_2_1_two_units_only_repair(pos):
    """FB 11.2.1 ruling: two ordinary units repair a damaged hex but do not rebuild a destroyed one."""
    st = pos(
        "us_combat",
        options={"repair_by_any_two_units": True},
        ground={"1/1": "0708", "2/1": "0708"},
        airfields={"0708": "destroyed"},
        workers={"1/1": "0708", "2/1": "0708"},
    )
    st.apply("end")
    assert st.airfield["0708"] == "destroyed" and not st.work.get("0708")


def test_fb_11_4_an_engineer_that_moved_does_no_work(pos):
    """FB 11.4 ruling: an engineer that moves during the turn does no work that turn."""
    st = pos(
        "us_movement",
        ground={"1Eng": "0708", "Kuma": "0015"},
        airfields={"0708": "damaged"},
        workers={"1Eng": "0708"},
        dice=[],
    )
    st.apply("move 1Eng 0808")
    st.apply("move 1Eng 0708")
    st.apply("end")
    assert st.airfield["0708"] == "damaged"


def test_fb_3_0_counters_placed_in_any_order(pos, game):
    """FB 3.0 ruling: set-up placements may come in any order, though the list offers the next counter's."""
    st = game.new_state(1)
    first = st.to_place[0]
    later = st.to_place[3]
    st.apply(f"place {later} 0906")
    assert st.ground[later] == "0906" and st.to_place[0] == first


def test_fb_8_11_a_single_retreat_is_taken_without_asking(game, pos):
    """FB 8.11 ruling: with exactly one hex to retreat to, the unit goes there without a question."""
    # surround 0906's defender so that one retreat hex is left
    st = pos("us_combat", ground={"1/1": "0905", "2/1": "0907", "Kuma": "0906"}, dice=[4])  # 2-1 die 4: D1? no: DR
    st.apply("attack 0906 with 1/1,2/1")
    if st.pending:
        assert len({a.to for a in st.legal_actions() if isinstance(a, A.Retreat)}) > 1
    else:
        assert st.ground.get("Kuma") != "0906"


def test_fb_7_5_1_attack_out_of_a_blocked_box(game, pos):
    """FB 7.5.1: Japanese units in a box whose entry hexes are all held by US units, and that have been in every
    box next to it, attack out of it; artillery there fires directly. FB 7.5.3: success means entering the hex."""
    arrows = game.board.box_arrows["A"]
    us = dict(zip(["3DB", "2/1", "3/1"], arrows, strict=False))
    st = pos("jp_combat", ground={**us, "1/124": "A", "20Mt": "A"}, boxes_visited={"1/124": "BA", "20Mt": "A"})
    attacks = [a for a in st.legal_actions() if isinstance(a, A.Attack)]
    assert attacks and all(set(a.defenders) <= set(arrows) for a in attacks)
    st.apply(f"attack {arrows[0]}")
    candidates = [a.unit for a in st.legal_actions() if isinstance(a, A.Add)]
    assert candidates == ["1/124"]  # 20Mt could still go on to box B
    st.dice.values.extend([6, 1])  # 4 against 2 doubled (FB 7.5.1): 1-1, die 6 -1 for the jungle: DR; supply
    st.apply("add 1/124")
    st.apply("resolve")
    assert st.current_player() == "us" and st.pending[-1].kind == "retreat"  # the US player retreats his own unit
    st.apply(st.legal_actions()[0])
    assert st.ground["1/124"] == arrows[0]  # FB 7.5.3: the hex emptied, the attacker must enter it


def test_fb_7_5_us_attack_out_of_an_entry_point(game, pos):
    """FB 7.5: only when Japanese units hold every US entry hex may US units attack out of an entry point; the
    Japanese are doubled, bombers in the Ground Attack box may join (+1), artillery there adds nothing."""
    board = game.board
    hexes = sorted({h for ep, s in board.ep_side.items() if s == "us" for h in board.ep_arrows[ep]})
    japanese = sorted(u for u, g in game.data.ground.items() if g.side == "jp")
    assert len(japanese) >= len(hexes)
    jp = dict(zip(japanese, hexes, strict=False))
    target = board.ep_arrows["EP11"][0]
    defender = next(u for u, h in jp.items() if h == target)
    st = pos("us_combat", ground={**jp, "1/7": "EP11", "1/11": "EP11"}, air={"SBD-1": "usaf_ground_attack"})
    odds = game.odds(st, f"attack {target} with 1/7,1/11 air SBD-1")
    assert odds.ground == game.data.ground["1/7"].cf  # the artillery adds nothing (FB 7.5)
    assert odds.defence == 2 * game.data.ground[defender].cf and odds.doublings[0].rule == "FB 7.5"
    assert [m.rule for m in odds.modifiers if m.rule == "FB 13.6"] == ["FB 13.6"]
    # with one entry hex free the attack is not allowed
    del jp[defender]
    st = pos("us_combat", ground={**jp, "1/7": "EP11"})
    assert not any(isinstance(a, A.Attack) for a in st.legal_actions())


def test_fb_8_6_and_8_10_bombarding_artillery_is_not_an_attacking_unit_lost(pos):
    """FB 8.6, 8.10 ruling (with FB 8.10.2): the attacking units eliminated below 1-2 or by AE are the ground units
    attacking; artillery bombarding from afar is not lost with them."""
    us = {"1/1": "0906", "2/1": "0906", "1Rdr": "0906"}  # 13 factors
    st = pos("jp_combat", ground={**us, "20Mt": "0905", "SUY": "0902"}, dice=[1])  # 2 + 4 (FB 9.6) against 13
    st.apply("attack 0906 with 20Mt art SUY")
    assert "20Mt" in st.eliminated and st.ground["SUY"] == "0902"
    us = {"1/1": "0906", "2/1": "0906", "3/1": "0906"}  # 12 factors: 1-2, die 1: AE
    st = pos("jp_combat", ground={**us, "20Mt": "0905", "SUY": "0902"}, dice=[1, 1])
    st.apply("attack 0906 with 20Mt art SUY")
    assert "20Mt" in st.eliminated and st.ground["SUY"] == "0902"
