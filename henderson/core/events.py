"""Events: what an action caused, one readable sentence each, with the data behind it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened: `kind` for programs, `text` for people, `data` for both.

    Dice rolls are events of kind "roll" whose data holds purpose, sides and value.
    """

    kind: str
    text: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "data": dict(self.data)}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Event:
        return cls(str(obj["kind"]), str(obj.get("text", "")), dict(obj.get("data", {})))

    def __str__(self) -> str:
        return self.text


def roll_event(purpose: str, sides: int, value: int) -> Event:
    """The event every die roll produces, naming its purpose (e.g. "FB 14.1 supply roll")."""
    return Event("roll", f"{purpose}: rolled {value}", {"purpose": purpose, "sides": sides, "value": value})


def roll(dice: Any, purpose: str, events: list[Event], sides: int = 6) -> int:
    """Roll one die from `dice` for `purpose` (the rule that asks for it) and record the roll
    among `events`: every die of every game is rolled this way."""
    value = int(dice.roll(purpose, sides))
    events.append(roll_event(purpose, sides, value))
    return value
