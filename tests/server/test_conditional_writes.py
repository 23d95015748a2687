"""Writes conditional on what the writer knew (issue 18): a write on a match another writer
changed first fails with StaleWrite and writes nothing, so two server processes on one
database never fork a game; why a match's computer players stopped is stored."""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from henderson.core.record import GameRecord, RecordEntry
from henderson.server.storage import InviteRow, StaleWrite, Store


@dataclass
class Stored:
    """A store holding one new match with an invite for blue (fresh ids for each test: the
    PostgreSQL schema is shared by the session)."""

    store: Store
    m1: str
    code: str


@pytest.fixture
def stored(db_url: str) -> Iterator[Stored]:
    store = Store(db_url)
    m1, code = secrets.token_hex(8), secrets.token_urlsafe(12)
    store.create_match(m1, GameRecord(game="toy", data_version="x"), {}, "red", False, invites={code: "blue"})
    yield Stored(store, m1, code)
    store.close()


def hold(ply: int) -> RecordEntry:
    return RecordEntry(ply, "red" if ply % 2 == 0 else "blue", "hold", [], [])


def actions(stored: Stored) -> list[int]:
    record = stored.store.record(stored.m1)
    assert record is not None
    return [e.ply for e in record.entries]


def test_an_action_written_on_an_older_revision_is_refused(stored: Stored) -> None:
    s, m1 = stored.store, stored.m1
    s.append(m1, hold(0), "blue", False, revision=0)
    with pytest.raises(StaleWrite):
        s.append(m1, hold(1), "red", False, revision=0)  # the writer missed action 0's revision
    assert actions(stored) == [0] and s.revision(m1) == 1
    s.append(m1, hold(1), "red", False, revision=1)
    assert actions(stored) == [0, 1] and s.revision(m1) == 2


def test_the_same_action_written_twice_is_stored_once(stored: Stored) -> None:
    s, m1 = stored.store, stored.m1
    s.append(m1, hold(0), "blue", False)
    with pytest.raises(StaleWrite):
        s.append(m1, hold(0), "blue", False)
    assert actions(stored) == [0]


def test_an_action_after_an_undo_it_did_not_see_is_refused(stored: Stored) -> None:
    s, m1 = stored.store, stored.m1
    for ply in range(2):
        s.append(m1, hold(ply), None, False, revision=ply)
    s.take_back(m1, 1, "blue", revision=2)  # one process takes action 1 back
    with pytest.raises(StaleWrite):  # another, which saw action 1, writes action 2: it would fork the game
        s.append(m1, hold(2), None, False)
    assert actions(stored) == [0]
    with pytest.raises(StaleWrite):  # and an undo of a match that moved on is refused too
        s.take_back(m1, 0, "red", revision=2)
    assert actions(stored) == [0]


def test_a_claim_on_an_older_revision_leaves_the_invite_unused(stored: Stored) -> None:
    s, m1, code = stored.store, stored.m1, stored.code
    s.append(m1, hold(0), "blue", False, revision=0)
    with pytest.raises(StaleWrite):
        s.claim(code, "token", None, revision=0)
    assert s.unclaimed(m1) == ["blue"] and s.seat("token") is None
    s.claim(code, "token", None, revision=1)
    assert s.unclaimed(m1) == [] and s.seat("token") is not None
    with Session(s.engine) as session:
        assert session.scalars(select(InviteRow.claimed).where(InviteRow.match_id == m1)).all() == [True]


def test_why_the_computer_players_stopped_is_stored_as_a_change(stored: Stored) -> None:
    s, m1 = stored.store, stored.m1
    assert s.problem(m1) is None
    s.set_problem(m1, "the random player of red failed", revision=0)
    assert s.problem(m1) == "the random player of red failed" and s.revision(m1) == 1
    with pytest.raises(StaleWrite):
        s.set_problem(m1, "again", revision=0)
    assert s.revisions([m1, "nothing"]) == {m1: 1}


def test_a_database_without_the_problem_column_gets_it(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    Store(f"sqlite:///{path}").close()
    with sqlite3.connect(path) as db:
        db.execute("alter table matches drop column problem")
    found = Store(f"sqlite:///{path}")
    found.create_match("m1", GameRecord(game="toy", data_version="x"), {}, "red", False)
    found.set_problem("m1", "stopped")
    assert found.problem("m1") == "stopped"
    found.close()


def test_the_quick_revision_read_sees_every_writer(stored: Stored, db_url: str) -> None:
    """`quick_revision` (the read before every action and state answer) gives what `revision`
    gives, a change written by another store on the same database included; it answers None
    where a read of its own could not see the same database (PostgreSQL reads in a thread)."""
    s, m1 = stored.store, stored.m1
    quick = s.quick_revision(m1)
    if not db_url.startswith("sqlite") and "://" in db_url:
        assert quick is None
        return
    other = Store(db_url)  # another server process on the same file
    try:
        assert quick == s.revision(m1) == 0
        other.append(m1, hold(0), "blue", False, revision=0)
        assert s.quick_revision(m1) == s.revision(m1) == 1
        s.append(m1, hold(1), "red", False, revision=1)
        other.take_back(m1, 1, "red", revision=2)
        assert s.quick_revision(m1) == other.revision(m1) == 3
        assert s.quick_revision("no-such-match") == 0
    finally:
        other.close()
    assert Store("sqlite:///:memory:").quick_revision(m1) is None
