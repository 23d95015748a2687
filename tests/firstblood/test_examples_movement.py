"""The rulebook's movement examples (FB 4.2, 4.4, 4.5, 6.2, 7.1, 7.3) and the rules around them."""

from __future__ import annotations

import pytest

from henderson.core.errors import IllegalAction
from henderson.games.firstblood import actions as A

from .conftest import mf_left


@pytest.mark.parametrize(
    ("to", "cost"),
    [("0809", 4), ("0709", 3), ("0810", 2), ("0711", 1), ("0610", 1), ("0609", 1)],
)
def test_fb_4_2_costs_from_0710(game, pos, to, cost):
    """FB 4.2: from 0710, 0809 costs 4 MF, 0709 3, 0810 2, and 0711, 0610, 0609 1 each."""
    assert game.board.cost2[("0710", to)] == 2 * cost
    st = pos("us_movement", ground={"1/1": "0710"})
    st.apply(f"move 1/1 {to} via {to}")
    assert mf_left(st, "1/1") == 6 - cost


def test_fb_4_2_river_cost_depends_on_the_hex_entered(game):
    """FB 4.2: across a river, 3 MF into a clear hex and 4 MF into a jungle hex."""
    b = game.board
    for (a, c), kind in b.side.items():
        if kind == "river":
            assert b.cost2[(a, c)] == (8 if b.terrain[c] == "jungle" else 6)


def test_fb_4_4_the_ford_removes_the_river_penalty(game, pos):
    """FB 4.4: moving between 0909 and 0910 pays no river penalty, either way."""
    assert game.board.side[("0909", "0910")] == "ford"
    assert game.board.cost2[("0909", "0910")] == game.board.cost2[("0910", "0909")] == 2
    st = pos("us_movement", ground={"1/1": "0909"})
    st.apply("move 1/1 0910 via 0910")
    assert mf_left(st, "1/1") == 5


def test_fb_4_5_ridge_exceptions_are_clear(game):
    """FB 4.5: 0406 to 0507 or 0307, and 0017 to 0018, pay no ridge cost, either way."""
    b = game.board
    for a, c in (("0406", "0507"), ("0406", "0307"), ("0017", "0018")):
        assert b.side[(a, c)] == "clear"
        assert b.cost2[(a, c)] == b.cost2[(c, a)] == 2
    assert any(b.side[("0406", n)] == "ridge" for n in b.adj["0406"])


def test_fb_6_2_box_a_to_b_to_0011(pos):
    """FB 6.2 example: from Box A a unit may go to B and enter 0011, or go on to C, or stop in B."""
    idle = {"Kuma": "0015"}  # keeps the phase open while we look
    st = pos("jp_movement", ground={"1/124": "A", **idle}, boxes_visited={"1/124": "A"})
    legal = set(st.legal_actions())
    for dest in ("B", "C", "0011"):
        assert A.Move("1/124", dest) in legal
    st.apply("move 1/124 0011")
    assert st.ground["1/124"] == "0011" and mf_left(st, "1/124") == 0
    st2 = pos("jp_movement", ground={"1/124": "A", **idle})
    st2.apply("move 1/124 B")
    assert mf_left(st2, "1/124") == 4
    st2.apply("move 1/124 C")
    assert mf_left(st2, "1/124") == 0 and st2.visited["1/124"] == "ABC"


def test_fb_6_0_no_reentering_a_box(pos):
    """FB 6.0: a unit may not reenter a box it has been in."""
    st = pos("jp_movement", ground={"1/124": "B"}, boxes_visited={"1/124": "AB"})
    assert A.Move("1/124", "A") not in st.legal_actions()
    with pytest.raises(IllegalAction) as err:
        st.apply("move 1/124 A via A")
    assert err.value.rule == "FB 6.0"


def _next_turn(game, st, turn):
    """The same units at the start of `turn`'s Japanese movement phase (box counters kept)."""
    obj = st.to_json()
    for key in ("half_mf", "moved", "held", "dice", "seed", "ply"):
        obj.pop(key, None)
    obj.update(turn=game.data.turns.index(turn) + 1, step="jp_movement", entered=False)
    return game.load_state(obj)


@pytest.mark.parametrize(
    ("start", "seen", "to", "marks", "back"), [("A", "A", "C", "ABC", "B"), ("B", "AB", "D", "ABCD", "C")]
)
def test_fb_6_0_one_move_through_several_boxes_marks_each(game, pos, start, seen, to, marks, back):
    """FB 6.0, 6.3: a unit may not reenter a box it has been in or moved through; a single move A→B→C (or
    B→C→D) leaves a box counter in every box passed, so next turn the box in between is closed too."""
    st = pos("jp_movement", ground={"1/124": start, "Kuma": "0015"}, boxes_visited={"1/124": seen})
    st.apply(f"move 1/124 {to}")
    assert st.visited["1/124"] == marks
    later = _next_turn(game, st, "SEP III")
    assert A.Move("1/124", back) not in later.legal_actions()
    with pytest.raises(IllegalAction) as err:
        later.apply(f"move 1/124 {back}")
    assert err.value.rule == "FB 6.0" and "moved through" in err.value.message


def test_fb_6_0_a_path_through_boxes_marks_each(pos):
    """FB 6.0: a move given with its path (`via B`) marks every box on it as well."""
    st = pos("jp_movement", ground={"1/124": "A", "Kuma": "0015"})
    st.apply("move 1/124 C via B,C")
    assert st.visited["1/124"] == "ABC"


def test_fb_6_0_refusal_names_the_box_rule(pos):
    """FB 6.0: moving back into a box already visited is refused under FB 6.0 (not as a movement-cost matter)."""
    st = pos("jp_movement", ground={"1/124": "C", "Kuma": "0015"}, boxes_visited={"1/124": "BC"})
    for target in ("B", "A"):
        with pytest.raises(IllegalAction) as err:
            st.apply(f"move 1/124 {target}")
        assert err.value.rule == "FB 6.0" and "reenter box B" in err.value.message
    st.apply("move 1/124 D")  # a box not yet visited is open
    assert st.visited["1/124"] == "BCD"


def test_fb_6_3_units_in_boxes_must_move(pos):
    """FB 6.3: Japanese units in off-board boxes must move every turn; FB 6.3.1: one box a turn is enough."""
    st = pos("jp_movement", ground={"1/124": "A", "Kuma": "0015"}, dice=[1])
    with pytest.raises(IllegalAction) as err:
        st.apply("end")
    assert err.value.rule == "FB 6.3"
    st.apply("move 1/124 B")
    st.apply("end")
    assert st.step != "jp_movement"


def test_fb_7_2_units_placed_in_a_box_wait_a_turn(pos):
    """FB 7.2: reinforcements placed in Box A or D may not move until the following turn."""
    st = pos("jp_reinforcement", turn="OCT I", to_place=["1/29"], ground={"Kuma": "0015"})
    st.apply("place 1/29 A")
    while st.step == "jp_reinforcement":
        st.apply("end")
    assert st.step == "jp_movement"
    assert not any(isinstance(a, A.Move) and a.unit == "1/29" for a in st.legal_actions())


def test_fb_7_1_6db_enters_at_entry_point_11(pos):
    """FB 7.1 example: OCT I, 6DB placed on entry point 11 moves to 1007 and still has 8 MF."""
    st = pos("us_reinforcement", turn="OCT I", to_place=["6DB"])
    st.apply("place 6DB EP11")
    assert st.step == "us_movement"
    st.apply("move 6DB 1007 via 1007")
    assert st.ground["6DB"] == "1007" and mf_left(st, "6DB") == 8


def test_fb_7_3_228th_enters_at_0220_with_half_its_mf(pos):
    """FB 7.3 example: OCT III, 228/1 and 228/3 placed on entry point 1 enter 0220 with 4 MF each."""
    st = pos("jp_reinforcement", turn="OCT III", to_place=["228/1", "228/3"], specials="committed")
    st.apply("place 228/1 EP1")
    st.apply("place 228/3 EP1")
    assert st.step == "jp_movement"
    for unit in ("228/1", "228/3"):
        st.apply(f"move {unit} 0220 via 0220")
        assert st.ground[unit] == "0220" and mf_left(st, unit) == 4


def test_fb_8_2_no_move_from_zoc_to_zoc(pos):
    """FB 8.2: a unit may not move directly from one enemy zone of control to another."""
    st = pos("us_movement", ground={"1/1": "0710", "1/124": "0609"})
    with pytest.raises(IllegalAction) as err:
        st.apply("move 1/1 0610 via 0610")  # both next to 0609
    assert err.value.rule == "FB 8.2"
    assert "zone of control" in err.value.message


def test_fb_7_4_no_entering_enemy_hexes(pos):
    """FB 7.4: friendly units may not enter hexes holding enemy ground units."""
    st = pos("us_movement", ground={"1/1": "0710", "1/124": "0711"})
    assert A.Move("1/1", "0711") not in st.legal_actions()
    with pytest.raises(IllegalAction) as err:
        st.apply("move 1/1 0711")
    assert err.value.rule == "FB 7.4"


def test_fb_5_0_units_pass_through_full_hexes(pos):
    """FB 5.0: ground units of the moving player may move through hexes already stacked to the maximum."""
    st = pos("us_movement", ground={"1/1": "0710", "2/1": "0711", "3/1": "0711", "1/5": "0711", "2/5": "0712"})
    st.apply("move 1/1 0712 via 0711,0712")  # through the full hex
    assert st.ground["1/1"] == "0712"
    st.apply("end")
    assert st.step != "us_movement"


def test_fb_5_0_two_full_hexes_swap_units(pos):
    """FB 5.0: stacking limits only apply at the end of the movement phase, so two full hexes may swap units: a
    unit stops in the other full hex (four there for a while) and one of those comes back the other way."""
    ground = {"2/1": "0711", "3/1": "0711", "1/5": "0711", "2/5": "0712", "3/5": "0712", "1/7": "0712"}
    st = pos("us_movement", ground=ground)
    assert A.Move("2/1", "0712") in st.legal_actions()
    st.apply("move 2/1 0712")
    assert len(st.at("0712")) == 4
    assert A.End() not in st.legal_actions()
    with pytest.raises(IllegalAction) as err:
        st.apply("end")  # FB 5.0: the limit holds when the phase ends
    assert err.value.rule == "FB 5.0" and "0712" in err.value.message
    st.apply("move 2/5 0711")
    assert sorted(st.at("0711")) == ["1/5", "2/5", "3/1"] and len(st.at("0712")) == 3
    st.apply("end")
    assert st.step != "us_movement"


def test_fb_5_0_no_move_into_a_full_hex_that_nobody_could_leave(pos):
    """FB 5.0: a move into a full hex is refused when the phase could then no longer end within the limit: the
    units there have spent their movement and the mover would have none left to go on."""
    full = {"2/1": "0711", "3/1": "0711", "1/5": "0711"}
    spent = {"2/1": 0, "3/1": 0, "1/5": 0}
    st = pos("us_movement", ground={"1/1": "0710", **full}, movement={"1/1": 1, **spent})
    assert A.Move("1/1", "0711") not in st.legal_actions()
    with pytest.raises(IllegalAction) as err:
        st.apply("move 1/1 0711")
    assert err.value.rule == "FB 5.0" and "0711" in err.value.message
    # with movement to spare it may stop there, but the phase ends only once it has gone on
    st = pos("us_movement", ground={"1/1": "0710", **full}, movement={"1/1": 2, **spent})
    st.apply("move 1/1 0711")
    with pytest.raises(IllegalAction) as err:
        st.apply("end")
    assert err.value.rule == "FB 5.0"
    assert {a.to for a in st.legal_actions() if isinstance(a, A.Move)} <= set(st.board.adj["0711"])
    st.apply(next(a for a in st.legal_actions() if isinstance(a, A.Move)))
    assert st.step != "us_movement"  # nothing left to move: the phase passed by itself


def test_fb_5_0_a_move_that_takes_the_room_a_unit_needs_is_refused(pos):
    """FB 5.0: with four units in 0710, a move that fills 0711, the only hex with room its fourth unit (1 MF left)
    could go to, is refused: the phase could no longer end within the limit."""
    ground = {
        **dict.fromkeys(("2/1", "3/1", "1/5", "2/5"), "0710"),
        **dict.fromkeys(("3/5", "1/7", "2/7"), "0610"),
        **dict.fromkeys(("3/7", "1/2", "2/2"), "0609"),
        **dict.fromkeys(("3/2", "1/8"), "0711"),
        "1/1": "0712",
    }
    movement = {u: 0 for u in ground} | {"2/5": 1, "1/1": 1}
    st = pos("us_movement", turn="NOV II", ground=ground, movement=movement)
    assert A.Move("1/1", "0711") not in st.legal_actions()
    with pytest.raises(IllegalAction) as err:
        st.apply("move 1/1 0711")
    assert err.value.rule == "FB 5.0"
    st.apply("move 2/5 0711")
    st.apply("end")
    assert st.step != "us_movement"


@pytest.mark.parametrize(
    ("phase", "turn", "unit", "ep"),
    [("us_movement", "SEP II", "1/7", "EP11"), ("jp_movement", "OCT III", "228/1", "EP1")],
)
def test_fb_6_4_units_may_not_stay_on_entry_points(pos, phase, turn, unit, ep):
    """FB 6.4: units may not stay on numbered entry points: the movement phase cannot end while one could still
    enter the map (the refusal names it); once it has entered, the phase ends."""
    other = "Kuma" if unit == "1/7" else "1/1"
    st = pos(phase, turn=turn, ground={unit: ep, other: "0906"}, dice=[1])
    with pytest.raises(IllegalAction) as err:
        st.apply("end")
    assert err.value.rule == "FB 6.4" and unit in err.value.message and ep in err.value.message
    assert A.End() not in st.legal_actions()
    st.apply(f"move {unit} {st.board.ep_arrows[ep][0]}")
    st.apply("end")
    assert st.step != phase


def test_fb_6_4_1_a_unit_unable_to_enter_stays_and_is_eliminated(pos):
    """FB 6.4.1: a unit on an entry point unable to enter any hex (every arrow hex held by the enemy, FB 7.4) may end
    the movement phase there, and is eliminated at the end of the combat phase."""
    st = pos("us_movement", ground={"1/7": "EP9", "Kuma": "1112", "1/124": "1111"}, dice=[])
    assert not any(isinstance(a, A.Move) for a in st.legal_actions())
    st.apply("end")
    assert "1/7" in st.eliminated


def test_fb_4_1_mf_cannot_be_exceeded(pos):
    """FB 4.0, 4.1: a unit needs enough MF to cross a hexside."""
    st = pos("us_movement", ground={"1/1": "0710"}, movement={"1/1": 3})
    with pytest.raises(IllegalAction) as err:
        st.apply("move 1/1 0809 via 0809")
    assert err.value.rule == "FB 4.0"


def test_fb_3_2_the_japanese_player_moves_first(game):
    """FB 3.0, 3.1, 3.2: the US player sets up first, the Japanese second, and the game begins with the SEP I
    Japanese reinforcement phase."""
    st = game.new_state(3)
    assert st.step == "us_setup" and st.current_player() == "us"
    st.apply("setup default")
    assert st.step == "jp_setup" and st.current_player() == "jp"
    st.apply("setup default")
    assert (st.turn_label, st.step, st.current_player()) == ("SEP I", "jp_reinforcement", "jp")


def test_fb_4_3_air_and_naval_units_have_no_movement_factors(pos):
    """FB 4.3: air and naval units have no MF: they are not moved like ground units."""
    st = pos("us_movement", ground={"1/1": "0906"}, air={"F4F-1": "0708"})
    with pytest.raises(IllegalAction) as err:
        st.apply("move F4F-1 0709")
    assert err.value.rule == "FB 4.3"


def test_fb_8_2_1_rivers_and_friends_do_not_block_zones_of_control(game, pos):
    """FB 8.2.1: rivers do not block zones of control, and friendly units in a hex do not negate them. Kuma in 0710
    holds 0709 and 0809 in its zone of control across the Lunga, so 1/1 may not step from 0709 to 0809, even with
    friends in both; with 2 MF there is no other way."""
    assert game.board.side[("0709", "0710")] == game.board.side[("0710", "0809")] == "river"
    free = pos("us_movement", ground={"1/1": "0709", "Yano": "1122"}, movement={"1/1": 2})
    assert A.Move("1/1", "0809") in free.legal_actions()
    ground = {"1/1": "0709", "2/1": "0709", "3/1": "0809", "Kuma": "0710"}
    st = pos("us_movement", ground=ground, movement={"1/1": 2})
    assert A.Move("1/1", "0809") not in st.legal_actions()
    with pytest.raises(IllegalAction) as err:
        st.apply("move 1/1 0809")
    assert err.value.rule == "FB 8.2"


def test_fb_7_7_every_reinforcement_enters_on_its_turn(pos):
    """FB 7.7: all reinforcements are required to enter the game on the specified turn: the phase waits for them."""
    st = pos("us_reinforcement", turn="SEP II", to_place=["1/7"], ground={"Kuma": "0015"})
    with pytest.raises(IllegalAction) as err:
        st.apply("end")
    assert err.value.rule == "FB 7.7" and "1/7" in err.value.message
    st.apply("place 1/7 EP11")
    assert st.step == "us_movement"
