"""One injectable source of randomness: seeded (play, simulation), scripted (tests and
replays), external, and the dice nobody controls or foresees: a server's secret dice with
the players' contributions (`SecretDice`) and play-by-e-mail dice from both players'
values (`KeyedDice`), both derived with SHA-256 and checkable once the secrets are
revealed. Every roll names its purpose."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass
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


def never_fail(dice: Dice) -> bool:
    """Whether `dice` answers every roll: seeded or keyed dice, never a script that may run
    dry, a source that may refuse or another that is asked (`State.apply` relies on it)."""
    return type(dice) in (SeededDice, KeyedDice)


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


SEED_LIMIT = 1 << 64  # a stored seed or generator state is a 64-bit number
MAX_FACES = 6  # a die of every game; a game with a larger draw (a card) says so (`Game.die_faces`)
MAX_SCRIPTED = 100_000  # scripted dice a position may list


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def dice_from_json(obj: Any, faces: int = MAX_FACES) -> Dice | None:
    """Rebuild a stored dice source; None when the position stores none. ValueError names what
    is wrong: a seed or state outside 0..2**64-1, a scripted die outside 1..`faces`."""
    if obj is None:
        return None
    if not isinstance(obj, dict):
        raise ValueError("dice must be an object")
    kind = obj.get("kind")
    if kind == "seeded":
        unknown = sorted(set(obj) - {"kind", "seed", "state"})
        if unknown:
            raise ValueError(f"seeded dice have no field {unknown[0]!r}")
        seed: Any = obj.get("seed")
        state: Any = obj.get("state")
        if not _is_int(seed) or not 0 <= seed < SEED_LIMIT:
            raise ValueError("seeded dice need an integer seed 0..2**64-1")
        if state is not None and (not _is_int(state) or not 0 <= state < SEED_LIMIT):
            raise ValueError("seeded dice need an integer state 0..2**64-1 (or none)")
        return SeededDice(seed, state)
    if kind == "scripted":
        unknown = sorted(set(obj) - {"kind", "values"})
        if unknown:
            raise ValueError(f"scripted dice have no field {unknown[0]!r}")
        values = obj.get("values")
        if not isinstance(values, list) or len(values) > MAX_SCRIPTED:
            raise ValueError(f"scripted dice need a list of at most {MAX_SCRIPTED} values")
        for i, v in enumerate(values):
            if not _is_int(v) or not 1 <= v <= faces:
                raise ValueError(f"scripted die {i + 1} must be an integer 1..{faces}, got {v!r}"[:120])
        return ScriptedDice(values)
    raise ValueError(f"unknown dice kind {kind!r} (expected 'seeded' or 'scripted')"[:120])


# -- dice nobody controls or foresees: commit and reveal ----------------------------------------

SECRET_BYTES = 32  # a server's or a player's secret: 256 random bits
MIN_CONTRIBUTION = 32  # hex digits of a contribution (128 bits at least)
MAX_CONTRIBUTION = 128
_HEX = frozenset("0123456789abcdef")


def fresh_secret() -> str:
    """A new secret for commit–reveal dice: 256 random bits as 64 hex digits."""
    return secrets.token_hex(SECRET_BYTES)


def commitment(value: str) -> str:
    """The published commitment to a secret value: the SHA-256 of its text, in hex. The value
    cannot be found from it, nor another value with the same commitment."""
    return hashlib.sha256(value.encode("utf-8")).hexdigest()


def check_random_value(value: Any, what: str) -> str:
    """A secret or contribution as given: 32 to 128 lower-case hex digits (128 to 512 bits)."""
    if (
        not isinstance(value, str)
        or not MIN_CONTRIBUTION <= len(value) <= MAX_CONTRIBUTION
        or not set(value) <= _HEX
    ):
        raise HendersonError(
            f"{what} must be {MIN_CONTRIBUTION} to {MAX_CONTRIBUTION} lower-case hex digits (random bits)"
        )
    return value


def die_from(key: bytes, index: int, sides: int) -> int:
    """Die number `index` of the stream keyed by `key`: SHA-256(key, index, attempt), the
    first 8 bytes as a number, rejection sampling so that every face is equally likely.
    Without the key nobody can tell a die before it is rolled; with it anyone can check."""
    limit = (1 << 64) - ((1 << 64) % sides)
    attempt = 0
    while True:
        digest = hashlib.sha256(key + index.to_bytes(8, "big") + attempt.to_bytes(4, "big")).digest()
        z = int.from_bytes(digest[:8], "big")
        if z < limit:
            return z % sides + 1
        attempt += 1


def stream_key(*parts: str) -> bytes:
    """The key of a dice stream from its parts (a domain name, secrets, contributions): the
    SHA-256 of the parts, each followed by a newline."""
    return hashlib.sha256("".join(f"{p}\n" for p in parts).encode("utf-8")).digest()


class KeyedDice:
    """Dice of one key (`die_from`), numbered from 0: a play-by-e-mail action's dice, from
    both players' values. Never stored in a position (the key predicts every die)."""

    __slots__ = ("index", "key")

    def __init__(self, key: bytes, index: int = 0) -> None:
        self.key = key
        self.index = index

    def roll(self, purpose: str, sides: int = 6) -> int:
        value = die_from(self.key, self.index, sides)
        self.index += 1
        return value

    def clone(self) -> KeyedDice:
        return KeyedDice(self.key, self.index)

    def to_json(self) -> None:
        return None

    def __repr__(self) -> str:
        return f"KeyedDice(index={self.index})"


@dataclass(frozen=True)
class Contribution:
    """A player's random value mixed into a match's dice from die number `roll` on."""

    side: str | None
    value: str
    roll: int

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "value": self.value, "roll": self.roll}

    @classmethod
    def from_json(cls, obj: Any) -> Contribution:
        if not isinstance(obj, dict):
            raise ValueError("a contribution is an object {side, value, roll}")
        side, value, roll = obj.get("side"), obj.get("value"), obj.get("roll")
        if side is not None and not isinstance(side, str):
            raise ValueError("a contribution's side is text")
        if not isinstance(roll, int) or isinstance(roll, bool) or roll < 0:
            raise ValueError("a contribution's roll is a die number (0 or more)")
        try:
            check_random_value(value, "a contribution's value")
        except HendersonError as exc:
            raise ValueError(str(exc)) from None
        return cls(side, str(value), roll)


SECRET_DOMAIN = "henderson secret dice 1"


class SecretDice:
    """A match's dice on a server (commit–reveal): die n comes from the server's secret and
    every contribution that arrived before it (`Contribution.roll` <= n), so that nobody who
    lacks the secret can foresee a die, and nobody who sent a contribution unknown to the
    others can choose one. Once the secret is revealed anyone can check every die
    (`henderson verify`). Never stored in a position: `to_json` is None."""

    __slots__ = ("contributions", "index", "keys", "secret")

    def __init__(self, secret: str, contributions: Iterable[Contribution] = (), index: int = 0) -> None:
        self.secret = secret
        self.contributions: list[Contribution] = []
        self.keys: list[tuple[int, bytes]] = [(0, stream_key(SECRET_DOMAIN, secret))]
        self.index = index
        for c in contributions:
            self.contribute(c)

    def contribute(self, contribution: Contribution) -> None:
        """Mix in a contribution from its die on (never before the dice already rolled)."""
        if self.contributions and contribution.roll < self.contributions[-1].roll:
            raise HendersonError("contributions must come in the order of the dice")
        self.contributions.append(contribution)
        values = [c.value for c in self.contributions]
        self.keys.append((contribution.roll, stream_key(SECRET_DOMAIN, self.secret, *values)))

    def key_at(self, index: int) -> bytes:
        """The key of die number `index`: the last one keyed at or before it."""
        found = self.keys[0][1]
        for start, key in self.keys:
            if start <= index:
                found = key
        return found

    def roll(self, purpose: str, sides: int = 6) -> int:
        value = die_from(self.key_at(self.index), self.index, sides)
        self.index += 1
        return value

    def clone(self) -> SecretDice:
        other = SecretDice.__new__(SecretDice)
        other.secret = self.secret
        other.contributions = list(self.contributions)
        other.keys = list(self.keys)
        other.index = self.index
        return other

    def to_json(self) -> None:
        return None

    def __repr__(self) -> str:  # never the secret
        return f"SecretDice(index={self.index}, contributions={len(self.contributions)})"


class RecordedDice:
    """Another dice source, every value it gives noted in `drawn` (in order), so that a record
    can list every die of an action, announced in an event or not."""

    __slots__ = ("drawn", "inner")

    def __init__(self, inner: Dice, drawn: list[int] | None = None) -> None:
        self.inner = inner
        self.drawn: list[int] = [] if drawn is None else drawn

    def roll(self, purpose: str, sides: int = 6) -> int:
        value = self.inner.roll(purpose, sides)
        self.drawn.append(value)
        return value

    def take(self) -> list[int]:
        """The values drawn since the last `take`, forgotten here."""
        values, self.drawn = self.drawn, []
        return values

    def clone(self) -> RecordedDice:
        return RecordedDice(self.inner.clone(), list(self.drawn))

    def to_json(self) -> dict[str, Any] | None:
        return self.inner.to_json()

    def __repr__(self) -> str:
        return f"RecordedDice({self.inner!r})"
