"""Seeds derived from a run's seed and a game's place in it, so that every game is the same
whatever the number of worker processes or the order in which they finish."""

from __future__ import annotations

import hashlib

SEED_BITS = 63


def derive_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed from `seed` and any labels (game index, side, pairing), stable everywhere."""
    text = "|".join([str(int(seed)), *(str(p) for p in parts)])
    digest = hashlib.sha256(text.encode()).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)
