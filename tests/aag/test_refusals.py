"""Refusals say why: every verb of the AAG notation (docs/aag.md), refused, names the rule
that forbids it and the reason, not only that it "is not legal now". Under the hidden-
movement option a refusal never gives away the other side's secret sea orders."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from henderson.core.errors import IllegalAction
from henderson.games.aag.model import other

from .helpers import game, piece, position
from .test_hidden import to_orders, without_orders

NC, NC_SEA = "new_caledonia", "new_caledonia_sea"

# (case id, pieces, position fields, action, rule named, words of the reason)
CASES: list[tuple[str, list[dict[str, Any]], dict[str, Any], str, str, str]] = [
    # --- any verb out of its step (AAG Sequence of Play)
    (
        "buy_in_movement",
        [piece("us1", "cruiser", "J")],
        {"step": "move:cruiser", "first": "us"},
        "buy destroyer",
        "AAG Reinforce",
        "'buy' is played in Regroup step 4, Reinforce; now: Movement step 4",
    ),
    (
        "unit_that_does_not_exist",
        [piece("us1", "cruiser", "J")],
        {"step": "move:cruiser", "first": "us"},
        "move H us9",
        "AAG Movement step 4",
        "there is no unit us9",
    ),
    (
        "zone_that_does_not_exist",
        [piece("us1", "cruiser", "J")],
        {"step": "move:cruiser", "first": "us"},
        "move Q us1",
        "AAG Phase 1 Movement",
        "there is no zone 'Q'",
    ),
    # --- move (AAG Phase 1 Movement)
    (
        "move_the_enemys_unit",
        [piece("us1", "cruiser", "J"), piece("jp1", "cruiser", "E")],
        {"step": "move:cruiser", "first": "us"},
        "move G jp1",
        "AAG Phase 1 Movement",
        "jp1 is not yours",
    ),
    (
        "move_a_type_in_another_types_step",
        [piece("us1", "battleship", "J"), piece("us2", "cruiser", "J")],
        {"step": "move:cruiser", "first": "us"},
        "move H us1",
        "AAG Movement Sequence",
        "battleships move in Movement step 2 (Move Battleships)",
    ),
    (
        "move_twice",
        [piece("us1", "cruiser", "J", moved=True), piece("us2", "cruiser", "J")],
        {"step": "move:cruiser", "first": "us"},
        "move H us1",
        "AAG Phase 1 Movement",
        "us1 has already moved this turn",
    ),
    (
        "sea_move_of_two_zones",
        [piece("us1", "cruiser", "J")],
        {"step": "move:cruiser", "first": "us"},
        "move G us1",
        "AAG Examples of Sea Movement",
        "G is not one sea move from J",
    ),
    (
        "ship_onto_an_island",
        [piece("us1", "cruiser", "J")],
        {"step": "move:cruiser", "first": "us"},
        "move guadalcanal us1",
        "AAG Sea Units",
        "guadalcanal is not a sea zone",
    ),
    (
        "fighter_out_of_range",
        [piece("us1", "fighter", NC)],
        {"step": "move:fighter", "first": "us"},
        "move H us1",
        "AAG Units Fighter",
        "H is 3 zones away from new_caledonia, beyond us1's range of 2",
    ),
    (
        "land_unit_moves_alone",
        [piece("us1", "infantry", "guadalcanal"), piece("us2", "transport", "J")],
        {"step": "move:transport", "first": "us"},
        "move J us1",
        "AAG Land unit",
        "land units move only by transport or destroyer",
    ),
    (
        "into_the_enemy_base",
        [piece("us1", "cruiser", "A")],
        {"step": "move:cruiser", "first": "us"},
        "move rabaul_sea us1",
        "AAG Base Cards",
        "no unit enters it (ruling 1)",
    ),
    (
        "submarine_after_its_attack",
        [piece("us1", "submarine", "H", fired=True, moved=True), piece("us2", "submarine", "H")],
        {"step": "move:submarine", "first": "us"},
        "move G us1",
        "AAG Movement step 6",
        "us1 has made its torpedo attack: its move came first (ruling 9)",
    ),
    # --- load (AAG Movement steps 1 and 5, Reinforce)
    (
        "load_after_moving",
        [piece("us1", "transport", "H", moved=True), piece("us2", "infantry", "guadalcanal")],
        {"step": "move:transport", "first": "us"},
        "load us1 us2",
        "AAG Movement step 1",
        "transports and destroyers may not load after moving",
    ),
    (
        "load_from_an_island_not_adjacent",
        [piece("us1", "transport", "J"), piece("us2", "infantry", "malaita")],
        {"step": "move:transport", "first": "us"},
        "load us1 us2",
        "AAG Movement step 1",
        "us2 is in malaita, not in an island zone next to J",
    ),
    (
        "load_a_full_destroyer",
        [
            piece("us1", "destroyer", "H"),
            piece("us2", "infantry", "H", aboard="us1"),
            piece("us3", "infantry", "guadalcanal"),
        ],
        {"step": "move:destroyer", "first": "us"},
        "load us1 us3",
        "AAG Destroyer",
        "us1 has 1 space(s), all taken",
    ),
    (
        "load_a_fighter_on_a_transport",
        [piece("us1", "transport", NC_SEA), piece("us2", "fighter", NC)],
        {"step": "regroup:buy", "first": "us", "points": {"us": 0}},
        "load us1 us2",
        "AAG Transport",
        "transports carry land units and supplies, not a fighter",
    ),
    (
        "load_a_transport_in_the_destroyer_step",
        [piece("us1", "transport", "H"), piece("us2", "infantry", "guadalcanal"), piece("us3", "destroyer", "H")],
        {"step": "move:destroyer", "first": "us"},
        "load us1 us2",
        "AAG Movement step 1",
        "transports load in Movement step 1",
    ),
    (
        "load_at_base_away_from_base",
        [piece("us1", "transport", "J"), piece("us2", "infantry", NC)],
        {"step": "regroup:buy", "first": "us", "points": {"us": 0}},
        "load us1 us2",
        "AAG Reinforce",
        "in Regroup ships load only in new_caledonia_sea",
    ),
    # --- torpedo (AAG Movement step 6)
    (
        "torpedo_twice",
        [piece("us1", "submarine", "H", fired=True, moved=True), piece("jp1", "transport", "H")],
        {"step": "move:submarine", "first": "us"},
        "torpedo us1 jp1",
        "AAG Movement step 6",
        "us1 has made its torpedo attack this turn",
    ),
    (
        "torpedo_another_zone",
        [piece("us1", "submarine", "H"), piece("jp1", "transport", "G")],
        {"step": "move:submarine", "first": "us"},
        "torpedo us1 jp1",
        "AAG Movement step 6",
        "jp1 is in G, not in H with the submarine",
    ),
    (
        "torpedo_an_island_unit",
        [piece("us1", "submarine", "H"), piece("jp1", "infantry", "guadalcanal"), piece("jp2", "cruiser", "H")],
        {"step": "move:submarine", "first": "us"},
        "torpedo us1 jp1",
        "AAG Movement step 6",
        "a torpedo attack is made on a sea unit",
    ),
    (
        "torpedo_by_a_destroyer",
        [piece("us1", "destroyer", "H"), piece("us2", "submarine", "H"), piece("jp1", "transport", "H")],
        {"step": "move:submarine", "first": "us"},
        "torpedo us1 jp1",
        "AAG Movement step 6",
        "only submarines make torpedo attacks",
    ),
    # --- fight, join, aim, roll, hit (AAG Combat)
    (
        "fight_where_no_one_can_fire",
        [piece("us1", "cruiser", "H"), piece("jp1", "cruiser", "E")],
        {"step": "combat:sea", "first": "us"},
        "fight E",
        "AAG Combat step 2",
        "no side can fire on sea units in E",
    ),
    (
        "fight_sea_on_an_island",
        [piece("us1", "cruiser", "H"), piece("jp1", "cruiser", "H")],
        {"step": "combat:sea", "first": "us"},
        "fight guadalcanal",
        "AAG Combat step 2",
        "guadalcanal is an island",
    ),
    (
        "end_with_combat_left",
        [piece("us1", "cruiser", "H"), piece("jp1", "cruiser", "H")],
        {"step": "combat:sea", "first": "us"},
        "end",
        "AAG Combat step 2",
        "H still to fight",
    ),
    (
        "roll_before_fight",
        [piece("us1", "cruiser", "H"), piece("jp1", "cruiser", "H")],
        {"step": "combat:sea", "first": "us"},
        "roll",
        "AAG How to Attack",
        "'roll' is played once an attack is declared",
    ),
    (
        "hit_with_no_hit_to_assign",
        [piece("us1", "cruiser", "H"), piece("jp1", "cruiser", "H")],
        {"step": "combat:sea", "first": "us"},
        "hit jp1",
        "AAG Loss of Cargo",
        "'hit' is played when a hit falls",
    ),
    (
        "join_from_too_far",
        [piece("us1", "cruiser", "G"), piece("us2", "cruiser", "C"), piece("jp1", "infantry", "new_georgia")],
        {
            "step": "combat:land",
            "first": "us",
            "battle": {"zone": "new_georgia", "category": "land", "stage": 0, "attacker": "us"},
        },
        "join us2",
        "AAG Cruiser",
        "us2 in C is not next to new_georgia",
    ),
    (
        "join_a_second_zone",
        [
            piece("us1", "cruiser", "G", fired=True),
            piece("us3", "cruiser", "G"),
            piece("jp1", "infantry", "new_georgia"),
        ],
        {
            "step": "combat:land",
            "first": "us",
            "battle": {"zone": "new_georgia", "category": "land", "stage": 0, "attacker": "us"},
        },
        "join us1",
        "AAG Cruiser",
        "us1 has fired into another zone this turn: 1 adjacent zone each turn",
    ),
    (
        "join_a_destroyer",
        [piece("us1", "destroyer", "G"), piece("us2", "cruiser", "G"), piece("jp1", "infantry", "new_georgia")],
        {
            "step": "combat:land",
            "first": "us",
            "battle": {"zone": "new_georgia", "category": "land", "stage": 0, "attacker": "us"},
        },
        "join us1",
        "AAG Determine Total Attack Power",
        "a destroyer adds its dice only in its own zone: only cruisers and battleships fire",
    ),
    (
        "aim_a_land_unit",
        [
            piece("us1", "infantry", "new_georgia"),
            piece("us2", "fighter", "new_georgia"),
            piece("jp1", "infantry", "new_georgia"),
        ],
        {
            "step": "combat:land",
            "first": "us",
            "airfields": [{"island": "new_georgia", "side": "jp"}],
            "battle": {"zone": "new_georgia", "category": "land", "stage": 0, "attacker": "us"},
        },
        "aim us1",
        "AAG Combat step 4",
        "land units attack land units; air and sea units choose",
    ),
    (
        "aim_with_no_airfield",
        [
            piece("us1", "fighter", "new_georgia"),
            piece("us2", "fighter", "new_georgia"),
            piece("us3", "cruiser", "G"),
            piece("jp1", "infantry", "new_georgia"),
        ],
        {
            "step": "combat:land",
            "first": "us",
            "airfields": [],
            "battle": {"zone": "new_georgia", "category": "land", "stage": 0, "attacker": "us"},
        },
        "aim us1",
        "AAG Combat step 4",
        "new_georgia has no undamaged enemy airfield to attack",
    ),
    (
        "aim_a_ship_not_joined",
        [piece("us1", "fighter", "new_georgia"), piece("us3", "cruiser", "G"), piece("jp1", "infantry", "new_georgia")],
        {
            "step": "combat:land",
            "first": "us",
            "airfields": [{"island": "new_georgia", "side": "jp"}],
            "battle": {"zone": "new_georgia", "category": "land", "stage": 0, "attacker": "us"},
        },
        "aim us3",
        "AAG Combat step 4",
        "us3 must join the attack on new_georgia first",
    ),
    # --- unload (AAG Combat step 3)
    (
        "unload_onto_an_island_not_adjacent",
        [piece("us1", "transport", "J"), piece("us2", "infantry", "J", aboard="us1")],
        {"step": "unload", "first": "us"},
        "unload us2 malaita",
        "AAG Combat step 3",
        "malaita is not an island zone next to J",
    ),
    (
        "unload_a_unit_ashore",
        [
            piece("us1", "infantry", "guadalcanal"),
            piece("us2", "transport", "J"),
            piece("us3", "infantry", "J", aboard="us2"),
        ],
        {"step": "unload", "first": "us"},
        "unload us1 guadalcanal",
        "AAG Combat step 3",
        "us1 is not aboard a ship",
    ),
    # --- land (AAG Regroup step 2, Landing Capacities)
    (
        "land_on_an_enemy_airfield",
        [piece("us1", "fighter", "E")],
        {"step": "regroup:land", "first": "us"},
        "land us1 bougainville",
        "AAG Regroup step 2",
        "the airfield on bougainville is the enemy's",
    ),
    (
        "land_on_a_damaged_airfield",
        [piece("us1", "fighter", "H")],
        {
            "step": "regroup:land",
            "first": "us",
            "airfields": [{"island": "guadalcanal", "side": "us", "damaged": True}],
        },
        "land us1 guadalcanal",
        "AAG Regroup step 2",
        "your airfield on guadalcanal is damaged",
    ),
    (
        "land_on_an_island_without_airfield",
        [piece("us1", "fighter", "H")],
        {"step": "regroup:land", "first": "us"},
        "land us1 malaita",
        "AAG Regroup step 2",
        "malaita has no airfield of yours",
    ),
    (
        "land_on_a_full_airfield",
        [
            piece("us1", "fighter", "H"),
            piece("us2", "fighter", "guadalcanal", landed=True),
            piece("us3", "bomber", "guadalcanal", landed=True),
        ],
        {"step": "regroup:land", "first": "us"},
        "land us1 guadalcanal",
        "AAG Landing Capacities",
        "hold 2 air units and are full",
    ),
    (
        "land_a_bomber_on_a_carrier",
        [piece("us1", "bomber", "H"), piece("us2", "carrier", "H")],
        {"step": "regroup:land", "first": "us"},
        "land us1 us2",
        "AAG Landing Capacities",
        "a carrier takes fighters only, no bombers",
    ),
    (
        "land_out_of_range",
        [piece("us1", "fighter", "A")],
        {"step": "regroup:land", "first": "us"},
        "land us1 guadalcanal",
        "AAG Regroup step 2",
        "beyond us1's range of 2",
    ),
    (
        "end_while_an_air_unit_can_land",
        [piece("us1", "fighter", "H")],
        {"step": "regroup:land", "first": "us"},
        "end",
        "AAG Regroup step 2",
        "fighters and bombers must land now: us1 can land on guadalcanal",
    ),
    # --- build, buy, repair, deploy (AAG Regroup steps 3 and 4)
    (
        "build_without_three_supplies",
        [
            piece("us1", "supply", "guadalcanal"),
            piece("us2", "supply", "guadalcanal"),
            piece("us3", "supply", "malaita"),
            piece("us4", "supply", "malaita"),
            piece("us5", "supply", "malaita"),
        ],
        {"step": "regroup:build", "first": "us"},
        "build guadalcanal",
        "AAG Build Airfields",
        "an airfield costs 3 supply tokens of yours on guadalcanal; you have 2 there",
    ),
    (
        "build_on_a_full_island",
        [
            piece("us1", "supply", "bougainville"),
            piece("us2", "supply", "bougainville"),
            piece("us3", "supply", "bougainville"),
        ],
        {
            "step": "regroup:build",
            "first": "us",
            "airfields": [{"island": "bougainville", "side": "jp"}, {"island": "bougainville", "side": "jp"}],
        },
        "build bougainville",
        "AAG Build Airfields",
        "bougainville can have no more than 2 airfield(s)",
    ),
    (
        "build_at_sea",
        [piece("us1", "supply", "malaita"), piece("us2", "supply", "malaita"), piece("us3", "supply", "malaita")],
        {"step": "regroup:build", "first": "us"},
        "build H",
        "AAG Build Airfields",
        "H is not an island zone",
    ),
    (
        "buy_without_the_points",
        [],
        {"step": "regroup:buy", "first": "us", "points": {"us": 3}},
        "buy destroyer",
        "AAG Reinforce",
        "a destroyer costs 5 reinforcement points; you have 3 left",
    ),
    (
        "buy_a_pt_boat",
        [],
        {"step": "regroup:buy", "first": "us", "points": {"us": 30}},
        "buy pt_boat",
        "AAG Appendix 1 PT Boats",
        "a PT boat comes only from a PT Boats advantage token",
    ),
    (
        "buy_an_unknown_type",
        [],
        {"step": "regroup:buy", "first": "us", "points": {"us": 30}},
        "buy tank",
        "AAG Reinforce",
        "there is no unit type 'tank'",
    ),
    (
        "repair_without_supply",
        [piece("us1", "destroyer", NC_SEA, damaged=True), piece("us2", "supply", "guadalcanal")],
        {
            "step": "regroup:repair",
            "first": "us",
            "airfields": [{"island": "guadalcanal", "side": "us", "damaged": True}],
        },
        "repair us1",
        "AAG Repair",
        "costs 1 supply token at your home base (new_caledonia); you have none there",
    ),
    (
        "repair_an_airfield_not_damaged",
        [piece("us1", "supply", "guadalcanal")],
        {"step": "regroup:repair", "first": "us"},
        "repair guadalcanal",
        "AAG Repair",
        "you control no damaged airfield on guadalcanal",
    ),
    (
        "deploy_beyond_the_supplies",
        [piece("us1", "cruiser", NC_SEA), piece("us2", "supply", NC)],
        {"step": "regroup:deploy", "first": "us"},
        "deploy us1 I",
        "AAG Deploy",
        "deploying to I costs 2 supply token(s) at your home base; you have 1",
    ),
    (
        "deploy_to_a_zone_without_a_number",
        [piece("us1", "cruiser", NC_SEA), piece("us2", "supply", NC), piece("us3", "supply", NC)],
        {"step": "regroup:deploy", "first": "us"},
        "deploy us1 A",
        "AAG Deploy",
        "A has no deployment number on your side of the board",
    ),
    (
        "deploy_a_ship_on_the_board",
        [piece("us1", "cruiser", "J"), piece("us2", "supply", NC), piece("us3", "cruiser", NC_SEA)],
        {"step": "regroup:deploy", "first": "us"},
        "deploy us1 K",
        "AAG Deploy",
        "us1 is in J: sea units deploy from new_caledonia_sea",
    ),
    # --- use (AAG Appendix 1 Advantages)
    (
        "use_without_the_option",
        [piece("jp1", "destroyer", "E"), piece("us1", "destroyer", "E")],
        {"step": "combat:sea", "first": "jp"},
        "use night_fighting E",
        "AAG Appendix 1 Advantages",
        "this game is played without advantage tokens",
    ),
    (
        "use_the_other_sides_token",
        [piece("jp1", "destroyer", "E"), piece("us1", "destroyer", "E")],
        {
            "step": "combat:before_sea",
            "first": "jp",
            "options": {"advantages": True},
            "tokens": {"jp": {"night_fighting": 2}, "us": {"pt_boats": 2}},
        },
        "use pt_boats E",
        "AAG Appendix 1 Advantages",
        "pt_boats is not one of jp's advantages",
    ),
    (
        "use_a_spent_token",
        [piece("jp1", "destroyer", "E"), piece("us1", "destroyer", "E")],
        {
            "step": "combat:before_sea",
            "first": "jp",
            "options": {"advantages": True},
            "tokens": {"jp": {"night_fighting": 0, "quick_drop": 1}},
        },
        "use night_fighting E",
        "AAG Appendix 1 Advantages",
        "you have no night_fighting token left",
    ),
    (
        "use_out_of_its_window",
        [piece("jp1", "destroyer", "E"), piece("us1", "destroyer", "E")],
        {
            "step": "combat:before_land",
            "first": "jp",
            "options": {"advantages": True},
            "tokens": {"jp": {"night_fighting": 2, "banzai_charge": 1}},
        },
        "use night_fighting E",
        "AAG Appendix 1 Night Fighting",
        "night_fighting is spent in the moment before the Attack Sea Units step",
    ),
    (
        "night_fighting_where_no_attack",
        [piece("jp1", "destroyer", "E"), piece("us1", "destroyer", "E"), piece("jp2", "destroyer", "H")],
        {
            "step": "combat:before_sea",
            "first": "jp",
            "options": {"advantages": True},
            "tokens": {"jp": {"night_fighting": 2}},
        },
        "use night_fighting H",
        "AAG Appendix 1 Night Fighting",
        "you have no attack on sea units in H",
    ),
]


@pytest.mark.parametrize(
    ("pieces", "fields", "action", "rule", "words"),
    [pytest.param(*case[1:], id=case[0]) for case in CASES],
)
def test_refusal_names_the_rule_and_the_reason(pieces, fields, action, rule, words):
    """Each refusal starts with the rule that forbids the action and says why."""
    state = position(pieces, **fields)
    before = state.to_json()
    with pytest.raises(IllegalAction) as info:
        state.apply(action)
    assert info.value.rule == rule, str(info.value)
    assert words in info.value.message, str(info.value)
    assert "is not legal now" not in info.value.message
    assert state.to_json() == before  # a refusal changes nothing


def test_every_verb_of_the_notation_has_a_refusal_case():
    verbs = {case[3].split()[0] for case in CASES}
    from henderson.games.aag.actions import ARITY

    assert verbs == set(ARITY)


def test_hit_choice_refusal_names_the_candidates_rule_aag_loss_of_cargo():
    """AAG Loss of Cargo: on a 2 the defender chooses among the units of the type hit."""
    pieces = [
        piece("us1", "cruiser", "H"),
        piece("jp1", "transport", "H"),
        piece("jp2", "transport", "H"),
        piece("jp3", "infantry", "H", aboard="jp2"),
        piece("jp4", "cruiser", "H"),
    ]
    choice = {"chooser": "jp", "value": 2, "slot": 5, "type": "transport", "candidates": ["jp1", "jp2"]}
    battle = {"zone": "H", "category": "sea", "stage": 0, "attacker": "us", "dice": [], "choice": choice}
    state = position(pieces, step="combat:sea", first="us", battle=battle)
    with pytest.raises(IllegalAction, match=r"AAG Loss of Cargo: the hit falls on a transport: choose one of jp1, jp2"):
        state.apply("hit jp4")
    with pytest.raises(IllegalAction, match=r"first jp chooses which transport takes the hit of the 2"):
        state.apply("roll")


# --- hidden movement: a refusal never reveals the other side's secret orders ---


def refusals(state, actions: list[str]) -> list[str]:
    out = []
    for text in actions:
        try:
            state.clone().apply(text)
            out.append(f"{text}: legal")
        except IllegalAction as exc:
            out.append(str(exc))
    return out


def probes(state, side: str) -> list[str]:
    """Actions naming the other side's sea units, their zones and every sea zone."""
    opp = other(side)
    units = [p for p in state.pieces.values() if p.side == opp and not p.damaged]
    mine = [p for p in state.pieces.values() if p.side == side and not p.damaged]
    zones = sorted(state.data.board.seas)
    out = []
    for p in units:
        out += [f"move {z} {p.id}" for z in zones]
        out += [f"torpedo {q.id} {p.id}" for q in mine if q.type == "submarine"]
        out += [f"load {p.id} {q.id}" for q in mine[:3]]
        out += [f"join {p.id}", f"deploy {p.id} {zones[0]}", f"repair {p.id}"]
    for q in mine:
        out += [f"move {z} {q.id},{p.id}" for z in zones[:3] for p in units[:3]]
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_refusals_do_not_reveal_secret_sea_orders_rule_aag_hidden_movement(seed: int) -> None:
    """AAG Appendix 1 Hidden Movement: the side writing its orders second gets the same
    refusals whether or not the other side has written any."""
    written = to_orders(seed, orders=3)
    side = written.current_player()
    assert written.orders[other(side)]
    blank = without_orders(written, side)
    tried = probes(written, side)
    said = refusals(written, tried)
    assert said == refusals(blank, tried)
    for text in said:  # no destination or order of the other side is named
        assert "order" not in text and "moved" not in text


def test_a_random_game_refusals_always_say_why() -> None:
    """Near misses of legal actions (one argument changed) in seeded random games: each
    refusal gives a reason, never only that the action is not legal now."""
    g = game()
    rng = random.Random(7)
    zones = g.data.board.zone_ids()
    for seed, options in ((1, {}), (2, {"hidden_movement": True}), (3, {"advantages": True})):
        state = g.new_state(seed, options=options)
        for _ in range(250):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            for action in rng.sample(legal, min(4, len(legal))):
                for i, arg in enumerate(action.args):
                    new = rng.choice(list(state.pieces)) if re.match(r"^(us|jp)\d", arg) else rng.choice(zones)
                    text = " ".join([action.verb, *action.args[:i], new, *action.args[i + 1 :]])
                    try:
                        state.clone().apply(text)
                    except IllegalAction as exc:
                        assert "is not legal now" not in exc.message, str(exc)
            state.apply(rng.choice(legal))
