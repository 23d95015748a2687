"""SQLite under load: write-ahead log and a busy timeout, so a write never fails for a lock
(`database is locked` used to become a 500 and the action was lost)."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

from henderson.core.record import GameRecord, RecordEntry
from henderson.server.storage import Store


def stored_match(path: Path) -> Store:
    store = Store(f"sqlite:///{path}")
    store.create_match("m1", GameRecord(game="toy", data_version="x"), {}, "red", False)
    return store


def test_the_database_is_in_wal_mode_with_a_busy_timeout(tmp_path: Path) -> None:
    store = stored_match(tmp_path / "games.sqlite")
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert int(conn.exec_driver_sql("PRAGMA busy_timeout").scalar() or 0) >= 10_000
    store.close()


def test_a_reader_holding_a_transaction_never_stops_a_write(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    store = stored_match(path)
    reader = sqlite3.connect(path, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM entries").fetchall()  # a read lock held open
    store.append("m1", RecordEntry(0, "red", "hold", [], []), "blue", False)
    # the write went through with the read lock still held (the old rollback journal failed it)
    reader.execute("COMMIT")
    reader.close()
    assert store.summary("m1") is not None and store.summary("m1").ply == 1  # type: ignore[union-attr]
    store.close()


def test_a_write_waits_for_another_writer_instead_of_failing(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    store = stored_match(path)
    writer = sqlite3.connect(path, isolation_level=None, timeout=30)
    writer.execute("BEGIN IMMEDIATE")  # the write lock, held for a while
    errors: list[BaseException] = []

    def append() -> None:
        try:
            store.append("m1", RecordEntry(0, "red", "hold", [], []), "blue", False)
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=append)
    thread.start()
    time.sleep(1.0)
    writer.execute("COMMIT")
    writer.close()
    thread.join(timeout=30)
    assert not errors and store.summary("m1").ply == 1  # type: ignore[union-attr]
    store.close()


def test_many_threads_append_at_once_without_a_lock_error(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    store = Store(f"sqlite:///{path}")
    for n in range(8):
        store.create_match(f"m{n}", GameRecord(game="toy", data_version="x"), {}, "red", False)
    errors: list[BaseException] = []

    def play(match_id: str) -> None:
        try:
            for ply in range(25):
                store.append(match_id, RecordEntry(ply, "red", "hold", [], []), "blue", False)
                store.record(match_id)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(f"m{n}",)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors[:1]
    assert all(store.summary(f"m{n}").ply == 25 for n in range(8))  # type: ignore[union-attr]
    store.close()


def test_the_writes_of_one_process_go_one_at_a_time(tmp_path: Path) -> None:
    """A write waits on the store's own lock, not in SQLite's busy timeout (which sleeps in
    steps of up to 100 ms): while another write holds it, it does not start."""
    store = stored_match(tmp_path / "games.sqlite")
    done = threading.Event()

    def append() -> None:
        store.append("m1", RecordEntry(0, "red", "hold", [], []), "blue", False)
        done.set()

    with store.writing:
        thread = threading.Thread(target=append)
        thread.start()
        assert not done.wait(0.3)  # held back while the lock is held
        assert store.summary("m1").ply == 0  # type: ignore[union-attr]
    thread.join(timeout=30)
    assert done.is_set() and store.summary("m1").ply == 1  # type: ignore[union-attr]
    store.close()
