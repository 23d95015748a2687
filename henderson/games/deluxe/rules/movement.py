"""Movement (DG 7.1-7.6): movement points, the minimum move, terrain entry costs, roads,
rivers with LVT and engineer crossings, zones of control, stacking and sea movement.

A move is one action: one unit (or a stack moving together, DG 7.5) to one destination.
The engine finds the cheapest legal path and applies its costs and side effects. A move
may be made in legs: a stack move, or a move to a hex from which a unit tries detection
(DG 7.7.5), leaves the units part-way, free to go on with the points they have left. A sea
move (DG 7.6) is its own action, after which the unit may still make its land move.

Route searches (`core.paths.cheapest`, with the forced stops of zones of control and river
crossings) are the engine's main cost, so their raw results are cached on the game object
under everything they depend on (the unit's hex and points, the enemy's hexes, the river
helpers): while the enemy does not move, each unit is searched once a phase.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Container, Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from itertools import combinations
from operator import is_
from typing import TYPE_CHECKING, Any

from henderson.core.errors import IllegalAction
from henderson.core.events import Event
from henderson.core.paths import Split, cheapest_from, zone_of_control

from ..actions import DGAction, make
from ..units import OFF_MAP_SET
from .common import event_effect, occupancy, place, stack_order, stack_sizes, take_control

if TYPE_CHECKING:
    from ..model import GameData
    from ..state import DGState
    from ..units import UnitState

_new = object.__new__
HELPER_TYPES = ("lvt", "engineer")  # DG 7.3.3 units that carry others across rivers
CACHE_LIMIT = 3_000  # searches kept (about 20 kB each) before the cache is emptied
HELPER_FLAGS = ((False,), (True,))  # a lone unit's `types` in a route key, by whether it is a helper
STEP_TABLES = 64  # tables of steps kept (`Context.step_table`) before they are emptied
SPLITS = 50_000  # hindered hexes' steps kept (`StepTable.__missing__`) before they are emptied


# a search's result: start, then for hexes to go on from and for forced stops, the previous
# hex and whether a helper carried the unit into it
Tree = tuple[str, dict[str, str], dict[str, bool], dict[str, str], dict[str, bool]]


class Route:
    """How a unit reaches a hex: cost, whether it had to stop on entering it, whether this is
    the DG 7.2 one-hex move (it takes the whole allowance), and, worked out only when asked
    for, the path (start excluded) and the hexes crossed with a helper (LVT/engineer,
    DG 7.3.3) — a search finds hundreds of routes and a move follows one."""

    __slots__ = ("_end", "_helpers", "_path", "_tree", "cost", "minimum", "stop")

    def __init__(
        self,
        cost: int,
        stop: bool = False,
        minimum: bool = False,
        end: str = "",
        tree: Tree | None = None,
        path: tuple[str, ...] | None = None,
        helpers: tuple[str, ...] = (),
    ) -> None:
        self.cost = cost
        self.stop = stop
        self.minimum = minimum
        self._end = end
        self._tree = tree
        self._path = path
        self._helpers = helpers

    def __repr__(self) -> str:
        return f"Route(cost={self.cost}, stop={self.stop}, path={self.path})"

    @property
    def path(self) -> tuple[str, ...]:
        """The hexes entered, in order."""
        if self._path is None:
            self._walk()
        assert self._path is not None
        return self._path

    @property
    def helpers(self) -> tuple[str, ...]:
        """The river hexes crossed thanks to a helper's crossings."""
        if self._path is None:
            self._walk()
        return self._helpers

    def _walk(self) -> None:
        assert self._tree is not None
        start, parent, helped, stop_parent, stop_helped = self._tree
        path: list[str] = []
        crossed: list[str] = []
        here = self._end
        if self.stop:
            path.append(here)
            if stop_helped[here]:
                crossed.append(here)
            here = stop_parent[here]
        while here != start:
            path.append(here)
            if helped[here]:
                crossed.append(here)
            here = parent[here]
        path.reverse()
        crossed.reverse()
        self._path = tuple(path)
        self._helpers = tuple(crossed)


class RouteMap(Mapping[str, Route]):
    """A search's routes by destination hex: the costs and forced stops as found, each
    `Route` built only when asked for (a search finds hundreds, a move follows one)."""

    __slots__ = ("costs", "made", "stops", "tree")

    def __init__(self, costs: dict[str, int], stops: set[str], tree: Tree | None) -> None:
        self.costs = costs  # destination -> movement points
        self.stops = stops  # destinations entered with a forced stop
        self.tree = tree
        self.made: dict[str, Route] = {}

    def __getitem__(self, hex_id: str) -> Route:
        found = self.made.get(hex_id)
        if found is None:
            cost = self.costs[hex_id]
            found = self.made[hex_id] = Route(cost, hex_id in self.stops, False, hex_id, self.tree)
        return found

    def __contains__(self, hex_id: object) -> bool:
        return hex_id in self.costs

    def __iter__(self) -> Iterator[str]:
        return iter(self.costs)

    def __len__(self) -> int:
        return len(self.costs)

    def add(self, hex_id: str, route: Route) -> None:
        """Add a route built by hand (the DG 7.2 one-hex move)."""
        self.costs[hex_id] = route.cost
        self.made[hex_id] = route


def allowance(state: DGState, unit: UnitState) -> int:
    """Movement points left this phase: the printed value, the stealth pool (DG 7.7.4),
    plus this turn's event, minus what was spent (detection, DG 7.7.5, earlier legs)."""
    if unit.pool:
        return unit.pool - unit.spent
    base = state.data.units[unit.id].movement + event_effect(state, "movement", unit.side)
    return max(0, base - unit.spent)


def interned(state: DGState, value: Any) -> Any:
    """The one copy the game keeps of a value equal to `value` (frozen sets and tuples of
    them, read as cache keys): keys built from it compare by identity, not hex by hex."""
    kept = state.game.interned
    found = kept.get(value)
    if found is None:
        if len(kept) > CACHE_LIMIT:
            kept.clear()
        found = kept[value] = value
    return found


class Context:
    """What every route search of one side needs, computed once per position: enemy hexes,
    zones of control, river helpers with crossings left, and a cache key."""

    @classmethod
    def of(cls, state: DGState, side: str) -> Context:
        """The context of `side` in this position, kept on the position for as long as what
        it is made from holds (the units, the turn, the river crossings used): listing the
        moves and playing one of them share it. The records are compared by identity (a
        record is replaced, never changed), without a tuple of them made to ask."""
        units = state.units
        crossings = tuple(state.this_turn.crossings.items())
        kept = state.contexts.get(side)
        ctx = None
        if kept is not None:
            before = kept[0]
            if (
                before[0] == state.turn
                and before[2] == crossings
                and len(before[1]) == len(units)
                and all(map(is_, before[1], units.values()))
            ):
                return kept[1]
            made_from = (state.turn, tuple(units.values()), crossings)
            ctx = kept[1].moved_on(state, before, made_from)
        else:
            made_from = (state.turn, tuple(units.values()), crossings)
        if ctx is None:
            ctx = cls(state, side)
        state.contexts[side] = (made_from, ctx)
        return ctx

    def moved_on(self, state: DGState, before: tuple[Any, ...], now: tuple[Any, ...]) -> Context | None:
        """This context brought up to a position where only units of its side other than
        river helpers changed (a move, DG 7.1): the enemy, its zones of control and the
        helpers' crossings are the same, the stacks of the hexes left and entered are made
        again (DG 7.5, 7.8). None when more changed: the context is made afresh."""
        if before[0] != now[0] or before[2] != now[2] or len(before[1]) != len(now[1]):
            return None
        side = self.side
        helpers = state.game.helper_ids
        changed = [(old, new) for old, new in zip(before[1], now[1], strict=True) if old is not new]
        for old, new in changed:
            if new.side != side or new.id in helpers or old.id != new.id:
                return None
        ctx = _new(Context)  # a shallow copy, without `copy.copy`'s round of calls
        ctx.__dict__.update(self.__dict__)
        occ = ctx.occ = dict(self.occ)
        touched: set[str] = set()
        for old, new in changed:
            if old.at not in OFF_MAP_SET:
                occ[old.at] = [u for u in occ[old.at] if u.id != old.id]
                touched.add(old.at)
            if new.at not in OFF_MAP_SET:
                occ[new.at] = [*occ.get(new.at, ()), new]
                touched.add(new.at)
        size = ctx.size = dict(self.size)
        for h in touched:
            units = occ[h]
            if not units:
                del occ[h]
                del size[h]
                continue
            if len(units) > 1:
                units.sort(key=stack_order)
            size[h] = stack_sizes(state, {h: units})[h]  # DG 7.5, a landed Heavy counts two
        ctx.found = dict(self.found)  # the other units' routes hold: nothing they read changed
        full = state.data.constants.stacking
        ctx._no_room = {}
        for n, shut in self._no_room.items():  # the hexes without room, but in the hexes touched
            kept = set(shut)
            for h in touched:
                if size.get(h, 0) + n > full:
                    kept.add(h)
                else:
                    kept.discard(h)
            ctx._no_room[n] = interned(state, frozenset(kept))
        return ctx

    def __init__(self, state: DGState, side: str, occ: dict[str, list[UnitState]] | None = None) -> None:
        self.occ = occ if occ is not None else occupancy(state)
        self.side = side
        self.size = stack_sizes(state, self.occ)  # DG 7.5, a landed Heavy counts two
        m = state.data.map
        helpers = state.game.helper_ids
        used = state.this_turn.crossings
        enemy: list[str] = []
        shown: list[str] = []  # enemy hexes with a unit not under stealth
        self.capacity: dict[str, int] = {}  # hex -> crossings its helpers still offer
        for h, us in self.occ.items():  # a stack holds one side's units (DG 7.3.8)
            if us[0].side != side:
                enemy.append(h)
                if any(not u.stealth for u in us):
                    shown.append(h)
                continue
            for u in us:
                if u.id in helpers:
                    left = u.strength - used.get(u.id, 0)
                    if left > 0:
                        self.capacity[h] = self.capacity.get(h, 0) + left
        # with the helpers, what every search reads; the one copy of it the game keeps, so
        # that cache lookups under it compare it by identity
        self.key: tuple[str, frozenset[str], frozenset[str]] = interned(
            state, (side, frozenset(enemy), frozenset(shown))
        )
        self.enemy: frozenset[str] = self.key[1]
        seen = self.key[2]
        zocs = state.game.zoc_cache
        zoc = zocs.get(seen)
        if zoc is None:
            if len(zocs) > CACHE_LIMIT:
                zocs.clear()
            # DG 7.4 every unit not under stealth controls the hexes around it; DG 7.4.2 not jungle
            zoc = zocs[seen] = frozenset(zone_of_control(seen, m.adjacent, into=lambda n: not m.hexes[n].jungle))
        self.zoc: frozenset[str] = zoc
        self.helper_type = False  # the moving unit is itself an LVT or engineer
        self._carriers: dict[int, frozenset[str]] = {}
        self.interned = state.game.interned
        self._hindered: dict[tuple[bool, int], frozenset[str]] = {}
        self._sea_starts: frozenset[str] | None = None
        self._no_room: dict[int, frozenset[str]] = {}
        self.found: dict[str, tuple[UnitState, tuple[object, ...], RouteMap]] = {}  # `_raw_routes`
        self.steps: dict[tuple[bool, bool, int], StepTable] = {}  # `_search`'s, by kind
        # the game's tables of steps, shared by every context with the same key and helpers
        # (None: this context's own stops, as `route_search` makes)
        self.shared: dict[tuple[Any, ...], StepTable] | None = state.game.step_cache

    def carriers(self, need: int) -> frozenset[str]:
        """Hexes whose helpers can still carry `need` units across a river (DG 7.3.3)."""
        found = self._carriers.get(need)
        if found is None:
            found = frozenset(h for h, c in self.capacity.items() if c >= need)
            found = self._carriers[need] = self.interned.setdefault(found, found)
        return found

    def no_room(self, state: DGState, n: int) -> frozenset[str]:
        """DG 7.5: the hexes without room for `n` more units (the one copy the game keeps)."""
        found = self._no_room.get(n)
        if found is None:
            most = state.data.constants.stacking - n  # the most a hex may hold to take n more
            shut = frozenset([h for h, size in self.size.items() if size > most])
            found = self._no_room[n] = interned(state, shut)
        return found

    def sea_starts(self, state: DGState) -> frozenset[str]:
        """DG 7.6: the coastal hexes not next to an enemy hex, where a sea move may start; the
        one copy the game keeps for these enemy hexes (it reads nothing else), made once for
        the context and the contexts moved on from it (whose enemy is the same)."""
        found = self._sea_starts
        if found is None:
            kept = state.game.sea_starts_cache
            found = kept.get(self.enemy)
            if found is None:
                if len(kept) > CACHE_LIMIT:
                    kept.clear()
                adjacent = state.data.map.adjacent
                near = {n for h in self.enemy for n in adjacent[h]}
                found = kept[self.enemy] = state.game.coastal_set - near
            self._sea_starts = found
        return found

    def hindered(self, state: DGState, rivers: bool, need: int = 1) -> frozenset[str]:
        """The hexes whose steps out are neither all open (`open_steps`) nor, with `rivers`,
        the river steps (`river_steps`): those next to an enemy hex or to its zone of control
        (DG 7.3.8, 7.4.1), and with `rivers` those on a river across which helpers could carry
        `need` units (DG 7.3.3). A search reads the steps kept on the game everywhere else."""
        found = self._hindered.get((rivers, need))
        if found is None:
            near = state.game.hindered_cache
            key = (self.enemy, self.zoc)
            found = near.get(key)
            if found is None:
                if len(near) > CACHE_LIMIT:
                    near.clear()
                adjacent = state.data.map.adjacent
                found = near[key] = frozenset(n for h in self.enemy | self.zoc for n in adjacent[h])
            if rivers:
                across = state.game.river_sources
                found = found.union(*(across.get(h, ()) for h in self.carriers(need)))
            self._hindered[(rivers, need)] = found
        return found

    def step_table(self, state: DGState, pool: bool, rivers: bool, need: int) -> StepTable:
        """`_search`'s steps out of each hex for one kind of search, filled as hexes are
        reached: the same for every position where the enemy, the zones of control and the
        helpers' crossings are (a side's whole movement phase, often), so kept on the game."""
        kind = (pool, rivers, need)
        found = self.steps.get(kind)
        if found is None:
            key = (self.key, kind, self.carriers(need) if rivers else None)
            found = None if self.shared is None else self.shared.get(key)
            if found is None:
                found = StepTable(state, self, pool, rivers, need)
                if self.shared is not None:
                    if len(self.shared) > STEP_TABLES:
                        self.shared.clear()
                    self.shared[key] = found
            self.steps[kind] = found
        return found


class StepTable(dict[str, Split[str]]):
    """The steps out of each hex for one kind of search in one context: never into an enemy
    hex (DG 7.3.8), a stop on entering an enemy zone of control (DG 7.4.1) or on crossing a
    river without a helper's crossings (DG 7.3.3). Made with the open steps of the game's
    table for every hex that nothing hinders (a copy of the table, without a call per hex
    reached), and the game's river steps for the river banks away from the enemy and from
    any helper (`river_steps`); the steps out of a hindered hex are worked out when a search
    first reaches it.
    Each hex's steps are split, those that let the unit go on apart from the stops
    (`core.paths.split_steps`), as tuples."""

    def __init__(self, state: DGState, ctx: Context, pool: bool, rivers: bool, need: int) -> None:
        super().__init__(state.game.open_stealth_steps if pool else state.game.open_steps)
        if rivers:  # DG 7.3.3 on a river bank no helper can serve, a crossing stops the unit
            self.update(state.game.river_steps)
        self.edges = state.game.stealth_edges if pool else state.game.edges
        self.hindered = ctx.hindered(state, rivers, need)
        for here in self.hindered:
            self.pop(here, None)
        self.enemy, self.zoc, self.capacity = ctx.enemy, ctx.zoc, ctx.capacity
        self.rivers = rivers
        self.need = need
        self.pool = pool
        self.shared = state.game.split_cache

    def __missing__(self, here: str) -> Split[str]:
        """The steps out of a hindered hex, as `work_out` gives them: the game's copy for the
        same edges read the same way (each edge into an enemy hex, a stop with or without a
        helper, a step on with or without one), shared by every table of the game, so that
        its searches make a few thousand of them, not one per table and hex."""
        enemy, zoc, cap, need, rivers = self.enemy, self.zoc, self.capacity, self.need, self.rivers
        code = 0  # how each edge is read, one base-5 digit an edge (`work_out`'s branches)
        for to, _cost, river in self.edges[here]:
            code *= 5
            if to in enemy:
                continue
            if rivers and river:
                code += 3 if cap.get(to, 0) < need else 4 if to in zoc else 2
            else:
                code += 3 if to in zoc else 1
        key = (here, self.pool, code)
        found = self.shared.get(key)
        if found is None:
            if len(self.shared) > SPLITS:
                self.shared.clear()
            found = self.shared[key] = self.work_out(here)
        self[here] = found
        return found

    def work_out(self, here: str) -> Split[str]:
        """The steps out of `here` read from its edges one by one (DG 7.3.3, 7.3.8, 7.4.1)."""
        enemy, zoc, cap, need, rivers = self.enemy, self.zoc, self.capacity, self.need, self.rivers
        goes: list[tuple[str, int, bool]] = []
        halts: list[tuple[str, int, bool]] = []
        go, halt = goes.append, halts.append
        for to, cost, river in self.edges[here]:
            if to in enemy:  # DG 7.3.8 never into an enemy hex
                continue
            if rivers and river:  # DG 7.3.3 a river crossing: a helper carries it, or it stops
                if cap.get(to, 0) < need:
                    halt((to, cost, False))
                elif to in zoc:  # DG 7.4.1
                    halt((to, cost, True))
                else:
                    go((to, cost, True))
            elif to in zoc:  # DG 7.4.1 stop on entering an enemy zone of control
                halt((to, cost, False))
            else:
                go((to, cost, False))
        # tuples: of plain values only, so the collector stops tracking them (lists it never does)
        return (tuple(goes), tuple(halts))


def step_cost(
    state: DGState,
    unit: UnitState,
    frm: str,
    to: str,
    ctx: Context,
    need: int = 1,
) -> tuple[int, bool, bool] | None:
    """(cost, must stop, used a helper) to enter `to` from `frm`; None when it may not.
    `need` is how many units cross a river together with one helper's crossings. The same
    reading of the edge tables as `_search`, one step at a time."""
    if to in ctx.enemy:  # DG 7.3.8: never into an enemy hex
        return None
    zoc = to in ctx.zoc  # DG 7.4.1 stop on entering an enemy zone of control
    if unit.pool:  # DG 7.7.4 stealth movement: jungle only, 4 a hex, rivers ignored
        for other, cost, _ in state.game.stealth_edges[frm]:
            if other == to:
                return cost, zoc, False
        return None
    for other, cost, river in state.game.edges[frm]:
        if other != to:
            continue
        if not river or (ctx.helper_type and need == 1):
            return cost, zoc, False  # DG 7.3.3 no crossing, or the helper itself
        if ctx.capacity.get(to, 0) >= need:
            return cost, zoc, True
        return cost, True, False
    return None  # the sea, or not next to `frm`


def landing_extra(state: DGState, unit: UnitState) -> int:
    """DG 7.3.5, DG 6.0: two more points to leave the coastal landing hex on arrival."""
    if unit.landed == state.turn and state.data.map.hexes[unit.at].coastal and not unit.pool and not unit.leg:
        return state.data.movement.landing_penalty
    return 0


def minimum_move(unit: UnitState) -> bool:
    """DG 7.2: a unit that has spent nothing this phase may always move one hex."""
    return unit.spent == 0 and not unit.pool and not unit.leg


def routes(state: DGState, unit: UnitState, ctx: Context | None = None) -> dict[str, Route]:
    """Every hex `unit` may end its move (or leg) in this phase, with the route it would take."""
    ctx = ctx if ctx is not None and ctx.side == unit.side else Context.of(state, unit.side)
    raw = _raw_routes(state, (unit,), ctx)[1]
    full = state.data.constants.stacking  # DG 7.5 (the unit is not yet in any of these)
    size = ctx.size
    return {h: r for h, r in raw.items() if size.get(h, 0) < full}


def unit_routes(state: DGState, unit: UnitState, ctx: Context) -> tuple[tuple[object, ...], RouteMap]:
    """A unit's routes before stacking at the destination, and the key of everything they
    depend on (for callers that cache what they derive from them)."""
    return _raw_routes(state, (unit,), ctx)


def route_to(state: DGState, unit: UnitState, dest: str, ctx: Context) -> Route | None:
    """The route `routes` gives to `dest`, without building the others' table."""
    if ctx.size.get(dest, 0) >= state.data.constants.stacking:  # DG 7.5
        return None
    return _raw_routes(state, (unit,), ctx)[1].get(dest)


def stack_routes(state: DGState, units: tuple[UnitState, ...], ctx: Context | None = None) -> dict[str, Route]:
    """DG 7.5: where a stack may move together, at the rate of its slowest unit, each unit
    paying the cost of each hex (the route's cost is the terrain, without landing extras)."""
    ctx = ctx if ctx is not None and ctx.side == units[0].side else Context.of(state, units[0].side)
    raw = _raw_routes(state, units, ctx)[1]
    full = state.data.constants.stacking
    size = ctx.size
    return {h: r for h, r in raw.items() if size.get(h, 0) + len(units) <= full}


def _raw_routes(state: DGState, units: tuple[UnitState, ...], ctx: Context) -> tuple[tuple[object, ...], RouteMap]:
    """Cheapest routes for one unit or a stack, before stacking at the destination, and the
    key they are cached under on the game object (everything the search reads). A unit's
    are kept on the context too: listing the moves, checking one and playing it read them
    three times in one position."""
    if len(units) == 1:
        unit = units[0]
        kept = ctx.found.get(unit.id)
        if kept is not None and kept[0] is unit:
            return kept[1], kept[2]
        key, found = _find_routes(state, units, ctx)
        ctx.found[unit.id] = (unit, key, found)
        return key, found
    return _find_routes(state, units, ctx)


def _find_routes(state: DGState, units: tuple[UnitState, ...], ctx: Context) -> tuple[tuple[object, ...], RouteMap]:
    """`_raw_routes` from the game's searches, or a new search."""
    d = state.data
    m = d.map
    start = units[0].at
    if len(units) == 1:  # most searches: the same values as below, worked out directly
        lead = units[0]
        types: tuple[bool, ...] = HELPER_FLAGS[lead.id in state.game.helper_ids]
        budget = allowance(state, lead)
        extra = landing_extra(state, lead) if lead.landed == state.turn else 0  # DG 7.3.5 only then
        minimum = lead.spent == 0 and not lead.pool and not lead.leg  # `minimum_move`, read inline
        need = 1
    else:
        types = tuple(d.units[u.id].type in HELPER_TYPES for u in units)
        budget = min(allowance(state, u) - landing_extra(state, u) for u in units)
        extra = 0
        minimum = all(minimum_move(u) for u in units)
        need = sum(1 for t in types if not t) or 1
    pool = bool(units[0].pool)
    carriers = ctx.carriers(need)  # DG 7.3.3
    key = (start, budget, extra, pool, minimum, types, ctx.key, carriers)
    cache = state.game.route_cache
    found = cache.get(key)
    if found is not None:
        return key, found
    # the same search with other helpers' crossings left: its routes hold when the helpers
    # differ only in hexes the search never tried to cross a river into
    loose = key[:-1]
    variants = state.game.route_variants
    for earlier in variants.get(loose, ()):  # rare: the helpers' crossings changed this phase
        found = cache.get(earlier)
        if found is not None and not _tried_to_cross(state, start, found, carriers ^ earlier[-1]):
            return earlier, found
    if len(cache) > CACHE_LIMIT:
        cache.clear()
        variants.clear()
    ctx.helper_type = all(types)
    lead = units[0]
    best = _search(state, lead, ctx, start, budget, extra, need)
    if minimum:  # DG 7.2 a unit may always move one hex
        for n in m.adjacent[start]:
            if n not in best:
                sc = step_cost(state, lead, start, n, ctx, need)
                if sc is not None:
                    cost = max(budget, 0)
                    helpers = (n,) if sc[2] else ()
                    best.add(n, Route(cost, sc[1], True, path=(n,), helpers=helpers))
    cache[key] = best
    variants.setdefault(loose, []).append(key)
    return key, best


def _tried_to_cross(state: DGState, start: str, best: RouteMap, hexes: Iterable[str]) -> bool:
    """Whether a search from `start` that reached `best` may have tried to cross a river into
    one of `hexes` (DG 7.3.3): only there do the helpers' crossings change its routes. Read
    from the banks each of those crossings leaves (a few hexes), not from every hex reached."""
    banks = state.game.river_sources
    reached = best.costs
    for h in hexes:
        for bank in banks.get(h, ()):
            if bank == start or bank in reached:
                return True
    return False


Edges = dict[str, tuple[tuple[str, int, bool], ...]]  # hex -> (next hex, cost, a river may stop the unit)


def edge_tables(data: GameData) -> tuple[Edges, Edges]:
    """The fixed part of every step's cost, built once per game: for each hex, the land
    hexes next to it with the cost of entering them and whether a river may stop the unit
    there (DG 7.3, 7.3.3, 7.3.7); and the same for stealth movement, which ignores rivers
    (DG 7.7.4)."""
    m = data.map
    mv = data.movement
    normal: Edges = {}
    stealthy: Edges = {}
    for frm in m.hexes:
        out: list[tuple[str, int, bool]] = []
        for to in m.adjacent[frm]:
            h = m.hexes[to]
            if h.base == "sea":
                continue
            if to in m.road_next.get(frm, ()):  # DG 7.3.7 along a road (to a village: 1)
                out.append((to, mv.road_to_village if h.village else mv.road_to_road, False))
                continue
            if h.village and m.hexes[frm].road:  # DG 7.3.7 road hex to village hex: one
                out.append((to, mv.road_to_village, False))  # "regardless of other terrain",
                continue  # the river (DG 2.1.3 a terrain of the hex) and its stop included
            cost = mv.jungle if h.base == "jungle" else mv.clear  # DG 7.3 the most expensive
            if h.village:
                cost = max(cost, mv.village)
            river = False
            if h.river:
                cost = max(cost, mv.river)
                river = to not in m.river_next.get(frm, ())  # DG 7.3.3 not up/down stream
            out.append((to, cost, river))
        normal[frm] = tuple(out)
        stealthy[frm] = tuple((to, mv.stealth_hex, False) for to in m.adjacent[frm] if m.hexes[to].base == "jungle")
    return normal, stealthy


def open_steps(edges: Edges) -> dict[str, Split[str]]:
    """The steps out of each hex where nothing hinders them (no enemy hex or zone of control
    next to it, no river that may stop the unit): the edges with no stop and no helper."""
    return {frm: (tuple((to, cost, False) for to, cost, _ in out), ()) for frm, out in edges.items()}


def river_steps(edges: Edges) -> dict[str, Split[str]]:
    """The steps out of each hex on a river where only the river hinders them (no enemy hex
    or zone of control next to it, no helper across it): a river crossing stops the unit
    (DG 7.3.3), every other edge is open; as `StepTable` works them out, without a helper."""
    out: dict[str, Split[str]] = {}
    for frm, steps in edges.items():
        if any(river for _, _, river in steps):
            goes = tuple((to, cost, False) for to, cost, river in steps if not river)
            out[frm] = (goes, tuple((to, cost, False) for to, cost, river in steps if river))
    return out


def _search(
    state: DGState,
    unit: UnitState,
    ctx: Context,
    start: str,
    budget: int,
    first_extra: int,
    need: int = 1,
) -> RouteMap:
    """Cheapest paths from `start` over the game's edge tables (`core.paths.cheapest`): never
    into an enemy hex (DG 7.3.8), stopping on entering an enemy zone of control (DG 7.4.1) or
    on crossing a river without a helper's crossings left (DG 7.3.3); a hex entered with a
    forced stop is not left again. Of two routes of one cost, the one that need not stop is
    kept. A step's tag says whether a helper carried the unit into the hex."""
    pool = bool(unit.pool)
    rivers = not pool and not (ctx.helper_type and need == 1)  # DG 7.3.3 crossings may stop the unit
    # the steps out of a hex are the same for every search of this kind in this context
    known = ctx.step_table(state, pool, rivers, need)
    first = None
    if first_extra:  # DG 7.3.5 leaving the landing hex
        goes, halts = known[start]
        first = (
            tuple((to, c + first_extra, via) for to, c, via in goes),
            tuple((to, c + first_extra, via) for to, c, via in halts),
        )
    paths = cheapest_from(start, known, budget, first)
    costs = paths.cost  # this search's own: the forced stops join it
    stopped: set[str] = set()
    for hid, cost in paths.stops.items():
        old = costs.get(hid)  # each hex is in the stops once: still the cost to go on from it
        if old is None or cost < old:
            costs[hid] = cost
            stopped.add(hid)
    costs.pop(start, None)  # not a destination
    stopped.discard(start)
    return RouteMap(costs, stopped, (start, paths.parent, paths.tag, paths.stop_parent, paths.stop_tag))


def route_search(
    state: DGState, units: tuple[UnitState, ...], ctx: Context, budget: int, zoc: bool = True, rivers: bool = True
) -> RouteMap:
    """The routes of a unit (or a stack, at its slowest unit's rate, DG 7.5) with `budget`
    points, optionally without the forced stops of zones of control (DG 7.4.1) or rivers
    (DG 7.3.3): what tells why a hex is out of reach. Not cached; for refusals only."""
    c = copy.copy(ctx)
    c.steps = {}  # other stops than the context's searches
    c._hindered = {}
    c.found = {}
    c.shared = None
    if not zoc:
        c.zoc = frozenset()
    helpers = [state.data.units[u.id].type in HELPER_TYPES for u in units]
    c.helper_type = all(helpers) or not rivers
    need = 1 if not rivers else (sum(1 for h in helpers if not h) or 1)
    extra = landing_extra(state, units[0]) if len(units) == 1 else 0
    return _search(state, units[0], c, units[0].at, budget, extra, need)


def sea_allowed(state: DGState, unit: UnitState, ctx: Context) -> bool:
    """DG 7.6: up to three units a turn, starting their move on a coastal hex not next to an
    enemy unit."""
    if unit.spent or unit.pool or unit.moved or unit.leg:
        return False
    if state.this_turn.sea.get(unit.side, 0) >= state.data.constants.sea_moves_per_turn:
        return False
    return unit.at in ctx.sea_starts(state)


def movers(state: DGState, side: str) -> list[UnitState]:
    """Units of `side` that may still move this phase."""
    stuck = state.this_turn.stuck
    return [u for u in state.units.values() if u.side == side and may_move(u, stuck)]


def may_move(unit: UnitState, stuck: list[str]) -> bool:
    """Whether a unit on its side's movement phase may still move: on the map, not done,
    not under stealth (DG 7.7.1), not halted part-way (DG 7.5, 7.7.5), not landed where
    it must stay (`stuck`, DG 2.2.2.6 note)."""
    return unit.on_map and not unit.moved and not unit.stealth and unit.leg != "halt" and unit.id not in stuck


def move_listed(state: DGState, side: str, action: DGAction) -> bool:
    """Whether the land move `move U H` is among `legal`'s moves, read for that one unit
    (its routes, room at the hex, DG 7.1-7.5) without listing every unit's moves."""
    if action.verb != "move" or len(action.args) != 2:
        return False
    uid, dest = action.args
    unit = state.units.get(uid)
    if unit is None or unit.side != side or not may_move(unit, state.this_turn.stuck):
        return False
    ctx = Context.of(state, side)
    if ctx.size.get(dest, 0) + 1 > state.data.constants.stacking:  # DG 7.5, as `legal`'s no_room(1)
        return False
    return dest in _raw_routes(state, (unit,), ctx)[1]


def sea_listed(state: DGState, side: str, action: DGAction) -> bool:
    """Whether the sea move `sea U H` is among `legal`'s moves, read for that one unit (DG 7.6:
    a coastal start not next to the enemy, three a turn, a coastal hex free of the enemy
    and with room, DG 7.5) without listing every unit's moves."""
    if action.verb != "sea" or len(action.args) != 2:
        return False
    uid, dest = action.args
    unit = state.units.get(uid)
    if unit is None or unit.side != side or unit.at in OFF_MAP_SET or not may_move(unit, state.this_turn.stuck):
        return False
    ctx = Context.of(state, side)
    if not sea_allowed(state, unit, ctx) or allowance(state, unit) < state.data.movement.sea_landing:
        return False
    if dest not in state.game.coastal_set or dest == unit.at or dest in ctx.enemy:
        return False
    return dest not in ctx.no_room(state, 1)  # DG 7.5


def stacks(state: DGState, side: str, found: list[UnitState] | None = None) -> list[tuple[UnitState, ...]]:
    """DG 7.5: every group of two or more movers sharing a hex (not on stealth movement),
    in id order: the stacks that may move together (`found`: the movers, when known)."""
    by_hex: dict[str, list[UnitState]] = {}
    for u in movers(state, side) if found is None else found:
        if not u.pool:
            by_hex.setdefault(u.at, []).append(u)
    out: list[tuple[UnitState, ...]] = []
    for hid in sorted(h for h, group in by_hex.items() if len(group) > 1):  # a lone mover is no stack
        group = sorted(by_hex[hid], key=lambda x: x.id)
        for size in range(2, len(group) + 1):
            out.extend(combinations(group, size))
    return out


class Listed:
    """The moves of one unit or stack (`verb` move, sea or stack) as listed, and what they were
    made from: its units' records, the destinations it could reach before stacking and the
    hexes then barred to it. They hold while the records are the same and no reachable hex
    was barred or freed since (the context's basis, `MoveLists.basis`, being the same)."""

    __slots__ = ("actions", "barred", "hexes", "records")

    def __init__(
        self, records: tuple[UnitState, ...], hexes: Container[str], barred: frozenset[str], actions: list[DGAction]
    ) -> None:
        self.records = records
        self.hexes = hexes
        self.barred = barred
        self.actions = actions

    def holds(self, records: tuple[UnitState, ...], barred: frozenset[str]) -> bool:
        """Whether these moves are still the list for `records` with `barred` hexes."""
        mine = self.records
        if len(mine) != len(records):
            return False
        for a, b in zip(mine, records, strict=True):  # a loop, not a generator: read per unit per position
            if a is not b:
                return False
        if barred is self.barred:
            return True
        hexes = self.hexes
        return not any(h in hexes for h in barred ^ self.barred)


class MoveLists:
    """A side's movement-phase moves (land, sea and stack, DG 7.1-7.6) in one position, by
    unit or stack, with what they were made from. The next position's listing starts from
    them and redoes only the lists of the units that changed and of those whose reach holds
    a hex that filled up or emptied (DG 7.5): after a move, about one unit's list, not one
    per unit. Never changed once made, so a position and its clones share it."""

    __slots__ = ("barred", "basis", "moves", "sea_moves", "seas", "stacks")

    def __init__(
        self,
        basis: tuple[Any, ...],
        barred: dict[int, frozenset[str]],
        lists: tuple[dict[str, Listed], dict[str, Listed], dict[str, Listed]],
        sea_moves: int,
    ) -> None:
        self.basis = basis  # what every list reads: see `legal`
        self.barred = barred  # stack size -> hexes without room for that many more (DG 7.5)
        self.moves, self.seas, self.stacks = lists  # by unit (by stack, `a+b`): its moves
        self.sea_moves = sea_moves  # the side's sea moves this turn when listed (DG 7.6)


def legal(state: DGState, side: str, ctx: Context | None = None) -> list[DGAction]:
    """Movement-phase moves (land, stack and sea), in a deterministic order: each mover in
    id order with its land then its sea moves, then each stack (`stacks`). Lists that still
    hold are taken from the position's `MoveLists` (shared with the position it was played
    from), the others made again."""
    out: list[DGAction] = []
    ctx = ctx if ctx is not None and ctx.side == side else Context.of(state, side)
    sea_moves = state.this_turn.sea.get(side, 0)
    # what every list reads besides its units and the barred hexes: the enemy and its zones
    # of control (the context's key), the helpers' crossings (DG 7.3.3), the turn (landing
    # extras, DG 7.3.5), this turn's event (movement allowances), who must stay put
    basis = (
        side,
        state.turn,
        ctx.key,
        ctx.capacity,
        tuple(state.this_turn.stuck),
        event_effect(state, "movement", side),
    )
    before = state.move_lists
    if before is None or before.basis != basis:
        before = MoveLists(basis, {}, ({}, {}, {}), -1)
    moves: dict[str, Listed] = {}
    seas: dict[str, Listed] = {}
    stacked: dict[str, Listed] = {}
    barred: dict[int, frozenset[str]] = {}

    def no_room(n: int) -> frozenset[str]:
        found = barred.get(n)
        if found is None:
            found = barred[n] = ctx.no_room(state, n)
        return found

    landing = state.data.movement.sea_landing
    coastal = state.game.coastal_set
    # DG 7.6: where a sea move may start (checked first: most movers stand elsewhere)
    sea_starts = ctx.sea_starts(state) if sea_moves < state.data.constants.sea_moves_per_turn else frozenset()
    room = no_room(1)  # DG 7.5
    stuck = state.this_turn.stuck
    off = OFF_MAP_SET  # most of a side's counters off the map: passed over before `may_move`
    units = map(state.units.__getitem__, state.game.ids_by_side[side])
    # `may_move`'s tests, read inline: a call per counter per listing is most of this loop
    mine = [
        u for u in units if u.at not in off and not u.moved and not u.stealth and u.leg != "halt" and u.id not in stuck
    ]
    kept = before.moves
    for u in mine:
        listed = kept.get(u.id)
        # `holds` for one unit, its quick answers inline: the same record, the same barred hexes
        if listed is None or listed.records[0] is not u or (listed.barred is not room and not listed.holds((u,), room)):
            one = (u,)
            key, raw = _raw_routes(state, one, ctx)
            listed = Listed(one, raw.costs, room, _allowed(state, "move", u.id, key, raw.costs.keys(), room))
        moves[u.id] = listed
        out.extend(listed.actions)
        if u.at in sea_starts and sea_allowed(state, u, ctx) and allowance(state, u) >= landing:
            listed = before.seas.get(u.id)
            if listed is None or sea_moves != before.sea_moves or not listed.holds((u,), room):
                shut = room | ctx.enemy | {u.at}  # DG 7.6
                acts = _allowed(state, "sea", u.id, "sea", coastal, shut)
                listed = Listed((u,), coastal, room, acts)
            seas[u.id] = listed
            out.extend(listed.actions)
    for group in stacks(state, side, mine):
        ids = "+".join(u.id for u in group)
        listed = before.stacks.get(ids)
        shut = no_room(len(group))  # DG 7.5
        if listed is None or not listed.holds(group, shut):
            key, raw = _raw_routes(state, group, ctx)
            listed = Listed(group, raw.costs, shut, _allowed(state, "stack", ids, key, raw.costs.keys(), shut))
        stacked[ids] = listed
        out.extend(listed.actions)
    state.move_lists = MoveLists(basis, barred, (moves, seas, stacked), sea_moves)
    return out


class ActionTable(dict[str, DGAction]):
    """One unit's (or stack's) actions of one verb by hex, each made when first asked for:
    listing its moves reads the table once per hex reached, with no test of whether the
    action was made yet."""

    __slots__ = ("make", "verb", "who")

    def __init__(self, verb: str, who: str, make: Callable[..., DGAction]) -> None:
        super().__init__()
        self.verb = verb
        self.who = who
        self.make = make

    def __missing__(self, hex_id: str) -> DGAction:
        found = self[hex_id] = self.make(self.verb, self.who, hex_id)
        return found


def _allowed(
    state: DGState, verb: str, who: str, key: object, hexes: AbstractSet[str], barred: frozenset[str]
) -> list[DGAction]:
    """The actions `verb who H` for each hex H of `hexes` not barred, in hex order, kept for
    as long as the same hexes are barred (for positions that share no `MoveLists`, such
    as the guesses of hidden units, DG 7.8). Each action is made once per unit and hex; the
    list is read from its table hex by hex without a loop of Python steps (`map`)."""
    cache = state.game.allowed_cache
    ck = (verb, who, key, barred)
    found = cache.get(ck)
    if found is None:
        if len(cache) > CACHE_LIMIT:
            cache.clear()
        made = action_table(state, verb, who)
        found = list(map(made.__getitem__, sorted(hexes - barred)))
        cache[ck] = found
    return found


def action_table(state: DGState, verb: str, who: str) -> ActionTable:
    """The game's table of the actions `verb who H` by hex H, for a unit or a stack."""
    tables = state.game.unit_actions
    made = tables.get((verb, who))
    if made is None:
        if len(tables) > CACHE_LIMIT:
            tables.clear()
        made = tables[(verb, who)] = ActionTable(verb, who, make)
    return made


def do_sea(state: DGState, unit: UnitState, dest: str, events: list[Event]) -> None:
    """DG 7.6: the unit sails to `dest` and may go on moving with its remaining points; it
    stops there if the hex is in an enemy zone of control."""
    ctx = Context.of(state, unit.side)
    sea = state.this_turn.sea
    sea[unit.side] = sea.get(unit.side, 0) + 1
    frm = unit.at
    unit = state.update(unit, spent=unit.spent + state.data.movement.sea_landing, landed=0)
    take_control(state, unit, dest, events)
    unit = place(state, unit, dest)
    if dest in ctx.zoc:
        unit = state.update(unit, moved=True)
    events.append(
        Event(
            "move",
            f"{unit.id} moves by sea {frm} -> {dest}",
            {"unit": unit.id, "from": frm, "to": dest, "sea": True},
        )
    )


def _use_crossings(state: DGState, ctx: Context, route: Route, side: str, count: int) -> None:
    """DG 7.3.3: each unit crossing through a helper's hex uses one of its crossings."""
    used = state.this_turn.crossings
    for hid in route.helpers:
        left = count
        for u in ctx.occ.get(hid, []):
            if u.side == side and state.data.units[u.id].type in HELPER_TYPES:
                while left and used.get(u.id, 0) < u.strength:
                    used[u.id] = used.get(u.id, 0) + 1
                    left -= 1


def do_move(state: DGState, unit: UnitState, dest: str, events: list[Event], finish: bool = True) -> None:
    """Move `unit` to `dest` along its cheapest route (DG 7.1); with `finish` false this is
    one leg of its move (DG 7.7.5: it may detect there and go on)."""
    ctx = Context.of(state, unit.side)
    route = route_to(state, unit, dest, ctx)
    assert route is not None, f"{unit.id} cannot reach {dest}"  # the move is legal
    _use_crossings(state, ctx, route, unit.side, 1)
    frm = unit.at
    for hid in route.path:  # DG 9.3 control by passing through
        take_control(state, unit, hid, events)
    spent = unit.spent + route.cost  # the landing extra (DG 7.3.5) is in the route's cost
    if finish:
        unit = place(state, unit, dest, spent=spent, moved=True, pool=0, leg="")
    else:
        unit = place(state, unit, dest, spent=spent, leg="halt" if route.stop or route.minimum else "go")
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


def _printed(state: DGState, unit: UnitState) -> int:
    """The most a unit can have spent: its whole allowance this phase."""
    if unit.pool:
        return unit.pool
    return state.data.units[unit.id].movement + event_effect(state, "movement", unit.side)


def do_stack(state: DGState, ids: list[str], dest: str, events: list[Event]) -> None:
    """DG 7.5: the units move together along one route; each pays its costs and may then go
    on alone with what it has left (a leg for every unit)."""
    units = tuple(state.units[i] for i in ids)
    side = units[0].side
    ctx = Context.of(state, side)
    route = stack_routes(state, units, ctx).get(dest)
    assert route is not None, f"{' and '.join(ids)} cannot move together to {dest}"  # the move is legal
    helped = sum(1 for u in units if state.data.units[u.id].type not in HELPER_TYPES)
    _use_crossings(state, ctx, route, side, helped or 1)
    frm = units[0].at
    for u in units:
        extra = landing_extra(state, u)
        for hid in route.path:  # DG 9.3 control by passing through
            take_control(state, u, hid, events)
        # DG 7.2: the one-hex move takes the whole allowance
        spent = _printed(state, u) if route.minimum else u.spent + route.cost + extra
        state.update(u, spent=spent, leg="halt" if route.stop or route.minimum else "go")
    for uid in ids:  # bottom to top as they stood
        place(state, state.units[uid], dest)
    events.append(
        Event(
            "move",
            f"{' + '.join(ids)} move together {frm} -> {dest} ({route.cost} MP)",
            {"units": list(ids), "from": frm, "to": dest, "cost": route.cost},
        )
    )


def path_cost(state: DGState, unit: UnitState, path: list[str]) -> int:
    """The movement points `unit` spends along `path` (start excluded), checking each step:
    IllegalAction when a hex may not be entered or the unit had to stop before the end."""
    ctx = Context(state, unit.side)  # its own: it sets the helper flag
    ctx.helper_type = state.data.units[unit.id].type in HELPER_TYPES
    here = unit.at
    total = landing_extra(state, unit)  # DG 7.3.5
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
