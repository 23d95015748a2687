"""One injectable source of randomness: seeded (play, simulation), scripted (tests),
external (a server that rolls for both players). Every roll names its purpose."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from henderson.core.errors import HendersonError

_MASK = (1 << 64) - 1
SEED_BITS = 63  # seeds are non-negative integers below 2**63


def fresh_seed() -> int:
    """A new secret seed: the one seeding rule of every game (no seed given → a fresh one,
    recorded in the state so that the game can be replayed)."""
    return secrets.randbits(SEED_BITS)


class DiceExhausted(HendersonError):
    """A scripted dice source ran out of values."""


class Dice(Protocol):
    """What the rules ask of any dice source."""

    def roll(self, purpose: str, sides: int = 6) -> int:
        """A uniform value in 1..sides; `purpose` says why (shown, logged, recorded)."""
        ...

    def clone(self) -> Dice: ...

    def to_json(self) -> dict[str, Any] | None:
        """State to store in a position, or None when the source cannot be stored."""
        ...


class SeededDice:
    """Reproducible dice: SplitMix64 over a single integer state (cheap to clone and store)."""

    __slots__ = ("seed", "state")

    def __init__(self, seed: int, state: int | None = None) -> None:
        self.seed = int(seed)
        self.state = (self.seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK if state is None else state

    def _next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def roll(self, purpose: str, sides: int = 6) -> int:
        # rejection sampling keeps every face exactly equally likely
        limit = (1 << 64) - ((1 << 64) % sides)
        while True:
            z = self._next()
            if z < limit:
                return z % sides + 1

    def clone(self) -> SeededDice:
        return SeededDice(self.seed, self.state)

    def to_json(self) -> dict[str, Any]:
        return {"kind": "seeded", "seed": self.seed, "state": self.state}

    def __repr__(self) -> str:
        return f"SeededDice(seed={self.seed})"


class ScriptedDice:
    """Dice that return given values in order: for tests and for replaying records."""

    __slots__ = ("position", "values")

    def __init__(self, values: Iterable[int]) -> None:
        self.values = list(values)
        self.position = 0

    def roll(self, purpose: str, sides: int = 6) -> int:
        if self.position >= len(self.values):
            raise DiceExhausted(f"no scripted die left for {purpose}")
        value = self.values[self.position]
        if not 1 <= value <= sides:
            raise DiceExhausted(f"scripted die {value} is not a d{sides} value ({purpose})")
        self.position += 1
        return value

    def clone(self) -> ScriptedDice:
        copy = ScriptedDice(self.values)
        copy.position = self.position
        return copy

    def to_json(self) -> dict[str, Any]:
        return {"kind": "scripted", "values": self.values[self.position :]}


class ExternalDice:
    """Dice supplied from outside (a server's generator): a callable (purpose, sides) -> value."""

    __slots__ = ("source",)

    def __init__(self, source: Callable[[str, int], int]) -> None:
        self.source = source

    def roll(self, purpose: str, sides: int = 6) -> int:
        value = int(self.source(purpose, sides))
        if not 1 <= value <= sides:
            raise ValueError(f"external die gave {value} for a d{sides}")
        return value

    def clone(self) -> ExternalDice:
        return ExternalDice(self.source)

    def to_json(self) -> None:
        return None


def dice_from_json(obj: Any) -> Dice | None:
    """Rebuild a stored dice source; None when the position stores none."""
    if obj is None:
        return None
    if not isinstance(obj, dict):
        raise ValueError("dice must be an object")
    kind = obj.get("kind")
    if kind == "seeded":
        seed = obj.get("seed")
        state = obj.get("state")
        if not isinstance(seed, int) or not (state is None or isinstance(state, int)):
            raise ValueError("seeded dice need an integer seed (and optional integer state)")
        return SeededDice(seed, state)
    if kind == "scripted":
        values = obj.get("values")
        if not isinstance(values, list) or not all(isinstance(v, int) for v in values):
            raise ValueError("scripted dice need a list of integer values")
        return ScriptedDice(values)
    raise ValueError(f"unknown dice kind {kind!r} (expected 'seeded' or 'scripted')")
