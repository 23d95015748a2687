"""The movement searches of a movement phase on numbered places (FB 4.2, 7.4, 8.2).

Every place a move may end in is numbered in name order (`Board.place_index`), so that a
search keeps its costs in a plain list and the moves come out in listing order by sorting
small numbers. The search is the kit's `cheapest_costs` (Dial's buckets), specialised to
these lists; `tests/firstblood/test_fast_paths.py` holds it to the kit's answer.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence

# the steps from each place by number: (place entered, half-MF it costs); empty off the map
Grid = list[tuple[tuple[int, int], ...]]

UNREACHED = 1 << 30  # the cost kept for a place not reached: dearer than any budget


class Found:
    """Where one search got within `limit` half-MF: `best` the least cost of every place by
    number (dearer than `limit`: not reached; shared, never changed), `seen` the places reached
    in the order the kit's search would have first met them (the start left out), `order` the
    same sorted (the order moves are listed in)."""

    __slots__ = ("best", "limit", "order", "seen")

    def __init__(self, best: list[int], limit: int, seen: Sequence[int], order: list[int] | None = None) -> None:
        self.best = best
        self.limit = limit
        self.seen = seen
        self.order = sorted(seen) if order is None else order

    def cost(self, at: int) -> int | None:
        """What getting to place `at` costs, None if it is out of reach."""
        c = self.best[at]
        return c if c <= self.limit else None

    def has(self, at: int) -> bool:
        return self.best[at] <= self.limit

    def meets(self, places: Iterable[int]) -> bool:
        """Whether any of `places` is within reach."""
        best, limit = self.best, self.limit
        return any(best[at] <= limit for at in places)

    def costs(self) -> dict[int, int]:
        """The places reached with their costs, in `seen` order."""
        best = self.best
        return {at: best[at] for at in self.seen}


def search(
    grid: Grid, size: int, starts: Iterable[tuple[int, int]], budget: int, best: list[int] | None = None
) -> Found:
    """The least costs from `starts` ((place, cost already spent), in order) within `budget`
    over `grid`: the kit's `cheapest_costs` with the costs in a list. `best`, when given, holds
    the costs of places already settled (not listed in `seen`: the caller lists them first)."""
    if best is None:
        best = [UNREACHED] * size
    seen: list[int] = []
    buckets: list[list[int]] = [[] for _ in range(budget + 1)]
    for p, c in starts:
        if 0 <= c <= budget and c <= best[p]:
            if best[p] > budget:
                seen.append(p)
            best[p] = c
            buckets[c].append(p)
    for cost, bucket in enumerate(buckets):
        left = budget - cost
        for here in bucket:  # zero-cost steps join the bucket being read
            if best[here] != cost:  # queued, then found cheaper
                continue
            for to, step in grid[here]:
                if step <= left:
                    total = cost + step
                    was = best[to]
                    if total < was:
                        if was > budget:
                            seen.append(to)
                        best[to] = total
                        buckets[total].append(to)
    return Found(best, budget, seen)


def from_one(grid: Grid, size: int, here: int, budget: int) -> Found:
    """Where a search from place `here` alone gets within `budget` (`here` itself left out)."""
    found = search(grid, size, ((here, 0),), budget)
    found.best[here] = UNREACHED
    found.seen = found.seen[1:]  # the start, met first
    found.order.remove(here)
    return found


class FreeReach:
    """Hexes reachable from one hex on an empty map (the hex itself left out), as place numbers
    in increasing cost (`hexes`, in the order the kit's search meets them when sorted by cost):
    `within[b]` of them cost at most b half-MF; `best` their costs by number, made once and
    shared (never changed); `order` the numbers sorted, the moves' order for a whole budget."""

    __slots__ = ("_grid", "_onward", "_orders", "best", "costs", "hexes", "limit", "within")

    def __init__(self, grid: Grid, size: int, here: int, limit: int) -> None:
        plain = from_one(grid, size, here, limit)
        self.best = plain.best
        self.limit = limit
        best = self.best
        self.hexes = tuple(sorted(plain.seen, key=best.__getitem__))  # stable: met order within a cost
        self.costs = [best[h] for h in self.hexes]  # increasing: a count is a bisection
        self.within = tuple(bisect_right(self.costs, b) for b in range(limit + 1))
        self._grid = grid
        self._onward: tuple[int, ...] | None = None
        self._orders: dict[int, Found] = {}

    def onward(self) -> tuple[int, ...]:
        """The dearest free cost among the neighbours (within the limit) of each of `hexes`, -1
        for none: a hex whose neighbours all cost no more than m leads nowhere new past m.
        Found at the first search past the enemy from this hex, then kept."""
        if self._onward is None:
            dearest = dict.fromkeys(self.hexes, -1)
            grid = self._grid
            for h, c in zip(
                self.hexes, self.costs, strict=True
            ):  # in increasing cost: the last neighbour seen is the dearest
                for n, _ in grid[h]:
                    if n in dearest:
                        dearest[n] = c
            self._onward = tuple(dearest.values())
        return self._onward

    def within_budget(self, budget: int) -> Found:
        """The hexes within `budget` half-MF on the empty map (one shared answer per budget)."""
        found = self._orders.get(budget)
        if found is None:
            found = self._orders[budget] = Found(self.best, budget, self.hexes[: self.within[budget]])
        return found

    def past_enemy(self, here: int, budget: int, danger: set[int], grid: Grid) -> Found:
        """The least costs within `budget` from `here` past the enemy, `danger` being the enemy
        hexes and their ZOC (`here` not among them) and `grid` the steps they leave open
        (`open_grid`: FB 7.4, no entering an enemy hex; FB 8.2, no step from one enemy ZOC hex
        into another). Every hex no dearer on the empty map than the cheapest enemy or ZOC hex
        within reach (m) keeps its empty-map cost (the hexes on the way to it cost less than m,
        so none is an enemy or ZOC hex); the search goes on only from those of them with a
        neighbour dearer than m, so only the hexes past the enemy are searched. Same answer
        as the whole search."""
        hexes = self.hexes
        near = danger.intersection(hexes[: self.within[budget]])
        if not near:
            return self.within_budget(budget)  # no enemy or ZOC within reach: as on an empty map
        free = self.best
        m = min(map(free.__getitem__, near))
        k = self.within[m]
        # no enemy hex among them: the hexes next to one are its ZOC (FB 8.2), so cheaper
        best = [UNREACHED] * len(free)
        settled = hexes[:k]
        for h in settled:
            best[h] = free[h]
        onward = self.onward()
        seeds = [(hexes[i], free[hexes[i]]) for i in range(k) if onward[i] > m]
        seeds.append((here, 0))  # its neighbours: at least one dearer than m unless all lie within
        found = search(grid, len(free), seeds, budget, best)
        best[here] = UNREACHED
        found.seen = [*settled, *found.seen[1:]]  # `here`, met first of the rest
        found.order = sorted(found.seen)
        return found


def open_grid(grid: Grid, neighbours: Sequence[tuple[int, ...]], blocked: set[int], zoc: set[int]) -> Grid:
    """`grid` with the steps enemy units forbid taken out: FB 7.4, never into an enemy hex;
    FB 8.2, never straight from one enemy ZOC hex into another (nor into an enemy hex). Only
    the hexes in a zone of control or next to an enemy hex lose a step."""
    table = list(grid)
    danger = blocked | zoc
    for here in zoc:
        table[here] = tuple([s for s in grid[here] if s[0] not in danger])
    for hex_id in blocked:
        for here in neighbours[hex_id]:
            if here not in zoc:
                table[here] = tuple([s for s in grid[here] if s[0] not in blocked])
    return table
