"""The `serve` command and the address it prints."""

from __future__ import annotations

import pytest
import typer
from typer.testing import CliRunner

from henderson.server import cli, run
from henderson.server.storage import normalise_url, redact


def test_serve_is_registered_with_its_options(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    monkeypatch.setattr(run, "serve", lambda host, port, db, poll: calls.append((host, port, db, poll)))
    app = typer.Typer()
    cli.register(app)

    @app.command("other")
    def other() -> None:  # a second command keeps typer from collapsing the group
        """Nothing."""

    runner = CliRunner()
    result = runner.invoke(app, ["serve", "--port", "8123", "--db", "games.sqlite"])
    assert result.exit_code == 0, result.output
    # --poll: how often matches watched through this process are checked for other
    # processes' changes (docs/server.md, "Several server processes"); None: the default
    assert runner.invoke(app, ["serve", "--poll", "0.5"]).exit_code == 0
    assert calls == [("127.0.0.1", 8123, "games.sqlite", None), ("127.0.0.1", 8000, cli.DEFAULT_DB, 0.5)]
    refused = runner.invoke(app, ["serve", "--poll", "-1"])
    assert refused.exit_code == 2 and "--poll" in refused.output


def test_the_address_to_open() -> None:
    assert run.address("127.0.0.1", 8000) == "http://127.0.0.1:8000/"
    assert run.address("0.0.0.0", 80) == "http://localhost:80/"
    assert run.address("::1", 8000) == "http://[::1]:8000/"


def test_database_urls() -> None:
    assert normalise_url("games.sqlite") == "sqlite:///games.sqlite"
    assert normalise_url("postgresql://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert "secret" not in redact("postgresql://user:secret@host/db")
