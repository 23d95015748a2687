"""Errors a player or a user can read: each prints as one line that names what is wrong."""

from __future__ import annotations


class HendersonError(Exception):
    """Base of every error caused by input (actions, positions, records, data files)."""


class IllegalAction(HendersonError, ValueError):
    """An action the rules forbid, with the rule that forbids it and a plain sentence."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message


class NotationError(HendersonError, ValueError):
    """Text that is not a well-formed action in a game's notation."""

    def __init__(self, text: str, message: str) -> None:
        super().__init__(f"cannot read action {text!r}: {message}")
        self.text = text
        self.message = message


class PositionError(HendersonError, ValueError):
    """A position (JSON) that is malformed or describes an impossible situation."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"position: {where}: {message}" if where else f"position: {message}")
        self.where = where
        self.message = message


class RecordError(HendersonError, ValueError):
    """A game record (JSON Lines) that cannot be read or does not replay."""


class DataError(HendersonError):
    """A data file problem: the file, the record, the field and what is wrong."""

    def __init__(self, file: str, record: str, field: str, message: str) -> None:
        parts = [p for p in (file, record, field) if p]
        super().__init__(": ".join([*parts, message]))
        self.file = file
        self.record = record
        self.field = field
        self.message = message


class DataErrors(HendersonError):
    """Several data problems found in one pass; printed one per line."""

    def __init__(self, errors: list[DataError]) -> None:
        super().__init__("\n".join(str(e) for e in errors))
        self.errors = errors


class UnknownGame(HendersonError, KeyError):
    """A game name that is not in the registry."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])
