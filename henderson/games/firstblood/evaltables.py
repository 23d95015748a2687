"""Static tables for the FIRST BLOOD position evaluation: movement costs to targets, arrival
schedules and combat-result chances, built once per board and kept on a weak cache.

The evaluation (`evaluate.py`) is called thousands of times per move by search, so
everything that does not depend on the position is computed here, once per game
object, and shared by every state of that game.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field

from henderson.core.paths import cheapest
from henderson.core.sequence import Plan
from henderson.games.firstblood.board import Board
from henderson.games.firstblood.model import SIDES, FBData
from henderson.games.firstblood.odds import distribution, odds_column

ARRIVAL_DISCOUNT = 0.88  # design: a unit k turns from arriving is worth 0.88**k of one in play
UNREACHABLE = 10**6
SUPPLY_LOSS = 0.5  # FB 14.1: a die roll of 4-6 costs a unit


@dataclass(frozen=True)
class Outcome:
    """Chances of the defender-side results of one attack, and what the attacker expects to lose."""

    de: float  # FB 8.10 DE: every defender gone, the attacker may advance
    d1: float
    ex: float
    dr: float
    attacker_loss: float  # expected attacking units lost (AE counted as 2)

    @property
    def vacate(self) -> float:
        """The defenders leave the hex one way or another (losses or retreat, FB 8.10)."""
        return self.de + self.d1 + self.ex + self.dr


NO_EFFECT = Outcome(0.0, 0.0, 0.0, 0.0, 0.0)


@dataclass(frozen=True)
class Steps:
    """Where the steps the evaluation asks about stand in the turn (data/sequence.toml): each
    step's index among the turn's steps, the set-up steps before them (negative)."""

    pos: dict[str, int]  # step id -> position
    setup: int  # how many set-up steps
    end: int  # the end phase's index among all the steps (where nobody decides)

    @classmethod
    def of(cls, plan: Plan) -> Steps:
        first = plan.first_turn_step
        return cls({s.id: i - first for i, s in enumerate(plan.steps)}, first, plan.index("end"))

    def reinforcement(self, side: str) -> int:
        return self.pos[f"{side}_reinforcement"]

    def movement(self, side: str) -> int:
        return self.pos[f"{side}_movement"]

    def combat(self, side: str) -> int:
        return self.pos[f"{side}_combat"]

    @property
    def supply(self) -> int:
        return self.pos["jp_supply"]


@dataclass
class EvalTables:
    """Everything about one game's board and data that the evaluation asks for, computed once."""

    board: Board
    data: FBData
    steps: Steps
    to_hex: dict[str, dict[str, int]] = field(default_factory=dict)  # target -> from hex -> half-MF
    to_adj: dict[str, dict[str, int]] = field(default_factory=dict)  # target -> cost to reach a neighbour
    outcomes: dict[tuple[str, int, int, int], Outcome] = field(default_factory=dict)
    arrows_memo: dict[tuple[str, int], int] = field(default_factory=dict)
    ranges: dict[tuple[str, int], frozenset[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        data = self.data
        self.reverse: dict[str, list[tuple[str, int]]] = {h: [] for h in self.board.terrain}
        for (a, b), c in self.board.cost2.items():
            self.reverse[b].append((a, c))
        self.turns = len(data.turns)
        index = {name: i for i, name in enumerate(data.turns)}
        index["start"] = -1
        self.arrival: dict[str, int] = {}
        for r in data.reinforcements:
            for u in r.units:
                self.arrival[u] = index[r.turn]
        # FB 7.2: where Japanese reinforcements may come in (entry points 1-3 and 15-17, boxes A and D)
        board = self.board
        self.jp_entries: tuple[str, ...] = (
            *(ep for ep, side in board.ep_side.items() if side == "jp"),
            *board.reinforcement_boxes,
        )
        self.total_cf: dict[str, int] = {s: sum(g.cf for g in data.ground.values() if g.side == s) or 1 for s in SIDES}
        # arrivals by side and turn index (start = -1): combat factors and unit counts
        self.arrive_cf: dict[str, dict[int, int]] = {s: {} for s in SIDES}
        self.arrive_n: dict[str, dict[int, int]] = {s: {} for s in SIDES}
        self.arrive_mf: dict[str, dict[int, int]] = {s: {} for s in SIDES}  # the most MF among them
        for u, t in self.arrival.items():
            g = data.ground[u]
            self.arrive_cf[g.side][t] = self.arrive_cf[g.side].get(t, 0) + g.cf
            self.arrive_n[g.side][t] = self.arrive_n[g.side].get(t, 0) + 1
            self.arrive_mf[g.side][t] = max(self.arrive_mf[g.side].get(t, 0), g.mf)
        ships_by_turn: dict[int, int] = {}
        for r in data.reinforcements:
            if r.side == "jp" and r.turn != "start":
                ships_by_turn[index[r.turn]] = sum(r.naval.values())
        # FB 14.2: a supply loss can be met by a ship; turns with no ship arriving cost a ground unit
        self.shipless = [0 if ships_by_turn.get(t, 0) else 1 for t in range(self.turns)]
        self.bombers = {a for a, x in data.air.items() if data.air_types[x.type].is_bomber}
        self.us_air_total = sum(1 for x in data.air.values() if x.side == "us") or 1

    # --- movement costs ---------------------------------------------------------------

    def _reverse_costs(self, targets: tuple[str, ...]) -> dict[str, int]:
        """Least half-MF cost from every hex to step into one of `targets` (empty map: no units,
        no ZOC): the cheapest paths backwards from them."""
        rev = self.reverse
        return cheapest(dict.fromkeys(targets, 0), lambda h, c: ((p, step, False, None) for p, step in rev[h])).cost

    def cost_into(self, target: str) -> dict[str, int]:
        """Half-MF cost from each hex to enter `target` (FB 4.2 costs, ignoring units)."""
        table = self.to_hex.get(target)
        if table is None:
            table = self.to_hex[target] = self._reverse_costs((target,))
        return table

    def cost_next_to(self, target: str) -> dict[str, int]:
        """Half-MF cost from each hex to reach a hex next to `target` (0 when already next to it)."""
        table = self.to_adj.get(target)
        if table is None:
            table = self.to_adj[target] = self._reverse_costs(self.board.adj[target])
        return table

    def arrow_cost(self, place: str, table: dict[str, int]) -> int:
        """Least cost onward from the hexes an entry point's or box's arrows point to (FB 6.2, 7.1-7.3)."""
        key = (place, id(table))
        found = self.arrows_memo.get(key)
        if found is None:
            arrows = self.board.ep_arrows.get(place) or self.board.box_arrows.get(place) or ()
            found = self.arrows_memo[key] = min((table.get(a, UNREACHABLE) for a in arrows), default=UNREACHABLE)
        return found

    def in_range(self, origin: str, rng: int) -> frozenset[str]:
        """Hexes an artillery unit in `origin` reaches (FB 9.2: counted inclusively)."""
        key = (origin, rng)
        found = self.ranges.get(key)
        if found is None:
            board = self.board
            found = self.ranges[key] = frozenset(h for h in board.terrain if board.in_range(origin, h, rng))
        return found

    # --- combat -----------------------------------------------------------------------

    def outcome(self, attacker: str, attack: int, defence: int, drm: int) -> Outcome:
        """Chances of each defender result for an attack at these factors (FB 8.4-8.10)."""
        key = (attacker, attack, defence, drm)
        found = self.outcomes.get(key)
        if found is not None:
            return found
        column, above, _ = odds_column(attack, defence)
        if column is None:
            result = Outcome(0.0, 0.0, 0.0, 0.0, 3.0)  # FB 8.6: attackers eliminated, no roll
        else:
            dist = distribution(self.data.tables[attacker], column, drm + (1 if above else 0))
            p = {k: float(v) for k, v in dist.items()}
            loss = 3.0 * p.get("AE", 0.0) + 2.0 * p.get("A2", 0.0) + p.get("A1", 0.0) + p.get("EX", 0.0)
            result = Outcome(p.get("DE", 0.0), p.get("D1", 0.0), p.get("EX", 0.0), p.get("DR", 0.0), loss)
        self.outcomes[key] = result
        return result


_CACHE: weakref.WeakKeyDictionary[Board, EvalTables] = weakref.WeakKeyDictionary()
_last: list[EvalTables] = []  # the tables asked for last: the common case, answered without a weak lookup


def tables_for(board: Board, plan: Plan) -> EvalTables:
    """The evaluation tables of this board and sequence of play, built on first use and cached
    on the board (weakly: they go with it)."""
    if _last and _last[0].board is board:
        return _last[0]
    t = _CACHE.get(board)
    if t is None:
        t = _CACHE[board] = EvalTables(board, board.data, Steps.of(plan))
    _last[:] = [t]
    return t
