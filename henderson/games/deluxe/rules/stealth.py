"""Stealth (DG 7.7): entering and continuing stealth in jungle, leaving it with a pool of
movement points, detection by moving enemy units; and the other movement-phase options:
withdrawal (DG 7.9), consolidation (DG 7.10) and Henderson Field repair and reduction
(DG 7.11).
"""

from __future__ import annotations

from itertools import chain, compress, count
from operator import attrgetter, is_not, itemgetter
from typing import TYPE_CHECKING, Any

from henderson.core.events import Event, roll
from henderson.core.game import Action
from henderson.core.hexgrid import within

from ..actions import DGAction, act
from ..decisions import StealthMove
from ..model import other
from ..units import OFF_MAP_SET
from .common import award_vp, change_hf, enemy_adjacent, event_effect, in_enemy_zoc
from .movement import CACHE_LIMIT, Context, allowance, do_move, routes, unit_routes
from .phase import DGPhase

if TYPE_CHECKING:
    from ..state import DGState
    from ..units import UnitState


def stealth_sides(state: DGState) -> tuple[str, ...]:
    """Japanese units use stealth; US infantry too with the DG 7.7.6 option."""
    return ("jp", "us") if state.options.get("us_stealth") else ("jp",)


def can_enter(state: DGState, u: UnitState, occ: dict) -> bool:
    """DG 7.7 / 7.7.1: an infantry unit in jungle, not next to an enemy, in lieu of moving."""
    return (
        u.side in stealth_sides(state)
        and state.data.units[u.id].infantry  # Heavy Infantry too (DG 10.2.3 note)
        and u.on_map
        and not u.stealth
        and not u.moved
        and not u.spent
        and not u.pool
        and not u.leg
        and state.data.map.hexes[u.at].jungle
        and not enemy_adjacent(state, occ, u.at, u.side)
    )


def pool_for(state: DGState, u: UnitState) -> int:
    """DG 7.7.4: printed movement times the turns under stealth (at most three)."""
    turns = min(u.stealth, state.data.constants.stealth_max)
    return state.data.units[u.id].movement * turns


def markers(state: DGState, side: str) -> dict[str, int]:
    """Stealth markers of `side` on the map: hex -> marker value (the highest in the hex)."""
    out: dict[str, int] = {}
    # the side's counters under a marker picked out without a Python step per counter
    for u in filter(STEALTH, map(state.units.__getitem__, state.game.ids_by_side[side])):
        if u.on_map:
            out[u.at] = max(out.get(u.at, 0), u.stealth)
    return out


STEALTH = attrgetter("stealth")  # a counter's stealth marker (0: none)
Options = tuple[DGAction, ...]
NONE: Options = ()


Kept = tuple[Options, Options, bool]  # what `OptionLists` keeps of one unit's record
OFF: Kept = (NONE, NONE, False)  # a unit off the map: no option


class OptionLists:
    """A side's movement-phase options other than moves, unit by unit in id order: entering
    or leaving stealth (DG 7.7), withdrawal (DG 7.9), Henderson Field work (DG 7.11), and
    whether it may consolidate (DG 7.10, `may_consolidate`: its record alone), with the
    records they were made from. The next position's listing makes them again only for the
    units whose record changed (for all, when what they all read changed: `legal`). Never
    changed once made, so a position and its clones share it."""

    __slots__ = ("basis", "kept", "records")

    def __init__(self, basis: tuple[Any, ...], records: tuple[UnitState, ...], kept: list[Kept]) -> None:
        self.basis = basis
        self.records = records  # the side's records, in the order of its ids
        self.kept = kept  # for each: stealth options, withdrawal and field work, consolidates

    @property
    def units(self) -> dict[str, Kept]:
        """What is kept of each unit on the map, by unit id."""
        return {u.id: k for u, k in zip(self.records, self.kept, strict=True) if u.at not in OFF_MAP_SET}


def legal(state: DGState, side: str, ctx: Context | None = None) -> list[DGAction]:
    """Stealth, detection, withdrawal, consolidation and repair actions of a movement phase.
    Each unit's options are kept (`OptionLists`) and read back in passes that make no Python
    step per unit (`map`, `compress`, `chain`): a listing follows every move."""
    ctx = ctx if ctx is not None and ctx.side == side else Context.of(state, side)
    occ = ctx.occ
    # what every unit's options read besides its record: the visible enemy next to it (the
    # context's key), the turn (DG 7.9.1), the field and who worked on it, the withdrawals
    basis = (
        side,
        state.turn,
        ctx.key,
        state.airfield,
        tuple(state.this_turn.hf_work),
        state.this_turn.withdrawals,
        stealth_sides(state),
    )
    stealthy = side in stealth_sides(state)  # DG 7.7, 7.7.6: whether its units may enter stealth
    records = tuple(map(state.units.__getitem__, state.game.ids_by_side[side]))  # in id order
    before = state.option_lists
    if before is not None and before.basis == basis:
        made = before.kept
        copied = False
        for i in compress(count(), map(is_not, before.records, records)):  # the records replaced
            if not copied:
                made, copied = list(made), True
            made[i] = _options(state, records[i], occ, stealthy)
    else:  # those off the map passed over without a call
        made = [OFF if u.at in OFF_MAP_SET else _options(state, u, occ, stealthy) for u in records]
    state.option_lists = OptionLists(basis, records, made)
    out = list(chain.from_iterable(map(itemgetter(0), made)))
    off = OFF_MAP_SET
    units: list[UnitState] | None = None  # the units on the map, in id order, when needed
    enemy_markers = markers(state, other(side))
    if enemy_markers:
        units = [u for u in records if u.at not in off]
        out.extend(detect_legal(state, side, units, enemy_markers, ctx))
    out.extend(chain.from_iterable(map(itemgetter(1), made)))
    together: dict[str, list[UnitState]] = {}  # DG 7.10 only units in one hex consolidate
    merging = list(compress(records, map(itemgetter(2), made)))
    for u in merging:
        together.setdefault(u.at, []).append(u)
    if len(together) < len(merging):  # two of them share a hex
        for a in [u for u in records if u.at not in off] if units is None else units:
            for b in together.get(a.at, ()):  # either may be the one that stays: DG 7.10 does not say which
                if b is not a and can_consolidate(state, a, b):
                    out.append(act("consolidate", a.id, b.id))
    return out


def _options(state: DGState, u: UnitState, occ: dict, stealthy: bool) -> Kept:
    """What `OptionLists` keeps of one unit's record (nothing for a unit off the map)."""
    if u.at in OFF_MAP_SET:
        return OFF
    return (_stealth_options(state, u, occ, stealthy), _other_options(state, u, occ), may_consolidate(state, u))


def _stealth_options(state: DGState, u: UnitState, occ: dict, stealthy: bool) -> Options:
    """DG 7.7.1 entering stealth (`can_enter`, its quick refusals first; never when its side
    may not, `stealthy` false), DG 7.7.3 leaving it."""
    if u.stealth:
        return NONE if u.moved else (act("unstealth", u.id),)
    if not stealthy or u.moved or u.spent or u.pool or u.leg:
        return NONE
    return (act("stealth", u.id),) if can_enter(state, u, occ) else NONE


def _other_options(state: DGState, u: UnitState, occ: dict) -> Options:
    """DG 7.9 withdrawal (from the village the unit began its turn in), DG 7.11 Henderson
    Field repair and reduction (on the field)."""
    m = state.data.map
    if u.at != m.henderson_field and (u.at != u.start or u.at not in m.villages):
        return NONE
    found = []
    if can_withdraw(state, u, occ):
        found.append(act("withdraw", u.id))
    if can_repair(state, u):
        found.append(act("repair", u.id))
    if can_wreck(state, u):
        found.append(act("wreck", u.id))
    return tuple(found) if found else NONE


def detect_legal(
    state: DGState,
    side: str,
    units: list[UnitState],
    enemy_markers: dict[str, int],
    ctx: Context | None = None,
) -> list[DGAction]:
    """DG 7.7.5: detection "at any time during its move": from where the unit stands, or
    after a leg to any hex it can reach keeping a point to spend (`detect U T H`)."""
    ctx = ctx if ctx is not None and ctx.side == side else Context.of(state, side)
    stuck = state.this_turn.stuck
    action = state.game.action
    out: list[DGAction] = []
    marks = tuple(sorted(enemy_markers.items()))
    targets = [(hid, near(state, hid, value)) for hid, value in marks]
    full = state.data.constants.stacking
    barred = frozenset(h for h, us in ctx.occ.items() if len(us) >= full)  # DG 7.5
    cache = state.game.detect_cache
    for u in units:
        if u.moved or u.stealth or u.pool:
            continue
        left = allowance(state, u)
        if left < 1:
            continue
        for hid, close in targets:
            if u.at in close:
                out.append(action("detect", u.id, hid))
        if u.leg == "halt" or u.id in stuck:
            continue
        key, raw = unit_routes(state, u, ctx)
        ck = (u.id, key, left, barred, marks)  # all the legs and detections below read
        found = cache.get(ck)
        if found is None:
            if len(cache) > CACHE_LIMIT:
                cache.clear()
            # the hexes it can reach keeping a point to spend (DG 7.7.5), with room (DG 7.5)
            vias = sorted(h for h, c in raw.costs.items() if c < left and h not in barred)
            found = cache[ck] = [
                action("detect", u.id, hid, via) for hid, close in targets for via in vias if via in close
            ]
        out.extend(found)
    return out


def near(state: DGState, hex_id: str, reach: int) -> frozenset[str]:
    """The hexes at most `reach` hexes from `hex_id` (DG 7.7.5 detection range), computed
    once per game object."""
    cache = state.game.near_cache
    key = (hex_id, reach)
    found = cache.get(key)
    if found is None:
        at = state.game.hex_at  # the hexes around it by position, those on the map kept
        around = within(state.data.map.hexes[hex_id].hex, reach)
        found = cache[key] = frozenset(at[h] for h in around if h in at)
    return found


def enter(state: DGState, u: UnitState, events: list[Event]) -> None:
    """DG 7.7.1: place a Stealth 1 marker in lieu of moving."""
    u = state.update(u, stealth=1, moved=True)
    events.append(Event("stealth", f"{u.id} enters stealth", {"unit": u.id}))


def leave(state: DGState, u: UnitState, events: list[Event], detected: bool) -> UnitState:
    """DG 7.7.3-7.7.4: the marker comes off and the unit earns its stealth movement pool;
    the unit's new record."""
    pool = pool_for(state, u)
    u = state.update(u, pool=pool, pool_start=pool, self_exit=not detected, spent=0, stealth=0)
    how = "is detected" if detected else "leaves stealth"
    events.append(
        Event(
            "unstealth",
            f"{u.id} {how} with {u.pool} stealth movement points",
            {"unit": u.id, "pool": u.pool, "detected": detected},
        )
    )
    return u


def detect(state: DGState, u: UnitState, hex_id: str, events: list[Event]) -> None:
    """DG 7.7.5: spend a point and roll: die + distance - marker <= 1 detects the hex."""
    value = markers(state, other(u.side))[hex_id]
    dist = state.data.map.distance(u.at, hex_id)
    u = state.update(u, spent=u.spent + 1)
    die = roll(state.dice, "DG 7.7.5 stealth detection", events)
    total = die + dist - value + event_effect(state, "detect", u.side)
    ok = total <= 1
    events.append(
        Event(
            "detect",
            f"{u.id} tries to detect {hex_id}: {die} + {dist} - {value} = {total}: "
            + ("detected" if ok else "not detected"),
            {"unit": u.id, "hex": hex_id, "total": total, "detected": ok},
        )
    )
    if ok:
        found = [x for x in state.units.values() if x.at == hex_id and x.stealth]
        for x in found:
            state.update(leave(state, x, events, detected=True), moved=False)
        state.pending.append(StealthMove(other(u.side), units=sorted(x.id for x in found)))


class Detected(DGPhase):
    """DG 7.7.5: a detected unit "must complete its stealth movement" (the example: "now must
    move"): each one still to move moves with its pool (DG 7.7.4); `pass` only when none of
    them has a hex to move to."""

    kind = "stealth_move"

    def actions(self, state: DGState) -> list[Action]:
        p = state.decision(StealthMove)
        out: list[Action] = []
        for uid in p.units:
            u = state.units[uid]
            if u.on_map and not u.moved:
                out.extend(act("move", uid, h) for h in sorted(routes(state, u)))
        return out or [act("pass")]

    def do(self, state: DGState, action: Action, events: list[Event]) -> None:
        assert isinstance(action, DGAction)
        p = state.decision(StealthMove)
        if action.verb == "move":
            do_move(state, state.units[action.args[0]], action.args[1], events)
        if action.verb == "pass" or all(state.units[i].moved for i in p.units if state.units[i].on_map):
            state.pending.pop()


DETECTED = Detected()


def end_phase(state: DGState, side: str, events: list[Event]) -> None:
    """DG 7.7.2: a unit that stayed under stealth all phase raises its marker by one."""
    for u in list(state.units.values()):
        stealth = u.stealth
        if u.side == side and u.on_map and u.stealth and not u.moved:
            stealth = min(state.data.constants.stealth_max, u.stealth + 1)
        if stealth != u.stealth or u.pool or u.leg:
            state.update(u, stealth=stealth, pool=0, leg="")


def start_phase(state: DGState, side: str, events: list[Event]) -> None:
    """DG 7.7.3: a unit must leave stealth after its third full turn under the marker."""
    for u in sorted(state.units.values(), key=lambda x: x.id):
        if u.side == side and u.on_map and u.stealth >= state.data.constants.stealth_max:
            leave(state, u, events, detected=False)


# -- DG 7.9 withdrawal ---------------------------------------------------------------------
def can_withdraw(state: DGState, u: UnitState, occ: dict) -> bool:
    """DG 7.9: a unit that began its turn in a village not in an enemy zone of control."""
    c = state.data.constants
    if u.moved or u.spent or u.leg or u.stealth or u.at != u.start:
        return False
    if u.at not in state.data.map.villages:
        return False
    if in_enemy_zoc(state, occ, u.at, u.side):
        return False
    if u.side == "jp":  # DG 7.9.1 ten a turn from the nineteenth turn
        return state.turn >= c.withdrawal_turn and state.this_turn.withdrawals < c.japan_withdrawals_per_turn
    return state.data.units[u.id].first_marine  # DG 7.9.2 1st Marine Division units


def withdraw(state: DGState, u: UnitState, events: list[Event]) -> None:
    """DG 7.9: remove a unit from Guadalcanal (Japanese withdrawals score for the US)."""
    u = state.update(u, at="withdrawn")
    events.append(Event("withdraw", f"{u.id} is withdrawn from Guadalcanal", {"unit": u.id}))
    if u.side == "jp":
        state.this_turn.withdrawals += 1
        state.jp_withdrawn += 1
        if state.jp_withdrawn % 2 == 0:  # DG 9.2 one point per two Japanese units withdrawn
            award_vp(state, "us", 1, events, "DG 9.2 two Japanese units withdrawn")


# -- DG 7.10 consolidation ------------------------------------------------------------------
def may_consolidate(state: DGState, u: UnitState) -> bool:
    """DG 7.10: what `can_consolidate` asks of each of the two units alone."""
    return (
        u.at == u.start
        and u.strength < state.data.units[u.id].strength
        and not (u.moved or u.spent or u.stealth or u.leg)
    )


def can_consolidate(state: DGState, a: UnitState, b: UnitState) -> bool:
    """DG 7.10: two reduced units of one type that began the turn stacked together."""
    ta, tb = state.data.units[a.id], state.data.units[b.id]
    return (
        a.side == b.side
        and ta.type == tb.type
        and a.at == b.at
        and a.start == a.at == b.start
        and a.strength < ta.strength
        and b.strength < tb.strength
        and a.strength + b.strength <= min(ta.strength, tb.strength)
        and not (a.moved or b.moved or a.spent or b.spent or a.stealth or b.stealth)
        and not (a.leg or b.leg)
    )


def consolidate(state: DGState, a: UnitState, b: UnitState, events: list[Event]) -> None:
    """DG 7.10: merge the reduced unit b into a."""
    a = state.update(a, strength=a.strength + b.strength)
    b = state.update(b, strength=0, at="absorbed")
    events.append(
        Event(
            "consolidate",
            f"{b.id} joins {a.id}, now {a.strength}",
            {"unit": a.id, "absorbed": b.id, "strength": a.strength},
        )
    )


# -- DG 7.11 Henderson Field operations ---------------------------------------------------------
def _worker(state: DGState, u: UnitState) -> bool:
    return (
        u.at == state.data.map.henderson_field and not u.stealth and not u.pool and u.id not in state.this_turn.hf_work
    )


def can_repair(state: DGState, u: UnitState) -> bool:
    """DG 7.11.2: an engineer, labour or infantry unit on its own side's field, either the
    whole turn (two points) or after moving at most half its allowance (one point)."""
    t = state.data.units[u.id]
    if not (t.type in ("engineer", "labour") or t.infantry) or not _worker(state, u):
        return False
    if state.airfield.control != u.side or state.airfield.status >= state.data.constants.hf_max:
        return False
    return not (u.moved or u.leg) or u.spent * 2 <= t.movement


def repair(state: DGState, u: UnitState, events: list[Event]) -> None:
    """DG 7.11.2: repair Henderson Field (infantry roll first)."""
    whole = not (u.moved or u.leg)  # a leg (DG 7.5, 7.7.5) is moving
    u = state.update(u, moved=True)
    state.this_turn.hf_work.append(u.id)
    if state.data.units[u.id].infantry:  # 3-6 immobile, 5-6 after moving
        die = roll(state.dice, "DG 7.11.2 infantry repair", events)
        if die < (3 if whole else 5):
            events.append(Event("repair", f"{u.id} fails to repair Henderson Field", {"unit": u.id}))
            return
    change_hf(state, 2 if whole else 1, u.side, events, f"DG 7.11.2 {u.id} repairs")


def can_wreck(state: DGState, u: UnitState) -> bool:
    """DG 7.11.1: an engineer or labour unit on the field may reduce it."""
    return state.data.units[u.id].type in ("engineer", "labour") and _worker(state, u) and state.airfield.status > 0


def wreck(state: DGState, u: UnitState, events: list[Event]) -> None:
    """Six points after a whole turn on the field; three after entering it with at most half
    its movement points; otherwise two (engineer) or one (labour)."""
    t = state.data.units[u.id]
    if not (u.moved or u.leg):
        points = 6
    elif u.spent * 2 <= t.movement:
        points = 3
    else:
        points = 2 if t.type == "engineer" else 1
    u = state.update(u, moved=True)
    state.this_turn.hf_work.append(u.id)
    change_hf(state, -points, u.side, events, f"DG 7.11.1 {u.id} wrecks the field")
