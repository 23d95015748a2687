"""A FIRST BLOOD position and the engine that moves it forward.

The state holds where every counter is and what must be decided next; the rules
modules (`rules/`) say what is legal and what happens. `legal_actions()` is the
single source of legality: `apply` accepts exactly those actions (plus the
convenience forms `move ... via` and a whole `attack`), and when it refuses one
it asks the rules why, so the message names the rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from henderson.core.dice import Dice
from henderson.core.events import Event, roll_event
from henderson.core.game import State
from henderson.games.firstblood import actions as A
from henderson.games.firstblood.board import Board
from henderson.games.firstblood.model import FBData

if TYPE_CHECKING:
    from henderson.games.firstblood.game import FirstBlood
    from henderson.games.firstblood.rules.movement import MoveLists

OTHER = {"us": "jp", "jp": "us"}


@dataclass
class Decision:
    """Something one side must decide before play goes on: losses, retreats, an advance,
    a landing, a supply loss. `kind` names it; the rest says what it is about."""

    kind: str  # "lose", "retreat", "advance", "land", "air-loss"
    side: str
    units: list[str] = field(default_factory=list)  # candidates (lose) or units to act (retreat)
    count: int = 0  # how many to lose
    hexes: list[str] = field(default_factory=list)  # vacated hexes (advance), target hex (air-loss)
    rule: str = ""
    then: str = ""  # what happens once the losses are taken: "retreat" the survivors, or ""
    survivors: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "side": self.side,
            "units": list(self.units),
            "count": self.count,
            "hexes": list(self.hexes),
            "rule": self.rule,
            "then": self.then,
            "survivors": list(self.survivors),
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Decision:
        return cls(
            kind=str(obj["kind"]),
            side=str(obj["side"]),
            units=[str(u) for u in obj.get("units", [])],
            count=int(obj.get("count", 0)),
            hexes=[str(h) for h in obj.get("hexes", [])],
            rule=str(obj.get("rule", "")),
            then=str(obj.get("then", "")),
            survivors=[str(u) for u in obj.get("survivors", [])],
        )

    def copy(self) -> Decision:
        return Decision(
            self.kind,
            self.side,
            list(self.units),
            self.count,
            list(self.hexes),
            self.rule,
            self.then,
            list(self.survivors),
        )


@dataclass
class Building:
    """An attack being put together with `add` before it is resolved (FB 8.2, 9.x, 10.4)."""

    defenders: tuple[str, ...]
    attackers: list[str] = field(default_factory=list)
    artillery: list[str] = field(default_factory=list)
    ships: list[str] = field(default_factory=list)
    air: list[str] = field(default_factory=list)  # US bombers from the Ground Attack box (FB 7.5)

    def spec(self) -> A.Attack:
        return A.Attack(
            self.defenders, tuple(self.attackers), tuple(self.artillery), tuple(self.ships), tuple(self.air)
        )


class FBState(State):
    """One FIRST BLOOD position; see docs/firstblood.md for its JSON form."""

    def __init__(self, game: FirstBlood, dice: Dice, seed: int | None, options: dict[str, Any]) -> None:
        self._game = game
        self.data: FBData = game.data
        self.board: Board = game.board
        self.dice = dice
        self.seed = seed
        self.options = options
        self._ply = 0
        self.turn_index = 0  # index into data.turns
        self.phase = "us_setup"
        self.ground: dict[str, str] = {}  # unit -> hex, box "A".."D" or "EP<n>"
        self.occ: dict[str, tuple[str, ...]] = {}  # place -> units there (kept in step with `ground`)
        self.mf: dict[str, int] = {}  # remaining movement, in half-MF, this movement phase
        self.visited: dict[str, str] = {}  # Japanese unit -> boxes it has been in, e.g. "AB" (FB 6.0)
        self.held: set[str] = set()  # placed in box A/D this turn: may not move (FB 7.2)
        self.moved: set[str] = set()  # ground units that moved (or were placed) this turn
        self.air: dict[str, str] = {}  # air unit -> hex or holding box id
        self.inverted: set[str] = set()  # US air units turned over (FB 13.6, 13.7)
        self.bombing: dict[str, str] = {}  # US bomber -> Japanese-held hex it is placed on (FB 13.6)
        self.air_moved: set[str] = set()  # US air units moved this air phase (FB 13.7)
        self.ships: dict[str, str] = {}  # ship -> ijn_reserve / ijn_attack
        self.airfield: dict[str, str] = {}  # airfield hex -> operational / damaged / destroyed / unbuilt
        self.work: dict[str, int] = {}  # airfield hex -> turns of engineer work done (FB 11.2)
        self.workers: dict[str, str] = {}  # US unit -> airfield hex it stood in at the start of the turn
        self.disturbed: set[str] = set()  # hexes attacked or bombarded this turn (FB 11.4)
        self.specials = "unavailable"  # special IJN box: unavailable / available / committed (FB 10.1)
        self.to_place: list[str] = []  # counters still to place in this set-up or reinforcement phase
        self.attacked: set[str] = set()  # units that attacked this combat phase (FB 9.4)
        self.attacked_hexes: set[str] = set()  # hexes attacked this combat phase
        self.must_attack: set[str] = set()  # units in an enemy ZOC at the start of the combat phase (FB 8.2)
        self.must_defend: set[str] = set()  # hexes of enemy units in the phasing side's ZOC (FB 8.2)
        self.building: Building | None = None
        self.pending: list[Decision] = []
        self.eliminated: list[str] = []  # counters out of play, in order
        self.supply_credit = 0  # FB 7.5.4 losses that count towards the next supply loss
        self.winner_side: str | None = None
        self.cause = ""
        # memo of answers that hold for the rest of a phase (movement: reach per unit, place, MF)
        self.reach_cache: dict[tuple[Any, ...], list[Any]] = {}
        self.move_lists: MoveLists | None = None  # this state's legal moves, while in a movement phase
        self._legal: list[A.FBAction] | None = None
        self._legal_set: set[A.FBAction] | None = None  # built only when an outside action is checked

    # --- the protocol -------------------------------------------------------------

    @property
    def game(self) -> FirstBlood:
        return self._game

    @property
    def ply(self) -> int:
        return self._ply

    @property
    def turn(self) -> int:
        """The game turn counted from 1: SEP I is 1 (the set-up belongs to it)."""
        return self.turn_index + 1

    @property
    def turn_name(self) -> str:
        return self.data.turns[self.turn_index]

    @property
    def turn_label(self) -> str:
        return self.turn_name

    @property
    def step(self) -> str:
        """The current phase's id (FB 3.2 Sequence of Play)."""
        return self.phase

    @property
    def end_cause(self) -> str | None:
        return self.cause if self.winner_side is not None else None

    @property
    def phasing(self) -> str:
        """The side whose phase it is."""
        return self.phase.split("_", 1)[0]

    def current_player(self) -> str | None:
        if self.winner_side is not None:
            return None
        if self.pending:
            return self.pending[0].side
        return self.phasing

    def is_terminal(self) -> bool:
        return self.winner_side is not None

    def winner(self) -> str | None:
        return self.winner_side

    def legal_actions(self) -> list[A.FBAction]:
        if self._legal is None:
            from henderson.games.firstblood.rules import sequence

            self.set_legal([] if self.winner_side else sequence.legal(self))
        assert self._legal is not None
        return self._legal

    def _apply(self, action: A.FBAction) -> list[Event]:  # type: ignore[override]
        from henderson.games.firstblood.rules import sequence

        events: list[Event] = []
        sequence.play(self, action, events)
        self._ply += 1
        return events

    def set_legal(self, acts: list[A.FBAction] | None) -> None:
        """Remember (or forget) the legal actions of the current position."""
        self._legal = acts
        self._legal_ids = None
        self._legal_set = None

    def is_legal(self, action: A.FBAction) -> bool:
        """Whether `action` is among the legal actions. A move is checked directly against the
        mover's destinations (the long list of every unit's moves is never searched)."""
        if isinstance(action, A.Move) and not self.pending and self.phase.endswith("_movement"):
            from henderson.games.firstblood.rules import movement

            return movement.is_legal_move(self, action)
        acts = self.legal_actions()
        if self._legal_set is None:
            self._legal_set = set(acts)
        return action in self._legal_set

    def changed(self) -> None:
        """The position changed: the cached legal actions no longer hold."""
        self._legal = None
        self._legal_set = None

    def clone(self) -> FBState:
        other = FBState.__new__(FBState)
        other._game = self._game
        other.data = self.data
        other.board = self.board
        other.dice = self.dice.clone()
        other.seed = self.seed
        other.options = self.options
        other._ply = self._ply
        other.turn_index = self.turn_index
        other.phase = self.phase
        other.ground = dict(self.ground)
        other.occ = self.occ.copy()  # tuples: shared safely
        other.mf = dict(self.mf)
        other.visited = dict(self.visited)
        other.held = set(self.held)
        other.moved = set(self.moved)
        other.air = dict(self.air)
        other.inverted = set(self.inverted)
        other.bombing = dict(self.bombing)
        other.air_moved = set(self.air_moved)
        other.ships = dict(self.ships)
        other.airfield = dict(self.airfield)
        other.work = dict(self.work)
        other.workers = dict(self.workers)
        other.disturbed = set(self.disturbed)
        other.specials = self.specials
        other.to_place = list(self.to_place)
        other.attacked = set(self.attacked)
        other.attacked_hexes = set(self.attacked_hexes)
        other.must_attack = set(self.must_attack)
        other.must_defend = set(self.must_defend)
        b = self.building
        other.building = (
            None
            if b is None
            else Building(b.defenders, list(b.attackers), list(b.artillery), list(b.ships), list(b.air))
        )
        other.pending = [d.copy() for d in self.pending]
        other.eliminated = list(self.eliminated)
        other.supply_credit = self.supply_credit
        other.winner_side = self.winner_side
        other.cause = self.cause
        other.reach_cache = self.reach_cache  # shared: enemy units do not move during a movement phase
        other.move_lists = None  # rebuilt from reach_cache when needed
        other._legal = self._legal
        other._legal_set = self._legal_set
        return other

    def key(self, side: str | None = None) -> tuple[Any, ...]:
        """A hashable summary of the position, leaving out the dice and the ply count: two states
        have equal keys exactly when their positions (`to_json` less dice, seed and ply) are equal.
        FIRST BLOOD hides nothing, so every side knows the whole position. Search uses it to
        recognise positions cheaply."""
        b = self.building
        return (
            self.turn_index,
            self.phase,
            tuple(sorted(self.ground.items())),
            tuple(sorted(self.mf.items())),
            tuple(sorted(self.visited.items())),
            frozenset(self.held),
            frozenset(self.moved),
            tuple(sorted(self.air.items())),
            frozenset(self.inverted),
            frozenset(self.air_moved),
            tuple(sorted(self.bombing.items())),
            tuple(sorted(self.ships.items())),
            tuple(sorted(self.airfield.items())),
            tuple(sorted(self.work.items())),
            tuple(sorted(self.workers.items())),
            frozenset(self.disturbed),
            self.specials,
            tuple(self.to_place),
            frozenset(self.attacked),
            frozenset(self.attacked_hexes),
            frozenset(self.must_attack),
            frozenset(self.must_defend),
            None if b is None else (b.defenders, tuple(b.attackers), tuple(b.artillery), tuple(b.ships), tuple(b.air)),
            tuple(
                (d.kind, d.side, tuple(d.units), d.count, tuple(d.hexes), d.rule, d.then, tuple(d.survivors))
                for d in self.pending
            ),
            tuple(self.eliminated),
            self.supply_credit,
            self.winner_side,
            tuple(sorted(self.options.items())),
        )

    def to_json(self) -> dict[str, Any]:
        from henderson.games.firstblood.position import to_json

        return to_json(self)

    # --- queries the rules share ----------------------------------------------------

    def side_of(self, unit: str) -> str:
        g = self.data.ground.get(unit)
        if g is not None:
            return g.side
        a = self.data.air.get(unit)
        if a is not None:
            return a.side
        return "jp"  # ships

    def at(self, place: str) -> tuple[str, ...]:
        return self.occ.get(place, ())

    def hexes_of(self, side: str) -> set[str]:
        """Map hexes holding ground units of `side`."""
        terrain = self.board.terrain
        return {p for p, us in self.occ.items() if us and p in terrain and self.data.ground[us[0]].side == side}

    def zoc_of(self, side: str) -> set[str]:
        """Hexes in the zone of control of `side`'s ground units (FB 8.2)."""
        return self.board.zoc(self.hexes_of(side))

    def owner_of_hex(self, hex_id: str) -> str | None:
        units = self.occ.get(hex_id)
        return self.data.ground[units[0]].side if units else None

    def cf(self, unit: str) -> int:
        return self.data.ground[unit].cf

    # --- changing the position (all changes of place go through these) ---------------

    def put(self, unit: str, place: str) -> None:
        self.move_lists = None
        old = self.ground.get(unit)
        if old is not None:
            self._leave(unit, old)
        self.ground[unit] = place
        self.occ[place] = (*self.occ.get(place, ()), unit)

    def _leave(self, unit: str, place: str) -> None:
        left = tuple(u for u in self.occ[place] if u != unit)
        if left:
            self.occ[place] = left
        else:
            del self.occ[place]

    def remove(self, unit: str) -> None:
        self.move_lists = None
        old = self.ground.pop(unit, None)
        if old is not None:
            self._leave(unit, old)
        self.mf.pop(unit, None)
        self.workers.pop(unit, None)

    def eliminate(self, unit: str, rule: str, why: str, events: list[Event]) -> None:
        """A counter leaves play for good."""
        if unit in self.ground:
            self.remove(unit)
        elif unit in self.air:
            del self.air[unit]
            self.inverted.discard(unit)
            self.bombing.pop(unit, None)
        elif unit in self.ships:
            del self.ships[unit]
        self.eliminated.append(unit)
        events.append(Event("eliminated", f"{unit} eliminated: {why} ({rule})", {"unit": unit, "rule": rule}))

    def roll(self, purpose: str, events: list[Event]) -> int:
        value = self.dice.roll(purpose, 6)
        events.append(roll_event(purpose, 6, value))
        return value
