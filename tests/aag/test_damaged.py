"""A damaged unit waits at its base until repaired (AAG Damaging and Destroying Units: "The
unit will remain there until you spend 1 supply token during the Regroup phase to repair
it"). Each test puts the damaged ship beside a sound one of its type with a lower id, so
that a damaged ship passed off as the sound one would be caught."""

from __future__ import annotations

import pytest

from henderson.core.errors import IllegalAction, PositionError

from .helpers import acts, piece, position

RULE = "AAG Damaging and Destroying Units"
BASE = "new_caledonia_sea"


def test_damaged_ship_does_not_move_rule_aag_damaging_and_destroying_units():
    pieces = [piece("us1", "destroyer", BASE), piece("us2", "destroyer", BASE, damaged=True)]
    state = position(pieces, step="move:destroyer", first="us")
    assert "move J us1" in acts(state)
    with pytest.raises(IllegalAction, match=f"{RULE}: us2 is damaged"):
        state.apply("move J us2")
    with pytest.raises(IllegalAction, match=f"{RULE}: us2 is damaged"):
        state.apply("move J us1,us2")  # nor in a group move
    assert state.pieces["us2"].zone == BASE and state.pieces["us1"].zone == BASE
    state.apply("move J us1")  # the sound one does
    assert state.pieces["us1"].zone == "J"


def test_damaged_ship_does_not_deploy_rule_aag_damaging_and_destroying_units():
    pieces = [
        piece("us1", "cruiser", BASE),
        piece("us2", "cruiser", BASE, damaged=True),
        piece("us3", "supply", "new_caledonia"),
    ]
    state = position(pieces, step="regroup:deploy", first="us")
    assert "deploy us1 J" in acts(state)
    with pytest.raises(IllegalAction, match=f"{RULE}: us2 is damaged"):
        state.apply("deploy us2 J")
    assert state.pieces["us2"].zone == BASE and "us3" in state.pieces


def test_damaged_destroyer_is_not_loaded_rule_aag_damaging_and_destroying_units():
    pieces = [
        piece("us1", "destroyer", BASE),
        piece("us2", "destroyer", BASE, damaged=True),
        piece("us3", "infantry", "new_caledonia"),
    ]
    state = position(pieces, step="regroup:buy", first="us", points={"us": 0})
    assert "load us1 us3" in acts(state)
    with pytest.raises(IllegalAction, match=f"{RULE}: us2 is damaged"):
        state.apply("load us2 us3")
    assert state.pieces["us3"].aboard is None


def test_no_fighter_lands_on_a_damaged_carrier_rule_aag_damaging_and_destroying_units():
    pieces = [
        piece("us1", "carrier", BASE),
        piece("us2", "carrier", BASE, damaged=True),
        piece("us3", "fighter", "J"),
    ]
    state = position(pieces, step="regroup:land", first="us")
    assert "land us3 us1" in acts(state)
    with pytest.raises(IllegalAction, match=f"{RULE}: us2 is damaged"):
        state.apply("land us3 us2")
    assert state.pieces["us3"].aboard is None


def test_repair_repairs_the_damaged_ship_named_rule_aag_repair():
    """AAG Repair: 1 supply at the home base repairs a damaged sea unit there; repairing a
    sound ship is refused and spends nothing."""
    pieces = [
        piece("us1", "destroyer", BASE, damaged=True),
        piece("us2", "destroyer", BASE),
        piece("us3", "supply", "new_caledonia"),
        piece("us4", "supply", "new_caledonia"),
    ]
    state = position(pieces, step="regroup:repair", first="us")
    with pytest.raises(IllegalAction, match="us2 is not damaged"):
        state.apply("repair us2")
    assert state.pieces["us1"].damaged and len(state.supplies("us", "new_caledonia")) == 2
    state.apply("repair us1")
    assert not state.pieces["us1"].damaged and len(state.supplies("us", "new_caledonia")) == 1


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"type": "destroyer", "zone": "J", "damaged": True}, "cannot be in J"),
        ({"type": "destroyer", "zone": "rabaul_sea", "damaged": True}, "cannot be in rabaul_sea"),
        ({"type": "infantry", "zone": "new_caledonia", "damaged": True}, "never damaged"),
        ({"type": "transport", "zone": BASE, "damaged": True}, "never damaged"),
    ],
)
def test_position_with_a_damaged_ship_away_from_base_is_refused_rule_aag_damaging_and_destroying_units(extra, words):
    obj = {"id": "us1", "side": "us", **extra}
    with pytest.raises(PositionError, match=f"piece us1: .*{words}.*{RULE}") as info:
        position([obj])
    assert "\n" not in str(info.value)


def test_position_with_cargo_on_a_damaged_ship_is_refused_rule_aag_loss_of_cargo():
    pieces = [
        piece("us1", "destroyer", BASE, damaged=True),
        piece("us2", "infantry", BASE, aboard="us1"),
    ]
    with pytest.raises(PositionError, match=r"piece us2: .*damaged.*AAG Loss of Cargo"):
        position(pieces)

