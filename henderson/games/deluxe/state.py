"""One Deluxe Guadalcanal position: the counters, Henderson Field, villages, supply, victory
points, the turn's bookkeeping and the decisions owed.

Its fields are declared once (`core.fields`): clone, key, the JSON position (version 2,
docs/deluxe.md) and its loading come from the declaration. The kit's engine
(`core.sequence`) moves it through the sequence of play of `data/sequence.toml` with the
phases of `rules/`. Fog of war (DG 7.7, 7.8, 10.2) is `view`, `redact` and `sample_unseen`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypeVar

from henderson.core.dice import Dice
from henderson.core.errors import PositionError
from henderson.core.events import Event
from henderson.core.fields import field
from henderson.core.game import State
from henderson.core.sequence import Sequenced, Step

from .actions import DGAction, make
from .decisions import Assault, DGDecision, check_hexes, check_side, check_sides, check_units
from .model import SIDES, EventKind, GameData
from .rules.common import occupancy, stack_size, vp_text
from .rules.phase import DGPhase
from .units import NOT_LANDED, OFF_MAP, UnitState

if TYPE_CHECKING:
    from .game import DGGame
    from .rules.movement import Context, MoveLists
    from .rules.stealth import OptionLists

PRIVATE = ("crossings", "hf_work", "stuck", "advanced")  # this turn's notes naming units the enemy may not see
WORDS = re.compile(r"[\s+,;:()]+")  # what separates unit ids in an event's text
MAX_VP = 999  # no score comes near it (61 wins, DG 9.4)
END = make("end")
D = TypeVar("D", bound=DGDecision)


# -- checks of a loaded position against the game's data (core.fields check=) -------------------


def _villages(state: DGState, villages: dict[str, str], where: str) -> None:
    for h, owner in villages.items():
        if h not in state.data.map.villages or owner not in SIDES:
            raise PositionError(f"{where}.{h}", "expected a village hex and 'us' or 'jp'")


def _units(state: DGState, units: dict[str, UnitState], where: str) -> None:
    """Each counter of the data, where it may be, with at most its printed steps."""
    d = state.data
    for uid, u in units.items():
        here = f"{where}.{uid}"
        t = d.units.get(uid)
        if t is None:
            raise PositionError(here, "no such counter in the data")
        if u.at not in OFF_MAP and u.at not in d.map.hexes:
            raise PositionError(f"{here}.at", f"{u.at!r} is not a hex of the map nor one of {', '.join(OFF_MAP)}")
        if u.at in d.map.hexes and not d.map.hexes[u.at].land:
            raise PositionError(f"{here}.at", f"{u.at} is a sea hex")
        if u.start and u.start not in OFF_MAP and u.start not in d.map.hexes:
            raise PositionError(f"{here}.start", f"{u.start!r} is not a hex of the map nor one of {', '.join(OFF_MAP)}")
        if u.side != t.side:
            raise PositionError(f"{here}.side", f"{uid} is a {t.side} unit")
        if u.strength > t.strength:
            raise PositionError(f"{here}.strength", f"must be 0..{t.strength}")
        if u.on_map and u.strength == 0:
            raise PositionError(f"{here}.strength", "a unit on the map has at least one step")


def _cards(state: DGState, cards: list[int], where: str) -> None:
    numbers = {c.number for c in state.data.cards}
    for n in cards:
        if n not in numbers:
            raise PositionError(where, f"no event card {n}")


# -- the position's parts -------------------------------------------------------------------------


@dataclass(frozen=True)
class Airfield:
    """Henderson Field (DG 7.11, 9.3): its status points and who controls it. The Japanese
    control everything at the start and the marker starts at twenty (DG 3.0, 7.11). Frozen:
    shared with clones, replaced on a change (`common.change_hf`, `common.take_control`)."""

    status: int = field(20, lo=0, hi=MAX_VP)
    control: str = field("jp", check=check_side)


@dataclass(frozen=True)
class RabaulTerms:
    """The public terms of a turn's Rabaul picks, kept until they land: the period they land in,
    how many units, how much strength (DG 10.2; ruling 14a). Frozen: shared with clones."""

    period: int = field(0, lo=0, hi=9)
    count: int = field(0, lo=0, hi=99)
    strength: int = field(0, lo=0, hi=99)


@dataclass(frozen=True)
class DrawnEvent:
    """This turn's random event card, as the drawing side reads it (DG 5.0). Frozen: shared
    with clones."""

    side: str = field("us", check=check_side)
    card: int = field(1, lo=1, hi=99)
    kind: EventKind = "supply"
    target: Literal["self", "enemy", "both"] = "self"
    amount: int = field(0, lo=-99, hi=99)


@dataclass
class Carried:
    """What a turn end carries into the next turn: the air bonus (DG 10.2.3), two supply rolls
    (DG 10.2.2) and the terms of the Rabaul picks sailing (ruling 14a)."""

    air_bonus: bool = False
    double_supply: bool = False
    rabaul_bonus: RabaulTerms | None = None


@dataclass
class ThisTurn(Carried):
    """This turn's bookkeeping: what the last turn end carried into it, Henderson Field at the
    turn's start and what befell it (DG 10.2), the random event (DG 5.0), guerrilla rolls (DG
    11.0), sea moves (DG 7.6), Japanese withdrawals (DG 7.9.1), units landed where they must
    stay (DG 2.2.2.6 note); the current movement phase's river crossings (DG 7.3.3) and field
    work (DG 7.11); the current combat phase's attacked hexes (DG 8.2) and advances (DG 8.2.2)."""

    hf_jp_start: bool = field(False, doc="Japan held Henderson Field at the start (DG 10.2.2)")
    hf_op_start: bool = field(False, doc="it was operational at the start (DG 10.2.3)")
    hf_inop_start: bool = field(False, doc="it was inoperable at the start (DG 10.2.2)")
    hf_us_touched: bool = field(False, doc="a US unit took control of it this turn")
    jp_captured: bool = field(False, doc="Japan captured it this turn (DG 10.2.1)")
    jp_reduced: bool = field(False, doc="Japan made the US-held field inoperable (DG 10.2.1)")
    capture_bonus_given: bool = field(False, doc="the four supply points are given (DG 10.2.1)")
    event: DrawnEvent | None = None
    guerrilla: list[str] = field(factory=list, check=check_hexes, doc="villages rolled for (DG 11.0)")
    sea: dict[str, int] = field(factory=dict, lo=0, hi=99, check=check_sides, doc="sea moves by side (DG 7.6)")
    withdrawals: int = field(0, json="jp_withdrawn", lo=0, hi=99, doc="Japanese units withdrawn (DG 7.9.1)")
    stuck: list[str] = field(factory=list, check=check_units, doc="landed anywhere, no farther (DG 2.2.2.6)")
    crossings: dict[str, int] = field(factory=dict, lo=0, hi=9, check=check_units, doc="helper -> crossings used")
    hf_work: list[str] = field(factory=list, check=check_units, doc="units that worked on the field (DG 7.11)")
    attacked_hexes: list[str] = field(factory=list, check=check_hexes, doc="hexes attacked (DG 8.2)")
    advanced: list[str] = field(factory=list, check=check_units, doc="units that advanced (DG 8.2.2)")


# -- the position ------------------------------------------------------------------------------


@dataclass(eq=False, init=False)
class DGState(Sequenced):
    """One Deluxe Guadalcanal position; docs/deluxe.md gives its JSON form."""

    VERSION: ClassVar[int] = 2
    # every phase refuses in `is_legal` (the listing, or `movement.move_listed` for a land
    # move) or `end_blocker`, before `do` changes anything; no `do` refuses
    checks_before_changing: ClassVar[bool] = True

    supply: dict[str, int] = field(
        factory=lambda: dict.fromkeys(SIDES, 0), lo=0, hi=99, check=check_sides, doc="artillery supply (DG 8.1.1)"
    )
    airfield: Airfield = field(factory=Airfield, json="henderson_field", doc="Henderson Field (DG 7.11)")
    vp: int = field(0, lo=-MAX_VP, hi=MAX_VP, doc="victory points: positive when the US leads (DG 2.1.8.4)")
    villages: dict[str, str] = field(factory=dict, check=_villages, doc="village hex -> controlling side (DG 9.3)")
    units: dict[str, UnitState] = field(factory=dict, check=_units, doc="every counter by id")
    this_turn: ThisTurn = field(factory=ThisTurn, doc="this turn's bookkeeping")
    next_turn: Carried = field(factory=Carried, doc="carried into the next turn (DG 10.2)")
    naval_last: dict[str, int] = field(
        factory=dict, lo=0, hi=99, check=check_sides, doc="side -> turn of its last naval bombardment (DG 8.1.7)"
    )
    drawn: list[int] = field(factory=list, json="cards_drawn", check=_cards, doc="event cards drawn (DG 5.0)")
    jp_withdrawn: int = field(0, json="japan_withdrawn", lo=0, hi=999, doc="Japanese units withdrawn (DG 9.2)")
    counter: int = field(0, json="stack_counter", lo=0, hi=10**9, doc="the last stacking order given (DG 7.8)")
    pending: list[DGDecision] = field(factory=list, doc="decisions owed, the last one first")
    # side -> (what it was made from, the movement context): `movement.Context.of`
    contexts: dict[str, tuple[tuple[Any, ...], Context]] = field(factory=dict, cache="reset")
    # the movement phase's moves as last listed, by unit (`movement.legal`): never changed
    # once made, so shared with clones, and checked against the position before use
    move_lists: MoveLists | None = field(None, cache="share")
    option_lists: OptionLists | None = field(None, cache="share")  # the same for `stealth.legal`

    def _setup(self, game: Any, dice: Dice, seed: int | None, options: dict[str, Any]) -> None:
        super()._setup(game, dice, seed, options)
        self.data: GameData = game.data

    # -- the kit's protocol ----------------------------------------------------------------

    @property
    def game(self) -> DGGame:
        return self._game  # type: ignore[return-value]

    @property
    def end_action(self) -> DGAction:
        return END

    @property
    def turn_label(self) -> str:
        """The turn and its date on the turn record track (DG 3.0)."""
        return f"turn {self.turn} ({self.data.turn(self.turn).date})"

    @property
    def step_number(self) -> int:
        """The number of the current step in DG 4.0 (1-20; 0 while preparing for play)."""
        return self.step_index - self.plan.first_turn_step + 1

    def kind_of(self, step: Step) -> str:
        """The kind of a step of the sequence of play: its phase's (rules/phase.py)."""
        rules = self.rules_named(step.phase)
        assert isinstance(rules, DGPhase)
        return rules.kind

    def decision(self, kind: type[D]) -> D:
        """The decision being made now, of the kind its rules run."""
        p = self.pending[-1]
        assert isinstance(p, kind)
        return p

    def update(self, unit: UnitState, **changes: Any) -> UnitState:
        """Change a counter: the record in play under its id is replaced by a copy with
        `changes` (records are frozen, shared with clones), which is returned."""
        new = self.units[unit.id].replaced(**changes)
        self.units[unit.id] = new
        return new

    def clone(self) -> DGState:
        other = super().clone()
        assert isinstance(other, DGState)
        other.__dict__["data"] = self.data
        return other

    def check_position(self) -> None:
        """Fill in what a hand-written position may leave out (a unit at its printed place, a
        village under Japanese control, no supply: DG 3.0, 9.3), and check across fields: the
        turn, stacking and steps (`invariant_errors`), the decisions' sides and stages."""
        d = self.data
        if self.turn > d.constants.turns:
            raise PositionError("turn", f"expected an integer 1..{d.constants.turns}, got {self.turn}")
        for uid, t in d.units.items():
            if uid not in self.units:
                self.units[uid] = UnitState(uid, t.side, "turn" if t.arrival else "rabaul", t.strength)
            self.units[uid] = self.units[uid].replaced(id=uid)
        self.units = {uid: self.units[uid] for uid in d.units}  # in the data's order
        for h in d.map.villages:
            self.villages.setdefault(h, "jp")
        for s in SIDES:
            self.supply.setdefault(s, 0)
            if self.supply[s] > d.constants.supply_cap:
                raise PositionError(f"supply.{s}", f"expected 0..{d.constants.supply_cap}, got {self.supply[s]}")
        if self.airfield.status > d.constants.hf_max:
            raise PositionError("henderson_field.status", f"expected 0..{d.constants.hf_max}")
        self.counter = max(self.counter, *(u.order for u in self.units.values()))
        for i, p in enumerate(self.pending):
            if p.side not in SIDES:
                raise PositionError(f"pending[{i}].side", "expected 'us' or 'jp'")
            wrong = p.problem() if isinstance(p, Assault) else None
            if wrong is not None:
                raise PositionError(f"pending[{i}].{wrong[0]}", wrong[1])
        errs = self.invariant_errors()
        if errs:
            raise PositionError("units", errs[0])

    # -- fog of war (DG 7.7, 7.8, 10.2) ---------------------------------------------------------

    def view(self, side: str | None) -> dict[str, Any]:
        """DG 7.8 fog of war: of an enemy stack only the top counter not under stealth is
        shown, with the number of counters; stealth units show only as markers (value, hex).
        Enemy units not yet landed show at their printed place (turn track or Rabaul) and
        the Rabaul picks only as a number (docs/rulings/deluxe.md ruling 14a, DG 10.2).
        The dice state and the seed never leave the engine."""
        data = super().view(side)
        occ = occupancy(self)
        visible: set[str] = set()
        markers: list[dict[str, Any]] = []
        stacks: list[dict[str, Any]] = []
        for hid, units in sorted(occ.items()):
            owner = units[0].side
            if owner == side:
                visible.update(u.id for u in units)
                continue
            shown = [u for u in units if not u.stealth]
            for u in units:
                if u.stealth:
                    markers.append({"hex": hid, "side": owner, "stealth": u.stealth})
            if shown:
                top = shown[-1]
                visible.add(top.id)
                stacks.append({"hex": hid, "side": owner, "counters": len(shown), "top": top.id})
        written = data["units"]
        out_units: dict[str, Any] = {}
        sailing = 0
        for uid, u in self.units.items():
            if u.side == side or uid in visible:
                out_units[uid] = written[uid]
            elif u.at in NOT_LANDED:  # DG 2.2.1.10-11: the printed arrival is public
                sailing += u.at == "next"
                out_units[uid] = {"side": u.side, "at": self.home(uid), "strength": u.strength}
            elif not u.on_map:  # eliminated, withdrawn, absorbed: done in plain sight
                out_units[uid] = written[uid]
        data["units"] = out_units
        data["enemy_stacks"] = stacks
        data["stealth_markers"] = markers
        data["rabaul_sailing"] = sailing  # DG 10.2: how many picks, not which
        data["viewer"] = side
        hidden = self.hidden_ids(side)
        data["pending"] = [_filter_ids(p, hidden, self) for p in data["pending"]]
        data["this_turn"] = {k: v for k, v in data["this_turn"].items() if k not in PRIVATE}
        return data

    def reveals(self, before: State, side: str) -> bool:
        """Whether `side` sees something of the enemy now that it did not before (a stealth
        unit detected, a stack's top changed by a loss): DG 7.7, 7.8. Such an action is
        final (no undo), and a preview does not show it."""
        assert isinstance(before, DGState)
        return _enemy_seen(self, side) != _enemy_seen(before, side)

    def home(self, uid: str) -> str:
        """Where a unit not yet landed waits as printed: the turn track or Rabaul (DG 3.0)."""
        return "turn" if self.data.units[uid].arrival else "rabaul"

    def visible_ids(self, side: str | None) -> set[str]:
        """Ids of the on-map units `side` may see (its own, and the top enemy counters)."""
        seen: set[str] = set()
        for units in occupancy(self).values():
            if units[0].side == side:
                seen.update(u.id for u in units)
            else:
                shown = [u for u in units if not u.stealth]
                if shown:
                    seen.add(shown[-1].id)
        return seen

    def hidden_ids(self, side: str | None) -> set[str]:
        """Ids of the enemy units `side` may not name (DG 7.8, DG 10.2): on the map under
        stealth or below the top of their stack, or picked at Rabaul and not yet landed."""
        seen = self.visible_ids(side)
        return {
            uid
            for uid, u in self.units.items()
            if u.side != side and ((u.on_map and uid not in seen) or u.at == "next")
        }

    def events_for(self, events: list[Event], side: str | None) -> list[Event]:
        """The events `side` may read: an event about an enemy unit now hidden from it (under
        stealth, below the top of its stack, picked at Rabaul) loses its text and data
        (DG 7.8); an enemy Rabaul pick never names the unit (DG 10.2)."""
        hidden = self.hidden_ids(side)
        out = []
        for e in events:
            data = e.data if isinstance(e.data, dict) else {}
            ids = [data["unit"]] if isinstance(data.get("unit"), str) else []
            ids += [i for i in data.get("units", []) if isinstance(i, str)]  # a stack move
            ids += [w for w in WORDS.split(e.text) if w in self.units]  # named in the text only
            owners = [self.units[i].side for i in ids if i in self.units]
            if e.kind == "rabaul" and ids and side not in owners:
                out.append(Event(e.kind, f"{owners[0]} picks a unit at Rabaul", {"hidden": True}))
            elif any(i in hidden for i in ids):
                owner = self.units[next(i for i in ids if i in hidden)].side
                out.append(Event(e.kind, f"{owner} does something out of sight", {"hidden": True}))
            else:
                out.append(e)
        return out

    def redact(self, entry: Mapping[str, Any], side: str | None) -> dict[str, Any]:
        """How another side's action and its events read to `side` (DG 7.7, 7.8), judged on
        the position right after the action: an action naming an enemy unit `side` cannot
        see is hidden, and so are such events; an enemy Rabaul pick reads as a pick, never
        naming the unit (DG 10.2). A side reads its own actions as played."""
        player = str(entry.get("player"))
        if player == side:
            return dict(entry)
        action = str(entry.get("action", ""))
        hidden = self.hidden_ids(side)
        words = action.split()
        names = [x for w in words[1:] for x in w.split("+")]  # a stack: A+B (DG 7.5)
        if words[:1] == ["rabaul"]:
            text = f"{player} picks a unit at Rabaul"
        elif any(w in hidden for w in names):
            text = f"{player} acts out of sight"
        else:
            text = action
        shown = self.events_for([Event.from_json(e) for e in entry.get("events", [])], side)
        return {**entry, "action": text, "events": [e.to_json() for e in shown]}

    def sample_unseen(self, side: str | None, rng: random.Random) -> DGState:
        """A copy in which what `side` cannot see (units under stealth or below the top of
        a stack, Rabaul picks) is a guess consistent with `view(side)` (sampling.py)."""
        from .sampling import sample_unseen

        return sample_unseen(self, side, rng)

    def odds(self) -> dict[str, Any] | None:
        """The exact outcome distribution of the assault being built (None when there is none)."""
        from .rules import assault

        p = self.pending[-1] if self.pending else None
        return assault.odds(self, p) if isinstance(p, Assault) else None

    # -- checks --------------------------------------------------------------------------------

    def invariant_errors(self) -> list[str]:
        """Everything that must always hold; empty when the position is sound."""
        errs = []
        c = self.data.constants
        for hid, units in occupancy(self).items():
            if len({u.side for u in units}) > 1:
                errs.append(f"{hid} holds both sides")
            if stack_size(units, self) > c.stacking:
                errs.append(f"{hid} holds {len(units)} units (DG 7.5)")
        for u in self.units.values():
            full = self.data.units[u.id].strength
            if u.on_map and not 1 <= u.strength <= full:
                errs.append(f"{u.id} strength {u.strength} outside 1..{full}")
            if u.on_map and u.at not in self.data.map.hexes:
                errs.append(f"{u.id} at unknown hex {u.at}")
        for s in SIDES:
            if not 0 <= self.supply[s] <= c.supply_cap:
                errs.append(f"{s} supply {self.supply[s]} outside 0..{c.supply_cap}")
        if not 0 <= self.airfield.status <= c.hf_max:
            errs.append(f"Henderson Field status {self.airfield.status} outside 0..{c.hf_max}")
        return errs

    def summary(self) -> str:
        """One line: turn, step, VPs, Henderson Field, supply."""
        return (
            f"{self.turn_label} step {self.step_number} {self.current_step.name}; VP {vp_text(self.vp)}; "
            f"HF {self.airfield.status} ({self.airfield.control}); "
            f"supply US {self.supply['us']} Japan {self.supply['jp']}"
        )


def _enemy_seen(state: DGState, side: str) -> tuple[Any, ...]:
    """What `side` sees of the other side: its stacks, stealth markers and units, and how
    many Rabaul picks are sailing (DG 7.8, 10.2)."""
    seen = state.view(side)
    units = {uid: u for uid, u in seen["units"].items() if u.get("side") != side}
    return (seen["enemy_stacks"], seen["stealth_markers"], units, seen["rabaul_sailing"])


def _filter_ids(p: dict[str, Any], hidden: set[str], state: DGState) -> dict[str, Any]:
    """Keep in a pending decision only unit ids the viewer may see."""
    out: dict[str, Any] = {}
    for k, v in p.items():
        if isinstance(v, list) and v and all(isinstance(x, str) and x in state.units for x in v):
            out[k] = [x for x in v if x not in hidden]
        elif isinstance(v, dict) and v and all(k2 in state.units for k2 in v):
            out[k] = {k2: v2 for k2, v2 in v.items() if k2 not in hidden}
        else:
            out[k] = v
    return out
