"""FIRST BLOOD – The Guadalcanal Campaign (FB): data, rules engine and game API."""

from __future__ import annotations

from pathlib import Path

from henderson.games.firstblood.game import TITLE, FirstBlood

__all__ = ["TITLE", "FirstBlood", "load_game"]


def load_game(data_dir: Path | None = None) -> FirstBlood:
    """FIRST BLOOD with its shipped data, or with the data in `data_dir` (validated)."""
    from henderson.games.firstblood.data import load_data

    return FirstBlood(load_data(data_dir))
