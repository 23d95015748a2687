"""The authoritative game server: FastAPI JSON API, WebSocket pushes, SQL storage, web client."""

from __future__ import annotations

from henderson.server.app import create_app
from henderson.server.run import serve

__all__ = ["create_app", "serve"]
