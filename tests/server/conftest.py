"""Fixtures for the server tests: the toy game registered, an app on a fresh database.

Storage tests run on SQLite always, and on PostgreSQL too when HENDERSON_TEST_POSTGRES
holds a URL (scripts/ensure-postgres prints one).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from henderson import agents, games
from henderson.server import create_app

TEST_GAMES = {
    "toy": "tests.support.toy",
    "stricttoy": "tests.server.strict_toy",
    "hextoy": "tests.server.hex_toy",
}


class Holder:
    """A computer player that always holds in the toy game: its turns never win, so a test can
    wait for its turn to end (a random player could, now and then, roll the game to its end)."""

    name = "holder"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, state: Any) -> Any:
        acts = state.legal_actions()
        return next((a for a in acts if str(a) == "hold"), acts[0])


@pytest.fixture(scope="session", autouse=True)
def holder_agent() -> None:
    agents.register("holder", Holder)


@pytest.fixture(scope="session", autouse=True)
def test_games() -> Iterator[None]:
    """The test games, registered while the server tests run only (not at collection, so
    that tests run on every registered game do not pick them up)."""
    added = [name for name in TEST_GAMES if name not in games.REGISTRY]
    for name in added:
        games.register(name, TEST_GAMES[name])
    yield
    for name in added:
        games.REGISTRY.pop(name, None)
    games._load.cache_clear()


POSTGRES = os.environ.get("HENDERSON_TEST_POSTGRES", "")


@pytest.fixture(scope="session")
def fresh_postgres(worker_id: str) -> str:
    """The PostgreSQL test database with a schema of its own for this test process, made
    empty once per session: parallel test processes (pytest-xdist) share the database but
    never each other's tables."""
    from sqlalchemy import create_engine, text

    from henderson.server.storage import normalise_url

    schema = f"test_{worker_id}"  # "test_master" alone, "test_gw0", "test_gw1", … in parallel
    engine = create_engine(normalise_url(POSTGRES))
    with engine.begin() as connection:
        connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    engine.dispose()
    return f"{POSTGRES}{'&' if '?' in POSTGRES else '?'}options=-csearch_path%3D{schema}"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database URL: an SQLite file, or the PostgreSQL server given in the environment."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.sqlite'}"
    if not POSTGRES:
        pytest.skip("HENDERSON_TEST_POSTGRES is not set (scripts/ensure-postgres prints a URL)")
    return str(request.getfixturevalue("fresh_postgres"))


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url), raise_server_exceptions=False) as c:
        yield c


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: TestClient, **players: str) -> dict[str, Any]:
    """A toy match; sides not named are human."""
    response = client.post("/api/matches", json={"game": "toy", "players": players, "hotseat": True})
    assert response.status_code == 201, response.text
    return dict(response.json())


def seat(client: TestClient, token: str) -> dict[str, Any]:
    response = client.get("/api/seat", headers=auth(token))
    assert response.status_code == 200, response.text
    return dict(response.json())


def act(client: TestClient, token: str, action: str, ply: int) -> Any:
    return client.post("/api/seat/actions", json={"action": action, "ply": ply}, headers=auth(token))


def wait_for(check: Callable[[], bool], what: str, limit: float = 60.0) -> None:
    """Poll until `check()` holds (computer players move in the background)."""
    end = time.monotonic() + limit
    while not check():
        if time.monotonic() > end:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.02)
