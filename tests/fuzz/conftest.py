"""A server on a fresh SQLite file for the malformed-input tests, and a count of its matches."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from henderson.server import create_app
from henderson.server.storage import MatchRow


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    path: Path = tmp_path_factory.mktemp("fuzz") / "games.sqlite"
    with TestClient(create_app(f"sqlite:///{path}"), raise_server_exceptions=False) as client:
        yield client


def stored_matches(client: TestClient) -> int:
    """How many matches the server's database holds."""
    store = client.app.state.hub.store  # type: ignore[attr-defined]
    with Session(store.engine) as session:
        return int(session.scalar(select(func.count()).select_from(MatchRow)) or 0)
