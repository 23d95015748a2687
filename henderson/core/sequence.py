"""The sequence-of-play engine every game runs on.

A game's sequence of play is data: `sequence.toml` in its data directory lists the steps
of the set-up and of one turn (id, side, the rules that run it, name, rule number). Each
step is run by a `Phase` of the game's rules package, and each kind of pending decision
(losses, retreats, an assault being fought) by one too: the same small protocol, modelled
on the board game's own structure (TripleA's delegate per phase without its boilerplate).

The engine (`Sequenced`, a `State`) lists the legal actions of the rules in charge, plays
an action through them, and moves on by itself through every step in which nobody has
anything to decide: a decision left is always a real one.

    [[setup]]                      # once, before the first turn
    id = "us_setup"
    side = "us"
    phase = "setup"                # rules/setup.py, its PHASE (or "setup:NAME")
    name = "US set-up"
    rule = "FB 3.0"

    [[step]]                       # every turn, in order
    id = "jp_movement"
    side = "jp"                    # or "first" / "second": the state says who (`side_of`)
    phase = "movement"
    name = "Japanese movement phase"
    rule = "FB Sequence of Play 2.0"
    alternate = true               # optional: played by `side`, then by the other side
    when = "hidden_movement"       # optional: only with this option (unless = ...: only without)
    params = { unit = "transport" } # optional: settings the phase reads (`state.current_step.params`)
"""

from __future__ import annotations

import dataclasses
import importlib
import operator
from abc import abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import repeat
from pathlib import Path
from typing import Any, ClassVar

from henderson.core.data import Collector, load_toml
from henderson.core.dice import Dice
from henderson.core.errors import HendersonError, IllegalAction, PositionError
from henderson.core.events import Event
from henderson.core.fields import Layout
from henderson.core.game import Action, Game, Side, State, other_side
from henderson.core.position import HEADER, Reader, check_header, header, read_dice

ROLES = ("first", "second")  # sides a state resolves at run time (`Sequenced.side_of`)


@dataclass(frozen=True, eq=False)
class Step:
    """One step of the sequence of play."""

    id: str
    side: Side  # a side id, or a role (`ROLES`) the state resolves
    phase: str  # the rules that run it: a module of the game's rules package, or "module:NAME"
    name: str  # as a player reads it
    rule: str  # where the rulebook defines it
    setup: bool = False  # before the first turn only
    half: int = 0  # an alternating step: 0 for `side`, 1 for the other side
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    @property
    def key(self) -> tuple[str, int]:
        return (self.id, self.half)


@dataclass(frozen=True, eq=False)
class SequenceSpec:
    """The sequence of play as written, before the optional rules pick its steps."""

    entries: tuple[tuple[Step, bool, str | None, str | None], ...]  # step, alternate, when, unless

    @cache  # noqa: B019 - specs live as long as their game
    def for_options(self, chosen: frozenset[str]) -> Plan:
        """The steps in force with the options `chosen` (the names of those set true)."""
        steps: list[Step] = []
        for step, alternate, when, unless in self.entries:
            if (when is not None and when not in chosen) or (unless is not None and unless in chosen):
                continue
            steps.append(step)
            if alternate:
                steps.append(dataclasses.replace(step, side=_other_role(step.side), half=1))
        return Plan(tuple(steps))


def _other_role(side: str) -> str:
    return {"first": "second", "second": "first"}.get(side, "other:" + side)


@dataclass(frozen=True)
class Plan:
    """The steps of a game with its options: the set-up steps, then one turn's steps."""

    steps: tuple[Step, ...]

    @property
    def first_turn_step(self) -> int:
        return next(i for i, s in enumerate(self.steps) if not s.setup)

    def index(self, step_id: str, half: int = 0) -> int:
        for i, s in enumerate(self.steps):
            if s.id == step_id and s.half == half:
                return i
        raise KeyError(step_id)

    def ids(self) -> list[str]:
        return list(dict.fromkeys(s.id for s in self.steps))


def load_sequence(path: Path, sides: Sequence[str], options: Sequence[str], prefix: str) -> SequenceSpec:
    """Read and check `sequence.toml`: every step has an id, a side (a side of the game or a
    role), the rules that run it, a name and a rule of the game; ids are unique; `when` and
    `unless` name options of the game. All problems are reported at once (DataErrors)."""
    raw = load_toml(path)
    col = Collector()
    f = path.name
    entries: list[tuple[Step, bool, str | None, str | None]] = []
    seen: set[str] = set()
    known = set(raw) - {"setup", "step"}
    if known:
        col.add(f, "", sorted(known)[0], "unknown table (expected [[setup]] and [[step]])")
    for table, setup in (("setup", True), ("step", False)):
        items = raw.get(table, [])
        if not isinstance(items, list):
            col.add(f, table, "", "expected an array of tables")
            continue
        for n, item in enumerate(items):
            where = f"{table}[{n}]"
            if not isinstance(item, dict):
                col.add(f, where, "", "expected a table")
                continue
            allowed = {"id", "side", "phase", "name", "rule", "alternate", "when", "unless", "params"}
            for key in sorted(set(item) - allowed):
                col.add(f, where, key, "unknown field")
            sid = col.field(item, "id", str, f, where)
            side = col.field(item, "side", str, f, where)
            phase = col.field(item, "phase", str, f, where)
            name = col.field(item, "name", str, f, where)
            rule = col.field(item, "rule", str, f, where)
            alternate = col.field(item, "alternate", bool, f, where, required=False, default=False)
            when = col.field(item, "when", str, f, where, required=False)
            unless = col.field(item, "unless", str, f, where, required=False)
            params = col.field(item, "params", dict, f, where, required=False, default={})
            if sid in seen:
                col.add(f, where, "id", f"{sid!r} is listed twice")
            seen.add(sid)
            if side and side not in sides and side not in ROLES:
                col.add(f, where, "side", f"{side!r} is not a side ({', '.join([*sides, *ROLES])})")
            if rule and not rule.startswith(prefix + " "):
                col.add(f, where, "rule", f"{rule!r} does not cite a rule of the game ({prefix} ...)")
            for key, opt in (("when", when), ("unless", unless)):
                if opt is not None and opt not in options:
                    col.add(f, where, key, f"{opt!r} is not an option of the game")
            entries.append((Step(sid, side, phase, name, rule, setup, 0, dict(params)), alternate, when, unless))
    if not any(not e[0].setup for e in entries):
        col.add(f, "step", "", "a turn needs at least one step")
    col.raise_if_any()
    return SequenceSpec(tuple(entries))


# -- the rules of one step or one kind of decision ------------------------------------------------


class Phase:
    """The rules that run one step of the sequence of play, or one kind of pending decision.

    The defaults are those of a step in which nobody decides anything: it offers only the
    end of the step, which the engine then plays by itself."""

    offers_end: ClassVar[bool] = True  # the engine adds the game's `end` when `may_end` allows
    # `actions` makes a new list at every call, which the engine may keep as it is (no copy of
    # a long list at every listing); otherwise the engine copies what `actions` returns
    lists_afresh: ClassVar[bool] = False

    def enter(self, state: Any, events: list[Event]) -> None:
        """Work done as the step begins, before anyone acts (arrivals, start-of-phase marks)."""

    def has_choice(self, state: Any) -> bool | None:
        """Whether someone has a real decision now, when that is cheap to tell without
        listing the actions (None: list them to know)."""
        return None

    def actions(self, state: Any) -> list[Action]:
        """The legal actions other than `end`, in a fixed order."""
        return []

    def is_legal(self, state: Any, action: Action) -> bool:
        """Whether `action` may be played now (by default: it is among the listed actions)."""
        return state.is_listed(action)

    def forced(self, state: Any) -> Action | None:
        """An action the rules play by themselves now (a roll with nothing to declare), if any."""
        return None

    def do(self, state: Any, action: Action, events: list[Event]) -> None:
        """Carry out a legal action (not `end`)."""
        raise AssertionError(f"{type(self).__name__} offers no action, yet {action} was played")

    def explain(self, state: Any, action: Action) -> IllegalAction:
        """Why `action` is not legal now, naming the rule."""
        step = state.current_step
        return IllegalAction(step.rule, f"'{action}' is not an action of the {step.name}")

    def may_end(self, state: Any) -> bool:
        """Whether the step may end now: asked at every listing, so a phase with something to
        check says it without building the refusal (by default: `end_blocker` finds none)."""
        return self.end_blocker(state) is None

    def end_blocker(self, state: Any) -> IllegalAction | None:
        """Why the step may not end yet (something still to do), or None; found only when
        `end` is refused, and never None when `may_end` is false."""
        return None

    def leave(self, state: Any, events: list[Event]) -> None:
        """Work done as the step ends."""


PASS = Phase()  # a step nobody decides anything in


@dataclass
class Decision:
    """A decision pending before play goes on (losses, a retreat, an assault being fought),
    owed by `side`. Subclasses name their `kind` (as written in positions) and the rules
    that run them (`rules`, as a step's `phase`)."""

    kind: ClassVar[str] = ""
    rules: ClassVar[str] = ""
    side: Side


# -- the engine ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    """How a game ended: the winner (None: a draw) and why, in a few fixed words."""

    winner: Side | None
    cause: str


KIT_FIELDS = ("turn", "step", "half", "entered", "ply", "seed", "options", "result")


class Sequenced(State):
    """A state driven by its game's sequence of play, with the position kept by the kit.

    The kit keeps where the game stands (`turn` counted from 1, the step, whether its entry
    work is done, the action count, the seed, the options, the result, the dice); the game
    declares everything else as dataclass fields (`core.fields`), its `pending` decisions
    among them, and `clone`, `key`, the JSON position and its loading come from that
    declaration. A subclass is a dataclass (`@dataclass(eq=False)`) with a `pending:
    list[...]` field of its `Decision`s."""

    VERSION: ClassVar[int] = 1  # the position format's version

    turn: int = 1  # the game turn, counted from 1 (kept by the engine)
    pending: list[Any]

    def __init__(self, game: SequencedGame, dice: Dice, seed: int | None, options: dict[str, Any]) -> None:
        layout = Layout.of(type(self))
        for slot in layout.slots:
            self.__dict__[slot.name] = slot.fresh()
        self._setup(game, dice, seed, options)

    def _setup(self, game: SequencedGame, dice: Dice, seed: int | None, options: dict[str, Any]) -> None:
        self._game = game
        self.dice = dice
        self.seed = seed
        self.options = options
        self.turn = 1
        self.step_index = 0
        self.entered = False
        self.result: Result | None = None
        self._ply = 0
        self._plan: Plan | None = None
        self._legal: list[Action] | None = None
        self._legal_set: set[Action] | None = None
        self._step_rules: tuple[Phase, ...] | None = None

    # -- what the game supplies ---------------------------------------------------------------

    @property
    def game(self) -> SequencedGame:
        return self._game

    @property
    def plan(self) -> Plan:
        """The steps in force with this state's options (found once: options never change)."""
        found = self._plan
        if found is None:
            chosen = frozenset(k for k, v in self.options.items() if v is True)
            found = self._plan = self.game.sequence().for_options(chosen)
        return found

    @property
    @abstractmethod
    def end_action(self) -> Action:
        """The game's action that ends a step (notation `end`)."""

    def side_of(self, step: Step) -> Side:
        """Who acts in `step`: its side, or the side a role names in this state (a game with
        roles overrides this for "first" and "second")."""
        if step.side.startswith("other:"):
            return other_side(self.game.sides, step.side[len("other:") :])
        return step.side

    def rules_named(self, ref: str) -> Phase:
        """The Phase a step or a decision names: `module` (its PHASE) or `module:NAME`."""
        return _rules(self.game.rules_package, ref)

    def check_position(self) -> None:
        """Checks across fields of a loaded position (raise PositionError); by default none."""

    # -- the protocol ----------------------------------------------------------------------------

    @property
    def ply(self) -> int:
        return self._ply

    @property
    def current_step(self) -> Step:
        return self.plan.steps[self.step_index]

    @property
    def step(self) -> str:
        return self.current_step.id

    def current_player(self) -> Side | None:
        if self.result is not None:
            return None
        if self.pending:
            return self.pending[-1].side
        return self.side_of(self.current_step)

    def is_terminal(self) -> bool:
        return self.result is not None

    def winner(self) -> Side | None:
        return None if self.result is None else self.result.winner

    @property
    def end_cause(self) -> str | None:
        return None if self.result is None else self.result.cause

    def end_game(self, winner: Side | None, cause: str, events: list[Event]) -> None:
        """The game is over: `winner` won (None: a draw) because of `cause`."""
        self.result = Result(winner, cause)
        text = f"{winner} wins: {cause}" if winner else f"a draw: {cause}"
        events.append(Event("end", text, {"winner": winner, "cause": cause}))
        self.changed()

    def rules(self) -> Phase:
        """The rules in charge now: the last pending decision's, else the current step's."""
        pending = self.pending
        if pending:
            return self.rules_named(pending[-1].rules)
        return self.step_rules()[self.step_index]

    def step_rules(self) -> tuple[Phase, ...]:
        """The rules of each step of the plan (`rules_named`), found once per position."""
        table = self._step_rules
        if table is None:
            table = self._step_rules = tuple(self.rules_named(s.phase) for s in self.plan.steps)
        return table

    def legal_actions(self) -> list[Action]:
        return self.listed()

    def listed(self) -> list[Action]:
        """The legal actions as kept with the position, listed once until it changes: what
        `legal_actions` hands out, for the engine's own reading (never to be changed)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._list()
            self._legal_set = None
        return legal

    def _list(self) -> list[Action]:
        if self.result is not None:
            return []
        rules = self.rules()
        acts = rules.actions(self)
        if not rules.lists_afresh:
            acts = list(acts)
        if not self.pending and rules.offers_end and rules.may_end(self):
            acts.append(self.end_action)
        return acts

    def is_listed(self, action: Action) -> bool:
        """Whether `action` is among the legal actions. An action taken from the list (as
        players and agents do) is found by its identity, a scan that hashes nothing; any
        other through a set of the actions (built once per list)."""
        legal = self.listed()
        found = self._legal_set
        if found is None:
            if any(map(operator.is_, legal, repeat(action))):
                return True
            found = self._legal_set = set(legal)
        return action in found

    def changed(self) -> None:
        """The position changed: the listed legal actions no longer hold (nor the set made
        of them, which goes with the list: `listed`)."""
        self._legal = None

    def _apply(self, action: Action) -> list[Event]:
        events: list[Event] = []
        self.play(action, events)
        self._ply += 1
        return events

    # -- copies, keys, positions -------------------------------------------------------------------

    def clone(self) -> Sequenced:
        c: Sequenced = Layout.of(type(self)).clone(self)
        d, s = c.__dict__, self.__dict__
        d["_game"] = s["_game"]
        d["dice"] = s["dice"].clone()
        kept: tuple[str, ...] = ("seed", "options", "turn", "step_index", "entered", "result", "_ply", "_plan")
        kept += ("_legal", "_legal_set", "_step_rules")
        for name in kept:
            d[name] = s[name]
        return c

    def key(self, side: Side | None = None) -> Any:
        """The whole position as a tuple (dice, seed and action count aside); for a side of a
        game with hidden information, what that side sees (`State.key`)."""
        if side is not None and self.game.hidden_information:
            return super().key(side)
        plan_key = (self.turn, self.step_index, self.entered, self.result)
        return (plan_key, tuple(sorted(self.options.items())), Layout.of(type(self)).key(self))

    def to_json(self) -> dict[str, Any]:
        step = self.current_step
        out = header(self.game.name, self.VERSION, self.game.data_version)
        out.update(
            turn=self.turn,
            step=step.id,
            half=step.half,
            entered=self.entered,
            ply=self._ply,
            seed=self.seed,
            options=dict(self.options),
            result=None if self.result is None else {"winner": self.result.winner, "cause": self.result.cause},
        )
        out.update(Layout.of(type(self)).dump(self))
        out["dice"] = self.dice.to_json()
        return out

    @classmethod
    def load(cls, game: SequencedGame, obj: Mapping[str, Any], dice: Dice | None, *, move_on: bool = True) -> Sequenced:
        """A state from a position: the shared header, the kit's fields, the game's declared
        fields (each error names the field); a position written at the start of a step
        (`entered` false or left out) has the step's entry work done now, and then play moves
        on to the first real decision (unless `move_on` is false: a position kept exactly as
        written, such as an older format's)."""
        check_header(obj, game.name, cls.VERSION, game.data_version)
        r = Reader(obj)
        for name in HEADER:
            r.present(name, None)
        state = cls.__new__(cls)
        try:
            options = game.check_options(r.mapping("options"))
        except HendersonError as exc:
            raise PositionError("options", str(exc)) from None
        seed = r.raw("seed", None)
        if seed is not None:
            seed = r.integer("seed", 0, 2**63 - 1)
        state._setup(game, read_dice(obj, dice, game.die_faces), seed, options)
        r.present("dice", None)
        plan = state.plan
        step = r.text("step", plan.ids(), default=plan.steps[0].id)
        half = r.integer("half", 0, 1, default=0)
        try:
            state.step_index = plan.index(step, half)
        except KeyError:
            r.fail("half", f"step {step!r} has no half {half}")
        state.turn = r.integer("turn", 1, 10_000, default=1)
        state.entered = r.flag("entered", default=False)
        state._ply = r.integer("ply", 0, 10**9, default=0)
        result = r.raw("result", None)
        if result is not None:
            rr = Reader(result, "result")
            winner = rr.raw("winner", None)  # null: a draw
            if winner is not None:
                winner = rr.text("winner", game.sides)
            state.result = Result(winner, rr.text("cause", default=""))
            rr.done()
        layout = Layout.of(cls)
        rest = {k: v for k, v in obj.items() if k not in r.read}
        bad = layout.unknown(rest)
        if bad is not None:
            r.fail(bad, "unknown field")
        layout.load(rest, state, "", into=state)
        state.changed()
        state.check_position()
        state.begin([], move_on=move_on)
        return state

    # -- the engine --------------------------------------------------------------------------------

    def play(self, action: Action, events: list[Event]) -> None:
        """Check and carry out one action, then move on through steps nobody decides in."""
        rules = self.rules()
        end = self.end_action
        if is_end(action, end) and not self.pending and rules.offers_end:
            if not rules.may_end(self):
                raise self.end_refused(rules)
            self.changed()
            self.finish_step(events)
        elif rules.is_legal(self, action):
            self.changed()
            rules.do(self, action, events)
        else:
            raise rules.explain(self, action)
        self.advance(events)

    def end_refused(self, rules: Phase) -> IllegalAction:
        """Why `end` is refused now (`rules.may_end` said no): the phase's own explanation."""
        blocker = rules.end_blocker(self)
        if blocker is None:
            raise AssertionError(f"{type(rules).__name__} refuses `end` without saying why")
        return blocker

    def begin(self, events: list[Event], move_on: bool = True) -> None:
        """Run the current step's entry work unless it is done (a new game, or a position
        written at the start of a step, `entered` false), then move on to the first real
        decision (unless `move_on` is false). New games and loaded positions both start here,
        so a hand-written position at the start of a step is the position a player expects."""
        if not self.entered:
            self.enter_step(events)
        if move_on:
            self.advance(events)
        self.changed()

    def advance(self, events: list[Event]) -> None:
        """Move on through every step in which nobody has anything to decide."""
        self.changed()
        end = self.end_action
        while self.result is None:  # `is_terminal`, read as the loop goes
            rules = self.rules()
            forced = rules.forced(self)
            if forced is not None:
                rules.do(self, forced, events)
                self.changed()
                continue
            if self.pending:
                return
            choice = rules.has_choice(self)
            if choice:
                return
            if choice is None:
                acts = self.listed()
                if not (len(acts) == 1 and is_end(acts[0], end) and rules.offers_end):
                    return
            self.finish_step(events)
        self.changed()

    def finish_step(self, events: list[Event]) -> None:
        """Leave the current step and enter the next (after the last, the next turn's first)."""
        self.step_rules()[self.step_index].leave(self, events)
        self.changed()
        if self.is_terminal():
            return
        plan = self.plan
        index = self.step_index + 1
        if index == len(plan.steps):
            index = plan.first_turn_step
            self.turn += 1
        self.step_index = index
        self.enter_step(events)

    def enter_step(self, events: list[Event]) -> None:
        step = self.current_step
        self.entered = True
        self.changed()
        events.append(
            Event(
                "step",
                f"{self.turn_label}: {step.name}",
                {"turn": self.turn, "step": step.id, "side": self.side_of(step)},
            )
        )
        self.step_rules()[self.step_index].enter(self, events)
        self.changed()


def is_end(action: Action, end: Action) -> bool:
    """Whether `action` is the game's `end`: the same object, or an equal one of its type (an
    action of another type never is one: actions are values compared within their type, and
    most actions played are not the end, so most are told apart without comparing fields)."""
    return action is end or (type(action) is type(end) and action == end)


class SequencedGame(Game):
    """A game run by the sequence engine: its sequence of play is `sequence.toml` in its
    data directory, its phases live in `rules_package`."""

    _sequence: SequenceSpec | None = None

    def sequence(self) -> SequenceSpec:
        """The game's sequence of play, read once with its data."""
        if self._sequence is None:
            path = self.data_dir / "sequence.toml"
            self._sequence = load_sequence(path, self.sides, list(self.options), self.rules_prefix)
        return self._sequence


@cache
def _rules(package: str, ref: str) -> Phase:
    module_name, _, attr = ref.partition(":")
    module = importlib.import_module(f"{package}.{module_name}")
    found = getattr(module, attr or "PHASE")
    if not isinstance(found, Phase):
        raise TypeError(f"{package}.{module_name}:{attr or 'PHASE'} is not a Phase")
    return found
