"""Axis & Allies: Guadalcanal (AAG): an area-movement game of islands and sea zones, the
battle box, airfields and victory points. `load_game()` returns the rules with the data."""

from __future__ import annotations

from pathlib import Path

from henderson.games.aag.data import load_data
from henderson.games.aag.game import TITLE, AAGGame

__all__ = ["TITLE", "AAGGame", "load_game"]


def load_game(data_dir: Path | None = None) -> AAGGame:
    """The AAG rules with the shipped data, or with the data in `data_dir`."""
    return AAGGame(load_data(data_dir))
