"""The FIRST BLOOD position evaluation (henderson.games.firstblood.evaluate): exact at the end,
antisymmetric, bounded, and pointing the right way on hand-written positions (FB 2.0, 12.6.2, 14.1)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from henderson import agents
from henderson.core.dice import SeededDice
from henderson.core.errors import HendersonError
from henderson.games.firstblood import actions as A
from henderson.games.firstblood.evaluate import breakdown, evaluate

# A guard on each Henderson Field hex (FB 9.2: 0708 and 0709) and a Japanese stack of 13 factors.
GUARD = {"1/1": "0708", "2/1": "0709"}
STACK = ("1/4", "3/4", "Kuma")  # 5 + 5 + 3
NEXT_TO_FIELD = "0607"  # next to 0708 across a clear hexside
GA = "usaf_ground_attack"


def random_position(game, seed: int, plies: int):
    """The position after `plies` uniformly random actions of a seeded game (or its end)."""
    st = game.new_state(seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if st.is_terminal():
            break
        acts = st.legal_actions()
        st.apply(acts[rng.randrange(len(acts))])
    return st


def test_terminal_states_are_exact(pos):
    """FB 2.0: a finished game is worth exactly 1 to the winner and -1 to the loser."""
    for winner, loser in (("us", "jp"), ("jp", "us")):
        st = pos("us_air", turn="JAN III", result={"winner": winner, "cause": "test"})
        assert st.is_terminal()
        assert evaluate(st, winner) == 1.0
        assert evaluate(st, loser) == -1.0


def test_played_out_game_ends_exact(game):
    st = random_position(game, 9, 10**6)
    assert st.is_terminal()
    assert evaluate(st, st.winner()) == 1.0
    assert evaluate(st, "jp" if st.winner() == "us" else "us") == -1.0


def test_unknown_side_is_refused(pos):
    with pytest.raises(HendersonError, match="unknown side"):
        evaluate(pos("us_movement", ground=GUARD), "japan")


@settings(max_examples=15, deadline=None)
@given(seed=hs.integers(0, 10**6), plies=hs.integers(0, 1500))
def test_antisymmetric_and_bounded(game, seed, plies):
    """The two sides' values are negations; a game not over stays strictly inside (-1, 1)."""
    st = random_position(game, seed, plies)
    us = evaluate(st, "us")
    assert us == -evaluate(st, "jp")
    if st.is_terminal():
        assert abs(us) == 1.0
    else:
        assert -1.0 < us < 1.0


def test_bounded_over_whole_random_games(game):
    """Every position of two seeded random games, from the set-up to the end."""
    for seed in range(2):
        st = game.new_state(seed)
        rng = random.Random(seed)
        while True:
            v = evaluate(st, "us")
            assert v == -evaluate(st, "jp")
            assert -1.0 < v < 1.0 or (st.is_terminal() and abs(v) == 1.0)
            if st.is_terminal():
                break
            acts = st.legal_actions()
            st.apply(acts[rng.randrange(len(acts))])


def test_stack_next_to_henderson_is_worse_for_the_us_than_in_a_box(pos):
    """FB 2.0, 12.6.2: Japanese strength next to the field threatens it; the same units in box A do not yet."""
    near = pos("jp_movement", turn="OCT I", ground={**GUARD, **dict.fromkeys(STACK, NEXT_TO_FIELD)})
    boxed = pos("jp_movement", turn="OCT I", ground={**GUARD, **dict.fromkeys(STACK, "A")})
    assert evaluate(near, "us") < evaluate(boxed, "us")
    assert breakdown(near)["p_capture"] > breakdown(boxed)["p_capture"]


def test_stack_next_to_an_empty_field_hex_is_worse_still(pos):
    """An airfield hex nobody guards can simply be walked into (FB 12.6)."""
    guarded = pos("jp_movement", turn="OCT I", ground={**GUARD, **dict.fromkeys(STACK, NEXT_TO_FIELD)})
    open_hex = pos("jp_movement", turn="OCT I", ground={"2/1": "0709", **dict.fromkeys(STACK, NEXT_TO_FIELD)})
    assert evaluate(open_hex, "us") < evaluate(guarded, "us")


def test_another_battalion_on_the_field_is_better_for_the_us(pos):
    """FB 8.4: more defence factors in the airfield hex lower the odds the Japanese can get."""
    threat = dict.fromkeys(STACK, NEXT_TO_FIELD)
    thin = pos("jp_movement", turn="OCT I", ground={**GUARD, **threat})
    thick = pos("jp_movement", turn="OCT I", ground={**GUARD, "3/1": "0708", **threat})
    assert evaluate(thick, "us") > evaluate(thin, "us")
    assert evaluate(thick, "jp") < evaluate(thin, "jp")


def test_lone_survivor_late_is_better_for_japan_than_none(pos):
    """FB 2.0: one Japanese unit on the map at the end of JAN III wins; its loss is worth a lot late."""
    us = {"1/1": "0708", "2/1": "0709", "3/1": "0906"}
    alive = pos("us_movement", turn="JAN III", ground={**us, "Kuma": "0218"})
    gone = pos("us_movement", turn="JAN III", ground=us, eliminated=["Kuma"])
    assert evaluate(alive, "jp") > evaluate(gone, "jp")
    assert evaluate(alive, "jp") - evaluate(gone, "jp") > 0.3


def test_survivor_counts_more_late_than_early(pos):
    """The clock: the same lone unit matters more to Japan in JAN III than in DEC I."""
    us = {"1/1": "0708", "2/1": "0709", "3/1": "0906"}

    def gain(turn: str) -> float:
        alive = pos("us_movement", turn=turn, ground={**us, "Kuma": "0218"})
        gone = pos("us_movement", turn=turn, ground=us)
        return evaluate(alive, "jp") - evaluate(gone, "jp")

    assert gain("JAN III") > gain("DEC I")


# A fight in the south (two US battalions and a third next to a Japanese battalion at 0521) and a
# Japanese straggler in the far north-west corner, sixteen rows away.
SOUTH_FIGHT = {"1/1": "0520", "2/1": "0520", "1/5": "0619", "1/4": "0521"}
STRAGGLER = {"Kuma": "0103"}


def test_straggler_out_of_reach_survives_the_game(pos):
    """FB 2.0: a Japanese unit still on the map at the end of JAN III wins for Japan; one that no US
    unit can get next to before the last US combat phase counts as a whole survivor."""
    far = pos("us_movement", turn="JAN II", ground={**SOUTH_FIGHT, "3/1": "0620", **STRAGGLER})
    none = pos("us_movement", turn="JAN II", ground={**SOUTH_FIGHT, "3/1": "0620"}, eliminated=["Kuma"])
    assert breakdown(far)["jp_survivors"] - breakdown(none)["jp_survivors"] > 0.95


def test_closing_on_a_far_straggler_is_better_for_the_us(pos):
    """FB 2.0: the US must clear every Japanese ground unit, however far; a battalion sent toward a
    straggler that would otherwise outlive the hunt is worth more than one more at a fight nearby."""
    stay = pos("us_movement", turn="DEC II", ground={**SOUTH_FIGHT, "3/1": "0620", **STRAGGLER})
    halfway = pos("us_movement", turn="DEC II", ground={**SOUTH_FIGHT, "3/1": "0510", **STRAGGLER})
    close = pos("us_movement", turn="DEC II", ground={**SOUTH_FIGHT, "3/1": "0406", **STRAGGLER})
    assert evaluate(stay, "us") < evaluate(halfway, "us") < evaluate(close, "us")
    # halfway and close may both bring the expected survivors to the supply losses still to come (FB 14.1)
    assert breakdown(stay)["jp_survivors"] > breakdown(halfway)["jp_survivors"] >= breakdown(close)["jp_survivors"]


def test_a_late_arrival_counts_where_it_may_land(pos):
    """FB 2.0, 7.2, 7.3: the Yano battalion arrives in JAN II at a Japanese entry point (1-3,
    15-17) or in box A or D, and comes onto the map with half its MF left to run on; where no US
    stack can get next to it in time it outlives the hunt. A battalion in the middle of the map
    covers none of the ways in; one by entry points 1 and 2 covers two; a stack by every way in
    leaves it nowhere to hide."""
    ground = {"1/1": "0708", "2/1": "0709", "Kuma": "0905", "1/5": "0906", "2/5": "0906"}
    middle = pos("us_movement", turn="JAN I", ground={**ground, "3/1": "0610"})
    south = pos("us_movement", turn="JAN I", ground={**ground, "3/1": "0820"})
    stations = {"3/1": "0103", "1/7": "0113", "2/7": "0219", "3/7": "0620", "1/2": "1120", "2/2": "0703", "3/2": "0402"}
    everywhere = pos("us_movement", turn="JAN I", ground={**ground, **stations})
    assert breakdown(middle)["jp_survivors"] > breakdown(south)["jp_survivors"] > breakdown(everywhere)["jp_survivors"]
    assert evaluate(middle, "us") < evaluate(south, "us") < evaluate(everywhere, "us")


def test_a_stack_in_a_box_is_hunted_only_after_it_comes_onto_the_map(pos):
    """FB 6.0, 6.2, 6.3: units in a box cannot be attacked and come onto the map at a later Japanese
    movement phase, half their MF spent. In JAN II, after the Japanese moved, a battalion in box D
    comes on only in JAN III: a US stack that can then reach where it may stop makes it less likely
    to survive the last US combat phase than one too far away."""
    ground = {"1/1": "0708", "2/1": "0709", "Yano": "D"}
    far = pos("us_movement", turn="JAN II", ground={**ground, "3/1": "1120"})
    near = pos("us_movement", turn="JAN II", ground={**ground, "3/1": "0104"})
    assert breakdown(far)["jp_survivors"] > breakdown(near)["jp_survivors"]
    assert evaluate(near, "us") > evaluate(far, "us")


def test_moving_next_to_a_stack_it_can_only_attack_below_1_2_is_worse_for_the_mover(pos):
    """FB 8.1, 8.2: a unit next to the enemy at its combat phase must attack; below 1-2 its
    attackers are eliminated (FB 8.6). Kuma (3) next to 12 US factors is lost; a hex off it is not."""
    us = {"1/1": "0906", "2/1": "0906", "3/1": "0906"}
    doomed = pos("jp_movement", turn="OCT I", ground={**us, "Kuma": "0905", "1/124": "0312"})
    clear = pos("jp_movement", turn="OCT I", ground={**us, "Kuma": "0904", "1/124": "0312"})
    assert evaluate(doomed, "jp") < evaluate(clear, "jp")
    assert doomed_stacks(doomed, "jp") == ({"0905"}, 3)
    # with a second battalion next to the same US stack the attack reaches 1-2 (7 against 12)
    helped = pos("jp_movement", turn="OCT I", ground={**us, "Kuma": "0905", "1/124": "0805"})
    assert doomed_stacks(helped, "jp") == (set(), 0)
    # FB 8.2, 9.4: a lone unit next to two stacks must attack both at once: 3 against 8 is below
    # 1-2, though 3 against either 4 alone would not be
    split = {"1/1": "0906", "2/1": "0805"}
    alone_against_two = pos("jp_movement", turn="OCT I", ground={**split, "Kuma": "0905", "1/124": "0312"})
    assert doomed_stacks(alone_against_two, "jp") == ({"0905"}, 3)
    against_one = pos("jp_movement", turn="OCT I", ground={"1/1": "0906", "Kuma": "0905", "1/124": "0312"})
    assert doomed_stacks(against_one, "jp") == (set(), 0)
    # FB 9.4: in the combat phase a unit that has attacked covers nothing: Kuma is left alone with both
    both = {"1/1": "0805", "2/1": "0906", "Kuma": "0905", "1/124": "0804"}
    combat = {"attacked": ["1/124"], "attacked_hexes": ["0704"], "must_attack": [], "must_defend": []}
    helped_in_combat = pos("jp_combat", turn="OCT I", ground=both)
    left_alone = pos("jp_combat", turn="OCT I", ground=both, combat=combat)
    assert doomed_stacks(helped_in_combat, "jp") == (set(), 0)
    assert doomed_stacks(left_alone, "jp") == ({"0905"}, 3)
    # before its movement a unit may still walk away (FB 8.2): nothing is doomed yet
    early = pos("us_movement", turn="OCT I", ground={**us, "Kuma": "0905", "1/124": "0312"})
    assert doomed_stacks(early, "jp") == (set(), 0)


def test_a_forced_attack_across_a_river_is_judged_at_the_doubled_defence(pos):
    """FB 8.7.3: defenders attacked only across river hexsides are doubled, so a battalion (4)
    forced to attack a Japanese 5 across the river at 0809/0810 attacks 4 against 10, below
    1-2 (FB 8.6): it is lost. Across a jungle hexside, or helped by a unit that is not across
    the river, the defence is not doubled and the attack is no loss."""
    across = pos("us_movement", turn="OCT I", ground={"1/1": "0809", "1/4": "0810", "Kuma": "0312"})
    assert doomed_stacks(across, "us") == ({"0809"}, 4)
    jungle_side = pos("us_movement", turn="OCT I", ground={"1/1": "0809", "1/4": "0808", "Kuma": "0312"})
    assert doomed_stacks(jungle_side, "us") == (set(), 0)
    helped = pos("us_movement", turn="OCT I", ground={"1/1": "0809", "2/1": "0710", "1/4": "0810", "Kuma": "0312"})
    assert doomed_stacks(helped, "us") == (set(), 0)
    assert evaluate(across, "us") < evaluate(jungle_side, "us")


def doomed_stacks(st, side: str) -> tuple[set[str], int]:
    """The evaluation's stacks of `side` that can only attack below 1-2, and their factors."""
    from henderson.games.firstblood.evaltables import tables_for
    from henderson.games.firstblood.evaluate import _doomed, _stage

    tab = tables_for(st.board, st.plan)
    stacks = {
        s: [
            (h, us, sum(st.data.ground[u].cf for u in us))
            for h, us in st.occ.items()
            if h in st.board.terrain and st.data.ground[us[0]].side == s
        ]
        for s in ("us", "jp")
    }
    enemy = "us" if side == "jp" else "jp"
    stage = _stage(tab.steps, tab.steps.pos[st.step], side)
    return _doomed(st, tab, stacks[side], stacks[enemy], stage)


def test_trapped_stack_is_worse_for_its_owner(pos):
    """FB 8.11, 8.2.2: a stack with no hex to retreat to loses everything on a retreat result."""
    attack = {"1/1": "0906", "2/1": "0906", "3/1": "0906", "Kuma": "0905", "1/124": "0905"}  # 12 against 7: 1-1
    free = pos("us_combat", turn="DEC I", ground=attack)
    # 0803 and 1003 are not next to 0905 but their zones of control close its last ways out (0804, 0904, 1004)
    trapped = pos("us_combat", turn="DEC I", ground={**attack, "1/5": "0803", "2/5": "1003"})
    assert breakdown(trapped)["us_kills_next"] > breakdown(free)["us_kills_next"]
    assert evaluate(trapped, "jp") < evaluate(free, "jp")


def test_field_hex_attacked_this_phase_is_not_threatened_again(pos):
    """FB 8.4, 9.4 (rulings): a hex is attacked at most once a phase and each unit attacks once."""
    ground = {"1/1": "0708", **dict.fromkeys(STACK, NEXT_TO_FIELD)}
    fresh = pos("jp_combat", turn="OCT I", ground=ground)
    done = pos(
        "jp_combat",
        turn="OCT I",
        ground=ground,
        combat={"attacked": list(STACK), "attacked_hexes": ["0708"], "must_attack": [], "must_defend": []},
    )
    assert breakdown(fresh)["p_capture"] > 0.1
    assert breakdown(done)["p_capture"] < breakdown(fresh)["p_capture"]


def test_opening_a_good_attack_shows_its_promise(pos):
    """FB 8.4-8.10: an attack being built counts its expected result, so a one-step look-ahead sees
    the gain of opening a 3-1 attack. A unit next to the enemy must attack (FB 8.1, 8.2), and
    below 1-2 it is lost (FB 8.6) whether or not the attack is opened yet: the evaluation counts
    it lost before it is opened, so opening it moves the value by little."""
    strong = pos("us_combat", turn="DEC I", ground={"1/1": "0906", "2/1": "0906", "3/1": "0906", "Kuma": "0905"})
    before = evaluate(strong, "us")
    strong.apply("attack 0905")
    assert evaluate(strong, "us") > before
    weak = pos("us_combat", turn="DEC I", ground={"6NCB": "0906", "1/4": "0905", "3/4": "0905"})
    before = evaluate(weak, "us")
    weak.apply("attack 0905")
    assert abs(evaluate(weak, "us") - before) < 0.01


def test_destroyed_airfield_is_worse_for_the_us(pos):
    """FB 12.3.1: US air needs operative airfield hexes."""
    air = {"F4F-1": "0708", "SBD-1": "0708", "F4F-2": "0709", "SBD-2": "0709"}
    whole = pos("us_movement", turn="OCT I", ground=GUARD, air=air)
    hit = pos(
        "us_movement",
        turn="OCT I",
        ground=GUARD,
        air={"F4F-1": "0708", "SBD-1": "0708"},
        airfields={"0709": "destroyed"},
    )
    assert evaluate(hit, "us") < evaluate(whole, "us")


# --- a greedy player over the evaluation against uniform random play -------------------------


class Greedy:
    """One-step look-ahead over `evaluate`: try each legal action (at most `cap`, sampled, plus `end`)
    on a clone with fresh dice and take the best. An attack is tried whole: every unit that can
    join it, then resolved. Ties go to `end`, else to a seeded random choice."""

    def __init__(self, side: str, seed: int, cap: int) -> None:
        self.side = side
        self.rng = random.Random(seed)
        self.cap = cap

    def choose(self, st):
        acts = st.legal_actions()
        if len(acts) == 1:
            return acts[0]
        if st.combat.building is not None:  # finish the attack the look-ahead chose
            return next((a for a in acts if isinstance(a, A.Add)), None) or next(
                a for a in acts if isinstance(a, A.Resolve | A.Cancel)
            )
        # no cancelling attacks or taking bombers back: undoing moves would let the look-ahead go round in circles
        tried = [a for a in acts if not isinstance(a, A.Cancel) and not (isinstance(a, A.Bomb) and a.hex == GA)]
        if len(tried) > self.cap:
            tried = self.rng.sample(tried, self.cap) + [a for a in acts if isinstance(a, A.End)]
        best, ties = -2.0, []
        for a in tried:
            c = st.clone()
            c.dice = SeededDice(self.rng.randrange(2**31))
            c.apply(a)
            while c.combat.building is not None and not c.is_terminal():
                nxt = [x for x in c.legal_actions() if isinstance(x, A.Add | A.Resolve)]
                if not nxt:
                    break
                c.apply(nxt[0])
            if c.combat.building is not None:
                continue  # an attack that cannot be completed
            v = evaluate(c, self.side)
            if v > best + 1e-12:
                best, ties = v, [a]
            elif v >= best - 1e-12:
                ties.append(a)
        if not ties:
            return acts[-1]
        ends = [a for a in ties if isinstance(a, A.End)]
        return ends[0] if ends else ties[self.rng.randrange(len(ties))]


def random_until(game, seed: int, turn: str):
    """A seeded random game played up to the start of `turn`."""
    st = game.new_state(seed)
    rng = random.Random(seed)
    stop = game.data.turns.index(turn)
    while not st.is_terminal() and st.turn <= stop:
        acts = st.legal_actions()
        st.apply(acts[rng.randrange(len(acts))])
    assert not st.is_terminal()
    return st


def play_out(st, players):
    while not st.is_terminal():
        st.apply(players[st.current_player()].choose(st))
    return st


def japanese_on_map(st) -> int:
    return sum(1 for u, p in st.ground.items() if st.data.ground[u].side == "jp" and st.board.on_map(p))


def test_greedy_japan_beats_random_us(game):
    """From the random positions of JAN I, the greedy Japanese player wins against random US play."""
    for seed in (0, 1, 2):
        st = random_until(game, seed, "JAN I")
        end = play_out(st, {"jp": Greedy("jp", seed, 16), "us": agents.get("random", seed + 100)})
        assert end.winner() == "jp", end.end_cause


def test_greedy_us_hunts_down_more_than_random_us(game):
    """From the random positions of JAN II, the greedy US player leaves fewer Japanese units on the map
    at the end than random US play does against the same random Japanese player (FB 2.0)."""
    greedy_left = random_left = 0
    for seed in (0, 1, 2):
        base = random_until(game, seed, "JAN II")
        jp = agents.get("random", seed + 100)
        greedy_left += japanese_on_map(play_out(base.clone(), {"us": Greedy("us", seed, 16), "jp": jp}))
        jp = agents.get("random", seed + 100)
        random_left += japanese_on_map(play_out(base.clone(), {"us": agents.get("random", seed + 200), "jp": jp}))
    assert greedy_left < random_left
