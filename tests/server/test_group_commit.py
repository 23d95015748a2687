"""Group commit: the actions of concurrent requests are written together, each request
acknowledged only once the transaction holding its action is committed, and an action that
cannot be stored fails alone."""

from __future__ import annotations

import asyncio
import secrets
import time
from pathlib import Path

import pytest

from henderson.core.record import GameRecord, RecordEntry
from henderson.server.storage import CHECKPOINT_SECONDS, Append, GroupCommit, StorageError, Store


def hold(match_id: str, ply: int) -> Append:
    return Append(match_id, RecordEntry(ply, "red", "hold", [], []), "blue", False)


def stored(db_url: str, count: int) -> tuple[Store, list[str]]:
    """A store holding `count` new matches (names of their own: a PostgreSQL test database
    is shared by the tests of a run)."""
    store = Store(db_url)
    match_ids = [f"g{secrets.token_hex(6)}" for _ in range(count)]
    for match_id in match_ids:
        store.create_match(match_id, GameRecord(game="toy", data_version="x"), {}, "red", False)
    return store, match_ids


def plies(store: Store, match_id: str) -> list[int]:
    record = store.record(match_id)
    assert record is not None
    return [entry.ply for entry in record.entries]


def test_appends_to_different_matches_in_one_batch_are_all_stored(db_url: str) -> None:
    store, (m1, m2) = stored(db_url, 2)
    assert store.append_many([hold(m1, 0), hold(m2, 0), hold(m1, 1)]) == [None, None, None]
    assert plies(store, m1) == [0, 1] and plies(store, m2) == [0]
    summary = store.summary(m1)
    assert summary is not None and summary.ply == 2 and summary.current == "blue"
    assert store.revision(m1) == 2 and store.revision(m2) == 1
    store.close()


def test_a_duplicate_ply_in_a_batch_fails_alone(db_url: str) -> None:
    store, (m1, m2) = stored(db_url, 2)
    store.append(m2, hold(m2, 0).entry, "blue", False)
    results = store.append_many([hold(m1, 0), hold(m2, 0), hold(m1, 0), hold(m2, 1)])
    assert results[0] is None and results[3] is None
    assert isinstance(results[1], StorageError) and "already stored" in str(results[1])
    assert isinstance(results[2], StorageError)
    assert plies(store, m1) == [0] and plies(store, m2) == [0, 1]
    store.close()


def test_an_append_to_a_match_not_stored_fails_alone(db_url: str) -> None:
    store, (m1,) = stored(db_url, 1)
    results = store.append_many([hold("nowhere", 0), hold(m1, 0)])
    assert isinstance(results[0], StorageError) and "not stored" in str(results[0])
    assert results[1] is None and plies(store, m1) == [0]
    assert store.record("nowhere") is None
    store.close()


def test_the_single_append_still_refuses_a_second_write_of_a_ply(db_url: str) -> None:
    store, (m1,) = stored(db_url, 1)
    store.append(m1, hold(m1, 0).entry, "blue", False)
    with pytest.raises(StorageError, match="action 0 is already stored"):
        store.append(m1, hold(m1, 0).entry, "blue", False)
    store.close()


def test_concurrent_requests_share_a_commit_and_each_waits_for_its_own(db_url: str) -> None:
    store, ids = stored(db_url, 6)
    commits = GroupCommit(store)
    acknowledged: list[str] = []

    async def request(item: Append) -> None:
        await commits.append(item)
        # nothing is acknowledged that is not stored: the action is in the database already
        assert item.entry.ply in plies(store, item.match_id)
        acknowledged.append(item.match_id)

    async def main() -> list[BaseException | None]:
        first = asyncio.ensure_future(request(hold(ids[0], 0)))
        await asyncio.sleep(0)  # the writer takes the first action alone; the rest wait for it
        rest = [request(hold(match_id, 0)) for match_id in ids[1:]]
        rest.append(request(hold(ids[3], 0)))  # a duplicate among them
        return list(await asyncio.gather(first, *rest, return_exceptions=True))

    results = asyncio.run(main())
    assert [r for r in results[:6] if r is not None] == []
    assert isinstance(results[6], StorageError)
    assert sorted(acknowledged) == sorted(ids)
    assert commits.batches == 2  # the first action alone, then the six that waited for it, together
    assert all(plies(store, match_id) == [0] for match_id in ids)
    commits.close()
    store.close()


def test_a_failing_database_fails_every_request_of_the_batch(db_url: str) -> None:
    store, (m1,) = stored(db_url, 1)
    commits = GroupCommit(store)

    def broken(appends: object) -> list[StorageError | None]:
        raise RuntimeError("the disk is gone")

    store.append_many = broken  # type: ignore[method-assign]

    async def main() -> list[BaseException | None]:
        return list(await asyncio.gather(commits.append(hold(m1, 0)), return_exceptions=True))

    assert [type(r) for r in asyncio.run(main())] == [RuntimeError]
    commits.close()
    store.close()


def test_the_write_ahead_log_is_copied_back_off_the_write_path(tmp_path: Path) -> None:
    """Commits never checkpoint (`wal_autocheckpoint=0`: a checkpoint inside a commit would
    hold up its whole group); the store's own `Checkpointer` thread copies the log into the
    database file instead, so the file grows while nothing but appends are made."""
    db = tmp_path / "games.sqlite"
    store = Store(f"sqlite:///{db}")
    try:
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
        match_id = secrets.token_hex(8)
        store.create_match(match_id, GameRecord(game="toy", data_version="x"), {}, "red", False)
        time.sleep(2 * CHECKPOINT_SECONDS)
        before = db.stat().st_size
        for ply in range(300):
            entry = RecordEntry(ply, "red", "hold " + "x" * 2000, [], [])
            store.append(match_id, entry, "red", False)
        for _ in range(300):  # a bounded wait (30 s) for the thread's next round, not a measure of speed
            if db.stat().st_size > before + 300 * 2000:
                break
            time.sleep(0.1)
        assert db.stat().st_size > before + 300 * 2000, "the log was not copied into the database"
    finally:
        store.close()
