"""One AAG position: pieces, airfields, control, victory points and where the turn stands,
declared once as fields (`core.fields`); the kit's sequence engine (`core.sequence`) runs
the steps of `data/sequence.toml` through the phases of `rules/`.

The combat being fought is `battle`; the decisions it waits for (an attack to declare, the
unit a hit falls on) are the `pending` decisions. Each step is played by the first player
and then by the other (`half`); "first" and "second" are resolved from `first`, the
first-player marker, which passes every turn (AAG Regroup step 6).
"""

from __future__ import annotations

import bisect
import operator
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar

from henderson.core.dice import SEED_BITS, SeededDice
from henderson.core.errors import PositionError
from henderson.core.events import Event, roll
from henderson.core.fields import field, replaced
from henderson.core.sequence import Decision, Phase, Sequenced, Step
from henderson.games.aag.actions import END, Action, id_key
from henderson.games.aag.model import OPPONENT, SIDES, SUPPLY, Advantage, Category, GameData, Side, other
from henderson.games.aag.pieces import Piece

if TYPE_CHECKING:
    from henderson.games.aag.game import AAGGame
    from henderson.games.aag.rules.regroup import LandingRoom

# -- checks of a loaded position against the game's data -------------------------------------------


def _both_sides(state: Any, value: Mapping[str, Any], where: str) -> None:
    if set(value) != set(SIDES):
        raise PositionError(where, "expected an object with 'us' and 'jp'")


def _island(state: Any, value: str, where: str) -> None:
    if value not in state.data.board.islands:
        raise PositionError(where, f"unknown island {value!r}")


def _zone(state: Any, value: str | None, where: str) -> None:
    if value is not None and value not in state.data.board.zone_ids():
        raise PositionError(where, f"unknown zone {value!r}")


def _zones(state: Any, value: list[str], where: str) -> None:
    for i, zone in enumerate(value):
        _zone(state, zone, f"{where}[{i}]")


def _control(state: Any, value: Mapping[str, Side], where: str) -> None:
    for island in value:
        _island(state, island, f"{where}.{island}")
    for island in state.data.board.islands:
        if island not in value:
            raise PositionError(where, f"no side controls {island}")


def _pieces(state: Any, value: Mapping[str, Piece], where: str) -> None:
    for pid, p in value.items():
        if p.id != pid:
            raise PositionError(f"{where}.{pid}.id", f"a piece is listed under its own id, not {p.id!r}")


def _unit_types(state: Any, value: Mapping[str, tuple[str, ...]], where: str) -> None:
    for side, kinds in value.items():
        for kind in kinds:
            if kind not in state.data.units:
                raise PositionError(f"{where}.{side}", f"{kind!r} is not a unit type")


# -- the records of a position ----------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Airfield:
    """An airfield marker on an island: whose it is, and whether it is damaged. Frozen, so a
    clone shares the markers (a change puts a new one in its place: `AAGState.change_airfield`)."""

    island: str = field(check=_island)
    side: Side
    damaged: bool = False


@dataclass(frozen=True, kw_only=True)
class Roll:
    """A hit rolled in a battle and not yet assigned: its neck slot and the die (1 or 2;
    3 under Banzai Charge) (AAG Declare Your Hits)."""

    slot: int = field(lo=1, hi=12)
    value: int = field(lo=1, hi=6)


@dataclass(kw_only=True)
class Battle:
    """The combat being fought in one zone: both sides attack in turn (`stage` 0: the first
    player, 1: the other), then the casualties are removed (AAG Combat). An Amphibious
    Assault (AAG Appendix 1) is one attack by `attacker` alone, with the units it unloaded
    on the island, against land units only."""

    zone: str = field(check=_zone)
    category: Category
    attacker: Side  # the side whose attack is being declared or rolled
    stage: int = field(0, lo=0, hi=2)
    assault: bool = False
    dice: list[Roll] = field(factory=list)  # hits rolled and still to assign, in slot order


@dataclass(frozen=True, kw_only=True)
class InForce:
    """An advantage spent this turn whose effect lasts until the turn ends (AAG Appendix 1):
    where it applies (a zone, a combat category, the unit type Coast Watchers defers), and
    for Command Decision whether the repeated combat has been fought. Frozen, so a clone
    shares the records (a change puts a new one in its place)."""

    token: Advantage
    side: Side
    zone: str | None = field(None, check=_zone)
    category: Category | None = None
    unit: str | None = None
    done: bool = False


@dataclass
class AAGDecision(Decision):
    """A decision of AAG that play waits for, owed by `side`."""


@dataclass
class Declare(AAGDecision):
    """The attacker declares its attack in the battle's zone: ranged units that join it,
    air units and ships aimed at the airfields, then `roll` (AAG Determine Total Attack
    Power, Ranged Fire, Combat step 4). Pending only while there is something to declare."""

    kind: ClassVar[str] = "declare"
    rules: ClassVar[str] = "battle:DECLARE"


@dataclass(kw_only=True)
class HitChoice(AAGDecision):
    """Which unit of the type hit takes the hit, among units that differ: on a 1 the
    attacker chooses, on a 2 the defender (AAG Declare Your Hits, Loss of Cargo)."""

    kind: ClassVar[str] = "hit"
    rules: ClassVar[str] = "battle:HIT"
    value: int = field(lo=1, hi=3)  # the die: 1, 2, or 3 under Banzai Charge
    slot: int = field(lo=1, hi=12)
    type: str  # the unit type hit
    candidates: list[str]  # the units of that type the hit may fall on


# what the rules found from one zone's list of pieces, by what they asked: (the list, the answer)
Memo = dict[tuple[str, str], tuple[list[Piece], list[Piece]]]


@dataclass
class ZoneIndex:
    """A speed device: the pieces in play by zone, by carrying ship and by unit type, each
    list in id order (the order of `AAGState.pieces`). Built when legal actions are listed
    and kept up to date as pieces change (`AAGState.update`, `remove`, `new_piece`). A clone
    shares it, marked `shared`: then whichever position changes a piece first works on a
    copy of the dicts (`put`); a list is never changed in place, only replaced."""

    by_zone: dict[str, list[Piece]]
    by_ship: dict[str, list[Piece]]
    by_kind: dict[str, list[Piece]]
    shared: bool = False  # held by a position and its clone: change a copy, not this one
    # what the rules found from one zone's list, by what they asked: (the list, the answer);
    # it holds while the zone's list is that very list (lists are replaced, never changed),
    # so the copies of an index share it
    memo: Memo = field(factory=dict)
    # a side's pieces of several types in id order (`AAGState.of_kind`), by side and types:
    # (the types' lists, the pieces); it holds while the lists are those very lists
    mixes: dict[tuple[str, tuple[str, ...]], tuple[tuple[list[Piece] | None, ...], list[Piece]]] = field(factory=dict)
    # what a side's ships at its base may load (`rules.reinforce.base_loads`), by side: (the
    # lists of its base's sea and land zones, the loads); it holds while those lists do
    loads: dict[str, tuple[list[Piece] | None, list[Piece] | None, list[Action]]] = field(factory=dict)

    def copy(self) -> ZoneIndex:
        """A copy of the dicts that one position may change (the lists are shared, and so are
        the memos, each answer kept with the lists it holds for)."""
        by_zone, by_ship, by_kind = dict(self.by_zone), dict(self.by_ship), dict(self.by_kind)
        return ZoneIndex(by_zone, by_ship, by_kind, memo=self.memo, mixes=self.mixes, loads=self.loads)

    def put(self, old: Piece | None, new: Piece | None) -> None:
        """Take piece `old` (None: none) out and put `new` (None: none) in, in place: each
        list that changes is replaced by a new one. Where both belong to one list (the same
        zone, type or ship), the new piece takes the old one's place in it: what taking one
        out and putting the other in gives, since they share an id and so a place."""
        gone = old if old is not None and not old.damaged else None  # a damaged piece: in no zone, of no type
        come = new if new is not None and not new.damaged else None
        if gone is not None or come is not None:
            _put(self.by_zone, gone, None if gone is None else gone.zone, come, None if come is None else come.zone)
            _put(self.by_kind, gone, None if gone is None else gone.type, come, None if come is None else come.type)
        _put(self.by_ship, old, None if old is None else old.aboard, new, None if new is None else new.aboard)

    def change(self, old: Piece, new: Piece) -> None:
        """`put(old, new)` for a piece changed under its id (`AAGState.update`), read the
        quick way when it stays of its type and in play: it keeps its place in each list it
        stays in, and a piece aboard nothing before and after leaves the ships' lists alone."""
        if old.damaged or new.damaged or old.type != new.type:
            self.put(old, new)
            return
        # `_swapped`, `_without` and `_placed` written out (a change comes at nearly every action)
        by_zone, zone, rank = self.by_zone, old.zone, old.rank
        here = list(by_zone[zone])
        at = bisect.bisect_left(here, rank, key=BY_RANK)
        if new.zone == zone:
            here[at] = new
        else:
            del here[at]
            there = list(by_zone.get(new.zone, ()))
            bisect.insort(there, new, key=BY_RANK)
            by_zone[new.zone] = there
        by_zone[zone] = here
        kind = old.type
        same = list(self.by_kind[kind])
        same[bisect.bisect_left(same, rank, key=BY_RANK)] = new
        self.by_kind[kind] = same
        if old.aboard is not None or new.aboard is not None:
            _put(self.by_ship, old, old.aboard, new, new.aboard)

    def same(self, other: ZoneIndex | None) -> bool:
        """Whether `other` indexes the same pieces in the same order (empty lists aside)."""
        if other is None:
            return False
        return all(
            {k: v for k, v in mine.items() if v} == {k: v for k, v in theirs.items() if v}
            for mine, theirs in (
                (self.by_zone, other.by_zone),
                (self.by_ship, other.by_ship),
                (self.by_kind, other.by_kind),
            )
        )


@dataclass
class Findings:
    """A speed device: what the rules find while one list of legal actions is made, kept
    with that list (`AAGState.findings`): by combat category the zones where combat is
    still to be fought and, among them, those where the first player can fire (the zones
    it picks); by side where its air units may land (`rules.regroup.LandingRoom`), and by
    side, unit type and zone the spots where such an air unit may land."""

    fights: dict[str, tuple[list[str], list[str]]] = field(factory=dict)
    room: dict[str, LandingRoom] = field(factory=dict)
    spots: dict[tuple[str, str, str], list[str]] = field(factory=dict)


def _put(
    lists: dict[str, list[Piece]], old: Piece | None, before: str | None, new: Piece | None, after: str | None
) -> None:
    """`ZoneIndex.put` in one of its dicts: `old` out of its list `before`, `new` into its
    list `after` (None: in no list here), in place when it is one list."""
    if old is not None and before is not None:
        if new is not None and after == before:
            lists[before] = _swapped(lists[before], old, new)
            return
        lists[before] = _without(lists[before], old)
    if new is not None and after is not None:
        lists[after] = _placed(lists.get(after, []), new)


def _swapped(pieces: list[Piece], old: Piece, new: Piece) -> list[Piece]:
    """A copy of `pieces` (in id order, holding `old`) with `new` in the place of `old`."""
    out = list(pieces)
    out[bisect.bisect_left(out, old.rank, key=BY_RANK)] = new
    return out


def _without(pieces: list[Piece], old: Piece) -> list[Piece]:
    """A copy of `pieces` (in id order, holding `old`) without `old`."""
    out = list(pieces)
    del out[bisect.bisect_left(out, old.rank, key=BY_RANK)]
    return out


# the phases of the AAG rules package by the reference a step or decision names them by: as
# many as the sequence of play names, found once
PHASES: dict[str, Phase] = {}
BY_RANK = operator.attrgetter("rank")  # the sort key of pieces in id order


def _placed(pieces: list[Piece], piece: Piece) -> list[Piece]:
    """A copy of `pieces` (in id order) with `piece` in its place."""
    out = list(pieces)
    bisect.insort(out, piece, key=BY_RANK)
    return out


# -- the position -------------------------------------------------------------------------------------


@dataclass(eq=False, init=False)
class AAGState(Sequenced):
    """A position plus the dice that will decide what happens next."""

    VERSION: ClassVar[int] = 2
    # every step refuses in `AagPhase.is_legal` (the listing) or `end_blocker`, before `do`
    # changes anything; no `do` refuses
    checks_before_changing: ClassVar[bool] = True

    first: Side = field("jp", required=True, doc="the side holding the first-player marker")
    vp: dict[str, int] = field(factory=lambda: dict.fromkeys(SIDES, 0), lo=0, hi=999, check=_both_sides)
    vp_ships: dict[str, int] = field(
        factory=lambda: dict.fromkeys(SIDES, 0), lo=0, hi=999, check=_both_sides, doc="the part of vp for ships sunk"
    )
    control: dict[str, Side] = field(factory=dict, required=True, check=_control)
    airfields: list[Airfield] = field(factory=list)
    pieces: dict[str, Piece] = field(factory=dict, required=True, check=_pieces)
    next_id: dict[str, int] = field(factory=lambda: dict.fromkeys(SIDES, 1), lo=1, hi=10**6, check=_both_sides)
    points: dict[str, int] = field(
        factory=lambda: dict.fromkeys(SIDES, 0), lo=0, hi=999, check=_both_sides, doc="reinforcement points left"
    )
    resolved: list[str] = field(factory=list, check=_zones, doc="zones resolved in the current combat step")
    battle: Battle | None = None
    orders: dict[str, dict[str, str]] = field(
        factory=lambda: {s: {} for s in SIDES}, check=_both_sides, doc="hidden sea orders: unit id -> zone"
    )
    tokens: dict[str, dict[Advantage, int]] = field(
        factory=lambda: {s: {} for s in SIDES}, lo=0, hi=8, check=_both_sides, doc="advantage tokens left"
    )
    active: list[InForce] = field(factory=list, doc="advantages in force this turn")
    deferred: dict[str, tuple[str, ...]] = field(
        factory=dict, check=_unit_types, doc="Coast Watchers: the unit types a side moves after all others"
    )
    pending: list[AAGDecision] = field(factory=list)
    index: ZoneIndex | None = field(None, cache="share")  # speed: kept up to date
    # speed: what the rules find while the legal actions are listed, and the list it holds
    # for (None while that list is being made)
    found: tuple[list[Any] | None, Findings | None] | None = field(None, cache="reset")

    # -- the kit's hooks ----------------------------------------------------------------------

    @property
    def game(self) -> AAGGame:
        return self._game  # type: ignore[return-value]

    @cached_property
    def data(self) -> GameData:
        return self.game.data

    end_action: ClassVar[Action] = END  # read at every action: a class attribute, not a property

    def side_of(self, step: Step) -> Side:
        """The first player acts in a step's first half, the other in its second."""
        if step.side == "first":
            return self.first
        if step.side == "second":
            return other(self.first)
        return super().side_of(step)  # type: ignore[return-value]

    def rules_named(self, ref: str) -> Phase:
        """`Sequenced.rules_named`, kept by reference (`PHASES`: the rules ask at every action)."""
        found = PHASES.get(ref)
        if found is None:
            found = PHASES[ref] = super().rules_named(ref)
        return found

    def legal_actions(self) -> list[Action]:  # type: ignore[override]
        """Every legal action (`listed`); the list handed out is the caller's own."""
        return list(self.listed())

    def listed(self) -> list[Action]:  # type: ignore[override]
        """The legal actions, listed once per position with the pieces indexed by zone (the
        index is then kept up to date as pieces change) and what the rules find on the way
        kept with the list (`findings`); the engine's own reading, never to be changed."""
        listed = self._legal
        if listed is None:
            if self.index is None:
                self.build_index()
            self.found = (None, None)  # being listed: the findings are made when first asked for
            try:
                listed = super().listed()
            except BaseException:
                self.found = None
                raise
            kept = self.found
            self.found = (listed, None if kept is None else kept[1])
        return listed  # type: ignore[return-value]

    def findings(self) -> Findings | None:
        """What the rules find while the legal actions are listed, kept with the list: they
        hold as long as the listed actions do, until the position changes; else None."""
        kept = self.found
        if kept is None or kept[0] is not self._legal:
            return None
        found = kept[1]
        if found is None:
            found = Findings()
            self.found = (kept[0], found)
        return found

    def check_position(self) -> None:
        """What a position must hold across its fields (PositionError names the piece), and
        what follows from them: pieces in id order, ids never given twice."""
        self.pieces = dict(sorted(self.pieces.items(), key=lambda kv: id_key(kv[0])))
        self.index = None
        for pid in self.pieces:
            side, number = pid[:2], pid[2:]
            if side in SIDES and number.isdigit():
                self.next_id[side] = max(self.next_id[side], int(number) + 1)
        for p in self.pieces.values():
            self._check_piece(p)
        for island, isl in self.data.board.islands.items():
            if sum(1 for a in self.airfields if a.island == island) > isl.airfields:
                raise PositionError("airfields", f"{island} holds at most {isl.airfields} airfield(s)")
        for side, orders in self.orders.items():
            for uid, dest in orders.items():
                if self.pieces.get(uid) is None or self.pieces[uid].side != side:
                    raise PositionError(f"orders.{side}.{uid}", f"{side} has no piece {uid}")
                _zone(self, dest, f"orders.{side}.{uid}")
        for i, decision in enumerate(self.pending):
            for uid in decision.candidates if isinstance(decision, HitChoice) else ():
                if uid not in self.pieces:
                    raise PositionError(f"pending[{i}].candidates", f"no piece {uid!r}")
        if self.pending and self.battle is None:
            raise PositionError("pending", "a decision of a battle, with no battle being fought")

    def _check_piece(self, p: Piece) -> None:
        """A piece must be where its kind can be: ships at sea, land units ashore or aboard."""
        board = self.data.board
        where = f"piece {p.id}"
        cat = self.category(p)
        if p.damaged:
            self._check_damaged(p)
        if p.aboard is not None:
            ship = self.pieces.get(p.aboard)
            if ship is None or self.category(ship) != "sea":
                raise PositionError(where, f"aboard {p.aboard!r}, which is not a ship")
            if ship.damaged:  # AAG Loss of Cargo: a hit ship's cargo is lost
                raise PositionError(
                    where,
                    f"aboard {ship.id}, a damaged {ship.type}: a damaged ship carries nothing (AAG Loss of Cargo)",
                )
            if ship.zone != p.zone or ship.side != p.side:
                raise PositionError(where, f"must be in its ship's zone {ship.zone} and side")
            ut = self.data.units[ship.type]
            if p.type == "fighter":
                if "flight_deck" not in ut.abilities:
                    raise PositionError(where, f"a fighter cannot ride a {ship.type}")
                deck = self.data.rules.carrier_capacity
                if len(self.fighters_aboard(ship)) > deck:  # AAG Aircraft Carrier Flight Deck
                    raise PositionError(
                        where, f"{ship.id} carries at most {deck} fighters (AAG Aircraft Carrier Flight Deck)"
                    )
            elif cat != "land" or len(self.land_cargo(ship)) > ut.cargo:
                raise PositionError(where, f"{ship.id} ({ship.type}) carries at most {ut.cargo}")
            return
        if cat == "sea" and not board.is_sea(p.zone):
            raise PositionError(where, f"a {p.type} must be in a sea zone, not {p.zone}")
        if cat == "land" and board.is_sea(p.zone):
            raise PositionError(where, f"{p.type} in sea zone {p.zone} must be aboard a ship")

    def _check_damaged(self, p: Piece) -> None:
        """A damaged unit is a resilient sea unit in the damaged area of its own base, where it
        stays until repaired (AAG Damaging and Destroying Units, Resilience)."""
        rule = "AAG Damaging and Destroying Units"
        where = f"piece {p.id}"
        ut = self.data.units.get(p.type)
        if ut is None or ut.category != "sea" or not ut.resilient:
            raise PositionError(
                where,
                f"a {p.type} is never damaged, only destroyed: only ships with Resilience are damaged ({rule})",
            )
        base = self.base_sea(p.side)
        if p.zone != base or p.aboard is not None:
            raise PositionError(
                where,
                f"a damaged {p.type} cannot be in {p.zone}: it stays in the damaged area of its "
                f"base ({base}) until repaired ({rule})",
            )
        if p.hit is not None:
            raise PositionError(where, f"a damaged {p.type} at its base cannot be hit ({rule})")

    def invariant_errors(self) -> list[str]:
        """Capacities, cargo, damaged units at their base, and air units landed within the
        room of their airfields once landing is over (checked after every action of the
        random-play soaks)."""
        kept = self.index
        self.drop_index()  # a checker trusts no index: it indexes the pieces as they are now
        self.build_index()
        try:
            errors = self._invariant_errors()
            if kept is not None and not kept.same(self.index):
                errors.append("the pieces indexed by zone and ship are not the pieces in play")
            return errors
        finally:
            self.index = kept

    def _invariant_errors(self) -> list[str]:
        errors: list[str] = []
        units = self.data.units
        for p in self.pieces.values():
            if p.aboard is not None:
                ship = self.pieces.get(p.aboard)
                if ship is None or ship.zone != p.zone or ship.side != p.side or ship.damaged:
                    errors.append(f"{p.id} is aboard {p.aboard}, which cannot carry it where it is")
            if p.damaged and (p.zone != self.base_sea(p.side) or not units[p.type].resilient):
                errors.append(f"{p.id} is damaged away from its base's damaged area")
            if p.type in ("transport", "destroyer") and len(self.land_cargo(p)) > units[p.type].cargo:
                errors.append(f"{p.id} carries more than {units[p.type].cargo}")
            if p.type == "carrier" and len(self.fighters_aboard(p)) > self.data.rules.carrier_capacity:
                errors.append(f"{p.id} carries more than {self.data.rules.carrier_capacity} fighters")
            if p.type != SUPPLY and units[p.type].category == "sea" and not self.data.board.is_sea(p.zone):
                errors.append(f"{p.id} ({p.type}) is on land in {p.zone}")
        after_landing = self.step_index > self.plan.index("regroup:land", 1)  # both sides have landed
        for island, isl in self.data.board.islands.items():
            if sum(1 for a in self.airfields if a.island == island) > isl.airfields:
                errors.append(f"{island} has more than {isl.airfields} airfield(s)")
            if after_landing:
                room = self.data.rules.airfield_air_capacity
                for side in SIDES:
                    landed = [p for p in self.in_zone(island, side) if self.category(p) == "air"]
                    if len(landed) > room * len(self.airfields_of(side, island, undamaged=True)):
                        errors.append(f"{side} has more air units on {island} than its airfields hold")
        for side in SIDES:
            if self.vp_ships[side] > self.vp[side]:
                errors.append(f"{side} has more points for ships sunk than victory points")
        return errors

    # -- where the turn stands --------------------------------------------------------------------

    @property
    def second(self) -> Side:
        return OPPONENT[self.first]

    @property
    def current_step(self) -> Step:
        """The step being played (`Sequenced.current_step`, read without the plan's property:
        the rules ask at nearly every turn of a listing)."""
        plan = self._plan
        return (plan if plan is not None else self.plan).steps[self.step_index]

    @property
    def mover(self) -> Side:
        """The side acting in the current step (the first player, then the other): `side_of`
        the current step, read without its calls (the rules ask at nearly every turn)."""
        plan = self._plan
        role = (plan if plan is not None else self.plan).steps[self.step_index].side
        if role == "first":
            return self.first
        if role == "second":
            return OPPONENT[self.first]
        return self.side_of(self.current_step)

    @property
    def half(self) -> int:
        """0 while the first player acts in the current step, 1 while the other does."""
        return self.current_step.half

    @property
    def steps(self) -> tuple[str, ...]:
        """The ids of one turn's steps with this game's options, in order."""
        return tuple(dict.fromkeys(s.id for s in self.plan.steps if not s.setup))

    # -- helpers used by the rules --------------------------------------------------------------------

    def roll(self, purpose: str, events: list[Event]) -> int:
        """One die through the position's dice, recorded among `events` naming the rule."""
        return roll(self.dice, purpose, events)

    def category(self, piece: Piece) -> str:
        return "land" if piece.type == SUPPLY else self.data.units[piece.type].category

    def on_board(self, side: str | None = None) -> Iterable[Piece]:
        """Pieces in play (not in a damaged area), optionally of one side, in id order."""
        for p in self.pieces.values():
            if not p.damaged and (side is None or p.side == side):
                yield p

    def of_kind(self, side: str, kinds: tuple[str, ...]) -> Sequence[Piece]:
        """`side`'s pieces in play of the unit types `kinds`, in id order: with the index, a
        list kept with the index's lists it was found from (`ZoneIndex.mixes`), shared by the
        callers that only look (never to be changed)."""
        index = self.index
        if index is None:
            return [p for p in self.on_board(side) if p.type in kinds]
        by_kind = index.by_kind
        mixes = index.mixes
        kept = mixes.get((side, kinds))
        if len(kinds) == 1:
            here = by_kind.get(kinds[0])
            if kept is not None and kept[0][0] is here:
                return kept[1]
            found = [p for p in here if p.side == side] if here else []
            mixes[side, kinds] = ((here,), found)
            return found
        lists = tuple(map(by_kind.get, kinds))
        if kept is not None and all(map(operator.is_, kept[0], lists)):
            return kept[1]
        found = [p for here in lists if here for p in here if p.side == side]
        if sum(1 for here in lists if here) > 1:  # each list is in id order: a mix needs sorting
            found.sort(key=BY_RANK)
        mixes[side, kinds] = (lists, found)
        return found

    def here(self, zone: str) -> Sequence[Piece]:
        """Both sides' pieces in play in `zone`, in id order: the index's own list (never to
        be changed; `in_zone` gives a list of one's own), for the rules that only look."""
        if self.index is not None:
            return self.index.by_zone.get(zone, ())
        return [p for p in self.on_board() if p.zone == zone]

    def in_zone(self, zone: str, side: str | None = None) -> list[Piece]:
        if self.index is not None:
            here = self.index.by_zone.get(zone)
            if not here:
                return []
            return list(here) if side is None else [p for p in here if p.side == side]
        return [p for p in self.on_board(side) if p.zone == zone]

    def has_cargo(self, ship: Piece) -> bool:
        """Whether anything is aboard `ship`."""
        if self.index is not None:
            return bool(self.index.by_ship.get(ship.id))
        return any(p.aboard == ship.id for p in self.pieces.values())

    def cargo(self, ship: Piece) -> list[Piece]:
        if self.index is not None:
            return list(self.index.by_ship.get(ship.id, ()))
        return [p for p in self.pieces.values() if p.aboard == ship.id]

    def build_index(self) -> bool:
        """Index the pieces by zone and by ship (then kept up to date as pieces change);
        False when an index is already in place."""
        if self.index is not None:
            return False
        by_zone: dict[str, list[Piece]] = {}
        by_ship: dict[str, list[Piece]] = {}
        by_kind: dict[str, list[Piece]] = {}
        for p in self.pieces.values():
            if not p.damaged:
                by_zone.setdefault(p.zone, []).append(p)
                by_kind.setdefault(p.type, []).append(p)
            if p.aboard is not None:
                by_ship.setdefault(p.aboard, []).append(p)
        self.index = ZoneIndex(by_zone, by_ship, by_kind)
        return True

    def drop_index(self) -> None:
        self.index = None

    def aboard_count(self, ship: Piece, *, fighters: bool) -> int:
        """How many fighters (`fighters`) or other pieces are aboard `ship`: the length of
        `fighters_aboard` or `land_cargo`, counted without listing them."""
        aboard = self.index.by_ship.get(ship.id) if self.index is not None else self.cargo(ship)
        count = 0
        for p in aboard or ():
            if (p.type == "fighter") is fighters:
                count += 1
        return count

    def land_cargo(self, ship: Piece) -> list[Piece]:
        return [p for p in self.cargo(ship) if p.type != "fighter"]

    def fighters_aboard(self, ship: Piece) -> list[Piece]:
        return [p for p in self.cargo(ship) if p.type == "fighter"]

    def supplies(self, side: str, zone: str) -> list[Piece]:
        return [p for p in self.here(zone) if p.side == side and p.type == SUPPLY and p.aboard is None]

    def new_piece(self, side: Side, kind: str, zone: str, aboard: str | None = None) -> Piece:
        pid = f"{side}{self.next_id[side]}"
        self.next_id[side] += 1
        piece = Piece.new(pid, side, kind, zone, aboard)
        # pieces stay in id order, so a position and its reloaded copy list actions alike:
        # those with a later id (the other side's) move after the new one
        pieces = self.pieces
        last = next(reversed(pieces), None)
        if last is None or id_key(last) < piece.rank:
            pieces[pid] = piece
        else:  # its place among the ids in order, found by halves: the pieces after it move
            ids = list(pieces)
            after = [(i, pieces.pop(i)) for i in ids[bisect.bisect_right(ids, piece.rank, key=id_key) :]]
            pieces[pid] = piece
            pieces.update(after)
        self._reindex(None, piece)
        return piece

    def update(self, piece: Piece, **changes: Any) -> Piece:
        """Change a piece: the piece now in play under its id is replaced by a copy with
        `changes` (pieces are frozen, shared with clones), which is returned."""
        old = self.pieces[piece.id]
        changed = old.copy_with(changes)
        self.pieces[piece.id] = changed
        index = self.index
        if index is not None:
            if index.shared:  # shared with a clone: change a copy (`_reindex`)
                index = self.index = index.copy()
            index.change(old, changed)
        return changed

    def remove(self, piece: Piece) -> None:
        old = self.pieces.pop(piece.id, None)
        if old is not None:
            self._reindex(old, None)

    def _reindex(self, old: Piece | None, new: Piece | None) -> None:
        """Keep the index (if any) up to date as piece `old` becomes `new` (None: none);
        an index shared with a clone is copied first."""
        index = self.index
        if index is None:
            return
        if index.shared:
            index = self.index = index.copy()
        index.put(old, new)

    def change_airfield(self, marker: Airfield, **changes: Any) -> Airfield:
        """Put a copy of the airfield `marker` (this very one) with `changes` in its place."""
        i = next(i for i, a in enumerate(self.airfields) if a is marker)
        self.airfields[i] = changed = replaced(marker, **changes)
        return changed

    def base_land(self, side: str) -> str:
        return self.data.board.bases[side].land

    def base_sea(self, side: str) -> str:
        return self.data.board.bases[side].sea

    def enemy_base_zones(self, side: str) -> frozenset[str]:
        return self.data.board.base_zones[OPPONENT[side]]

    def income(self, side: str) -> int:
        """10 reinforcement points plus 4 per island zone controlled (AAG Reinforce)."""
        rules = self.data.rules
        return rules.income_base + rules.income_per_island * sum(1 for s in self.control.values() if s == side)

    def has_token(self, side: str, token: Advantage) -> bool:
        return self.tokens.get(side, {}).get(token, 0) > 0

    def in_force(self, token: str, side: str, **match: Any) -> InForce | None:
        """The advantage `token` that `side` has in force this turn, matching `match`."""
        for a in self.active:
            if a.token == token and a.side == side and all(getattr(a, k) == v for k, v in match.items()):
                return a
        return None

    def air_range(self, p: Piece) -> int:
        """Zones an air unit may fly per phase (Superior Fighters: fighters fly 3)."""
        rng = int(self.data.units[p.type].range)
        if p.type == "fighter" and self.in_force(Advantage.SUPERIOR_FIGHTERS, p.side):
            rng = 3  # AAG Appendix 1 Superior Fighters
        return rng

    def airfields_of(self, side: str, island: str, undamaged: bool = False) -> list[Airfield]:
        return [a for a in self.airfields if a.side == side and a.island == island and not (undamaged and a.damaged)]

    # -- hidden information (AAG Appendix 1 Hidden Movement) ------------------------------------------------

    def view(self, side: str | None) -> dict[str, Any]:
        """The position without the dice and without the other side's secret sea orders."""
        data = super().view(side)
        data["orders"] = {s: (o if s == side else {}) for s, o in data["orders"].items()}
        if self.step == "hidden:orders":
            for s, orders in self.orders.items():
                if s != side:
                    for uid in orders:
                        if uid in data["pieces"]:
                            data["pieces"][uid]["moved"] = False  # that a unit has an order is itself secret
        return data

    def redact(self, entry: Mapping[str, Any], side: str | None) -> dict[str, Any]:
        """How another side's action and its events read to `side` (another side or a
        spectator): a secret sea order (AAG Appendix 1 Hidden Movement) shows only that an
        order was written; its units and destination come out when both sides' orders are
        revealed and carried out (public `move` events). Every other action is public."""
        player = str(entry.get("player"))
        events = list(entry.get("events", []))
        if player == side or not any(e.get("kind") == "order" for e in events):
            return dict(entry)
        note = {"kind": "order", "text": f"{player} writes a secret sea order", "data": {"side": player}}
        return {**entry, "action": "move (secret sea order)", "events": [note]}

    def secret_orders_of(self, side: str) -> bool:
        """Whether `side` cannot see all of the other side's sea orders now: in the hidden
        orders step, unless `side` writes first and the other has not yet begun."""
        if self.step != "hidden:orders":
            return False
        return not (self.half == 0 and self.first == side)

    def sample_unseen(self, side: str | None, rng: random.Random) -> AAGState:
        """A clone in which what `side` cannot see is a guess consistent with its view, for
        look-ahead that must not read secrets. The other side's sea orders not yet revealed
        (AAG Appendix 1) are drawn again: each of its sea units that `side` sees unmoved
        stays or takes one legal sea move, uniformly at random, as it could have written.
        The future dice are drawn from `rng` as well. The result depends only on
        `view(side)` and `rng`."""
        c = self.clone()
        c.dice = SeededDice(rng.getrandbits(SEED_BITS))
        for opp in SIDES if side is None else (other(side),):  # a spectator sees no order
            if not c.secret_orders_of(other(opp)):
                continue
            for uid in c.orders[opp]:
                if uid in c.pieces:
                    c.update(c.pieces[uid], moved=False)  # as view(side) shows it
            c.orders[opp] = {}
            barred = c.enemy_base_zones(opp)
            graph = c.data.board.sea_graph
            for p in list(c.on_board(opp)):
                if p.moved or p.aboard is not None or c.category(p) != "sea":
                    continue
                choices: list[str | None] = [None, *sorted(graph[p.zone] - barred)]
                dest = rng.choice(choices)
                if dest is not None:
                    c.orders[opp][p.id] = dest
                    c.update(p, moved=True)
        c.changed()
        return c

    def clone(self) -> AAGState:
        """A copy sharing the frozen pieces, and the index until either changes a piece."""
        if self.index is not None:
            self.index.shared = True
        c = super().clone()
        assert isinstance(c, AAGState)
        return c

    def odds(self, zone: str, category: str, side: str) -> Any:
        """The exact distribution of hits for `side`'s attack on `category` units in `zone`."""
        from henderson.games.aag.odds import zone_odds

        return zone_odds(self, zone, category, side)

    def __repr__(self) -> str:
        return f"AAGState(turn={self.turn}, step={self.step}, ply={self.ply})"
