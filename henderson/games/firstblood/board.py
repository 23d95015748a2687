"""The FIRST BLOOD map as the rules use it: adjacency, hexside costs, ranges, zones of control.

Computed once from the data so that the rules ask cheap questions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from henderson.core.hexgrid import distance, neighbours
from henderson.core.paths import cheapest_costs, cost_steps, zone_of_control
from henderson.games.firstblood.actions import Move
from henderson.games.firstblood.model import FBData
from henderson.games.firstblood.reach import FreeReach, Grid, bits

# FB 4.2.1 movement costs, in whole MF, by hexside crossed
HEXSIDE_COST = {"clear": 1, "jungle": 2, "ridge": 2, "ford": 1}  # FB 4.4: the ford removes the river penalty
RIVER_COST = {"clear": 3, "ridge": 3, "jungle": 4}  # FB 4.2: by the terrain of the hex entered

CostSteps = tuple[tuple[str, int], ...]  # the steps from a hex: (hex entered, half-MF it costs)


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
        # every place a move may end in, numbered in name order (hexes, then the boxes; the
        # entry points after them, where moves start only): the moves are listed in this
        # order, and the fast searches work on the numbers
        eps = sorted(f"EP{n}" for n in m.entry_points)
        self.places: tuple[str, ...] = (*sorted(self.terrain), *sorted(m.boxes), *eps)
        assert list(self.places) == sorted(self.places), "hex ids sort before box ids, and those before EPs"
        self.place_index: dict[str, int] = {p: i for i, p in enumerate(self.places)}
        index = self.place_index
        self.grid: Grid = [()] * len(self.places)  # the steps by number (none from a box)
        self.neighbours: list[tuple[int, ...]] = [()] * len(self.places)
        for a, out in self.steps.items():
            self.grid[index[a]] = tuple((index[b], c) for b, c in out)
            self.neighbours[index[a]] = tuple(index[b] for b in self.adj[a])
        # each place and its neighbours as bits of an int (bit n: place n): an enemy hex and
        # its zone of control (FB 8.2), or'ed together over the enemy at one stroke
        self.zone_bits: list[int] = [(1 << at) | bits(near) for at, near in enumerate(self.neighbours)]
        self.henderson: tuple[str, ...] = m.airfields["henderson"].hexes
        self.fighter_strip: tuple[str, ...] = m.airfields["fighter_strip"].hexes
        self.airfield_hexes: tuple[str, ...] = self.henderson + self.fighter_strip
        self.ep_arrows: dict[str, tuple[str, ...]] = {f"EP{n}": e.arrows for n, e in m.entry_points.items()}
        self.ep_side: dict[str, str] = {f"EP{n}": e.side for n, e in m.entry_points.items()}
        self.ep_circled: dict[str, bool] = {f"EP{n}": e.circled for n, e in m.entry_points.items()}
        for ep, arrows in self.ep_arrows.items():  # FB 7.1: a US unit enters the map for nothing
            self.grid[index[ep]] = tuple((index[h], 0) for h in arrows)
        into: list[list[tuple[int, int]]] = [[] for _ in self.places]
        for frm, leaving in enumerate(self.grid):
            for to, cost in leaving:
                into[to].append((frm, cost))
        self.into: Grid = [tuple(steps) for steps in into]  # the steps into each place: (from, cost)
        self.box_arrows: dict[str, tuple[str, ...]] = {b: x.arrows for b, x in m.boxes.items()}
        order = sorted(m.boxes.values(), key=lambda box: box.order)
        self.box_order: tuple[str, ...] = tuple(box.id for box in order)  # along the south edge (FB 6.0)
        self.box_next: dict[str, tuple[str, ...]] = {}
        for i, box in enumerate(order):
            nxt = [order[j].id for j in (i - 1, i + 1) if 0 <= j < len(order)]
            self.box_next[box.id] = tuple(nxt)
        self.reinforcement_boxes = tuple(box.id for box in order if box.reinforcement)
        self.setup_rows = m.setup_rows
        self.free_reaches: dict[int, FreeReach] = {}  # `free_reach` by hex number, as made
        self.free_limit = 2 * max(g.mf for g in data.ground.values())  # in half-MF (FB 4.1)
        self.memo: dict[tuple[Any, ...], Any] = {}  # answers that depend on the data alone, for the game
        self.moves: dict[str, list[Move]] = {}  # `move UNIT PLACE` by unit, indexed by place number, made once
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

    def free_reach(self, here: int) -> FreeReach:
        """Least half-MF costs from hex number `here` to every hex within `free_limit` (the most
        MF a unit has) on an empty map, remembered for the game: a unit with no enemy unit or
        zone of control within its reach moves exactly as on an empty map, and one near the
        enemy keeps most of those costs (see `movement.reach_at`)."""
        found = self.free_reaches.get(here)
        if found is None:
            found = self.free_reaches[here] = FreeReach(self.grid, self.into, here, self.free_limit)
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
