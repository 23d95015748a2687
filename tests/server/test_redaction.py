"""Hidden information in the log: another side's actions and events reach a seat only as its game
lets that side read them (a game's `redact`), and mid-game records never carry the dice seed."""

from __future__ import annotations

import random

from henderson import games
from henderson.core.record import RecordEntry, seen_by


def test_deluxe_actions_on_hidden_units_are_redacted() -> None:
    game = games.get("deluxe")
    state = game.new_state(3)
    rng = random.Random(3)
    redacted = 0
    for _ in range(3000):
        if state.is_terminal():
            break
        acts = state.legal_actions()
        action = acts[rng.randrange(len(acts))]
        player = state.current_player()
        events = state.apply(action)
        entry = RecordEntry(state.ply, player, str(action), [e.to_json() for e in events])
        other = next(s for s in game.sides if s != player)
        assert seen_by(state, entry, player) == entry.to_json()  # one's own actions as they are
        shown = seen_by(state, entry, other)
        seen = state.visible_ids(other)
        hidden = {u for u, unit in state.units.items() if unit.side == player and unit.on_map and u not in seen}
        assert not hidden & set(shown["action"].split()[1:])
        redacted += shown["action"] != entry.action
        if redacted >= 3:
            break
    assert redacted > 0


def test_firstblood_log_is_public() -> None:
    game = games.get("firstblood")
    state = game.new_state(1)
    events = state.apply("setup default")
    entry = RecordEntry(0, "us", "setup default", [e.to_json() for e in events])
    assert seen_by(state, entry, "jp") == entry.to_json()
