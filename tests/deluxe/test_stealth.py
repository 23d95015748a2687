"""Stealth (DG 7.7) and fog of war (DG 7.8), starting with the rulebook's stealth example."""

from __future__ import annotations

import pytest

from henderson.core.errors import IllegalAction
from henderson.games.deluxe.rules.assault import ratio_index, ratio_name
from henderson.games.deluxe.rules.movement import landing_extra, routes

from .support import GAME, rolls, state


def example(dice):
    """DG 7.7 example: the US 6/3 two hexes from the 124/2 under a Stealth 3 marker."""
    return state(10, "us_move", {"6/3": "3812", "124/2": {"at": "4012", "stealth": 3}}, dice=dice)


def test_stealth_example():  # DG 7.7 example, DG 7.7.4, DG 7.7.5
    s = example([3, 2])
    assert s.data.map.distance("3812", "4012") == 2
    ev = s.apply("detect 6/3 4012")
    assert rolls(ev) == [("DG 7.7.5 stealth detection", 3)]
    assert s.units["124/2"].stealth == 3  # 3 + 2 - 3 = 2: not detected
    s.apply("detect 6/3 4012")  # 2 + 2 - 3 = 1: detected
    jp = s.units["124/2"]
    assert jp.stealth == 0 and jp.pool == 30  # movement 10 x 3 turns
    assert s.current_player() == "jp"  # the detected unit must move now
    dest = "4016"
    s.apply(f"move 124/2 {dest}")
    jp = s.units["124/2"]
    assert jp.at == dest and jp.spent == 16  # four jungle hexes at four points each
    assert s.current_player() == "us" and s.units["6/3"].spent == 2
    assert ratio_name(ratio_index(s, 5, 4)) == "1-1"  # the 6/3 intercepts at 1-1


def test_dg_7_7_5_a_detected_unit_must_move():
    # "the unit is detected and must complete its stealth movement" (the example: "now must
    # move"): its owner may not decline while it has a jungle hex to go to
    s = example([2])
    s.apply("detect 6/3 4012")
    legal = {str(a) for a in s.legal_actions()}
    assert "pass" not in legal and any(a.startswith("move 124/2 ") for a in legal)
    with pytest.raises(IllegalAction, match=r"DG 7\.7\.5: a detected unit must complete its stealth movement"):
        s.apply("pass")


def test_dg_7_7_5_a_detected_unit_with_nowhere_to_go_stays():
    # every jungle hex around the 124/2 is full or held by the enemy: it stays where it is
    m = GAME.data.map
    ring = [h for h in m.adjacent["4012"] if m.hexes[h].jungle]
    us = ["7/1", "7/2", "7/3", "1/1", "1/2", "1/3", "5/1", "5/2", "5/3", "2/1", "2/3", "8/1"]
    units = {"6/3": "3812", "124/2": {"at": "4012", "stealth": 3}}
    units.update({uid: h for uid, h in zip(us, ring, strict=False)})
    s = state(10, "us_move", units, dice=[1])
    s.apply("detect 6/3 4012")
    assert [str(a) for a in s.legal_actions()] == ["pass"]
    s.apply("pass")
    assert s.current_player() == "us" and s.units["124/2"].at == "4012"


def test_stealth_movement_only_in_jungle():  # DG 7.7.4
    s = example([2])
    s.apply("detect 6/3 4012")
    moves = {a.args[1] for a in s.legal_actions() if a.verb == "move"}
    assert moves and all(s.data.map.hexes[h].jungle for h in moves)


def test_detection_range_is_the_marker_value():  # DG 7.7.5
    s = state(10, "us_move", {"6/3": "3812", "124/2": {"at": "4112", "stealth": 2}})
    here = [a for a in s.legal_actions() if a.verb == "detect" and len(a.args) == 2]
    assert not here  # three hexes away: not from where it stands
    with pytest.raises(IllegalAction, match=r"DG 7\.7\.5"):
        s.apply("detect 6/3 4112")
    legs = [a for a in s.legal_actions() if a.verb == "detect"]
    assert legs and all(s.data.map.distance(a.args[2], "4112") <= 2 for a in legs)


def test_detection_part_way_through_the_move():  # DG 7.7.5 "at any time during its move"
    s = state(10, "us_move", {"6/3": "3812", "124/2": {"at": "4112", "stealth": 2}}, dice=[6, 1])
    u = s.units["6/3"]
    full = u.spent
    s.apply("detect 6/3 4112 3912")  # a leg to 3912 (jungle, 2 points), then a point to roll
    u = s.units["6/3"]
    assert u.at == "3912" and u.spent == full + 2 + 1 and u.leg == "go" and not u.moved
    assert s.units["124/2"].stealth == 2  # 6 + 2 - 2: not detected
    s.apply("detect 6/3 4112")  # again from here: 1 + 2 - 2 = 1, detected
    assert s.units["124/2"].stealth == 0 and s.current_player() == "jp"
    s.apply("move 124/2 4113")  # the detected unit must move (DG 7.7.5)
    assert s.current_player() == "us"
    moves = [a for a in s.legal_actions() if a.verb == "move" and a.args[0] == "6/3"]
    assert moves  # the 6/3 goes on with the points it has left
    s.apply(moves[0])
    u = s.units["6/3"]
    assert u.moved and u.spent <= s.data.units["6/3"].movement


def test_detection_after_stopping_in_a_zone_of_control():  # DG 7.4.1, 7.7.5
    s = state(
        10,
        "us_move",
        {"6/3": "3812", "124/1": "3710", "124/2": {"at": "3912", "stealth": 2}},
        dice=[6],
    )
    u = s.units["6/3"]
    assert "3711" in s.data.map.adjacent["3710"] and not s.data.map.hexes["3711"].jungle
    s.apply("detect 6/3 3912 3711")  # 3711 is in the 124/1's zone of control
    u = s.units["6/3"]
    assert u.at == "3711" and u.leg == "halt"  # it had to stop: it may still detect
    assert not any(a.verb == "move" and a.args[0] == "6/3" for a in s.legal_actions())
    assert "detect 6/3 3912" in {str(a) for a in s.legal_actions()}


def test_entering_and_continuing_stealth():  # DG 7.7.1, 7.7.2, 7.7.3
    s = state(7, "jp_move", {"124/2": "4014", "6/3": "3511"})
    s.apply("stealth 124/2")
    assert s.units["124/2"].stealth == 1
    s.apply("end")
    assert s.units["124/2"].stealth == 1  # the turn it entered does not count
    s2 = state(7, "jp_move", {"124/2": {"at": "4014", "stealth": 1}, "6/3": "3511"})
    s2.apply("end")
    assert s2.units["124/2"].stealth == 2


def test_no_stealth_next_to_the_enemy_or_outside_jungle():  # DG 7.7
    s = state(10, "jp_move", {"124/2": "3909", "124/1": "4014", "6/3": "3809"})
    verbs = {str(a) for a in s.legal_actions()}
    assert "stealth 124/1" in verbs and "stealth 124/2" not in verbs


def test_stealth_units_cannot_be_attacked():  # DG 8.2.11
    s = state(10, "us_combat", {"6/3": "3912", "124/2": {"at": "4012", "stealth": 2}})
    assert not any(a.verb == "attack" for a in s.legal_actions())


def test_fog_of_war_shows_only_the_top_counter():  # DG 7.8
    s = state(
        10,
        "us_move",
        {
            "7/1": "3808",
            "124/1": {"at": "4012", "order": 1},
            "124/2": {"at": "4012", "order": 2},
            "124/3": {"at": "4014", "stealth": 2},
        },
    )
    v = s.view("us")
    assert "124/2" in v["units"] and "124/1" not in v["units"] and "124/3" not in v["units"]
    assert {"hex": "4012", "side": "jp", "counters": 2, "top": "124/2"} in v["enemy_stacks"]
    assert v["stealth_markers"] == [{"hex": "4014", "side": "jp", "stealth": 2}]
    assert "dice" not in v and "seed" not in v
    mine = s.view("jp")
    assert {"124/1", "124/2", "124/3"} <= set(mine["units"]) and "7/1" in mine["units"]


def test_stealth_must_end_after_three_turns():  # DG 7.7.3
    s = state(
        7,
        "jp_supply",
        {"124/2": {"at": "4014", "stealth": 3}, "6/3": "3511"},
        open=False,
        dice=[1],
    )
    assert s.step == "jp_move" and s.units["124/2"].stealth == 0
    assert s.units["124/2"].pool == 30 and s.units["124/2"].self_exit  # an ambush is possible


def test_ambush():  # DG 8.2.9
    s = state(
        7,
        "jp_combat",
        {"124/2": {"at": "3909", "self_exit": True, "pool_start": 30, "spent": 8}, "7/1": "3808"},
        dice=[2, 4],
    )
    s.apply("attack 3808")
    s.apply("with 124/2")
    assert "ambush" in {str(a) for a in s.legal_actions()}
    s.apply("ambush")
    ev = s.apply("go")
    # the ambush roll 2 <= 3 turns: 8 to 5 is 1-1, die 4: one loss each, plus one for the ambush
    assert [v for _, v in rolls(ev)] == [2, 4]
    assert s.units["7/1"].strength == 3


def test_ambush_doubles_the_attacking_unit_not_its_artillery():  # DG 8.2.9
    # "the attacking unit's strength is doubled": 4 x 2 = 8, plus the 20Mt's 3 supplied
    # factors undoubled: 11 to 4 is 2-1 (doubling everything would make 14, 3-1)
    s = state(
        7,
        "jp_combat",
        {
            "124/2": {"at": "3909", "self_exit": True, "pool_start": 30, "spent": 8},
            "20Mt": "3909",
            "7/1": {"at": "3808", "strength": 4},
        },
        dice=[2, 5],
        supply={"jp": 3},
    )
    for a in ("attack 3808", "with 124/2", "support 20Mt 3", "ambush"):
        s.apply(a)
    fought = next(e for e in s.apply("go") if e.kind == "assault")
    assert (fought.data["attack"], fought.data["ratio"]) == ("11", "2-1")


def test_a_banzai_after_an_ambush_is_not_doubled_again():  # DG 8.2.9, 8.2.10
    s = state(
        7,
        "jp_combat",
        {"124/2": {"at": "3909", "self_exit": True, "pool_start": 30, "spent": 8}, "7/1": "3808"},
        dice=[2, 4, 5],
    )
    for a in ("attack 3808", "with 124/2", "ambush", "go"):
        s.apply(a)  # 8 to 5, 1-1, a 4: one loss each and one more for the defender
    assert (s.units["124/2"].strength, s.units["7/1"].strength) == (3, 3)
    ev = s.apply("banzai")
    again = [e for e in ev if e.kind == "assault"][-1]
    assert (again.data["attack"], again.data["ratio"]) == ("3", "1-1")  # not 6 to 3
    assert s.units["7/1"].strength == 3  # no second ambush loss


def test_heavy_infantry_is_infantry():  # DG 10.2.3 note "Japanese Heavy Infantry (H)"
    # ... so it may enter stealth in jungle (DG 7.7.1) ...
    s = state(16, "jp_move", {"H1": "4014", "6/3": "3511"})
    assert "stealth H1" in {str(a) for a in s.legal_actions()}
    s.apply("stealth H1")
    assert s.units["H1"].stealth == 1
    # ... and repair Henderson Field as infantry do, on a 3-6 when it has not moved (DG 7.11.2)
    s = state(16, "jp_move", {"H2": "3707"}, dice=[3], henderson_field={"status": 15, "control": "jp"})
    ev = s.apply("repair H2")
    assert rolls(ev) == [("DG 7.11.2 infantry repair", 3)] and s.airfield.status == 17


def test_events_about_hidden_units_are_redacted():  # DG 7.8
    s = state(7, "jp_move", {"124/2": "4014", "6/3": "3511"})
    events = s.apply("stealth 124/2")
    assert "124/2" in events[0].text
    seen_by_us = s.events_for(events, "us")
    assert "124/2" not in seen_by_us[0].text and seen_by_us[0].data == {"hidden": True}
    assert s.events_for(events, "jp") == events


def test_consolidation():  # DG 7.10
    s = state(
        10,
        "us_move",
        {
            "1/1": {"at": "3808", "strength": 2},
            "1/2": {"at": "3808", "strength": 3},
            "5/1": {"at": "3808", "strength": 4},
            "124/2": "4014",
        },
    )
    legal = {str(a) for a in s.legal_actions()}
    assert "consolidate 1/1 1/2" in legal  # 2 + 3 is no larger than a full 5
    assert "consolidate 1/1 5/1" not in legal  # 2 + 4 would be
    s.apply("consolidate 1/1 1/2")
    assert s.units["1/1"].strength == 5 and s.units["1/2"].at == "absorbed"
    assert s.vp == 0  # not a loss


def test_dg_7_10_either_unit_may_be_the_one_that_stays():
    # DG 7.10 "may combine into a single unit" without saying which counter stays: the owner
    # chooses (it matters: a 1st Marine Division counter counts for DG 7.9.2 and 9.1)
    s = state(10, "us_move", {"7/1": {"at": "3808", "strength": 2}, "164/1": {"at": "3808", "strength": 2}})
    legal = {str(a) for a in s.legal_actions()}
    assert {"consolidate 7/1 164/1", "consolidate 164/1 7/1"} <= legal
    s.apply("consolidate 164/1 7/1")
    assert s.units["164/1"].strength == 4 and s.units["7/1"].at == "absorbed"


def test_us_stealth_option():  # DG 7.7.6
    obj = {"options": {"us_stealth": True}}
    s = state(10, "us_move", {"7/1": "3912", "124/2": "4016"}, **obj)
    assert "stealth 7/1" in {str(a) for a in s.legal_actions()}
    s = state(10, "us_move", {"7/1": "3912", "124/2": "4016"})
    assert "stealth 7/1" not in {str(a) for a in s.legal_actions()}


def test_a_leg_pays_the_landing_cost_once():  # DG 7.3.5, 7.7.5
    s = state(
        10,
        "us_move",
        {"7/1": {"at": "3507", "landed": 10}, "124/2": {"at": "3310", "stealth": 3}},
        dice=[6],
    )
    u = s.units["7/1"]
    assert landing_extra(s, u) == 2
    cost = routes(s, u)["3408"].cost  # two to leave the landing hex, the road is free
    assert cost == 2 and s.data.map.hexes["3408"].coastal
    s.apply("detect 7/1 3310 3408")  # a leg to another coastal hex, then a roll
    u = s.units["7/1"]
    assert u.at == "3408" and u.spent == cost + 1
    assert landing_extra(s, u) == 0  # it left its landing hex: no second payment
    assert routes(s, u)["3508"].cost == 0  # back along the road, free


def test_the_text_board_for_one_side_hides_what_it_may_not_see():  # DG 7.8
    s = state(
        10,
        "us_move",
        {
            "7/1": "3808",
            "124/1": {"at": "4012", "order": 1},
            "124/2": {"at": "4012", "order": 2},
            "124/3": {"at": "4014", "stealth": 2},
        },
    )
    full = GAME.render_text(s)
    assert "124/1" in full and "124/3" in full
    us = GAME.render_text(s, "us")
    assert "124/2" in us and "124/1" not in us and "124/3" not in us
    assert "1 counter(s) below" in us and "stealth marker S2" in us
    assert "124/1" in GAME.render_text(s, "jp")


@pytest.mark.parametrize("reach", [0, 1, 2, 3, 4])
def test_a_detection_range_is_every_map_hex_that_near(reach):  # DG 7.7.5
    # the hexes within a marker's range, read from the hexes around it by position, are the
    # map's hexes at that distance or less, counted one by one (edges and corners included)
    import random

    from henderson.games.deluxe.rules.stealth import near

    m = GAME.data.map
    s = GAME.new_state(1)
    hexes = sorted(m.hexes)
    for hex_id in [hexes[0], hexes[-1], *random.Random(reach).sample(hexes, 25)]:
        plain = frozenset(h for h in m.hexes if m.distance(h, hex_id) <= reach)
        GAME.near_cache.pop((hex_id, reach), None)
        assert near(s, hex_id, reach) == plain


def plain_options(s, side):
    """`stealth.legal` read unit by unit from the position alone: each unit on the map in id
    order, its stealth options, then detection, then withdrawal and field work, then each
    pair that may consolidate (DG 7.7, 7.9, 7.10, 7.11)."""
    from henderson.games.deluxe.actions import act
    from henderson.games.deluxe.model import other
    from henderson.games.deluxe.rules import stealth
    from henderson.games.deluxe.rules.movement import Context

    ctx = Context(s, side)
    units = [u for u in sorted(s.units.values(), key=lambda u: u.id) if u.side == side and u.on_map]
    stealthy = side in stealth.stealth_sides(s)
    out = [a for u in units for a in stealth._stealth_options(s, u, ctx.occ, stealthy)]
    marks: dict[str, int] = {}  # DG 7.7: the highest marker of the enemy's in each hex
    for u in s.units.values():
        if u.side == other(side) and u.on_map and u.stealth:
            marks[u.at] = max(marks.get(u.at, 0), u.stealth)
    assert stealth.markers(s, other(side)) == marks
    if marks:
        out += stealth.detect_legal(s, side, units, marks, ctx)
    out += [a for u in units for a in stealth._other_options(s, u, ctx.occ)]
    for a in units:
        for b in units:
            if b is not a and b.at == a.at and stealth.may_consolidate(s, b) and stealth.can_consolidate(s, a, b):
                out.append(act("consolidate", a.id, b.id))
    return out


@pytest.mark.parametrize(("seed", "us_stealth"), [(3, True), (8, False), (11, False)])
def test_the_kept_options_are_those_read_unit_by_unit(seed, us_stealth):  # DG 7.7, 7.9, 7.10, 7.11
    # along random games (their options include detection, consolidation, withdrawal, field
    # work and, with DG 7.7.6, US stealth), the options listed from the earlier position's
    # kept ones are, at every movement decision, those read from the position alone
    import random

    from henderson.games.deluxe.rules import move, stealth

    rng = random.Random(seed)
    s = GAME.new_state(seed, options={"us_stealth": us_stealth})
    checked = 0
    while not s.is_terminal():
        if s.rules() is move.PHASE:
            side = s.current_player()
            assert stealth.legal(s, side) == plain_options(s, side)
            checked += 1
        s.apply(rng.choice(s.legal_actions()))
    assert checked > 300
