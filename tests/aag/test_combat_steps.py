"""AAG Phase 2 Combat and the submarine's Movement step: unloading (Combat step 3), heavy
armour with several battleships (Loss of Cargo), a submarine moving and then attacking
(Movement step 6), and airfield attacks (Combat step 4)."""

from __future__ import annotations

import pytest

from henderson.core.errors import IllegalAction
from henderson.games.aag.state import Airfield

from .helpers import acts, piece, position


def unload_position():
    pieces = [
        piece("us1", "transport", "H"),
        piece("us2", "infantry", "H", aboard="us1"),
        piece("us3", "supply", "H", aboard="us1"),
        piece("us4", "destroyer", "H"),
        piece("us5", "artillery", "H", aboard="us4"),
        piece("jp1", "destroyer", "E"),
        piece("jp2", "infantry", "E", aboard="jp1"),
    ]
    return position(pieces, [6] * 10, step="unload", first="us")


def test_unload_onto_different_adjacent_islands_rule_aag_combat_step_3():
    state = unload_position()
    assert state.current_player() == "us"  # the first player unloads first
    # H touches Guadalcanal, Santa Isabel and Malaita: each piece may go to any of them
    for uid in ("us2", "us3", "us5"):
        assert {f"unload {uid} {z}" for z in ("guadalcanal", "santa_isabel", "malaita")} <= set(
            acts(state)
        )
    assert not any("new_georgia" in a or "bougainville" in a for a in acts(state))
    # "A transport carrying 2 units and/or supply tokens may unload them onto different
    # island zones": the infantry to Guadalcanal, the supply to Malaita
    state.apply("unload us2 guadalcanal")
    state.apply("unload us3 malaita")
    assert state.pieces["us2"].zone == "guadalcanal" and state.pieces["us2"].aboard is None
    assert state.pieces["us3"].zone == "malaita" and state.pieces["us3"].aboard is None
    assert state.pieces["us2"].unloaded and state.pieces["us3"].unloaded
    state.apply("unload us5 santa_isabel")  # the destroyer's cargo, to a third island
    assert state.pieces["us5"].zone == "santa_isabel"
    # all United States cargo is ashore: the other player then does the same
    assert state.step == "unload" and state.current_player() == "jp"
    assert acts(state) == [
        "unload jp2 bougainville",
        "unload jp2 new_georgia",
        "unload jp2 choiseul",
        "unload jp2 santa_isabel",
        "end",
    ]


def test_unloading_is_optional_rule_aag_combat_step_3():
    # "may unload": a side may keep its cargo aboard
    state = unload_position()
    state.apply("end")
    assert state.current_player() == "jp"
    assert state.pieces["us2"].aboard == "us1" and state.pieces["us5"].aboard == "us4"


def test_no_unloading_onto_the_enemy_base_rule_aag_combat_step_3():
    # ruling 1: the enemy base card is off limits even to a ship in its sea zone (the
    # position is hand-written: no legal move brings it there)
    pieces = [
        piece("jp1", "transport", "new_caledonia_sea"),
        piece("jp2", "infantry", "new_caledonia_sea", aboard="jp1"),
        piece("us1", "transport", "new_caledonia_sea"),
        piece("us2", "infantry", "new_caledonia_sea", aboard="us1"),
    ]
    state = position(pieces, step="unload", first="jp")
    assert state.current_player() == "jp" and acts(state) == ["end"]
    state.apply("end")
    assert state.pieces["jp2"].aboard == "jp1"
    # the owner may unload at its own base (ruling 2: the base land zone is adjacent)
    assert state.current_player() == "us" and "unload us2 new_caledonia" in acts(state)


def test_unloaded_units_attack_in_step_4_rule_aag_combat_step_3():
    pieces = [
        piece("us1", "transport", "H"),
        piece("us2", "infantry", "H", aboard="us1"),
        piece("us3", "infantry", "H", aboard="us1"),
        piece("jp1", "infantry", "malaita"),
    ]
    state = position(pieces, [1, 6, 6], step="unload", first="us")
    state.apply("unload us2 malaita")
    state.apply("unload us3 malaita")
    assert state.step == "combat:land" and acts(state) == ["fight malaita"]
    events = state.apply("fight malaita")
    assert sum(1 for e in events if e.kind == "roll" and "us attack" in e.text) == 2
    assert "jp1" not in state.pieces


def two_battleships(dice: list[int], **extra):
    pieces = [
        piece("us1", "battleship", "H"),
        piece("us2", "cruiser", "H"),  # 3 + 2 = 5 sea dice: slots 1-5
        piece("jp1", "battleship", "H", **extra),
        piece("jp2", "battleship", "H"),
    ]
    return position(pieces, dice + [6] * 6, step="combat:sea", first="us")


def test_several_battleships_each_ignore_one_hit_first_rule_aag_loss_of_cargo():
    # "if there are multiple battleships involved, 1 hit will be ignored for each one
    # before any hits are assigned to them": slots 1 and 2 (destroyer, cruiser: absent)
    # go up the neck to the battleships and are ignored, one each; only the third hit
    # (slot 3, a 2) damages one of them
    state = two_battleships([2, 1, 2, 6, 6])
    texts = [e.text for e in state.apply("fight H")]
    assert "slot 1: jp1 ignores the hit (heavy armour)" in texts
    assert "slot 2: jp2 ignores the hit (heavy armour)" in texts
    assert "slot 3: 2 hits jp1 (battleship): damaged" in texts
    assert state.pieces["jp1"].damaged and not state.pieces["jp2"].damaged
    assert state.pieces["jp2"].zone == "H"


def test_two_hits_on_two_battleships_are_both_ignored_rule_aag_loss_of_cargo():
    # a 1 first does not destroy a battleship while the other still has its armour
    state = two_battleships([1, 1, 6, 6, 6])
    state.apply("fight H")
    assert {"jp1", "jp2"} <= set(state.pieces)
    assert not state.pieces["jp1"].damaged and not state.pieces["jp2"].damaged
    assert state.pieces["jp1"].armor_used and state.pieces["jp2"].armor_used


def test_fresh_battleship_ignores_before_a_spent_one_is_hit_rule_aag_loss_of_cargo():
    # jp1's armour was spent on a torpedo earlier this turn; the first hit on the
    # battleships still goes to jp2's armour, and only the second one lands
    state = two_battleships([1, 6, 6, 6, 6], armor_used=True)
    texts = [e.text for e in state.apply("fight H")]
    assert "slot 1: jp2 ignores the hit (heavy armour)" in texts
    assert {"jp1", "jp2"} <= set(state.pieces)
    state = two_battleships([1, 1, 6, 6, 6], armor_used=True)
    state.apply("fight H")
    assert len([k for k in ("jp1", "jp2") if k in state.pieces]) == 1  # one destroyed


def test_submarine_moves_then_attacks_rule_aag_movement_step_6():
    # "The submarine may make this attack even if it does not move, but it happens after
    # you move": a submarine moves J -> H and torpedoes the destroyer it finds there
    pieces = [piece("us1", "submarine", "J"), piece("jp1", "destroyer", "H")]
    state = position(pieces, [1], step="move:submarine", first="us")
    assert not any(a.startswith("torpedo") for a in acts(state))  # nothing to hit in J
    state.apply("move H us1")
    assert acts(state) == ["torpedo us1 jp1", "end"]
    texts = [e.text for e in state.apply("torpedo us1 jp1")]
    assert "us1 hits jp1 (destroyer): destroyed" in texts
    # removed once the side's submarines have attacked, before it can attack in Combat
    assert "jp1" not in state.pieces and state.pieces["us1"].zone == "H"


def test_submarine_cannot_move_after_attacking_rule_aag_movement_step_6():
    # ruling 9: the attack comes after the move (or the decision not to move)
    pieces = [
        piece("us1", "submarine", "H"),
        piece("jp1", "destroyer", "H"),
        piece("jp2", "transport", "H"),
    ]
    state = position(pieces, [6] * 4, step="move:submarine", first="us")
    assert "move G us1" in acts(state)
    state.apply("torpedo us1 jp1")
    assert not any(a.startswith("move") or a.startswith("torpedo") for a in acts(state))


def airfield_attack(fields: list[dict], dice: list[int], island: str = "bougainville"):
    pieces = [
        piece("us1", "bomber", island),
        piece("us2", "bomber", island),
        piece("us3", "infantry", island),
        piece("jp1", "infantry", island),
    ]
    state = position(pieces, dice, step="combat:land", first="us", airfields=fields)
    state.apply(f"fight {island}")
    assert "aim us3" not in acts(state)  # land units never attack airfields
    state.apply("aim us1")
    # nothing left to declare: rolled at once, the infantry's die against land units
    # first, then the 4 airfield dice
    return state, state.apply("aim us2")


def test_four_hits_damage_two_airfields_on_one_island_rule_aag_combat_step_4():
    fields = [{"island": "bougainville", "side": "jp"}, {"island": "bougainville", "side": "jp"}]
    state, events = airfield_attack(fields, [6, 1, 2, 1, 2, 6])
    assert [a.damaged for a in state.airfields] == [True, True]
    assert sum(1 for e in events if e.kind == "airfield") == 2


def test_three_hits_on_two_airfields_damage_one_rule_aag_combat_step_4():
    fields = [{"island": "bougainville", "side": "jp"}, {"island": "bougainville", "side": "jp"}]
    state, _ = airfield_attack(fields, [6, 1, 2, 1, 6, 6])
    assert sorted(a.damaged for a in state.airfields) == [False, True]


def test_one_damage_marker_per_airfield_rule_aag_combat_step_4():
    # "an airfield can never have more than 1 damaged marker": 4 hits on an island with
    # one damaged and one undamaged airfield damage only the undamaged one; the two
    # surplus hits do nothing (no airfield is removed)
    fields = [
        {"island": "bougainville", "side": "jp", "damaged": True},
        {"island": "bougainville", "side": "jp"},
    ]
    state, events = airfield_attack(fields, [6, 1, 1, 2, 2, 6])
    assert state.airfields == [
        Airfield(island="bougainville", side="jp", damaged=True),
        Airfield(island="bougainville", side="jp", damaged=True),
    ]
    assert sum(1 for e in events if e.kind == "airfield") == 1


def test_airfield_attack_damages_only_enemy_airfields_rule_aag_combat_step_4():
    # "damage one enemy-controlled airfield in the zone": the attacker's own airfield on
    # the same island is never damaged by its attack
    fields = [{"island": "new_georgia", "side": "us"}, {"island": "new_georgia", "side": "jp"}]
    state, _ = airfield_attack(fields, [6, 1, 1, 1, 1, 6], island="new_georgia")
    assert state.airfields == [
        Airfield(island="new_georgia", side="us", damaged=False),
        Airfield(island="new_georgia", side="jp", damaged=True),
    ]


def test_more_than_twelve_dice_use_the_box_again_rule_aag_roll_dice_in_the_battle_box():
    """AAG Roll Dice in the Battle Box: "If you have an attack of greater than 12 dice, you'll
    need to use the box again": the 13th die lies in slot 1 again (a destroyer at sea)."""
    pieces = [piece(f"us{i}", "battleship", "H") for i in range(1, 5)]  # 12 sea dice
    pieces += [piece("us5", "destroyer", "H"), piece("jp1", "transport", "H"), piece("jp2", "destroyer", "H")]
    state = position(pieces, [6] * 12 + [1] + [6], step="combat:sea", first="us")
    texts = [e.text for e in state.apply("fight H")]
    assert sum(1 for t in texts if "us attack on sea units in H" in t) == 13
    assert "slot 1: 1 hits jp2 (destroyer): destroyed" in texts
    assert "jp2" not in state.pieces and "jp1" in state.pieces


def test_land_units_aboard_ships_do_not_attack_rule_aag_land_units():
    """AAG Land Units: "Land units can attack only when in an island zone": an artillery
    aboard a transport adds no die at sea and cannot fire from the ship."""
    pieces = [
        piece("us1", "transport", "H"),
        piece("us2", "artillery", "H", aboard="us1"),
        piece("us3", "destroyer", "H"),
        piece("jp1", "transport", "H"),
    ]
    state = position(pieces, [6, 6], step="combat:sea", first="us")
    events = state.apply("fight H")  # nothing to declare: the destroyer's die alone
    assert sum(1 for e in events if e.kind == "roll") == 1
    ashore = position(
        [piece("us2", "artillery", "guadalcanal"), piece("us3", "destroyer", "H"), piece("jp1", "transport", "H")],
        [6, 6],
        step="combat:sea",
        first="us",
    )
    ashore.apply("fight H")
    assert acts(ashore) == ["join us2", "roll"]  # from the island it may fire into H


def test_artillery_that_fired_at_sea_attacks_land_units_on_its_island_rule_aag_artillery():
    """AAG Artillery: Ranged Fire limits it to 1 adjacent sea zone per turn; its land attack
    in its own island zone (Combat step 4) is not ranged fire and still happens."""
    pieces = [
        piece("us1", "artillery", "guadalcanal"),
        piece("jp1", "transport", "H"),
        piece("jp2", "infantry", "guadalcanal"),
    ]
    state = position(pieces, [6, 6, 6], step="combat:sea", first="us")
    state.apply("fight H")
    state.apply("join us1")  # fires into H: 1 die at sea
    assert state.pieces["us1"].fired
    assert state.step == "combat:land" and acts(state) == ["fight guadalcanal"]
    events = state.apply("fight guadalcanal")
    assert sum(1 for e in events if e.kind == "roll" and "us attack on land units" in e.text) == 1


def test_heavy_armor_is_ready_again_next_turn_rule_aag_battleship():
    """AAG Battleship Heavy Armor: "Ignore the first hit on each battleship each turn"."""
    pieces = [piece("us1", "battleship", "J", armor_used=True)]
    state = position(pieces, step="regroup:deploy", first="us", airfields=[])
    assert state.pieces["us1"].armor_used
    state.apply("end")  # end of the turn: the marker passes
    assert state.turn == 2 and not state.pieces["us1"].armor_used


def test_torpedo_sinking_a_carrier_scores_a_victory_point_rule_aag_capital_ship():
    """AAG Capital Ship: the opponent earns 1 victory point for destroying a carrier or a
    battleship, a torpedo attack included; damaging one earns nothing."""
    pieces = [piece("us1", "submarine", "H"), piece("us2", "submarine", "H"), piece("jp1", "carrier", "H"),
              piece("jp2", "carrier", "H")]
    state = position(pieces, [1, 2], step="move:submarine", first="us")
    state.apply("torpedo us1 jp1")
    state.apply("torpedo us2 jp2")
    assert "jp1" not in state.pieces and state.pieces["jp2"].damaged
    assert state.vp == {"us": 1, "jp": 0} and state.vp_ships["us"] == 1


def test_first_player_picks_only_zones_where_it_can_fire_rule_aag_combat_sequence():
    # "the first player chooses the order in which zones are resolved": a zone where only the
    # other side can fire (the United States' lone transport in H) is no choice of theirs
    pieces = [
        piece("us1", "transport", "H"),
        piece("jp1", "destroyer", "H"),
        piece("us2", "destroyer", "E"),
        piece("jp2", "destroyer", "E"),
    ]
    state = position(pieces, [6] * 3, step="combat:sea", first="us", airfields=[])
    assert acts(state) == ["fight E"]
    with pytest.raises(IllegalAction, match="us has nothing to fire with in H: only jp attacks there"):
        state.apply("fight H")
    texts = [e.text for e in state.apply("fight E")]
    # E fought by both sides, then H by itself: the Japanese destroyer's die at the transport
    assert "AAG Combat step 2: jp's attack on sea units in H: 1 dice, no hits" in texts
    assert state.step != "combat:sea"


def test_a_zone_only_the_other_side_can_fire_in_is_fought_by_itself_rule_aag_combat_sequence():
    pieces = [piece("us1", "transport", "H"), piece("jp1", "destroyer", "H")]
    state = position(pieces, [1] + [6] * 3, step="move:fighter", first="us", airfields=[])
    texts = [e.text for e in state.apply("end")]
    assert not any(t.startswith("fight") for t in acts(state))
    assert "AAG Combat step 2: jp's attack on sea units in H: 1 dice, 1 hit (slot 1)" in texts
    assert "us1" not in state.pieces


def test_every_attack_says_its_result_rule_aag_declare_your_hits():
    pieces = [piece("us1", "destroyer", "H"), piece("jp1", "destroyer", "H"), piece("jp2", "destroyer", "H")]
    state = position(pieces, [6, 2, 6], step="combat:sea", first="us", airfields=[])
    attacks = [e.text for e in state.apply("fight H") if e.kind == "attack"]
    assert attacks == [
        "AAG Combat step 2: us's attack on sea units in H: 1 dice, no hits",
        "AAG Combat step 2: jp's attack on sea units in H: 2 dice, 1 hit (slot 1)",
    ]


def test_an_attack_with_no_unit_joined_says_so_rule_aag_ranged_fire():
    # "this may be done even if there are no friendly units in the attacked zone": the
    # artillery on Guadalcanal may fire into H; declining, the Japanese roll no dice
    pieces = [piece("us1", "transport", "H"), piece("jp1", "artillery", "guadalcanal")]
    state = position(pieces, [6] * 4, step="move:fighter", first="us", airfields=[])
    state.apply("end")  # on to Combat: H is fought by itself, the Japanese declare
    assert state.current_player() == "jp" and acts(state) == ["join jp1", "roll"]
    texts = [e.text for e in state.apply("roll")]
    assert "AAG Combat step 2: jp rolls no dice in H (no unit attacks there)" in texts
    assert "us1" in state.pieces


def test_an_airfield_attack_says_its_result_rule_aag_combat_step_4():
    fields = [{"island": "bougainville", "side": "jp"}]
    _, events = airfield_attack(fields, [6, 6, 1, 2, 6, 6] + [6] * 4)
    attacks = [e.text for e in events if e.kind == "attack"]
    said = "AAG Combat step 4: us's attack on the airfields in bougainville: 4 dice, 2 hits, 1 airfield damaged"
    assert said in attacks
