"""Movement (DG 7.1-7.6): movement points, the minimum move, terrain entry costs, roads,
rivers with LVT and engineer crossings, zones of control, stacking and sea movement.

A move is one action: one unit to one destination. The engine finds the cheapest legal
path and applies its costs and side effects. A sea move (DG 7.6) is its own action, after
which the unit may still make its land move with the points it has left.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import TYPE_CHECKING

from henderson.core.errors import IllegalAction
from henderson.core.events import Event

from ..actions import DGAction, act
from .common import event_effect, occupancy, place, room, take_control

if TYPE_CHECKING:
    from ..state import DGState
    from ..units import UnitState


@dataclass(frozen=True)
class Route:
    """How a unit reaches a hex: cost, path (start excluded), hexes crossed with a helper
    (LVT/engineer, DG 7.3.3)."""

    cost: int
    path: tuple[str, ...]
    helpers: tuple[str, ...]
    sea: bool


def allowance(state: DGState, unit: UnitState) -> int:
    """Movement points left this phase: the printed value, the stealth pool (DG 7.7.4),
    plus this turn's event, minus what was spent (detection, DG 7.7.5)."""
    if unit.pool:
        return unit.pool - unit.spent
    base = state.data.units[unit.id].movement + event_effect(state, "movement", unit.side)
    return max(0, base - unit.spent)


class Context:
    """What every route search of one side needs, computed once per position."""

    def __init__(
        self, state: DGState, side: str, occ: dict[str, list[UnitState]] | None = None
    ) -> None:
        self.occ = occ if occ is not None else occupancy(state)
        self.side = side
        m = state.data.map
        self.enemy: set[str] = {h for h, us in self.occ.items() if us[0].side != side}
        seen = {h for h in self.enemy if any(not u.stealth for u in self.occ[h])}
        near = {n for h in seen for n in m.adjacent[h]}
        self.zoc: set[str] = {h for h in near if not m.hexes[h].jungle}  # DG 7.4, 7.4.2
        used = state.flags.get("crossings", {})
        self.helper_type = False  # the moving unit is itself an LVT or engineer
        self.helpers: set[str] = set()
        for h, us in self.occ.items():
            for u in us:
                if (
                    u.side == side
                    and state.data.units[u.id].type in ("lvt", "engineer")
                    and used.get(u.id, 0) < u.strength
                ):
                    self.helpers.add(h)


def step_cost(
    state: DGState,
    unit: UnitState,
    frm: str,
    to: str,
    ctx: Context,
) -> tuple[int, bool, bool] | None:
    """(cost, must stop, used a helper) to enter `to` from `frm`; None when it may not."""
    m = state.data.map
    h = m.hexes[to]
    if h.base == "sea" or to in ctx.enemy:  # DG 7.3.8: never into an enemy hex
        return None
    mv = state.data.movement
    zoc = to in ctx.zoc  # DG 7.4.1 stop on entering an enemy zone of control
    if unit.pool:  # DG 7.7.4 stealth movement: jungle only, 4 a hex, rivers ignored
        if h.base != "jungle":
            return None
        return mv.stealth_hex, zoc, False
    if to in m.road_next.get(frm, ()):  # DG 7.3.7 along a road: free (to a village: 1)
        return (mv.road_to_village if h.village else mv.road_to_road), zoc, False
    if h.village and m.hexes[frm].road:  # DG 7.3.7 road hex to village hex: 1
        cost = mv.road_to_village
    else:  # DG 7.3: the most expensive terrain in the hex
        cost = mv.jungle if h.base == "jungle" else mv.clear
        if h.village:
            cost = max(cost, mv.village)
    stop = zoc
    helped = False
    if h.river:
        cost = max(cost, mv.river)
        if to in m.river_next.get(frm, ()) or ctx.helper_type:
            pass  # DG 7.3.3 up or down stream, or the helper itself
        elif to in ctx.helpers:
            helped = True
        else:
            stop = True
    return cost, stop, helped


def routes(state: DGState, unit: UnitState, ctx: Context | None = None) -> dict[str, Route]:
    """Every hex `unit` may end its move in this phase, with the route it would take."""
    ctx = ctx if ctx is not None and ctx.side == unit.side else Context(state, unit.side)
    ctx.helper_type = state.data.units[unit.id].type in ("lvt", "engineer")
    m = state.data.map
    budget = allowance(state, unit)
    start = unit.at
    first_extra = 0
    if unit.landed == state.turn and m.hexes[start].coastal and not unit.pool:
        first_extra = state.data.movement.landing_penalty  # DG 7.3.5, DG 6.0
    best = {
        h: r for h, r in _search(state, unit, ctx, start, budget, first_extra).items() if h != start
    }
    if unit.spent == 0 and not unit.pool:  # DG 7.2 a unit may always move one hex
        for n in m.adjacent[start]:
            if n not in best and step_cost(state, unit, start, n, ctx) is not None:
                best[n] = Route(budget, (n,), (), False)
    return {h: r for h, r in best.items() if room(state, ctx.occ, h, unit)}


def _search(
    state: DGState, unit: UnitState, ctx: Context, start: str, budget: int, first_extra: int
) -> dict[str, Route]:
    """Cheapest paths from `start`; a hex entered with a forced stop is not left again."""
    m = state.data.map
    done: set[tuple[str, bool]] = set()
    found: dict[str, Route] = {}
    heap: list[tuple[int, int, str, tuple[str, ...], tuple[str, ...], bool]] = [
        (0, 0, start, (), (), False)
    ]
    while heap:
        cost, _, hid, path, helpers, stop = heapq.heappop(heap)
        if (hid, stop) in done:
            continue
        done.add((hid, stop))
        if hid not in found or found[hid].cost > cost:
            found[hid] = Route(cost, path, helpers, False)
        if stop:
            continue
        for n in m.adjacent[hid]:
            sc = step_cost(state, unit, hid, n, ctx)
            if sc is None:
                continue
            c, must_stop, helped = sc
            total = cost + c + (first_extra if not path else 0)
            if total > budget or (n, must_stop) in done:
                continue
            heapq.heappush(
                heap,
                (
                    total,
                    len(path) + 1,
                    n,
                    (*path, n),
                    (*helpers, n) if helped else helpers,
                    must_stop,
                ),
            )
    return found


def sea_allowed(state: DGState, unit: UnitState, ctx: Context) -> bool:
    """DG 7.6: up to three units a turn, starting their move on a coastal hex not next to an
    enemy unit."""
    if unit.spent or unit.pool or unit.moved:
        return False
    if state.flags.get("sea", {}).get(unit.side, 0) >= state.data.constants.sea_moves_per_turn:
        return False
    m = state.data.map
    return m.hexes[unit.at].coastal and not any(n in ctx.enemy for n in m.adjacent[unit.at])


def sea_hexes(state: DGState, unit: UnitState, ctx: Context) -> list[str]:
    """DG 7.6: any other coastal hex free of enemy units and with room, for two points."""
    if (
        not sea_allowed(state, unit, ctx)
        or allowance(state, unit) < state.data.movement.sea_landing
    ):
        return []
    return sorted(
        h
        for h, info in state.data.map.hexes.items()
        if info.coastal and h != unit.at and h not in ctx.enemy and room(state, ctx.occ, h, unit)
    )


def movers(state: DGState, side: str) -> list[UnitState]:
    """Units of `side` that may still move this phase."""
    stuck = state.flags.get("stuck", [])  # DG 2.2.2.6 note: landed anywhere, no farther
    return [
        u
        for u in state.units.values()
        if u.side == side and u.on_map and not u.moved and not u.stealth and u.id not in stuck
    ]


def legal(state: DGState, side: str) -> list[DGAction]:
    """Movement-phase moves (land and sea), in a deterministic order."""
    out: list[DGAction] = []
    ctx = Context(state, side)
    for u in sorted(movers(state, side), key=lambda x: x.id):
        out.extend(act("move", u.id, hid) for hid in sorted(routes(state, u, ctx)))
        out.extend(act("sea", u.id, hid) for hid in sea_hexes(state, u, ctx))
    return out


def do_sea(state: DGState, unit: UnitState, dest: str, events: list[Event]) -> None:
    """DG 7.6: the unit sails to `dest` and may go on moving with its remaining points; it
    stops there if the hex is in an enemy zone of control."""
    ctx = Context(state, unit.side)
    if dest not in sea_hexes(state, unit, ctx):
        raise IllegalAction("DG 7.6", f"{unit.id} cannot move by sea to {dest}")
    sea = state.flags.setdefault("sea", {})
    sea[unit.side] = sea.get(unit.side, 0) + 1
    frm = unit.at
    unit.spent += state.data.movement.sea_landing
    unit.landed = 0
    take_control(state, unit, dest, events)
    place(state, unit, dest)
    if dest in ctx.zoc:
        unit.moved = True
    events.append(
        Event(
            "move",
            f"{unit.id} moves by sea {frm} -> {dest}",
            {"unit": unit.id, "from": frm, "to": dest, "sea": True},
        )
    )


def do_move(state: DGState, unit: UnitState, dest: str, events: list[Event]) -> None:
    """Move `unit` to `dest` along its cheapest route (DG 7.1)."""
    ctx = Context(state, unit.side)
    route = routes(state, unit, ctx).get(dest)
    if route is None:
        raise IllegalAction("DG 7.1", f"{unit.id} cannot reach {dest} this phase")
    used = state.flags.setdefault("crossings", {})
    for hid in route.helpers:  # DG 7.3.3 count crossings through the helper's hex
        for u in ctx.occ.get(hid, []):
            if (
                u.side == unit.side
                and state.data.units[u.id].type in ("lvt", "engineer")
                and used.get(u.id, 0) < u.strength
            ):
                used[u.id] = used.get(u.id, 0) + 1
                break
    frm = unit.at
    for hid in route.path:  # DG 9.3 control by passing through
        take_control(state, unit, hid, events)
    unit.spent += route.cost
    unit.moved = True
    unit.pool = 0
    place(state, unit, dest)
    events.append(
        Event(
            "move",
            f"{unit.id} moves {frm} -> {dest} ({route.cost} MP)",
            {
                "unit": unit.id,
                "from": frm,
                "to": dest,
                "cost": route.cost,
                "path": list(route.path),
            },
        )
    )


def path_cost(state: DGState, unit: UnitState, path: list[str]) -> int:
    """The movement points `unit` spends along `path` (start excluded), checking each step:
    IllegalAction when a hex may not be entered or the unit had to stop before the end."""
    ctx = Context(state, unit.side)
    ctx.helper_type = state.data.units[unit.id].type in ("lvt", "engineer")
    here = unit.at
    total = 0
    if unit.landed == state.turn and state.data.map.hexes[here].coastal and not unit.pool:
        total += state.data.movement.landing_penalty  # DG 7.3.5
    for i, nxt in enumerate(path):
        if nxt not in state.data.map.adjacent[here]:
            raise IllegalAction("DG 7.1", f"{here} and {nxt} are not adjacent")
        sc = step_cost(state, unit, here, nxt, ctx)
        if sc is None:
            raise IllegalAction("DG 7.3.8", f"{unit.id} may not enter {nxt}")
        cost, stop, _ = sc
        total += cost
        if stop and i < len(path) - 1:
            raise IllegalAction(
                "DG 7.3.3" if state.data.map.hexes[nxt].river else "DG 7.4.1",
                f"{unit.id} must stop in {nxt}",
            )
        here = nxt
    return total
