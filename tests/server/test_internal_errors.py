"""A bug in a route is a 500 JSON body that goes no further: no traceback reaches a client,
and the exception is not raised again past the application (which made the server close a
keep-alive connection after a 500)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from henderson.server import create_app
from tests.server.conftest import auth


def test_an_unexpected_exception_is_a_500_body_and_not_raised_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'games.sqlite'}")
    with TestClient(app, raise_server_exceptions=True) as client:  # raises what escapes the app
        made = client.post("/api/matches", json={"game": "toy", "hotseat": True}).json()

        async def broken(*_: Any, **__: Any) -> Any:
            raise RuntimeError("a bug")

        monkeypatch.setattr(app.state.hub, "payload", broken)
        response = client.get("/api/seat", headers=auth(made["seats"]["red"]))
        assert response.status_code == 500
        assert response.json() == {"error": "internal", "message": "internal server error"}
        assert "a bug" not in response.text
        assert client.get("/api/games").status_code == 200  # the same client goes on
