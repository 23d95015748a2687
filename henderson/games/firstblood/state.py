"""A FIRST BLOOD position: where every counter is and what is owed next.

Its fields are declared once (`core.fields`): clone, key, the JSON position (version 2,
docs/firstblood.md) and its loading come from the declaration. The kit's engine
(`core.sequence`) moves it through the sequence of play of `data/sequence.toml` with the
phases of `rules/`; the decisions a side owes before play goes on (losses, retreats, an
advance, landings) are `pending`, the last one decided first.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, cast

from henderson.core.dice import Dice
from henderson.core.errors import PositionError
from henderson.core.events import Event
from henderson.core.fields import field
from henderson.core.game import Action, other_side
from henderson.core.sequence import Decision, Phase, Plan, Sequenced
from henderson.games.firstblood import actions as A
from henderson.games.firstblood.board import Board
from henderson.games.firstblood.model import SIDES, FBData

if TYPE_CHECKING:
    from henderson.games.firstblood.game import FBGame
    from henderson.games.firstblood.rules.combat import Duties
    from henderson.games.firstblood.rules.movement import MoveLists
else:
    MoveLists = Duties = object  # cache fields' types, never encoded: only the type checker needs them

MAX_COUNTERS = 500  # no list of counters of a position comes near it
MAX_HALF_MF = 40  # half movement factors: twice the largest printed MF, and some
PLACES_US_AIR = ("usaf_reserve", "usaf_cap", "usaf_ground_attack", "returning")
PLACES_JP_AIR = ("ijaf_reserve", "ijaf_attack")


class Status(enum.StrEnum):
    """An airfield hex's state (FB 9.5.3, 10.3, 11.2, 12.6, 12.6.1, 13.3.3)."""

    OPERATIONAL = "operational"
    DAMAGED = "damaged"  # by artillery: repaired in one turn
    DESTROYED = "destroyed"  # by air, naval or ground attack: rebuilt in two
    UNBUILT = "unbuilt"  # a Fighter Strip hex not yet constructed


class Specials(enum.StrEnum):
    """The special IJN box (FB 10.1): committed once, from its earliest turn on."""

    UNAVAILABLE = "unavailable"
    AVAILABLE = "available"
    COMMITTED = "committed"


class ShipBox(enum.StrEnum):
    """Where a Japanese ship waits (FB 10.1)."""

    RESERVE = "ijn_reserve"
    ATTACK = "ijn_attack"


# -- checks of a loaded position against the game's data (core.fields check=) -------------------


def _counters(st: FBState, units: Any, where: str) -> None:
    data = st.data
    for u in units:
        if u not in data.ground and u not in data.air and u not in data.ships:
            raise PositionError(where, f"no such counter {u!r}")


def _ground_units(st: FBState, units: Any, where: str) -> None:
    for u in units:
        if u not in st.data.ground:
            raise PositionError(where, f"no such ground unit {u!r}")


def _hexes(st: FBState, hexes: Any, where: str) -> None:
    for h in hexes:
        if h not in st.board.terrain:
            raise PositionError(where, f"{h!r} is not a hex of the map")


def _defenders(st: FBState, hexes: Any, where: str) -> None:
    if not hexes:
        raise PositionError(where, "an attack is on one hex or more (FB 8.2)")
    _hexes(st, hexes, where)


def _ground(st: FBState, ground: dict[str, str], where: str) -> None:
    """Each ground unit on a hex, in a box (Japanese only, FB 6.0) or on its side's entry
    point (FB 7.1, 7.2); US and Japanese units never share a hex (FB 5.1); at most three a
    hex outside the movement phases (FB 5.0)."""
    data, board = st.data, st.board
    sides: dict[str, set[str]] = {}
    count: dict[str, int] = {}
    for unit, place in ground.items():
        g = data.ground.get(unit)
        here = f"{where}.{unit}"
        if g is None:
            raise PositionError(here, "no such ground unit")
        if board.on_map(place):
            sides.setdefault(place, set()).add(g.side)
            count[place] = count.get(place, 0) + 1
        elif place in board.box_arrows:
            if g.side != "jp":
                raise PositionError(here, "only Japanese units use the off-board boxes (FB 6.0)")
        elif place in board.ep_side:
            if board.ep_side[place] != g.side:
                raise PositionError(here, f"{place} is an entry point of the other side (FB 7.1, 7.2)")
        else:
            raise PositionError(here, f"{place!r} is not a hex of the map, a box A-D or an entry point EP1-EP17")
    for place, found in sides.items():
        if len(found) > 1:
            raise PositionError(where, f"US and Japanese units share hex {place} (FB 5.1)")
    if not st.step.endswith("_movement"):
        for place, n in count.items():
            if n > 3:
                raise PositionError(where, f"{n} ground units in {place} (FB 5.0: at most 3)")


def _air(st: FBState, air: dict[str, str], where: str) -> None:
    data, board = st.data, st.board
    for unit, place in air.items():
        a = data.air.get(unit)
        if a is None:
            raise PositionError(f"{where}.{unit}", "no such air unit")
        allowed = PLACES_US_AIR if a.side == "us" else PLACES_JP_AIR
        if not (place in allowed or (a.side == "us" and place in board.airfield_hexes)):
            raise PositionError(f"{where}.{unit}", f"{place!r} is not a place for a {a.side.upper()} air unit")


def _ships(st: FBState, ships: dict[str, ShipBox], where: str) -> None:
    for unit in ships:
        if unit not in st.data.ships:
            raise PositionError(f"{where}.{unit}", "no such ship")


def _airfields(st: FBState, airfields: dict[str, Status], where: str) -> None:
    for h in airfields:
        if h not in st.board.airfield_hexes:
            raise PositionError(f"{where}.{h}", "not an airfield or Fighter Strip hex")


def _boxes_visited(st: FBState, visited: dict[str, str], where: str) -> None:
    _ground_units(st, visited, where)
    for unit, boxes in visited.items():
        if any(b not in st.board.box_arrows for b in boxes) or len(set(boxes)) != len(boxes):
            raise PositionError(f"{where}.{unit}", f"{boxes!r} is not a list of boxes A-D, each once (FB 6.0)")


def _fb_rule(st: FBState, rule: str, where: str) -> None:
    if not rule.startswith("FB "):
        raise PositionError(where, f"{rule!r} is not a rule of FIRST BLOOD (FB ...)")


# -- the decisions a side owes -----------------------------------------------------------------


@dataclass
class FBDecision(Decision):
    """Something one side must decide before play goes on; the owner always decides for
    his own units (FB 8.10), even in the other side's phase."""

    units: list[str] = field(factory=list, check=_counters)
    rule: str = field("FB 8.10", check=_fb_rule)  # the rule that calls for it


@dataclass
class Lose(FBDecision):
    """Lose `count` of `units` (combat FB 8.10, supply FB 14.1, overstacking FB 7.5.4, air
    and bombardment FB 13.3.3, 8.10.1); `retreat`: the units that retreat once the losses
    are taken (FB 8.10: A1, A2, EX, D1), those still in play."""

    kind: ClassVar[str] = "lose"
    rules: ClassVar[str] = "decisions:LOSE"
    count: int = field(1, lo=0, hi=MAX_COUNTERS)
    retreat: list[str] = field(factory=list, check=_ground_units)


@dataclass
class Retreat(FBDecision):
    """Retreat each of `units` (FB 8.10-8.12, 8.2.3)."""

    kind: ClassVar[str] = "retreat"
    rules: ClassVar[str] = "decisions:RETREAT"


@dataclass
class Advance(FBDecision):
    """After DE the attackers may occupy the vacated `hexes` (FB 8.10)."""

    kind: ClassVar[str] = "advance"
    rules: ClassVar[str] = "decisions:ADVANCE"
    hexes: list[str] = field(factory=list, check=_hexes)


@dataclass
class Entry(FBDecision):
    """Attackers out of an entry point or box enter the emptied `hexes`, or die (FB 7.5.3);
    nothing to choose, it waits only for the losses decided before it."""

    kind: ClassVar[str] = "entry"
    rules: ClassVar[str] = "decisions:ENTRY"
    hexes: list[str] = field(factory=list, check=_hexes)


@dataclass
class Land(FBDecision):
    """US aircraft back from CAP and Ground Attack land on the strips (FB 13.7)."""

    kind: ClassVar[str] = "land"
    rules: ClassVar[str] = "decisions:LAND"


# -- combat phase bookkeeping --------------------------------------------------------------------


@dataclass(frozen=True)
class Building:
    """An attack being put together with `add` before it is resolved (FB 8.2, 9.x, 10.4).
    Never changed in place (a unit joining makes a new one), so a clone of the position
    shares it."""

    defenders: tuple[str, ...] = field(check=_defenders)
    attackers: tuple[str, ...] = field(factory=tuple, check=_ground_units)
    artillery: tuple[str, ...] = field(factory=tuple, check=_ground_units)
    ships: tuple[str, ...] = field(factory=tuple, check=_counters)
    air: tuple[str, ...] = field(factory=tuple, check=_counters)  # US bombers from the Ground Attack box (FB 7.5)

    def spec(self) -> A.Attack:
        return A.Attack(self.defenders, self.attackers, self.artillery, self.ships, self.air)

    def joined(self, kind: str, unit: str) -> Building:
        """This attack with `unit` joined as `kind` (attacker, artillery, ship or air, as
        `combat.classify` names the part it takes)."""
        attackers, artillery, ships, air = self.attackers, self.artillery, self.ships, self.air
        if kind == "attacker":
            attackers = (*attackers, unit)
        elif kind == "artillery":
            artillery = (*artillery, unit)
        elif kind == "ship":
            ships = (*ships, unit)
        elif kind == "air":
            air = (*air, unit)
        else:
            raise ValueError(f"no part of an attack is called {kind!r}")
        return Building(self.defenders, attackers, artillery, ships, air)


@dataclass(frozen=True)
class Combat:
    """What a combat phase keeps (FB 8.1, 8.2, 9.4): who attacked, what was attacked, the
    duties owed since the start of the phase, and the attack being built. Never changed in
    place (each change makes a new record), so a clone of the position shares it."""

    attacked: frozenset[str] = field(factory=frozenset, check=_counters)  # units that attacked or fired (FB 9.4)
    attacked_hexes: frozenset[str] = field(factory=frozenset, check=_hexes)  # hexes attacked this phase (FB 8.4)
    must_attack: frozenset[str] = field(factory=frozenset, check=_ground_units)  # in an enemy ZOC at the start (FB 8.2)
    must_defend: frozenset[str] = field(factory=frozenset, check=_hexes)  # enemy hexes in its ZOC (FB 8.2)
    building: Building | None = None

    def with_building(self, building: Building | None) -> Combat:
        """This record with `building` the attack being built (None: no attack is)."""
        return Combat(self.attacked, self.attacked_hexes, self.must_attack, self.must_defend, building)


# -- the position ------------------------------------------------------------------------------


@dataclass(eq=False, init=False)
class FBState(Sequenced):
    """One FIRST BLOOD position; see docs/firstblood.md for its JSON form."""

    VERSION: ClassVar[int] = 2
    # every phase refuses in `is_legal`, `accepts` or `end_blocker`, before `do` changes anything
    checks_before_changing: ClassVar[bool] = True

    ground: dict[str, str] = field(factory=dict, check=_ground, doc="ground unit -> hex, box A-D or entry point")
    mf: dict[str, int] = field(
        factory=dict, json="half_mf", lo=0, hi=MAX_HALF_MF, check=_ground_units, doc="movement left, in half MF"
    )
    visited: dict[str, str] = field(
        factory=dict, json="boxes_visited", check=_boxes_visited, doc="Japanese unit -> boxes it has been in (FB 6.0)"
    )
    # held, moved, inverted, air_moved, disturbed change a few times a turn: frozen (each change
    # makes a new set), a clone shares them
    held: frozenset[str] = field(factory=frozenset, check=_ground_units, doc="placed in Box A or D this turn (FB 7.2)")
    moved: frozenset[str] = field(
        factory=frozenset, check=_ground_units, doc="ground units that moved or were placed this turn"
    )
    air: dict[str, str] = field(factory=dict, check=_air, doc="air unit -> airstrip hex or holding box")
    inverted: frozenset[str] = field(factory=frozenset, check=_counters, doc="US air units turned over (FB 13.6, 13.7)")
    air_moved: frozenset[str] = field(
        factory=frozenset, check=_counters, doc="US air units moved this air phase (FB 13.7)"
    )
    bombing: dict[str, str] = field(factory=dict, check=_counters, doc="US bomber -> Japanese-held hex (FB 13.6)")
    ships: dict[str, ShipBox] = field(factory=dict, check=_ships, doc="ship -> IJN box")
    airfield: dict[str, Status] = field(factory=dict, json="airfields", check=_airfields, doc="airfield hex -> status")
    work: dict[str, int] = field(
        factory=dict, json="engineer_work", lo=0, hi=2, check=_airfields, doc="turns of work done (FB 11.2)"
    )
    workers: dict[str, str] = field(
        factory=dict, check=_ground_units, doc="US unit -> airfield hex it stood in at the start of the turn (FB 11.4)"
    )
    disturbed: frozenset[str] = field(
        factory=frozenset, check=_hexes, doc="hexes attacked or bombarded this turn (FB 11.4)"
    )
    specials: Specials = field(Specials.UNAVAILABLE, doc="the special IJN box (FB 10.1)")
    to_place: list[str] = field(factory=list, check=_counters, doc="counters still to place, in order")
    combat: Combat = field(factory=Combat, doc="the combat phase's bookkeeping")
    pending: list[FBDecision] = field(factory=list, doc="decisions owed, the last one first")
    eliminated: tuple[str, ...] = field(factory=tuple, check=_counters, doc="counters out of play, in order")
    supply_credit: int = field(0, lo=0, hi=MAX_COUNTERS, doc="FB 7.5.4 losses that meet the next supply loss")
    # speed devices: the movement phase's searches (shared by clones: the enemy does not move
    # in one's own movement phase) and other answers kept whole with all they depend on in
    # their keys; and the legal moves kept move by move (one state's only)
    reach_cache: dict[tuple[Any, ...], Any] = field(factory=dict, cache="share")
    move_lists: MoveLists | None = field(None, cache="reset")
    # the combat phase's listing with no attack being built, until the combat phase's next
    # action: kept while an attack is built and taken back if it is cancelled (see combat.py)
    combat_listing: tuple[Action, ...] | None = field(None, cache="share")
    # the duties of mandatory combat of the position, kept as long as the combat listing is
    combat_duties: Duties | None = field(None, cache="share")
    # the ground units that may join an attack on each set of defenders asked about, kept as
    # long as the duties are (building an attack changes nothing for them)
    joinable: dict[tuple[str, ...], tuple[str, ...]] | None = field(None, cache="share")

    def _setup(self, game: Any, dice: Dice, seed: int | None, options: dict[str, Any]) -> None:
        super()._setup(game, dice, seed, options)
        self.data: FBData = game.data
        self.board: Board = game.board
        self.occ: dict[str, tuple[str, ...]] = {}  # place -> units there, kept in step with `ground`
        self._plan: Plan = super().plan  # the options never change: found once, not at every question
        # the rules of each step of the plan, found once (asked at every action and listing)
        self._phases: tuple[Phase, ...] = tuple(self.rules_named(step.phase) for step in self._plan.steps)

    @property
    def plan(self) -> Plan:
        return self._plan

    def rules(self) -> Phase:
        """The rules in charge now, as the kit finds them: the last pending decision's, else
        the current step's (read from the table made with the plan)."""
        if self.pending:
            return self.rules_named(self.pending[-1].rules)
        return self._phases[self.step_index]

    # --- the kit's protocol ---------------------------------------------------------------

    @property
    def game(self) -> FBGame:
        return cast("FBGame", self._game)

    @property
    def end_action(self) -> A.End:
        return END

    @property
    def turn_label(self) -> str:
        """The turn as the Turn Record Chart names it (FB 2.0): SEP I is turn 1."""
        return self.data.turns[self.turn - 1]

    @property
    def phasing(self) -> str:
        """The side whose step it is (asked often: read straight from the plan)."""
        return self._plan.steps[self.step_index].side

    def clone(self) -> FBState:
        """The kit's copy of the declared fields (the plan among them), with the game's data,
        the board, the rules of each step and a copy of the occupancy index."""
        other = super().clone()
        d, s = other.__dict__, self.__dict__
        d["data"] = s["data"]
        d["board"] = s["board"]
        d["_phases"] = s["_phases"]
        d["occ"] = s["occ"].copy()  # tuples: shared safely
        return cast(FBState, other)

    def check_position(self) -> None:
        """Rebuild the occupancy index, fill in what a hand-written position may leave out
        (the airfields as printed, the box a Japanese unit stands in among those it has
        visited), and check across fields: turn, movement, stacking (FB 5.0)."""
        if self.turn > len(self.data.turns):
            raise PositionError("turn", f"turn {self.turn} is past {self.data.turns[-1]} (turn {len(self.data.turns)})")
        where: dict[str, str] = {}  # a counter is in one place only: on the map, to place, or eliminated
        for name, units in (
            ("ground", list(self.ground)),
            ("air", list(self.air)),
            ("ships", list(self.ships)),
            ("to_place", self.to_place),
            ("eliminated", self.eliminated),
        ):
            for unit in units:
                if unit in where:
                    raise PositionError(f"{name}.{unit}", f"the counter is in {where[unit]} already")
                where[unit] = name
        for unit, place in self.ground.items():
            self.occ[place] = (*self.occ.get(place, ()), unit)
        for af in self.data.map.airfields.values():
            for h in af.hexes:
                self.airfield.setdefault(h, Status.OPERATIONAL if af.built else Status.UNBUILT)
        for unit, place in self.ground.items():
            if place in self.board.box_arrows and place not in self.visited.get(unit, ""):
                self.visited[unit] = self.visited.get(unit, "") + place
        moving = self.step.endswith("_movement")
        if self.mf and not moving:
            raise PositionError("half_mf", "movement left is only kept during a movement phase")
        for unit in self.mf:
            if unit not in self.ground or self.data.ground[unit].side != self.phasing:
                raise PositionError(f"half_mf.{unit}", "not a unit that can move in this phase")
        if moving and not self.pending:
            from henderson.games.firstblood.rules.stacking import Stacking, overfull

            probe = self
            if not self.entered:  # the movement left once the step's entry work is done
                probe = self.clone()
                self.rules_named(self.current_step.phase).enter(probe, [])
            over = overfull(probe)
            if over and not Stacking(probe).ok:
                raise PositionError(
                    "ground",
                    f"{len(self.at(over[0]))} ground units in {over[0]}, and the moves left could not bring every "
                    "hex within the limit of 3 by the end of the movement phase (FB 5.0)",
                )

    def invariant_errors(self) -> list[str]:
        from henderson.games.firstblood.invariants import errors

        return errors(self)

    # --- queries the rules share ----------------------------------------------------------

    def at(self, place: str) -> tuple[str, ...]:
        return self.occ.get(place, ())

    def hexes_of(self, side: str) -> set[str]:
        """Map hexes holding ground units of `side`."""
        terrain = self.board.terrain
        ground = self.data.ground
        return {p for p, us in self.occ.items() if us and p in terrain and ground[us[0]].side == side}

    def owner_of_hex(self, hex_id: str) -> str | None:
        units = self.occ.get(hex_id)
        return self.data.ground[units[0]].side if units else None

    def cf(self, unit: str) -> int:
        return self.data.ground[unit].cf

    # --- changing the position (all changes of place go through these) ---------------------

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
            self.inverted -= {unit}
            self.bombing.pop(unit, None)
        elif unit in self.ships:
            del self.ships[unit]
        self.eliminated = (*self.eliminated, unit)  # a new tuple: clones share the old one
        events.append(Event("eliminated", f"{unit} eliminated: {why} ({rule})", {"unit": unit, "rule": rule}))


END = A.End()


def enemy_of(side: str) -> str:
    """The other side."""
    return other_side(SIDES, side)
