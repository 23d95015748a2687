"""The one path search for movement on a map, and zones of control: each game passes its
rules in as the steps a mover may take from a place, and gets the cheapest costs back.

Movement costs in the games are small whole numbers (half movement factors in FIRST BLOOD,
movement points in Deluxe Guadalcanal), so with a budget the search is Dijkstra with one
bucket per cost (Dial's algorithm), and without one a heap. A step may force the mover to
stop where it arrives (entering a zone of control, crossing a river without help): such a
place is reached but never left, and is kept apart from the places the mover may go on
from, because one place may be reached both ways at different costs.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

P = TypeVar("P", bound=Hashable)  # a place: a hex id, a sea zone, a box

# (where to, what it costs, whether the mover must stop there, anything the game wants kept
# with the place reached that way, e.g. "a helper carried it across the river")
Step = tuple[P, int, bool, Any]


@dataclass
class Paths(Generic[P]):
    """The cheapest way to every place reached: `cost` of the places the mover may go on
    from, `stops` of the places it may only end in (cheaper than going on there, or only
    reachable so); `parent` and `stop_parent` the place each came from, `tag` and
    `stop_tag` what the step that reached it said."""

    cost: dict[P, int] = field(default_factory=dict)
    stops: dict[P, int] = field(default_factory=dict)
    parent: dict[P, P] = field(default_factory=dict)
    stop_parent: dict[P, P] = field(default_factory=dict)
    tag: dict[P, Any] = field(default_factory=dict)
    stop_tag: dict[P, Any] = field(default_factory=dict)

    def ends(self) -> dict[P, int]:
        """Every place the mover may end in, at its cheapest."""
        out = dict(self.stops)
        for p, c in self.cost.items():
            if p not in out or c < out[p]:
                out[p] = c
        return out

    def route(self, to: P) -> list[P]:
        """The places passed from the start to `to` (both included), the cheapest way."""
        stop = to in self.stops and (to not in self.cost or self.stops[to] <= self.cost[to])
        path = [to]
        here = self.stop_parent[to] if stop else self.parent.get(to)
        while here is not None:
            path.append(here)
            here = self.parent.get(here)
        return path[::-1]


def cheapest(
    starts: Mapping[P, int],
    steps: Callable[[P, int], Iterable[Step[P]]],
    budget: int | None = None,
) -> Paths[P]:
    """The cheapest cost from `starts` (place -> cost already spent) to every place within
    `budget` (None: no limit). `steps(place, cost)` gives the steps a mover standing there
    after spending `cost` may take, already filtered by the game's rules (no enemy hex, no
    step from one zone of control to another, ...); a step with a negative cost is refused."""
    paths: Paths[P] = Paths()
    if budget is None:
        return _heap(starts, steps, paths)
    return _buckets(paths, starts, _Asked(steps, paths.cost), budget)


class _Asked(Mapping[P, Sequence[Step[P]]]):
    """`cheapest`'s steps as the table `_buckets` reads: the steps out of a place, asked for
    when the search leaves it (once, at its cheapest cost, read from the costs found)."""

    def __init__(self, steps: Callable[[P, int], Iterable[Step[P]]], cost: dict[P, int]) -> None:
        self.steps = steps
        self.cost = cost

    def __getitem__(self, here: P) -> Sequence[Step[P]]:
        out = list(self.steps(here, self.cost[here]))
        for to, step, _stop, _note in out:
            if step < 0:
                raise ValueError(f"a step from {here} to {to} costs {step}")
        return out

    def __iter__(self) -> Iterator[P]:
        return iter(())

    def __len__(self) -> int:
        return 0


def cost_steps(steps: Iterable[Step[P]]) -> tuple[tuple[P, int], ...]:
    """The steps from one place as `cheapest_costs` reads them, (where to, what it costs);
    ValueError at a step that stops the mover or costs less than nothing (the search trusts
    its table, so it is checked here, once, where the table is made)."""
    found = []
    for to, step, stop, _note in steps:
        if step < 0 or stop:
            raise ValueError(f"a step to {to} costs {step} or stops the mover")
        found.append((to, step))
    return tuple(found)


# the steps out of one place as `cheapest_from` reads them: (where to, cost, tag) of those the
# mover may go on from, then of those that stop it, each in the order `steps` gave them
Split = tuple[Sequence[tuple[P, int, Any]], Sequence[tuple[P, int, Any]]]


def split_steps(steps: Iterable[Step[P]]) -> Split[P]:
    """The steps out of one place as `cheapest_from` reads them: those that let the mover go
    on apart from those that stop it. Each place reached is kept apart by stopping or not,
    so the order between the two kinds changes nothing in the answer."""
    goes: list[tuple[P, int, Any]] = []
    halts: list[tuple[P, int, Any]] = []
    for to, step, stop, note in steps:
        (halts if stop else goes).append((to, step, note))
    return tuple(goes), tuple(halts)


def cheapest_from(
    start: P,
    table: Mapping[P, Split[P]],
    budget: int,
    first: Split[P] | None = None,
) -> Paths[P]:
    """`cheapest({start: 0}, steps, budget)` with the steps out of each place read from a
    table of `split_steps` (a mapping that may fill itself in as places are reached), and
    those out of the start from `first` when given: the same search and the same answer,
    without a call per place and without a test per step of whether it stops, for games whose
    searches are many. Steps are taken to cost nothing or more."""
    paths: Paths[P] = Paths()
    best, parent, tag = paths.cost, paths.parent, paths.tag
    stops, stop_parent, stop_tag = paths.stops, paths.stop_parent, paths.stop_tag
    if budget < 0:
        return paths
    buckets: list[list[P]] = [[] for _ in range(budget + 1)]
    best[start] = 0
    buckets[0].append(start)
    get, stop_get = best.get, stops.get
    unreached = budget + 1  # dearer than any cost within the budget
    for cost, bucket in enumerate(buckets):
        left = budget - cost
        for here in bucket:  # zero-cost steps join the bucket being read
            if best[here] != cost:  # queued, then found cheaper
                continue
            goes, halts = first if first is not None and here == start else table[here]
            for to, step, note in goes:
                if step <= left:
                    total = cost + step
                    if total < get(to, unreached):
                        best[to] = total
                        parent[to] = here
                        tag[to] = note
                        buckets[total].append(to)
            for to, step, note in halts:
                if step <= left:
                    total = cost + step
                    if total < stop_get(to, unreached):
                        stops[to] = total
                        stop_parent[to] = here
                        stop_tag[to] = note
    return paths


def _buckets(
    paths: Paths[P],
    starts: Mapping[P, int],
    table: Mapping[P, Iterable[Step[P]]],
    budget: int,
) -> Paths[P]:
    """The bucket search (Dial's algorithm) of `cheapest` with a budget, filling `paths`: the
    places of each cost in turn, the steps out of each read from `table`."""
    best, parent, tag = paths.cost, paths.parent, paths.tag
    stops, stop_parent, stop_tag = paths.stops, paths.stop_parent, paths.stop_tag
    if budget < 0:
        return paths
    buckets: list[list[P]] = [[] for _ in range(budget + 1)]
    for p, c in starts.items():
        if 0 <= c <= budget and (p not in best or c < best[p]):
            best[p] = c
            buckets[c].append(p)
    get = best.get
    unreached = budget + 1  # dearer than any cost within the budget
    for cost, bucket in enumerate(buckets):
        left = budget - cost
        for here in bucket:  # zero-cost steps join the bucket being read
            if best[here] != cost:  # queued, then found cheaper
                continue
            for to, step, stop, note in table[here]:
                if step > left:
                    continue
                total = cost + step
                if stop:
                    if total < stops.get(to, unreached):
                        stops[to], stop_parent[to], stop_tag[to] = total, here, note
                elif total < get(to, unreached):
                    best[to] = total
                    parent[to] = here
                    tag[to] = note
                    buckets[total].append(to)
    return paths


def cheapest_costs(
    starts: Mapping[P, int],
    steps: Mapping[P, Sequence[tuple[P, int]]],
    budget: int,
    settled: Mapping[P, int] | None = None,
) -> dict[P, int]:
    """`cheapest(...).cost` for a game whose steps never force a stop, with the steps from
    each place given as a table of (where to, cost) made by `cost_steps`: the same search and
    the same answer (in the same order), without the routes, for the many searches of a
    movement phase. `settled` gives places whose least costs are already known (they come
    first in the answer and are searched from only when they are also in `starts`), so a
    search that knows part of its answer goes on from where that part ends."""
    best: dict[P, int] = dict(settled) if settled else {}
    buckets: list[list[P]] = [[] for _ in range(max(budget, 0) + 1)]
    for p, c in starts.items():
        if 0 <= c <= budget and c <= best.get(p, c):
            best[p] = c
            buckets[c].append(p)
    get = best.get
    unreached = budget + 1  # dearer than any cost within the budget
    for cost, bucket in enumerate(buckets):
        left = budget - cost
        for here in bucket:  # zero-cost steps join the bucket being read
            if best[here] != cost:  # queued, then found cheaper
                continue
            for to, step in steps[here]:
                if step <= left:
                    total = cost + step
                    if total < get(to, unreached):
                        best[to] = total
                        buckets[total].append(to)
    return best


def _heap(starts: Mapping[P, int], steps: Callable[[P, int], Iterable[Step[P]]], paths: Paths[P]) -> Paths[P]:
    best, parent, tag = paths.cost, paths.parent, paths.tag
    stops, stop_parent, stop_tag = paths.stops, paths.stop_parent, paths.stop_tag
    order = 0  # ties in insertion order: places need not be comparable
    heap: list[tuple[int, int, P]] = []
    for p, c in starts.items():
        if p not in best or c < best[p]:
            best[p] = c
            heap.append((c, order, p))
            order += 1
    heapq.heapify(heap)
    done: set[P] = set()
    while heap:
        cost, _, here = heapq.heappop(heap)
        if here in done or best.get(here) != cost:
            continue
        done.add(here)
        for to, step, stop, note in steps(here, cost):
            if step < 0:
                raise ValueError(f"a step from {here} to {to} costs {step}")
            total = cost + step
            if stop:
                old = stops.get(to)
                if old is None or total < old:
                    stops[to], stop_parent[to], stop_tag[to] = total, here, note
                continue
            old = best.get(to)
            if old is None or total < old:
                best[to], parent[to], tag[to] = total, here, note
                heapq.heappush(heap, (total, order, to))
                order += 1
    return paths


def zone_of_control(
    units_at: Iterable[P],
    adjacent: Mapping[P, Iterable[P]],
    exerts: Callable[[P], bool] | None = None,
    into: Callable[[P], bool] | None = None,
) -> set[P]:
    """The places next to `units_at` that their zone of control covers: from each place whose
    units exert one (`exerts`, e.g. not hidden under stealth), into each neighbour it reaches
    (`into`, e.g. not a jungle hex); every game's zone of control is this with its own rules."""
    zone: set[P] = set()
    for here in units_at:
        if exerts is not None and not exerts(here):
            continue
        for n in adjacent[here]:
            if into is None or into(n):
                zone.add(n)
    return zone
