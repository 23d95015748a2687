"""Always taking the same legal action ends a DG game (the soak of complete random games
every game goes through is tests/test_soak.py)."""

from __future__ import annotations

import random

import pytest

from .support import GAME

FIRST_ACTION_PLIES = 10_000  # a whole game takes about two thousand such actions


@pytest.mark.parametrize(("seed", "pick"), [(0, 0), (3, 0), (5, -1)])
def test_always_the_same_legal_action_finishes_a_game(seed: int, pick: int) -> None:
    # DG 4.0, 12.0: every step ends and the turn marker advances, whatever is chosen: no
    # action may be repeated for free forever, so always taking the first (or the last)
    # legal action plays a whole game to its end (DG 9.4)
    state = GAME.new_state(seed)
    while not state.is_terminal():
        assert state.ply < FIRST_ACTION_PLIES, f"seed {seed}: no end in sight: {state.summary()}"
        state.apply(state.legal_actions()[pick])
    assert state.turn <= state.data.constants.turns and state.is_terminal()


@pytest.mark.parametrize("seed", [1, 2])
def test_the_kept_occupancy_is_the_one_worked_out_afresh(seed: int) -> None:
    # DG 7.8: the units by hex kept on a position (and shared with its clones) are, at every
    # position of a random game, those its records give now, in stacking order; a clone
    # played on leaves the position it was made from as it was
    from henderson.games.deluxe.rules.common import occupancy, placed

    rng = random.Random(seed)
    state = GAME.new_state(seed)
    while not state.is_terminal():
        assert occupancy(state) == placed(state.units.values())
        twin = state.clone()
        acts = state.legal_actions()
        twin.apply(acts[rng.randrange(len(acts))])
        assert occupancy(twin) == placed(twin.units.values())
        assert occupancy(state) == placed(state.units.values())
        state.apply(acts[rng.randrange(len(acts))])


def test_a_landing_steps_choice_is_whether_a_unit_can_land() -> None:
    # DG 6.0, 2.2.2.6: the reinforcement step reads its choice from the listing it keeps for
    # the decision: a choice exactly when some arriving unit has a hex to land on
    from henderson.games.deluxe.actions import act
    from henderson.games.deluxe.rules import reinforcements
    from henderson.games.deluxe.rules.common import occupancy

    rng = random.Random(4)
    seen = 0
    for seed in (4, 5):
        state = GAME.new_state(seed)
        while not state.is_terminal():
            if not state.pending and state.rules() is reinforcements.PHASE:
                twin = state.clone()
                twin.changed()
                side = twin.side_of(twin.current_step)
                assert reinforcements.PHASE.has_choice(twin) == bool(reinforcements.legal(twin, side))
                assert twin.legal_actions() == reinforcements.legal(state, side)
                occ = occupancy(state)  # the plain listing: the first unit due with a hex
                first = next(
                    u for u in reinforcements.arriving(state, side) if reinforcements.options(state, u, occ)[0]
                )
                hexes = reinforcements.options(state, first, occ)[0]
                assert reinforcements.legal(state, side) == [act("land", first.id, h) for h in hexes]
                seen += 1
            acts = state.legal_actions()
            state.apply(acts[rng.randrange(len(acts))])
    assert seen > 10
