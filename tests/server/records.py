"""Game records made by playing the engines, for the server and browser tests: seeded random
play, recorded, until the position a test needs comes up."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from henderson import games
from henderson.core.events import Event
from henderson.core.record import GameRecord, record_for

Done = Callable[[Any, str | None, list[str], list[Event]], bool]  # state, side to act, actions, last events
Choose = Callable[[random.Random, list[str]], str]


def any_action(rng: random.Random, actions: list[str]) -> str:
    return rng.choice(actions)


def play_until(
    name: str,
    players: dict[str, str],
    done: Done,
    *,
    choose: Choose = any_action,
    seed: int = 3,
    choice_seed: int = 1,
    limit: int = 3000,
    what: str = "the position",
) -> tuple[GameRecord, Any]:
    """Random play of game `name` until `done` holds before an action; the record and the state."""
    game = games.get(name)
    state = game.new_state(seed)
    record = record_for(game, state, players)
    rng = random.Random(choice_seed)
    events: list[Event] = []
    for _ in range(limit):
        side = state.current_player()
        actions = [str(a) for a in state.legal_actions()]
        if done(state, side, actions, events):
            return record, state
        action = choose(rng, actions)
        events = state.apply(action)
        record.add(side, action, events)
    raise AssertionError(f"{what} never came up")


def record_until_us_attack(seed: int = 3, choice_seed: int = 1, limit: int = 3000) -> GameRecord:
    """FIRST BLOOD: default set-ups, then random play until the US combat phase offers an attack."""

    def done(state: Any, side: str | None, actions: list[str], events: list[Event]) -> bool:
        return state.view("us")["step"] == "us_combat" and any(a.startswith("attack") for a in actions)

    def choose(rng: random.Random, actions: list[str]) -> str:
        return "setup default" if actions and actions[0] == "setup default" else rng.choice(actions)

    record, _ = play_until(
        "firstblood",
        {"us": "human", "jp": "random"},
        done,
        choose=choose,
        seed=seed,
        choice_seed=choice_seed,
        limit=limit,
        what="a US attack",
    )
    return record
