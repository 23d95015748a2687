"""The optional advantage tokens (AAG Appendix 1: Advantages), one test per token."""

from __future__ import annotations

from henderson.core.record import GameRecord, record_for, replay

from .helpers import acts, game, piece, position, without_dice
from .test_play import play_game

ADV = {"advantages": True}


def finish_window(state) -> None:
    """End the advantage window if a token choice is still open (it ends by itself if not)."""
    while state.step.startswith("combat:before") or state.step == "combat:begin":
        state.apply("end")


def tokens(side: str, **counts: int) -> dict[str, dict[str, int]]:
    return {side: counts}


def test_each_player_gets_eight_tokens():
    state = game().new_state(1, options=ADV)
    assert sum(state.tokens["us"].values()) == 8 and sum(state.tokens["jp"].values()) == 8
    assert "combat:before_sea" in state.steps and "move:deferred" in state.steps


def test_night_fighting_a_2_destroys_rule_aag_appendix_1_night_fighting():
    pieces = [piece("jp1", "cruiser", "E"), piece("us1", "destroyer", "E")]
    state = position(
        pieces,
        [2, 6, 6],
        step="combat:before_sea",
        first="jp",
        options=ADV,
        tokens=tokens("jp", night_fighting=2),
    )
    assert acts(state) == ["use night_fighting E", "end"]
    state.apply("use night_fighting E")
    finish_window(state)
    state.apply("fight E")
    assert "us1" not in state.pieces  # destroyed, not damaged
    assert state.tokens["jp"]["night_fighting"] == 1


def test_banzai_charge_3s_hit_rule_aag_appendix_1_banzai_charge():
    pieces = [piece("jp1", "infantry", "malaita"), piece("us1", "infantry", "malaita")]
    state = position(
        pieces,
        [3, 6],
        step="combat:before_land",
        first="jp",
        options=ADV,
        tokens=tokens("jp", banzai_charge=1),
    )
    state.apply("use banzai_charge malaita")
    finish_window(state)
    state.apply("fight malaita")
    assert "us1" not in state.pieces


def test_pt_boat_takes_a_hit_on_a_missing_type_rule_aag_appendix_1_pt_boats():
    pieces = [
        piece("us1", "cruiser", "H"),
        piece("jp1", "destroyer", "H"),
        piece("jp2", "battleship", "H"),
    ]
    # jp (first) fires 1 + 3 dice; the 1 in slot 4 (carrier, absent) hits the PT boat
    state = position(
        pieces,
        [6, 6, 6, 1, 6, 6, 6],
        step="combat:before_sea",
        first="jp",
        half=1,
        options=ADV,
        tokens=tokens("us", pt_boats=2),
    )
    state.apply("use pt_boats H")
    boat = next(p for p in state.pieces.values() if p.type == "pt_boat")
    finish_window(state)
    state.apply("fight H")
    assert boat.id not in state.pieces and "us1" in state.pieces


def test_command_decision_attack_again_rule_aag_appendix_1_command_decision():
    pieces = [piece("jp1", "destroyer", "E"), piece("us1", "destroyer", "E")]
    state = position(
        pieces,
        [6] * 8,
        step="combat:begin",
        first="jp",
        options=ADV,
        tokens=tokens("jp", command_decision=1),
    )
    assert "use command_decision E air" not in acts(state)  # no air units: nothing to repeat
    state.apply("use command_decision E sea")
    finish_window(state)
    events = state.apply("fight E")
    assert len([e for e in events if e.kind == "roll"]) == 4  # both sides, twice


def test_command_decision_repeat_keeps_ranged_fire_rule_aag_appendix_1_command_decision():
    # "both players attack again": the cruiser that joined the first land attack fires again
    pieces = [
        piece("jp1", "cruiser", "E"),
        piece("jp2", "infantry", "new_georgia"),
        piece("us1", "infantry", "new_georgia"),
        piece("us2", "infantry", "new_georgia"),
    ]
    state = position(
        pieces, [6] * 20, step="combat:begin", first="jp", options=ADV, tokens=tokens("jp", command_decision=1)
    )
    state.apply("use command_decision new_georgia land")
    while state.step != "combat:land":
        state.apply("end")
    state.apply("fight new_georgia")
    events = state.apply("join jp1")
    texts = [e.text for e in events]
    again = next(i for i, t in enumerate(texts) if t.startswith("Command Decision"))
    first = [t for t in texts[:again] if "jp attack" in t]
    repeat = [t for t in texts[again:] if "jp attack" in t]
    assert len(first) == 2 and len(repeat) == 2  # infantry 1 + cruiser 1, both times
    assert not state.pieces["jp1"].joined  # the flag ends with the repeat


def test_command_decision_on_an_island_still_to_be_invaded_rule_aag_appendix_1_command_decision():
    # "At the beginning of Combat": the troops still aboard will unload in Combat step 3
    pieces = [
        piece("jp1", "transport", "E"),
        piece("jp2", "infantry", "E", aboard="jp1"),
        piece("us1", "infantry", "new_georgia"),
    ]
    state = position(
        pieces, [6] * 20, step="combat:begin", first="jp", options=ADV, tokens=tokens("jp", command_decision=1)
    )
    assert "use command_decision new_georgia land" in acts(state)
    assert "use command_decision malaita land" not in acts(state)  # no enemy there


def test_coast_watchers_both_tokens_in_one_turn_rule_aag_appendix_1_coast_watchers():
    pieces = [piece("us1", "cruiser", "J"), piece("us2", "destroyer", "K"), piece("jp1", "cruiser", "E")]
    state = position(
        pieces, step="move:cruiser", first="jp", half=1, options=ADV, tokens=tokens("us", coast_watchers=2)
    )
    state.apply("use coast_watchers cruiser")
    assert state.step == "move:destroyer" and "use coast_watchers destroyer" in acts(state)
    state.apply("use coast_watchers destroyer")
    while state.step != "move:deferred":
        state.apply("end")
    assert state.current_player() == "us"
    assert {"move H us1", "move J us2"} <= set(acts(state))  # both deferred types move now
    state.apply("move H us1")
    state.apply("move J us2")
    assert state.pieces["us1"].zone == "H" and state.pieces["us2"].zone == "J"
    assert state.tokens["us"]["coast_watchers"] == 0
    assert state.to_json()["deferred"] == {"us": ["cruiser", "destroyer"]}


def test_quick_drop_unloads_at_end_of_movement_rule_aag_appendix_1_quick_drop():
    pieces = [
        piece("jp1", "transport", "E"),
        piece("jp2", "infantry", "E", aboard="jp1"),
        piece("jp3", "supply", "E", aboard="jp1"),
    ]
    state = position(
        pieces, step="move:end", first="jp", options=ADV, tokens=tokens("jp", quick_drop=2)
    )
    assert "use quick_drop E new_georgia" in acts(state)
    state.apply("use quick_drop E new_georgia")
    assert state.pieces["jp2"].zone == "new_georgia" and state.pieces["jp2"].aboard is None
    assert state.pieces["jp3"].zone == "new_georgia"


def test_superior_fighters_fly_three_rule_aag_appendix_1_superior_fighters():
    state = position(
        [piece("jp1", "fighter", "rabaul")],
        step="move:fighter",
        first="jp",
        options=ADV,
        tokens=tokens("jp", superior_fighters=2),
    )
    assert "move bougainville jp1" not in acts(state)  # 3 zones: beyond range 2
    state.apply("use superior_fighters")
    assert "move bougainville jp1" in acts(state)


def test_good_logistics_second_supply_free_rule_aag_appendix_1_good_logistics():
    state = position(
        [],
        step="regroup:buy",
        first="us",
        options=ADV,
        points={"us": 14},
        tokens=tokens("us", good_logistics=1),
    )
    state.apply("use good_logistics")
    state.apply("buy supply")
    assert len(state.supplies("us", "new_caledonia")) == 2 and state.points["us"] == 12


def test_amphibious_assault_no_return_fire_rule_aag_appendix_1_amphibious_assault():
    pieces = [
        piece("us1", "infantry", "new_georgia", unloaded=True),
        piece("us2", "infantry", "new_georgia", unloaded=True),
        piece("us3", "artillery", "new_georgia"),
        piece("jp1", "infantry", "new_georgia"),
        piece("jp2", "infantry", "new_georgia"),
    ]
    state = position(
        pieces,
        [1, 6],
        step="combat:before_land",
        first="us",
        options=ADV,
        tokens=tokens("us", amphibious_assault=2),
    )
    events = state.apply("use amphibious_assault new_georgia")
    rolls = [e for e in events if e.kind == "roll"]
    assert len(rolls) == 2  # the two infantry unloaded this turn; no Japanese dice
    assert len(state.in_zone("new_georgia", "jp")) == 1
    # the island's own land combat still follows
    assert state.step == "combat:land" and acts(state) == ["fight new_georgia"]


def test_coast_watchers_move_a_type_last_rule_aag_appendix_1_coast_watchers():
    pieces = [
        piece("us1", "cruiser", "J"),
        piece("jp1", "cruiser", "E"),
        piece("jp2", "fighter", "bougainville"),
    ]
    state = position(
        pieces,
        step="move:cruiser",
        first="jp",
        half=1,
        options=ADV,
        tokens=tokens("us", coast_watchers=2),
    )
    state.apply("use coast_watchers cruiser")
    assert state.current_player() == "jp" and state.step == "move:fighter"
    state.apply("move E jp2")  # the Japanese fighter moves before the US cruiser
    assert state.step == "move:deferred" and state.current_player() == "us"
    state.apply("move H us1")
    assert state.pieces["us1"].zone == "H"


def test_random_play_with_advantages_replays():
    g, state, record = play_game(7, options=ADV)
    again = replay(GameRecord.loads(record.dumps()), g)
    assert without_dice(again) == without_dice(state)
    assert isinstance(record_for(g, state), GameRecord)
