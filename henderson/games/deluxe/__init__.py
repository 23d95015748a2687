"""Deluxe Guadalcanal – The Battle for Henderson Field (Mike Nagel, 2021): data and rules."""

from __future__ import annotations

from .game import TITLE, DGGame, load_game

__all__ = ["TITLE", "DGGame", "load_game"]
