"""Victory (DG 9), Rabaul (DG 10), guerrillas (DG 11), random events (DG 5) and the turn
end (DG 12)."""

from __future__ import annotations

import pytest

from henderson.core.errors import IllegalAction
from henderson.games.deluxe.rules.assault import defense_strength
from henderson.games.deluxe.rules.common import award_vp, vp_text
from henderson.games.deluxe.rules.rabaul import available
from henderson.sim.play import play_game

from .support import GAME, rolls, state


def test_zero_sum_victory_points_example():  # DG 9.0 example
    s = state(10, "us_move", {})
    s.vp = -8  # Japan has eight points
    award_vp(s, "us", 10, [], "test")
    assert s.vp == 2 and vp_text(s.vp) == "US 2"


def test_guerrilla_example():  # DG 11.0 example
    s = state(10, "guerrilla", {"7/1": "3507"}, dice=[5, 3], supply={"us": 2})
    aola, tasimboko = "7706", "6004"
    assert s.data.map.villages[aola] == "Aola" and s.data.map.villages[tasimboko] == "Tasimboko"
    legal = {str(a) for a in s.legal_actions()}
    assert {f"guerrilla {aola}", f"guerrilla {tasimboko}"} <= legal
    s.apply(f"guerrilla {aola}")
    ev = s.apply(f"guerrilla {tasimboko}")
    assert s.villages[aola] == "us" and s.villages[tasimboko] == "jp"
    assert s.supply["us"] == 0
    assert rolls(ev)[0] == ("DG 11.0 guerrilla activity", 3)


def test_guerrillas_need_a_village_free_of_japanese_zones():  # DG 11.0
    s = state(10, "guerrilla", {"7/1": "3507", "124/2": "6005"}, supply={"us": 5})
    assert "guerrilla 6004" not in {str(a) for a in s.legal_actions()}
    with pytest.raises(IllegalAction, match=r"DG 11\.0"):
        s.apply("guerrilla 6004")


def test_rabaul_periods_example():  # DG 10.1 example
    def avail(turn):
        return {u.id for u in available(state(turn, "us_move", {}))}

    assert "2Ar" not in avail(9) and "2Ar" in avail(10) and "2Ar" in avail(26)  # periods 2-4
    assert "H1" not in avail(14) and "H1" in avail(15) and "H1" in avail(20)  # periods 3-4
    assert "3Kr" in avail(5) and "3Kr" not in avail(15)  # periods 1-2


def picks_offered(turn):
    """The Rabaul units offered at the end of `turn` after the Japanese captured the field
    (DG 10.2.1: two units of any strength), for the next turn's reinforcements."""
    s = state(
        turn,
        "turn_end",
        {"124/2": "3707"},
        open=False,
        henderson_field={"status": 20, "control": "jp"},
        flags={"jp_captured": True, "capture_bonus_given": True},
    )
    if not s.pending:
        return set()
    assert s.pending[-1].kind == "rabaul" and s.current_player() == "jp"
    return {a.args[0] for a in s.legal_actions() if a.verb == "rabaul"}


@pytest.mark.parametrize(
    ("turn", "offered", "not_offered"),
    [
        (4, {"3Kr", "51Eng", "230/3"}, {"2Ar", "6Ss"}),  # they land in turn 5: period 1
        (9, {"2Ar", "6Ss", "10Mt", "3Kr"}, {"H1", "41/1"}),  # turn 10: period 2
        (14, {"H1", "H2", "41/1", "2Ar"}, {"3Kr", "21Br"}),  # turn 15: period 3
        (19, {"21Br", "H1", "2Ar"}, {"6Ss", "10Mt", "3Kr"}),  # turn 20: period 4
    ],
)
def test_dg_10_1_rabaul_picks_come_from_the_period_they_arrive_in(turn, offered, not_offered):
    # DG 10.2.1-2: the units picked are added "to the next turn's reinforcements", and DG 10.1
    # "as long as a unit is available, it can be selected": available in the period of the
    # turn it arrives, not of the turn it is picked in
    got = picks_offered(turn)
    assert offered <= got and not (not_offered & got), (offered - got, not_offered & got)


def test_dg_10_1_no_rabaul_pick_before_the_first_period():
    # picks made at the end of turn 3 would land in turn 4, before the first period (turn 5)
    assert picks_offered(3) == set()


def test_village_points_each_half_turn():  # DG 9.1, 9.2: after the reinforcement step
    s = GAME.new_state(1)
    assert s.vp == 0  # the US holds no village at the start (DG 9.3)
    s2 = state(10, "jp_supply", {}, open=False, villages={"3507": "us"})
    assert s2.vp == -8  # eight villages for Japan, once its reinforcements have landed


def test_villages_score_after_the_reinforcements_land():  # DG 9.1 "(after arrival of ...)"
    gone = {u.id: "eliminated" for u in GAME.data.units.values() if u.side == "us" and u.arrival < 7}
    s = state(7, "us_vp", gone, dice=[3], open=False)  # the 7th Marines arrive on turn 7
    s.apply("pass")  # no naval bombardment
    assert s.step == "us_reinforce" and s.vp == 0  # step 2 scored no village
    s.apply("land 7/1 3507")  # Kukum, held by Japan, is taken by the landing
    s.apply("land 7/2 3507")
    s.apply("land 7/3 3507")
    assert s.step != "us_reinforce"
    assert s.villages["3507"] == "us"
    assert s.vp == 1  # Kukum scored for the US this turn, as held after the landings


def test_henderson_field_points_and_game_end():  # DG 9.1, 9.2, 9.4, 12.0
    s = state(
        26,
        "turn_end",
        {"7/1": "3707"},
        open=False,
        vp=5,
        henderson_field={"status": 12, "control": "us"},
    )
    assert s.is_terminal() and s.winner() == "us" and s.vp == 8  # +3 for the field
    s = state(
        26, "turn_end", {}, open=False, vp=50, henderson_field={"status": 5, "control": "jp"}
    )
    assert s.winner() == "jp"  # Japan holds the field at the end, whatever the points
    s = state(
        12,
        "turn_end",
        {},
        open=False,
        vp=-55,
        henderson_field={"status": 20, "control": "jp"},
        flags={"hf_jp_start": True, "hf_op_start": True},
    )
    assert s.winner() == "jp" and s.vp == -62  # more than sixty at a turn end
    assert s.returns() == {"us": -1.0, "jp": 1.0}


@pytest.mark.parametrize(
    ("vp", "field", "winner", "cause"),
    [
        (70, "us", "us", "61+ victory points"),  # DG 9.4
        (12, "jp", "jp", "Henderson Field held at the end"),  # DG 9.4
        (12, "us", "us", "more victory points at the end"),  # DG 9.0
        (-12, "us", "jp", "more victory points at the end"),
        (-3, "us", None, "even victory points at the end"),  # +3 for the field: even
    ],
)
def test_cause_of_victory(vp, field, winner, cause):  # read by `simulate` (sim/play.py)
    s = state(26, "turn_end", {}, open=False, vp=vp, henderson_field={"status": 12, "control": field})
    assert s.is_terminal() and s.winner() == winner and s.end_cause == cause
    assert GAME.new_state(1).end_cause is None


def test_simulate_reports_the_cause():
    result = play_game(GAME, {"us": "random", "jp": "random"}, 3, 0, max_plies=20000)
    assert result["cause"] in {
        "61+ victory points",
        "Henderson Field held at the end",
        "more victory points at the end",
        "even victory points at the end",
    }


def test_holding_henderson_field_brings_rabaul_units():  # DG 10.2.2, 10.2.3
    s = state(
        12,
        "turn_end",
        {},
        open=False,
        dice=[3, 4, *[1] * 9],
        henderson_field={"status": 20, "control": "jp"},
        flags={"hf_jp_start": True, "hf_op_start": True},
    )
    assert s.current_player() == "jp" and s.pending[-1].strength == 7
    picks = [a for a in s.legal_actions() if a.verb == "rabaul"]
    assert picks and all(s.data.units[a.args[0]].strength <= 7 for a in picks)
    s.apply(str(picks[0]))
    assert s.units[picks[0].args[0]].at == "next"
    s.apply("pass")
    assert s.turn == 13 and s.this_turn.double_supply and s.this_turn.air_bonus


def test_capturing_henderson_field_gives_supply_and_picks():  # DG 10.2.1
    s = state(
        12,
        "jp_move",
        {"124/2": "3708"},
        supply={"jp": 1},
        henderson_field={"status": 20, "control": "us"},
    )
    s.apply("move 124/2 3707")
    assert s.airfield.control == "jp" and s.supply["jp"] == 5


def test_reducing_the_us_field_to_inoperable_gives_supply_and_picks():  # DG 10.2.1
    s = state(
        6,
        "jp_fire_2",
        {"20Mt": "3807"},
        dice=[6],  # a 6 on the fire table damages the field (DG 8.1.6)
        supply={"jp": 1},
        henderson_field={"status": 10, "control": "us"},
    )
    s.apply("fire 20Mt 3707 1")
    assert s.airfield.status == 9 and s.supply["jp"] == 1 - 1 + 4  # four supply points at once
    assert s.step == "turn_end" and s.pending[-1].count == 2  # two Rabaul picks


def test_wrecking_its_own_field_gives_japan_no_capture_bonus():  # DG 10.2.1, 10.2.2
    # the Japanese hold the field and a labour unit wrecks it below ten: no capture bonus
    # (no four supply points, no two picks); what it earns is the holding bonus of DG 10.2.2
    s = state(
        6,
        "jp_move",
        {"11Lab": "3707"},
        dice=[1, 2],  # DG 10.2.2: two dice at the turn end
        supply={"jp": 1},
        henderson_field={"status": 12, "control": "jp"},
        flags={"hf_jp_start": True, "hf_op_start": True},
    )
    s.apply("wreck 11Lab")
    assert s.airfield.status == 6 and s.supply["jp"] == 1 and not s.this_turn.jp_reduced
    s.apply("end")
    assert s.step == "turn_end" and s.supply["jp"] == 1
    bonus = s.pending[-1]
    assert (bonus.count, bonus.strength) == (99, 3)  # holding: up to 1 + 2 strength
    assert not s.next_turn.air_bonus  # DG 10.2.3 needs an operational field


@pytest.mark.parametrize(("where", "points"), [("3807", -2), ("2508", 0)])
def test_artillery_in_range_of_the_us_field_scores_two(where, points):  # DG 9.1
    # "2 points for every turn an artillery unit is within range of Henderson Field while
    # the airfield is held by the U.S. player": scored once, in step 12
    s = state(12, "jp_vp", {"20Mt": where}, open=False, henderson_field={"status": 20, "control": "us"})
    assert s.step == "jp_naval" and s.vp == points


@pytest.mark.parametrize(("units", "points"), [(1, 0), (2, 1), (3, 1), (4, 2)])
def test_one_point_per_two_japanese_units_withdrawn(units, points):  # DG 9.2, 7.9.1
    ids = ["124/1", "124/2", "124/3", "4/1"][:units]
    s = state(19, "jp_move", {uid: "2508" if i < 3 else "3209" for i, uid in enumerate(ids)})
    for uid in ids:
        s.apply(f"withdraw {uid}")
    assert s.vp == points


def test_first_marines_not_withdrawn_cost_points():  # DG 9.1, 7.9.2
    s = state(
        19,
        "turn_end",
        {"1/1": "3707", "1/2": "3808"},
        open=False,
        henderson_field={"status": 5, "control": "us"},
    )
    # every other 1st Marine Division unit is still on the turn track: none was withdrawn
    first = sum(1 for t in s.data.units.values() if t.first_marine)
    assert s.vp == -first


def test_withdrawal():  # DG 7.9
    s = state(19, "jp_move", {"124/2": "3209", "7/1": "3808"})
    s.apply("withdraw 124/2")
    assert s.units["124/2"].at == "withdrawn"
    s = state(18, "jp_move", {"124/2": "3209", "7/1": "3808"})
    with pytest.raises(IllegalAction, match=r"DG 7\.9"):
        s.apply("withdraw 124/2")


def test_random_event_drawn_on_white_turns():  # DG 5.0
    s = state(9, "us_event", {}, open=False, dice=[4, 1, 1, 1, 1, 1])
    assert s.drawn == [4] and s.this_turn.event.side == "us"
    assert s.supply["us"] >= 5  # card 4: a US supply convoy


def test_event_combat_shift():  # DG 5.0 card 5 ("Fresh troops")
    ev = {"side": "us", "card": 5, "kind": "combat", "target": "self", "amount": 1}
    s = state(15, "us_combat", {"147/2": "3808", "124/2": "3708"}, flags={"event": ev})
    s.apply("attack 3708")
    s.apply("with 147/2")
    assert s.odds()["ratio"] == "2-1"  # 4 to 4 is 1-1, one column up


def test_event_detection_bonus():  # DG 5.0 card 2 ("Coastwatcher warning")
    ev = {"side": "us", "card": 2, "kind": "detect", "target": "self", "amount": -1}
    s = state(
        10,
        "us_move",
        {"6/3": "3812", "124/2": {"at": "4012", "stealth": 3}},
        dice=[3],
        flags={"event": ev},
    )
    s.apply("detect 6/3 4012")  # 3 + 2 - 3 - 1 = 1: detected
    assert s.units["124/2"].stealth == 0


def test_event_blocks_naval_bombardment():  # DG 5.0 card 8 ("Naval victory", US)
    # drawn by the US in step 1, it stops the Japanese bombardment of step 13
    ev = {"side": "us", "card": 8, "kind": "no_naval", "target": "enemy", "amount": 0}
    s = state(
        9,
        "jp_naval",
        {"2/2": "3808"},
        flags={"event": ev},
        henderson_field={"status": 20, "control": "us"},
    )
    assert [str(a) for a in s.legal_actions()] == ["pass"]
    with pytest.raises(IllegalAction, match=r"DG 5\.0: .*card 8, Naval victory"):
        s.apply("bombard")


def test_malaria_weakens_the_us_defenders():  # DG 5.0 card 7 ("Malaria in the perimeter")
    ev = {"side": "jp", "card": 7, "kind": "defence", "target": "enemy", "amount": -1}
    for strength, defence in ((5, 4), (1, 1)):  # one factor less, never below one
        s = state(
            9,
            "jp_combat",
            {"124/1": "3909", "7/1": {"at": "3808", "strength": strength}},
            flags={"event": ev},
        )
        s.apply("attack 3808")
        s.apply("with 124/1")
        assert defense_strength(s, s.pending[-1]) == defence


def test_savo_island_makes_the_japanese_bombardment_certain():  # DG 5.0 card 8 (Japanese)
    ev = {"side": "jp", "card": 8, "kind": "sure_naval", "target": "self", "amount": 1}
    s = state(
        9,
        "jp_naval",
        {"2/2": "3808"},
        flags={"event": ev},
        henderson_field={"status": 20, "control": "us"},
        dice=[1] * 12,
    )
    ev = s.apply("bombard")
    purposes = [p for p, _ in rolls(ev)]
    assert "DG 8.1.7 naval bombardment occurs on 4-6" not in purposes
    assert purposes[0] == "DG 8.1.7 naval bombardment strength"
    assert s.naval_last["jp"] == 9


def test_downpour_stops_the_us_artillery():  # DG 5.0 card 9 ("Tropical downpour", Japanese)
    units = {"10/3": "3909", "124/1": "3707"}
    ev = {"side": "jp", "card": 9, "kind": "no_fire", "target": "enemy", "amount": 1}
    dry = state(9, "us_fire_2", units, supply={"us": 3})
    assert any(a.verb == "fire" for a in dry.legal_actions())
    wet = state(9, "us_fire_2", units, supply={"us": 3}, flags={"event": ev})
    assert [str(a) for a in wet.legal_actions()] == ["end"]


def test_suppression_ends_with_the_turn():  # DG 12.0
    s = state(7, "turn_end", {"20Mt": {"at": "3911", "suppressed": True}}, open=False, dice=[1] * 9)
    assert s.turn == 8 and not s.units["20Mt"].suppressed
