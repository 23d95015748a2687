"""`henderson serve` freezes what it built at start-up out of the garbage collector's sight
(a full collection stops every request while it runs); objects made later are still
collected."""

from __future__ import annotations

import gc
import weakref

import pytest

from henderson.server import run


class Node:
    """Something that can be part of a reference cycle."""

    def __init__(self) -> None:
        self.other: Node | None = None


@pytest.fixture
def frozen():  # type: ignore[no-untyped-def]
    run.freeze_startup_objects()
    yield
    gc.unfreeze()


def test_start_up_objects_are_frozen_and_later_cycles_still_collected(frozen: None) -> None:
    assert gc.get_freeze_count() > 10_000  # the code and every game's data
    a, b = Node(), Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    del a, b
    gc.collect()
    assert gone() is None


def test_serve_freezes_before_it_serves(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    monkeypatch.setattr(run, "freeze_startup_objects", lambda: calls.append("freeze"))
    monkeypatch.setattr(run.uvicorn, "run", lambda *args, **kwargs: calls.append("serve"))
    run.serve(db_url="sqlite:///:memory:")
    assert calls == ["freeze", "serve"]

