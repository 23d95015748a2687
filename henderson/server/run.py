"""Run the server with uvicorn and say which address to open."""

from __future__ import annotations

import gc
import os

import uvicorn

from henderson import games
from henderson.server.app import WS_MESSAGE_LIMIT, create_app
from henderson.server.cli import DEFAULT_DB
from henderson.server.matches import POLL_SECONDS
from henderson.server.storage import redact

__all__ = ["DEFAULT_DB", "address", "freeze_startup_objects", "serve"]


def address(host: str, port: int) -> str:
    """The address a person opens in a browser for a server bound to host:port."""
    shown = "localhost" if host in ("0.0.0.0", "::", "") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def agent_workers(cpus: int | None = None) -> int:
    """How many processes `henderson serve` gives the computer players: every core but one,
    which is left to the people's requests (at least one)."""
    return max(1, (cpus if cpus is not None else os.cpu_count() or 1) - 1)


def freeze_startup_objects() -> None:
    """Load every game's data, then put everything built so far (code, game data, the app)
    out of the garbage collector's sight. It lives as long as the process, and a full
    collection, which stops every request while it runs, looked through it each time: about
    40 of 90 ms, some ten times a minute, under load. Objects made later are collected as
    usual; frozen ones are still freed when nothing refers to them."""
    for name in games.names():
        games.get(name)
    gc.collect()
    gc.freeze()


def serve(
    host: str = "127.0.0.1", port: int = 8000, db_url: str = DEFAULT_DB, poll_seconds: float | None = None
) -> None:
    """Serve until interrupted; print the address to open first. `poll_seconds`: how often the
    matches watched through this process are checked for changes other processes made (None:
    `create_app`'s default)."""
    # computer players think in processes: a thinking player never holds the interpreter lock
    # that people's requests need (in threads, 4 computer games beside 100 human ones made the
    # people wait 30 times longer: docs/server.md, "Load"), one core left to the people
    app = create_app(
        db_url,
        agent_delay=0.4,
        agent_processes=True,
        agent_workers=agent_workers(),
        poll_seconds=POLL_SECONDS if poll_seconds is None else poll_seconds,
    )
    freeze_startup_objects()
    print(f"henderson: open {address(host, port)} (games stored in {redact(db_url)})", flush=True)
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws_max_size=WS_MESSAGE_LIMIT * 4,
        log_level="warning",
        access_log=False,
        server_header=False,
    )
