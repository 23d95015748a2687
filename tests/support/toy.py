"""A tiny two-player dice game written on the game kit, for testing game-independent code
(agents, simulation, records, server) without depending on a real game's rules, and as
the smallest example of a game plugging into the kit (docs/architecture.md).

Pig race: sides "red" and "blue" take turns; a turn is a sequence of `roll` (add
the die to the turn total, lose it on a 1) and `hold` (bank it). First to 20 wins.
Each side also holds a secret `card` drawn at the start, hidden from the other
side's view, so fog-of-war plumbing can be tested.

Its data is `toy_data/sequence.toml`; its rules are the two phases below; its state is
three declared fields.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from henderson.core.dice import Dice, SeededDice
from henderson.core.errors import IllegalAction, NotationError, PositionError
from henderson.core.events import Event, roll_event
from henderson.core.fields import field
from henderson.core.game import Capability, State
from henderson.core.sequence import Decision, Phase, Sequenced, SequencedGame

TITLE = "Pig race (test game)"
TARGET = 20
SIDES = ("red", "blue")


@dataclass(frozen=True)
class ToyAction:
    verb: str  # "roll", "hold" or "end"

    def __str__(self) -> str:
        return self.verb


ROLL, HOLD, END = ToyAction("roll"), ToyAction("hold"), ToyAction("end")


def _sides_only(state: Any, value: dict[str, int], where: str) -> None:
    if set(value) != set(SIDES):
        raise PositionError(where, "needs exactly the sides red and blue")


@dataclass(eq=False, init=False)
class ToyState(Sequenced):
    """A pig race position: the banked scores, the secret cards, the running turn total."""

    scores: dict[str, int] = field(factory=lambda: dict.fromkeys(SIDES, 0), lo=0, hi=1000, check=_sides_only)
    cards: dict[str, int] = field(factory=lambda: dict.fromkeys(SIDES, 0), lo=0, hi=10, check=_sides_only)
    turn_total: int = field(0, lo=0, hi=1000)
    pending: list[Decision] = field(factory=list)

    @property
    def end_action(self) -> ToyAction:
        return END

    @property
    def to_move(self) -> str | None:
        return self.current_player()

    def view(self, side: str | None) -> dict[str, Any]:
        data = super().view(side)
        data["cards"] = {s: c for s, c in self.cards.items() if s == side}
        return data

    def sample_unseen(self, side: str | None, rng: random.Random) -> ToyState:
        """The other side's secret card drawn again (a spectator sees neither)."""
        clone = self.clone()
        assert isinstance(clone, ToyState)
        clone.dice = SeededDice(rng.getrandbits(63))
        for s in SIDES:
            if s != side:
                clone.cards[s] = rng.randint(1, 10)
        return clone

    def invariant_errors(self) -> list[str]:
        return [f"{s} has {v}" for s, v in self.scores.items() if v < 0]


class Cards(Phase):
    """TOY 3: each side draws a secret card from 1 to 10."""

    def enter(self, state: ToyState, events: list[Event]) -> None:
        for side in SIDES:
            value = state.dice.roll(f"TOY 3 {side} secret card", 10)
            state.cards[side] = value


class Race(Phase):
    """TOY 2: roll to add to the turn total (a 1 loses it and ends the turn), or hold to bank
    it; the first to 20 wins (TOY 1)."""

    offers_end = False  # a turn ends by holding or by rolling a 1

    def actions(self, state: ToyState) -> list[ToyAction]:
        return [ROLL, HOLD]

    def do(self, state: ToyState, action: Any, events: list[Event]) -> None:
        side = state.current_player()
        assert side is not None
        if action == ROLL:
            value = state.dice.roll("TOY 2 turn roll")
            events.append(roll_event("TOY 2 turn roll", 6, value))
            if value == 1:
                state.turn_total = 0
                state.finish_step(events)
            else:
                state.turn_total += value
            return
        state.scores[side] += state.turn_total
        events.append(Event("hold", f"{side} banks {state.turn_total}"))
        state.turn_total = 0
        if state.scores[side] >= TARGET:
            state.end_game(side, f"{TARGET} points", events)
        else:
            state.finish_step(events)

    def explain(self, state: ToyState, action: Any) -> IllegalAction:
        return IllegalAction("TOY 2", f"'{action}': a turn is rolls and a hold")


CARDS = Cards()
RACE = Race()


class ToyGame(SequencedGame):
    name = "toy"
    title = TITLE
    sides = SIDES
    rules_prefix = "TOY"
    rules_package = "tests.support"
    capabilities = frozenset({Capability.HIDDEN_INFORMATION})  # each side's secret card
    end_rule = "TOY 1"
    data_version = "1"
    data_dir = Path(__file__).parent / "toy_data"

    def _new_state(self, seed: int, options: dict[str, Any], dice: Dice) -> ToyState:
        state = ToyState(self, dice, seed, options)
        state.begin([])
        return state

    def load_state(self, obj: Mapping[str, Any], *, dice: Dice | None = None) -> ToyState:
        state = ToyState.load(self, obj, dice)
        assert isinstance(state, ToyState)
        return state

    def parse_action(self, text: str) -> ToyAction:
        text = text.strip().lower()
        for action in (ROLL, HOLD, END):
            if text == action.verb:
                return action
        raise NotationError(text, "expected 'roll' or 'hold'")

    def render_text(self, state: State, viewer: str | None = None) -> str:
        assert isinstance(state, ToyState)
        return f"red {state.scores['red']} blue {state.scores['blue']} ({state.to_move} has {state.turn_total})"

    def client_data(self) -> dict[str, Any]:
        return {}


def load_game(data_dir: Path | None = None) -> ToyGame:
    return ToyGame()
