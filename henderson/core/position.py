"""The position codec every game shares: the header of a position file and a reader that
names the field that is wrong.

A position is a JSON object: `format`, `game`, `version`, `data_version` (the content hash
of the data it was written for), then the game's own fields. `Reader` gives typed access
to an object with range and choice checks, and refuses fields nobody read: a position can
hold nothing the engine would silently ignore.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from typing import Any, NoReturn

from henderson.core.dice import MAX_FACES, Dice, SeededDice, dice_from_json, fresh_seed
from henderson.core.errors import PositionError

FORMAT = "henderson-position"
HEADER = ("format", "game", "version", "data_version")
MAX_INT = 10**9  # no count, strength or turn of any game comes near it


def header(game: str, version: int, data_version: str) -> dict[str, Any]:
    """The first fields of every position file."""
    return {"format": FORMAT, "game": game, "version": version, "data_version": data_version}


def check_header(obj: Any, game: str, version: int, data_version: str) -> None:
    """A position's header must name this format, this game and version, and the data it
    was written for (when it names any: a hand-written position may leave it out)."""
    if not isinstance(obj, Mapping):
        raise PositionError("", "a position is a JSON object")
    if obj.get("format") != FORMAT:
        raise PositionError("format", f"must be {FORMAT!r}, got {obj.get('format')!r}")
    if obj.get("game") != game:
        raise PositionError("game", f"this is a {obj.get('game')!r} position, not {game!r}")
    if obj.get("version") != version or isinstance(obj.get("version"), bool):
        raise PositionError("version", f"unsupported version {obj.get('version')!r} (this program reads {version})")
    check_data_version(obj.get("data_version"), data_version, "data_version")


def check_data_version(written: Any, installed: str, where: str) -> None:
    """Refuse something written for other data than this installation's (the same unit
    ids and hexes would mean other counters and terrain)."""
    if written is None:
        return
    if not isinstance(written, str):
        raise PositionError(where, f"expected text, got {written!r}")
    if written != installed:
        raise PositionError(
            where,
            f"written for game data {written!r}, but this installation has {installed!r} "
            "(load it with the data it was written for: henderson.games.get(name, data_dir))",
        )


def read_dice(obj: Mapping[str, Any], given: Dice | None, faces: int = MAX_FACES) -> Dice:
    """The dice a loaded position rolls with: those given, else the ones stored in it, else
    fresh secret dice (a position without dice never rolls the same dice every time). Stored
    scripted dice must lie in 1..`faces` (the game's largest die)."""
    try:
        stored = dice_from_json(obj.get("dice"), faces)
    except ValueError as exc:
        raise PositionError("dice", str(exc)) from None
    return given or stored or SeededDice(fresh_seed())


_MISSING: Any = object()


class Reader:
    """Typed access to one JSON object of a position: every error names the field by its
    path (`units.1/5.strength`), every number is range-checked, and `done()` refuses the
    fields that were never read (unknown fields are errors, not silently ignored)."""

    def __init__(self, obj: Any, path: str = "") -> None:
        if not isinstance(obj, Mapping):
            self.path = path
            self.fail("", f"expected an object, got {_show(obj)}")
        self.obj: Mapping[str, Any] = obj
        self.path = path
        self.read: set[str] = set()

    # -- errors ---------------------------------------------------------------------------

    def where(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path and key else (self.path or key)

    def fail(self, key: str, message: str) -> NoReturn:
        raise PositionError(self.where(key), message)

    # -- fields ---------------------------------------------------------------------------

    def has(self, key: str) -> bool:
        return key in self.obj

    def present(self, key: str, default: Any = _MISSING) -> bool:
        """Whether the field is written (marked read); a missing field without default fails."""
        self.read.add(key)
        if key in self.obj:
            return True
        if default is _MISSING:
            self.fail(key, "missing")
        return False

    def raw(self, key: str, default: Any = _MISSING) -> Any:
        """The value as written, or `default` when it is not."""
        return self.obj[key] if self.present(key, default) else default

    def integer(self, key: str, lo: int = 0, hi: int = MAX_INT, default: Any = _MISSING) -> Any:
        if not self.present(key, default):
            return default
        value = self.obj[key]
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            self.fail(key, f"expected an integer {lo}..{hi}, got {_show(value)}")
        return value

    def flag(self, key: str, default: Any = _MISSING) -> Any:
        if not self.present(key, default):
            return default
        value = self.obj[key]
        if not isinstance(value, bool):
            self.fail(key, f"expected true or false, got {_show(value)}")
        return value

    def text(self, key: str, choices: Collection[str] | None = None, default: Any = _MISSING) -> Any:
        if not self.present(key, default):
            return default
        value = self.obj[key]
        if not isinstance(value, str):
            self.fail(key, f"expected text, got {_show(value)}")
        if choices is not None and value not in choices:
            self.fail(key, f"{value!r} is not one of {_choices(choices)}")
        return value

    def texts(self, key: str, choices: Collection[str] | None = None, default: Any = ()) -> list[str]:
        """A list of texts (each one of `choices` when given); missing: `default`."""
        values = self.raw(key, list(default))
        if not isinstance(values, list):
            self.fail(key, f"expected a list of texts, got {_show(values)}")
        for i, v in enumerate(values):
            if not isinstance(v, str):
                self.fail(f"{key}[{i}]" if key else f"[{i}]", f"expected text, got {_show(v)}")
            if choices is not None and v not in choices:
                self.fail(f"{key}[{i}]", f"{v!r} is not one of {_choices(choices)}")
        return list(values)

    def array(self, key: str, default: Any = ()) -> list[Any]:
        values = self.raw(key, list(default))
        if not isinstance(values, list):
            self.fail(key, f"expected a list, got {_show(values)}")
        return list(values)

    def nested(self, key: str, default: Any = _MISSING) -> Reader:
        """A nested object, read by its own Reader (missing: an empty object when allowed)."""
        value = self.raw(key, {} if default is _MISSING else default)
        if value is None:
            value = {}
        return Reader(value, self.where(key))

    def items(self, key: str) -> Iterator[tuple[str, Reader]]:
        """Each key of a nested object with a Reader of its value (which must be an object)."""
        nested = self.nested(key)
        for name in nested.obj:
            nested.read.add(name)
            yield name, Reader(nested.obj[name], nested.where(name))

    def mapping(self, key: str, default: Any = None) -> dict[str, Any]:
        """A nested object as a plain dict (its keys are the caller's to check)."""
        value = self.raw(key, {} if default is None else default)
        if not isinstance(value, Mapping):
            self.fail(key, f"expected an object, got {_show(value)}")
        return dict(value)

    def done(self, allowed: Collection[str] = ()) -> None:
        """Refuse every field that was not read (nor listed in `allowed`)."""
        unknown = [k for k in self.obj if k not in self.read and k not in allowed]
        if unknown:
            self.fail(unknown[0], "unknown field")


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _choices(choices: Collection[str]) -> str:
    shown = sorted(choices)
    return ", ".join(shown) if len(shown) <= 12 else ", ".join(shown[:12]) + f", … ({len(shown)} in all)"
