"""The engine's speed devices find what the plain computation finds, at every position of
seeded random games: the tables shared between the units of one listing, and the
precomputed air reach."""

from __future__ import annotations

import random

from henderson.games.aag.rules.regroup import landing_spots

from .helpers import game


def positions(seed: int, plies: int = 2_000):
    """The positions of one seeded random game."""
    rng = random.Random(seed)
    state = game().new_state(seed)
    for _ in range(plies):
        if state.is_terminal():
            return
        yield state
        state.apply(rng.choice(state.legal_actions()))


def test_landing_spots_shared_between_units_are_each_units_own():
    """Where each air unit may land is the same whether the zones' spots are found afresh
    for it or shared with the other units listed before it (fighters and bombers alike)."""
    checked = 0
    for seed in (1, 2):
        for state in positions(seed):
            if state.step != "regroup:land" or state.pending:
                continue
            table: dict[str, list[str]] = {}
            for p in state.of_kind(state.mover, state.data.air_kinds):
                if not p.landed:
                    assert landing_spots(state, p, table) == landing_spots(state, p), (seed, state.ply, p)
                    checked += 1
    assert checked > 50


def test_air_reach_lists_the_air_distances_in_zone_order():
    board = game().data.board
    for start in board.zone_ids():
        for barred in (frozenset(), *(frozenset((b.land, b.sea)) for b in board.bases.values())):
            assert board.air_reach(start, barred) == tuple(sorted(board.air_distances(start, barred).items()))


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
