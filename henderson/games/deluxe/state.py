"""One Deluxe Guadalcanal position: whose decision it is, what they may do, applying it,
fog of war in `view`, and the versioned JSON position (docs/deluxe.md)."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from henderson.core.dice import Dice
from henderson.core.errors import IllegalAction
from henderson.core.events import Event
from henderson.core.game import State

from .actions import DGAction, act, intern
from .model import SIDES, other
from .rules import (
    artillery,
    assault,
    explain,
    guerrilla,
    movement,
    rabaul,
    reinforcements,
    sequence,
    stealth,
    victory,
)
from .rules.common import occupancy, stack_size, vp_text
from .units import UnitState

if TYPE_CHECKING:
    from .game import DGGame

POSITION_FORMAT = "henderson-position"
PRIVATE_FLAGS = ("crossings", "hf_work", "stuck", "advanced")  # they name units the enemy may not see
POSITION_VERSION = 1
WORDS = re.compile(r"[\s+,;:()]+")  # what separates unit ids in an event's text
NOT_LANDED = ("turn", "rabaul", "next")  # off the map, still to come (DG 3.0, 10.2)

class DGState(State):
    """A position of Deluxe Guadalcanal implementing the `henderson.core.game.State` API."""

    turn: int = 1  # the game turn, counted from 1 (DG 3.0)

    def __init__(self, game: DGGame, dice: Dice, seed: int | None, options: dict[str, Any]) -> None:
        self._game = game
        self.data = game.data
        self.dice = dice
        self.seed = seed
        self.options = options
        self.turn = 1
        self.step_index = 0  # index into data.sequence
        self.open = False  # the current step waits for decisions
        self._ply = 0
        self.supply = {s: 0 for s in SIDES}
        self.hf = self.data.constants.hf_start
        self.hf_control = "jp"  # DG 9.3 the Japanese control everything at the start
        self.vp = 0  # positive: US ahead; negative: Japan ahead (DG 2.1.8.4)
        self.villages = {h: "jp" for h in self.data.map.villages}
        self.units: dict[str, UnitState] = {}
        self.flags: dict[str, Any] = {}  # this turn's bookkeeping
        self.next_flags: dict[str, Any] = {}  # carried into the next turn (DG 10.2)
        self.naval_last: dict[str, int] = {}
        self.drawn: list[int] = []
        self.jp_withdrawn = 0
        self.counter = 0  # stacking order
        self.pending: list[dict[str, Any]] = []
        self.result: tuple[str, str] | None = None  # (winner or "", reason)
        self._legal: tuple[int, list[DGAction], set[int]] | None = None

    # -- protocol ----------------------------------------------------------------------------
    @property
    def game(self) -> DGGame:
        """The game this position belongs to."""
        return self._game

    @property
    def ply(self) -> int:
        """Actions applied since the start."""
        return self._ply

    @property
    def step(self) -> str:
        """The id of the current step of the sequence of play (DG 4.0)."""
        return self.data.sequence[self.step_index].id

    step_id = step

    @property
    def turn_label(self) -> str:
        """The turn and its date on the turn record track (DG 3.0)."""
        return f"turn {self.turn} ({self.data.turn(self.turn).date})"

    def current_player(self) -> str | None:
        """The side that must decide now (the owner decides its own losses and retreats)."""
        if self.result is not None:
            return None
        if self.pending:
            return str(self.pending[-1]["side"])
        return self.data.sequence[self.step_index].side

    def is_terminal(self) -> bool:
        """True once the game has ended (DG 9.4)."""
        return self.result is not None

    def winner(self) -> str | None:
        """The winning side; None while playing or after a draw."""
        return (self.result[0] or None) if self.result else None

    @property
    def end_cause(self) -> str | None:
        """Why the game ended, in a few words (DG 9.0, 9.4); None while playing."""
        return victory.cause(self.result[1]) if self.result else None

    def legal_actions(self) -> list[DGAction]:
        """Every legal action of the current player, in a deterministic order."""
        return list(self._legal_now()[0])

    def changed(self) -> None:
        """Forget this ply's legal actions (call after editing the position from outside).
        The game's route and action caches are keyed by what they depend on, never stale."""
        self._legal = None

    def _legal_now(self) -> tuple[list[DGAction], set[int]]:
        """This ply's legal actions, and their identities (actions are shared objects, so an
        action played is checked without comparing it to a thousand others)."""
        if self._legal is None or self._legal[0] != self._ply:
            acts = self._compute_legal()
            self._legal = (self._ply, acts, set(map(id, acts)))
        return self._legal[1], self._legal[2]

    def _compute_legal(self) -> list[DGAction]:
        if self.result is not None:
            return []
        if self.pending:
            p = self.pending[-1]
            if p["kind"] == "assault":
                return assault.decision_legal(self, p)
            if p["kind"] == "stealth_move":
                return self._stealth_move_legal(p)
            if p["kind"] == "rabaul":
                return rabaul.legal(self, p)
            if p["kind"] == "artillery_loss":
                return artillery.loss_legal(self, p)
            raise AssertionError(f"unknown pending kind {p['kind']}")
        step = self.data.sequence[self.step_index]
        side = step.side
        kind = step.kind
        if kind == "naval":
            can = artillery.can_bombard(self, side)
            return [act("bombard"), act("pass")] if can else [act("pass")]
        if kind == "reinforce":
            return reinforcements.legal(self, side)
        if kind == "guerrilla":
            return guerrilla.legal(self)
        if kind == "move":
            ctx = movement.Context(self, side)  # read by both, changed by neither
            return [*movement.legal(self, side, ctx), *stealth.legal(self, side, ctx), act("end")]
        if kind == "fire":
            return [*artillery.legal(self, side), act("end")]
        if kind == "combat":
            return assault.legal(self, side)
        return []

    def _stealth_move_legal(self, p: dict[str, Any]) -> list[DGAction]:
        return stealth.detected_legal(self, p)

    def _apply(self, action: DGAction) -> list[Event]:  # type: ignore[override]
        """Check and play an action; IllegalAction names the rule."""
        action = intern(action)
        acts, ids = self._legal_now()
        if id(action) not in ids and action not in acts:
            raise self._explain(action)
        events: list[Event] = []
        self._dispatch(action, events)
        self._ply += 1
        self._legal = None
        return events

    def _explain(self, action: DGAction) -> IllegalAction:
        """Why `action` is refused, with the rule (rules/explain.py)."""
        return explain.why_not(self, action)

    def _dispatch(self, a: DGAction, events: list[Event]) -> None:
        verb = a.verb
        unit = self.units.get(a.args[0]) if a.args and a.args[0] in self.units else None
        if self.pending:
            p = self.pending[-1]
            if p["kind"] == "assault":
                assault.decide(self, p, a, events)
            elif p["kind"] == "stealth_move":
                if verb == "pass":
                    self.pending.pop()
                else:
                    assert unit is not None
                    movement.do_move(self, unit, a.args[1], events)
                    if not any(not self.units[i].moved for i in p["units"] if self.units[i].on_map):
                        self.pending.pop()
            elif p["kind"] == "rabaul":
                rabaul.pick(self, p, a, events)
            elif p["kind"] == "artillery_loss":
                artillery.decide_loss(self, p, a, events)
            sequence.after_pending(self, events)
            return
        kind = self.data.sequence[self.step_index].kind
        side = self.data.sequence[self.step_index].side
        if kind == "naval":
            if verb == "bombard":
                artillery.bombard(self, side, events)
            sequence.finish_step(self, events)
        elif kind == "reinforce":
            assert unit is not None
            reinforcements.land(self, unit, a.args[1], events)
            if not reinforcements.legal(self, side):
                sequence.finish_step(self, events)
        elif kind == "guerrilla":
            if verb == "pass":
                sequence.finish_step(self, events)
            else:
                guerrilla.attempt(self, a.args[0], events)
                if len(guerrilla.legal(self)) <= 1:
                    sequence.finish_step(self, events)
        elif kind == "move":
            self._movement(a, unit, events)
        elif kind == "fire":
            if verb == "end":
                sequence.finish_step(self, events)
            else:
                assert unit is not None
                if verb == "fire":
                    artillery.fire(self, unit, a.args[1], a.number(2), events)
                else:
                    artillery.counter(self, unit, a.args[1], a.number(2), events)
                if not artillery.legal(self, side):
                    sequence.finish_step(self, events)
        elif kind == "combat":
            if verb == "end":
                sequence.finish_step(self, events)
            else:
                assault.open_assault(self, side, a.args[0])
        if self.pending:
            return
        sequence.run(self, events)

    def _movement(self, a: DGAction, unit: UnitState | None, events: list[Event]) -> None:
        verb = a.verb
        if verb == "end":
            sequence.finish_step(self, events)
            return
        if verb == "stack":
            movement.do_stack(self, a.args[0].split("+"), a.args[1], events)
            return
        assert unit is not None
        if verb == "move":
            movement.do_move(self, unit, a.args[1], events)
        elif verb == "sea":
            movement.do_sea(self, unit, a.args[1], events)
        elif verb == "stealth":
            stealth.enter(self, unit, events)
        elif verb == "unstealth":
            stealth.leave(self, unit, events, detected=False)
        elif verb == "detect":
            if len(a.args) == 3:  # DG 7.7.5 part-way through the move: a leg first
                movement.do_move(self, unit, a.args[2], events, finish=False)
            stealth.detect(self, unit, a.args[1], events)
        elif verb == "withdraw":
            stealth.withdraw(self, unit, events)
        elif verb == "consolidate":
            stealth.consolidate(self, unit, self.units[a.args[1]], events)
        elif verb == "repair":
            stealth.repair(self, unit, events)
        elif verb == "wreck":
            stealth.wreck(self, unit, events)

    # -- copies and positions -------------------------------------------------------------------
    def clone(self) -> DGState:
        """An independent copy (dice included)."""
        other_state = DGState.__new__(DGState)
        other_state.__dict__.update(self.__dict__)
        other_state.dice = self.dice.clone()
        other_state.units = {k: u.copy() for k, u in self.units.items()}
        for name in ("supply", "villages", "naval_last"):
            setattr(other_state, name, dict(getattr(self, name)))
        other_state.flags = plain_copy(self.flags)
        other_state.next_flags = plain_copy(self.next_flags)
        other_state.pending = plain_copy(self.pending)
        other_state.drawn = list(self.drawn)
        other_state.options = dict(self.options)
        other_state._legal = None
        return other_state

    def to_json(self) -> dict[str, Any]:
        """The versioned, hand-editable position (docs/deluxe.md)."""
        return {
            "format": POSITION_FORMAT,
            "game": "deluxe",
            "version": POSITION_VERSION,
            "data_version": self.data.version,
            "turn": self.turn,
            "step": self.step_id,
            "open": self.open,
            "ply": self._ply,
            "seed": self.seed,
            "options": dict(self.options),
            "supply": dict(self.supply),
            "henderson_field": {"status": self.hf, "control": self.hf_control},
            "vp": self.vp,
            "villages": dict(sorted(self.villages.items())),
            "units": {uid: u.to_json() for uid, u in self.units.items()},
            "flags": plain_copy(self.flags),
            "next_flags": plain_copy(self.next_flags),
            "naval_last": dict(self.naval_last),
            "cards_drawn": list(self.drawn),
            "japan_withdrawn": self.jp_withdrawn,
            "stack_counter": self.counter,
            "pending": plain_copy(self.pending),
            "result": list(self.result) if self.result else None,
            "dice": self.dice.to_json(),
        }

    def view(self, side: str | None) -> dict[str, Any]:
        """DG 7.8 fog of war: of an enemy stack only the top counter not under stealth is
        shown, with the number of counters; stealth units show only as markers (value, hex).
        Enemy units not yet landed show at their printed place (turn track or Rabaul) and
        the Rabaul picks only as a number (docs/rulings/deluxe.md ruling 14a, DG 10.2).
        The dice state never leaves the engine."""
        data = self.to_json()
        data.pop("dice", None)
        data.pop("seed", None)  # with the seed the rolls to come could be foreseen
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
        out_units: dict[str, Any] = {}
        sailing = 0
        for uid, u in self.units.items():
            if u.side == side or uid in visible:
                out_units[uid] = u.to_json()
            elif u.at in NOT_LANDED:  # DG 2.2.1.10-11: the printed arrival is public
                sailing += u.at == "next"
                out_units[uid] = {"side": u.side, "at": self.home(uid), "strength": u.strength}
            elif not u.on_map:  # eliminated, withdrawn, absorbed: done in plain sight
                out_units[uid] = u.to_json()
        data["units"] = out_units
        data["enemy_stacks"] = stacks
        data["stealth_markers"] = markers
        data["rabaul_sailing"] = sailing  # DG 10.2: how many picks, not which
        data["viewer"] = side
        hidden = self.hidden_ids(side)
        data["pending"] = [_filter_ids(p, hidden, self) for p in data["pending"]]
        data["flags"] = {k: v for k, v in data["flags"].items() if k not in PRIVATE_FLAGS}
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
        if self.pending and self.pending[-1]["kind"] == "assault":
            return assault.odds(self, self.pending[-1])
        return None

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
        if not 0 <= self.hf <= c.hf_max:
            errs.append(f"Henderson Field status {self.hf} outside 0..{c.hf_max}")
        return errs

    def summary(self) -> str:
        """One line: turn, step, VPs, Henderson Field, supply."""
        step = self.data.sequence[self.step_index]
        t = self.data.turn(self.turn)
        return (
            f"turn {self.turn} ({t.date}) step {step.number} {step.name}; VP {vp_text(self.vp)}; "
            f"HF {self.hf} ({self.hf_control}); "
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


def other_side(side: str) -> str:
    """The opposing side."""
    return other(side)


def plain_copy(obj: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars), much faster than deepcopy."""
    if isinstance(obj, dict):
        return {k: plain_copy(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [plain_copy(v) for v in obj]
    return obj
