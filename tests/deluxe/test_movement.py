"""Movement (DG 7.1-7.6), starting with the rulebook's movement example."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from henderson.core.errors import IllegalAction
from henderson.games.deluxe.actions import DGAction
from henderson.games.deluxe.rules import move
from henderson.games.deluxe.rules.explain import why_not
from henderson.games.deluxe.rules.movement import (
    Context,
    edge_tables,
    movers,
    path_cost,
    routes,
    stack_routes,
)

from .support import GAME, redacted, state


def example():
    """DG 7.1 example: the Japanese hold 3809 and 4008; an LVT sits in the Lunga at 3609."""
    return state(
        10,
        "us_move",
        {
            "2/2": "3509",
            "6/3": "3511",
            "7/1": {"at": "3507", "landed": 10},
            "1LVT": "3609",
            "124/2": "3809",
            "124/1": "4008",
        },
    )


def test_movement_example_lvt_crossing():  # DG 7.1 example, DG 7.3.3
    s = example()
    u = s.units["2/2"]
    assert path_cost(s, u, ["3609", "3709"]) == 3  # river 2 (no stop with the LVT), clear 1
    assert "3709" in routes(s, u)  # (the road round by the bridge is cheaper still)
    with pytest.raises(IllegalAction, match="must stop in 3709"):  # enemy zone of control
        path_cost(s, u, ["3609", "3709", "3710"])


def test_movement_example_river_without_helper_stops():  # DG 7.1 example, DG 7.3.3
    s = example()
    u = s.units["6/3"]
    assert path_cost(s, u, ["3611"]) == 2  # a jungle river hex is still two points
    with pytest.raises(IllegalAction, match="must stop in 3611"):
        path_cost(s, u, ["3611", "3711"])


def test_movement_example_landing_road_jungle_zoc():  # DG 7.1 example
    s = example()
    u = s.units["7/1"]
    path = ["3607", "3707", "3806", "3807", "3907", "3908", "3909"]
    # 2 to leave the landing hex, road free, clear 1 + 1, jungle 2 (no stop), clear 1 = 7
    assert path_cost(s, u, path) == 7
    assert s.data.map.hexes["3908"].jungle and "3909" in routes(s, u)
    with pytest.raises(IllegalAction, match="must stop in 3909"):
        path_cost(s, u, [*path, "3910"])


def test_landing_penalty_only_on_the_arrival_turn():  # DG 7.3.5
    s = state(10, "us_move", {"7/1": {"at": "3507", "landed": 9}, "124/2": "3809"})
    assert path_cost(s, s.units["7/1"], ["3607", "3707"]) == 0


def test_road_to_village_costs_one():  # DG 7.3.7
    s = state(10, "us_move", {"7/1": "3508", "124/2": "3809"})
    assert path_cost(s, s.units["7/1"], ["3507"]) == 1


def test_road_to_village_ignores_the_river():  # DG 7.3.7 "regardless of other terrain"
    # on the map both road hexes next to the Matanikau (3209: river, jungle, village, road)
    # reach it along the road; were the road cut between 3109 and 3209, entering the village
    # from the road hex 3109 would still cost one point, and the river would not stop the unit
    m = GAME.data.map
    cut = {h: tuple(n for n in m.road_next.get(h, ()) if {h, n} != {"3109", "3209"}) for h in m.hexes}
    data = SimpleNamespace(
        map=SimpleNamespace(hexes=m.hexes, adjacent=m.adjacent, road_next=cut, river_next=m.river_next),
        movement=GAME.data.movement,
    )
    normal, _ = edge_tables(data)
    assert ("3209", 1, False) in normal["3109"]
    assert ("3209", 2, True) in normal["3110"]  # from a jungle hex: river, and it stops
    s = state(10, "us_move", {"7/1": "3109", "124/2": "3913"})
    assert routes(s, s.units["7/1"])["3209"].cost == 1  # along the printed road


def test_minimum_move():  # DG 7.2 a unit may always move one hex
    s = state(
        15,
        "us_move",
        {"90": "3911", "124/2": "3314"},
        flags={"event": {"side": "jp", "kind": "movement", "target": "enemy", "amount": -2}},
    )
    u = s.units["90"]  # movement 3 - 2 (malaria event) = 1 point, jungle costs 2
    assert path_cost(s, u, ["3912"]) == 2
    assert "3912" in routes(s, u)


def test_never_into_an_enemy_hex_and_stacking():  # DG 7.3.8, 7.5
    s = state(10, "us_move", {"7/1": "3808", "1/1": "3807", "1/2": "3807", "1/3": "3807", "124/2": "3908"})
    r = routes(s, s.units["7/1"])
    assert "3908" not in r
    assert "3807" not in r  # already three units
    with pytest.raises(IllegalAction, match=r"DG 7\.3\.8: 3908 holds enemy units"):
        s.apply("move 7/1 3908")
    with pytest.raises(IllegalAction, match=r"DG 7\.5: 3807 has room for 0 more units"):
        s.apply("move 7/1 3807")


def test_moving_through_friends_is_free():  # DG 7.3.8
    s = state(10, "us_move", {"7/1": "3807", "1/1": "3808", "124/2": "4012"})
    assert path_cost(s, s.units["7/1"], ["3808", "3809"]) == 2


def test_jungle_negates_zone_of_control():  # DG 7.4.2
    s = state(10, "us_move", {"7/1": "3807", "124/2": "4008"})
    assert path_cost(s, s.units["7/1"], ["3908", "3909"]) == 3  # 3908 jungle next to 4008
    with pytest.raises(IllegalAction, match="must stop in 3909"):
        path_cost(s, s.units["7/1"], ["3908", "3909", "3910"])


def test_sea_movement():  # DG 7.6
    s = state(10, "us_move", {"7/1": "3507", "124/2": "3911"})
    legal = [str(a) for a in s.legal_actions()]
    assert "sea 7/1 5005" in legal
    s.apply("sea 7/1 5005")
    assert s.units["7/1"].at == "5005" and s.units["7/1"].spent == 2
    assert any(str(a).startswith("move 7/1 ") for a in s.legal_actions())  # it moves on
    assert not any(str(a).startswith("sea 7/1 ") for a in s.legal_actions())


def test_sea_movement_limited_to_three_units():  # DG 7.6
    s = state(10, "us_move", {"7/1": "3507", "7/2": "3507", "7/3": "3507", "1/1": "3408", "124/2": "3911"})
    for uid in ("7/1", "7/2", "7/3"):
        s.apply(f"sea {uid} 5005" if uid != "7/3" else "sea 7/3 5405")
    assert not any(a.verb == "sea" for a in s.legal_actions())


def test_moving_through_a_village_takes_control():  # DG 9.3
    s = state(10, "us_move", {"7/1": "3408", "124/2": "3911"})
    s.apply("move 7/1 3607")
    assert s.villages["3507"] == "us"


def test_henderson_field_repair_and_reduction():  # DG 7.11.1, 7.11.2
    s = state(
        10,
        "us_move",
        {"1Eng": "3707", "124/2": "4014"},
        henderson_field={"status": 14, "control": "us"},
    )
    s.apply("repair 1Eng")  # the whole turn on the field: two points
    assert s.airfield.status == 16 and s.units["1Eng"].moved
    s = state(
        10,
        "jp_move",
        {"11Lab": "3707", "7/1": "3209"},
        henderson_field={"status": 14, "control": "jp"},
    )
    s.apply("wreck 11Lab")  # a labour unit spending its whole turn there: six points
    assert s.airfield.status == 8
    s = state(
        10,
        "jp_move",
        {"38Eng": "3708", "7/1": "3209"},
        henderson_field={"status": 14, "control": "us"},
    )
    s.apply("move 38Eng 3707")  # one point of six spent: no more than half
    s.apply("wreck 38Eng")
    assert s.airfield.status == 11 and s.airfield.control == "jp"


def test_lvt_itself_crosses_without_stopping():  # DG 7.3.3 "including itself"
    s = state(10, "us_move", {"1LVT": "3509", "124/2": "4014"})
    assert path_cost(s, s.units["1LVT"], ["3609", "3709"]) == 3


def test_lvt_capacity_is_its_strength():  # DG 7.3.3
    s = state(
        10,
        "us_move",
        {"1LVT": {"at": "3609", "strength": 1}, "2/1": "3509", "2/3": "3509", "124/2": "3607"},
    )  # the Japanese hold the bridge
    s.apply("move 2/1 3710")  # through the LVT's hex without stopping: uses its one crossing
    assert s.this_turn.crossings == {"1LVT": 1}
    with pytest.raises(IllegalAction, match="must stop in 3609"):
        path_cost(s, s.units["2/3"], ["3609", "3709"])


def test_stealth_units_exert_no_zone_of_control():  # rulings: DG 7.4, 7.7
    s = state(10, "us_move", {"7/1": "3807", "124/2": {"at": "4008", "stealth": 1}})
    assert path_cost(s, s.units["7/1"], ["3908", "3909", "3910"]) == 5
    assert "4008" not in routes(s, s.units["7/1"])  # still never into the enemy's hex


def test_only_first_marines_withdraw():  # DG 7.9.2
    s = state(10, "us_move", {"7/1": "3507", "147/2": "3507", "124/2": "4014"})
    legal = {str(a) for a in s.legal_actions()}
    assert "withdraw 7/1" in legal and "withdraw 147/2" not in legal


def test_landing_anywhere_when_no_landing_hex_is_free(monkeypatch):  # DG 2.2.2.6 note
    from henderson.games.deluxe.rules import movement, reinforcements

    s = state(7, "us_reinforce", {"124/2": "4014"})
    monkeypatch.setattr(reinforcements, "landing_hexes", lambda *a: [])
    legal = {str(a) for a in s.legal_actions()}
    assert "land 1/1 3408" in legal  # a jungle coastal hex, normally closed to the US
    s.apply("land 1/1 3408")
    assert "1/1" in s.this_turn.stuck
    assert s.units["1/1"] not in movement.movers(s, "us")  # it may not move any farther


def test_stack_moves_together_at_the_slowest_rate():  # DG 7.5
    s = state(10, "us_move", {"1/1": "3511", "11/1": "3511", "124/2": "4012"})
    inf, art = s.units["1/1"], s.units["11/1"]
    together = {a.args[1] for a in s.legal_actions() if a.verb == "stack"}
    assert together and together <= set(routes(s, art)) & set(routes(s, inf))
    assert set(routes(s, art)) - set(routes(s, inf)) == set()  # the artillery is slower
    dest = max(together, key=lambda h: routes(s, art)[h].cost)
    cost = routes(s, art)[dest].cost
    s.apply(f"stack 1/1+11/1 {dest}")
    inf, art = s.units["1/1"], s.units["11/1"]  # records are replaced on a change
    assert inf.at == art.at == dest
    assert inf.spent == art.spent == cost  # each pays for each hex entered
    assert not inf.moved and inf.leg in ("go", "halt")
    if inf.leg == "go":  # the faster unit may go on alone (DG 7.5)
        assert any(a.verb == "move" and a.args[0] == "1/1" for a in s.legal_actions())


def test_stack_notation_names_units_in_one_hex():  # DG 7.5
    s = state(10, "us_move", {"1/1": "3511", "1/2": "3511", "1/3": "3509", "124/2": "4012"})
    stacks = {a.args[0] for a in s.legal_actions() if a.verb == "stack"}
    assert stacks == {"1/1+1/2"}
    with pytest.raises(IllegalAction, match=r"DG 7\.5"):
        s.apply("stack 1/1+1/3 3611")


def test_stacking_limit_for_a_stack_move():  # DG 7.5: three units a hex
    where = {"1/1": "3511", "1/2": "3511", "5/1": "3611", "5/2": "3611", "124/2": "4012"}
    s = state(10, "us_move", where)
    dests = {a.args[1] for a in s.legal_actions() if a.verb == "stack"}
    assert "3611" in routes(s, s.units["1/1"])  # one more fits
    assert "3611" not in dests and "3610" in dests  # two more do not: 2 + 2 > 3


def test_stack_move_event_hides_the_counters_below_the_top():  # DG 7.5, 7.8
    s = state(10, "us_move", {"1/1": "3511", "1/2": "3511", "124/2": "4012"})
    events = s.apply("stack 1/1+1/2 3510")
    seen = s.events_for(events, "jp")
    assert [e.data for e in seen if e.kind == "move"] == [{"hidden": True}]
    assert s.events_for(events, "us") == events


def test_stack_crosses_a_river_through_a_helper_with_enough_crossings():  # DG 7.3.3, 7.5
    two = state(10, "us_move", {"2/2": "3509", "2/3": "3509", "1LVT": "3609", "124/1": "4812"})
    assert two.units["1LVT"].strength == 2  # two crossings this phase
    r = stack_routes(two, (two.units["2/2"], two.units["2/3"]))
    assert not r["3609"].stop and r["3609"].helpers == ("3609",)  # carried across
    two.apply("stack 2/2+2/3 3609")
    assert two.this_turn.crossings["1LVT"] == 2  # each unit used one crossing
    weak = {"2/2": "3509", "2/3": "3509", "1LVT": {"at": "3609", "strength": 1}, "124/1": "4812"}
    one = state(10, "us_move", weak)
    r1 = stack_routes(one, (one.units["2/2"], one.units["2/3"]))
    assert r1["3609"].stop  # two units, one crossing left: the stack stops in the river
    assert not routes(one, one.units["2/2"])["3609"].stop  # one unit alone is carried


@pytest.mark.parametrize("seed", [3, 11])
def test_every_route_costs_what_its_path_costs(seed):  # DG 7.1-7.4, the cached searches
    s = GAME.new_state(seed)
    rng = random.Random(seed)
    checked = 0
    for _ in range(160):
        if s.is_terminal():
            break
        step = s.current_step
        if step.phase == "move" and not s.pending:
            ctx = Context(s, step.side)
            for u in movers(s, step.side):
                for hid, r in routes(s, u, ctx).items():
                    assert r.path[-1] == hid
                    if not r.minimum and not u.pool:
                        assert path_cost(s, u, list(r.path)) == r.cost
                        checked += 1
        s.apply(rng.choice(s.legal_actions()))
    assert checked


def test_stack_move_notation_is_redacted_for_the_enemy():  # DG 7.5, 7.8
    s = state(10, "us_move", {"1/1": "3511", "1/2": "3511", "124/2": "4012"})
    events = s.apply("stack 1/1+1/2 3510")
    text, _ = redacted(s, "us", "stack 1/1+1/2 3510", [e.to_json() for e in events], "jp")
    assert text == "us acts out of sight"  # the counter below the top is not named
    text, _ = redacted(s, "us", "stack 1/1+1/2 3510", [e.to_json() for e in events], "us")
    assert text == "stack 1/1+1/2 3510"


def test_routes_found_again_match_a_fresh_search():  # DG 7.3.3
    """Route searches are kept on the game and found again, even when the helpers'
    crossings changed in hexes a search never tried to cross into: along a seeded random
    game, every mover's routes equal those a game with no searches kept finds."""
    from henderson.games.deluxe.game import load_game

    fresh = load_game()
    rng = random.Random(3)
    play = GAME.new_state(3)
    checked = 0
    for ply in range(600):
        if play.is_terminal():
            break
        side = play.current_player()
        if play.step.endswith("_move") and ply % 4 == 0:
            twin = play.clone()
            twin._game = fresh
            for cache in (fresh.route_cache, fresh.route_variants, fresh.step_cache):
                cache.clear()
            for u in movers(play, side):
                kept = {h: (r.cost, r.stop, r.minimum, r.path, r.helpers) for h, r in routes(play, u).items()}
                found = routes(twin, twin.units[u.id])
                assert kept == {h: (r.cost, r.stop, r.minimum, r.path, r.helpers) for h, r in found.items()}
                checked += 1
        play.apply(rng.choice(play.legal_actions()))
    assert checked > 100


def test_the_movement_context_is_kept_while_its_inputs_hold():  # DG 7.3.3, 7.4, 7.5 read once a position
    s = state(10, "us_move", {"1/1": "3511", "11/1": "3511", "124/2": "4012"})
    ctx = Context.of(s, "us")
    assert Context.of(s, "us") is ctx and Context.of(s, "jp") is not ctx
    s.this_turn.crossings = {"1/1": 1}  # a helper's crossing used: the context is made again
    again = Context.of(s, "us")
    assert again is not ctx and Context.of(s, "us") is again
    s.update(s.units["1/1"], at="3512")  # a unit moved: the enemy's hexes and stacks change
    moved = Context.of(s, "jp")
    assert "3512" in moved.enemy and "3512" not in Context(s, "us").enemy
    assert moved.size == Context(s, "jp").size and Context.of(s, "us").occ == Context(s, "us").occ
    kept = Context.of(s, "us")
    s.update(s.units["11/1"])  # a record replaced by an equal one: told by identity, brought up to date
    assert Context.of(s, "us") is not kept and Context.of(s, "us").occ == Context(s, "us").occ
    assert all(a is b for a, b in zip(Context.of(s, "us").occ["3511"], Context(s, "us").occ["3511"], strict=True))
    assert s.clone().contexts == {}  # a clone makes its own


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(1, 10_000))
def test_a_move_is_checked_alone_as_the_list_checks_it(seed):  # DG 7.1-7.5, 7.7.1, 2.2.2.6 note
    # positions of a seeded random game: every listed land move is accepted by the check of
    # its unit alone, and a sample of unlisted moves is refused, with the refusal's own rule
    def tries(s, moves, rng):
        hexes = sorted(s.data.map.hexes)
        full = sorted(h for h, n in Context(s, s.current_player()).size.items() if n >= s.data.constants.stacking)
        reached = sorted({a.args[1] for a in moves})  # some unit's destination
        ids = [*sorted(s.units), "9/9"]
        for _ in range(60):
            uid = rng.choice(ids)
            u = s.units.get(uid)
            near = sorted(s.data.map.adjacent[u.at]) if u is not None and u.on_map else hexes
            yield uid, rng.choice(rng.choice([near, full or hexes, reached or hexes, hexes, ["turn"]]))

    check_alone_as_listed(seed, "move", tries)


@given(seed=st.integers(1, 10_000))
@settings(max_examples=30, deadline=None)
def test_a_sea_move_is_checked_alone_as_the_list_checks_it(seed):  # DG 7.5, 7.6
    # positions of a seeded random game: every listed sea move is accepted by the check of
    # its unit alone, and a sample of unlisted ones is refused, with the refusal's own rule
    coastal = list(GAME.coastal)

    def tries(s, seas, rng):
        starts = sorted({a.args[0] for a in seas})  # units that may sail
        size = Context(s, s.current_player()).size
        held = [h for h in coastal if h in size] or coastal  # full, nearly full or the enemy's
        ids = [*sorted(s.units), "9/9"]
        for _ in range(60):
            uid = rng.choice(starts if starts and rng.random() < 0.7 else ids)
            u = s.units.get(uid)
            own = [u.at] if u is not None and u.on_map else coastal
            yield uid, rng.choice(rng.choice([coastal, held, held, own, sorted(s.data.map.hexes)]))

    check_alone_as_listed(seed, "sea", tries)


def check_alone_as_listed(seed, verb, tries):
    """Along a seeded random game, at up to 12 movement phases: every listed `verb` action is
    accepted by the check of its unit alone, and of the (unit, hex) pairs `tries` draws, each is
    accepted exactly when listed; a fifth of the unlisted ones are applied and must be refused
    with the refusal's own message."""
    rng = random.Random(seed)
    s = GAME.new_state(seed)
    checked = 0
    while not s.is_terminal() and checked < 12:
        legal = s.legal_actions()
        if s.rules() is move.PHASE:
            checked += 1
            listed = set(legal)
            mine = [a for a in legal if a.verb == verb]
            assert all(move.PHASE.is_legal(s, DGAction(verb, a.args)) for a in mine)
            for uid, where in tries(s, mine, rng):
                a = DGAction(verb, (uid, where))
                assert move.PHASE.is_legal(s, a) == (a in listed), a
                if a not in listed and rng.random() < 0.2:
                    with pytest.raises(IllegalAction) as refused:
                        s.clone().apply(a)
                    assert str(refused.value) == str(why_not(s, a))
        s.apply(legal[rng.randrange(len(legal))])
    assert checked  # the game reached movement phases


def test_a_move_is_checked_without_listing_every_action():  # the check reads one unit's routes
    s = state(10, "us_move", {"1/1": "3511", "11/1": "3511", "124/2": "4012"})
    a = next(a for a in s.legal_actions() if a.verb == "move")
    c = s.clone()
    c.changed()  # the list is forgotten
    assert move.PHASE.is_legal(c, DGAction("move", a.args))
    assert not move.PHASE.is_legal(c, DGAction("move", ("124/2", a.args[1])))  # not its side's phase
    assert c._legal is None  # nothing was listed
    c.apply(DGAction("move", a.args))
    assert c.units[a.args[0]].at == a.args[1]


def test_a_move_checked_alone_into_a_full_hex_is_refused():  # DG 7.5, as the list leaves it out
    near = sorted(GAME.data.map.adjacent["3511"])
    full = next(h for h in near if GAME.data.map.hexes[h].land)
    s = state(10, "us_move", {"1/1": "3511", "7/1": full, "7/2": full, "7/3": full, "124/2": "4012"})
    into = DGAction("move", ("1/1", full))
    assert into not in set(s.legal_actions())
    c = s.clone()
    c.changed()
    assert not move.PHASE.is_legal(c, into)
    with pytest.raises(IllegalAction, match=r"DG 7\.5"):
        c.apply(into)


def full_listing(s):
    """The movement phase's actions listed from nothing kept (no earlier position's lists)."""
    fresh = s.clone()
    fresh.move_lists = None
    fresh.option_lists = None
    return move.PHASE.actions(fresh)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(1, 10_000))
def test_moves_listed_from_the_last_lists_are_the_full_listing(seed):  # DG 7.1-7.11
    # along a seeded random game, with clones played on as a search plays them, the actions
    # listed from the earlier position's lists are exactly those listed from nothing
    rng = random.Random(seed)
    s = GAME.new_state(seed)
    checked = 0
    while not s.is_terminal() and checked < 40:
        legal_now = s.legal_actions()
        if s.rules() is move.PHASE:
            checked += 1
            assert move.PHASE.actions(s) == full_listing(s)
            branch = s.clone()  # shares the lists: playing on it changes nothing here
            branch.apply(rng.choice(legal_now))
            if branch.rules() is move.PHASE:
                assert move.PHASE.actions(branch) == full_listing(branch)
            assert move.PHASE.actions(s) == full_listing(s)
        s.apply(legal_now[rng.randrange(len(legal_now))])
    assert checked


def test_a_list_is_redone_when_a_hex_it_reaches_fills_up():  # DG 7.5
    s = state(10, "us_move", {"1/1": "3507", "1/2": "3507", "7/1": "3408", "7/2": "3408", "124/2": "4012"})
    assert "move 7/1 3508" in map(str, s.legal_actions())
    s.apply("move 1/1 3508")
    s.apply("move 1/2 3508")
    assert "move 7/1 3508" in map(str, s.legal_actions())  # two there: room for one more
    s.apply("move 7/2 3508")  # now three (DG 7.5)
    assert "move 7/1 3508" not in map(str, s.legal_actions())
    assert move.PHASE.actions(s) == full_listing(s)


def test_only_the_changed_lists_are_made_again():  # the mover's, not every unit's
    s = state(10, "us_move", {"1/1": "3507", "7/1": "3408", "7/2": "3811", "124/2": "4012"})
    s.legal_actions()
    before = s.move_lists
    s.apply("move 1/1 3508")
    s.legal_actions()
    after = s.move_lists
    assert after is not before and "1/1" not in after.moves  # it has moved
    assert after.moves["7/2"] is before.moves["7/2"]  # far away: kept
    assert s.clone().move_lists is after  # shared with clones, never changed


def test_open_steps_are_read_only_where_nothing_hinders_them():  # DG 7.3.3, 7.3.8, 7.4.1
    # along a seeded random game, every mover's search gives what a search that works out
    # the steps out of every hex (enemy hexes, zones of control, rivers) gives
    from henderson.games.deluxe.rules.movement import HELPER_TYPES, _search, allowance, landing_extra

    rng = random.Random(5)
    s = GAME.new_state(5)
    everywhere = frozenset(GAME.data.map.hexes)
    checked = 0
    for ply in range(700):
        if s.is_terminal():
            break
        if s.rules() is move.PHASE and ply % 3 == 0:
            side = s.current_player()
            for u in movers(s, side):
                found = []
                for hindered in (None, everywhere):
                    ctx = Context(s, side)
                    ctx.shared = None  # steps of its own
                    if hindered is not None:
                        ctx._hindered = {(r, n): hindered for r in (True, False) for n in (1, 2, 3)}
                    ctx.helper_type = GAME.data.units[u.id].type in HELPER_TYPES
                    raw = _search(s, u, ctx, u.at, allowance(s, u), landing_extra(s, u))
                    found.append({h: (r.cost, r.stop, r.path, r.helpers) for h, r in raw.items()})
                assert found[0] == found[1]
                checked += 1
        s.apply(rng.choice(s.legal_actions()))
    assert checked > 50


def test_other_options_are_made_again_only_for_units_that_changed():  # DG 7.7, 7.9, 7.11
    from dataclasses import replace

    s = state(10, "us_move", {"1/1": "3507", "7/1": "3408", "7/2": "3811", "124/2": "4012"})
    s.legal_actions()
    before = s.option_lists
    s.apply("move 1/1 3508")
    s.legal_actions()
    after = s.option_lists
    assert after.units["7/2"] is before.units["7/2"] and after.units["1/1"] is not before.units["1/1"]
    s.airfield = replace(s.airfield, status=s.airfield.status - 1)  # the field changed: all again
    s.changed()
    s.legal_actions()
    assert s.option_lists.units["7/2"] is not after.units["7/2"]
    assert move.PHASE.actions(s) == full_listing(s)


def test_a_context_brought_up_to_date_is_the_context_made_afresh():  # DG 7.3.3, 7.4, 7.5, 7.8
    # along a seeded random game, the context carried from position to position reads as
    # the one made from the position alone: stacks bottom to top, sizes, enemy, helpers
    rng = random.Random(8)
    s = GAME.new_state(8)
    checked = 0
    for _ in range(900):
        if s.is_terminal():
            break
        if s.rules() is move.PHASE:
            side = s.current_player()
            kept, fresh = Context.of(s, side), Context(s, side)
            assert kept.occ == fresh.occ and kept.size == fresh.size
            assert [kept.no_room(s, n) for n in (1, 2, 3)] == [fresh.no_room(s, n) for n in (1, 2, 3)]
            assert (kept.key, kept.zoc, kept.capacity) == (fresh.key, fresh.zoc, fresh.capacity)
            checked += 1
        s.apply(rng.choice(s.legal_actions()))
    assert checked > 100


def test_a_unit_that_works_without_moving_stays_where_it_was_in_its_stack():  # DG 7.8, 7.11.1
    s = state(
        10,
        "jp_move",
        {"11Lab": {"at": "3707", "order": 1}, "124/2": {"at": "3707", "order": 2}, "7/1": "3209"},
        henderson_field={"status": 14, "control": "jp"},
    )
    assert [u.id for u in Context.of(s, "jp").occ["3707"]] == ["11Lab", "124/2"]
    s.apply("wreck 11Lab")  # its record changes, its place in the stack does not
    assert Context.of(s, "jp").occ == Context(s, "jp").occ
    assert [u.id for u in Context.of(s, "jp").occ["3707"]] == ["11Lab", "124/2"]


def test_a_step_table_reads_every_step_as_one_step_is_read():  # DG 7.3.3, 7.3.8, 7.4.1
    # the table starts as the open steps and works out the hindered hexes: out of every land
    # hex, its steps are those `step_cost` gives one at a time, stops and helpers included
    from henderson.games.deluxe.rules.movement import StepTable, step_cost

    s = example()
    ctx = Context.of(s, "us")
    unit = s.units["2/2"]
    table = StepTable(s, ctx, False, True, 1)
    hindered = 0
    for here, info in s.data.map.hexes.items():
        if not info.land or here in ctx.enemy:
            continue
        hindered += here in table.hindered
        goes, halts = table[here]
        steps = {to: (cost, stop, via) for stop, out in ((False, goes), (True, halts)) for to, cost, via in out}
        one = {to: step_cost(s, unit, here, to, ctx) for to in s.data.map.adjacent[here]}
        assert steps == {to: sc for to, sc in one.items() if sc is not None}, here
    assert hindered > 10 and any(halts for _, halts in table.values())


def test_a_step_table_kept_steps_are_the_steps_worked_out():  # DG 7.3.3, 7.3.8, 7.4.1
    # along a seeded random game, for every kind of search (stealth, rivers, units crossing
    # together), the steps a table reads (open and river steps kept on the game, a hindered
    # hex's steps shared by the game's tables) are those worked out from the hex's edges
    from henderson.games.deluxe.rules.movement import StepTable

    rng = random.Random(11)
    s = GAME.new_state(11)
    land = [h for h, info in GAME.data.map.hexes.items() if info.land]
    checked = helped = 0
    for ply in range(600):
        if s.is_terminal():
            break
        if s.rules() is move.PHASE and ply % 5 == 0:
            ctx = Context(s, s.current_player())
            kinds = ((False, True, 1), (False, True, 2), (False, True, 3), (False, False, 1), (True, False, 1))
            for pool, rivers, need in kinds:
                kept = StepTable(s, ctx, pool, rivers, need)
                for here in land:
                    if here not in ctx.enemy:
                        assert kept[here] == kept.work_out(here), (here, pool, rivers, need)
            checked += 1
            helped += bool(ctx.capacity)  # helpers with crossings left (DG 7.3.3)
        s.apply(rng.choice(s.legal_actions()))
    assert checked > 20 and helped > 5


def test_no_sea_move_from_next_to_an_enemy_unit():  # DG 7.6
    m = GAME.data.map
    enemy_at = next(n for n in sorted(m.adjacent["3507"]) if m.hexes[n].land)
    near = set(m.adjacent[enemy_at])
    expected = {h for h, info in m.hexes.items() if info.coastal and h not in near}
    free = min(h for h in expected if h != enemy_at)  # a coastal hex away from the enemy
    s = state(10, "us_move", {"7/1": "3507", "7/2": free, "124/2": enemy_at})
    assert not any(str(a).startswith("sea 7/1 ") for a in s.legal_actions())
    assert Context.of(s, "us").sea_starts(s) == expected
    assert any(str(a).startswith("sea 7/2 ") for a in s.legal_actions())


def test_an_action_table_makes_each_action_once():  # the listing reads it once per hex
    from henderson.games.deluxe.rules.movement import ActionTable

    table = ActionTable("move", "7/1", GAME.action)
    first = table["3707"]
    assert first == DGAction("move", ("7/1", "3707")) and table["3707"] is first
    assert list(table) == ["3707"] and "3708" not in table


def test_a_kept_search_is_asked_about_river_crossings_from_their_banks():  # DG 7.3.3
    # whether a kept search may have tried to cross a river into one of some hexes (where
    # the helpers' crossings changed) is told from the banks those crossings leave: the
    # answer the plain reading gives, from every hex the search reached
    from henderson.games.deluxe.rules.movement import _tried_to_cross

    rng = random.Random(5)
    s = GAME.new_state(5)
    across = GAME.river_crossings
    rivers = sorted({to for out in across.values() for to in out})
    checked = hits = 0
    while not s.is_terminal() and checked < 3000:
        if s.rules() is move.PHASE:
            for key, found in list(GAME.route_cache.items())[-20:]:
                start = key[0]
                crossed = {to for here in (start, *found.costs) if here in across for to in across[here]}
                for _ in range(3):
                    hexes = set(rng.sample(rivers, rng.randint(0, 4)))
                    assert _tried_to_cross(s, start, found, hexes) == bool(hexes & crossed)
                    hits += bool(hexes & crossed)
                    checked += 1
        s.apply(rng.choice(s.legal_actions()))
    assert checked >= 3000 and hits > 50


@given(seed=st.integers(0, 10_000), verb=st.sampled_from(["move", "sea", "stack"]))
@settings(max_examples=60, deadline=None)
def test_a_listed_units_actions_are_its_table_read_hex_by_hex(seed, verb):  # DG 7.5, 7.6
    # `_allowed` reads a unit's actions from its table in one pass over the hexes left once
    # the barred ones are taken out: the list the plain loop gives, hex by hex in hex order
    from henderson.games.deluxe.actions import make
    from henderson.games.deluxe.rules.movement import ActionTable, _allowed

    rng = random.Random(seed)
    hexes = sorted(GAME.data.map.hexes)
    reach = {h: rng.randint(0, 9) for h in rng.sample(hexes, rng.randint(0, 120))}
    barred = frozenset(rng.sample(hexes, rng.randint(0, 60)) + rng.sample(sorted(reach) or hexes, 1))
    who = f"7/{seed}" if verb != "stack" else f"7/1+7/{seed}"
    s = example()
    table = ActionTable(verb, who, make)
    plain = [table[h] for h in sorted(reach) if h not in barred]
    for given_hexes in (reach.keys(), frozenset(reach)):
        found = _allowed(s, verb, who, ("test", seed, len(reach), given_hexes is reach.keys()), given_hexes, barred)
        assert found == plain and all(a is b for a, b in zip(found, plain, strict=True))


@given(seed=st.integers(0, 10_000))
@settings(max_examples=40, deadline=None)
def test_a_hindered_hexs_shared_steps_are_its_own(seed):  # DG 7.3.3, 7.3.8, 7.4.1
    # enemy hexes, zones of control and helpers drawn at random about the rivers: each river
    # bank's steps, taken from those the game's tables share, are the ones worked out for it
    from henderson.games.deluxe.rules.movement import StepTable

    rng = random.Random(seed)
    s = example()
    banks = sorted(GAME.river_crossings)
    near = sorted({n for h in banks for n in GAME.data.map.adjacent[h]})
    for need in (1, 2):
        table = StepTable(s, Context(s, "us"), False, True, need)
        table.enemy = frozenset(rng.sample(near, 40))
        table.zoc = frozenset(rng.sample(near, 150))
        table.capacity = {h: rng.randint(1, 3) for h in rng.sample(near, 150)}
        table.clear()  # every hex read as a hindered one
        for here in rng.sample(banks, 60):
            assert table[here] == table.work_out(here), (here, need)


def test_the_listing_lists_every_mover_and_no_other():  # DG 7.1, 7.5, 7.7.1, 2.2.2.6 note
    # along seeded random games, the units whose moves a movement listing holds are the
    # units `may_move` lets move (the listing reads its tests inline), halted ones included
    checked = halted = 0
    for seed in (13, 14, 15, 16):
        rng = random.Random(seed)
        s = GAME.new_state(seed)
        for _ in range(1500):
            if s.is_terminal():
                break
            legal = s.legal_actions()
            if s.rules() is move.PHASE:
                side = s.current_player()
                assert set(s.move_lists.moves) == {u.id for u in movers(s, side)}
                checked += 1
                halted += any(u.leg == "halt" and u.side == side for u in s.units.values())
            s.apply(rng.choice(legal))
    assert checked > 400 and halted > 0
