"""The FIRST BLOOD map as the rules use it: adjacency, hexside costs, ranges, zones of control.

Computed once from the data so that the rules ask cheap questions.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Mapping
from typing import Any

from henderson.core.hexgrid import distance, neighbours
from henderson.core.paths import cheapest_costs, cost_steps, zone_of_control
from henderson.games.firstblood.model import FBData

# FB 4.2.1 movement costs, in whole MF, by hexside crossed
HEXSIDE_COST = {"clear": 1, "jungle": 2, "ridge": 2, "ford": 1}  # FB 4.4: the ford removes the river penalty
RIVER_COST = {"clear": 3, "ridge": 3, "jungle": 4}  # FB 4.2: by the terrain of the hex entered

CostSteps = tuple[tuple[str, int], ...]  # the steps from a hex: (hex entered, half-MF it costs)


class FreeReach:
    """Hexes reachable from one hex on an empty map, in increasing cost (the hex itself left
    out): `within[b]` of them cost at most b half-MF; `costs` all of them as a dict, made
    once and shared (never changed), the answer for a unit with its whole MF left; `places`
    the same hexes in name order (the order moves are listed in), `place_set` as a set."""

    __slots__ = ("_adjacent", "_onward", "costs", "hexes", "items", "place_set", "places", "within")

    def __init__(self, here: str, best: Mapping[str, int], limit: int, adjacent: Mapping[str, tuple[str, ...]]) -> None:
        self.items = tuple(sorted(((h, c) for h, c in best.items() if h != here), key=lambda hc: hc[1]))
        costs = [c for _, c in self.items]  # in increasing order: a count is a bisection
        self.within = tuple(bisect_right(costs, b) for b in range(limit + 1))
        self.hexes = tuple(h for h, _ in self.items)
        self.costs = dict(self.items)
        self.places = tuple(sorted(self.hexes))
        self.place_set = frozenset(self.hexes)
        self._adjacent = adjacent
        self._onward: tuple[int, ...] | None = None

    def onward(self) -> tuple[int, ...]:
        """The dearest free cost among the neighbours (within the limit) of each of `hexes`, -1
        for none: a hex whose neighbours all cost no more than m leads nowhere new past m.
        Found at the first search past the enemy from this hex, then kept."""
        if self._onward is None:
            dearest = dict.fromkeys(self.hexes, -1)
            adjacent = self._adjacent
            for h, c in self.items:  # in increasing cost: the last neighbour seen is the dearest
                for n in adjacent[h]:
                    if n in dearest:
                        dearest[n] = c
            self._onward = tuple(dearest.values())
        return self._onward

    def costs_within(self, budget: int) -> dict[str, int]:
        """The hexes within `budget` half-MF with their costs (the shared `costs` when all are)."""
        n = self.within[budget]
        return self.costs if n == len(self.items) else dict(self.items[:n])

    def past_enemy(
        self, here: str, budget: int, danger: set[str], open_steps: Mapping[str, CostSteps]
    ) -> dict[str, int]:
        """The least costs within `budget` from `here` past the enemy, `danger` being the enemy
        hexes and their ZOC (`here` not among them) and `open_steps` the steps they leave open
        (`Board.open_steps`: FB 7.4, no entering an enemy hex; FB 8.2, no step from one enemy
        ZOC hex into another). Every hex no dearer on the empty map than the cheapest enemy
        or ZOC hex within reach (m) keeps its empty-map cost (the hexes on the way to it cost
        less than m, so none is an enemy or ZOC hex); the search goes on only from those of
        them with a neighbour dearer than m, so only the hexes past the enemy are searched.
        Same answer as the whole search."""
        n = self.within[budget]
        near = danger.intersection(self.hexes[:n])
        if not near:
            return self.costs_within(budget)  # no enemy or ZOC within reach: as on an empty map
        costs = self.costs
        m = min(map(costs.__getitem__, near))
        k = self.within[m]
        # no enemy hex among them: the hexes next to one are its ZOC (FB 8.2), so cheaper
        onward, hexes = self.onward(), self.hexes
        seeds = {hexes[i]: costs[hexes[i]] for i in range(k) if onward[i] > m}
        seeds[here] = 0  # its neighbours: at least one dearer than m unless all lie within
        best = cheapest_costs(seeds, open_steps, budget, settled=dict(self.items[:k]))
        del best[here]
        return best


class Board:
    """Static map facts: neighbours, movement costs (in half-MF), distances, entry arrows."""

    def __init__(self, data: FBData) -> None:
        m = data.map
        self.data = data
        self.layout = m.layout
        self.terrain: dict[str, str] = {h: x.terrain for h, x in m.hexes.items()}
        self.axial = {h: m.layout.to_hex(h) for h in m.hexes}
        by_axial = {a: h for h, a in self.axial.items()}
        self.adj: dict[str, tuple[str, ...]] = {
            h: tuple(by_axial[n] for n in neighbours(a) if n in by_axial) for h, a in self.axial.items()
        }
        self.side: dict[tuple[str, str], str] = {}
        self.cost2: dict[tuple[str, str], int] = {}  # half-MF to step a -> b
        for a, ns in self.adj.items():
            for b in ns:
                kind = m.hexside_type(a, b)
                self.side[(a, b)] = kind
                if kind == "river":
                    whole = RIVER_COST[self.terrain[b]]
                else:
                    whole = HEXSIDE_COST[kind]
                self.cost2[(a, b)] = 2 * whole
        # the steps from each hex with their half-MF costs, as the kit's path search takes them
        self.steps: dict[str, CostSteps] = {
            a: cost_steps((b, self.cost2[(a, b)], False, None) for b in ns) for a, ns in self.adj.items()
        }
        self.henderson: tuple[str, ...] = m.airfields["henderson"].hexes
        self.fighter_strip: tuple[str, ...] = m.airfields["fighter_strip"].hexes
        self.airfield_hexes: tuple[str, ...] = self.henderson + self.fighter_strip
        self.ep_arrows: dict[str, tuple[str, ...]] = {f"EP{n}": e.arrows for n, e in m.entry_points.items()}
        self.ep_side: dict[str, str] = {f"EP{n}": e.side for n, e in m.entry_points.items()}
        self.ep_circled: dict[str, bool] = {f"EP{n}": e.circled for n, e in m.entry_points.items()}
        self.box_arrows: dict[str, tuple[str, ...]] = {b: x.arrows for b, x in m.boxes.items()}
        order = sorted(m.boxes.values(), key=lambda box: box.order)
        self.box_order: tuple[str, ...] = tuple(box.id for box in order)  # along the south edge (FB 6.0)
        self.box_next: dict[str, tuple[str, ...]] = {}
        for i, box in enumerate(order):
            nxt = [order[j].id for j in (i - 1, i + 1) if 0 <= j < len(order)]
            self.box_next[box.id] = tuple(nxt)
        self.reinforcement_boxes = tuple(box.id for box in order if box.reinforcement)
        self.setup_rows = m.setup_rows
        self._free: dict[tuple[str, int], FreeReach] = {}
        self.memo: dict[tuple[Any, ...], Any] = {}  # answers that depend on the data alone, for the game
        self.setup_cols = m.setup_cols
        self.setup_hexes = tuple(h for h in self.terrain if self._in_setup_area(h))  # map order
        self.setup_area = frozenset(self.setup_hexes)

    def on_map(self, place: str) -> bool:
        return place in self.terrain

    def boxes_between(self, frm: str, to: str) -> str:
        """The boxes a move from box `frm` to box `to` enters, in order, `to` included: the boxes
        lie in a row and a move goes from one to the next (FB 6.0, 6.1), so A to C passes B."""
        i, j = self.box_order.index(frm), self.box_order.index(to)
        step = 1 if j > i else -1
        return "".join(self.box_order[k] for k in range(i + step, j + step, step))

    def distance(self, a: str, b: str) -> int:
        return distance(self.axial[a], self.axial[b])

    def in_range(self, origin: str, target: str, rng: int) -> bool:
        """FB 9.2: range counts both the artillery's hex and the target hex."""
        return self.distance(origin, target) + 1 <= rng

    def in_setup_area(self, hex_id: str) -> bool:
        """FB 3.0: rows 02–12 and columns 02–15 inclusive."""
        return hex_id in self.setup_area

    def _in_setup_area(self, hex_id: str) -> bool:
        row, col = self.layout.to_offset(hex_id)
        return self.setup_rows[0] <= row <= self.setup_rows[1] and self.setup_cols[0] <= col <= self.setup_cols[1]

    def across_river(self, a: str, b: str) -> bool:
        """FB 8.7.3, 4.4: the ford counts as a river for combat."""
        return self.side[(a, b)] in ("river", "ford")

    def zoc(self, enemy_hexes: Iterable[str]) -> set[str]:
        """FB 8.2: the hexes adjacent to enemy ground units (rivers do not block, FB 8.2.1)."""
        return zone_of_control(enemy_hexes, self.adj)

    def free_reach(self, here: str, limit: int) -> FreeReach:
        """Least half-MF costs from `here` to every hex within `limit` on an empty map,
        remembered for the game: a unit with no enemy unit or zone of control within its
        reach moves exactly as on an empty map (see `movement.reach`)."""
        key = (here, limit)
        found = self._free.get(key)
        if found is None:
            best = self.reach({here: 0}, limit, frozenset(), frozenset())
            found = self._free[key] = FreeReach(here, best, limit, self.adj)
        return found

    def reach(
        self,
        starts: Mapping[str, int],
        budget: int,
        blocked: set[str] | frozenset[str],
        zoc: set[str] | frozenset[str],
        open_steps: Mapping[str, CostSteps] | None = None,
    ) -> dict[str, int]:
        """Least half-MF cost to every hex reachable within `budget` from start hexes (with costs),
        by the kit's path search. FB 7.4: no entering enemy-occupied hexes. FB 8.2: no step from
        one enemy ZOC hex to another; ZOC does not otherwise stop movement. `open_steps`, when
        given, is `self.open_steps(blocked, zoc)` kept by the caller for reuse."""
        if not blocked and not zoc:
            table: Mapping[str, CostSteps] = self.steps
        else:
            table = open_steps if open_steps is not None else self.open_steps(blocked, zoc)
            starts = {h: c for h, c in starts.items() if h not in blocked}
        return cheapest_costs(starts, table, budget)

    def open_steps(self, blocked: set[str] | frozenset[str], zoc: set[str] | frozenset[str]) -> OpenSteps:
        """The steps a mover may take from each hex past these enemy hexes and zones of control."""
        return OpenSteps(self.steps, self.adj, blocked, zoc)


class OpenSteps(dict[str, CostSteps]):
    """The steps from each hex that enemy units allow: FB 7.4, no entering an enemy-occupied
    hex; FB 8.2, no step from one enemy ZOC hex straight into another. Only the hexes next to
    an enemy hex or in a zone of control lose a step; every other hex keeps the map's own
    steps. One is kept per side for a movement phase, while the enemy stands still, so every
    unit's search shares it."""

    def __init__(
        self,
        steps: Mapping[str, CostSteps],
        adjacent: Mapping[str, tuple[str, ...]],
        blocked: set[str] | frozenset[str],
        zoc: set[str] | frozenset[str],
    ) -> None:
        super().__init__(steps)
        self.blocked = blocked
        self.zoc = zoc
        danger = blocked | zoc
        for here in zoc:  # FB 8.2: from a ZOC hex, never straight into another (nor an enemy hex)
            out = steps.get(here)
            if out is not None:
                self[here] = tuple([s for s in out if s[0] not in danger])
        for hex_id in blocked:  # FB 7.4: never into an enemy hex (its neighbours outside `zoc`)
            for here in adjacent.get(hex_id, ()):
                if here not in zoc and here in steps:
                    self[here] = tuple([s for s in steps[here] if s[0] not in blocked])
