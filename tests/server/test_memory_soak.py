"""Memory stays flat however many matches are made (issue 18): with a small cap on the live
matches, thousands are created, some old ones loaded again and played on, and the memory
Python holds (tracemalloc, after a collection) is sampled as it goes. After the warm-up its
growth must stay far below what the matches would cost if none left memory: the test fails
when eviction is turned off. `HENDERSON_MEMORY_SOAK=N` makes N matches (default 600)."""

from __future__ import annotations

import asyncio
import gc
import os
import tracemalloc
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from sqlalchemy import event

from henderson.server.matches import Hub
from henderson.server.storage import Seat, Store

MATCHES = int(os.environ.get("HENDERSON_MEMORY_SOAK", "600"))
SAMPLES = 6
MAX_LIVE = 16
# a live toy match costs some 3 KB; after the warm-up each new match may leave at most this
# much behind on average (what the database layer caches, a freed block not reused)
GROWTH_PER_MATCH = 400


def quick_commits(store: Store) -> None:
    """Commits not synced to disk: this test is about memory, not durability, and a synced
    commit per match would make it slow."""
    event.listen(store.engine, "connect", lambda connection, _: connection.execute("PRAGMA synchronous=OFF"))
    store.engine.dispose()


async def soak(hub: Hub, count: int) -> list[int]:
    """Make `count` matches; every eighth step, one made 32 matches before (long evicted) is
    loaded again and played. The traced memory after each tenth of the run."""
    recent: deque[str] = deque(maxlen=32)
    samples: list[int] = []
    for index in range(count):
        recent.append((await hub.create("toy", {}, None, hotseat=True))["match"])
        if index % 8 == 7 and len(recent) == recent.maxlen:
            await hub.act(Seat(recent[0], "red", "human"), "hold", 0)
        if (index + 1) % (count // SAMPLES) == 0:
            gc.collect()
            samples.append(tracemalloc.get_traced_memory()[0])
    return samples


def run_soak(tmp_path: Path, count: int) -> tuple[Hub, list[int]]:
    store = Store(f"sqlite:///{tmp_path / 'games.sqlite'}")
    quick_commits(store)
    pool = ThreadPoolExecutor(max_workers=1)
    hub = Hub(store, pool, max_live=MAX_LIVE)
    tracemalloc.start()
    try:
        samples = asyncio.run(soak(hub, count))
    finally:
        tracemalloc.stop()
        pool.shutdown()
        store.close()
    return hub, samples


def growth_after_warm_up(samples: list[int], count: int) -> float:
    """The memory added per match over the run's second half."""
    half = len(samples) // 2
    return (samples[-1] - samples[half - 1]) / (count * (len(samples) - half) / len(samples))


def test_memory_is_flat_over_many_matches(tmp_path: Path) -> None:
    hub, samples = run_soak(tmp_path, MATCHES)
    assert len(hub.live) <= MAX_LIVE and hub.evictions >= MATCHES - MAX_LIVE
    growth = growth_after_warm_up(samples, MATCHES)
    assert growth < GROWTH_PER_MATCH, f"{growth:.0f} bytes a match after the warm-up: {samples}"


def test_without_eviction_the_same_run_grows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The measure can fail: with no match ever leaving memory, it does."""
    monkeypatch.setattr(Hub, "_evict", lambda self, live: None)
    count = min(MATCHES, 300)
    _, samples = run_soak(tmp_path, count)
    assert growth_after_warm_up(samples, count) > GROWTH_PER_MATCH * 2

