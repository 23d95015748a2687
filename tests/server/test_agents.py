"""Computer players think off the event loop: other games go on meanwhile; they resume after
a restart without anyone opening the game."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient

from henderson import agents
from henderson.server import create_app
from tests.server.conftest import act, create, seat, wait_for

RELEASE = threading.Event()


class BlockingAgent:
    """Holds until the test releases it, then holds (banks) its turn total."""

    name = "blocker"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, state: Any) -> Any:
        RELEASE.wait(timeout=30)
        return state.legal_actions()[-1]


@pytest.fixture
def release() -> Iterator[threading.Event]:
    """The blocking agent, registered for one test, and the event that lets it move."""
    agents.register("blocker", BlockingAgent)
    RELEASE.clear()
    yield RELEASE
    RELEASE.set()
    agents._FACTORIES.pop("blocker", None)


def test_a_thinking_computer_does_not_block_other_games(client: TestClient, release: threading.Event) -> None:
    slow = create(client, blue="blocker")
    assert act(client, slow["seats"]["red"], "hold", 0).status_code == 200  # blue now thinks
    other = create(client)
    assert act(client, other["seats"]["red"], "hold", 0).status_code == 200
    assert seat(client, other["seats"]["blue"])["your_turn"] is True
    assert seat(client, slow["seats"]["red"])["current_player"] == "blue"
    release.set()
    wait_for(lambda: seat(client, slow["seats"]["red"])["your_turn"], "the computer to move")


def test_a_waiting_computer_resumes_when_the_server_starts(db_url: str, release: threading.Event) -> None:
    with TestClient(create_app(db_url)) as client:
        made = create(client, blue="blocker")
        assert act(client, made["seats"]["red"], "hold", 0).status_code == 200
    release.set()
    with TestClient(create_app(db_url)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert made["match"] in hub.live  # loaded at start, before any request
        wait_for(lambda: seat(client, made["seats"]["red"])["your_turn"], "the computer to move")


class CountingAgent:
    """Plays the last legal action (in FIRST BLOOD's set-up: one counter placed, never the whole
    default set-up at once) and counts its decisions: what it keeps from one to the next."""

    name = "counter"

    def __init__(self, seed: int | None = None) -> None:
        self.decisions = 0

    def choose(self, state: Any) -> Any:
        self.decisions += 1
        return state.legal_actions()[-1]


def test_computer_players_may_think_in_processes_and_keep_what_they_learn(tmp_path: Any) -> None:
    """With `agent_processes` a computer player thinks in another process (never holding the
    interpreter lock the people's requests need) and comes back as it was after choosing."""
    agents.register("counter", CountingAgent)
    try:
        app = create_app(f"sqlite:///{tmp_path / 'games.sqlite'}", agent_processes=True, agent_workers=1)
        with TestClient(app) as client:
            assert isinstance(app.state.hub.pool, ProcessPoolExecutor)
            made = client.post(
                "/api/matches", json={"game": "firstblood", "players": {"us": "counter", "jp": "random"}}
            )
            assert made.status_code == 201, made.text
            match = made.json()["match"]
            wait_for(lambda: seat(client, made.json()["spectator"])["steps"] >= 3, "three computer moves", 120)
            live = app.state.hub.live[match]
            assert live.agents["us"].decisions >= 3  # the copy that came back replaced the one sent
    finally:
        agents._FACTORIES.pop("counter", None)
