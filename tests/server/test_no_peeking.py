"""No seat can read what it cannot see, whatever it asks over HTTP: the leaks found by an
adversarial client speaking raw HTTP as one seat of a two-person game, each on a position
reached by seeded random play, each a test that failed before they were fixed.

- AAG hidden movement: a preview of the second writer's `end` showed where the other side's
  secret sea orders sent its ships;
- undo: an action that ended a step (DG, AAG) could be taken back, so a player could look at
  the next step and try again;
- DG odds: an odds spec could play the step's `end` and read, from where the game went,
  something of the hidden enemy units;
- the log: an entry hidden from a side when it was played became readable once a later
  position showed the unit it named.

Where the answer must not depend on the hidden part of the position, the test asks again
with that part redrawn by the engine (`state.sample_unseen`), the record untouched, and
requires the same bytes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient

from henderson import games
from henderson.core.record import GameRecord, RecordEntry, record_for, seen_by
from tests.server.conftest import act, auth, seat

TRIES = 4  # redrawn hidden parts compared with the real one
SEEDS = (37, 1, 2, 3, 5, 8, 13, 21, 23, 34)  # seeds of random play tried in turn to find a position


@dataclass
class Found:
    """A position found by seeded random play: its record, its state, how each side read each
    entry when it was played, and what the search noted about it."""

    record: GameRecord
    state: Any
    read: list[dict[str, dict[str, Any]]]
    note: Any


def search(
    name: str,
    wanted: Callable[[Any, list[RecordEntry], list[dict[str, dict[str, Any]]]], Any],
    *,
    options: dict[str, Any] | None = None,
    limit: int = 3000,
) -> Found:
    """Seeded random play (each seed of SEEDS in turn, at most `limit` actions) until `wanted`
    notes something about a position (its answer is kept as `note`)."""
    game = games.get(name)
    for seed in SEEDS:
        state = game.new_state(seed, options=options or {})
        record = record_for(game, state, dict.fromkeys(game.sides, "human"))
        rng = random.Random(seed)
        read: list[dict[str, dict[str, Any]]] = []
        for _ in range(limit):
            if state.is_terminal():
                break
            note = wanted(state, record.entries, read)
            if note:
                return Found(record, state, read, note)
            side = state.current_player()
            actions = state.legal_actions()
            action = actions[rng.randrange(len(actions))]
            events = state.apply(action)
            entry = record.add(side, str(action), events)
            read.append({s: seen_by(state, entry, s) for s in game.sides})
    raise AssertionError(f"no {name} position of the kind the test needs came up in random play")


def rolls(events: list[Any]) -> bool:
    return any(e.kind == "roll" for e in events)


def resume(client: TestClient, record: GameRecord) -> tuple[str, dict[str, str]]:
    """A match resuming `record`, both sides played on this one screen: its id and tokens."""
    response = client.post("/api/records", json={"record": record.dumps(), "hotseat": True})
    assert response.status_code == 201, response.text
    return response.json()["match"], response.json()["seats"]


@contextmanager
def redrawn(client: TestClient, match: str, side: str, seed: int) -> Iterator[Any]:
    """The match's position with everything `side` cannot see redrawn by the engine, the
    record and log as they are."""
    live = client.app.state.hub.live[match]  # type: ignore[attr-defined]
    real = live.state
    live.state = real.sample_unseen(side, random.Random(seed))
    try:
        yield live.state
    finally:
        live.state = real


def secret_orders_show_after_end(state: Any, *_: Any) -> bool:
    """AAG hidden movement: the side to decide writes its sea orders second, the other side's
    are written and secret, and where they send its ships shows once `end` carries them out."""
    side = state.current_player()
    if state.step != "hidden:orders" or not state.secret_orders_of(side):
        return False
    other = next(s for s in state.game.sides if s != side)
    real = state.clone()
    if not state.orders[other] or rolls(real.apply("end")):
        return False
    seen = repr(real.view(side)["pieces"])
    for n in range(TRIES):
        guess = state.sample_unseen(side, random.Random(n))
        guess.apply("end")
        if repr(guess.view(side)["pieces"]) != seen:
            return True  # where the orders sent the ships shows once they are carried out
    return False


def test_a_preview_shows_nothing_of_the_other_sides_secret_sea_orders(client: TestClient) -> None:
    """AAG hidden movement: the second writer previews its actions, `end` among them (which
    carries out both sides' orders), and learns nothing of the other side's orders."""
    found = search("aag", secret_orders_show_after_end, options={"hidden_movement": True})
    state = found.state
    side = state.current_player()
    match, tokens = resume(client, found.record)
    legal = [str(a) for a in state.legal_actions()]
    body = {"actions": ["end", *[a for a in legal if a != "end"]][:400], "fields": ["pieces", "orders", "to_act"]}
    answer = client.post("/api/seat/preview", json=body, headers=auth(tokens[side]))
    assert answer.status_code == 200, answer.text
    for n in range(TRIES):
        with redrawn(client, match, side, n):
            again = client.post("/api/seat/preview", json=body, headers=auth(tokens[side]))
        assert (again.status_code, again.content) == (answer.status_code, answer.content)


def ends_a_step(state: Any, *_: Any) -> str | None:
    """An action after which the same side decides again, in another step, with no die rolled:
    the kind of action an undo could take back, to try again having seen the next step."""
    side = state.current_player()
    for action in state.legal_actions():
        after = state.clone()
        if rolls(after.apply(action)) or after.current_player() != side:
            continue
        if (after.turn, after.step) != (state.turn, state.step):
            return str(action)
    return None


@pytest.mark.parametrize("name", ["deluxe", "aag"])
def test_an_action_that_ends_a_step_cannot_be_taken_back(client: TestClient, name: str) -> None:
    """DG, AAG: the same side decides again after an action that ended a step, and no die was
    rolled, yet undo must refuse: the next step was shown, and trying again would use it."""
    found = search(name, ends_a_step)
    state, action = found.state, found.note
    side, ply = state.current_player(), state.ply
    _, tokens = resume(client, found.record)
    response = act(client, tokens[side], action, ply)
    assert response.status_code == 200, response.text
    assert seat(client, tokens[side])["can_undo"] is False
    undo = client.post("/api/seat/undo", json={"ply": ply + 1}, headers=auth(tokens[side]))
    assert undo.status_code == 409 and undo.json()["error"] == "cannot-undo", undo.text
    assert seat(client, tokens[side])["ply"] == ply + 1


def end_goes_by_hidden_units(state: Any, *_: Any) -> str | None:
    """DG: where `end` leads (the next step in which someone decides) depends on enemy units
    the side cannot see; the odds spec that would read it: `end`, then an attack or any
    action legal after it."""
    side = state.current_player()
    if "end" not in {str(a) for a in state.legal_actions()} or not state.hidden_ids(side):
        return None
    real = state.clone()
    if rolls(real.apply("end")):
        return None
    for n in range(TRIES):
        guess = state.sample_unseen(side, random.Random(n))
        guess.apply("end")
        if guess.step != real.step:
            after = [str(a) for a in real.legal_actions()]
            return f"end; {next((a for a in after if a.startswith('attack ')), after[0] if after else 'end')}"
    return None


def test_dg_odds_read_nothing_the_seat_cannot_see(client: TestClient) -> None:
    """An odds spec is a list of steps played before the odds are read: one that plays `end`
    would tell, by where the game goes, something of the enemy units the seat cannot see."""
    found = search("deluxe", end_goes_by_hidden_units)
    state = found.state
    side = state.current_player()
    match, tokens = resume(client, found.record)
    specs = [found.note, *(str(a) for a in state.legal_actions() if str(a).startswith("attack "))]
    for text in specs:
        answer = client.post("/api/seat/odds", json={"attack": text}, headers=auth(tokens[side]))
        for n in range(TRIES):
            with redrawn(client, match, side, n):
                again = client.post("/api/seat/odds", json={"attack": text}, headers=auth(tokens[side]))
            assert (again.status_code, again.content) == (answer.status_code, answer.content), text


def readable_later(state: Any, entries: list[RecordEntry], read: list[dict[str, dict[str, Any]]]) -> int | None:
    """DG: an entry hidden from a side when it was played that would read as played on the
    position now (the unit it named is in sight)."""
    for entry, seen in zip(entries, read, strict=True):
        other = next(s for s in state.game.sides if s != entry.player)
        if seen[other]["action"] != entry.action and seen_by(state, entry, other)["action"] == entry.action:
            return entry.ply
    return None


def test_a_log_entry_reads_as_it_did_when_it_was_played(client: TestClient) -> None:
    """DG: an entry hidden from a side when it was played (a unit out of its sight) stays
    hidden in that side's log when a later position shows the unit."""
    found = search("deluxe", readable_later)
    index = found.note
    _, tokens = resume(client, found.record)
    for side in found.state.game.sides:
        log = seat(client, tokens[side])["log"]
        assert len(log) == len(found.read)
        assert log[index] == found.read[index][side], side
        assert log == [r[side] for r in found.read], side
