"""A battle calculator's form: the inputs a game's combat table needs, each with its range or
choices and the rule it comes from, and the one place those inputs are checked.

A game with `Capability.CALCULATOR` describes its form (`Game.calculator_form`) and works
out the exact distribution of any hypothetical attack from values read by `CalculatorForm.read`
(`Game.calculate`). Nothing here reads a position, so a calculation reveals nothing hidden.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from henderson.core.errors import HendersonError

Value = int | str | bool


class FieldKind(enum.Enum):
    """How a field is entered: a whole number in a range, one of a list, or yes/no."""

    NUMBER = "number"
    CHOICE = "choice"
    FLAG = "flag"


@dataclass(frozen=True)
class CalculatorField:
    """One input of a battle calculator."""

    name: str
    label: str
    kind: FieldKind
    default: Value
    rule: str = ""  # the rule the input comes from, e.g. "FB 8.7.1"
    group: str = ""  # "attacker", "defender" or "battle": where a client shows it
    lo: int = 0
    hi: int = 0
    choices: tuple[str, ...] = ()

    def read(self, raw: Any) -> Value:
        """`raw` checked against the field: a one-line error naming the field otherwise."""
        if self.kind is FieldKind.FLAG:
            if isinstance(raw, bool):
                return raw
            if isinstance(raw, str) and raw.lower() in ("true", "yes", "1", "false", "no", "0"):
                return raw.lower() in ("true", "yes", "1")
            raise HendersonError(f"{self.name}: expected true or false, not {raw!r}")
        if self.kind is FieldKind.CHOICE:
            if isinstance(raw, str) and raw in self.choices:
                return raw
            raise HendersonError(f"{self.name}: expected one of {', '.join(self.choices)}, not {raw!r}")
        if isinstance(raw, bool) or not isinstance(raw, int | str):
            raise HendersonError(f"{self.name}: expected a whole number, not {raw!r}")
        if isinstance(raw, str):
            if not raw.strip().lstrip("-").isdigit():
                raise HendersonError(f"{self.name}: expected a whole number, not {raw!r}")
            raw = int(raw)
        if not self.lo <= raw <= self.hi:
            raise HendersonError(f"{self.name}: {raw} is outside {self.lo}..{self.hi}")
        return raw

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "label": self.label,
            "kind": self.kind.value,
            "default": self.default,
            "rule": self.rule,
            "group": self.group,
        }
        if self.kind is FieldKind.NUMBER:
            out["min"], out["max"] = self.lo, self.hi
        if self.kind is FieldKind.CHOICE:
            out["choices"] = list(self.choices)
        return out


def number(
    name: str, label: str, hi: int, *, rule: str = "", group: str = "", default: int = 0, lo: int = 0
) -> CalculatorField:
    """A whole-number input from `lo` to `hi`."""
    return CalculatorField(name, label, FieldKind.NUMBER, default, rule, group, lo=lo, hi=hi)


def choice(
    name: str, label: str, choices: tuple[str, ...], *, rule: str = "", group: str = "", default: str = ""
) -> CalculatorField:
    """An input that is one of `choices` (the first unless `default` is given)."""
    return CalculatorField(name, label, FieldKind.CHOICE, default or choices[0], rule, group, choices=choices)


def flag(name: str, label: str, *, rule: str = "", group: str = "") -> CalculatorField:
    """A yes/no input, no by default."""
    return CalculatorField(name, label, FieldKind.FLAG, False, rule, group)


@dataclass(frozen=True)
class CalculatorForm:
    """Every input of a game's battle calculator, in the order a client shows them."""

    fields: tuple[CalculatorField, ...]

    def read(self, inputs: Mapping[str, Any]) -> dict[str, Value]:
        """Every field's value: those given, checked, and the defaults for the rest; an unknown
        name is refused (a misspelt input must not be silently ignored)."""
        known = {f.name: f for f in self.fields}
        for name in inputs:
            if name not in known:
                raise HendersonError(f"{name}: no such calculator input (known: {', '.join(known)})")
        return {f.name: f.read(inputs[f.name]) if f.name in inputs else f.default for f in self.fields}

    def to_json(self) -> dict[str, Any]:
        return {"fields": [f.to_json() for f in self.fields]}

    def text(self) -> str:
        """One line a field: its name, what it takes, its default and rule."""
        lines = []
        for f in self.fields:
            if f.kind is FieldKind.NUMBER:
                takes = f"{f.lo}..{f.hi}"
            elif f.kind is FieldKind.CHOICE:
                takes = "|".join(f.choices)
            else:
                takes = "true|false"
            lines.append(f"{f.name}={takes}  (default {f.default}; {f.label}, {f.rule})")
        return "\n".join(lines)


class GameOdds(Protocol):
    """A game's own odds object (as `Game.odds` returns): text and JSON."""

    def text(self) -> str: ...

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Note:
    """Something that changed the odds, with its rule: a die modifier, a doubling, a cap."""

    rule: str
    text: str
    value: str = ""  # "+1", "×2", ... or nothing

    def to_json(self) -> dict[str, str]:
        return {"rule": self.rule, "text": self.text, "value": self.value}


@dataclass(frozen=True)
class Outcome:
    """One result and its exact chance; `group` names the part of the battle it belongs to
    (an AAG battle has one per side firing and unit type)."""

    label: str
    chance: Fraction
    group: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"group": self.group, "label": self.label, "chance": str(self.chance), "p": float(self.chance)}


@dataclass(frozen=True)
class Calculation:
    """A calculator's answer in one shape for every game: a summary line, each rule that
    changed the odds, the exact chance of each result, and the game's own odds object."""

    summary: str
    notes: tuple[Note, ...]
    outcomes: tuple[Outcome, ...]
    odds: GameOdds

    def text(self) -> str:
        """The answer as a person reads it: the summary, the rules, each result's chance."""
        lines = [self.summary]
        lines += [f"  {n.value + ' ' if n.value else ''}{n.text} ({n.rule})" for n in self.notes]
        group = None
        for o in self.outcomes:
            if o.group != group:
                group = o.group
                lines.append(f"{group}:" if group else "chance of each result:")
            lines.append(f"  {o.label:40} {o.chance!s:>9}  ({float(o.chance):.1%})")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "summary": self.summary,
            "notes": [n.to_json() for n in self.notes],
            "outcomes": [o.to_json() for o in self.outcomes],
            "details": self.odds.to_json(),
        }
