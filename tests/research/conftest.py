"""Shared fixtures of the research tests: positions reached by random play, cached.

`HENDERSON_RESEARCH_SOAK=1` plays far more (thousands of positions per game, whole games in
the OpenSpiel checks); the default keeps the suite quick."""

from __future__ import annotations

import os
import random
from functools import cache

import pytest

from henderson import games
from henderson.core.game import State

SOAK = os.environ.get("HENDERSON_RESEARCH_SOAK", "") not in ("", "0")
GAMES = ("firstblood", "deluxe", "aag")
# options that change the actions offered, played in some of the random games
OPTIONS = {"firstblood": {}, "deluxe": {"us_stealth": True}, "aag": {"advantages": True, "hidden_movement": True}}


@cache
def random_positions(name: str, count: int, seed: int = 0) -> tuple[State, ...]:
    """`count` positions of game `name` from seeded random play (new games as they end; every
    other game with the game's optional rules)."""
    game = games.get(name)
    rng = random.Random(seed)
    found: list[State] = []
    number = 0
    while len(found) < count:
        options = OPTIONS[name] if number % 2 else {}
        state = game.new_state(seed * 1000 + number, options=options)
        number += 1
        while not state.is_terminal() and len(found) < count:
            found.append(state.clone())
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
    return tuple(found)


def positions_for(name: str) -> tuple[State, ...]:
    """The positions the action-space checks read: over a thousand per game (far more when
    soaking)."""
    count = {"firstblood": 1500, "deluxe": 1000, "aag": 1500}[name]
    return random_positions(name, count * (8 if SOAK else 1))


@pytest.fixture(params=GAMES)
def game_name(request: pytest.FixtureRequest) -> str:
    return str(request.param)
