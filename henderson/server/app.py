"""The FastAPI application: the JSON API, the WebSocket pushes and the static client."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import AsyncIterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, PlainTextResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from starlette.middleware.gzip import GZipMiddleware

from henderson import agents, games
from henderson.core import jsontext
from henderson.core.errors import HendersonError
from henderson.core.sealed import is_seat_copy
from henderson.server.answers import GZIP_LEVEL, GZIP_MINIMUM, accepts_gzip
from henderson.server.calculator import router as calculator_router
from henderson.server.chat import ChatFeed
from henderson.server.chat import router as chat_router
from henderson.server.errors import ApiError, from_henderson, install_handlers
from henderson.server.limits import RECORD_LIMIT, BodyLimit, CatchAll, FixedHeaders
from henderson.server.matches import (
    IDLE_SECONDS,
    MAX_LIVE,
    POLL_SECONDS,
    Hub,
    Listener,
    game_named,
    leave_with_parent,
    record_of_copies,
)
from henderson.server.rules import router as rules_router
from henderson.server.schemas import (
    ERROR_RESPONSES,
    ClaimInvite,
    CreateMatch,
    MyGames,
    OddsRequest,
    PlayAction,
    PreviewRequest,
    UndoRequest,
    UploadRecord,
)
from henderson.server.storage import Seat, Store

log = logging.getLogger("henderson.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
WS_MESSAGE_LIMIT = 4096
WS_HELLO_TIMEOUT = 10.0
MAX_SINCE = 10**9  # a log position (`since`): past the log, no entry is sent

bearer = HTTPBearer(auto_error=False, description="a seat token from an invite link")


def renderer_exists(name: str) -> bool:
    """Whether the client has a board renderer for this game (`web/games/<name>.js`)."""
    return name.replace("_", "").isalnum() and (WEB_DIR / "games" / f"{name}.js").is_file()


async def seat_of(request: Request, creds: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> Seat:
    """The seat named by the request's bearer token."""
    hub: Hub = request.app.state.hub
    return await hub.seat(creds.credentials if creds else None)


SeatDep = Annotated[Seat, Depends(seat_of)]


def create_app(
    db_url: str,
    *,
    agent_delay: float = 0.0,
    agent_workers: int = 2,
    agent_processes: bool = False,
    max_live: int = MAX_LIVE,
    idle_seconds: float = IDLE_SECONDS,
    poll_seconds: float = POLL_SECONDS,
) -> FastAPI:
    """The server application storing its matches in `db_url` (SQLite file or PostgreSQL).

    `agent_delay` pauses between computer moves so that a person can follow them; computer
    players think in `agent_workers` threads, or processes with `agent_processes` (a thinking
    player then never holds the interpreter lock that people's requests need, but each decision
    sends the position and the player to a process and back, and the players must be importable
    by a fresh process); at most `max_live` matches stay in memory, and one idle for
    `idle_seconds` leaves it (both are loaded again from the database when asked for). Every
    `poll_seconds` (0: never) the matches with WebSocket listeners are checked for changes made
    by another server process on the same database, so that their listeners are pushed those too.
    """
    store = Store(db_url)
    pool: Executor
    if agent_processes:
        spawn = multiprocessing.get_context("spawn")  # no fork of a server's threads
        pool = ProcessPoolExecutor(
            max_workers=agent_workers, mp_context=spawn, initializer=leave_with_parent, initargs=(os.getpid(),)
        )
    else:
        pool = ThreadPoolExecutor(max_workers=agent_workers, thread_name_prefix="henderson-agent")
    hub = Hub(store, pool, agent_delay, max_live=max_live, idle_seconds=idle_seconds)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await hub.resume()
        watcher = asyncio.get_running_loop().create_task(hub.watch(poll_seconds)) if poll_seconds > 0 else None
        yield
        if watcher is not None:
            watcher.cancel()
            with suppress(asyncio.CancelledError):
                await watcher
        await hub.close()
        pool.shutdown(wait=False, cancel_futures=True)
        store.close()

    app = FastAPI(
        title="henderson",
        summary="Guadalcanal board wargames with every rule enforced: the game server.",
        version="1",
        lifespan=lifespan,
        responses=ERROR_RESPONSES,
    )
    app.state.hub = hub
    chat_feed = ChatFeed()
    app.state.chat_feed = chat_feed
    install_handlers(app)
    app.include_router(rules_router)
    app.include_router(chat_router)
    app.include_router(calculator_router)

    # -- games and agents ---------------------------------------------------------------------

    @app.get("/api/games", tags=["games"])
    async def list_games() -> dict[str, Any]:
        """The games this server plays, their sides, and whether the client draws their board."""
        found = []
        for name in games.names():
            try:
                game = games.get(name)
            except Exception as exc:  # a game that cannot load is left out, not a failure
                log.warning("game %s cannot be loaded: %s", name, exc)
                continue
            found.append(
                {
                    "name": name,
                    "title": game.title,
                    "sides": list(game.sides),
                    "renderer": renderer_exists(name),
                }
            )
        return {"games": found}

    @app.get("/api/games/{name}/board", tags=["games"])
    async def board(name: str) -> dict[str, Any]:
        """Static board data for the client (`game.client_data()`)."""
        return dict(game_named(name).client_data())

    @app.get("/api/agents", tags=["games"])
    async def list_agents() -> dict[str, Any]:
        """The computer players a side can be given, and the levels users choose among, each
        described in words."""
        return {"agents": agents.names(), "levels": agents.LEVELS}

    # -- matches ------------------------------------------------------------------------------

    @app.post("/api/matches", status_code=201, tags=["matches"])
    async def create_match(body: CreateMatch) -> dict[str, Any]:
        """Start a match; the answer holds the creator's seat token (every human seat's with
        `hotseat`), an invite for each other human seat, a spectator token and the commitment
        to the match's secret dice."""
        return await hub.create(
            body.game, body.options, body.players, side=body.side, hotseat=body.hotseat, contribution=body.contribution
        )

    @app.post("/api/records", status_code=201, tags=["matches"])
    async def upload_record(body: UploadRecord) -> dict[str, Any]:
        """Start a match that resumes an uploaded JSON Lines record with new secret dice; one
        seat's copy of a game of hidden information (`record`) resumes only with the other
        seats' copies (`other_copies`): the whole record sealed in them is resumed."""
        text = body.record
        if is_seat_copy(text):
            text = await asyncio.to_thread(record_of_copies, [text, *body.other_copies])
        elif body.other_copies:
            raise ApiError(422, "not-a-seat-copy", "other_copies go with a seat's copy in record, and this is none")
        return await hub.upload(
            text, body.players, side=body.side, hotseat=body.hotseat, contribution=body.contribution
        )

    @app.get("/api/invite", tags=["matches"])
    async def invite(creds: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> dict[str, Any]:
        """What an unused invite offers (bearer: the invite code): the game, the side, the players
        and the commitment to the dice."""
        return await hub.invite(creds.credentials if creds else None)

    @app.post("/api/invite/claim", tags=["matches"])
    async def claim(
        body: ClaimInvite, creds: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
    ) -> dict[str, Any]:
        """Use an invite (bearer: the invite code), once: the answer holds the seat's token,
        given to nobody else; the contribution is mixed into the dice from the next die on."""
        return await hub.claim(creds.credentials if creds else None, body.contribution)

    @app.post("/api/mine", tags=["matches"])
    async def my_games(body: MyGames) -> dict[str, Any]:
        """What the seats of the given tokens are in; unknown tokens are listed apart."""
        found, unknown = [], []
        for token in body.tokens:
            try:
                seat = await hub.seat(token)
            except ApiError:
                unknown.append(token)
                continue
            summary = await asyncio.to_thread(hub.store.summary, seat.match_id)
            if summary is None:
                unknown.append(token)
                continue
            found.append(
                {
                    "token": token,
                    "match": summary.id,
                    "game": summary.game,
                    "side": seat.side,
                    "role": "spectator" if seat.side is None else "player",
                    "steps": summary.ply,
                    "current_player": summary.current,
                    "finished": summary.finished,
                    "updated": summary.updated.isoformat(),
                    "invited": await asyncio.to_thread(hub.store.unclaimed, seat.match_id),
                }
            )
        return {"games": found, "unknown": unknown}

    # -- a seat -------------------------------------------------------------------------------

    @app.get("/api/seat", tags=["seat"], response_model=dict[str, Any])
    async def seat_state(
        request: Request,
        seat: SeatDep,
        since: Annotated[
            int,
            Query(ge=0, le=MAX_SINCE, description="log entries the client holds: only the ones after them are sent"),
        ] = 0,
    ) -> Response:
        """The seat's view of its match, its legal actions when it must act, and the log: the
        whole log, or with `since=N` only the entries after the first N (`log_from` says
        where the entries sent begin), so a client that polls is not sent the game again."""
        live = await hub.current(seat.match_id)
        gzipped = accepts_gzip(request.headers.get("accept-encoding"))
        return (await hub.payload(live, seat.side, since, gzipped)).response()

    @app.post("/api/seat/actions", tags=["seat"])
    async def play(seat: SeatDep, body: PlayAction) -> dict[str, Any]:
        """Play an action; `ply` is the state id it was chosen on (stale actions are refused)."""
        return await hub.act(seat, body.action, body.ply)

    @app.post("/api/seat/undo", tags=["seat"])
    async def undo(seat: SeatDep, body: UndoRequest) -> dict[str, Any]:
        """Take back the seat's last action (no die rolled, same phase); `ply` is the current
        state id, as for an action."""
        return await hub.undo(seat, body.ply)

    @app.post("/api/seat/odds", tags=["seat"])
    async def odds(seat: SeatDep, body: OddsRequest) -> dict[str, Any]:
        """The odds of an attack before committing it: column, modifiers with their rules and
        the chance of each result (games with `game.odds`; the deciding seat only)."""
        return await hub.odds(seat, body.attack)

    @app.post("/api/seat/preview", tags=["seat"])
    async def preview(seat: SeatDep, body: PreviewRequest) -> dict[str, Any]:
        """Try actions on a copy of the position and get fields of the view after each (e.g. the
        movement left after a move); actions that roll dice are not previewed."""
        return await hub.preview(seat, body.actions, body.fields)

    @app.get("/api/seat/placements", tags=["seat"])
    async def placements(
        seat: SeatDep,
        unit: Annotated[str, Query(min_length=1, max_length=64, description="a counter waiting to be placed")],
    ) -> dict[str, Any]:
        """Where a counter waiting to be placed (set-up, reinforcements, purchases) may go now,
        as structured actions (the deciding seat only); none for a counter that is not waiting."""
        return await hub.placements(seat, unit)

    @app.get("/api/seat/history", tags=["seat"])
    async def history(seat: SeatDep, step: Annotated[int, Query(ge=0)]) -> dict[str, Any]:
        """The seat's view after the record's first `step` actions."""
        return await hub.history(seat, step)

    @app.get("/api/seat/record", tags=["seat"], response_class=PlainTextResponse)
    async def download(seat: SeatDep) -> Response:
        """The match as its JSON Lines record; mid-game, in a match that hides something from
        this seat, the seat's copy (`X-Henderson-Record: seat-copy`, its header's
        `meta.seat_copy`): each action as the seat read it, without dice, and for a side's
        seat its share of the key and the whole record sealed (to resume with the other copy)."""
        text, copy, name = await hub.record_text(seat)
        return PlainTextResponse(
            text,
            media_type="application/x-ndjson",
            headers={
                "Content-Disposition": f'attachment; filename="{name}"',
                "X-Henderson-Record": "seat-copy" if copy else "whole",
            },
        )

    # -- live updates -------------------------------------------------------------------------

    @app.websocket("/api/ws")
    async def updates(ws: WebSocket) -> None:
        """Send `{"token": ..., "since": N}` first (`since`, optional: the log entries the client
        holds); then each change of the match comes as a state message with the new entries, and
        each new chat message as `{"type": "chat", "message": ...}`."""
        await ws.accept()
        try:
            hello = await asyncio.wait_for(ws.receive_text(), WS_HELLO_TIMEOUT)
            if len(hello) > WS_MESSAGE_LIMIT:
                raise ApiError(413, "too-large", "the message is too long")
            try:
                first = jsontext.loads(hello)
                token, since = first.get("token"), first.get("since", 0)
            except (ValueError, AttributeError):
                raise ApiError(400, "bad-json", 'the first message must be {"token": "..."}') from None
            if isinstance(since, bool) or not isinstance(since, int) or not 0 <= since <= MAX_SINCE:
                raise ApiError(422, "invalid-body", f"since: an integer 0..{MAX_SINCE}, the log entries held")
            seat = await hub.seat(token if isinstance(token, str) else None)
            live = await hub.current(seat.match_id)
        except (TimeoutError, WebSocketDisconnect):
            with suppress(Exception):
                await ws.close(code=4408)
            return
        except (ApiError, HendersonError) as exc:
            err = exc if isinstance(exc, ApiError) else from_henderson(exc)
            with suppress(Exception):
                await ws.send_json({"type": "error", **err.body()})
                await ws.close(code=4000 + err.status)
            return
        listener = Listener(seat.side)
        live.listeners.add(listener)
        said = chat_feed.join(seat.match_id)
        reader = asyncio.create_task(_read_pings(ws))
        waiter = asyncio.create_task(listener.wake.get())
        heard = asyncio.create_task(said.get())
        try:
            snapshot = live.snapshot()
            await ws.send_text(await hub.payload_text(live, seat.side, since, snapshot))
            sent = snapshot[1]
            while True:
                done, _ = await asyncio.wait({waiter, heard, reader}, return_when=asyncio.FIRST_COMPLETED)
                if reader in done:
                    return
                if heard in done:  # a chat message (None: too many at once, read the chat again)
                    await ws.send_json({"type": "chat", "message": heard.result()})
                    heard = asyncio.create_task(said.get())
                if waiter in done:
                    snapshot = live.snapshot()
                    await ws.send_text(await hub.payload_text(live, seat.side, sent, snapshot))
                    sent = snapshot[1]
                    waiter = asyncio.create_task(listener.wake.get())
        except (WebSocketDisconnect, RuntimeError):
            return
        finally:
            live.listeners.discard(listener)
            chat_feed.leave(seat.match_id, said)
            for task in (reader, waiter, heard):
                task.cancel()

    async def _read_pings(ws: WebSocket) -> None:
        """Answer pings; return when the client goes away or breaks the protocol."""
        while True:
            try:
                text = await ws.receive_text()
            except (WebSocketDisconnect, RuntimeError):
                return
            if len(text) > WS_MESSAGE_LIMIT:
                with suppress(Exception):
                    await ws.close(code=1009)
                return
            try:
                kind = jsontext.loads(text).get("type")
            except (ValueError, AttributeError):
                kind = None
            if kind == "ping":
                await ws.send_json({"type": "pong"})

    # -- the client ---------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return FileResponse(WEB_DIR / "index.html")

    @app.get("/play", include_in_schema=False)
    async def game_page() -> FileResponse:
        return FileResponse(WEB_DIR / "play.html")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(WEB_DIR / "favicon.svg", media_type="image/svg+xml")

    app.mount("/web", StaticFiles(directory=WEB_DIR), name="web")

    app.add_middleware(FixedHeaders)
    app.add_middleware(BodyLimit, per_path={"/api/records": RECORD_LIMIT})
    # a seat's state lists its legal actions as structured values: thousands in a crowded DG
    # position, some 350 KB of JSON that compresses tenfold (the WebSocket deflates its own)
    # (the state answer comes encoded and compressed from its worker thread: `answers`)
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM, compresslevel=GZIP_LEVEL)
    app.add_middleware(CatchAll)  # added last: the outermost
    return app
