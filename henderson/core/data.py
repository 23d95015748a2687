"""Loading game data files (TOML) with errors that name the file, record and field.

Every record carries a `source` saying where its values come from (docs/data.md):
`rule FB 4.2`, `history: ...` or `design: ...`, several joined by "; ".
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from henderson.core.errors import DataError, DataErrors

T = TypeVar("T")
SOURCE_PART = re.compile(r"^(rule (FB|DG|AAG) [0-9A-Za-z.\-]+.*|history: .+|design: .+)$")


MAX_DATA_FILE = 4 * 1024 * 1024  # no data file of a game comes near it


class Document(dict[str, Any]):
    """A data file's top-level tables, noting which ones a loader reads, so that a table or
    key no loader knows is reported (`unread`) instead of silently ignored."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seen: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        self.seen.add(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self.seen.add(key)
        return super().get(key, default)

    def unread(self) -> list[str]:
        """The top-level keys no loader asked for."""
        return [k for k in self if k not in self.seen]


def load_toml(path: Path) -> Document:
    """Parse one TOML file; a DataError names the file and the line when it is malformed, too
    large, or cut short (a file that ends in the middle of a line: every data file ends with
    a newline, so a truncated one that still parses is refused too)."""
    try:
        with path.open("rb") as fh:
            raw = fh.read(MAX_DATA_FILE + 1)
    except FileNotFoundError:
        raise DataError(str(path), "", "", "file not found") from None
    except OSError as exc:
        raise DataError(str(path), "", "", f"cannot read: {exc.strerror}") from None
    if len(raw) > MAX_DATA_FILE:
        raise DataError(str(path), "", "", f"larger than {MAX_DATA_FILE} bytes")
    if raw and not raw.endswith(b"\n"):
        raise DataError(str(path), "", "", "ends in the middle of a line: the file looks cut short")
    try:
        return Document(tomllib.loads(raw.decode("utf-8")))
    except UnicodeDecodeError:
        raise DataError(str(path), "", "", "not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError(str(path), "", "", f"malformed TOML: {exc}") from None


CHECKED_APART = ("game.toml", "sequence.toml")  # the manifest and the sequence have checks of their own


def report_unread(col: Collector, docs: Mapping[str, Any]) -> None:
    """Report each top-level table or key of the files that no loader read (`Document`); the
    manifest and the sequence of play refuse unknown keys where they are read."""
    for name, doc in docs.items():
        if isinstance(doc, Document) and name not in CHECKED_APART:
            for key in doc.unread():
                col.add(name, key, "", "unknown table or key")


def valid_source(value: Any) -> bool:
    """True when `value` is a provenance string as docs/data.md describes."""
    if not isinstance(value, str) or not value.strip():
        return False
    return all(SOURCE_PART.match(part.strip()) for part in value.split(";"))


class Collector:
    """Gathers data errors so that one check reports all of them, one per line."""

    def __init__(self) -> None:
        self.errors: list[DataError] = []

    def add(self, file: str, record: str, field: str, message: str) -> None:
        self.errors.append(DataError(file, record, field, message))

    def raise_if_any(self) -> None:
        if self.errors:
            raise DataErrors(self.errors)

    def field(
        self,
        obj: Mapping[str, Any],
        name: str,
        kind: type | tuple[type, ...],
        file: str,
        record: str,
        *,
        required: bool = True,
        default: Any = None,
    ) -> Any:
        """obj[name] checked against `kind`; records an error and returns `default` if wrong."""
        if name not in obj:
            if required:
                self.add(file, record, name, "missing")
            return default
        value = obj[name]
        # bool is an int in Python; never accept it for a number
        if isinstance(value, bool) and kind in (int, float, (int, float)):
            self.add(file, record, name, f"expected {_kind_name(kind)}, got {value!r}")
            return default
        if not isinstance(value, kind):
            self.add(file, record, name, f"expected {_kind_name(kind)}, got {value!r}")
            return default
        return value

    def source(self, obj: Mapping[str, Any], file: str, record: str) -> str:
        value = obj.get("source")
        if value is None:
            self.add(file, record, "source", "missing (every record needs its provenance)")
            return ""
        if not valid_source(value):
            self.add(
                file,
                record,
                "source",
                f"{value!r} is not 'rule FB|DG|AAG <n>', 'history: <note>' or 'design: <reason>'",
            )
            return ""
        return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {int: "an integer", float: "a number", str: "text", list: "a list", dict: "a table", bool: "true/false"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def content_version(directory: Path) -> str:
    """The data version: a content hash of every data file (`*.toml`) of a directory, by
    name and content (line endings aside). Positions and records carry it, so that a file
    written for other data (other counters, other terrain) is refused, never misread."""
    digest = hashlib.sha256()
    for path in sorted(directory.glob("*.toml")):
        digest.update(path.name.encode())
        digest.update(b"\0")
        digest.update(path.read_bytes().replace(b"\r\n", b"\n"))
        digest.update(b"\0")
    return "sha256:" + digest.hexdigest()[:16]


def check_source(context: Any, value: str, where: str) -> None:
    """A declared field's check (`core.fields.field(check=...)`) for a record's provenance."""
    from henderson.core.errors import PositionError

    if not valid_source(value):
        raise PositionError(where, f"{value!r} is not 'rule FB|DG|AAG <n>', 'history: <note>' or 'design: <reason>'")


def read_records(
    col: Collector,
    file: str,
    items: Any,
    cls: type[T],
    name: Callable[[int, Mapping[str, Any]], str] | None = None,
    context: Any = None,
) -> list[T]:
    """The records of one array of tables in a data file, each read into the dataclass `cls`
    by its declared fields (`core.fields`: types, ranges, choices, defaults, checks): every
    problem goes to `col` as `file: record: field: what`, unknown keys included, and a record
    with a problem is left out. `name(i, raw)` names a record in messages (default: its
    `id`, else its number)."""
    from henderson.core.errors import PositionError
    from henderson.core.fields import Layout

    if items is None:
        return []
    if not isinstance(items, list) or not all(isinstance(x, Mapping) for x in items):
        col.add(file, "", "", "expected an array of tables")
        return []
    layout = Layout.of(cls)
    out: list[T] = []
    for i, raw in enumerate(items, 1):
        record = name(i, raw) if name is not None else str(raw.get("id", f"#{i}"))
        bad = layout.unknown(raw)
        if bad is not None:
            col.add(file, record, bad, "unknown field")
            continue
        try:
            out.append(layout.load(raw, context if context is not None else col))
        except PositionError as exc:
            col.add(file, record, exc.where, exc.message)
    return out
