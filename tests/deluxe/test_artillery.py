"""Artillery (DG 8.1), starting with the rulebook's artillery example."""

from __future__ import annotations

import pytest

from henderson.core.errors import IllegalAction
from henderson.games.deluxe.rules.artillery import line_of_sight

from .support import rolls, state


def example(dice):
    """DG 8.1 example: 124/2 next to Henderson Field, where the US 2/2 stands; the Army 90th
    on higher jungle ground, the Marines' 10/3 on the plain; the Japanese 20Mt in range."""
    return state(
        15,
        "us_fire_2",
        {
            "2/2": "3707",
            "10/3": "3508",
            "90": "4010",
            "124/2": "3708",
            "20Mt": "3911",
        },
        dice=dice,
        supply={"us": 3, "jp": 3},
        henderson_field={"status": 20, "control": "us"},
    )


def test_artillery_example():  # DG 8.1 example
    s = example([1, 3, 4, 1, 2, 6])
    m = s.data.map
    assert m.hexes["4010"].level > m.hexes["3708"].level
    assert not line_of_sight(s, "4010", "3708")  # intervening jungle at the same level
    assert line_of_sight(s, "3508", "3708")  # the lower 10/3 sees across the clear plain
    assert line_of_sight(s, "3707", "3708")  # 2/2 adjacent: it spots for both
    legal = {str(a) for a in s.legal_actions()}
    assert {"fire 90 3708 2", "fire 10/3 3708 1"} <= legal  # in range, spotted by 2/2
    assert "fire 90 3708 3" in legal and "fire 90 3708 4" not in legal  # three supply points
    ev = s.apply("fire 90 3708 2") + s.apply("fire 10/3 3708 1")
    assert [v for _, v in rolls(ev)] == [1, 3, 4]
    assert s.units["124/2"].strength == 3  # only the 1 hits
    assert s.supply["us"] == 0
    assert s.current_player() == "jp" and s.step == "jp_fire_2"
    ev = s.apply("fire 20Mt 3707 3")
    assert [v for _, v in rolls(ev)] == [1, 2, 6]
    assert s.units["2/2"].strength == 3  # the 1 reduces the 2/2
    assert s.airfield.status == 19  # the 6 damages Henderson Field
    assert s.supply["jp"] == 0


def test_final_step_never_lost_to_artillery():  # DG 8.1.5
    s = state(
        15,
        "us_fire_2",
        {"2/2": "3707", "10/3": "3508", "124/2": {"at": "3708", "strength": 1}},
        dice=[1, 1, 1],
        supply={"us": 3},
    )
    s.apply("fire 10/3 3708 3")
    assert s.units["124/2"].strength == 1 and s.units["124/2"].on_map


def test_no_fire_from_an_enemy_zone_of_control():  # DG 8.1
    s = state(15, "us_fire_2", {"10/3": "3807", "2/2": "3707", "124/2": "3708"}, supply={"us": 3})
    assert not any(a.verb == "fire" for a in s.legal_actions())


@pytest.mark.parametrize(("where", "in_range"), [("3209", True), ("3109", False)])
def test_range_counts_the_target_not_the_firer(where, in_range):  # DG 8.1.3
    s = state(15, "us_fire_2", {"10/3": where, "2/2": "3707", "124/2": "3708"}, supply={"us": 9})
    assert s.data.map.distance(where, "3708") == (5 if in_range else 6)  # range 5
    assert any(a.verb == "fire" for a in s.legal_actions()) == in_range


def test_counter_battery_fire():  # DG 8.1.8
    s = state(
        15,
        "us_fire_2",
        {"2/2": "3707", "11/5": "3508", "124/2": "3708", "20Mt": "3709"},
        dice=[5, 1],
        supply={"us": 9},
    )
    counters = {str(a) for a in s.legal_actions() if a.verb == "counter" and a.args[1] == "3709"}
    assert counters == {"counter 11/5 3709 1", "counter 11/5 3709 2"}  # half of four
    s.apply("counter 11/5 3709 2")  # two dice
    assert s.units["20Mt"].suppressed and s.supply["us"] == 7


def test_counter_battery_may_fire_fewer_factors():  # DG 8.1.8 "only half ... may be fired"
    s = state(
        15,
        "us_fire_2",
        {"2/2": "3707", "11/5": "3508", "124/2": "3708", "20Mt": "3709"},
        dice=[5],
        supply={"us": 9},
    )
    with pytest.raises(IllegalAction, match=r"DG 8\.1\.8: .*at most half of 11/5's 4 factors, rounded up: 2"):
        s.apply("counter 11/5 3709 3")
    s.apply("counter 11/5 3709 1")
    assert s.units["20Mt"].suppressed and s.supply["us"] == 8


def test_unlimited_supply():  # DG 8.1.1
    s = state(22, "us_fire_2", {"2/2": "3707", "10/3": "3508", "124/2": "3708"}, dice=[6, 6, 6])
    assert "fire 10/3 3708 3" in {str(a) for a in s.legal_actions()}
    s.apply("fire 10/3 3708 3")
    assert s.supply["us"] == 0


def test_naval_bombardment():  # DG 8.1.7
    s = state(
        10,
        "us_naval",
        {"2/2": "3808"},
        dice=[4, 2, 5, 6],
        henderson_field={"status": 20, "control": "jp"},
    )
    s.dice.values.extend([1] * 5)  # the steps that follow (supply, events) may roll
    ev = s.apply("bombard")
    # 4: it happens; October, US: one die -> 2 attacks; the 5 and the 6 damage the field
    assert [v for _, v in rolls(ev)][:4] == [4, 2, 5, 6]
    assert s.airfield.status == 18 and s.naval_last["us"] == 10


def test_no_naval_bombardment_two_turns_running():  # DG 8.1.7
    s = state(
        10,
        "us_naval",
        {"2/2": "3808"},
        naval_last={"us": 9},
        henderson_field={"status": 20, "control": "jp"},
    )
    with pytest.raises(IllegalAction):
        s.apply("bombard")


def test_owner_chooses_the_units_that_lose_steps_to_artillery():  # DG 8.1.5
    s = state(
        15,
        "us_fire_2",
        {"2/2": "3707", "10/3": "3508", "124/1": "3708", "124/2": "3708"},
        dice=[1],
        supply={"us": 3},
    )
    before = {u: s.units[u].strength for u in ("124/1", "124/2")}
    s.apply("fire 10/3 3708 1")  # eight points defend: a 1 is one hit
    assert s.current_player() == "jp"  # the owner applies the loss (DG 8.1.5)
    assert {str(a) for a in s.legal_actions()} == {"lose 124/1", "lose 124/2"}
    s.apply("lose 124/2")
    assert s.units["124/2"].strength == before["124/2"] - 1
    assert s.units["124/1"].strength == before["124/1"]
    assert not s.pending


def test_forced_artillery_losses_are_taken_at_once():  # DG 8.1.5
    s = state(
        15,
        "us_fire_2",
        {"2/2": "3707", "10/3": "3508", "124/1": "3708", "124/2": {"at": "3708", "strength": 1}},
        dice=[1],
        supply={"us": 3},
    )
    full = s.units["124/1"].strength
    s.apply("fire 10/3 3708 1")
    assert not s.pending  # only the 124/1 can lose a step: no question is asked
    assert s.units["124/1"].strength == full - 1 and s.units["124/2"].strength == 1


def results(events):
    return [e.text for e in events if e.kind == "fire_result"]


def test_a_fire_that_misses_says_so():  # DG 8.1.5
    # the 124/2 (4 strength points) is hit only on a 1: a 3 and a 4 miss, and the log says so
    s = example([3, 4])
    ev = s.apply("fire 90 3708 2")
    assert results(ev) == ["DG 8.1.5 artillery fire at 3708: no effect (dice 3, 4; 1 needed to hit)"]
    assert s.units["124/2"].strength == 4


def test_a_fire_that_hits_says_the_steps_lost():  # DG 8.1.5
    s = example([1, 3])
    ev = s.apply("fire 90 3708 2")
    assert results(ev) == ["DG 8.1.5 artillery fire at 3708: 1 step lost (dice 1, 3; 1 needed to hit)"]


def test_a_hit_on_final_steps_is_no_effect_and_says_why():  # DG 8.1.5
    s = state(
        15,
        "us_fire_2",
        {"2/2": "3707", "10/3": "3508", "124/2": {"at": "3708", "strength": 1}},
        dice=[1],
        supply={"us": 3},
    )
    ev = s.apply("fire 10/3 3708 1")
    assert results(ev) == [
        "DG 8.1.5 artillery fire at 3708: no effect "
        "(dice 1; 1 needed to hit; a unit's final step is never lost to artillery fire)"
    ]


def test_fire_at_a_stack_does_not_tell_what_hits():  # DG 7.8, DG 8.1.5
    # the 124/1 below the 124/2: the stack's strength (and so the rolls that hit it) is hidden
    s = state(
        15,
        "us_fire_2",
        {"2/2": "3707", "10/3": "3508", "90": "4010", "124/2": "3708", "124/1": "3708"},
        dice=[5, 6],
        supply={"us": 3},
        henderson_field={"status": 20, "control": "us"},
    )
    ev = s.apply("fire 90 3708 2")
    assert results(ev) == [
        "DG 8.1.5 artillery fire at 3708: no effect "
        "(dice 5, 6; what hits a stack is not shown: its counters are hidden)"
    ]


def test_the_targets_are_found_once_for_each_fire_decision(monkeypatch):  # DG 8.1
    # whether a gun may fire is told by listing the fire actions, and that list is the one
    # the side then chooses from: asking for the legal actions finds no target again
    import random

    from henderson.games.deluxe.rules import artillery

    from .support import GAME

    real = artillery.legal
    calls: list[str] = []
    monkeypatch.setattr(artillery, "legal", lambda s, side: calls.append(side) or real(s, side))
    s = GAME.new_state(3)
    rng = random.Random(3)
    decisions = 0
    for _ in range(1500):
        if s.is_terminal() or decisions >= 5:
            break
        before = len(calls)
        acts = s.legal_actions()
        if s.rules() is artillery.FIRE:
            decisions += 1
            assert len(calls) == before  # listed when the step was reached
        s.apply(rng.choice(acts))
    assert decisions


def test_the_kept_targets_are_those_found_afresh():  # DG 8.1.3, 8.1.4, 8.1.6
    # a firing unit's targets kept on the game under what they read of the position are, at
    # every fire decision of random games, the ones worked out from the position itself
    import random

    from henderson.games.deluxe.rules import artillery
    from henderson.games.deluxe.rules.common import occupancy

    from .support import GAME

    checked = 0
    for seed in (1, 2, 3):
        s = GAME.new_state(seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            acts = s.legal_actions()
            if s.rules() is artillery.FIRE:
                side = s.current_player()
                occ = occupancy(s)
                seen = artillery.sighting(s, side, occ)
                for uid in s.game.ids_by_side[side]:
                    u = s.units[uid]
                    if artillery.can_fire(s, u, occ):
                        assert artillery.kept_targets(s, u, occ, seen) == artillery.targets(s, u, occ)
                        checked += 1
            s.apply(rng.choice(acts))
    assert checked > 50


def test_the_hexes_next_to_the_ends_refuse_only_lines_the_whole_line_refuses():  # DG 8.1.4.1-2
    # a line of sight is refused without being drawn when a hex next to an end could not let
    # the view through; drawing every line (openings everywhere) gives the same answers
    import random

    from henderson.games.deluxe.game import load_game
    from henderson.games.deluxe.rules.artillery import Openings, _sight

    s = example([1])
    drawn = load_game()
    everywhere = frozenset(s.data.map.hexes)
    drawn.sight_openings = Openings(everywhere, everywhere)
    t = s.clone()
    t._game = drawn
    rng = random.Random(8)
    hexes = sorted(h for h, info in s.data.map.hexes.items() if info.land)
    refused = seen = 0
    for _ in range(3000):
        a = rng.choice(hexes)
        b = rng.choice([h for h in hexes if 2 <= s.data.map.distance(a, h) <= 8] or hexes)
        if s.data.map.distance(a, b) < 2:
            continue
        quick = _sight(s, a, b)
        assert quick == _sight(t, a, b), (a, b)
        ends = s.game.sight_openings
        ha, hb = s.data.map.hexes[a], s.data.map.hexes[b]
        if ha.level == hb.level:
            refused += a not in ends.level or b not in ends.level
        else:
            refused += (a if ha.level > hb.level else b) not in ends.slope
        seen += quick
    assert refused > 1000 and seen > 10  # refusals without a line, and views, were checked
