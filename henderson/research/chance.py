"""Dice as explicit chance nodes, for search that needs the outcomes and their odds
(expectimax, chance sampling, OpenSpiel's explicit-stochastic games).

`State.apply` is atomic, so an action can be tried with dice that give the outcomes chosen so
far and then refuse: a refusal (`DieNeeded`, which says why and how many sides the die has)
leaves the position as it was and says that one more die is needed. Each die is a chance node
with the faces 1..sides equally likely; once every die of an action has its outcome, the
action is played with those values, and the record shows exactly those rolls.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from henderson.core.events import Event
from henderson.core.game import Action, DiceNeeded, State


class DieNeeded(DiceNeeded):
    """An action needs one more die than the outcomes given: `purpose` and `sides` say which."""

    def __init__(self, purpose: str, sides: int) -> None:
        super().__init__(f"it rolls dice ({purpose}): a d{sides} is needed")
        self.purpose = purpose
        self.sides = sides


class ChosenDice:
    """Dice that give chosen outcomes in order, then refuse (`DieNeeded`)."""

    __slots__ = ("position", "values")

    def __init__(self, values: Sequence[int] = ()) -> None:
        self.values = list(values)
        self.position = 0

    def roll(self, purpose: str, sides: int = 6) -> int:
        if self.position >= len(self.values):
            raise DieNeeded(purpose, sides)
        value = self.values[self.position]
        if not 1 <= value <= sides:
            raise ValueError(f"outcome {value} is not a face of a d{sides} ({purpose})")
        self.position += 1
        return value

    def clone(self) -> ChosenDice:
        copy = ChosenDice(self.values)
        copy.position = self.position
        return copy

    def to_json(self) -> None:
        return None


@dataclass
class PendingRoll:
    """An action waiting for its dice: the outcomes chosen so far and the die needed next."""

    action: Action
    player: str
    rolled: list[int] = field(default_factory=list)
    purpose: str = ""
    sides: int = 6

    def outcomes(self) -> list[tuple[int, float]]:
        """The faces of the next die with their probabilities (uniform)."""
        return [(face, 1.0 / self.sides) for face in range(1, self.sides + 1)]


def try_with_dice(state: State, action: Action, rolled: Sequence[int]) -> PendingRoll | list[Event]:
    """Play `action` on `state` with the outcomes `rolled`: its events when they were
    enough, else (the position unchanged) the roll still needed."""
    dice = ChosenDice(rolled)
    player = str(state.current_player())
    state.dice = dice
    try:
        events = state.apply(action)
    except DieNeeded as need:
        return PendingRoll(action, player, list(rolled), need.purpose, need.sides)
    finally:
        state.dice = ChosenDice()
    if dice.position != len(rolled):
        raise ValueError(f"{action} rolled {dice.position} dice, not the {len(rolled)} chosen")
    return events
