"""The registry of games: `henderson.games.get("firstblood")` returns rules plus data.

Each game package exposes `TITLE` and `load_game(data_dir=None) -> Game`.
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from pathlib import Path
from typing import Any

from henderson.core.errors import UnknownGame

REGISTRY: dict[str, str] = {
    "firstblood": "henderson.games.firstblood",
    "deluxe": "henderson.games.deluxe",
    "aag": "henderson.games.aag",
}


def _module(name: str) -> Any:
    if name not in REGISTRY:
        known = ", ".join(REGISTRY)
        raise UnknownGame(f"unknown game {name!r} (known: {known})")
    try:
        return importlib.import_module(REGISTRY[name])
    except ModuleNotFoundError as exc:
        if exc.name and REGISTRY[name].startswith(exc.name):
            raise UnknownGame(f"game {name!r} is not available in this version") from None
        raise


def register(name: str, module: str) -> None:
    """Add a game module to the registry (plug-ins, and test games)."""
    REGISTRY[name] = module
    _load.cache_clear()


def names() -> list[str]:
    """Names of the games this installation can play."""
    found = []
    for name in REGISTRY:
        try:
            _module(name)
        except UnknownGame:
            continue
        found.append(name)
    return found


def title(name: str) -> str:
    return str(_module(name).TITLE)


@lru_cache(maxsize=16)
def _load(name: str, data_dir: str | None) -> Any:
    return _module(name).load_game(Path(data_dir) if data_dir else None)


def get(name: str, data_dir: str | Path | None = None) -> Any:
    """The game `name`, with its shipped data or the data in `data_dir`."""
    return _load(name, str(data_dir) if data_dir else None)
