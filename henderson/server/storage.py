"""Durable storage of matches through SQLAlchemy 2: SQLite by default, PostgreSQL by URL.

A match is its record (the JSON Lines format of `henderson.core.record`): the header
is one row of `matches`, each action one row of `entries`, written before the action
is acknowledged. The actions of many matches arriving at once are written together, in one
transaction synced to disk once (`GroupCommit`). The secret its dice come from is a column of its own, never part of
the header until the game is over. Seat tokens and invite codes are stored only as
SHA-256 digests, so a copy of the database does not hand out seats.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy import (
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    bindparam,
    create_engine,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, OperationalError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from henderson.core.errors import HendersonError
from henderson.core.record import GameRecord, RecordEntry


class StorageError(HendersonError):
    """The database URL cannot be used, or a write conflicts with one already made."""


class StaleWrite(StorageError):
    """A write made on a match that another writer (another server process) changed first:
    nothing was written; the writer reloads the match and may try again."""


class Base(DeclarativeBase):
    """Declarative base of the server's tables."""


class MatchRow(Base):
    """One match: its record header, the secret of its dice, and a summary for listings."""

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    header: Mapped[str] = mapped_column(Text)
    ply: Mapped[int] = mapped_column(Integer, default=0)
    current: Mapped[str | None] = mapped_column(String(64), nullable=True)
    finished: Mapped[bool] = mapped_column(Boolean, default=False)
    revision: Mapped[int] = mapped_column(Integer, default=0)  # counts every change, undo too
    secret: Mapped[str | None] = mapped_column(Text, nullable=True)  # the dice secret, never sent
    problem: Mapped[str | None] = mapped_column(Text, nullable=True)  # why a computer player stopped
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SeatRow(Base):
    """A seat of a match, found by the digest of its token; side None is a spectator."""

    __tablename__ = "seats"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), index=True)
    side: Mapped[str | None] = mapped_column(String(64), nullable=True)
    player: Mapped[str] = mapped_column(String(64))  # "human", an agent name, or "spectator"


class InviteRow(Base):
    """An invite to a human seat, found by the digest of its code; usable once."""

    __tablename__ = "invites"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), index=True)
    side: Mapped[str] = mapped_column(String(64))
    claimed: Mapped[bool] = mapped_column(Boolean, default=False)


class EntryRow(Base):
    """One action of a match's record, as its JSON Lines line; (match, ply) is unique."""

    __tablename__ = "entries"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    line: Mapped[str] = mapped_column(Text)
    seen: Mapped[str | None] = mapped_column(Text, nullable=True)  # the entry as each side read it


@dataclass(frozen=True)
class Seat:
    """A seat as the server uses it: which match, which side (None: spectator), who plays."""

    match_id: str
    side: str | None
    player: str


@dataclass(frozen=True)
class Invite:
    """An invite as the server uses it: which match, which side, whether it was used."""

    match_id: str
    side: str
    claimed: bool


@dataclass(frozen=True)
class MatchSummary:
    """What a listing of "my games" shows about a match without loading it."""

    id: str
    game: str
    ply: int
    current: str | None
    finished: bool
    updated: datetime


def token_digest(token: str) -> str:
    """The stored form of a seat token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def normalise_url(db: str) -> str:
    """A SQLAlchemy URL from `--db`: a URL as given, `postgresql://` through psycopg 3,
    and a plain file path as an SQLite file."""
    if "://" not in db:
        return f"sqlite:///{Path(db).expanduser()}"
    for prefix in ("postgresql://", "postgres://"):
        if db.startswith(prefix):
            return "postgresql+psycopg://" + db[len(prefix) :]
    return db


def redact(db: str) -> str:
    """The database URL with any password hidden, for printing."""
    try:
        return make_url(normalise_url(db)).render_as_string(hide_password=True)
    except ArgumentError:
        return "<unreadable database URL>"


@dataclass(frozen=True)
class Append:
    """One action to add to a match's record, with what the match's row says after it (who
    decides next, whether the game is over, and its header when it is stored again)."""

    match_id: str
    entry: RecordEntry
    current: str | None
    finished: bool
    header: GameRecord | None = None
    revision: int | None = None  # the match's revision its writer knows (None: not checked)


# the statements of an append, built once (building one costs more than running it)
_ADVANCE = (
    update(MatchRow)
    .where(MatchRow.id == bindparam("b_id"), MatchRow.ply == bindparam("b_from"))
    .values(
        ply=bindparam("b_ply"),
        current=bindparam("b_current"),
        finished=bindparam("b_finished"),
        revision=func.coalesce(MatchRow.revision, 0) + bindparam("b_count"),
        updated=bindparam("b_updated"),
    )
)
ADVANCE_MATCH = _ADVANCE  # the match at the ply its writer knew
ADVANCE_KNOWN_MATCH = _ADVANCE.where(MatchRow.revision == bindparam("b_revision"))  # and at its revision
SET_HEADER = update(MatchRow).where(MatchRow.id == bindparam("b_id")).values(header=bindparam("b_header"))
ADD_ENTRY = insert(EntryRow)


def _entry_values(match_id: str, entry: RecordEntry) -> dict[str, Any]:
    seen = None if entry.seen is None else json.dumps(entry.seen)
    return {"match_id": match_id, "ply": entry.ply, "line": json.dumps(entry.line()), "seen": seen}


def _entry_row(match_id: str, entry: RecordEntry) -> EntryRow:
    return EntryRow(**_entry_values(match_id, entry))


def _now() -> datetime:
    return datetime.now(UTC)


def _advance(session: Session, match_id: str, *conditions: Any, **values: Any) -> None:
    """Count one change of a match (its `revision`) and set `values`, in one conditional
    UPDATE: when `conditions` (the revision or the ply the writer last knew) no longer hold,
    another writer changed the match first and nothing is written (`StaleWrite`). The row
    stays locked to the end of the transaction, so two writers never both pass."""
    done = session.execute(
        update(MatchRow)
        .where(MatchRow.id == match_id, *conditions)
        .values(revision=MatchRow.revision + 1, updated=_now(), **values)
    )
    if done.rowcount == 1:  # type: ignore[attr-defined]
        return
    if session.get(MatchRow, match_id) is None:
        raise StorageError(f"match {match_id} is not stored")
    raise StaleWrite(f"match {match_id} was changed by another writer first")


def _known(revision: int | None) -> tuple[Any, ...]:
    """The condition that the match is at the revision its writer knows (none when None)."""
    return () if revision is None else (MatchRow.revision == revision,)


P = ParamSpec("P")
R = TypeVar("R")
BUSY_TIMEOUT_MS = 30_000  # how long an SQLite write waits for another to finish
WRITE_ATTEMPTS = 8  # writes retried when SQLite reports the database busy all the same
SCHEMA_ATTEMPTS = 12  # a try fails only when another process made a table or column meanwhile: fewer exist
SCHEMA_LOCK = 0x68656E64  # the PostgreSQL advisory lock processes take turns on to make the tables


def _sqlite_pragmas(dbapi_connection: Any, _: Any) -> None:
    """Each SQLite connection: write-ahead log (readers never wait for a writer), a busy
    timeout (a writer waits for the lock instead of failing), and every commit synced to disk
    (`synchronous=FULL`: an acknowledged action survives a power cut, not only a crash)."""
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        _enter_wal(cursor)
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA wal_autocheckpoint=0")  # `Checkpointer` does it, off the write path
    finally:
        cursor.close()


def _enter_wal(cursor: Any) -> None:
    """Switch the file to its write-ahead log. On a new file another process may be switching
    it too, and SQLite then answers "database is locked" at once, without its busy timeout:
    look again after a short growing pause, until the log is on or the timeout is spent."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    pause = 0.002
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if not _busy_text(str(exc)) or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.1)


CHECKPOINT_SECONDS = 1.0


class Checkpointer:
    """Copies an SQLite file's write-ahead log back into the database, in a thread of its own,
    every `CHECKPOINT_SECONDS`. SQLite would otherwise do it inside a commit once the log holds
    1,000 pages: that commit, and every request of its group (`GroupCommit`), would wait for
    some megabytes copied and synced to disk. A passive checkpoint never waits for readers or
    writers."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="henderson-checkpoint", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        connection = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            connection.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            while not self._stop.wait(CHECKPOINT_SECONDS):
                try:
                    connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error:
                    if not self.path.exists():
                        return  # the database went away (a test's file removed): nothing left to copy
                    # a passing error (the file busy, the disk slow): the next round tries again
        except sqlite3.Error:
            pass  # the connection could not even be set up: the file is gone or unreadable
        finally:
            connection.close()

    def close(self) -> None:
        """Stop (SQLite checkpoints what is left when the last connection closes)."""
        self._stop.set()
        self._thread.join()


def _busy(exc: OperationalError) -> bool:
    return _busy_text(str(exc.orig))


def _busy_text(message: str) -> bool:
    """Whether SQLite's error message says the file is locked or busy (another writer)."""
    text = message.lower()
    return "locked" in text or "busy" in text


def retried(write: Callable[Concatenate[Store, P], R]) -> Callable[Concatenate[Store, P], R]:
    """A write of the store: one at a time in this process on SQLite (`Store.writing`: SQLite
    has a single writer, and one that waits in its busy timeout sleeps in steps of up to 100 ms,
    while a lock of our own hands over at once), and retried after a short growing pause when
    SQLite answers "database is locked" at once (a read transaction that became a write while
    another process wrote, which the busy timeout does not cover): under load a write waits,
    it never fails for a lock."""

    @functools.wraps(write)
    def run(store: Store, *args: P.args, **kwargs: P.kwargs) -> R:
        for attempt in range(WRITE_ATTEMPTS):
            try:
                with store.writing:
                    return write(store, *args, **kwargs)
            except OperationalError as exc:
                if not _busy(exc) or attempt == WRITE_ATTEMPTS - 1:
                    raise
                time.sleep(0.01 * 2**attempt)
        raise AssertionError("unreachable")

    return run


class Store:
    """Synchronous storage calls; the server runs them in worker threads."""

    def __init__(self, db_url: str) -> None:
        url = normalise_url(db_url)
        try:
            parsed = make_url(url)
        except ArgumentError:
            raise StorageError(f"cannot read the database URL {redact(db_url)!r}") from None
        kwargs: dict[str, Any] = {"future": True}
        if parsed.get_backend_name() == "sqlite":
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000}
            if parsed.database and parsed.database != ":memory:":
                Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        else:
            kwargs["pool_pre_ping"] = True
        self.engine: Engine = create_engine(parsed, **kwargs)
        self._reader: sqlite3.Connection | None = None  # `quick_revision`'s connection
        self._reader_lock = threading.Lock()
        self._reader_path = parsed.database if parsed.get_backend_name() == "sqlite" else None
        if self._reader_path in ("", ":memory:") or (self._reader_path or "").startswith("file:"):
            self._reader_path = None  # another connection would not see the same database
        # the process's writes one at a time on SQLite (`retried`); PostgreSQL runs them together
        self.writing: AbstractContextManager[Any] = nullcontext()
        if parsed.get_backend_name() == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
            self.writing = threading.Lock()
        self._prepare(db_url)
        self._checkpointer = None if self._reader_path is None else Checkpointer(Path(self._reader_path).expanduser())

    def _prepare(self, db_url: str) -> None:
        """Create the missing tables and columns. Several server processes started at once on
        one new database would race to create them: on PostgreSQL they take turns (an advisory
        lock); on SQLite one that finds a table or column made meanwhile, or the file locked
        at once, looks again."""
        for attempt in range(SCHEMA_ATTEMPTS):
            try:
                with self.engine.connect() as guard:
                    postgres = guard.dialect.name == "postgresql"
                    if postgres:
                        guard.execute(text("SELECT pg_advisory_lock(:key)"), {"key": SCHEMA_LOCK})
                    try:
                        Base.metadata.create_all(self.engine)
                        self._check_schema(db_url)
                    finally:
                        if postgres:
                            guard.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": SCHEMA_LOCK})
                return
            except OperationalError as exc:
                made = "already exists" in str(exc.orig) or "duplicate column" in str(exc.orig)
                if not (made or _busy(exc)) or attempt == SCHEMA_ATTEMPTS - 1:
                    raise
                if not made:  # SQLite found the file locked at once: wait as `retried` does
                    time.sleep(0.01 * 2**attempt)

    def _check_schema(self, db_url: str) -> None:
        """Add the columns a newer version needs when they may be empty; refuse, in one clear
        line, a database whose tables an older version made otherwise."""
        found = inspect(self.engine)
        for table in Base.metadata.sorted_tables:
            have = {c["name"] for c in found.get_columns(table.name)}
            for column in table.columns:
                if column.name not in have and column.nullable and not column.primary_key:
                    kind = column.type.compile(dialect=self.engine.dialect)
                    with self.engine.begin() as conn:
                        conn.execute(text(f'ALTER TABLE {table.name} ADD COLUMN "{column.name}" {kind}'))
                    have.add(column.name)
            missing = [c.name for c in table.columns if c.name not in have]
            if missing:
                raise StorageError(
                    f"database {redact(db_url)}: table {table.name!r} lacks column(s) "
                    f"{', '.join(missing)}: it was made by an older version; use a new database"
                )

    def close(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.close()
            self._checkpointer = None
        with self._reader_lock:
            if self._reader is not None:
                self._reader.close()
                self._reader = None
        self.engine.dispose()

    @retried
    def create_match(
        self,
        match_id: str,
        record: GameRecord,
        seats: dict[str, tuple[str | None, str]],
        current: str | None,
        finished: bool,
        *,
        secret: str | None = None,
        invites: dict[str, str] | None = None,
    ) -> None:
        """Store a new match: its header, its entries (an uploaded record), the secret of its
        dice, its seats (token -> (side, player)) and its invites (code -> side)."""
        now = _now()
        with Session(self.engine) as session, session.begin():
            session.add(
                MatchRow(
                    id=match_id,
                    game=record.game,
                    header=json.dumps(record.header()),
                    ply=len(record.entries),
                    current=current,
                    finished=finished,
                    secret=secret,
                    created=now,
                    updated=now,
                )
            )
            session.flush()
            for entry in record.entries:
                session.add(_entry_row(match_id, entry))
            for token, (side, player) in seats.items():
                session.add(SeatRow(token_hash=token_digest(token), match_id=match_id, side=side, player=player))
            for code, side in (invites or {}).items():
                session.add(InviteRow(code_hash=token_digest(code), match_id=match_id, side=side, claimed=False))

    @retried
    def replace_record(self, match_id: str, record: GameRecord, secret: str) -> None:
        """Write a match's whole record and the secret of its dice again (a match stored by an
        older version, whose dice came from a seed, going on with secret dice)."""
        with Session(self.engine) as session, session.begin():
            row = session.get(MatchRow, match_id)
            if row is None:
                raise StorageError(f"match {match_id} is not stored")
            row.header = json.dumps(record.header())
            row.secret = secret
            for entry in record.entries:
                session.merge(_entry_row(match_id, entry))

    @retried
    def set_header(self, match_id: str, record: GameRecord) -> None:
        """Store a match's header again (a contribution to its dice, the secret revealed)."""
        with Session(self.engine) as session, session.begin():
            row = session.get(MatchRow, match_id)
            if row is None:
                raise StorageError(f"match {match_id} is not stored")
            row.header = json.dumps(record.header())

    def secret(self, match_id: str) -> str | None:
        """The secret a match's dice come from."""
        with Session(self.engine) as session:
            row = session.get(MatchRow, match_id)
            return None if row is None else row.secret

    def unclaimed(self, match_id: str) -> list[str]:
        """The sides of a match whose invite was not used yet."""
        with Session(self.engine) as session:
            rows = session.scalars(
                select(InviteRow.side).where(InviteRow.match_id == match_id, InviteRow.claimed.is_(False))
            ).all()
            return sorted(rows)

    def invite(self, code: str) -> Invite | None:
        """The invite a code opens, or None."""
        with Session(self.engine) as session:
            row = session.get(InviteRow, token_digest(code))
            return None if row is None else Invite(row.match_id, row.side, bool(row.claimed))

    @retried
    def claim(self, code: str, token: str, record: GameRecord | None, revision: int | None = None) -> Invite:
        """Use an invite once: the seat of its side is bound to `token` (and the header, with the
        claimer's contribution, stored), in one transaction. StorageError when it was used;
        StaleWrite when the match is no longer at `revision` (when given)."""
        with Session(self.engine) as session:
            try:
                with session.begin():
                    row = session.get(InviteRow, token_digest(code), with_for_update=True)
                    if row is None:
                        raise StorageError("no game has this invite")
                    if row.claimed:
                        raise StorageError("this invite was used already")
                    row.claimed = True
                    header = {} if record is None else {"header": json.dumps(record.header())}
                    _advance(session, row.match_id, *_known(revision), **header)
                    seat = SeatRow(token_hash=token_digest(token), match_id=row.match_id, side=row.side, player="human")
                    session.add(seat)
                    return Invite(row.match_id, row.side, True)
            except IntegrityError:
                raise StorageError("this invite was used already") from None

    def append(
        self,
        match_id: str,
        entry: RecordEntry,
        current: str | None,
        finished: bool,
        header: GameRecord | None = None,
        revision: int | None = None,
    ) -> None:
        """Append one action to a match's record (and store its header again when given: the
        secret revealed at the end). A second write of the same ply, or a write on a match no
        longer at `revision` (when given), fails with StaleWrite and writes nothing."""
        self._append_together([Append(match_id, entry, current, finished, header, revision)])

    def append_many(self, appends: Sequence[Append]) -> list[StorageError | None]:
        """Append actions of several matches in one transaction, synced to disk once; for each,
        None when it is stored or the StorageError that kept it out. When one cannot be stored
        (its ply stored already, its match unknown or changed by another writer) the others are
        written one by one, so that it alone fails."""
        if not appends:
            return []
        try:
            self._append_together(appends)
            return [None] * len(appends)
        except StorageError as exc:
            if len(appends) == 1:
                return [exc]
        results: list[StorageError | None] = []
        for item in appends:
            try:
                self._append_together([item])
                results.append(None)
            except StorageError as exc:
                results.append(exc)
        return results

    @retried
    def _append_together(self, appends: Sequence[Append]) -> None:
        """Write actions in one transaction (a conditional UPDATE of each match's row, one
        INSERT of every entry, statements built once); StorageError, and nothing written, when
        any of them cannot be stored: StaleWrite when its match is no longer at the ply (and
        revision, when given) its writer knew — another writer changed it first."""
        now = _now()
        by_match: dict[str, list[Append]] = {}
        for item in appends:
            by_match.setdefault(item.match_id, []).append(item)
        try:
            with self.engine.begin() as conn:
                for match_id, items in by_match.items():
                    first, last = items[0], items[-1]
                    values = {"b_id": match_id, "b_from": first.entry.ply, "b_ply": last.entry.ply + 1}
                    values |= {"b_current": last.current, "b_finished": last.finished}
                    values |= {"b_count": len(items), "b_updated": now}
                    if first.revision is None:
                        advanced = conn.execute(ADVANCE_MATCH, values).rowcount
                    else:
                        advanced = conn.execute(ADVANCE_KNOWN_MATCH, values | {"b_revision": first.revision}).rowcount
                    if advanced != 1:
                        stored = conn.execute(select(MatchRow.ply).where(MatchRow.id == match_id)).first()
                        if stored is None:
                            raise StorageError(f"match {match_id} is not stored")
                        if stored[0] > first.entry.ply:
                            raise StaleWrite(f"match {match_id}: action {first.entry.ply} is already stored")
                        raise StaleWrite(f"match {match_id} was changed by another writer first")
                    headers = [i.header for i in items if i.header is not None]
                    if headers:
                        conn.execute(SET_HEADER, {"b_id": match_id, "b_header": json.dumps(headers[-1].header())})
                conn.execute(ADD_ENTRY, [_entry_values(i.match_id, i.entry) for i in appends])
        except IntegrityError:
            first = appends[0]
            where = f"match {first.match_id}: action {first.entry.ply}" if len(appends) == 1 else "an action"
            raise StaleWrite(f"{where} is already stored") from None

    @retried
    def take_back(self, match_id: str, ply: int, current: str | None, revision: int | None = None) -> None:
        """Remove the last action (number `ply`) of a match's record: an undo (StaleWrite when
        the match is no longer at `revision`, when given)."""
        with Session(self.engine) as session, session.begin():
            last = (MatchRow.ply == ply + 1, *_known(revision))
            _advance(session, match_id, *last, ply=ply, current=current, finished=False)
            entry = session.get(EntryRow, (match_id, ply))
            if entry is None:
                raise StorageError(f"match {match_id}: action {ply} is not the last one stored")
            session.delete(entry)

    def revision(self, match_id: str) -> int:
        """How many changes the match has had (one indexed read: a server process compares it
        with the revision its live copy is at before it acts)."""
        with self.engine.connect() as connection:  # not an ORM session: a third of the cost
            found = connection.execute(select(MatchRow.revision).where(MatchRow.id == match_id)).scalar()
            return int(found or 0)

    def quick_revision(self, match_id: str) -> int | None:
        """`revision`, read at once on the calling thread when that costs microseconds (an
        SQLite file: a read never waits for a writer in write-ahead-log mode), else None (the
        caller reads `revision` in a worker thread). Every action and every state answer asks
        for it (several server processes on one database), so the usual path skips the worker
        thread and the SQL layer: a third of the server's time per action before."""
        if self._reader_path is None:
            return None
        with self._reader_lock:
            if self._reader is None:
                path = Path(self._reader_path).expanduser()
                self._reader = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
                self._reader.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            # all rows fetched: the statement ends, and with it the read's snapshot
            rows = self._reader.execute("SELECT revision FROM matches WHERE id = ?", (match_id,)).fetchall()
        return int(rows[0][0] or 0) if rows else 0

    def revisions(self, match_ids: list[str]) -> dict[str, int]:
        """The revisions of several matches in one read (the live matches with listeners)."""
        with self.engine.connect() as connection:
            rows = connection.execute(select(MatchRow.id, MatchRow.revision).where(MatchRow.id.in_(match_ids))).all()
            return {match_id: int(revision or 0) for match_id, revision in rows}

    def problem(self, match_id: str) -> str | None:
        """Why the match's computer players stopped, or None."""
        with Session(self.engine) as session:
            return session.scalar(select(MatchRow.problem).where(MatchRow.id == match_id))

    @retried
    def set_problem(self, match_id: str, problem: str, revision: int | None = None) -> None:
        """Store why the match's computer players stopped (a change: it counts in the revision,
        so that every server process shows it); StaleWrite when not at `revision`."""
        with Session(self.engine) as session, session.begin():
            _advance(session, match_id, *_known(revision), problem=problem)

    def seat(self, token: str) -> Seat | None:
        """The seat a token opens, or None."""
        with Session(self.engine) as session:
            row = session.get(SeatRow, token_digest(token))
            return None if row is None else Seat(row.match_id, row.side, row.player)

    def seats(self, match_id: str) -> list[Seat]:
        """Every seat of a match (without tokens)."""
        with Session(self.engine) as session:
            rows = session.scalars(select(SeatRow).where(SeatRow.match_id == match_id)).all()
            return [Seat(r.match_id, r.side, r.player) for r in rows]

    def summary(self, match_id: str) -> MatchSummary | None:
        with Session(self.engine) as session:
            row = session.get(MatchRow, match_id)
            if row is None:
                return None
            return MatchSummary(row.id, row.game, row.ply, row.current, row.finished, row.updated)

    def waiting_on_agents(self) -> list[str]:
        """Unfinished matches whose next decision is a computer player's (resumed at start)."""
        with Session(self.engine) as session:
            rows = session.execute(
                select(MatchRow.id, MatchRow.header, MatchRow.current).where(
                    MatchRow.finished.is_(False), MatchRow.current.is_not(None)
                )
            ).all()
        found = []
        for match_id, header, current in rows:
            try:
                players = json.loads(header).get("players") or {}
            except ValueError:
                continue
            if players.get(current, "human") != "human":
                found.append(match_id)
        return found

    def record(self, match_id: str) -> GameRecord | None:
        """The match's whole record, as stored."""
        with Session(self.engine) as session:
            row = session.get(MatchRow, match_id)
            if row is None:
                return None
            header = row.header
            rows = session.execute(
                select(EntryRow.line, EntryRow.seen).where(EntryRow.match_id == match_id).order_by(EntryRow.ply)
            ).all()
        record = GameRecord.loads("\n".join([header, *(line for line, _ in rows)]), f"match {match_id}")
        for entry, (_, seen) in zip(record.entries, rows, strict=True):
            entry.seen = json.loads(seen) if seen else None
        return record


BATCH_LIMIT = 500  # actions written in one transaction at most


class GroupCommit:
    """The appends of concurrent requests written together by one writer (group commit): while
    a batch is written, the appends that arrive wait and go into the next, one transaction and
    one sync to disk for all of them. Each request waits for the commit of the batch that
    holds its action (it is acknowledged only once stored) and fails alone when its own action
    cannot be stored. Writers never wait on each other for the database's lock."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.batches = 0  # transactions written, for the load benchmark and the tests
        self._waiting: list[tuple[Append, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="henderson-writer")

    async def append(self, item: Append) -> None:
        """Store one action; returns once the transaction holding it is committed, raises
        its StorageError when it cannot be stored."""
        loop = asyncio.get_running_loop()
        stored: asyncio.Future[None] = loop.create_future()
        self._waiting.append((item, stored))
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write())
        await stored

    async def _write(self) -> None:
        """Write what waits, batch after batch, until nothing does."""
        loop = asyncio.get_running_loop()
        while self._waiting:
            batch, self._waiting = self._waiting[:BATCH_LIMIT], self._waiting[BATCH_LIMIT:]
            items = [item for item, _ in batch]
            try:
                results: list[BaseException | None] = list(
                    await loop.run_in_executor(self._thread, self.store.append_many, items)
                )
            except asyncio.CancelledError:
                for _, stored in batch + self._waiting:
                    stored.cancel()
                self._waiting = []
                raise
            except Exception as exc:  # the database failed: every request of the batch fails
                results = [exc] * len(batch)
            self.batches += 1
            for (_, stored), result in zip(batch, results, strict=True):
                if stored.done():  # its request went away; the action is stored all the same
                    continue
                if result is None:
                    stored.set_result(None)
                else:
                    stored.set_exception(result)

    def close(self) -> None:
        self._thread.shutdown(wait=True)
