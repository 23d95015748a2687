"""The movement searches of a movement phase on numbered places (FB 4.2, 7.4, 8.2).

Every place a move may end in is numbered in name order (`Board.place_index`), so that a
search keeps its costs in a plain list and the moves come out in listing order by sorting
small numbers. The search is the kit's `cheapest_costs` (Dial's buckets), specialised to
these lists; `tests/firstblood/test_fast_paths.py` holds it to the kit's answer.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from heapq import heapify, heappop, heappush
from typing import Any, NamedTuple

# the steps from one place by number: (place entered, half-MF it costs)
Steps = tuple[tuple[int, int], ...]
Grid = list[Steps]  # the steps from each place by number; none from a box

UNREACHED = 1 << 30  # the cost kept for a place not reached: dearer than any budget


def bits(places: Iterable[int]) -> int:
    """Place numbers as the bits of one int (bit n: place n), so that whether two sets of places
    meet is one `&`."""
    found = 0
    for at in places:
        found |= 1 << at
    return found


class Found:
    """Where one search got within `limit` half-MF: `best` the least cost of every place by
    number (dearer than `limit`: not reached; shared, never changed) but for the places in
    `out` (not reached either), and `order` the places reached, sorted (the order moves are
    listed in; the start left out). `memo`, on the empty map's answers only (shared by every
    position for the game), keeps what is made from this answer alone (a unit's moves). An
    answer that is the empty map's `base` less the places `out` makes its `order` when first
    asked (the moves are made from the base's instead)."""

    __slots__ = ("_order", "base", "best", "limit", "memo", "out")

    def __init__(
        self,
        best: list[int],
        limit: int,
        order: list[int] | None,
        out: AbstractSet[int] = frozenset(),
        memo: dict[str, Any] | None = None,
        base: Found | None = None,
    ) -> None:
        self.best = best
        self.limit = limit
        self._order = order
        self.out = out
        self.memo = memo
        self.base = base

    @property
    def order(self) -> list[int]:
        """The places reached, sorted."""
        order = self._order
        if order is None:
            assert self.base is not None, "an answer is given its order or the base it is made from"
            order = self.base.order.copy()
            for at in sorted(self.out, reverse=True):
                del order[bisect_left(order, at)]
            self._order = order
        return order

    def cost(self, at: int) -> int | None:
        """What getting to place `at` costs, None if it is out of reach."""
        c = self.best[at]
        return c if c <= self.limit and at not in self.out else None

    def meets(self, places: Iterable[int]) -> bool:
        """Whether any of `places` is within reach."""
        best, limit, out = self.best, self.limit, self.out
        for at in places:  # noqa: SIM110 (a plain loop: no generator made at each of many calls)
            if best[at] <= limit and at not in out:
                return True
        return False

    def costs(self) -> dict[int, int]:
        """The places reached with their costs, in number order."""
        best = self.best
        return {at: best[at] for at in self.order}


def search(grid: OpenGrid, best: list[int], starts: Iterable[tuple[int, int]], budget: int) -> list[int]:
    """The least costs from `starts` ((place, cost already spent)) within `budget` over `grid`,
    written into `best` (the places' costs by number, UNREACHED where none is known; those
    already there are kept as settled): the kit's `cheapest_costs` with the costs in a list.
    Returns the places given a cost, in the order they were first met."""
    table, fill = grid.steps, grid.fill
    met: list[int] = []
    buckets: list[list[int]] = [[] for _ in range(budget + 1)]
    for p, c in starts:
        if 0 <= c <= budget and c <= best[p]:
            if best[p] > budget:
                met.append(p)
            best[p] = c
            buckets[c].append(p)
    for cost, bucket in enumerate(buckets):
        left = budget - cost
        for here in bucket:  # zero-cost steps join the bucket being read
            if best[here] != cost:  # queued, then found cheaper
                continue
            steps = table[here]
            if steps is None:
                steps = fill(here)
            for to, step in steps:
                if step <= left:
                    total = cost + step
                    was = best[to]
                    if total < was:
                        if was > budget:
                            met.append(to)
                        best[to] = total
                        buckets[total].append(to)
    return met


def from_one(grid: OpenGrid, size: int, here: int, budget: int) -> tuple[list[int], list[int]]:
    """The least costs by number from place `here` alone within `budget` (`here` itself not
    reached), and the places reached in the order they were first met."""
    best = [UNREACHED] * size
    met = search(grid, best, ((here, 0),), budget)
    best[here] = UNREACHED
    return best, met[1:]  # the start, met first


class Links(NamedTuple):
    """How the hexes of a `FreeReach` are entered at their least cost (`FreeReach.links`)."""

    preds: tuple[frozenset[int], ...]
    succ: tuple[tuple[int, ...], ...]
    at: dict[int, int]
    ways: list[frozenset[int]]  # `preds` by place number (none for a place not reached)


class FreeReach:
    """Hexes reachable from one hex on an empty map (the hex itself left out), as place numbers
    in increasing cost (`hexes`): `within[b]` of them cost at most b half-MF; `best` their
    costs by number, made once and shared (never changed); `masks[b]` those `within[b]` as
    `bits`, to tell at one stroke whether an enemy stands near. Each hex's cheapest ways in (the
    neighbours whose cost plus the step's is its own) are worked out when first needed."""

    __slots__ = (
        "_grid",
        "_into",
        "_links",
        "_orders",
        "_sets",
        "best",
        "costs",
        "here",
        "hexes",
        "limit",
        "masks",
        "within",
    )

    def __init__(self, grid: Grid, into: Grid, here: int, limit: int) -> None:
        best, met = from_one(OpenGrid(grid, (), set(), set()), len(grid), here, limit)
        self.here = here
        self.best = best
        self.limit = limit
        self.hexes = tuple(sorted(met, key=best.__getitem__))
        self.costs = [best[h] for h in self.hexes]  # increasing: a count is a bisection
        self.within = tuple(bisect_right(self.costs, b) for b in range(limit + 1))
        self.masks = tuple(bits(self.hexes[:n]) for n in self.within)
        self._grid = grid
        self._into = into
        self._links: Links | None = None
        self._orders: dict[int, Found] = {}
        self._sets: dict[int, frozenset[int]] = {}  # the hexes within a budget, made when first asked

    def links(self) -> Links:
        """Each of `hexes` by position: the hexes it is entered from at its least cost (the
        start among them) and the positions of the hexes it leads into at theirs; the position
        of each hex; and the ways in by place number. Worked out at the first search past the
        enemy, then kept."""
        if self._links is None:
            best, here = self.best, self.here
            at = {h: i for i, h in enumerate(self.hexes)}
            preds: list[list[int]] = [[] for _ in self.hexes]
            succ: list[list[int]] = [[] for _ in self.hexes]
            for q in (here, *self.hexes):
                cost = 0 if q == here else best[q]
                for to, step in self._grid[q]:
                    i = at.get(to)
                    if i is not None and cost + step == best[to]:
                        preds[i].append(q)
                        if q != here:
                            succ[at[q]].append(i)
            ways: list[frozenset[int]] = [frozenset()] * len(best)
            for h, i in at.items():
                ways[h] = frozenset(preds[i])
            self._links = Links(tuple(map(frozenset, preds)), tuple(map(tuple, succ)), at, ways)
        return self._links

    def within_budget(self, budget: int) -> Found:
        """The hexes within `budget` half-MF on the empty map (one shared answer per budget)."""
        found = self._orders.get(budget)
        if found is None:
            found = self._orders[budget] = Found(self.best, budget, sorted(self.hexes[: self.within[budget]]), memo={})
        return found

    def past_enemy(self, budget: int, enemy: set[int], zoc: set[int], danger: set[int], danger_mask: int) -> Found:
        """The least costs within `budget` from the start past the enemy: its hexes `enemy`,
        their zone of control `zoc` (every hex next to one, FB 8.2; the start in neither),
        `danger` both, also as `bits` in `danger_mask` (FB 7.4, no entering an enemy hex; FB
        8.2, no step from one enemy ZOC hex into another). A hex keeps its empty-map cost when
        one of its cheapest ways in comes from a hex that keeps its own and is a step the enemy
        allows; only the enemy and ZOC hexes and those behind them are looked at, in increasing
        cost. The hexes that lose their empty-map cost are searched for from the others. Same
        answer as the whole search."""
        kept = self._orders.get(budget) or self.within_budget(budget)
        if not self.masks[budget] & danger_mask:
            return kept  # no enemy or ZOC within reach: as on an empty map
        hexes = self.hexes
        n = self.within[budget]
        within = self._sets.get(budget)
        if within is None:
            within = self._sets[budget] = frozenset(hexes[:n])
        near = danger & within
        preds, succ, where, ways_at = self._links or self.links()
        lost = enemy.intersection(near)  # FB 7.4: never entered
        # FB 8.2: a ZOC hex entered at its least cost only from enemy and ZOC hexes is lost
        # (`cut`: never straight from another ZOC hex). Any other ZOC hex is lost only when its
        # ways in from outside the zone of control are, and a hex outside it when all its ways
        # in are: so every other lost hex is entered from a lost hex that is not an enemy one
        # (a hex entered from an enemy hex is next to it, in its ZOC), and is looked for among
        # the hexes entered from those, in increasing cost
        cut = [x for x in near if ways_at[x] <= danger and x not in lost]
        if not cut:  # only the enemy hexes are lost, and they are never entered
            return Found(self.best, budget, None, lost, None, kept) if lost else kept
        lost.update(cut)
        queue = [j for x in cut for j in succ[where[x]] if j < n]
        heapify(queue)
        last = -1
        while queue:
            i = heappop(queue)
            if i == last:
                continue  # queued twice: the hexes come out in order, so twice in a row
            last = i
            x = hexes[i]
            if x in lost:
                continue
            # lost when every cheapest way in is shut: the ways in from outside the zone of
            # control (there is one: not `cut`) all lost, or for a hex outside it every one
            ways = preds[i]
            if not (ways - zoc <= lost if x in danger else ways <= lost):
                continue
            lost.add(x)
            for j in succ[i]:  # the hexes entered from it at their least cost: look again
                if j < n:
                    heappush(queue, j)  # after `i`: a step costs something (FB 4.2)
        return self._search_lost(budget, enemy, zoc, danger, lost, kept)

    def _search_lost(
        self, budget: int, enemy: set[int], zoc: set[int], danger: set[int], lost: set[int], kept: Found
    ) -> Found:
        """`past_enemy` once some hexes lost their empty-map cost: the others keep theirs, and
        the lost ones are searched for from the kept hexes with a step into one that the enemy
        allows and the budget pays for (when there are none, none is reached)."""
        free, here, into = self.best, self.here, self._into
        heap: list[tuple[int, int]] = []  # (cost, lost hex) entered from a kept hex
        for x in lost:
            if x not in enemy:  # FB 7.4
                guarded = x in danger  # FB 8.2
                for q, step in into[x]:
                    if q not in lost and not (guarded and q in zoc):
                        c = (0 if q == here else free[q]) + step
                        if c <= budget:
                            heap.append((c, x))
        if not heap:  # none of them reached: the empty map's costs, less theirs
            return Found(free, budget, None, lost, base=kept)
        # only the lost hexes can cost less than they are given: a kept hex already has the
        # least cost of the empty map, so the search (cheapest first) stays among them
        order = kept.order.copy()
        for x in lost:
            del order[bisect_left(order, x)]
        best = free.copy()
        for x in lost:
            best[x] = UNREACHED
        heapify(heap)
        grid = self._grid
        while heap:
            c, x = heappop(heap)
            if c >= best[x]:
                continue
            best[x] = c
            order.insert(bisect_left(order, x), x)
            # the steps the enemy allows (FB 7.4: never into an enemy hex; FB 8.2: from a ZOC
            # hex never into another) to the lost hexes, the only ones that can cost less
            shut = danger if x in zoc else enemy
            for to, step in grid[x]:
                total = c + step
                if to in lost and total <= budget and total < best[to] and to not in shut:
                    heappush(heap, (total, to))
        return Found(best, budget, order)


class OpenGrid:
    """`grid` with the steps enemy units forbid taken out: FB 7.4, never into an enemy hex
    (`blocked`); FB 8.2, never straight from one enemy ZOC hex into another (nor into an enemy
    hex). Only the hexes in a zone of control or next to an enemy hex lose a step; their steps
    (None in `steps` until then) are worked out when a search first leaves them, since most
    are never left (the searches past the enemy keep most empty-map costs)."""

    __slots__ = ("_base", "_blocked", "_danger", "_zoc", "steps")

    def __init__(self, grid: Grid, neighbours: Sequence[tuple[int, ...]], blocked: set[int], zoc: set[int]) -> None:
        self._base = grid
        self._blocked = blocked
        self._zoc = zoc
        self._danger = blocked | zoc
        self.steps: list[Steps | None] = list(grid)
        steps = self.steps
        for here in zoc:
            steps[here] = None
        for hex_id in blocked:
            for here in neighbours[hex_id]:
                steps[here] = None

    def fill(self, here: int) -> Steps:
        """The steps open from `here` (FB 7.4, 8.2), kept for the next search."""
        shut = self._danger if here in self._zoc else self._blocked
        found = self.steps[here] = tuple([s for s in self._base[here] if s[0] not in shut])
        return found

    def open_from(self, here: int) -> Steps:
        """The steps open from `here`."""
        steps = self.steps[here]
        return self.fill(here) if steps is None else steps
