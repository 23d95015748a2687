"""Chat between the seats of a match, stored beside it in a table of its own (`chat`): each
message its side, text and time. A seat of the match reads them (a spectator too); only a
side's seat writes; a new message is pushed at once to the match's open WebSockets
(`ChatFeed`). Text is kept as plain text (control characters dropped, spaces folded,
at most MESSAGE_LIMIT characters); the client shows it as text, never as markup."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, Field
from sqlalchemy import DateTime, Integer, String, Text, func, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from henderson.server.errors import ApiError
from henderson.server.storage import Base, Seat, Store

MESSAGE_LIMIT = 500
"""The most characters a message keeps."""
MATCH_LIMIT = 2000
"""The most messages a match stores."""
READ_LIMIT = 200
"""The most messages one read returns (the latest)."""

FEED_LIMIT = 64
"""The most messages waiting to be pushed to one connection before it is told to read again."""

router = APIRouter()


class ChatFeed:
    """New messages pushed to the match's open WebSockets as they are written, so that the
    other seat reads one at once (the client polls only while its socket is down).

    Each connection holds a queue of its own; one that falls FEED_LIMIT messages behind gets
    a single `None` instead, telling its client to read the chat again from where it is."""

    def __init__(self) -> None:
        self.queues: dict[str, set[asyncio.Queue[dict[str, Any] | None]]] = {}

    def join(self, match_id: str) -> asyncio.Queue[dict[str, Any] | None]:
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(maxsize=FEED_LIMIT)
        self.queues.setdefault(match_id, set()).add(queue)
        return queue

    def leave(self, match_id: str, queue: asyncio.Queue[dict[str, Any] | None]) -> None:
        held = self.queues.get(match_id)
        if held is not None:
            held.discard(queue)
            if not held:
                del self.queues[match_id]

    def publish(self, match_id: str, message: dict[str, Any]) -> None:
        for queue in self.queues.get(match_id, ()):
            if queue.full():  # too far behind: drop what waits, ask for a fresh read
                while not queue.empty():
                    queue.get_nowait()
                queue.put_nowait(None)
            else:
                queue.put_nowait(message)

bearer = HTTPBearer(auto_error=False, description="a seat token from an invite link")


class ChatRow(Base):
    """One message of a match's chat."""

    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(String(32), index=True)
    side: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChatMessage(BaseModel):
    """A message to send."""

    text: str = Field(max_length=4 * MESSAGE_LIMIT)


def clean(text: str) -> str:
    """Plain text of one line: control characters dropped, runs of spaces folded, cut to
    MESSAGE_LIMIT characters.

    >>> clean("  hello\\n\\tthere\\x00 ")
    'hello there'
    """
    text = re.sub(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]", "", text)
    return " ".join(text.split())[:MESSAGE_LIMIT]


def as_json(row: ChatRow) -> dict[str, Any]:
    return {"id": row.id, "side": row.side, "text": row.text, "at": row.at.isoformat()}


def read(store: Store, match_id: str, after: int) -> list[dict[str, Any]]:
    """The match's messages after id `after`, oldest first (the latest READ_LIMIT)."""
    with Session(store.engine) as session:
        rows = session.scalars(
            select(ChatRow)
            .where(ChatRow.match_id == match_id, ChatRow.id > after)
            .order_by(ChatRow.id.desc())
            .limit(READ_LIMIT)
        ).all()
    return [as_json(r) for r in reversed(rows)]


def write(store: Store, match_id: str, side: str, text: str) -> dict[str, Any]:
    """Store one message; ApiError 409 when the match's chat is full."""
    with Session(store.engine) as session, session.begin():
        count = session.scalar(select(func.count()).select_from(ChatRow).where(ChatRow.match_id == match_id))
        if (count or 0) >= MATCH_LIMIT:
            raise ApiError(409, "chat-full", f"this match's chat holds its {MATCH_LIMIT} messages already")
        row = ChatRow(match_id=match_id, side=side, text=text, at=datetime.now(UTC))
        session.add(row)
        session.flush()
        return as_json(row)


async def chat_seat(request: Request, creds: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> Seat:
    """The seat named by the request's bearer token."""
    seat: Seat = await request.app.state.hub.seat(creds.credentials if creds else None)
    return seat


ChatSeat = Annotated[Seat, Depends(chat_seat)]


@router.get("/api/seat/chat", tags=["seat"])
async def get_chat(
    request: Request, seat: ChatSeat, after: Annotated[int, Query(ge=0, le=2**62)] = 0
) -> dict[str, Any]:
    """The match's chat after message id `after`, oldest first."""
    store: Store = request.app.state.hub.store
    return {"messages": await asyncio.to_thread(read, store, seat.match_id, after)}


@router.post("/api/seat/chat", status_code=201, tags=["seat"])
async def post_chat(request: Request, seat: ChatSeat, body: ChatMessage) -> dict[str, Any]:
    """Say something to the other seats: a side's seat only, plain text, not empty."""
    if seat.side is None:
        raise ApiError(403, "spectator", "a spectator reads the chat but does not write in it")
    text = clean(body.text)
    if not text:
        raise ApiError(422, "empty-message", "the message is empty")
    store: Store = request.app.state.hub.store
    message = await asyncio.to_thread(write, store, seat.match_id, seat.side, text)
    feed: ChatFeed = request.app.state.chat_feed
    feed.publish(seat.match_id, message)
    return message
