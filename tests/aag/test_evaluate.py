"""The AAG evaluation the computer players use: terminal values, antisymmetry, range over
random positions, and sanity checks that more of a good thing is better."""

from __future__ import annotations

import importlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from henderson.games.aag.evaluate import (
    CAPITAL_RISK,
    CARGO_WEIGHT,
    evaluate,
    island_strength,
    race,
    stranded,
    tables,
    terms,
)

from .helpers import game, piece, position


def random_position(seed: int, plies: int, options=None):
    state = game().new_state(seed, options=options)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def test_the_agents_find_the_hook():
    module = importlib.import_module("henderson.games.aag.evaluate")
    assert module.evaluate is evaluate


def test_terminal_positions_are_exactly_plus_or_minus_one_rule_aag_how_to_win():
    state = position([], step="regroup:deploy", first="us", vp={"us": 14, "jp": 3})
    state.apply("end")  # us scores its airfield: 15
    assert state.winner() == "us"
    assert evaluate(state, "us") == 1.0 and evaluate(state, "jp") == -1.0


OPTIONS = st.sampled_from([{}, {"advantages": True}, {"hidden_movement": True}])


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 600), OPTIONS)
def test_antisymmetric_and_in_range_over_random_positions(seed, plies, options):
    state = random_position(seed, plies, options)
    us, jp = evaluate(state, "us"), evaluate(state, "jp")
    assert us == -jp
    assert -1.0 <= us <= 1.0
    if not state.is_terminal():
        assert -1.0 < us < 1.0


def base_pieces():
    return [
        piece("us1", "infantry", "guadalcanal"),
        piece("us2", "infantry", "guadalcanal"),
        piece("jp1", "infantry", "bougainville"),
        piece("jp2", "infantry", "bougainville"),
        piece("jp3", "battleship", "E"),
    ]


def value(pieces=None, **fields):
    return evaluate(position(base_pieces() if pieces is None else pieces, **fields), "us")


def test_more_victory_points_is_better():
    assert value(vp={"us": 6, "jp": 5}) > value(vp={"us": 5, "jp": 5})
    assert value(vp={"us": 5, "jp": 6}) < value(vp={"us": 5, "jp": 5})


def test_more_units_is_better_and_a_sunk_battleship_is_better_still():
    more = [*base_pieces(), piece("us9", "artillery", "guadalcanal")]
    assert value(more) > value()
    sunk = [p for p in base_pieces() if p["id"] != "jp3"]
    assert value(sunk) > value()
    assert value(sunk, vp={"us": 1, "jp": 0}) > value(sunk)


def test_an_undamaged_airfield_is_worth_more_than_a_damaged_one():
    fields = [{"island": "guadalcanal", "side": "us"}, {"island": "bougainville", "side": "jp"}]
    damaged = [{"island": "guadalcanal", "side": "us", "damaged": True}, fields[1]]
    second = [*fields, {"island": "guadalcanal", "side": "us"}]
    assert value(airfields=damaged) < value(airfields=fields) < value(airfields=second)


def test_holding_an_island_and_threatening_one_count():
    control = dict(game().data.setup.control)
    more = {**control, "malaita": "us"}
    assert value(control=more) > value(control=control)
    landing = [
        *base_pieces(),
        piece("us8", "transport", "K"),
        piece("us9", "infantry", "K", aboard="us8"),
        piece("us10", "infantry", "K", aboard="us8"),
    ]
    at_base = [
        *base_pieces(),
        piece("us8", "transport", "new_caledonia_sea"),
        piece("us9", "infantry", "new_caledonia_sea", aboard="us8"),
        piece("us10", "infantry", "new_caledonia_sea", aboard="us8"),
    ]
    assert value(landing) > value(at_base)  # the same force, next to Malaita


def test_a_force_at_sea_threatens_its_islands_once_rule_aag_unload():
    # troops aboard in G can land on one of the three islands next to it (AAG Combat step 3):
    # their weight is split among Guadalcanal, New Georgia and Santa Isabel, not counted thrice
    force = [
        piece("us8", "transport", "G"),
        piece("us9", "infantry", "G", aboard="us8"),
        piece("us10", "infantry", "G", aboard="us8"),
    ]
    without = island_strength(position(base_pieces()))
    with_force = island_strength(position([*base_pieces(), *force]))
    islands = tables(game().data).sea_islands["G"]
    assert sorted(islands) == ["guadalcanal", "new_georgia", "santa_isabel"]
    added = {i: with_force[i]["us"] - without[i]["us"] for i in with_force}
    power = 2 * game().data.units["infantry"].attack["land"]
    assert sum(added.values()) == pytest.approx(CARGO_WEIGHT * power)
    assert all(added[i] == pytest.approx(CARGO_WEIGHT * power / 3) for i in islands)


def test_supplies_next_to_a_free_airfield_slot_count_rule_aag_build_airfields():
    ashore = [*base_pieces(), *(piece(f"us{i}", "supply", "guadalcanal") for i in (5, 6, 7))]
    at_base = [*base_pieces(), *(piece(f"us{i}", "supply", "new_caledonia") for i in (5, 6, 7))]
    assert value(ashore) > value(at_base)


def test_static_tables_are_built_once_per_game():
    data = game().data
    assert tables(data) is tables(data)


def test_heuristic_agent_on_the_evaluation_picks_legal_actions():
    from henderson import agents

    state = game().new_state(4)
    player = agents.get("heuristic", 4)
    for _ in range(40):
        action = player.choose(state)
        assert action in state.legal_actions()
        state.apply(action)


def test_heuristic_agent_takes_the_free_airfield_rule_aag_build_airfields():
    from henderson import agents

    pieces = [*base_pieces(), *(piece(f"us{i}", "supply", "guadalcanal") for i in (5, 6, 7))]
    state = position(pieces, step="regroup:build", first="us")
    assert str(agents.get("heuristic", 0).choose(state)) == "build guadalcanal"


def test_an_air_unit_that_cannot_land_counts_at_nothing_rule_aag_regroup_land_air_units():
    # C is three zones from Guadalcanal and four from New Caledonia: a fighter (range 2) there
    # has nowhere to land; from G it reaches Guadalcanal
    home = value([*base_pieces(), piece("us9", "fighter", "G")], step="move:fighter")
    lost = value([*base_pieces(), piece("us9", "fighter", "C")], step="move:fighter")
    none = value(base_pieces(), step="move:fighter")
    assert home > none and home - lost > 0.5 * (home - none)
    state = position([*base_pieces(), piece("us9", "fighter", "C")], step="move:fighter")
    assert stranded(state, tables(state.data))["us"] > 0


def test_an_airfield_lands_two_air_units_rule_aag_landing_capacities():
    two = [*base_pieces(), piece("us8", "fighter", "G"), piece("us9", "fighter", "G")]
    state = position(two, step="move:fighter")
    assert stranded(state, tables(state.data))["us"] == 0
    state = position([*two, piece("us7", "fighter", "G")], step="move:fighter")
    assert stranded(state, tables(state.data))["us"] > 0


def two_airfields_each():
    """Both airfield slots of each side's first island built: two points a turn each."""
    return [
        {"island": "guadalcanal", "side": "us"},
        {"island": "guadalcanal", "side": "us"},
        {"island": "bougainville", "side": "jp"},
        {"island": "bougainville", "side": "jp"},
    ]


def test_the_race_projects_who_passes_15_first_rule_aag_how_to_win():
    # two airfields each, 11 to 10: the United States reaches 15 at the second scoring
    fields = two_airfields_each()
    assert race(position(base_pieces(), airfields=fields, vp={"us": 11, "jp": 10})) == (1.0, 2)
    # a third Japanese airfield: both pass 15 at that scoring, Japan with more (16 to 15)
    third = [*fields, {"island": "choiseul", "side": "jp"}]
    assert race(position(base_pieces(), airfields=third, vp={"us": 11, "jp": 10})) == (-1.0, 2)
    # equal totals at equal rates never settle; a damaged airfield scores nothing
    assert race(position(base_pieces(), airfields=fields, vp={"us": 10, "jp": 10})) is None
    damaged = [*fields[:3], {"island": "bougainville", "side": "jp", "damaged": True}]
    assert race(position(base_pieces(), airfields=damaged, vp={"us": 10, "jp": 10})) == (1.0, 3)


def test_the_side_far_ahead_in_material_still_builds_the_airfield_that_wins_the_race():
    # Japan is rich (a fleet at its base) but behind 10 to 11 at two airfields each: building
    # on Choiseul (AAG Build Airfields) wins the race at the second scoring, not building loses it
    from henderson import agents

    fleet = [piece(f"jp{i}", "battleship", "rabaul_sea") for i in range(10, 16)]
    supplies = [piece(f"jp{i}", "supply", "choiseul") for i in (20, 21, 22)]
    pieces = [*base_pieces(), *fleet, *supplies, piece("jp23", "infantry", "choiseul")]
    fields = two_airfields_each()
    state = position(pieces, airfields=fields, vp={"us": 11, "jp": 10}, step="regroup:build", first="jp")
    assert terms(state)["material"] < -5  # Japan far ahead on material (United States less Japan)
    assert race(state) == (1.0, 2)  # but the United States ahead in the race
    assert str(agents.get("heuristic", 0).choose(state)) == "build choiseul"


def test_building_an_airfield_does_not_shorten_the_islands_worth():
    # the horizon comes from the victory points, not from the airfields, so a new airfield
    # adds its own points and leaves the islands' income as it was
    fields = two_airfields_each()
    before = terms(position(base_pieces(), airfields=fields, vp={"us": 8, "jp": 8}))
    more = [*fields, {"island": "choiseul", "side": "jp"}]
    after = terms(position(base_pieces(), airfields=more, vp={"us": 8, "jp": 8}))
    assert after["islands"] == before["islands"]
    assert after["airfields"] < before["airfields"]  # Japan's term grows: us less jp falls


def test_a_capital_ship_at_sea_carries_the_point_its_sinking_gives_rule_aag_capital_ship():
    at_base = [*base_pieces(), piece("jp9", "carrier", "rabaul_sea")]
    at_sea = [*base_pieces(), piece("jp9", "carrier", "A")]
    base_terms = terms(position(at_base))
    sea_terms = terms(position(at_sea))
    # Japan's material is lower (us less jp higher) by the risk of a point for the United States
    assert sea_terms["material"] - base_terms["material"] == pytest.approx(CAPITAL_RISK)
    cruiser = terms(position([*base_pieces(), piece("jp9", "cruiser", "A")]))
    cruiser_home = terms(position([*base_pieces(), piece("jp9", "cruiser", "rabaul_sea")]))
    assert cruiser["material"] == pytest.approx(cruiser_home["material"])  # not a capital ship
