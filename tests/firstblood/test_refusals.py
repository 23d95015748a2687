"""Refusals say why, naming the rule: a move out of reach says which movement rule stops it, an action out of its
phase says where in the sequence of play (FB 3.2 and the back page) it belongs."""

from __future__ import annotations

import pytest

from henderson.core.errors import IllegalAction


def refusal(st, text: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as err:
        st.apply(text)
    return err.value


def test_fb_8_2_a_move_only_possible_from_zoc_to_zoc(pos):
    """FB 8.2: 0710 and 0610 are both next to 0609; with 1 MF, 1/1 could only step straight from one to the other."""
    st = pos("us_movement", ground={"1/1": "0710", "1/124": "0609"}, movement={"1/1": 1})
    err = refusal(st, "move 1/1 0610")
    assert err.rule == "FB 8.2" and "zone of control" in err.message


def test_fb_7_4_a_move_only_possible_through_the_enemy(pos):
    """FB 7.4: with 2 MF the only way from 0710 to 0712 is through 0711, which holds an enemy unit."""
    st = pos("us_movement", ground={"1/1": "0710", "1/124": "0711"}, movement={"1/1": 2})
    err = refusal(st, "move 1/1 0712")
    assert err.rule == "FB 7.4" and "enemy" in err.message


def test_fb_4_0_a_move_beyond_the_movement_factors(pos):
    """FB 4.0, 4.2: 0809 costs 4 MF from 0710 (across the river into jungle); with 1 MF left it is out of reach."""
    st = pos("us_movement", ground={"1/1": "0710"}, movement={"1/1": 1})
    err = refusal(st, "move 1/1 0809")
    assert err.rule == "FB 4.0" and "1 MF left" in err.message


def test_fb_6_0_a_hex_only_reached_through_a_visited_box(pos):
    """FB 6.0: from Box C, after Box B, hex 0011 (Box B's arrow) would need going back through B."""
    st = pos("jp_movement", ground={"1/124": "C", "Kuma": "0015"}, boxes_visited={"1/124": "BC"})
    err = refusal(st, "move 1/124 0011")
    assert err.rule == "FB 6.0" and "has been in" in err.message


@pytest.mark.parametrize(
    ("phase", "action", "rule", "words"),
    [
        ("us_combat", "move 1/1 0907", "FB 4.0", "movement phase"),
        ("us_movement", "attack 0905", "FB 8.0", "combat phase"),
        ("jp_movement", "bombard 0708 with SUY", "FB 10.2", "Japanese combat phase"),
        ("us_combat", "bomb SBD-1 0905", "FB 13.6", "US movement phase"),
        ("us_movement", "fly F4F-1 cap", "FB 13.7", "US air phase"),
        ("us_movement", "lose 1/1", "FB 8.10", "no unit is to be lost"),
        ("us_air", "place 1/7 EP11", "FB 7.0", "reinforcement phase"),
    ],
)
def test_fb_3_2_actions_out_of_their_phase_say_where_they_belong(pos, phase, action, rule, words):
    """FB 3.2 and the Sequence of Play: an action out of its phase is refused with the rule that places it."""
    st = pos(phase, ground={"1/1": "0906", "Kuma": "0905", "SUY": "0701"}, air={"SBD-1": "usaf_ground_attack"})
    err = refusal(st, action)
    assert err.rule == rule and words in err.message


@pytest.mark.parametrize(
    ("to", "rule"),
    [("0609", "FB 8.12"), ("0607", "FB 8.2.2"), ("0708", "FB 8.11"), ("0410", "FB 8.10")],
)
def test_fb_8_10_a_refused_retreat_names_its_rule(pos, to, rule):
    """FB 8.10-8.12, 8.2.2: Kuma, driven out of 0608 by 1/1 in 0708, may retreat to 0509 or 0508; 0609 is across the
    Lunga, 0607 in 1/1's zone of control, 0708 held by 1/1, 0410 more than one hex away."""
    st = pos("us_combat", ground={"1/1": "0708", "Kuma": "0608"}, dice=[4])  # 4-3: 1-1, die 4: DR
    st.apply("attack 0608 with 1/1")
    assert {a.to for a in st.legal_actions()} == {"0509", "0508"}
    assert refusal(st, f"retreat Kuma {to}").rule == rule
