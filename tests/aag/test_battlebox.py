"""The battle box and the manual's combat examples, slot by slot (AAG Combat)."""

from __future__ import annotations

from henderson.games.aag.rules.battlebox import effect, target_type

from .helpers import acts, game, piece, position


def test_hit_on_absent_type_goes_up_the_neck_rule_aag_hitting_units_the_enemy_doesnt_have():
    # 12 dice at 2 destroyers, 1 cruiser, 1 battleship: a transport hit goes to a destroyer
    neck = game().data.neck
    assert target_type(neck, "sea", 5, {"destroyer", "cruiser", "battleship"}) == "destroyer"
    assert target_type(neck, "sea", 11, {"cruiser", "battleship"}) == "cruiser"
    assert target_type(neck, "sea", 5, set()) is None


def test_resilience_and_second_hit_rule_aag_damaging_and_destroying_units():
    assert effect(True, False, 2) == "damaged"
    assert effect(True, False, 1) == "destroyed"
    assert effect(True, True, 2) == "destroyed"
    assert effect(False, False, 2) == "destroyed"


def sea_attack_example():
    pieces = [
        piece("us1", "battleship", "H"),
        piece("us2", "cruiser", "H"),
        piece("us3", "cruiser", "H"),
        piece("us4", "destroyer", "H"),
        piece("us5", "destroyer", "H"),
        piece("us6", "destroyer", "H"),
        piece("jp1", "destroyer", "H"),
        piece("jp2", "infantry", "H", aboard="jp1"),
        piece("jp3", "destroyer", "H"),
        piece("jp4", "cruiser", "H"),
        piece("jp5", "battleship", "H"),
        piece("jp6", "transport", "H"),
        piece("jp7", "supply", "H", aboard="jp6"),
        piece("jp8", "artillery", "H", aboard="jp6"),
        piece("jp9", "transport", "H"),
    ]
    us_dice = [2, 1, 1, 1, 2, 3, 2, 6, 3, 2]  # the example's first 10 dice
    jp_dice = [6] * 7  # the defender's return fire misses
    return position(pieces, us_dice + jp_dice, step="combat:sea", first="us")


def test_sea_attack_example_slot_by_slot_rule_aag_example_of_a_sea_attack():
    state = sea_attack_example()
    assert acts(state) == ["fight H"]
    state.apply("fight H")
    # slot 1: a 2 on a destroyer: the defender chooses, and keeps the infantry afloat
    assert state.current_player() == "jp"
    assert acts(state) == ["hit jp1", "hit jp3"]
    state.apply("hit jp3")
    pieces = state.pieces
    assert pieces["jp3"].hit == "damaged"
    assert pieces["jp4"].hit == "destroyed"  # slot 2: a 1 destroys the cruiser
    assert pieces["jp5"].armor_used  # slot 3: heavy armour ignores the hit
    assert pieces["jp1"].hit == "destroyed"  # slot 4: carrier absent -> the undamaged destroyer
    # slot 5: a 2 on a transport: the defender chooses the empty one
    assert state.current_player() == "jp" and acts(state) == ["hit jp6", "hit jp9"]
    events = state.apply("hit jp9")
    texts = [e.text for e in events]
    # slot 7: the damaged destroyer is destroyed; slot 10: carrier absent -> battleship damaged
    assert any("jp3 (destroyer) destroyed" in t for t in texts)
    assert "jp5" in state.pieces and state.pieces["jp5"].damaged
    assert state.pieces["jp5"].zone == "rabaul_sea"
    left = sorted(p.id for p in state.in_zone("H", "jp"))
    assert left == ["jp6", "jp7", "jp8"]  # a lone transport delivering an artillery and supply
    assert all(k not in state.pieces for k in ("jp1", "jp2", "jp3", "jp4", "jp9"))
    assert state.vp == {"us": 0, "jp": 0}  # a damaged battleship scores nothing


def test_both_sides_fire_before_casualties_are_removed_rule_aag_combat_step_2():
    state = sea_attack_example()
    state.apply("fight H")
    state.apply("hit jp3")
    rolls = [e for e in state.apply("hit jp9") if e.kind == "roll"]
    assert len(rolls) == 7  # the Japanese destroyers, cruiser and battleship all fire back


def test_battle_box_example_air_attack_8_dice_rule_aag_battle_box_example():
    pieces = [piece(f"us{i}", "fighter", "E") for i in range(1, 5)]
    pieces += [piece(f"jp{i}", "fighter", "E") for i in range(1, 4)] + [piece("jp4", "bomber", "E")]
    state = position(pieces, [1, 4, 5, 6, 2, 3, 4, 1] + [6] * 7, step="combat:air", first="us")
    state.apply("fight E")
    left = sorted(p.type for p in state.in_zone("E", "jp"))
    assert left == [
        "fighter"
    ]  # hits on a fighter (slot 1), the bomber (slot 5), a fighter (slot 8)


def cargo_example(value: int):
    pieces = [
        piece("us1", "battleship", "H"),
        piece("us2", "cruiser", "H"),
        piece("jp1", "transport", "H"),
        piece("jp2", "transport", "H"),
        piece("jp3", "supply", "H", aboard="jp2"),
        piece("jp4", "supply", "H", aboard="jp2"),
    ]
    return position(pieces, [6, 6, 6, 6, value], step="combat:sea", first="us")


def test_loss_of_cargo_example_a_1_lets_the_attacker_choose_rule_aag_loss_of_cargo():
    state = cargo_example(1)
    state.apply("fight H")
    assert state.current_player() == "us"
    state.apply("hit jp2")
    assert "jp2" not in state.pieces and "jp3" not in state.pieces and "jp4" not in state.pieces
    assert "jp1" in state.pieces


def test_loss_of_cargo_example_a_2_lets_the_defender_choose_rule_aag_loss_of_cargo():
    state = cargo_example(2)
    state.apply("fight H")
    assert state.current_player() == "jp"
    state.apply("hit jp1")
    assert "jp1" not in state.pieces and {"jp2", "jp3", "jp4"} <= set(state.pieces)


def test_carrier_hit_fighters_stay_in_zone_rule_aag_loss_of_cargo():
    pieces = [
        piece("us1", "battleship", "H"),
        piece("jp1", "carrier", "H"),
        piece("jp2", "fighter", "H", aboard="jp1"),
    ]
    # us: 3 dice; a 1 in slot 1 (destroyer) goes up the neck to the carrier; the fighter's
    # return die misses
    state = position(pieces, [1, 6, 6, 6], step="combat:sea", first="us")
    events = [e.text for e in state.apply("fight H")]
    assert any("jp1 (carrier) destroyed" in t for t in events)
    assert not any("jp2" in t and "lost with" in t for t in events)
    # the fighter was left in H and, with nowhere in range to land, is lost in Regroup
    assert any("jp2 (fighter) destroyed (no place to land)" in t for t in events)
    assert state.vp_ships["us"] == 1  # AAG Capital Ship


def test_heavy_armor_once_per_turn_torpedo_then_combat_rule_aag_heavy_armor():
    pieces = [
        piece("us1", "submarine", "H"),
        piece("us2", "cruiser", "H"),
        piece("jp1", "battleship", "H"),
    ]
    state = position(pieces, [1, 6, 2, 6, 6, 6], step="move:submarine", first="us")
    state.apply("torpedo us1 jp1")
    assert state.pieces["jp1"].armor_used and state.pieces["jp1"].hit is None
    assert state.step == "combat:sea"  # nothing else to decide until combat
    state.apply("fight H")  # the cruiser's 2 in slot 2 goes up the neck to the battleship
    assert state.pieces["jp1"].damaged  # the armour was spent on the torpedo: no second ignore


def test_torpedo_casualties_removed_after_all_submarines_rule_aag_submarine():
    pieces = [
        piece("us1", "submarine", "H"),
        piece("us2", "submarine", "H"),
        piece("jp1", "destroyer", "H"),
    ]
    state = position(pieces, [2, 2], step="move:submarine", first="us")
    state.apply("torpedo us1 jp1")
    assert state.pieces["jp1"].hit == "damaged" and not state.pieces["jp1"].damaged
    texts = [e.text for e in state.apply("torpedo us2 jp1")]  # the damaged one again
    assert texts[1] == "us2 hits jp1 (destroyer): destroyed"
    assert "jp1 (destroyer) destroyed (torpedo attack)" in texts  # removed once all have fired
    assert "jp1" not in state.pieces


def test_airfield_attack_one_damage_per_two_hits_rule_aag_combat_step_4():
    pieces = [
        piece("us1", "bomber", "bougainville"),
        piece("us2", "bomber", "bougainville"),
        piece("jp1", "infantry", "bougainville"),
    ]
    # us aims both bombers (4 land dice) at the airfield: 1, 2, 1, 6 = 3 hits -> 1 damage
    state = position(pieces, [1, 2, 1, 6, 6], step="combat:land", first="us")
    state.apply("fight bougainville")
    assert "aim us1" in acts(state)
    state.apply("aim us1")
    state.apply("aim us2")  # nothing left to declare: the attack is rolled at once
    field = next(a for a in state.airfields if a.island == "bougainville")
    assert field.damaged


def test_ranged_fire_artillery_into_one_sea_zone_per_turn_rule_aag_artillery():
    pieces = [
        piece("us1", "artillery", "guadalcanal"),
        piece("jp1", "transport", "H"),
        piece("jp2", "transport", "G"),
    ]
    state = position(pieces, [1, 1], step="combat:sea", first="us")
    assert acts(state) == ["fight G", "fight H"]  # no friendly unit needed in the zone
    state.apply("fight H")
    assert acts(state) == ["join us1", "roll"]
    events = state.apply("join us1")  # nothing left to declare: rolled at once
    assert "jp1" not in state.pieces
    assert not any("G" in str(e.data.get("zone", "")) for e in events if e.kind == "battle")
    assert "jp2" in state.pieces  # fired into H: no second sea zone this turn


def test_ranged_fire_cruiser_into_island_rule_aag_cruiser():
    pieces = [piece("us1", "cruiser", "G"), piece("jp1", "infantry", "new_georgia")]
    state = position(pieces, [2], step="combat:land", first="us")
    state.apply("fight new_georgia")
    state.apply("join us1")
    assert "jp1" not in state.pieces
