"""Computer players think off the event loop: other games go on meanwhile; they resume after
a restart without anyone opening the game."""

from __future__ import annotations

import threading
from collections.abc import Iterator
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
