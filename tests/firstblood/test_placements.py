"""Where a waiting counter may be placed (`Game.placements`): the legal actions list the next
counter's placements only, and the engine accepts any waiting counter's (FB 3.0, 3.1, 7.0);
the browser's tray asks for the others."""

from __future__ import annotations

import random
from typing import Any

from henderson.core.game import Game


def test_every_waiting_counter_at_the_us_set_up_has_its_placements(game: Any) -> None:
    state = game.new_state(seed=1)
    listed = [str(a) for a in state.legal_actions() if str(a).startswith("place ")]
    first = state.to_place[0]
    assert [str(a) for a in game.placements(state, first)] == listed  # the next counter: as listed
    for unit in state.to_place[1:]:
        found = game.placements(state, unit)
        assert found, unit
        for action in found[:: max(1, len(found) // 5)]:  # a sample: each is accepted
            trial = state.clone()
            trial.apply(action)
            assert unit not in trial.to_place
    air = {a.at for a in game.placements(state, "F4F-1")}
    assert "usaf_cap" in air and air <= {*game.board.henderson, "usaf_cap", "usaf_ground_attack"}  # FB 3.0


def test_a_counter_not_waiting_has_no_placement(game: Any) -> None:
    state = game.new_state(seed=1)
    state.apply("place 1Tank 1010")
    assert game.placements(state, "1Tank") == []
    assert game.placements(state, "no-such-counter") == []


def test_the_default_is_the_listed_placements_naming_the_counter(game: Any) -> None:
    state = game.new_state(seed=1)
    listed = [a for a in state.legal_actions() if str(a).startswith("place ")]
    assert Game.placements(game, state, state.to_place[0]) == listed
    assert Game.placements(game, state, state.to_place[1]) == []


def test_reinforcements_wait_and_each_has_its_placements(game: Any) -> None:
    """FB 7.1: US reinforcements enter on the US entry points, any of them first."""
    state = game.new_state(seed=2)
    rng = random.Random(2)
    for _ in range(3000):
        actions = [str(a) for a in state.legal_actions()]
        if state.step == "us_reinforcement" and state.to_place:
            break
        state.apply("setup default" if "setup default" in actions else rng.choice(actions))
    else:
        raise AssertionError("no US reinforcement came up")
    last = state.to_place[-1]
    found = game.placements(state, last)
    assert found and all(a.at in game.board.ep_side for a in found)
    state.apply(found[0])
    assert last not in state.to_place


def test_one_place_is_checked_as_the_full_list_would(game: Any) -> None:
    """`may_place` answers for one place what `places_for` lists (FB 3.0, 3.1, 5.0), through
    both sides' set-up with hexes filling to the stacking limit."""
    from henderson.games.firstblood.rules import placement

    state = game.new_state(seed=3)
    rng = random.Random(3)
    everywhere = [*game.board.terrain, *game.board.reinforcement_boxes, "usaf_cap", "ijn_reserve"]
    checked = 0
    while state.to_place and checked < 60:
        for unit in state.to_place[:6]:
            listed = set(placement.places_for(state, unit, True))
            for place in everywhere:
                assert placement.may_place(state, unit, place, True) == (place in listed), (unit, place)
        acts = [a for a in state.legal_actions() if str(a).startswith("place ")]
        full = [a for a in acts if a.at in state.occ and len(state.occ[a.at]) == 2]
        state.apply(rng.choice(full or acts))  # fill some hexes to the limit of 3
        checked += 1
    assert checked > 20
