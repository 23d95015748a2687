"""The seat payload's structured actions: for every game, the same actions as `legal_actions`,
in the same order, each a verb with typed arguments (what the browser reads instead of notation)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from henderson import games
from henderson.core.actions import ArgKind
from tests.server.conftest import act, seat

KINDS = {k.value for k in ArgKind}
STEPS = 40  # actions played per game: past the set-up into the first moves


def check_actions(message: dict[str, Any]) -> None:
    """`actions` mirrors `legal_actions`, and every argument is typed."""
    actions = message["actions"]
    assert [a["text"] for a in actions] == message["legal_actions"]
    for a in actions:
        assert a["verb"] == a["text"].split()[0], a
        for arg in a["args"]:
            assert arg["kind"] in KINDS and isinstance(arg["role"], str) and arg["role"], a
            if arg["kind"] == "units":
                assert isinstance(arg["value"], list) and all(isinstance(v, str) for v in arg["value"]), a
            elif arg["kind"] == "number":
                assert isinstance(arg["value"], int), a
            else:
                assert isinstance(arg["value"], str) and arg["value"], a


@pytest.mark.parametrize("name", games.names())
def test_every_seat_payload_lists_its_actions_as_text_and_as_structure(client: TestClient, name: str) -> None:
    sides = games.get(name).sides
    made = client.post("/api/matches", json={"game": name, "players": {s: "human" for s in sides}, "hotseat": True})
    assert made.status_code == 201, made.text
    tokens = made.json()["seats"]
    rng = random.Random(7)
    typed = set()
    for _ in range(STEPS):
        messages = {side: seat(client, token) for side, token in tokens.items()}
        waiting = [m for m in messages.values() if not m["your_turn"]]
        assert all(m["actions"] == [] and m["legal_actions"] == [] for m in waiting)
        mover = next((m for m in messages.values() if m["your_turn"]), None)
        if mover is None:
            break
        check_actions(mover)
        typed |= {arg["kind"] for a in mover["actions"] for arg in a["args"]}
        action = rng.choice(mover["legal_actions"])
        assert act(client, tokens[mover["side"]], action, mover["ply"]).status_code == 200
    assert typed & {"unit", "units"} and typed & {"hex", "zone", "box", "place"}, typed


def test_a_large_seat_payload_is_sent_compressed(client: TestClient) -> None:
    """A crowded position lists thousands of structured actions: the answer is gzip-encoded
    for a client that accepts it, and reads the same."""
    sides = games.get("firstblood").sides
    made = client.post(
        "/api/matches", json={"game": "firstblood", "players": {s: "human" for s in sides}, "hotseat": True}
    )
    token = made.json()["seats"]["us"]
    answer = client.get("/api/seat", headers={"Authorization": f"Bearer {token}", "Accept-Encoding": "gzip"})
    assert answer.status_code == 200
    assert answer.headers.get("content-encoding") == "gzip"
    assert len(answer.json()["actions"]) == len(answer.json()["legal_actions"]) > 100
