"""Rules a player could get wrong, section by section of the DG rulebook, each with the case it
allows and the case it forbids, from hand-built positions (the worked examples and the rulings
have their own tests beside them)."""

from __future__ import annotations

import pytest

from henderson.core.errors import IllegalAction
from henderson.games.deluxe.rules.artillery import line_of_sight
from henderson.games.deluxe.rules.movement import routes

from .support import GAME, rolls, state

M = GAME.data.map


# -- DG 3.0 prepare for play, DG 9.3 control at the start ----------------------------------------
def test_dg_3_0_every_unit_starts_on_the_turn_track_or_at_rabaul():
    s = GAME.new_state(3)
    for uid, t in GAME.data.units.items():
        u = s.units[uid]
        if t.arrival > 1:  # turn-1 arrivals may have landed already (the US lands in step 4)
            assert u.at == "turn", uid
        elif not t.arrival:
            assert u.at == "rabaul", uid
    assert s.airfield.control == "jp" and set(s.villages.values()) == {"jp"}  # DG 9.3


# -- DG 7.3 terrain entry costs ------------------------------------------------------------------
def left_with(points: int, at: str, uid: str = "7/1"):
    """A US unit part-way through its move with `points` movement points left (so the DG 7.2
    minimum move, for a unit that has spent nothing, does not apply)."""
    spent = GAME.data.units[uid].movement - points
    return state(15, "us_move", {uid: {"at": at, "spent": spent, "leg": "go"}})


def test_dg_7_3_1_and_7_3_2_clear_costs_one_jungle_two():
    s = left_with(1, "3808")
    r = routes(s, s.units["7/1"])
    assert M.hexes["3807"].base == "clear" and "3807" in r and r["3807"].cost == 1
    assert M.hexes["3908"].jungle and "3908" not in r  # two points, only one left
    s = left_with(2, "3808")
    assert routes(s, s.units["7/1"])["3908"].cost == 2


def test_dg_7_3_the_most_expensive_terrain_of_the_hex_counts():
    # Visale (0306) is a jungle village: entering it from jungle costs the jungle's two points,
    # not the village's one (DG 7.3, 7.3.2, 7.3.6)
    assert M.hexes["0306"].jungle and M.hexes["0306"].village and not M.hexes["0307"].road
    s = left_with(1, "0307")
    assert "0306" not in routes(s, s.units["7/1"])
    s = left_with(2, "0307")
    assert routes(s, s.units["7/1"])["0306"].cost == 2


def test_dg_7_3_6_a_clear_village_costs_one():
    # Kukum (3507) from the river hex 3606 (no road): one point
    assert M.hexes["3507"].village and not M.hexes["3606"].road
    s = left_with(1, "3606")
    assert routes(s, s.units["7/1"])["3507"].cost == 1


def test_dg_7_3_4_slopes_cost_nothing_more():
    assert M.hexes["3809"].level > M.hexes["3808"].level and M.hexes["3809"].base == "clear"
    s = left_with(1, "3808")
    assert routes(s, s.units["7/1"])["3809"].cost == 1


def test_dg_7_3_3_up_or_down_stream_the_river_does_not_stop():
    # 3608, 3609 and 3610 are connected river hexes: along the river two points a hex, no stop;
    # into the river from 3709 (not a river hex): two points and stop
    assert {"3608", "3610"} <= M.river_next["3609"]
    s = state(15, "us_move", {"7/1": "3609"})
    r = routes(s, s.units["7/1"])
    assert r["3608"].cost == 2 and not r["3608"].stop
    assert r["3610"].cost == 2 and not r["3610"].stop
    s = state(15, "us_move", {"7/1": "3709"})
    r = routes(s, s.units["7/1"])
    assert not M.hexes["3709"].river and M.hexes["3609"].river
    assert r["3609"].cost == 2 and r["3609"].stop


# -- DG 7.4 zones of control ---------------------------------------------------------------------
def test_dg_7_4_1_a_unit_may_leave_an_enemy_zone_of_control():
    # 7/1 starts next to the 124/2: it may move away freely; it stops only on entering a zone
    s = state(15, "us_move", {"7/1": "3808", "124/2": "3708", "124/1": "3905"})
    r = routes(s, s.units["7/1"])
    assert "3810" in r and not r["3810"].stop  # away from the enemy
    assert "3905" in M.adjacent["3906"] and r["3906"].stop  # next to the 124/1: it stops there


# -- DG 7.6 sea movement -------------------------------------------------------------------------
def test_dg_7_6_a_unit_next_to_the_enemy_may_not_put_to_sea():
    s = state(10, "us_move", {"7/1": "3507", "124/2": "3508"})
    assert not any(a.verb == "sea" for a in s.legal_actions())
    s = state(10, "us_move", {"7/1": "3507", "124/2": "3609"})
    assert any(a.verb == "sea" for a in s.legal_actions())


def test_dg_7_6_landing_in_an_enemy_zone_of_control_stops_the_unit():
    s = state(10, "us_move", {"7/1": "3507", "124/2": "5006"})
    s.apply("sea 7/1 5005")
    assert s.units["7/1"].moved and not any(a.args[:1] == ("7/1",) for a in s.legal_actions())
    s = state(10, "us_move", {"7/1": "3507", "124/2": "5206"})
    s.apply("sea 7/1 5005")
    assert any(a.verb == "move" and a.args[0] == "7/1" for a in s.legal_actions())


# -- DG 8.1 artillery ----------------------------------------------------------------------------
def test_dg_8_1_4_1_jungle_between_hexes_of_one_level_blocks_the_view():
    s = state(15, "us_fire_1", {})
    assert M.hexes["3807"].level == M.hexes["4008"].level == M.hexes["3908"].level
    assert M.distance("3807", "4008") == 2 and M.hexes["3908"].jungle
    assert not line_of_sight(s, "3807", "4008")  # across the jungle of 3908
    assert M.hexes["3907"].base == "clear" and M.distance("3807", "3906") == 2
    assert line_of_sight(s, "3807", "3906")  # across the clear 3907


def test_dg_8_1_4_3_adjacent_units_always_see_each_other():
    s = state(15, "us_fire_1", {})
    assert M.hexes["3908"].jungle and line_of_sight(s, "3807", "3908")


def test_dg_8_1_6_each_five_or_six_damages_the_field():
    # Japanese artillery fires three factors at a US-held Henderson Field without US units:
    # the 5 and the 6 each take a point, the 4 does nothing
    s = state(
        15,
        "jp_fire_1",
        {"20Mt": "3909", "124/2": "3808"},
        dice=[5, 4, 6],
        supply={"jp": 3},
        henderson_field={"status": 20, "control": "us"},
    )
    s.apply("fire 20Mt 3707 3")
    assert s.airfield.status == 18


def test_dg_8_1_7_a_naval_bombardment_strikes_the_units_on_the_field_too():
    # "against it (and any units within its hex)": the bombardment's hits fall on the 2/2
    s = state(
        5,
        "jp_naval",
        {"2/2": "3707"},
        dice=[6, 6, 6, 1, 1, 1, 1, 1, 1, *[1] * 30],
        henderson_field={"status": 20, "control": "us"},
    )
    s.apply("bombard")
    assert s.units["2/2"].strength == 1  # every step but the last (DG 8.1.5)


# -- DG 8.2 assault ------------------------------------------------------------------------------
def test_dg_8_2_5_units_of_several_hexes_attack_as_one():
    # 147/1 (3808) and 7/1 (3807) both next to the 124/2 (3708): one attack of 4 + 5 = 9
    s = state(15, "us_combat", {"147/1": "3808", "7/1": "3807", "124/2": "3708"}, dice=[6])
    for a in ("attack 3708", "with 147/1", "with 7/1"):
        s.apply(a)
    ev = s.apply("go")
    assert next(e for e in ev if e.kind == "assault").data["attack"] == "9"


def test_dg_8_2_1_4_a_unit_that_cannot_retreat_is_eliminated():
    # the 124/2 in 3708 must retreat one hex; every hex around it is held by the US or in a
    # US zone of control (or the sea): it is eliminated
    units = {"147/1": "3808", "147/2": "3808", "124/2": {"at": "3708", "strength": 4}}
    units.update({"7/1": "3607", "7/2": "3606"})  # their zones cover 3707 and 3608
    s = state(15, "us_combat", units, dice=[3])  # 13 to 4 is 3-1; a 3: one loss, one hex back
    for a in ("attack 3708", "with 147/1", "with 147/2", "with 7/1", "go"):
        s.apply(a)
    assert s.units["124/2"].at == "eliminated"


def test_dg_8_2_1_4_an_advance_halts_in_an_enemy_zone_of_control():
    # 4-1 and a 1: the defender loses three steps, all it has; the attackers may advance two
    # hexes, the first into 3708; the 124/1 in 3607 holds 3708 in its zone, so they stop there
    s = state(
        15,
        "us_combat",
        {"147/1": "3808", "147/2": "3808", "124/2": {"at": "3708", "strength": 2}, "124/1": "3607"},
        dice=[1],
    )
    for a in ("attack 3708", "with 147/1", "with 147/2", "go"):
        s.apply(a)
    assert s.units["124/2"].at == "eliminated"
    assert {a.args[1] for a in s.legal_actions() if a.verb == "advance"} == {"3708"}
    s = state(15, "us_combat", {"147/1": "3808", "147/2": "3808", "124/2": {"at": "3708", "strength": 2}}, dice=[1])
    for a in ("attack 3708", "with 147/1", "with 147/2", "go"):
        s.apply(a)
    assert "3707" in {a.args[1] for a in s.legal_actions() if a.verb == "advance"}  # no zone: on


def test_dg_8_2_8_no_field_reduction_while_the_defenders_stay():
    # an assault on Henderson Field that leaves its defenders in place rolls no die for it
    s = state(
        15,
        "us_combat",
        {"147/1": "3807", "124/2": "3707"},
        dice=[5],  # 4 to 4 is 1-1; a 5: no loss and no retreat for the defender
        henderson_field={"status": 20, "control": "jp"},
    )
    for a in ("attack 3707", "with 147/1"):
        s.apply(a)
    ev = s.apply("go")
    assert rolls(ev) == [("DG 8.2.1.4 assault", 5)] and s.airfield.status == 20 and s.units["124/2"].at == "3707"


# -- DG 9 victory ----------------------------------------------------------------------------------
def test_dg_9_3_artillery_does_not_take_control():
    # "the side that occupies or last occupied (or passed through) ... with a non-artillery unit"
    s = state(10, "us_move", {"11/1": "3508", "124/2": "3911"})
    s.apply("move 11/1 3507")
    assert s.villages["3507"] == "jp"
    s = state(10, "us_move", {"7/1": "3508", "124/2": "3911"})
    s.apply("move 7/1 3507")
    assert s.villages["3507"] == "us"


def test_dg_9_4_sixty_one_points_win_only_at_the_end_of_a_turn():
    # the US reaches 61 points in its combat phase (step 10): the game goes on until step 20
    units = {"147/1": "3808", "147/2": "3808", "124/2": {"at": "3708", "strength": 1}}
    s = state(15, "us_combat", units, dice=[1] * 10, vp=60, villages=dict.fromkeys(M.villages, "us"))
    for a in ("attack 3708", "with 147/1", "with 147/2", "go", "stop", "end"):
        s.apply(a)
    assert s.vp >= 61 and s.step != "turn_end" and not s.is_terminal()


# -- DG 10.2.2 holding Henderson Field -----------------------------------------------------------
@pytest.mark.parametrize("touched", [False, True])
def test_dg_10_2_2_the_us_on_the_field_spoils_the_holding_bonus(touched):
    # held at the start of the turn and all through it: Rabaul picks; a US unit took the
    # field during the turn (and lost it again): none
    s = state(
        12,
        "turn_end",
        {"124/2": "3707"},
        open=False,
        dice=[3, 4, *[1] * 20],
        henderson_field={"status": 20, "control": "jp"},
        flags={"hf_jp_start": True, "hf_op_start": True, "hf_us_touched": touched},
    )
    picking = bool(s.pending) and s.pending[-1].kind == "rabaul"
    assert picking is not touched


# -- DG 11.0 guerrillas --------------------------------------------------------------------------
def test_dg_11_0_unlimited_supply_makes_the_rolls_free():
    unl = next(i for i, t in enumerate(GAME.data.turns, 1) if t.supply["us"] == "unl")
    s = state(unl, "guerrilla", {}, dice=[6], supply={"us": 0})
    assert "guerrilla 3507" in {str(a) for a in s.legal_actions()}
    ev = s.apply("guerrilla 3507")
    assert rolls(ev) == [("DG 11.0 guerrilla activity", 6)] and s.supply["us"] == 0
    assert s.villages["3507"] == "us"
    other = next(i for i, t in enumerate(GAME.data.turns, 1) if t.supply["us"] != "unl" and i > 2)
    s = state(other, "guerrilla", {}, supply={"us": 0})
    with pytest.raises(IllegalAction, match=r"DG 11\.0: each roll costs a U\.S\. supply point"):
        s.apply("guerrilla 3507")
