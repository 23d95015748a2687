"""The kit's contract: what every game and every position provides, and all that the
agents, the simulator, the server, the command line and the records rely on.

Modelled on OpenSpiel's `State` and python-chess's `Board`: a `Game` holds the rules plus
validated data; a `State` is one position that knows whose decision it is, what that side
may do, and how to apply it. A game plugs in by subclassing both (docs/architecture.md).

What a game may or may not do beyond the core is a named `Capability` it declares, never
something a caller finds by probing for attributes: hidden information (one observer:
`view`, `redact` and `sample_unseen` together), an odds preview, a map drawing, an
evaluation for the computer players. The base classes give every capability a default
that is right for a game without it (everything public; no odds), so callers never branch
on a missing method.
"""

from __future__ import annotations

import enum
import hashlib
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Protocol, runtime_checkable

from henderson.core.actions import ActionInfo, words_of
from henderson.core.calculator import Calculation, CalculatorForm
from henderson.core.dice import SEED_BITS, Dice, SeededDice, fresh_seed, never_fail
from henderson.core.errors import HendersonError, IllegalAction, PositionError
from henderson.core.events import Event

Side = str  # a side id, as the game names its sides ("us", "jp")


def other_side(sides: Sequence[Side], side: Side) -> Side:
    """The opponent of `side` in a two-sided game."""
    first, second = sides
    return second if side == first else first


class Unsupported(HendersonError):
    """A capability the game does not have (an odds preview, a map drawing)."""


def needs_extra(exc: ModuleNotFoundError, extra: str, what: str) -> Unsupported:
    """The error for a feature whose optional packages are not installed (`henderson[extra]`)."""
    return Unsupported(f"{what} needs {exc.name}: pip install 'henderson[{extra}]' (make run installs it)")


class Capability(enum.Enum):
    """What a game may offer beyond the core contract; `Game.capabilities` names its own."""

    HIDDEN_INFORMATION = "hidden-information"  # `view` hides something from a side
    ODDS = "odds"  # `Game.odds(state, spec)`: exact odds of an attack, unrolled
    MAP_DRAWING = "map-drawing"  # `Game.draw_map(path, state)`: the map as SVG or PNG
    EVALUATION = "evaluation"  # `Game.evaluate(state, side)`: a hand-written or learned evaluation
    CALCULATOR = "calculator"  # `Game.calculate(inputs)`: exact odds of any attack, no position read


@dataclass(frozen=True)
class Option:
    """An optional rule a game may be played with (off unless asked for)."""

    name: str
    help: str  # the rule and what it changes, one line


@runtime_checkable
class Action(Protocol):
    """A decision. `str(action)` is its notation and `game.parse_action(str(a)) == a`."""

    def __str__(self) -> str: ...


class Odds(Protocol):
    """An odds preview: readable text and the same figures as JSON."""

    def text(self) -> str: ...

    def to_json(self) -> dict[str, Any]: ...


class State(ABC):
    """One position of one game.

    Subclasses provide the abstract methods; `apply` is atomic here (an action happens
    completely or not at all), `copy.deepcopy` goes through `clone`, and `pickle` through
    the position JSON, so neither copies the game's data.
    """

    seed: int | None  # the seed the game started from (None: unknown, e.g. a hand-written position)
    options: dict[str, Any]  # the optional rules in force
    dice: Dice  # where every die of this position comes from

    # -- identity --------------------------------------------------------------------------

    @property
    @abstractmethod
    def game(self) -> Game:
        """The game this position belongs to."""

    @property
    @abstractmethod
    def ply(self) -> int:
        """How many actions have been applied since the start: a state id for stale checks."""

    @property
    @abstractmethod
    def turn(self) -> int:
        """The game turn, counted from 1 (set-up before the first turn counts as turn 1)."""

    @property
    def turn_label(self) -> str:
        """The turn as the game's turn track prints it (FB "OCT II"); by default "turn N"."""
        return f"turn {self.turn}"

    @property
    @abstractmethod
    def step(self) -> str:
        """The id of the current step of the sequence of play (the game's sequence data)."""

    # -- deciding --------------------------------------------------------------------------

    @abstractmethod
    def current_player(self) -> Side | None:
        """The side that must decide now; None when the game is over."""

    @abstractmethod
    def legal_actions(self) -> Sequence[Action]:
        """Every legal action, in a deterministic order; empty when the game is over."""

    # Whether the game's `_apply` makes every check that can refuse an action before it changes
    # anything: then, with dice that always answer, nothing can fail part-way through a legal
    # action, and `apply` spares itself the copy it would otherwise keep to undo one.
    checks_before_changing: ClassVar[bool] = False

    def apply(self, action: Action | str) -> list[Event]:
        """Check and play `action` (or its notation); IllegalAction names the rule.

        Atomic: a refused action changes nothing, and when anything goes wrong part-way (a
        scripted dice source runs dry, an error), the position is left exactly as it was
        before. A game that `checks_before_changing` and rolls dice that always answer
        (`never_fail`) plays without the copy that undoes a failure: there, only an engine
        error after the checks could leave a position part-changed."""
        parsed = self.game.parse_action(action) if isinstance(action, str) else action
        if self.is_terminal():
            won = self.winner()
            result = f"{won} won" if won else "a draw"
            raise IllegalAction(self.game.end_rule, f"the game is over: {result} ({self.end_cause})")
        if self.checks_before_changing and never_fail(self.dice):
            return self._apply(parsed)
        backup = self.clone()
        try:
            return self._apply(parsed)
        except BaseException:
            self._restore(backup)
            raise

    @abstractmethod
    def _apply(self, action: Action) -> list[Event]:
        """Check and play a parsed action (the game's part of `apply`)."""

    def _restore(self, backup: State) -> None:
        """Become `backup` again (a clone taken before a failed action)."""
        self.__dict__.clear()
        self.__dict__.update(backup.__dict__)

    def undo_barrier(self, before: State) -> str | None:
        """Why the action that led from `before` to this position may not be taken back by
        the side that played it, or None when it may (a misclick costs nothing). It may not
        when it rolled a die (checked by the caller from its events), handed the decision to
        someone else, began another step or turn, or showed the player something it did not
        see before (`reveals`)."""
        side = before.current_player()
        if side is None or self.current_player() != side:
            return "the decision passed to the other side"
        if (self.turn, self.step) != (before.turn, before.step):
            return "it ended a step of the sequence of play"
        if self.reveals(before, side):
            return "it showed something that was hidden"
        return None

    def reveals(self, before: State, side: Side) -> bool:
        """Whether `side` sees something of the other side now that it did not see in
        `before` (a game without hidden information never reveals anything)."""
        return False

    # -- copies ------------------------------------------------------------------------------

    @abstractmethod
    def clone(self) -> State:
        """An independent copy, dice included (the game's data is shared, never copied)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return self.clone()

    def __copy__(self) -> State:
        return self.clone()

    def __reduce__(self) -> tuple[Any, ...]:
        game = self.game
        return (_load_position, (game.name, str(game.data_dir), self.to_json()))

    # -- the end -----------------------------------------------------------------------------

    @abstractmethod
    def is_terminal(self) -> bool:
        """True once the game is over."""

    @abstractmethod
    def winner(self) -> Side | None:
        """The winning side; None while the game goes on or after a draw."""

    @property
    @abstractmethod
    def end_cause(self) -> str | None:
        """Why the game ended, in a few fixed words a simulation can count; None while playing."""

    def returns(self) -> dict[Side, float]:
        """+1 for the winner, -1 for the loser, 0 each while the game goes on or after a draw."""
        w = self.winner()
        return {s: 0.0 if w is None else (1.0 if s == w else -1.0) for s in self.game.sides}

    # -- positions ---------------------------------------------------------------------------

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The documented, versioned, hand-editable position (with the dice state)."""

    # -- hidden information: one observer (Capability.HIDDEN_INFORMATION) ----------------------

    def view(self, side: Side | None) -> dict[str, Any]:
        """What `side` may see (None: a spectator). Hidden information is removed here, and
        the dice state and seed never leave the engine (with them the rolls to come could
        be foreseen). By default everything else is public."""
        data = self.to_json()
        data.pop("dice", None)
        data.pop("seed", None)
        data["to_act"] = self.current_player()
        return data

    def redact(self, entry: Mapping[str, Any], side: Side | None) -> dict[str, Any]:
        """A record entry (`RecordEntry.to_json()`) as `side` may read it, judged on this
        position, the one right after the entry's action: another side's actions and events
        that `side` may not see are hidden. By default every action is public."""
        return dict(entry)

    def sample_unseen(self, side: Side | None, rng: random.Random) -> State:
        """A copy in which what `side` cannot see is a guess consistent with `view(side)`,
        and the dice to come are drawn from `rng`: look-ahead for `side` starts from it, so
        it reads no secret and foresees no roll. By default only the dice are new."""
        clone = self.clone()
        clone.dice = SeededDice(rng.getrandbits(SEED_BITS))
        return clone

    # -- search support ------------------------------------------------------------------------

    def key(self, side: Side | None = None) -> Hashable:
        """The position as `side` knows it, as a hashable key: two states have equal keys
        exactly when `side` cannot tell them apart (dice, seed and action count aside).
        None: the whole position. By default a digest of the position's JSON."""
        data = self.view(side) if side is not None and self.game.hidden_information else self.to_json()
        for name in ("dice", "seed", "ply"):
            data.pop(name, None)
        text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.blake2b(text.encode(), digest_size=16).digest()

    def invariant_errors(self) -> list[str]:
        """Everything that must always hold and does not, one sentence each (checked after
        every action by the random-play soaks); empty when the position is sound."""
        return []


class Game(ABC):
    """Rules plus validated data for one game."""

    name: ClassVar[str]  # the registry name ("firstblood")
    title: ClassVar[str]  # as printed on the box
    sides: ClassVar[tuple[Side, ...]]  # side ids, in the order of play
    rules_prefix: ClassVar[str]  # how rule numbers are cited ("FB", "DG", "AAG")
    capabilities: ClassVar[frozenset[Capability]] = frozenset()
    options: ClassVar[Mapping[str, Option]] = {}
    end_rule: ClassVar[str] = ""  # the rule that ends the game (cited when acting after the end)
    rules_package: ClassVar[str] = ""  # where the phases of the sequence of play live (core.sequence)

    data_version: str  # a content hash of the data files (`core.data.content_version`)
    data_dir: Path  # where the data was loaded from

    def hides_information(self, options: Mapping[str, Any]) -> bool:
        """Whether a match with these options hides anything from a side (by default, what the
        game can hide, `hidden_information`; a game whose secrets come with an option says so)."""
        return self.hidden_information

    @property
    def die_faces(self) -> int:
        """The most faces of any die the game rolls (a d6; more where a roll draws a card):
        a position's scripted dice must lie in 1..die_faces."""
        return 6

    @property
    def hidden_information(self) -> bool:
        """Whether `view` ever hides something from a side (fog of war, secret orders)."""
        return Capability.HIDDEN_INFORMATION in self.capabilities

    def check_options(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        """The optional rules asked for, checked: known names, true or false."""
        if given is not None and not isinstance(given, Mapping):
            raise HendersonError(f"{self.name} options must be an object of NAME: true/false")
        chosen: dict[str, Any] = {}
        for key, value in (given or {}).items():
            if key not in self.options:
                known = ", ".join(self.options) or "none"
                raise HendersonError(f"unknown {self.name} option {key!r} (known: {known})")
            if not isinstance(value, bool):
                raise HendersonError(f"{self.name} option {key!r} is true or false, not {value!r}")
            chosen[key] = value
        return chosen

    def new_state(
        self,
        seed: int | None = None,
        *,
        options: Mapping[str, Any] | None = None,
        dice: Dice | None = None,
    ) -> State:
        """A new game at its set-up. No seed: a fresh secret one, kept in the state."""
        if seed is None:
            seed = fresh_seed()
        elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**SEED_BITS:
            raise HendersonError(f"a seed is an integer 0..2**{SEED_BITS}-1, not {seed!r}")
        return self._new_state(seed, self.check_options(options), dice or SeededDice(seed))

    @abstractmethod
    def _new_state(self, seed: int, options: dict[str, Any], dice: Dice) -> State:
        """The game's set-up with checked options (the game's part of `new_state`)."""

    @abstractmethod
    def load_state(self, obj: Mapping[str, Any], *, dice: Dice | None = None) -> State:
        """A state from a position (see `State.to_json`); PositionError when it is wrong."""

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """An action from its notation; NotationError when the text is not one."""

    @abstractmethod
    def render_text(self, state: State, viewer: Side | None = None) -> str:
        """The position as text for a terminal, as `viewer` may see it (None: everything)."""

    @abstractmethod
    def client_data(self) -> dict[str, Any]:
        """Static board data for the browser client (map, counters, vocabulary)."""

    def describe(self, action: Action) -> ActionInfo:
        """`action` as a structured value (verb and typed arguments) for clients that pick
        actions without reading notation; by default its words."""
        return words_of(str(action))

    def placements(self, state: State, unit: str) -> list[Action]:
        """Where waiting counter `unit` may be placed now, as actions. A game may list only the
        next counter's placements among the legal actions (to keep the list short) and accept
        any waiting counter's: it says here where each may go. By default, the listed
        `place` actions that name `unit`."""
        found: list[Action] = []
        for action in state.legal_actions():
            info = self.describe(action)
            if info.verb == "place" and any(a.role == "unit" and a.value == unit for a in info.args):
                found.append(action)
        return found

    # -- capabilities (defaults for a game without them) ----------------------------------------

    def odds(self, state: State, spec: str) -> Odds:
        """Capability.ODDS: the exact odds of an attack written in the game's notation."""
        raise Unsupported(f"{self.name} has no odds preview")

    def calculator_form(self) -> CalculatorForm:
        """Capability.CALCULATOR: the battle calculator's inputs, their ranges and rules."""
        raise Unsupported(f"{self.name} has no battle calculator")

    def calculate(self, inputs: Mapping[str, Any]) -> Calculation:
        """Capability.CALCULATOR: the exact odds of the attack `inputs` describe, checked by
        `calculator_form().read` (a one-line HendersonError naming a bad field)."""
        raise Unsupported(f"{self.name} has no battle calculator")

    def draw_map(self, path: Path, state: State | None = None) -> None:
        """Capability.MAP_DRAWING: the map (and the units of `state`) as SVG or PNG."""
        raise Unsupported(f"{self.name} has no map drawing")

    def evaluate(self, state: State, side: Side) -> float:
        """Capability.EVALUATION: how good a position that is not over is for `side`, from
        -1 (surely lost) to +1 (surely won); it reads only what `side` may see and rolls
        nothing. Without it, nobody is ahead."""
        return 0.0

    def check_position_header(self, obj: Mapping[str, Any], version: int) -> None:
        """The shared header of a position: format, game, version and data version."""
        from henderson.core.position import check_header

        check_header(obj, self.name, version, self.data_version)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} data {self.data_version}>"


class NotPreviewed(HendersonError):
    """An action a preview will not play: it rolls dice, hands the decision over, ends a
    step or shows something hidden (its message depends only on what the asker sees)."""


class DiceNeeded(NotPreviewed):
    """A die was asked for where nothing may be rolled (a preview)."""


class NoDice:
    """A dice source that refuses to roll: previews never show what a die would do."""

    def roll(self, purpose: str, sides: int = 6) -> int:
        raise DiceNeeded(f"it rolls dice ({purpose}): nothing is shown before the dice are rolled")

    def clone(self) -> NoDice:
        return self

    def to_json(self) -> None:
        return None


def trial(state: State, side: Side | None, actions: Sequence[str], rng: random.Random | None = None) -> State:
    """`actions` played for `side` on a copy of `state`, as a preview: the one place where
    previews and odds are made, so that none of them can tell a side what it may not know.

    With `rng` (a server answering a seat), the copy is what `side` may know of the position
    (`sample_unseen`), so the answer depends on nothing `side` cannot see; without it (the
    owner of a position file), the copy is exact. Every action must leave the decision with
    `side`, in the same step, roll no die and show nothing hidden; else NotPreviewed."""
    if state.current_player() != side:
        raise NotPreviewed("previews are for the side that must decide now")
    base = state.sample_unseen(side, rng) if rng is not None and state.game.hidden_information else state.clone()
    base.dice = NoDice()
    for text in actions:
        before = base.clone()
        base.apply(text)
        barrier = base.undo_barrier(before)
        if barrier is not None:
            raise NotPreviewed(f"'{text}' is not previewed: {barrier}")
    return base


def _load_position(name: str, data_dir: str, position: dict[str, Any]) -> State:
    """Unpickle a state: its game from the registry, then its position."""
    from henderson import games

    game = games.get(name)
    if str(game.data_dir) != data_dir:
        game = games.get(name, data_dir)
    return game.load_state(position)


__all__ = [
    "Action",
    "Capability",
    "Game",
    "Odds",
    "Option",
    "PositionError",
    "Side",
    "State",
    "Unsupported",
    "fresh_seed",
    "other_side",
]
