"""The server's plain ASGI middlewares: request size limits, enforced before a body reaches a
route; the headers every answer carries; the last guard against an unanswered exception."""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

log = logging.getLogger("henderson.server")

DEFAULT_LIMIT = 64 * 1024
RECORD_LIMIT = 16 * 1024 * 1024  # uploaded records are long


class BodyLimit:
    """Refuse with 413 any HTTP body longer than its path allows (declared or streamed)."""

    def __init__(self, app: ASGIApp, default: int = DEFAULT_LIMIT, per_path: dict[str, int] | None = None) -> None:
        self.app = app
        self.default = default
        self.per_path = per_path or {}

    def limit(self, path: str) -> int:
        return self.per_path.get(path, self.default)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit(scope.get("path", ""))
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await _refuse(send, 400, "bad-request", "Content-Length is not a number")
                    return
                if declared > limit:
                    await _refuse(send, 413, "too-large", f"the request body is over {limit} bytes")
                    return
        # read the body here, counting, so a body without a declared length is limited too
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await _refuse(send, 413, "too-large", f"the request body is over {limit} bytes")
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _refuse(send: Send, status: int, code: str, message: str) -> None:
    payload = json.dumps({"error": code, "message": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})


FIXED_HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),  # a seat's state changes with every action
)


class FixedHeaders:
    """Headers every HTTP answer carries unless its route set them itself. A plain ASGI
    middleware: Starlette's `BaseHTTPMiddleware` costs a task group and a streamed copy of
    each answer, a noticeable part of a request under load."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def add(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                have = {name.lower() for name, _ in headers}
                headers += [(name, value) for name, value in FIXED_HEADERS if name not in have]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, add)


class CatchAll:
    """The outermost guard: an exception no handler turned into an answer becomes a 500 JSON
    body here and goes no further, so the server never sends a traceback and never drops the
    connection (Starlette's own last handler answers and then raises again, which makes the
    server close a keep-alive connection)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watch(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watch)
        except Exception as exc:  # the last line of defence: logged, answered, not raised again
            log.error("internal error: %s on %s", type(exc).__name__, scope.get("path", ""))
            if not started:
                await _refuse(send, 500, "internal", "internal server error")
