"""Shortcuts taken for speed, held to the plain definitions: the movement phase's legal moves
kept up to date move by move and read from empty-map searches where no enemy is near, the
units offered to join an attack looked for near it only, and the hexes offered to attack looked
for next to the enemy only."""

from __future__ import annotations

import itertools
import random

from henderson.core import paths
from henderson.core.errors import IllegalAction
from henderson.games.firstblood import actions as A
from henderson.games.firstblood import reach
from henderson.games.firstblood.rules import artillery, combat, japanese_air, movement, stacking
from henderson.games.firstblood.state import Building


def _fresh_moves(st) -> list[str]:
    """The legal actions of `st` computed from nothing cached."""
    copy = st.clone()
    copy.reach_cache = {}
    copy.move_lists = None
    copy.changed()
    return [str(a) for a in copy.legal_actions()]


def test_kept_move_lists_equal_a_fresh_listing(game):
    """FB 4.0, 5.0: after every move of seeded random games, the kept list is the fresh one."""
    checked = 0
    for seed in range(6):
        st = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal() and st.turn <= 4:
            acts = st.legal_actions()
            if st.step.endswith("_movement") and not st.pending and rng.random() < 0.3:
                assert [str(a) for a in acts] == _fresh_moves(st)
                checked += 1
            st.apply(acts[rng.randrange(len(acts))])
    assert checked > 100


def test_reach_equals_the_constrained_search(game):
    """FB 7.4, 8.2: the empty-map shortcut gives the same costs (and moves) as the search that
    avoids enemy hexes and ZOC-to-ZOC steps, for every mover of seeded random movement phases."""
    compared = 0
    for seed in range(4):
        st = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal() and st.turn <= 5:
            if st.step.endswith("_movement") and not st.pending:
                for unit in movement.movers(st):
                    here = st.ground[unit]
                    if not st.board.on_map(here):
                        continue
                    enemy, zoc = movement.enemy_and_zoc(st, st.data.ground[unit].side)
                    assert zoc == st.board.zoc(enemy)  # FB 8.2, found on the numbered places
                    plain = st.board.reach({here: 0}, st.mf[unit], enemy, zoc)
                    plain.pop(here, None)
                    assert movement.reach(st, unit) == plain, (seed, unit)
                    # the moves, kept with the empty map's answers for the game or made from
                    # the unit's own search: a move to each place reached, in name order
                    assert movement.moves(st, unit)[0] == [A.Move(unit, p) for p in sorted(plain)], (seed, unit)
                    compared += 1
            acts = st.legal_actions()
            st.apply(acts[rng.randrange(len(acts))])
    assert compared > 200


def test_reach_from_an_entry_point_equals_the_plain_search(game):
    """FB 7.1, 7.4, 8.2: a US unit on an entry point reaches what the kit's plain search finds
    from the hexes its arrows point to (for nothing, none held by the enemy); so does a Japanese
    unit off the map (FB 6.1, 6.2, 7.3), boxes included."""
    compared = {"us": 0, "jp": 0}
    for seed in range(12):
        st = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal() and st.turn <= 10:
            if st.step.endswith("_movement") and not st.pending:
                for unit in movement.movers(st):
                    here = st.ground[unit]
                    if st.board.on_map(here):
                        continue
                    enemy, zoc = movement.enemy_and_zoc(st, st.data.ground[unit].side)
                    starts, boxes = movement.entries(st, unit, here, st.mf[unit], enemy, st.visited.get(unit, here))
                    plain = st.board.reach(starts, st.mf[unit], enemy, zoc)
                    plain.update(boxes)
                    assert movement.reach(st, unit) == plain, (seed, st.ply, unit)
                    assert movement.moves(st, unit)[0] == [A.Move(unit, p) for p in sorted(plain)]
                    compared[st.data.ground[unit].side] += 1
            acts = st.legal_actions()
            st.apply(acts[rng.randrange(len(acts))])
    assert compared["us"] > 50 and compared["jp"] > 50, compared


def test_fb_7_4_an_entry_point_with_more_mf_than_any_unit_has_still_never_enters_an_enemy_hex(game, pos):
    """FB 7.1, 7.4: a hand-made position may give a unit more MF than the empty-map costs are
    kept for; from an entry point it still never enters the enemy hex an arrow points to."""
    st = pos("us_movement", ground={"1/1": "EP4", "Kuma": "1321"}, movement={"1/1": 20})
    assert st.mf["1/1"] > game.board.free_limit
    enemy, zoc = movement.enemy_and_zoc(st, "us")
    starts, _ = movement.entries(st, "1/1", "EP4", st.mf["1/1"], enemy, "")
    assert movement.reach(st, "1/1") == st.board.reach(starts, st.mf["1/1"], enemy, zoc)
    assert "1321" not in movement.reach(st, "1/1") and "1322" in movement.reach(st, "1/1")
    assert A.Move("1/1", "1321") not in st.legal_actions()


def test_fb_6_0_boxes_have_no_stacking_limit(pos):
    """FB 5.0 limits map hexes; a box holds any number (FB 6.0, 7.2): a fourth unit may move into
    a box holding three."""
    st = pos(
        "jp_movement",
        ground={"1/124": "A", "2/124": "B", "3/124": "B", "1/4": "B"},
        boxes_visited={"1/124": "A", "2/124": "B", "3/124": "B", "1/4": "B"},
    )
    assert A.Move("1/124", "B") in st.legal_actions()
    st.apply("move 1/124 B")
    assert len(st.at("B")) == 4


def test_units_offered_to_join_an_attack_are_all_who_may(game):
    """FB 8.2, 7.5, 9.2, 10.4, 13.6: the `add` actions name exactly the units for which the
    joining checks hold, looked for among all units in play."""
    compared = 0
    for seed in range(12):
        st = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal() and st.turn <= 8:
            b = st.combat.building
            if b is not None and not st.pending:
                every = [
                    u
                    for u in sorted(st.ground)
                    if st.data.ground[u].side == st.phasing
                    and u not in b.attackers
                    and u not in b.artillery
                    and (combat.eligible_attacker(st, u, b.defenders) or artillery.can_bombard(st, u, b.defenders))
                ]
                offered = sorted(a.unit for a in st.legal_actions() if isinstance(a, A.Add) and a.unit in st.ground)
                assert offered == every, (seed, st.ply)
                compared += 1
            acts = st.legal_actions()
            st.apply(acts[rng.randrange(len(acts))])
    assert compared > 100


def _named(board, found) -> dict[str, int]:
    """A numbered search's answer by place name."""
    return {board.places[at]: c for at, c in found.costs().items()}


def test_a_free_reach_answers_each_budget_from_one_search(game):
    """A unit with its whole MF left and no enemy near gets the free reach's one shared answer;
    with less left, the hexes within that budget only, each at its empty-map cost, listed in
    name order; the free reach keeps its hexes in increasing cost."""
    board = game.board
    here = next(h for h in board.terrain if len(board.adj[h]) == 6)
    at = board.place_index[here]
    free = board.free_reach(at)
    assert free.limit == 16 and free.within_budget(8) is free.within_budget(8)
    plain = board.reach({here: 0}, 16, frozenset(), frozenset())
    plain.pop(here)
    assert [board.places[h] for h in free.hexes] == [h for h, _ in sorted(plain.items(), key=lambda hc: hc[1])]
    for budget in range(17):
        found = free.within_budget(budget)
        assert _named(board, found) == {h: c for h, c in plain.items() if c <= budget}
        assert [board.places[i] for i in found.order] == sorted(h for h, c in plain.items() if c <= budget)
        assert found.cost(at) is None
        assert [i for i in range(len(board.places)) if found.cost(i) is not None] == found.order


def test_the_numbered_search_equals_the_kits_search(game):
    """FB 4.2, 7.4, 8.2: the search on numbered places over the steps left open past scattered
    enemy units gives the kit's `cheapest_costs` answer over the named steps: the same costs,
    met in the same order, and nothing else within reach."""
    board = game.board
    rng = random.Random(4)
    hexes = sorted(board.terrain)
    size = len(board.places)
    compared = 0
    for here in hexes[::2]:
        enemy = set(rng.sample(hexes, rng.choice((0, 4, 12, 30)))) - {here}
        zoc = board.zoc(enemy)
        at = board.place_index[here]
        index = board.place_index
        enemy_at, zoc_at = {index[h] for h in enemy}, {index[h] for h in zoc}
        named = board.open_steps(enemy, zoc)
        for budget in (1, 4, 7, 12, 16):
            plain = paths.cheapest_costs({here: 0}, named, budget)
            plain.pop(here)
            grid = reach.OpenGrid(board.grid, board.neighbours, enemy_at, zoc_at)  # nothing worked out yet
            best, met = reach.from_one(grid, size, at, budget)
            assert [(board.places[i], best[i]) for i in met] == list(plain.items()), (here, budget)
            assert sum(c <= budget for c in best) == len(plain)
            compared += 1
        for h in hexes:  # each hex's steps, worked out when first asked for
            assert [(board.places[i], c) for i, c in grid.open_from(index[h])] == list(named[h]), h
    assert compared > 500


def _every_defender_set(st) -> list[tuple[str, ...]]:
    """FB 8.2, 7.5: every set of enemy hexes some unit of the phasing side may attack together,
    from the joining check itself, unit by unit."""
    found: set[tuple[str, ...]] = set()
    foes = sorted(h for h in st.board.terrain if st.owner_of_hex(h) not in (None, st.phasing))
    for unit in sorted(st.ground):
        alone = [h for h in foes if h not in st.combat.attacked_hexes and combat.eligible_attacker(st, unit, (h,))]
        for size in range(1, len(alone) + 1):
            found.update(d for d in itertools.combinations(alone, size) if combat.eligible_attacker(st, unit, d))
    return sorted(found, key=lambda d: (len(d), d))


def test_hexes_offered_for_an_attack_are_every_set_some_unit_may_attack(game):
    """FB 8.2, 7.5, 7.5.1: the defender sets, looked for next to the enemy hexes only, are those
    that some unit not yet used may attack, found unit by unit over every enemy hex."""
    compared = 0
    for seed in range(10):
        st = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal() and st.turn <= 10:
            if st.step.endswith("_combat") and st.combat.building is None and not st.pending:
                assert combat.defender_sets(st) == _every_defender_set(st), (seed, st.ply)
                compared += 1
            acts = st.legal_actions()
            st.apply(acts[rng.randrange(len(acts))])
    assert compared > 100


def test_hexes_offered_for_an_attack_out_of_a_box_are_every_set_it_may_attack(game, pos):
    """FB 7.5.1: with every hex its arrows point to held, units in a box that have been in the box
    next to it may attack those hexes, and those sets are offered too."""
    arrows = game.board.box_arrows["D"]
    us = {"1/1": arrows[0], "2/1": arrows[1]}
    st = pos("jp_combat", ground={**us, "1/4": "D", "20Mt": "D"}, boxes_visited={"1/4": "CD", "20Mt": "CD"})
    sets = combat.defender_sets(st)
    assert (arrows[0],) in sets
    assert sets == _every_defender_set(st)


def test_air_missions_kept_for_the_phase_are_those_found_afresh(game):
    """FB 13.3: the Japanese air missions, kept by where the air units are and the airfields'
    state, are at every Japanese movement and combat decision of seeded play the ones a state
    with nothing kept finds."""
    compared = 0
    for seed in range(6):
        st = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal() and st.turn <= 10:
            if st.phasing == "jp" and st.step.endswith(("_movement", "_combat")) and not st.pending:
                fresh = st.clone()
                fresh.reach_cache = {}
                assert japanese_air.missions(st) == japanese_air.missions(fresh), (seed, st.ply)
                compared += 1
            acts = st.legal_actions()
            st.apply(acts[rng.randrange(len(acts))])
    assert compared > 200


def _steps_by_the_rules(board, enemy: set[str]):
    """The steps a mover may take from a hex, as FB 4.2, 7.4 and 8.2 say, for the kit's search."""
    zoc = board.zoc(enemy)

    def steps(here: str, _cost: int) -> list:
        return [
            (n, board.cost2[(here, n)], False, None)
            for n in board.adj[here]
            if n not in enemy and not (here in zoc and n in zoc)
        ]

    return steps


def test_reach_near_the_enemy_equals_the_plain_search_of_the_rules(game):
    """FB 4.2, 7.4, 8.2: for every on-map mover of seeded random movement phases, the costs the
    listing reads are those of the kit's plain search with the rules written out step by step
    (no entering an enemy hex, no step from one enemy ZOC hex into another), not through the
    tables kept for the phase."""
    board = game.board
    compared = 0
    for seed in range(4):
        st = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal() and st.turn <= 5:
            if st.step.endswith("_movement") and not st.pending:
                steps = _steps_by_the_rules(board, st.hexes_of("jp" if st.phasing == "us" else "us"))
                for unit in movement.movers(st):
                    here = st.ground[unit]
                    if board.on_map(here):
                        plain = paths.cheapest({here: 0}, steps, st.mf[unit]).cost
                        plain.pop(here)
                        assert movement.reach(st, unit) == plain, (seed, st.ply, unit)
                        compared += 1
            acts = st.legal_actions()
            st.apply(acts[rng.randrange(len(acts))])
    assert compared > 200


def _fresh_listing(st) -> list[str]:
    """The legal actions of `st` found with nothing kept."""
    copy = st.clone()
    copy.combat_listing = copy.joinable = None
    copy.reach_cache = {}
    copy.changed()
    return [str(a) for a in copy.legal_actions()]


def test_the_combat_listing_taken_back_after_a_cancelled_attack_is_a_fresh_one(game):
    """FB 8.0, 8.10: an attack opened and cancelled changes nothing, so the listing from before
    it is offered again; at every combat decision of seeded play it is the one found afresh."""
    compared = taken_back = 0
    for seed in range(8):
        st = game.new_state(seed=seed)
        rng = random.Random(seed)
        last = None
        while not st.is_terminal() and st.turn <= 10:
            if st.step.endswith("_combat") and not st.pending:
                taken_back += last == A.Cancel()
                assert [str(a) for a in st.legal_actions()] == _fresh_listing(st), (seed, st.ply)
                compared += 1
            acts = st.legal_actions()
            last = acts[rng.randrange(len(acts))]
            st.apply(last)
    assert compared > 500 and taken_back > 50


def test_a_whole_attack_after_a_listing_is_followed_by_a_fresh_listing(game, pos):
    """FB 8.2: an attack made whole (`attack HEX with UNIT`) right after the phase was listed
    changes the position: the next listing is found afresh, without the attack made."""
    board = game.board
    far = next(h for h in sorted(board.terrain) if board.distance(h, "0905") > 6 and len(board.adj[h]) == 6)
    ground = {"1/1": "0905", "Kuma": "0906", "2/1": far, "1/124": board.adj[far][0]}
    st = pos("us_combat", ground=ground, dice=[2, 2, 2, 2])  # A1: 1/1 is lost, Kuma stays
    before = [str(a) for a in st.legal_actions()]
    assert "attack 0906" in before
    st.apply("attack 0906 with 1/1")
    assert st.step == "us_combat" and not st.pending
    after = [str(a) for a in st.legal_actions()]
    assert "attack 0906" not in after and after == _fresh_listing(st)


def test_reach_past_the_enemy_from_the_empty_map_costs_equals_the_whole_search(game):
    """FB 4.2, 7.4, 8.2: the empty-map costs kept where a cheapest way in is still open, and the
    hexes that lost theirs searched for afresh, give the whole search past the enemy, from every
    third hex and every budget, with enemy units scattered at random (one next to the mover,
    some at the edge of its reach, some far); the places and the moves come out in name order.
    Among them: ZOC hexes entered only from the enemy and its zone, and hexes behind them that
    lose their way in too (outside the zone of control)."""
    board = game.board
    rng = random.Random(16)
    hexes = sorted(board.terrain)
    index = board.place_index
    unit = "1/1"
    compared = searched = dearer = behind = 0
    for here in hexes[::3]:
        for _ in range(4):
            enemy = set(rng.sample(hexes, rng.choice((3, 8, 20, 40)))) - {here}
            zoc = board.zoc(enemy)
            if here in enemy | zoc:
                continue
            enemy_at, zoc_at = {index[h] for h in enemy}, {index[h] for h in zoc}
            free = board.free_reach(index[here])
            danger_mask = movement.Front(board, enemy).danger_mask
            assert danger_mask == reach.bits(enemy_at | zoc_at)
            for budget in range(free.limit + 1):
                whole = board.reach({here: 0}, budget, enemy, zoc)
                whole.pop(here)
                found = free.past_enemy(budget, enemy_at, zoc_at, enemy_at | zoc_at, danger_mask)
                # the moves, made before the order is (from the empty map's when it is the base)
                assert movement._listed(board, unit, found) == [A.Move(unit, h) for h in sorted(whole)]
                assert _named(board, found) == whole, (here, budget)
                assert [board.places[i] for i in found.order] == sorted(whole), (here, budget)
                assert found.cost(index[here]) is None
                assert [i for i in range(len(board.places)) if found.cost(i) is not None] == found.order
                compared += 1
                near = not (enemy_at | zoc_at).isdisjoint(free.hexes[: free.within[budget]])
                assert bool(free.masks[budget] & danger_mask) == near  # the one-stroke test
                searched += near
                dearer += any(free.best[index[h]] < c for h, c in whole.items())
                behind += any(  # a hex outside the zone of control dearer than on the empty map, or lost
                    whole.get(board.places[i], free.limit + 1) > free.best[i] and i not in enemy_at | zoc_at
                    for i in free.hexes[: free.within[budget]]
                )
    assert compared > 2000 and searched > 1000 and dearer > 200 and behind > 100


def test_a_clone_shares_the_combat_record_and_play_in_either_leaves_the_other_alone(game):
    """FB 8.1, 8.2, 9.4: the combat phase's record (who attacked, what was attacked, the duties,
    the attack being built) is shared by a clone, never changed in place: opening, building,
    rolling or cancelling an attack in the clone leaves the original's record as it was."""
    checked = 0
    for seed in range(3):
        st = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal() and st.turn <= 3:
            acts = st.legal_actions()
            if st.step.endswith("_combat") and not st.pending:
                copy = st.clone()
                assert copy.combat is st.combat
                before = st.to_json()["combat"]
                copy.apply(copy.legal_actions()[rng.randrange(len(acts))])
                assert st.to_json()["combat"] == before
                checked += copy.combat is not st.combat
            st.apply(acts[rng.randrange(len(acts))])
    assert checked > 20


def test_the_rules_in_charge_read_from_the_plan_table_are_the_kits(game):
    """The sequence of play: the rules of the current step, read from the table made with the
    plan, are those the kit finds by name, in new, cloned and loaded positions alike."""
    for seed in range(2):
        st = game.new_state(seed=seed)
        rng = random.Random(seed)
        steps = set()
        while not st.is_terminal() and st.turn <= 2:
            for s in (st, st.clone(), game.load_state(st.to_json())):
                named = s.pending[-1].rules if s.pending else s.current_step.phase
                assert s.rules() is s.rules_named(named)
            steps.add(st.step)
            acts = st.legal_actions()
            st.apply(acts[rng.randrange(len(acts))])
        assert len(steps) > 8


def test_a_clone_shares_the_records_seldom_changed_and_play_in_either_leaves_the_other_alone(game):
    """FB 7.2, 11.4, 13.6, 13.7: the units held in a box, the ground units moved, the hexes
    attacked, the US air units turned over or moved, the counters eliminated are shared by a
    clone, never changed in place: any action played in the clone leaves the original's as
    they were."""
    names = ("held", "moved", "inverted", "air_moved", "disturbed", "eliminated")
    changed = 0
    for seed in range(3):
        st = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal() and st.turn <= 4:
            acts = st.legal_actions()
            copy = st.clone()
            assert all(getattr(copy, n) is getattr(st, n) for n in names)
            before = {n: st.to_json()[n] for n in names}
            copy.apply(acts[rng.randrange(len(acts))])
            assert {n: st.to_json()[n] for n in names} == before
            changed += any(copy.to_json()[n] != before[n] for n in names)
            st.apply(acts[rng.randrange(len(acts))])
    assert changed > 10


def test_the_duties_kept_while_an_attack_is_built_are_those_found_afresh(game):
    """FB 8.1, 8.2: the duties of mandatory combat kept from one combat action to the next
    (opening, adding to or cancelling an attack) are those of the position found anew, at
    every decision of seeded random combat phases, attacks rolled and retreats among them."""
    checked = 0
    for seed in range(4):
        st = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal() and st.turn <= 5:
            acts = st.legal_actions()
            kept = st.combat_duties
            if st.step.endswith("_combat") and not st.pending and kept is not None:
                fresh = combat.Duties(st)
                assert (kept.units, kept.hexes) == (fresh.units, fresh.hexes)
                checked += 1
            st.apply(acts[rng.randrange(len(acts))])
    assert checked > 100


def test_an_attack_may_be_rolled_exactly_when_its_checks_find_nothing(game):
    """FB 7.5.2, 8.2, 9.5, 13.6: `complete` (a bool asked of many attacks at every listing)
    answers as `check_complete` refusing or not, for the attack being built and for attacks by
    every few units next to each set of defenders offered, at seeded random combat decisions."""
    compared = refused = 0
    for seed in range(6):
        st = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal() and st.turn <= 6:
            if st.step.endswith("_combat") and not st.pending:
                b = st.combat.building
                tries = [b] if b is not None else []
                for d in combat.defender_sets(st):
                    near = [u for u in sorted(st.ground) if combat.eligible_attacker(st, u, d)]
                    for n in range(min(3, len(near)) + 1):
                        tries.append(Building(d, tuple(rng.sample(near, n))))
                for attack in tries:
                    try:
                        combat.check_complete(st, attack)
                        plain = True
                    except IllegalAction:
                        plain = False
                        refused += 1
                    assert combat.complete(st, attack) is plain, (seed, st.ply, attack)
                    assert combat.complete(st, attack, combat.duties_of(st)) is plain, (seed, st.ply, attack)
                    compared += 1
            acts = st.legal_actions()
            st.apply(acts[rng.randrange(len(acts))])
    assert compared > 500 and 100 < refused < compared


def test_bombers_ready_are_every_us_bomber_in_the_ground_attack_box_not_yet_placed(game):
    """FB 13.6: the bombers offered in the US movement phase (read from the game's list of US
    bombers) are those found among every air unit in play, at seeded random decisions."""
    compared = 0
    for seed in range(6):
        st = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal() and st.turn <= 8:
            if st.step == "us_movement":
                types, air = st.data.air_types, st.data.air
                plain = sorted(
                    a
                    for a, where in st.air.items()
                    if where == "usaf_ground_attack" and a not in st.bombing and types[air[a].type].is_bomber
                )
                assert movement.bombers_ready(st) == plain, (seed, st.ply)
                compared += bool(plain)
            acts = st.legal_actions()
            st.apply(acts[rng.randrange(len(acts))])
    assert compared > 20


def test_artillery_bombardments_offered_are_those_each_hex_allows(game):
    """FB 9.2-9.5.1: the artillery fire on the airfields offered in the Japanese combat phase
    (each gun's range found once) is every Japanese gun in play and airfield hex for which
    `can_bombard` holds, asked hex by hex, at seeded random decisions."""
    compared = 0
    for seed in range(8):
        st = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal() and st.turn <= 10:
            if st.step == "jp_combat" and not st.pending and st.combat.building is None:
                hexes = japanese_air.artillery_targets(st)
                guns = sorted(u for u in st.ground if st.data.ground[u].side == "jp" and st.data.ground[u].range)
                plain = [A.Bombard(h, u) for u in guns for h in hexes if artillery.can_bombard(st, u, (h,))]
                offered = [a for a in japanese_air.bombardments(st) if a.unit in st.data.ground]
                assert offered == plain, (seed, st.ply)
                compared += bool(plain)
            acts = st.legal_actions()
            st.apply(acts[rng.randrange(len(acts))])
    assert compared > 5


def test_the_moves_picked_for_a_unit_are_the_moves_to_each_place_in_order(game):
    """The moves of a unit, picked from those made once per unit and place, are `move UNIT
    PLACE` for each place number given, in order, for none, one and many places."""
    board = game.board
    rng = random.Random(7)
    for unit in sorted(game.data.ground)[:20]:
        for size in (0, 1, 2, 40):
            order = sorted(rng.sample(range(len(board.places)), size))
            picked = movement._moves_to(board, unit, order)
            assert picked == [A.Move(unit, board.places[at]) for at in order]
            assert isinstance(picked, list)


def test_costs_read_from_the_kept_move_lists_are_those_searched_afresh(game):
    """FB 4.0-4.2: what a move costs, read from the search the move lists keep for each mover,
    is what the unit's search made now gives, for every place, at seeded random decisions of
    movement phases (after moves into boxes, out of entry points and to the end of a unit's MF)."""
    compared = 0
    for seed in range(5):
        st = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal() and st.turn <= 4:
            acts = st.legal_actions()
            if st.step.endswith("_movement") and not st.pending and st.move_lists is not None:
                for unit in sorted(st.mf):
                    fresh = movement.reach_at(st, unit, st.ground[unit], st.mf[unit]) if unit in st.ground else None
                    for place in st.board.places:
                        expect = None if fresh is None else fresh.cost(st.board.place_index[place])
                        assert movement.cost_to(st, unit, place) == expect, (seed, st.ply, unit, place)
                compared += 1
            st.apply(acts[rng.randrange(len(acts))])
    assert compared > 100


def test_a_stacking_answer_made_without_its_witness_is_the_witness_answer(game):
    """FB 5.0: with no hex of the moving side at the limit, the stacking answer is made without
    its witness; the witness, made all the same, finds no hex full or to settle, and allows
    every move. With a hex at the limit the witness is made."""
    lean = full = 0
    for seed in range(4):
        st = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal() and st.turn <= 6:
            if st.step.endswith("_movement") and not st.pending:
                answer = stacking.Stacking(st)
                at_limit = any(
                    len(units) >= 3 and st.board.on_map(p) and st.data.ground[units[0]].side == st.phasing
                    for p, units in st.occ.items()
                )
                assert answer.kept == at_limit
                if not answer.kept:
                    answer._witness(st)
                    assert answer.full == answer.esc == set() and answer.settled and answer.ok
                    for unit in movement.movers(st)[:1]:
                        for place in movement.costs(st, unit):
                            assert answer.allows(st, unit, place, 0)
                    lean += 1
                else:
                    full += 1
            acts = st.legal_actions()
            st.apply(acts[rng.randrange(len(acts))])
    assert lean > 500 and full > 20, (lean, full)
