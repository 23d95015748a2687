"""The `henderson serve` command (wired into `henderson.cli` by `register`)."""

from __future__ import annotations

from typing import Annotated

import typer

from henderson.core.errors import HendersonError

DEFAULT_DB = "sqlite:///henderson.sqlite"
SERVER_PACKAGES = ("fastapi", "uvicorn", "sqlalchemy", "starlette", "websockets", "psycopg")


def register(app: typer.Typer) -> None:
    """Add `serve [--host] [--port] [--db URL] [--poll SECONDS]` to the command-line app."""

    @app.command("serve")
    def serve_command(
        host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
        db: Annotated[
            str,
            typer.Option("--db", help="database: an SQLite file path or URL, or postgresql://…"),
        ] = DEFAULT_DB,
        poll: Annotated[
            float | None,
            typer.Option(
                "--poll",
                min=0.0,
                max=3600.0,
                help="seconds between looks for changes other server processes made to matches watched "
                "through this one (0: never; one process alone needs none; default 2)",
            ),
        ] = None,
    ) -> None:
        """Serve the games in a browser: prints the address to open."""
        try:
            from henderson.server.run import serve
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.split(".")[0] in SERVER_PACKAGES:
                raise HendersonError(
                    f"the server needs {exc.name}: pip install 'henderson[server]' (make run installs it)"
                ) from None
            raise
        serve(host, port, db, poll)
