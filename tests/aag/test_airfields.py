"""AAG Regroup and airfields: where air units may land (Regroup step 2, Landing
Capacities), capturing airfields and supplies and using them in the same turn (Capturing
Airfields and Supplies), airfield repair (Repair), and an island on which each side holds
an airfield (Build Airfields)."""

from __future__ import annotations

import pytest

from henderson.core.errors import IllegalAction, PositionError
from henderson.games.aag.state import Airfield

from .helpers import acts, piece, position

ALL_JP = {
    "guadalcanal": "us",
    "bougainville": "jp",
    "new_georgia": "jp",
    "choiseul": "jp",
    "santa_isabel": "jp",
    "malaita": "jp",
}


def test_no_landing_on_an_enemy_controlled_airfield_rule_aag_land_air_units():
    # "An air unit can't land on a damaged or enemy-controlled airfield, even if it didn't
    # move from that island zone this turn": Guadalcanal holds a damaged American and an
    # undamaged Japanese airfield; the fighter there can only reach the carrier in J
    fields = [
        {"island": "guadalcanal", "side": "us", "damaged": True},
        {"island": "guadalcanal", "side": "jp"},
    ]
    pieces = [
        piece("us1", "fighter", "guadalcanal"),
        piece("us2", "carrier", "J"),
        piece("us3", "infantry", "guadalcanal"),
        piece("jp1", "infantry", "guadalcanal"),
    ]
    state = position(pieces, step="regroup:land", first="us", airfields=fields)
    assert acts(state) == ["land us1 us2"]


def test_carrier_takes_two_fighters_and_no_bombers_rule_aag_landing_capacities():
    pieces = [piece(f"us{i}", "fighter", "H") for i in range(1, 4)]
    pieces += [piece("us4", "bomber", "H"), piece("us5", "carrier", "H")]
    state = position(pieces, step="regroup:land", first="us", airfields=[])
    # the bomber reaches only its base (H -> J -> base sea -> New Caledonia); never the carrier
    assert acts(state) == ["land us1 us5", "land us4 new_caledonia"]
    state.apply("land us1 us5")
    state.apply("land us2 us5")
    assert [p.id for p in state.fighters_aboard(state.pieces["us5"])] == ["us1", "us2"]
    assert acts(state) == ["land us4 new_caledonia"]  # the carrier is full
    texts = [e.text for e in state.apply("land us4 new_caledonia")]
    assert "us3 (fighter) destroyed (no place to land)" in texts


def test_fighters_on_a_carrier_fight_and_land_again_ruling_7():
    # ruling 7: fighters aboard a carrier are air units in its zone (they fire and are
    # fired on in Combat step 1) and in Regroup land again, on the same carrier if they like
    pieces = [
        piece("us1", "carrier", "H"),
        piece("us2", "fighter", "H", aboard="us1"),
        piece("us3", "fighter", "H", aboard="us1"),
        piece("jp1", "fighter", "H"),
    ]
    # us: 2 fighters x 2 air dice; jp: 2 air dice, a 1 in slot 1 (fighter) hits one of them
    state = position(pieces, [6, 6, 6, 6, 1] + [6] * 9, step="combat:air", first="us", airfields=[])
    assert acts(state) == ["fight H"]
    events = state.apply("fight H")
    assert sum(1 for e in events if e.kind == "roll" and "us attack on air" in e.text) == 4
    assert "us2" not in state.pieces and "jp1" in state.pieces
    # Combat step 2: the Japanese fighter's sea die at the carrier, fought by itself (the
    # United States have nothing there to fire with)
    assert state.step == "regroup:land" and state.current_player() == "us"
    assert state.pieces["us3"].aboard is None  # in the air until it lands
    assert acts(state) == ["land us3 us1"]  # distance 0: the same carrier
    state.apply("land us3 us1")
    assert state.pieces["us3"].aboard == "us1" and state.pieces["us3"].zone == "H"


def test_air_units_at_their_home_base_are_landed_ruling_7():
    pieces = [piece("us1", "fighter", "new_caledonia"), piece("us2", "fighter", "J")]
    state = position(pieces, step="combat:land", first="us", airfields=[])
    state.apply("end")  # Combat ends; Regroup step 2
    assert state.step == "regroup:land"
    assert acts(state) == ["land us2 new_caledonia"]  # us1 needs no landing


def test_land_on_a_captured_airfield_and_build_with_captured_supplies_rule_aag_capturing_airfields_and_supplies():
    # "You can spend the supplies and land air units on the airfields (if they are
    # undamaged) in the same turn you capture them. You will also score the victory
    # points for the undamaged airfields."
    fields = [{"island": "new_georgia", "side": "jp"}, {"island": "bougainville", "side": "jp"}]
    pieces = [
        piece("us1", "infantry", "new_georgia"),
        piece("us2", "fighter", "G"),
        piece("jp1", "supply", "new_georgia"),
        piece("jp2", "supply", "new_georgia"),
        piece("jp3", "supply", "new_georgia"),
        piece("jp4", "fighter", "E"),
    ]
    state = position(pieces, step="combat:land", first="us", airfields=fields, control=ALL_JP)
    state.apply("end")  # Regroup step 1: the island, its airfield and supplies change hands
    assert state.control["new_georgia"] == "us"
    assert state.airfields[0] == Airfield(island="new_georgia", side="us", damaged=False)
    assert len(state.supplies("us", "new_georgia")) == 3
    assert acts(state) == ["land us2 new_georgia"]
    state.apply("land us2 new_georgia")
    # Japan's fighter can no longer land on the captured airfield
    assert state.current_player() == "jp" and acts(state) == ["land jp4 bougainville"]
    state.apply("land jp4 bougainville")
    assert state.step == "regroup:build" and state.current_player() == "us"
    state.apply("build new_georgia")  # the 3 captured supplies build a second airfield
    assert not state.supplies("us", "new_georgia")
    while state.turn == 1:
        state.apply("end")
    assert state.vp == {"us": 2, "jp": 1}  # both American airfields score this turn


def test_repair_a_captured_airfield_with_captured_supply_rule_aag_capturing_airfields_and_supplies():
    # a captured damaged airfield takes no air units this turn, but the captured supply
    # may repair it in Repair, and it then scores
    fields = [{"island": "new_georgia", "side": "jp", "damaged": True}]
    pieces = [
        piece("us1", "infantry", "new_georgia"),
        piece("us2", "fighter", "G"),
        piece("jp1", "supply", "new_georgia"),
    ]
    state = position(pieces, step="combat:land", first="us", airfields=fields, control=ALL_JP)
    texts = [e.text for e in state.apply("end")]
    assert state.airfields == [Airfield(island="new_georgia", side="us", damaged=True)]
    # no undamaged airfield within 2 zones: the fighter is lost
    assert "us2 (fighter) destroyed (no place to land)" in texts
    while state.step != "regroup:repair":
        state.apply("end")
    assert "repair new_georgia" in acts(state)
    state.apply("repair new_georgia")
    assert state.airfields == [Airfield(island="new_georgia", side="us", damaged=False)]
    while state.turn == 1:
        state.apply("end")
    assert state.vp["us"] == 1


def test_airfield_repair_costs_one_supply_on_the_island_rule_aag_repair():
    # "spend 1 supply token on an island zone to repair a damaged airfield you control on
    # that island ... for each damaged airfield you control"
    fields = [
        {"island": "guadalcanal", "side": "us", "damaged": True},
        {"island": "guadalcanal", "side": "us", "damaged": True},
        {"island": "new_georgia", "side": "jp", "damaged": True},
    ]
    pieces = [
        piece("us1", "supply", "guadalcanal"),
        piece("us2", "supply", "new_georgia"),  # no airfield of its own there
        piece("us3", "infantry", "new_georgia"),
        piece("jp1", "infantry", "new_georgia"),
        piece("us4", "supply", "malaita"),
    ]
    state = position(pieces, step="regroup:repair", first="us", airfields=fields)
    assert acts(state) == ["repair guadalcanal", "end"]  # not the enemy's airfield
    events = [e.text for e in state.apply("repair guadalcanal")]
    assert "us airfield on guadalcanal repaired" in events
    assert [a.damaged for a in state.airfields] == [False, True, True]
    assert "us1" not in state.pieces and "us2" in state.pieces and "us4" in state.pieces
    # one supply was spent: the second damaged airfield stays damaged; it scores nothing
    assert "us scores 1 for airfields (1)" in events


def test_each_side_holds_an_airfield_on_one_island_rule_aag_build_airfields():
    # "On each island that can hold 2 airfield markers, it's possible for each player to
    # control an airfield marker on the same island." The island goes to the side with
    # more land power, but Japan keeps its airfield while its infantry remains; each side
    # lands 2 air units on its own airfield and scores it
    fields = [{"island": "new_georgia", "side": "us"}, {"island": "new_georgia", "side": "jp"}]
    pieces = [
        piece("us1", "infantry", "new_georgia"),
        piece("us2", "infantry", "new_georgia"),
        piece("jp1", "infantry", "new_georgia"),
    ]
    pieces += [piece(f"us{i}", "fighter", "G") for i in range(3, 6)]
    pieces += [piece(f"jp{i}", "fighter", "E") for i in range(2, 5)]
    state = position(
        pieces,
        step="combat:land",
        first="us",
        airfields=fields,
        resolved=["new_georgia"],
        control=ALL_JP,
    )
    state.apply("end")
    assert state.control["new_georgia"] == "us"
    assert [a.side for a in state.airfields] == ["us", "jp"]  # nothing captured
    assert acts(state) == ["land us3 new_georgia"]
    state.apply("land us3 new_georgia")
    texts = [e.text for e in state.apply("land us4 new_georgia")]
    assert "us5 (fighter) destroyed (no place to land)" in texts  # 2 per airfield marker
    assert state.current_player() == "jp" and acts(state) == ["land jp2 new_georgia"]
    state.apply("land jp2 new_georgia")
    texts = [e.text for e in state.apply("land jp3 new_georgia")]
    assert "jp4 (fighter) destroyed (no place to land)" in texts
    assert state.points["us"] == 18  # the island counts for the United States' income
    while state.turn == 1:
        state.apply("end")
    assert state.vp == {"us": 1, "jp": 1}


def test_build_on_an_island_the_enemy_controls_rule_aag_build_airfields():
    # "You control the airfield you build, even if you don't control that island."
    fields = [{"island": "new_georgia", "side": "jp"}]
    pieces = [piece(f"us{i}", "supply", "new_georgia") for i in range(1, 4)]
    pieces.append(piece("jp1", "infantry", "new_georgia"))
    state = position(pieces, step="regroup:build", first="us", airfields=fields, control=ALL_JP)
    state.apply("build new_georgia")
    assert state.control["new_georgia"] == "jp"
    assert Airfield(island="new_georgia", side="us", damaged=False) in state.airfields


def test_airfield_without_land_units_is_captured_by_the_island_holder_rule_aag_capturing_airfields_and_supplies():
    # the United States' airfield on Japanese New Georgia with no American land unit
    # left there: at the next Regroup step 1 Japan captures it
    fields = [{"island": "new_georgia", "side": "us"}, {"island": "new_georgia", "side": "jp"}]
    pieces = [piece("jp1", "infantry", "new_georgia")]
    state = position(pieces, step="combat:land", first="us", airfields=fields, control=ALL_JP)
    state.apply("end")
    assert [a.side for a in state.airfields] == ["jp", "jp"]


def test_position_with_three_fighters_on_a_carrier_is_refused_rule_aag_aircraft_carrier():
    """AAG Aircraft Carrier Flight Deck: "Up to 2 fighters can land on a friendly aircraft carrier"."""
    pieces = [piece("us1", "carrier", "J")] + [piece(f"us{i}", "fighter", "J", aboard="us1") for i in (2, 3)]
    assert len(position(pieces).fighters_aboard(position(pieces).pieces["us1"])) == 2
    with pytest.raises(PositionError, match="carries at most 2 fighters"):
        position([*pieces, piece("us4", "fighter", "J", aboard="us1")])


def test_an_air_unit_lands_once_rule_aag_land_air_units():
    """AAG Regroup step 2: each air unit lands once, within its range; one that has landed
    (us2) is not moved again in the place of one still in the air (us1) beside it."""
    pieces = [
        piece("us1", "fighter", "guadalcanal"),
        piece("us2", "fighter", "guadalcanal", landed=True),
        piece("us3", "carrier", "H"),
    ]
    state = position(pieces, step="regroup:land", first="us")
    assert "land us1 us3" in acts(state) and "land us1 guadalcanal" in acts(state)
    with pytest.raises(IllegalAction, match="AAG Regroup step 2: us2 has landed already"):
        state.apply("land us2 us3")
    assert state.pieces["us2"].zone == "guadalcanal" and state.pieces["us2"].aboard is None
