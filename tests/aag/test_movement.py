"""AAG Phase 1 Movement: the manual's movement examples and loading rules."""

from __future__ import annotations

import pytest

from henderson.core.errors import IllegalAction

from .helpers import acts, game, piece, position


def test_cruiser_moves_from_the_us_base_to_j_rule_aag_examples_of_sea_movement():
    state = position(
        [piece("us1", "cruiser", "new_caledonia_sea")], step="move:cruiser", first="us"
    )
    assert "move J us1" in acts(state)
    state.apply("move J us1")
    assert state.pieces["us1"].zone == "J"


def test_battleship_cannot_move_from_i_to_g_rule_aag_examples_of_sea_movement():
    state = position([piece("us1", "battleship", "I")], step="move:battleship", first="us")
    assert "move G us1" not in acts(state)
    with pytest.raises(IllegalAction, match="AAG Examples of Sea Movement"):
        state.apply("move G us1")


def test_c_to_h_sea_no_air_through_santa_isabel_rule_aag_examples_of_sea_movement():
    sea = position([piece("us1", "cruiser", "C")], step="move:cruiser", first="us")
    assert "move H us1" not in acts(sea)
    air = position([piece("us1", "fighter", "C")], step="move:fighter", first="us")
    assert "move santa_isabel us1" in acts(air) and "move H us1" in acts(air)
    air.apply("move H us1")
    assert air.pieces["us1"].flown == 2  # C -> Santa Isabel -> H


def test_fighter_from_new_caledonia_to_j_then_lands_on_guadalcanal_rule_aag_air_movement_example():
    state = position([piece("us1", "fighter", "new_caledonia")], step="move:fighter", first="us")
    assert "move J us1" in acts(state)
    assert "move H us1" not in acts(state)  # three moves: beyond a fighter's range of 2
    state.apply("move J us1")
    # nothing else to decide: combat passes; in Regroup the fighter lands within 2 zones
    assert state.step == "regroup:land"
    assert "land us1 guadalcanal" in acts(state)
    state.apply("land us1 guadalcanal")
    assert state.pieces["us1"].zone == "guadalcanal"


def test_transport_loads_before_moving_and_not_after_rule_aag_movement_step_1():
    pieces = [
        piece("us1", "transport", "H"),
        piece("us2", "infantry", "guadalcanal"),
        piece("us3", "supply", "malaita"),
        piece("us4", "infantry", "guadalcanal"),
        piece("us5", "infantry", "guadalcanal"),
    ]
    state = position(pieces, step="move:transport", first="us")
    assert "load us1 us2" in acts(state) and "load us1 us3" in acts(state)
    state.apply("load us1 us2")
    state.apply("load us1 us3")  # from a different adjacent island
    assert not any(a.startswith("load") for a in acts(state))  # 2 spaces, full
    state.apply("move J us1")
    assert {state.pieces[i].zone for i in ("us2", "us3")} == {"J"}


def test_destroyer_has_one_space_rule_aag_destroyer():
    pieces = [
        piece("us1", "destroyer", "H"),
        piece("us2", "infantry", "guadalcanal"),
        piece("us3", "infantry", "guadalcanal"),
    ]
    state = position(pieces, step="move:destroyer", first="us")
    state.apply("load us1 us3")  # any of the identical infantry
    assert not any(a.startswith("load") for a in acts(state))


def test_carrier_takes_its_fighters_rule_aag_movement_step_3():
    pieces = [piece("us1", "carrier", "J"), piece("us2", "fighter", "J", aboard="us1")]
    state = position(pieces, step="move:carrier", first="us")
    state.apply("move H us1")
    assert state.pieces["us2"].zone == "H" and state.pieces["us2"].aboard == "us1"


def test_land_units_cannot_move_by_themselves_rule_aag_land_unit():
    state = position(
        [piece("us1", "infantry", "guadalcanal"), piece("us2", "cruiser", "J")],
        step="move:cruiser",
        first="us",
    )
    with pytest.raises(IllegalAction, match="transport or destroyer"):
        state.apply("move J us1")


def test_first_player_then_the_other_each_step_rule_aag_movement_sequence():
    pieces = [piece("us1", "cruiser", "J"), piece("jp1", "cruiser", "E")]
    state = position(pieces, step="move:cruiser", first="jp")
    assert state.current_player() == "jp"
    state.apply("end")
    assert state.current_player() == "us" and state.step == "move:cruiser"


def test_no_unit_enters_the_enemy_base_ruling():
    state = position([piece("us1", "cruiser", "A")], step="move:cruiser", first="us")
    assert "move rabaul_sea us1" not in acts(state)


def test_group_move_of_identical_units():
    pieces = [
        piece("us1", "destroyer", "J"),
        piece("us2", "destroyer", "J"),
        piece("us3", "destroyer", "J"),
    ]
    state = position(pieces, step="move:destroyer", first="us")
    assert "move H us1,us2,us3" in acts(state)
    state.apply("move H us2,us3")  # any subset whose single moves are legal
    assert [state.pieces[i].zone for i in ("us1", "us2", "us3")] == ["J", "H", "H"]


def test_opening_legal_actions_golden():
    """The first decision of a new game: Japan's transports (AAG Movement step 1)."""
    state = game().new_state(0)
    assert state.current_player() == "jp" and state.step == "move:transport"
    assert [str(a) for a in state.legal_actions()] == GOLDEN_OPENING


GOLDEN_OPENING = [
    "load jp37 jp19",
    "load jp37 jp22",
    "load jp37 jp25",
    "move A jp31",
    "move C jp31",
    "move E jp31",
    "move rabaul_sea jp31",
    "move A jp37",
    "move B jp37",
    "end",
]


def test_movement_steps_move_one_unit_type_each_in_order_rule_aag_movement_sequence():
    """AAG Movement Sequence 1-8: transports, battleships, carriers, cruisers, destroyers,
    submarines, bombers, fighters; in each step only that type moves."""
    kinds = ["transport", "battleship", "carrier", "cruiser", "destroyer", "submarine"]
    pieces = [piece(f"us{i}", kind, "J") for i, kind in enumerate(kinds, 1)]
    pieces += [piece("us7", "bomber", "new_caledonia"), piece("us8", "fighter", "new_caledonia")]
    state = position(pieces, step="move:transport", first="us", airfields=[])
    order = []
    while state.step.startswith("move:"):
        moving = {state.pieces[a.args[1]].type for a in state.legal_actions() if a.verb == "move"}
        assert len(moving) == 1, (state.step, moving)
        order.extend(moving)
        state.apply("end")
    assert order == [*kinds, "bomber", "fighter"]


def test_air_units_fly_through_zones_holding_enemy_units_rule_aag_air_unit():
    """AAG Air unit: air units "can move through zones that contain enemy units"; sea units
    move one zone whatever is there."""
    pieces = [
        piece("us1", "fighter", "guadalcanal"),
        piece("jp1", "cruiser", "H"),
        piece("jp2", "infantry", "santa_isabel"),
    ]
    state = position(pieces, step="move:fighter", first="us")
    assert "move santa_isabel us1" in acts(state)  # through H and its cruiser
    state.apply("move santa_isabel us1")
    assert state.pieces["us1"].zone == "santa_isabel" and state.pieces["us1"].flown == 2


def test_bomber_flies_up_to_three_zones_in_movement_and_in_regroup_rule_aag_bomber():
    """AAG Bomber Range 3: up to 3 zones during Movement and up to 3 during Regroup."""
    state = position([piece("us1", "bomber", "new_caledonia")], step="move:bomber", first="us")
    assert "move H us1" in acts(state)  # base sea, J, H
    assert "move G us1" not in acts(state)  # a fourth zone
    with pytest.raises(IllegalAction, match="beyond us1's range of 3"):
        state.apply("move G us1")
    landing = position([piece("us1", "bomber", "H")], step="regroup:land", first="us", airfields=[])
    assert acts(landing) == ["land us1 new_caledonia"]  # H, J, base sea, New Caledonia
    far = position([piece("us1", "bomber", "G")], step="regroup:land", first="us", airfields=[])
    assert acts(far) == ["end"]  # New Caledonia is 4 zones from G: nowhere to land
    assert "us1 (bomber) destroyed (no place to land)" in [e.text for e in far.apply("end")]


def test_hidden_movement_replaces_the_movement_steps_rule_aag_appendix_1_hidden_movement():
    """AAG Appendix 1 Hidden Movement: load, hidden sea orders, submarine attacks, bombers,
    fighters; a submarine attacks where its order took it."""
    state = game().new_state(1, options={"hidden_movement": True})
    assert state.steps[:5] == ("hidden:load", "hidden:orders", "hidden:torpedo", "move:bomber", "move:fighter")
    pieces = [piece("us1", "submarine", "J"), piece("jp1", "transport", "H")]
    state = position(pieces, [1], step="hidden:orders", first="us", options={"hidden_movement": True})
    assert not any(a.startswith("torpedo") for a in acts(state))  # not while orders are written
    state.apply("move H us1")
    state.apply("end")  # jp writes nothing: both revealed and carried out
    assert state.step == "hidden:torpedo" and state.pieces["us1"].zone == "H"
    state.apply("torpedo us1 jp1")
    assert "jp1" not in state.pieces
