"""The engine's speed devices find what the plain computation finds, at every position of
seeded random games: the tables shared between the units of one listing, and the
precomputed air reach."""

from __future__ import annotations

import dataclasses
import random

import pytest

from henderson.games.aag.actions import Action, landings, load_one, move, move_one, moves_to
from henderson.games.aag.model import SIDES
from henderson.games.aag.rules.common import is_cargo, representatives, signature
from henderson.games.aag.rules.movement import Deferred, Movement, loadable, loadable_groups
from henderson.games.aag.rules.regroup import landing_spots
from henderson.games.aag.state import Battle

from .helpers import game


def positions(seed: int, plies: int = 2_000, **options: bool):
    """The positions of one seeded random game (with `options`, the optional rules asked for)."""
    rng = random.Random(seed)
    state = game().new_state(seed, options=options)
    for _ in range(plies):
        if state.is_terminal():
            return
        yield state
        state.apply(rng.choice(state.legal_actions()))


def spots_zone_by_zone(state, piece) -> list[str]:
    """AAG Landing Capacities read zone by zone: within range, the base; an island where the
    side's undamaged airfields hold more air units than have landed there; for a fighter, a
    carrier of its side with room on deck."""
    side, rules, board = piece.side, state.data.rules, state.data.board
    dist = board.air_distances(piece.zone, state.enemy_base_zones(side))
    out = []
    for zone in sorted(z for z, d in dist.items() if d <= state.air_range(piece)):
        fields = [a for a in state.airfields if a.island == zone and a.side == side and not a.damaged]
        landed = [q for q in state.in_zone(zone, side) if q.landed and q.type in ("fighter", "bomber")]
        if zone == state.base_land(side) or len(landed) < rules.airfield_air_capacity * len(fields):
            out.append(zone)
        if piece.type == "fighter":
            for ship in state.in_zone(zone, side):
                if ship.type == "carrier" and len(state.fighters_aboard(ship)) < rules.carrier_capacity:
                    out.append(ship.id)
    return out


def test_the_room_to_land_found_once_gives_each_air_unit_its_spots():
    """Where each air unit may land, from the room found once for all the side's air units
    while the legal actions are listed (`landing_room`), is what the rule read zone by zone
    for that unit gives."""
    checked = 0
    for seed in (1, 2):
        for state in positions(seed):
            if state.step != "regroup:land" or state.pending:
                continue
            state.legal_actions()  # the room found while listing, kept with the list
            assert state.findings() is not None and state.mover in state.findings().room
            for p in state.of_kind(state.mover, state.data.air_kinds):
                if not p.landed:
                    assert landing_spots(state, p) == spots_zone_by_zone(state, p), (seed, state.ply, p)
                    checked += 1
    assert checked > 50


def test_the_landings_listed_are_each_unit_to_each_spot_the_rule_gives():
    """The listed landings (`landings`, shared per unit and spots) are, for one air unit of
    each group of interchangeable ones, `land UNIT SPOT` to each spot the rule read zone by
    zone gives, in that order."""
    checked = 0
    for seed in (3, 5):
        for state in positions(seed):
            if state.step != "regroup:land" or state.pending:
                continue
            waiting = [p for p in state.pieces.values() if p.side == state.mover and not p.damaged]
            waiting = [p for p in waiting if p.type in ("fighter", "bomber") and not p.landed]
            plain = [
                Action("land", (p.id, spot))
                for p in representatives(state, waiting, key=signature)
                for spot in spots_zone_by_zone(state, p)
            ]
            assert [a for a in state.legal_actions() if a.verb == "land"] == plain, (seed, state.ply)
            checked += len(plain)
    assert checked > 100
    assert landings("us3", ("A", "us7")) == (Action("land", ("us3", "A")), Action("land", ("us3", "us7")))


def test_air_reach_lists_the_air_distances_in_zone_order():
    board = game().data.board
    for start in board.zone_ids():
        for barred in (frozenset(), *(frozenset((b.land, b.sea)) for b in board.bases.values())):
            assert board.air_reach(start, barred) == tuple(sorted(board.air_distances(start, barred).items()))


def test_the_destinations_kept_are_the_moves_the_board_allows():
    board = game().data.board
    for start in board.zone_ids():
        for barred in (frozenset(), *(frozenset((b.land, b.sea)) for b in board.bases.values())):
            if board.is_sea(start):
                assert board.sea_destinations(start, barred) == tuple(sorted(board.sea_graph[start] - barred))
            for reach in (1, 2, 3):
                plain = sorted(z for z, d in board.air_distances(start, barred).items() if 0 < d <= reach)
                assert board.air_destinations(start, barred, reach) == tuple(plain), (start, reach)
                within = sorted(z for z, d in board.air_distances(start, barred).items() if d <= reach)
                assert board.air_within(start, barred, reach) == tuple(within), (start, reach)


def test_a_move_listed_again_is_the_same_action():
    """The move of one unit is made once and shared by the lists that offer it; it reads
    and compares as any other."""
    assert move("K", ["us3"]) is move("K", ["us3"]) is move_one("K", "us3")
    assert move_one("K", "us3") == Action("move", ("K", "us3"))
    assert str(move("K", ["us10", "us9"])) == "move K us9,us10"


def test_clones_share_the_airfield_markers_and_change_them_apart():
    """Airfield markers are frozen: a clone shares them, and a marker changed in one position
    is a new marker there, the other position's left as it was."""
    state = game().new_state(1)
    twin = state.clone()
    assert all(a is b for a, b in zip(state.airfields, twin.airfields, strict=True))
    before = list(state.airfields)
    changed = twin.change_airfield(twin.airfields[0], damaged=True)
    assert twin.airfields[0] is changed and changed.damaged
    assert state.airfields == before and not state.airfields[0].damaged


def test_a_movement_step_said_to_hold_no_choice_lists_nothing_but_its_end(monkeypatch):
    """Where a movement step tells without listing that nobody has a choice (`has_choice`
    False: the step ends by itself), its rules list no action but `end`; in games with the
    advantages, and Coast Watchers' deferred step, as well."""
    told = []

    def checked(phase: type[Movement]):
        plain = phase.has_choice

        def has_choice(self, state):
            answer = plain(self, state)
            if answer is False:
                assert self.actions(state) == [], (state.ply, state.step)
                told.append(state.step)
            return answer

        monkeypatch.setattr(phase, "has_choice", has_choice)

    checked(Movement)
    checked(Deferred)
    for seed, options in ((1, {}), (2, {"advantages": True}), (5, {"advantages": True, "hidden_movement": True})):
        rng = random.Random(seed)
        state = game().new_state(seed, options=options)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
    assert len(told) > 100


def test_regroup_steps_said_to_hold_no_choice_list_nothing_but_their_end(monkeypatch):
    """Landing, Build, Repair, Deploy and Score tell without listing, where they can, whether
    the side to act has a choice (AAG Regroup steps 2-6): False only where their rules list
    no action and the step may end, True only where they list some; each says "nothing to
    do" in these games."""
    from henderson.games.aag.rules.regroup import Build, Landing
    from henderson.games.aag.rules.reinforce import Deploy, Repairs
    from henderson.games.aag.rules.score import Score

    told: dict[str, int] = {}

    def checked(phase):
        plain = phase.has_choice

        def has_choice(self, state):
            answer = plain(self, state)
            if answer is not None:
                assert bool(self.actions(state)) is answer, (state.ply, state.step)
                assert self.end_blocker(state) is None, (state.ply, state.step)
                told[state.step] = told.get(state.step, 0) + (answer is False)
            return answer

        monkeypatch.setattr(phase, "has_choice", has_choice)

    for phase in (Landing, Build, Repairs, Deploy, Score):
        checked(phase)
    for seed, options in ((1, {}), (2, {"advantages": True}), (3, {})):
        rng = random.Random(seed)
        state = game().new_state(seed, options=options)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
    steps = ("regroup:land", "regroup:build", "regroup:repair", "regroup:deploy", "regroup:score")
    assert all(told.get(step, 0) > 0 for step in steps), told


def test_what_a_listing_finds_holds_only_for_it():
    """The zones to fight found while listing are kept with that list: they are the zones
    found afresh, and once the position changes they are no longer offered."""
    from henderson.games.aag.rules.combat import fights

    checked = 0
    for state in positions(3):
        state.legal_actions()
        kept = state.findings()
        assert kept is not None
        for cat, found in kept.fights.items():
            assert fights(state.clone(), cat) == found, (state.ply, cat)
            checked += 1
        state.changed()
        assert state.findings() is None
    assert checked > 20


def test_the_zones_to_fight_are_those_where_a_side_can_attack():
    """Looking only where a target or an airfield is finds every zone where either side can
    fire on units of the category (`can_attack`, tried in every zone), and no other; the
    first player picks among them those where it can fire."""
    from henderson.games.aag.rules.combat import can_attack, zones_to_choose, zones_to_fight

    board = game().data.board
    found = 0
    for seed in (3, 4):
        for state in positions(seed):
            for cat, zones in (("air", [*board.seas, *board.islands]), ("sea", board.seas), ("land", board.islands)):
                every = [
                    z
                    for z in sorted(zones)
                    if z not in state.resolved and any(can_attack(state, s, z, cat) for s in ("us", "jp"))
                ]
                assert zones_to_fight(state.clone(), cat) == every, (seed, state.ply, cat)
                chosen = [z for z in every if can_attack(state, state.first, z, cat)]
                assert zones_to_choose(state.clone(), cat) == chosen, (seed, state.ply, cat)
                found += len(every)
    assert found > 100


def test_a_changed_piece_has_traits_of_its_own():
    """The traits kept with a piece (what tells units apart) are never those of the piece it
    was changed from."""
    from henderson.games.aag.pieces import Piece

    old = Piece("us1", "us", "destroyer", "J")
    assert old.traits == old.traits and not old.traits[7]  # found once, not moved
    new = old.with_changes(moved=True)
    assert new.traits != old.traits and new.traits[7]
    assert new.with_changes(moved=False).traits == old.traits


def test_units_are_told_apart_by_their_flags_and_their_cargo():
    """Interchangeable units share a signature; a unit differing in a flag, or in the cargo
    aboard, does not (AAG Load and Move Transports)."""
    from henderson.games.aag.rules.common import signature

    from .helpers import piece, position

    pieces = [
        piece("us1", "transport", "J"),
        piece("us2", "transport", "J"),
        piece("us3", "transport", "J"),
        piece("us4", "transport", "J", moved=True),
        piece("us5", "infantry", "J", aboard="us3"),
    ]
    state = position(pieces, step="move:transport", first="us")
    sig = {pid: signature(state, p) for pid, p in state.pieces.items()}
    assert sig["us1"] == sig["us2"]
    assert len({sig["us1"], sig["us3"], sig["us4"]}) == 3


def test_a_clone_shares_the_index_until_a_piece_changes():
    """A clone shares the pieces indexed by zone; a piece changed in either position is in
    that position's index alone, and each index stays the pieces in play."""
    state = game().new_state(2)
    state.legal_actions()  # the index is built while listing
    twin = state.clone()
    assert twin.index is state.index
    moved = twin.update(next(iter(twin.pieces.values())), moved=True)
    assert twin.index is not state.index
    assert moved in twin.in_zone(moved.zone) and moved not in state.in_zone(moved.zone)
    added = state.new_piece("us", "infantry", state.base_land("us"))
    assert added in state.in_zone(added.zone) and added not in twin.in_zone(added.zone)
    assert state.invariant_errors() == [] and twin.invariant_errors() == []


def test_the_representatives_read_from_the_index_are_those_signatures_give():
    """One unit per group of interchangeable units, found with the index (the fast path),
    is the one found by comparing `signature`s piece by piece."""
    from henderson.games.aag.rules.common import representatives, signature

    checked = 0
    for state in positions(4, plies=600):
        state.legal_actions()  # the index is built while listing
        assert state.index is not None
        for side in ("us", "jp"):
            pieces = list(state.on_board(side))
            plain = representatives(state, pieces, key=signature)
            assert representatives(state, pieces) == plain, state.ply
            checked += len(plain)
    assert checked > 1000


def test_the_shores_kept_are_the_islands_next_to_each_sea():
    """The land zones a ship loads from and unloads onto: the islands bordering its sea zone,
    or its base card's land zone."""
    board = game().data.board
    for sea in board.seas:
        assert board.land_zones_by_sea(sea) == tuple(i for i, isl in board.islands.items() if sea in isl.seas)
    for base in board.bases.values():
        assert board.land_zones_by_sea(base.sea) == (base.land,)
    assert all(board.land_zones_by_sea(island) == () for island in board.islands)


def test_a_new_piece_takes_its_place_in_id_order():
    """Pieces stay in id order (us2 before us10, every jp before every us) whichever side's
    piece is added, and a piece changed keeps its place in that order (`Piece.rank`)."""
    from henderson.games.aag.actions import id_key

    state = game().new_state(1)
    for side in ("jp", "us", "jp"):
        added = state.new_piece(side, "infantry", state.base_land(side))
        assert list(state.pieces) == sorted(state.pieces, key=id_key)
        assert state.update(added, moved=True).rank == id_key(added.id)
    for seed in (2, 6):  # every purchase and captured supply of whole random games
        for state in positions(seed, 1500):
            assert list(state.pieces) == sorted(state.pieces, key=id_key), (seed, state.ply)


def test_the_zones_kept_by_combat_category_and_the_phases_kept_by_name():
    """Air units are fought in every board zone, sea units at sea, land units on islands,
    in zone order; a phase kept by its reference is the one the sequence engine names."""
    from henderson.core.sequence import Sequenced

    state = game().new_state(1)
    board = state.data.board
    assert board.combat_zones == {
        "air": tuple(sorted([*board.seas, *board.islands])),
        "sea": tuple(sorted(board.seas)),
        "land": tuple(sorted(board.islands)),
    }
    for step in state.plan.steps:
        assert state.rules_named(step.phase) is Sequenced.rules_named(state, step.phase)


def test_clones_share_the_advantages_in_force_and_change_them_apart():
    """Advantages in force and the unit types deferred by Coast Watchers are frozen records:
    a clone shares them, and its lists and tables are its own (AAG Appendix 1)."""
    from henderson.games.aag.state import InForce

    state = game().new_state(1, options={"advantages": True})
    state.active = [InForce(token="coast_watchers", side="us", unit="cruiser")]  # type: ignore[arg-type]
    state.deferred = {"us": ("cruiser",)}
    twin = state.clone()
    assert twin.active[0] is state.active[0] and twin.deferred["us"] is state.deferred["us"]
    twin.active.append(InForce(token="night_fighting", side="jp", zone="E"))  # type: ignore[arg-type]
    twin.deferred["jp"] = ("bomber",)
    assert len(state.active) == 1 and "jp" not in state.deferred


def test_the_land_pieces_are_the_land_units_and_the_supply_tokens():
    """What goes ashore and rides as cargo (`land_piece`, read from the data once): infantry,
    artillery, AA guns and supply tokens, and no other type."""
    from henderson.games.aag.rules.common import land_piece

    data = game().data
    assert data.land_pieces == {"infantry", "artillery", "aa_gun", "supply"}
    state = game().new_state(1)
    assert {p.type for p in state.pieces.values() if land_piece(state, p)} <= data.land_pieces
    assert any(land_piece(state, p) for p in state.pieces.values())
    assert not any(land_piece(state, p) for p in state.pieces.values() if p.type in ("fighter", "transport"))


def test_the_shore_groups_kept_with_the_index_are_the_plain_ones():
    """What each ship may load, found zone by zone and kept with the zone's list of the index
    (`loadable_groups`), is one unit per signature of all it may load (`loadable`), at every
    position of seeded random games, for every ship of either side, asked twice (the second
    answer read from what was kept)."""
    checked = 0
    for seed in (1, 2, 3):
        for state in positions(seed, 800):
            state.legal_actions()  # the index in place, as while listing
            for side in ("us", "jp"):
                barred = state.enemy_base_zones(side)
                for ship in state.of_kind(side, ("transport", "destroyer", "carrier")):
                    plain = representatives(state, loadable(state, side, ship, barred))
                    assert loadable_groups(state, side, ship, barred) == plain, (seed, state.ply, ship)
                    assert loadable_groups(state, side, ship, barred) == plain, (seed, state.ply, ship)
                    checked += bool(plain)
    assert checked > 100


def test_the_moves_kept_for_a_unit_are_the_moves_to_each_destination():
    assert moves_to(("A", "B"), "us3") == (move_one("A", "us3"), move_one("B", "us3"))
    assert moves_to(("A", "B"), "us3")[1] is move_one("B", "us3")
    assert moves_to(("C",), "us3,us10") == (Action("move", ("C", "us3,us10")),)
    assert moves_to((), "us3") == ()
    assert load_one("us1", "us4") == Action("load", ("us1", "us4")) and load_one("us1", "us4") is load_one("us1", "us4")


def test_the_pieces_of_several_types_kept_with_the_index_are_the_plain_ones():
    """A side's pieces of several types (`of_kind`, kept with the lists of the index they
    were found from) are its pieces in play of those types in id order, at every position of
    seeded random games, asked twice, also of a clone that changes its pieces apart."""
    mixes = [("fighter", "bomber"), ("destroyer", "pt_boat"), ("transport", "destroyer", "carrier"), ("infantry",)]
    checked = 0
    rng = random.Random(0)
    for seed in (1, 4):
        for state in positions(seed, 1500):
            legal = state.legal_actions()  # the index in place, as while listing
            apart = state.clone()  # shares the index until either changes a piece
            apart.apply(rng.choice(legal))
            for position in (state, apart):
                assert position.mover == position.side_of(position.current_step)
                for side in ("us", "jp"):
                    for kinds in mixes:
                        pieces = position.pieces.values()
                        plain = [p for p in pieces if not p.damaged and p.side == side and p.type in kinds]
                        assert position.of_kind(side, kinds) == plain, (seed, state.ply, kinds)
                        assert position.of_kind(side, kinds) == plain, (seed, state.ply, kinds)
                        checked += len(plain)
    assert checked > 1000


def test_a_changed_piece_is_the_plain_replacement():
    """`Piece.with_changes` and `copy_with` (one copy of the attributes) give what
    `dataclasses.replace` gives, keep no traits (nor mark) of the old piece, and refuse a
    field a piece does not have."""
    rng = random.Random(5)
    flags = ("damaged", "moved", "armor_used", "fired", "landed", "aimed", "joined", "unloaded")
    for state in positions(2, 600):
        for p in list(state.pieces.values())[:6]:
            p.traits  # noqa: B018 - kept with the piece, to be dropped by its copy
            changes = {name: rng.random() < 0.5 for name in rng.sample(flags, 3)}
            changes["zone"] = rng.choice(["A", "B", p.zone])
            changes["flown"] = rng.randrange(3)
            p.mark  # noqa: B018 - likewise
            new = p.with_changes(**changes)
            assert new == dataclasses.replace(p, **changes) == p.copy_with(changes)
            assert new.traits == dataclasses.replace(p, **changes).traits and new.rank == p.rank
            assert new.mark == dataclasses.replace(p, **changes).mark
    with pytest.raises(TypeError, match="no field 'bogus'"):
        p.with_changes(bogus=1)
    with pytest.raises(TypeError, match="no field 'bogus'"):
        p.copy_with({"bogus": 1})


def can_attack_from_lists(state, side, zone, cat) -> bool:
    """`can_attack` as the rule reads, from the listed attackers: targets and a unit that
    fires at them, or an undamaged enemy airfield and an air unit or ranged ship."""
    from henderson.games.aag.rules.combat import assault, enemy_airfields, own_attackers, ranged_candidates, targets

    units = own_attackers(state, side, zone, cat) + ranged_candidates(state, side, zone, cat)
    if targets(state, side, zone, cat):
        return bool(units)
    if cat == "land" and not assault(state, zone) and any(not a.damaged for a in enemy_airfields(state, side, zone)):
        return any(state.category(p) != "land" for p in units)
    return False


def targets_as_read(state, side, zone, cat) -> list:
    """The enemy units of category `cat` in `zone` that can be fired upon: no supply token,
    no cargo, and land units only on an island."""
    if cat == "land" and not state.data.board.is_island(zone):
        return []
    here = state.in_zone(zone, "jp" if side == "us" else "us")
    return [p for p in here if p.type != "supply" and state.category(p) == cat and not is_cargo(p)]


def attackers_as_read(state, side, zone, cat) -> list:
    """`side`'s units in `zone` with dice against `cat`: no supply token, no cargo, and in
    an Amphibious Assault only the units unloaded there (AAG Appendix 1)."""
    from henderson.games.aag.rules.combat import assault

    return [
        p
        for p in state.in_zone(zone, side)
        if p.type != "supply"
        and not is_cargo(p)
        and not (assault(state, zone) and not p.unloaded)
        and state.data.units[p.type].attack[cat] > 0
    ]


def test_whether_a_side_can_attack_is_read_as_from_the_listed_attackers():
    """`can_attack` (the first unit that may fire answers) agrees with the attackers listed,
    and `targets` with the rule as read, in every zone, for both sides and every category,
    battles and assaults included."""
    from henderson.games.aag.rules.combat import can_attack, own_attackers, targets

    board = game().data.board
    zones = [*board.seas, *board.islands]
    yes = 0
    rng = random.Random(7)
    for seed, advantages in ((3, False), (5, True)):
        for state in positions(seed, 1200, advantages=advantages):
            assault = state.clone()  # as in an Amphibious Assault on an island (AAG Appendix 1)
            island = rng.choice(sorted(board.islands))
            assault.battle = Battle(zone=island, category="land", attacker=rng.choice(SIDES), assault=True)
            for position in (state, assault):
                for cat in ("air", "sea", "land"):
                    for zone in zones:
                        for side in SIDES:
                            asked = (position, side, zone, cat)
                            assert targets(*asked) == targets_as_read(*asked)
                            assert own_attackers(*asked) == attackers_as_read(*asked)
                            plain = can_attack_from_lists(position, side, zone, cat)
                            assert can_attack(position, side, zone, cat) is plain, (seed, state.ply, side, zone, cat)
                            yes += plain
    assert yes > 500


def test_the_purchases_found_once_are_listed_from_the_most_expensive():
    """`GameData.purchases`, found once, lists every unit type but the tokens and the supply
    token with their costs, from the most expensive, ties in data order (AAG Reinforce)."""
    data = game().data
    costs = {k: u.cost for k, u in data.units.items() if "token" not in u.abilities}
    costs["supply"] = data.rules.supply_cost
    assert data.purchases == tuple((k, costs[k]) for k in sorted(costs, key=lambda k: -costs[k]))
    assert [c for _, c in data.purchases] == sorted(costs.values(), reverse=True)


def test_the_index_kept_up_to_date_is_the_index_built_afresh():
    """The pieces indexed by zone, type and ship, kept up to date piece by piece
    (`ZoneIndex.put`: a changed piece takes its old place where it stays in a list), are
    those of an index built afresh, in the same order, at every position of whole random
    games (`invariant_errors` compares them)."""
    for seed, advantages in ((8, False), (9, True)):
        for state in positions(seed, 3000, advantages=advantages):
            state.legal_actions()  # the index in place, kept up to date from here on
            assert state.invariant_errors() == [], (seed, state.ply)


def test_the_cargo_read_from_the_ships_is_the_cargo_among_the_land_pieces():
    """A side's cargo read from the pieces indexed by ship (`unload.cargo_of`) is its land
    pieces in play that are cargo, in id order, at every position of seeded random games."""
    from henderson.games.aag.rules.unload import cargo_of

    kinds = (*game().data.kinds_by_category["land"], "supply")
    seen = 0
    for seed in (1, 6):
        for state in positions(seed, 1500):
            state.legal_actions()  # the index in place, as while listing
            for side in SIDES:
                plain = [p for p in state.of_kind(side, kinds) if is_cargo(p)]
                assert cargo_of(state, side) == plain, (seed, state.ply, side)
                seen += len(plain)
    assert seen > 100


def test_every_phase_lists_a_new_list_the_engine_may_keep():
    """Each AAG phase's `actions` makes a new list at every call (`lists_afresh`: the engine
    keeps it and adds `end` to it without a copy), at every position of seeded random games
    with and without the optional rules."""
    checked = 0
    for seed, options in ((1, {}), (2, {"advantages": True}), (4, {"advantages": True, "hidden_movement": True})):
        for state in positions(seed, 1500, **options):
            rules = state.rules()
            assert rules.lists_afresh
            first, second = rules.actions(state), rules.actions(state)
            assert first is not second and first == second, (seed, state.ply, state.step)
            checked += 1
    assert checked > 1000


def test_whether_a_step_may_end_is_whether_a_refusal_is_found(monkeypatch):
    """Landing and the combat steps say whether they may end without building the refusal
    (`may_end`); the answer is whether `end_blocker` finds one, each time the engine asks
    in seeded random games, and on a copy with nothing listed."""
    from henderson.games.aag.rules.combat import CombatStep
    from henderson.games.aag.rules.regroup import Landing

    seen = {True: 0, False: 0}

    def checked(phase):
        plain = phase.may_end

        def may_end(self, state):
            answer = plain(self, state)
            assert answer is (self.end_blocker(state) is None), (state.ply, state.step)
            fresh = state.clone()
            fresh.changed()
            assert plain(self, fresh) is answer, (state.ply, state.step)
            seen[answer] += 1
            return answer

        monkeypatch.setattr(phase, "may_end", may_end)

    checked(Landing)
    checked(CombatStep)
    for seed, options in ((1, {}), (3, {"advantages": True})):
        rng = random.Random(seed)
        state = game().new_state(seed, options=options)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
    assert seen[True] > 20 and seen[False] > 20, seen


def test_the_purchases_a_side_can_pay_for_are_a_tail_of_the_table():
    """`reinforce.buys` (a tail of the purchases, found by halves) is `buy TYPE` for each
    purchase whose cost the points pay, in listing order, for every number of points."""
    from henderson.games.aag.rules.reinforce import buys

    state = game().new_state(1)
    for points in range(0, 60):
        plain = [Action("buy", (kind,)) for kind, cost in state.data.purchases if cost <= points]
        assert list(buys(state, points)) == plain, points


def test_the_pieces_counted_aboard_are_those_listed_aboard():
    """`aboard_count` is the number of fighters (or of other pieces) aboard each ship, as
    `fighters_aboard` and `land_cargo` list them, with and without the index."""
    seen = 0
    for seed in (1, 7):
        for state in positions(seed, 1500):
            for indexed in (False, True):
                if indexed:
                    state.legal_actions()
                for ship in state.pieces.values():
                    if ship.type in ("transport", "destroyer", "carrier"):
                        assert state.aboard_count(ship, fighters=True) == len(state.fighters_aboard(ship))
                        assert state.aboard_count(ship, fighters=False) == len(state.land_cargo(ship))
                        seen += 1
    assert seen > 1000


def test_two_pieces_share_a_mark_exactly_when_they_share_their_traits():
    """`Piece.mark`, the number `representatives` tells units apart by, is the same for two
    pieces exactly when their traits are equal, at positions of seeded random games (and a
    changed piece's mark is found afresh)."""
    from henderson.games.aag.pieces import Piece

    old = Piece("us1", "us", "destroyer", "J")
    assert old.with_changes(moved=True).mark != old.mark
    assert old.with_changes(moved=True).with_changes(moved=False).mark == old.mark
    pairs = 0
    for seed in (2, 5):
        for state in positions(seed, 1200):
            if state.ply % 7:
                continue
            pieces = list(state.pieces.values())
            for p in pieces:
                for q in pieces:
                    assert (p.mark == q.mark) is (p.traits == q.traits), (seed, state.ply, p, q)
                    pairs += p.mark == q.mark and p is not q
    assert pairs > 1000


def test_a_new_piece_is_the_piece_its_class_makes():
    """`Piece.new` (a copy of a blank piece's attributes) is the piece `Piece(...)` makes,
    field for field and attribute for attribute, and is told apart like it."""
    from henderson.games.aag.pieces import Piece

    for args in (("us3", "us", "infantry", "guadalcanal", None), ("jp12", "jp", "supply", "H", "jp4")):
        made, plain = Piece.new(*args), Piece(*args)
        assert made == plain and made.__dict__ == plain.__dict__
        assert made.traits == plain.traits and made.mark == plain.mark and made.rank == plain.rank
        assert made.with_changes(moved=True) == plain.with_changes(moved=True)


def test_the_attackers_by_category_are_the_types_with_dice_against_it():
    """`GameData.attackers`: by category, the unit types whose attack against it is above 0,
    and those of them that are no land unit."""
    data = game().data
    for cat in ("air", "sea", "land"):
        able, not_land = data.attackers[cat]
        assert able == {k for k, u in data.units.items() if u.attack[cat] > 0}
        assert not_land == {k for k in able if data.units[k].category != "land"}


def test_the_loads_kept_at_the_base_are_the_loads_found_afresh():
    """What the ships at the base may load, kept with the index's lists of the base's two
    zones (`reinforce.base_loads`), is what `load_actions` finds afresh at every position of
    the Reinforce, Repair and Deploy steps of seeded random games, on clones too."""
    from henderson.games.aag.rules.movement import load_actions
    from henderson.games.aag.rules.reinforce import LOADERS, base_loads

    kept = 0
    for seed, options in ((1, {}), (6, {"advantages": True})):
        for state in positions(seed, 3000, **options):
            if state.step not in ("regroup:buy", "regroup:repair", "regroup:deploy") or state.pending:
                continue
            state.legal_actions()
            for position in (state, state.clone()):
                found = base_loads(position)
                kept += found is base_loads(position)
                assert found == load_actions(position, position.mover, LOADERS, at_base=True), (seed, state.ply)
    assert kept > 100


def test_the_set_up_places_the_pieces_of_the_data_in_id_order():
    """The set-up, placed side by side, is each side's pieces numbered in the order of
    `setup.toml` (the places, then the ships each followed by its cargo), kept in id order."""
    from henderson.games.aag.actions import id_key
    from henderson.games.aag.pieces import Piece
    from henderson.games.aag.rules.setup import PHASE

    state = game().new_state(3).clone()
    PHASE.enter(state, [])
    setup = state.data.setup
    numbers = dict.fromkeys(SIDES, 0)
    plain: dict[str, Piece] = {}

    def put(side, kind, zone, aboard=None):
        numbers[side] += 1
        pid = f"{side}{numbers[side]}"
        plain[pid] = Piece(pid, side, kind, zone, aboard)
        return pid

    for place in setup.places:
        for kind, count in place.units.items():
            for _ in range(count):
                put(place.side, kind, place.zone)
    for ship in setup.ships:
        sid = put(ship.side, ship.type, ship.zone)
        for kind, count in ship.cargo.items():
            for _ in range(count):
                put(ship.side, kind, ship.zone, sid)
    assert list(state.pieces.items()) == sorted(plain.items(), key=lambda kv: id_key(kv[0]))
    assert state.next_id == {side: n + 1 for side, n in numbers.items()}


def test_the_land_power_read_from_the_index_is_the_plain_sum():
    """`land_power` and `has_land_units` (read from the index's lists of the zones) are the
    sums and tests of AAG Regroup step 1 over the side's pieces in play, for every island and
    side at positions of seeded random games, with and without the index."""
    from henderson.games.aag.rules.regroup import has_land_units, land_power

    def units_on(state, side, island):
        return [
            p for p in state.on_board(side) if p.zone == island and state.category(p) == "land" and p.type != "supply"
        ]

    powered = 0
    for seed in (2, 9):
        for state in positions(seed, 1500):
            if state.ply % 5:
                continue
            for indexed in (False, True):
                if indexed:
                    state.legal_actions()
                for island in state.data.board.islands:
                    for side in SIDES:
                        units = [p for p in units_on(state, side, island) if not is_cargo(p)]
                        plain = 0
                        if units:
                            plain = sum(state.data.units[p.type].attack["land"] for p in units)
                            for sea in state.data.board.islands[island].seas:
                                plain += sum(
                                    state.data.units[p.type].attack["land"]
                                    for p in state.on_board(side)
                                    if p.zone == sea and p.type in ("cruiser", "battleship")
                                )
                        assert land_power(state, side, island) == plain, (seed, state.ply, side, island)
                        assert has_land_units(state, side, island) is bool(units)
                        powered += plain > 0
    assert powered > 500


def test_a_group_move_listed_names_its_units_in_id_order():
    """Every group move listed in a movement step names its units as `move` writes them (in
    id order), so that the notation read back is the listed action itself."""
    from henderson.games.aag.actions import parse_action

    groups = 0
    for seed, options in ((1, {}), (5, {"advantages": True, "hidden_movement": True})):
        for state in positions(seed, 1500, **options):
            for action in state.legal_actions():
                if action.verb == "move" and "," in action.args[1]:
                    assert parse_action(str(action)) == action, (seed, state.ply, action)
                    groups += 1
    assert groups > 100


def test_actions_compare_and_hash_by_verb_and_arguments():
    """`Action.__eq__` (written out, without the dataclass's tuples) holds exactly when the
    verb and the arguments are equal; equal actions hash alike, and an action is never equal
    to another kind of value."""
    texts = ["end", "roll", "move E us1", "move E us1,us2", "move F us1", "load us1 us2", "land us1 us2"]
    for a in texts:
        for b in texts:
            x, y = Action(*_split(a)), Action(*_split(b))
            assert (x == y) is (a == b) and (x != y) is (a != b)
            assert x == Action(*_split(a)) and hash(x) == hash(Action(*_split(a)))
            assert hash(x) == hash((x.verb, x.args))
    assert Action("end") != ("end", ()) and Action("end") != "end"


def _split(text: str) -> tuple[str, tuple[str, ...]]:
    verb, *args = text.split()
    return verb, tuple(args)


def test_a_phase_that_refuses_end_says_so_in_may_end_too():
    """`AagPhase.may_end` answers True without asking `end_blocker`: every AAG phase with an
    `end_blocker` of its own has a `may_end` of its own too (`Landing`, the combat steps)."""
    import importlib
    import pkgutil

    import henderson.games.aag.rules as package
    from henderson.games.aag.rules.base import AagPhase

    phases = set()
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        phases |= {type(v) for v in vars(module).values() if isinstance(v, AagPhase)}
    refusing = {cls for cls in phases if any("end_blocker" in vars(k) for k in cls.__mro__ if issubclass(k, AagPhase))}
    assert len(phases) > 10 and len(refusing) == 2
    for cls in refusing:
        assert any("may_end" in vars(k) for k in cls.__mro__ if k is not AagPhase and issubclass(k, AagPhase)), cls
