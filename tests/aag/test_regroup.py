"""AAG Phase 3 Regroup: control, capture, landing, building, income, repairs, deployment,
victory points and the first-player marker."""

from __future__ import annotations

from henderson.games.aag.state import Airfield

from .helpers import acts, piece, position


def test_new_georgia_control_example_rule_aag_capturing_airfields():
    pieces = [piece(f"us{i}", "infantry", "new_georgia") for i in range(1, 5)]
    pieces += [piece("jp1", "infantry", "new_georgia"), piece("jp2", "infantry", "new_georgia")]
    fields = [{"island": "new_georgia", "side": "jp"}]
    state = position(
        pieces, step="combat:land", first="us", resolved=["new_georgia"], airfields=fields
    )
    state.apply("end")  # combat over: Regroup step 1
    assert state.control["new_georgia"] == "us"
    assert state.airfields[0].side == "jp"  # Axis units remain: the airfield stays Axis


def test_capture_when_no_enemy_land_units_remain_rule_aag_capturing_airfields_and_supplies():
    pieces = [piece("us1", "infantry", "new_georgia"), piece("jp1", "supply", "new_georgia")]
    fields = [{"island": "new_georgia", "side": "jp", "damaged": True}]
    state = position(pieces, step="combat:land", first="us", resolved=[], airfields=fields)
    state.apply("end")
    assert state.control["new_georgia"] == "us"
    assert state.airfields[0] == Airfield(island="new_georgia", side="us", damaged=True)
    assert [p.side for p in state.in_zone("new_georgia") if p.type == "supply"] == ["us"]


def test_tie_keeps_control_and_ships_count_rule_aag_regroup_step_1():
    pieces = [piece("us1", "infantry", "malaita"), piece("jp1", "infantry", "malaita")]
    state = position(pieces, step="combat:land", first="us", resolved=["malaita"])
    state.apply("end")
    assert state.control["malaita"] == "jp"  # a tie: the holder keeps it
    pieces.append(piece("us2", "cruiser", "K"))  # adjacent cruiser adds its land power
    state = position(pieces, step="combat:land", first="us", resolved=["malaita"])
    state.apply("end")
    assert state.control["malaita"] == "us"


def test_air_units_must_land_within_range_and_capacity_rule_aag_land_air_units():
    pieces = [piece(f"us{i}", "fighter", "H") for i in range(1, 4)]
    state = position(pieces, step="regroup:land", first="us")
    # 1 undamaged airfield on Guadalcanal: room for 2
    state.apply("land us1 guadalcanal")
    assert acts(state) == ["land us2 guadalcanal"]  # one action per group of identical units
    events = [e.text for e in state.apply("land us2 guadalcanal")]
    # the airfield is full and nothing else is in range: the third fighter is lost
    assert "us3 (fighter) destroyed (no place to land)" in events


def test_no_landing_on_damaged_airfield_rule_aag_land_air_units():
    fields = [{"island": "guadalcanal", "side": "us", "damaged": True}]
    state = position(
        [piece("us1", "bomber", "guadalcanal")], step="regroup:land", first="us", airfields=fields
    )
    assert "land us1 guadalcanal" not in acts(state)
    # a bomber reaches its base: Guadalcanal -> J -> base sea -> New Caledonia is 3 zones
    assert acts(state) == ["land us1 new_caledonia"]


def test_build_airfield_for_three_supplies_rule_aag_build_airfields():
    pieces = [piece(f"us{i}", "supply", "malaita") for i in range(1, 4)]
    state = position(pieces, step="regroup:build", first="us")
    assert "build malaita" in acts(state)
    state.apply("build malaita")
    assert Airfield(island="malaita", side="us", damaged=False) in state.airfields
    assert not state.supplies("us", "malaita")


def test_income_10_plus_4_per_island_rule_aag_reinforce():
    control = {
        "guadalcanal": "us",
        "malaita": "us",
        "santa_isabel": "us",
        "bougainville": "jp",
        "new_georgia": "jp",
        "choiseul": "jp",
    }
    state = position([], step="regroup:build", first="us", control=control)
    state.apply("end")  # us builds nothing; jp builds nothing (auto) -> reinforcements
    assert state.step == "regroup:buy" and state.points["us"] == 22


def test_repair_and_deploy_example_rule_aag_deploy():
    pieces = [
        piece("us1", "battleship", "new_caledonia_sea"),
        piece("us2", "transport", "new_caledonia_sea"),
        piece("us3", "infantry", "new_caledonia_sea", aboard="us2"),
        piece("us4", "infantry", "new_caledonia_sea", aboard="us2"),
    ]
    pieces += [piece(f"us{i}", "supply", "new_caledonia") for i in range(5, 8)]
    state = position(pieces, step="regroup:deploy", first="us")
    state.apply("deploy us2 J")  # 1 supply
    assert state.pieces["us3"].zone == "J" and state.pieces["us3"].aboard == "us2"
    state.apply("deploy us1 I")  # 2 supplies
    assert state.pieces["us1"].zone == "I"
    assert not state.supplies("us", "new_caledonia")


def test_repair_damaged_ship_at_base_rule_aag_repair():
    pieces = [
        piece("us1", "cruiser", "new_caledonia_sea", damaged=True),
        piece("us2", "supply", "new_caledonia"),
    ]
    state = position(pieces, step="regroup:repair", first="us")
    state.apply("repair us1")
    assert not state.pieces["us1"].damaged and "us2" not in state.pieces


def test_buy_and_load_at_base_rule_aag_reinforce():
    state = position([], step="regroup:buy", first="us", points={"us": 4})
    state.apply("buy transport")
    state.apply("buy infantry")
    assert "load us1 us2" in acts(state)
    state.apply("load us1 us2")
    assert state.points["us"] == 1 and state.pieces["us2"].aboard == "us1"


def test_victory_at_15_and_the_tie_rule_rule_aag_score_victory_points():
    state = position([], step="regroup:deploy", first="us", vp={"us": 14, "jp": 13})
    state.apply("end")  # both sides score 1: us 15, jp 14
    assert state.winner() == "us" and state.is_terminal()
    assert state.end_cause == "15 victory points"
    assert state.clone().end_cause == "15 victory points"
    tied = position([], step="regroup:deploy", first="us", vp={"us": 14, "jp": 14})
    tied.apply("end")
    assert tied.winner() is None and tied.vp == {"us": 15, "jp": 15}
    assert tied.first == "jp" and tied.turn == 2  # the marker passes; play goes on
    assert tied.end_cause is None
    broken = position([], step="regroup:deploy", first="jp", vp={"us": 15, "jp": 15})
    broken.apply("end")  # no airfields: neither scores, the tie goes on
    assert broken.winner() is None and broken.turn == 2
    ahead = position([], step="regroup:deploy", first="jp", vp={"us": 16, "jp": 15})
    ahead.apply("end")
    assert ahead.winner() == "us"
    assert ahead.end_cause == "15 victory points, both past them: the higher total"


def test_the_end_cause_is_none_until_the_game_ends() -> None:
    state = position([], step="regroup:deploy", first="us", vp={"us": 14, "jp": 13})
    assert state.end_cause is None
    state.apply("end")
    assert state.end_cause == "15 victory points"


def test_ship_that_moved_home_may_load_at_base_rule_aag_reinforce():
    pieces = [
        piece("us1", "transport", "new_caledonia_sea", moved=True),
        piece("us2", "infantry", "new_caledonia"),
    ]
    state = position(pieces, step="regroup:buy", first="us", points={"us": 0})
    assert "load us1 us2" in acts(state)


def control_after_combat(pieces, **fields):
    state = position(pieces, step="combat:land", first="us", resolved=list(fields.pop("resolved", [])), **fields)
    state.apply("end")  # combat over: Regroup step 1
    return state.control


def test_air_units_and_supplies_do_not_control_an_island_rule_aag_regroup_step_1():
    """AAG Regroup step 1: "Air units and supply tokens do not contribute to controlling an
    island zone"; a land unit does."""
    pieces = [
        piece("us1", "fighter", "malaita"),
        piece("us2", "bomber", "malaita"),
        piece("us3", "supply", "malaita"),
    ]
    assert control_after_combat(pieces)["malaita"] == "jp"
    assert control_after_combat([*pieces, piece("us4", "infantry", "malaita")])["malaita"] == "us"


def test_aa_gun_has_no_land_power_but_lets_ships_count_rule_aag_regroup_step_1():
    """AAG Regroup step 1: "an anti-aircraft gun has 0 land attack power" (alone it does not
    take the island), but it is a land unit, so the adjacent cruiser exerts its power."""
    gun = [piece("us1", "aa_gun", "malaita")]
    assert control_after_combat(gun)["malaita"] == "jp"
    assert control_after_combat([*gun, piece("us2", "cruiser", "K")])["malaita"] == "us"


def test_ships_count_only_with_a_land_unit_on_the_island_rule_aag_regroup_step_1():
    """AAG Regroup step 1: "If you have at least 1 land unit in the island zone, your adjacent
    cruisers and battleships also exert their land attack power on that zone"."""
    ships = [piece("us1", "battleship", "K"), piece("us2", "cruiser", "K")]
    assert control_after_combat(ships)["malaita"] == "jp"


def test_a_ship_counts_for_every_island_next_to_it_rule_aag_regroup_step_1():
    """AAG Regroup step 1: "battleships and cruisers can exert their attack power on all
    adjacent island zones at once for the purpose of determining control"."""
    pieces = [
        piece("us1", "battleship", "H"),
        piece("us2", "infantry", "santa_isabel"),
        piece("us3", "infantry", "malaita"),
        piece("jp1", "infantry", "santa_isabel"),
        piece("jp2", "infantry", "santa_isabel"),
        piece("jp3", "infantry", "malaita"),
        piece("jp4", "infantry", "malaita"),
    ]
    control = control_after_combat(pieces, resolved=["santa_isabel", "malaita"])
    assert control["santa_isabel"] == "us" and control["malaita"] == "us"  # 1 + 2 > 2 on both


def test_unspent_reinforcement_points_are_lost_rule_aag_reinforce():
    """AAG Reinforce: "Any reinforcement points you do not spend are lost"."""
    state = position([], step="regroup:buy", first="us", points={"us": 5})
    state.apply("buy infantry")
    assert state.points["us"] == 4
    state.apply("end")
    assert state.points["us"] == 0
    while not (state.turn == 2 and state.step == "regroup:buy" and state.current_player() == "us"):
        state.apply("end")
    assert state.points["us"] == 14  # next turn: the income alone, 10 + 4 for Guadalcanal


def test_reinforcements_are_placed_on_the_base_card_rule_aag_reinforce():
    """AAG Reinforce: "land units, air units, and supply tokens going on the land zone and sea
    units going in the sea zone" of the buyer's base card."""
    state = position([], step="regroup:buy", first="jp", points={"jp": 30})
    for kind in ("cruiser", "infantry", "fighter", "supply"):
        state.apply(f"buy {kind}")
    zones = {p.type: p.zone for p in state.pieces.values()}
    assert zones == {"cruiser": "rabaul_sea", "infantry": "rabaul", "fighter": "rabaul", "supply": "rabaul"}
