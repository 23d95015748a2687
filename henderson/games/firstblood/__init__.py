"""FIRST BLOOD – The Guadalcanal Campaign (FB): data, rules engine and game API."""

from __future__ import annotations

from pathlib import Path

from henderson.games.firstblood.game import TITLE, FBGame

__all__ = ["TITLE", "FBGame", "load_game"]


def load_game(data_dir: Path | None = None) -> FBGame:
    """FIRST BLOOD with its shipped data, or with the data in `data_dir` (validated)."""
    from henderson.games.firstblood.data import load_data

    return FBGame(load_data(data_dir))
