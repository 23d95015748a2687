"""API errors: every failure a client causes becomes a 4xx JSON body, never a traceback.

The body is `{"error": code, "message": sentence}` plus `"rule"` for an illegal action.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException as StarletteHTTPException

from henderson.core.errors import (
    HendersonError,
    IllegalAction,
    NotationError,
    PositionError,
    RecordError,
    UnknownGame,
)

log = logging.getLogger("henderson.server")


class ApiError(Exception):
    """A request the server refuses: HTTP status, a stable code and a readable sentence."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, **self.extra}


def from_henderson(exc: HendersonError) -> ApiError:
    """The API error for an error raised by a game, a record or a position."""
    if isinstance(exc, IllegalAction):
        return ApiError(422, "illegal-action", exc.message, rule=exc.rule)
    if isinstance(exc, NotationError):
        return ApiError(422, "bad-notation", str(exc))
    if isinstance(exc, UnknownGame):
        return ApiError(404, "unknown-game", str(exc))
    if isinstance(exc, RecordError):
        return ApiError(422, "bad-record", str(exc))
    if isinstance(exc, PositionError):
        return ApiError(422, "bad-position", str(exc))
    return ApiError(422, "bad-input", str(exc))


def error_response(err: ApiError) -> JSONResponse:
    return JSONResponse(err.body(), status_code=err.status)


def _validation_message(exc: RequestValidationError) -> tuple[str, str]:
    errors = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errors):
        return "bad-json", "the request body is not valid JSON"
    parts = []
    for e in errors[:5]:
        where = ".".join(str(p) for p in e.get("loc", ()) if p != "body") or "body"
        parts.append(f"{where}: {e.get('msg', 'invalid')}")
    return "invalid-body", "; ".join(parts) or "the request body is not valid"


def allowed_methods(request: Request) -> list[str]:
    """The methods of every route whose path matches the request's (a path served by two
    routes, GET and POST, answers a third method with both)."""
    path = request.url.path
    found = {
        method
        for route in request.app.routes
        if isinstance(route, APIRoute) and route.path_regex.match(path)
        for method in route.methods or ()
    }
    return sorted(found)


def install_handlers(app: FastAPI) -> None:
    """Turn every exception into a JSON error body."""

    @app.exception_handler(ApiError)
    async def _api(_: Request, exc: ApiError) -> JSONResponse:
        return error_response(exc)

    @app.exception_handler(HendersonError)
    async def _henderson(_: Request, exc: HendersonError) -> JSONResponse:
        return error_response(from_henderson(exc))

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        code, message = _validation_message(exc)
        return JSONResponse({"error": code, "message": message}, status_code=400 if code == "bad-json" else 422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {400: "bad-json", 404: "not-found", 405: "method-not-allowed"}.get(exc.status_code, "http-error")
        body = {"error": code, "message": str(exc.detail)}
        headers = dict(getattr(exc, "headers", None) or {})
        if exc.status_code == 405:  # RFC 9110: every method the path takes, across its routes
            headers["Allow"] = ", ".join(allowed_methods(request))
        return JSONResponse(body, status_code=exc.status_code, headers=headers or None)

    @app.exception_handler(Exception)
    async def _bug(_: Request, exc: Exception) -> JSONResponse:
        log.error("internal error: %s", type(exc).__name__)
        return JSONResponse({"error": "internal", "message": "internal server error"}, status_code=500)
