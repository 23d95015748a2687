"""Movement phases (FB 4.0–4.5, 5.0, 6.0–6.4, 7.1, 7.3, 7.4, 8.2, 13.6).

Movement is counted in half movement factors so that the half-MF costs of boxes and
Japanese entry (FB 6.1, 6.2, 7.3) stay exact. A move takes a unit to its
destination along the cheapest legal path (or along the path given with `via`);
a unit may move again with what it has left.
"""

from __future__ import annotations

from bisect import bisect_left
from operator import itemgetter

from henderson.core.errors import IllegalAction
from henderson.core.events import Event
from henderson.core.game import Action
from henderson.games.firstblood import actions as A
from henderson.games.firstblood.board import Board
from henderson.games.firstblood.model import GroundUnit
from henderson.games.firstblood.reach import UNREACHED, Found, OpenGrid, from_one, search
from henderson.games.firstblood.rules import airfields, japanese_air
from henderson.games.firstblood.rules.phase import FBPhase
from henderson.games.firstblood.rules.placement import HEX_STACK
from henderson.games.firstblood.rules.stacking import Stacking, overfull
from henderson.games.firstblood.state import FBState, enemy_of


def fmt_mf(half: int) -> str:
    return f"{half // 2}½" if half % 2 else str(half // 2)


class Front:
    """The enemy as one side's movers meet it in a movement phase: its hexes (FB 7.4) by name
    and by number, their zone of control (FB 8.2) by number (`zoc` by name when asked for),
    both together by number and as bits (where the empty-map costs may no longer hold), and
    the steps left open past them (`grid`, made when a whole search first needs it: most
    searches start from the empty map's costs). Fixed for the phase, since the enemy does not
    move in one's own movement phase; kept in `reach_cache`, which the phase empties when it
    starts."""

    __slots__ = (
        "_grid",
        "_neighbours",
        "_places",
        "_steps",
        "danger_at",
        "danger_mask",
        "enemy",
        "enemy_at",
        "zoc_at",
    )

    def __init__(self, board: Board, enemy: set[str]) -> None:
        index = board.place_index
        neighbours = self._neighbours = board.neighbours
        self._places = board.places
        self._steps = board.grid
        self._grid: OpenGrid | None = None
        self.enemy = enemy
        self.enemy_at = {index[h] for h in enemy}
        self.zoc_at: set[int] = set().union(*map(neighbours.__getitem__, self.enemy_at))  # FB 8.2: `Board.zoc`
        self.danger_at = self.enemy_at | self.zoc_at
        zone = board.zone_bits
        mask = 0
        for at in self.enemy_at:
            mask |= zone[at]
        self.danger_mask = mask  # `danger_at` as bits (`reach.bits`)

    @property
    def grid(self) -> OpenGrid:
        """The steps the enemy leaves open (FB 7.4, 8.2), made once."""
        grid = self._grid
        if grid is None:
            grid = self._grid = OpenGrid(self._steps, self._neighbours, self.enemy_at, self.zoc_at)
        return grid

    @property
    def zoc(self) -> set[str]:
        """The enemy's zone of control by hex name."""
        places = self._places
        return {places[at] for at in self.zoc_at}


FRONT_KEYS = {"us": ("front", "us"), "jp": ("front", "jp")}  # each side's key in `reach_cache`, made once


def front(st: FBState, side: str) -> Front:
    """The enemy of `side` as its movers meet it this phase (made once, then read)."""
    key = FRONT_KEYS[side]
    found: Front | None = st.reach_cache.get(key)
    if found is None:
        found = st.reach_cache[key] = Front(st.board, st.hexes_of(enemy_of(side)))
    return found


def reach(st: FBState, unit: str, here: str | None = None, budget: int | None = None) -> dict[str, int]:
    """Every place `unit` can move to now, with its least cost in half-MF (not its own place);
    or from `here` with `budget` half-MF left, where it would stand after a move."""
    if budget is None:
        budget = st.mf.get(unit, 0)
    if here is None:
        here = st.ground[unit]
    places = st.board.places
    return {places[at]: c for at, c in reach_at(st, unit, here, budget).costs().items()}


def reach_at(st: FBState, unit: str, here: str, budget: int) -> Found:
    """`reach` by place number (`Board.place_index`). The answer may be shared with other
    answers (and clones): read it, never change it."""
    return _reach_of(st, st.data.ground[unit], here, budget)


def _reach_of(st: FBState, g: GroundUnit, here: str, budget: int) -> Found:
    """`reach_at` for the unit `g`."""
    board = st.board
    size = len(board.places)
    if budget <= 0:
        return Found([UNREACHED] * size, -1, [])
    own = st.reach_cache.get(FRONT_KEYS[g.side]) or front(st, g.side)
    free = budget <= board.free_limit
    if here in board.terrain or (free and g.side == "us" and here in board.ep_arrows):  # FB 7.1: as from a hex
        at = board.place_index[here]
        if free and at not in own.danger_at:
            # from the empty map's costs, searched for afresh only where the enemy took them away
            empty = board.free_reaches.get(at) or board.free_reach(at)
            return empty.past_enemy(budget, own.enemy_at, own.zoc_at, own.danger_at, own.danger_mask)
        best, met = from_one(own.grid, size, at, budget)
        return Found(best, budget, sorted(met))
    index = board.place_index
    starts, boxes = entries(st, g.id, here, budget, own.enemy, st.visited.get(g.id, here))
    best = [UNREACHED] * size
    met = search(own.grid, best, [(index[h], c) for h, c in starts.items()], budget)
    for box, c in boxes.items():  # FB 6.1: the boxes passed on the way
        best[index[box]] = c
        met.append(index[box])
    return Found(best, budget, sorted(met))


def reach_with(
    st: FBState, unit: str, here: str, budget: int, enemy: set[str], zoc: set[str], seen: str
) -> dict[str, int]:
    """`reach` with the enemy hexes, their zones of control and the boxes already visited given
    (the refusals ask what a move would cost without one of them)."""
    starts, boxes = entries(st, unit, here, budget, enemy, seen) if not st.board.on_map(here) else ({here: 0}, {})
    result = st.board.reach(starts, budget, enemy, zoc)
    result.pop(here, None)
    result.update(boxes)
    return result


def entries(
    st: FBState, unit: str, here: str, budget: int, enemy: set[str], seen: str
) -> tuple[dict[str, int], dict[str, int]]:
    """For a unit off the map (on an entry point or in a box): the hexes it may enter the map
    at, with what getting there costs, and the boxes it may move to, with their costs."""
    board = st.board
    g = st.data.ground[unit]
    half = g.mf  # one half of the printed MF, in half-MF units (FB 6.1, 6.2, 7.3)
    starts: dict[str, int] = {}
    boxes: dict[str, int] = {}
    if here in board.ep_arrows:
        cost = 0 if g.side == "us" else half  # FB 7.1 (US pays nothing), FB 7.3
        for h in board.ep_arrows[here]:
            if h not in enemy:  # FB 7.4
                starts[h] = min(starts.get(h, cost), cost)
    elif here in board.box_arrows:
        # FB 6.1: box to box costs half the MF; never back into a box already visited (FB 6.0)
        frontier = [(here, 0, seen)]
        while frontier:
            box, cost, been = frontier.pop()
            if box != here:
                boxes[box] = min(boxes.get(box, cost), cost)
            enter_cost = cost + half  # FB 6.2: box to the map costs half the MF
            if enter_cost <= budget:
                for h in board.box_arrows[box]:
                    if h not in enemy:  # FB 7.4
                        starts[h] = min(starts.get(h, enter_cost), enter_cost)
            for nxt in board.box_next[box]:
                if nxt not in been and cost + half <= budget:
                    frontier.append((nxt, cost + half, been + nxt))
    return starts, boxes


def enemy_and_zoc(st: FBState, side: str) -> tuple[set[str], set[str]]:
    """Hexes of the enemy's ground units and their zone of control, fixed for a movement phase."""
    found = front(st, side)
    return found.enemy, found.zoc


def reached(st: FBState, unit: str) -> Found:
    """`reach_at` where `unit` stands now, remembered for the phase (units alike share it): enemy
    units do not move in one's own movement phase, so it depends only on the unit's side,
    printed MF, place, MF left and boxes visited."""
    return _reached(st, unit, st.ground[unit], st.mf.get(unit, 0), st.visited.get(unit, ""))


def _reached(st: FBState, unit: str, here: str, left: int, seen: str) -> Found:
    g = st.data.ground[unit]
    key = ("reach", g.side, g.mf, here, left, seen)
    found: Found | None = st.reach_cache.get(key)
    if found is None:
        found = st.reach_cache[key] = reach_at(st, unit, here, left)
    return found


def costs(st: FBState, unit: str) -> dict[str, int]:
    """`reach`, from the search remembered for the phase (units alike share it)."""
    places = st.board.places
    return {places[at]: c for at, c in reached(st, unit).costs().items()}


def cost_to(st: FBState, unit: str, to: str) -> int | None:
    """What moving `unit` to `to` costs now in half-MF, None if it cannot get there (read from
    the move lists' search for the unit when they are kept: the same search as `reached`)."""
    at = st.board.place_index.get(to)
    if at is None:
        return None
    lists = st.move_lists
    found = lists.found.get(unit) if lists is not None else None
    if found is None:
        found = reached(st, unit)
    return found.cost(at)


def moves(st: FBState, unit: str) -> tuple[list[A.Move], Found]:
    """The moves `unit` could make ignoring stacking, and where it can get, cached for the
    phase (see `reached`); a search as on the empty map keeps the unit's moves for the game."""
    here, left, seen = st.ground[unit], st.mf.get(unit, 0), st.visited.get(unit, "")
    cache = st.reach_cache
    key = (unit, here, left, seen)
    found = cache.get(key)
    if found is None:
        g = st.data.ground[unit]
        searched = ("reach", g.side, g.mf, here, left, seen)  # `_reached`, read inline
        where: Found | None = cache.get(searched)
        if where is None:
            where = _reach_of(st, g, here, left)
            if where.memo is None:  # an empty-map answer is found again at once: not kept twice
                cache[searched] = where
        found = cache[key] = (_listed(st.board, unit, where), where)
    return found


MEMO_UNITS = 32  # the units' move lists an empty-map answer keeps at most (emptied when full)


def _listed(board: Board, unit: str, where: Found) -> list[A.Move]:
    """`unit`'s moves to the places `where` reaches: kept with an empty-map answer for the game;
    for one that is an empty-map answer less some places, that answer's moves less theirs."""
    memo = where.memo
    if memo is not None:
        listed: list[A.Move] | None = memo.get(unit)
        if listed is None:
            if len(memo) >= MEMO_UNITS:
                memo.clear()
            listed = memo[unit] = _moves_to(board, unit, where.order)
        return listed
    base = where.base
    if base is not None:
        assert base.memo is not None, "the base is an empty-map answer"
        listed = base.memo.get(unit) or _listed(board, unit, base)
        listed = listed.copy()
        order = base.order
        out = where.out
        for at in sorted(out, reverse=True) if len(out) > 1 else out:
            del listed[bisect_left(order, at)]
        return listed
    return _moves_to(board, unit, where.order)


def _moves_to(board: Board, unit: str, order: list[int]) -> list[A.Move]:
    """`move UNIT PLACE` for each place number, one shared value per unit and place (bounded:
    so many units, so many places), made for every place at the unit's first listing: actions
    are immutable, and building thousands of them per phase was a third of the cost of listing
    moves."""
    known = board.moves.get(unit)
    if known is None:
        known = board.moves[unit] = [A.Move(unit, place) for place in board.places]
    if len(order) > 1:
        return list(itemgetter(*order)(known))
    return [known[at] for at in order]


def is_legal_move(st: FBState, action: A.Move) -> bool:
    """The same answer as looking `action` up in `actions(st)`, without building that list."""
    unit = action.unit
    if action.via or unit not in st.mf or st.mf[unit] <= 0 or unit not in st.ground:
        return False
    if st.data.ground[unit].side != st.phasing:
        return False
    cost = cost_to(st, unit, action.to)
    return cost is not None and fits(st, unit, action.to, cost)


def stacking_of(st: FBState) -> Stacking:
    """The stacking answer of this position: the move lists' when they are kept, else a new one."""
    lists = st.move_lists
    return lists.stacking if lists is not None else Stacking(st)


def fits(st: FBState, unit: str, to: str, cost: int) -> bool:
    """FB 5.0: whether, after this move, the phase could still end within the stacking limit."""
    if not st.board.on_map(to):
        return True  # the boxes have no limit (FB 5.0, 7.2)
    if st.move_lists is None and len(st.at(to)) < HEX_STACK and not overfull(st):
        return True  # room, and no hex over the limit: nothing to weigh
    stacking = stacking_of(st)
    return to not in stacking.full or stacking.allows(st, unit, to, cost)


def movers(st: FBState) -> list[str]:
    """The units of the moving side with MF left, by name."""
    ground = st.ground
    found = [u for u, left in st.mf.items() if left > 0 and u in ground]
    found.sort()
    return found


def bombers_ready(st: FBState) -> list[str]:
    """US bombers in the Ground Attack box not yet placed (FB 13.6), asked at every listing of
    the phase: the air units stay where they are in a movement phase (only `bombing` changes),
    so those in the box are found once for the phase, with its other answers."""
    key = ("bombers in the Ground Attack box",)
    boxed: list[str] | None = st.reach_cache.get(key)
    if boxed is None:
        air = st.air
        boxed = st.reach_cache[key] = sorted(a for a in us_bombers(st) if air.get(a) == "usaf_ground_attack")
    bombing = st.bombing
    return [a for a in boxed if a not in bombing] if bombing else list(boxed)


def us_bombers(st: FBState) -> frozenset[str]:
    """Every US bomber of the game, found once from the data."""
    key = ("us bombers",)
    found: frozenset[str] | None = st.board.memo.get(key)
    if found is None:
        data = st.data
        found = st.board.memo[key] = frozenset(
            a for a, x in data.air.items() if x.side == "us" and data.air_types[x.type].is_bomber
        )
    return found


def bomb_targets(st: FBState) -> list[str]:
    """Japanese stacks on the map (FB 13.2: never in the off-board boxes), fixed for the phase."""
    found = st.reach_cache.get(("bomb targets",))
    if found is None:
        found = sorted(st.hexes_of("jp"))
        st.reach_cache[("bomb targets",)] = found
    return found


class MoveLists:
    """The legal moves of one movement phase, kept up to date move by move (only the mover's
    list and the lists touching a full hex whose answer may have changed are redone), so that
    listing the legal actions after a move costs about one reach, not one per unit. Held by one
    state only: a clone starts without and rebuilds it from the shared `reach_cache`."""

    __slots__ = ("found", "full_at", "lists", "movers", "off_map", "stacking")

    def __init__(self, st: FBState) -> None:
        self.stacking = Stacking(st)  # FB 5.0: which moves into full hexes still let the phase end
        self.full_at = self._numbered(st, self.stacking.full)
        self.movers = movers(st)
        self.found: dict[str, Found] = {}  # each mover's search (`reached`), as its list was made
        self.lists = {u: self._filtered(st, u) for u in self.movers}
        # the movers in a box or on an entry point (FB 6.3, 6.4 ask after them at every listing)
        ground, terrain = st.ground, st.board.terrain
        self.off_map = [u for u in self.movers if ground[u] not in terrain]

    @staticmethod
    def _numbered(st: FBState, hexes: set[str]) -> list[int]:
        index = st.board.place_index
        return [index[h] for h in hexes]

    def _filtered(self, st: FBState, unit: str) -> list[A.Move]:
        """`unit`'s legal moves now, its search kept in `found`."""
        unit_moves, found = moves(st, unit)
        self.found[unit] = found
        full_at = self.full_at
        if not full_at or not found.meets(full_at):
            return unit_moves
        return self._fitting(st, unit, unit_moves, found)

    def _fitting(self, st: FBState, unit: str, unit_moves: list[A.Move], found: Found) -> list[A.Move]:
        """Those of `unit_moves` (read from `found`) after which the phase can still end within
        the stacking limit (FB 5.0): a move into a full hex only when the hex can shed a unit."""
        stacking = self.stacking
        full = stacking.full
        index = st.board.place_index
        best = found.best
        return [m for m in unit_moves if m.to not in full or stacking.allows(st, unit, m.to, best[index[m.to]])]

    def actions(self) -> list[Action]:
        """Every mover's legal moves, in the movers' order, as a new list."""
        acts: list[Action] = []
        lists = self.lists
        for unit in self.movers:
            acts.extend(lists[unit])
        return acts

    def moved(self, st: FBState, unit: str, frm: str, to: str) -> None:
        """Bring the lists up to date after `unit` moved from `frm` to `to`."""
        old = self.stacking
        changed: set[str] = set()
        if old.settled and frm not in old.full and to not in old.full and len(st.occ.get(to, ())) < HEX_STACK:
            old.step(unit, frm, to)  # between hexes with room: no full hex's answer changes
        else:
            new = self.stacking = Stacking(st)
            self.full_at = self._numbered(st, new.full)
            changed = (old.full ^ new.full) | (old.esc ^ new.esc) | (old.full - old.esc) | (new.full - new.esc)
        if st.mf.get(unit, 0) <= 0:
            self.movers.remove(unit)
            del self.lists[unit]
            del self.found[unit]
        else:
            self.lists[unit] = self._filtered(st, unit)
        if unit in self.off_map and (unit not in self.lists or st.board.on_map(to)):
            self.off_map.remove(unit)  # on the map for good (FB 6.0), or done moving
        if changed:
            changed_at = self._numbered(st, changed)
            for other in self.movers:
                if other != unit and moves(st, other)[1].meets(changed_at):
                    self.lists[other] = self._filtered(st, other)


def path_cost(st: FBState, action: A.Move) -> int:
    """Cost of a move along its given path; IllegalAction at the first wrong step."""
    unit = action.unit
    check_mover(st, unit)
    board = st.board
    g = st.data.ground[unit]
    enemy = st.hexes_of(enemy_of(g.side))
    zoc = board.zoc(enemy)
    here = st.ground[unit]
    cost = 0
    visited = st.visited.get(unit, "")
    steps = [*action.via, action.to] if action.via[-1:] != (action.to,) else list(action.via)
    for step in steps:
        if board.on_map(here):
            if step not in board.adj[here]:
                raise IllegalAction("FB 4.0", f"{step} is not next to {here}")
            if step in enemy:
                raise IllegalAction("FB 7.4", f"{step} holds enemy ground units")
            if here in zoc and step in zoc:
                raise IllegalAction(
                    "FB 8.2",
                    f"a unit may not move directly from one enemy zone of control ({here}) to another ({step})",
                )
            cost += board.cost2[(here, step)]
        elif here in board.ep_arrows:
            if step not in board.ep_arrows[here]:
                raise IllegalAction("FB 7.1", f"no arrow from {here} points to {step}")
            if step in enemy:
                raise IllegalAction("FB 7.4", f"{step} holds enemy ground units")
            cost += 0 if g.side == "us" else g.mf
        elif here in board.box_arrows:
            if step in board.box_next[here]:
                if step in visited:
                    raise IllegalAction(
                        "FB 6.0", f"{unit} may not reenter box {step}: it has been in or moved through boxes {visited}"
                    )
                visited += step
            elif step in board.box_arrows[here]:
                if step in enemy:
                    raise IllegalAction("FB 7.4", f"{step} holds enemy ground units")
            else:
                raise IllegalAction(
                    "FB 6.2", f"box {here} leads only to {', '.join(board.box_next[here] + board.box_arrows[here])}"
                )
            cost += g.mf  # FB 6.1, 6.2
        else:
            raise IllegalAction("FB 6.0", f"{unit} cannot move from {here}")
        if board.on_map(here) and not board.on_map(step):
            raise IllegalAction("FB 6.0", "once on the map, Japanese units never leave it for the boxes")
        here = step
    if cost > st.mf[unit]:
        raise IllegalAction("FB 4.0", f"{unit} has {fmt_mf(st.mf[unit])} MF left, the path costs {fmt_mf(cost)}")
    if not fits(st, unit, here, cost):
        raise crowded(st, unit, here)
    return cost


def crowded(st: FBState, unit: str, hex_id: str) -> IllegalAction:
    """The refusal of a move after which the stacking limit could not be met by the end of the phase."""
    n = len(st.at(hex_id)) + 1
    why = f"{hex_id} would hold {n}" if n > HEX_STACK else f"it takes the room {', '.join(overfull(st))} needs"
    return IllegalAction(
        "FB 5.0",
        f"after {unit} moves to {hex_id} the moves left could not bring every hex within the limit of "
        f"{HEX_STACK} ground units by the end of the movement phase ({why})",
    )


def check_mover(st: FBState, unit: str) -> None:
    if unit in st.data.air or unit in st.data.ships:
        raise IllegalAction("FB 4.3", f"{unit} is an air or naval unit: it has no movement factors and does not move")
    if unit not in st.data.ground:
        raise IllegalAction("FB 4.0", f"no ground unit {unit!r}")
    if unit not in st.ground:
        raise IllegalAction("FB 4.0", f"{unit} is not in play")
    if st.data.ground[unit].side != st.phasing:
        raise IllegalAction("FB 3.2", f"{unit} is not yours to move in the {st.phasing.upper()} movement phase")
    if unit in st.held:
        raise IllegalAction(
            "FB 7.2", f"{unit} entered Box {st.ground[unit]} this turn and may not move until next turn"
        )
    if st.mf.get(unit, 0) <= 0:
        raise IllegalAction("FB 4.1", f"{unit} has no movement factors left")


def unreachable(st: FBState, unit: str, to: str) -> IllegalAction:
    """Why `unit` cannot reach `to`: the first of the movement rules without which it could."""
    g = st.data.ground[unit]
    here = st.ground[unit]
    budget = st.mf[unit]
    enemy = enemy_and_zoc(st, g.side)[0]
    seen = st.visited.get(unit, here)
    if to in reach_with(st, unit, here, budget, enemy, set(), seen):
        return IllegalAction(
            "FB 8.2",
            f"every way for {unit} to {to} steps directly from one enemy zone of control to another "
            "(it must first move to a hex free of enemy ZOC)",
        )
    if to in reach_with(st, unit, here, budget, set(), set(), seen):
        return IllegalAction("FB 7.4", f"every way for {unit} to {to} within its MF passes through enemy-held hexes")
    if here in st.board.box_arrows and to in reach_with(st, unit, here, budget, set(), set(), here):
        return IllegalAction("FB 6.0", f"the way for {unit} to {to} passes through a box it has been in ({seen})")
    return IllegalAction(
        "FB 4.0",
        f"{unit} has {fmt_mf(budget)} MF left, not enough to reach {to} "
        "(hexside costs FB 4.2; a box or an entry costs half the unit's MF, FB 6.1, 6.2, 7.3)",
    )


def move(st: FBState, unit: str, to: str, cost: int, events: list[Event], passed: str | None = None) -> None:
    """Carry out a checked move; `passed` names the boxes entered on the way when a path was
    given (else the boxes between the two ends, FB 6.0)."""
    frm = st.ground[unit]
    lists = st.move_lists
    st.mf[unit] -= cost
    st.put(unit, to)  # forgets the move lists: any other change of place must rebuild them
    if unit not in st.moved:
        st.moved |= {unit}
    board = st.board
    if to in board.box_arrows:
        if passed is None:
            passed = board.boxes_between(frm, to)
        seen = st.visited.get(unit, frm)
        # FB 6.0, 6.3: a box counter for every box entered, those only passed through included
        st.visited[unit] = seen + "".join(b for b in dict.fromkeys(passed) if b not in seen)
    if lists is not None:
        lists.moved(st, unit, frm, to)
        st.move_lists = lists
    events.append(
        Event(
            "move",
            f"{unit} moves {frm} → {to} ({fmt_mf(cost)} MF, {fmt_mf(st.mf[unit])} left)",
            {"unit": unit, "from": frm, "to": to, "cost": cost / 2},
        )
    )
    if st.data.ground[unit].side == "jp":
        airfields.occupied(st, to, events)


def legal_movers(st: FBState) -> dict[str, list[A.Move]]:
    """Each moving unit's legal moves now."""
    if st.move_lists is None:
        st.move_lists = MoveLists(st)
    return st.move_lists.lists


def unmoved_in_boxes(st: FBState) -> list[str]:
    """FB 6.3: Japanese units in boxes that have not moved this turn and could."""
    if st.phasing != "jp":
        return []
    boxes = st.board.box_arrows
    lists = legal_movers(st)
    assert st.move_lists is not None
    return [u for u in st.move_lists.off_map if lists[u] and st.ground[u] in boxes and u not in st.moved]


def waiting_on_entry_points(st: FBState) -> list[str]:
    """FB 6.4: units of the moving side on entry points that could still enter the map."""
    eps = st.board.ep_arrows
    lists = legal_movers(st)
    assert st.move_lists is not None
    return [u for u in st.move_lists.off_map if lists[u] and st.ground[u] in eps]


class Movement(FBPhase):
    """A movement phase (FB 4.0-7.4, 13.3, 13.6)."""

    lists_afresh = True  # `actions` builds a new list from the kept move lists

    def enter(self, st: FBState, events: list[Event]) -> None:
        side = st.phasing
        ground, held = st.data.ground, st.held
        st.reach_cache = {}
        st.move_lists = None
        # FB 4.1: full movement, nothing saved from earlier turns
        st.mf = {u: 2 * ground[u].mf for u in st.ground if ground[u].side == side and u not in held}

    def has_choice(self, st: FBState) -> bool | None:
        """Whether some move is open, found without listing them all (look-ahead clones that
        are only evaluated never pay for the list); None: list them to know."""
        lists = st.move_lists
        if lists is not None:
            return any(lists.lists.values()) or None
        if overfull(st):
            return None
        terrain = st.board.terrain
        places = st.board.places
        for unit in movers(st):
            for at in moves(st, unit)[1].order:
                place = places[at]
                if place not in terrain or len(st.occ.get(place, ())) < HEX_STACK:  # FB 5.0: room
                    return True
        return None

    def is_legal(self, st: FBState, action: Action) -> bool:
        """A move is checked against the mover's destinations (the long list of every unit's
        moves is never searched); anything else as in every phase."""
        if isinstance(action, A.Move) and not action.via:
            return is_legal_move(st, action)
        return super().is_legal(st, action)

    def actions(self, st: FBState) -> list[Action]:
        if st.move_lists is None:
            st.move_lists = MoveLists(st)
        acts = st.move_lists.actions()
        if st.phasing == "us":
            ready = bombers_ready(st)
            targets = bomb_targets(st) if ready else []
            for b in ready:
                acts.extend(A.Bomb(b, h) for h in targets)
        if st.phasing == "jp":
            acts.extend(japanese_air.missions(st))
        return acts

    def accepts(self, st: FBState, action: Action) -> bool:
        """`move ... via` is checked step by step; it is legal when its path is. A Japanese air
        mission may name any of identical counters (FB 13.3)."""
        if isinstance(action, A.Move) and action.via:
            path_cost(st, action)
            return True
        if isinstance(action, A.AirMission) and st.phasing == "jp":
            return japanese_air.accepts(st, action)
        return False

    def explain(self, st: FBState, action: Action) -> IllegalAction:
        try:
            if isinstance(action, A.Move):
                check_mover(st, action.unit)
                board = st.board
                g = st.data.ground[action.unit]
                if action.to in board.box_arrows and g.side == "us":
                    return IllegalAction("FB 6.0", "only Japanese land units may use the off-board boxes")
                here = st.ground[action.unit]
                if board.on_map(here) and not board.on_map(action.to):
                    return IllegalAction("FB 6.0", "once on the map, Japanese units never leave it for the boxes")
                if here in board.box_arrows and action.to in board.box_arrows:
                    seen = st.visited.get(action.unit, here)
                    again = [b for b in (board.boxes_between(here, action.to) or action.to) if b in seen]
                    if again:
                        return IllegalAction(
                            "FB 6.0",
                            f"{action.unit} may not reenter box {again[0]}: "
                            f"it has been in or moved through boxes {seen}",
                        )
                if board.on_map(action.to) and action.to in st.hexes_of(enemy_of(g.side)):
                    return IllegalAction("FB 7.4", f"{action.to} holds enemy ground units")
                if cost_to(st, action.unit, action.to) is not None and not action.via:
                    return crowded(st, action.unit, action.to)
                if action.to not in board.terrain and action.to not in board.box_arrows:
                    return IllegalAction("FB 4.0", f"{action.to} is not a hex of the map or an off-board box")
                return unreachable(st, action.unit, action.to)
            if isinstance(action, A.Bomb):
                if st.phasing != "us":
                    return IllegalAction("FB 13.6", "US bombers are placed in the US movement phase")
                if action.unit in st.bombing:
                    return IllegalAction("FB 13.6", f"{action.unit} is already placed over {st.bombing[action.unit]}")
                if action.unit not in bombers_ready(st):
                    return IllegalAction("FB 13.6", f"{action.unit} is not a bomber in the USAF Ground Attack box")
                return IllegalAction("FB 13.6", f"{action.hex} holds no Japanese ground units on the map (FB 13.2)")
            if isinstance(action, A.AirMission):
                return japanese_air.explain(st, action)
        except IllegalAction as exc:
            return exc
        return super().explain(st, action)

    def do(self, st: FBState, action: Action, events: list[Event]) -> None:
        if isinstance(action, A.Move):
            if action.via:
                cost = path_cost(st, action)
                passed = "".join(p for p in (*action.via, action.to) if p in st.board.box_arrows)
            else:
                found = cost_to(st, action.unit, action.to)
                assert found is not None, "a move is checked legal before it is done"
                cost = found
                passed = None
            move(st, action.unit, action.to, cost, events, passed)
        elif isinstance(action, A.Bomb):
            st.bombing[action.unit] = action.hex
            events.append(
                Event(
                    "bomb",
                    f"{action.unit} placed over {action.hex} (FB 13.6)",
                    {"unit": action.unit, "hex": action.hex},
                )
            )
        elif isinstance(action, A.AirMission):
            japanese_air.fly(st, action, events)

    def may_end(self, st: FBState) -> bool:
        """`end_blocker` finds nothing (FB 5.0, 6.3, 6.4), told without building the refusal."""
        lists = legal_movers(st)
        kept = st.move_lists
        assert kept is not None
        if not kept.stacking.settled and overfull(st):
            return False  # FB 5.0
        board, jp = st.board, st.phasing == "jp"
        for u in kept.off_map:
            if lists[u]:
                place = st.ground[u]
                if place in board.ep_arrows or (jp and place in board.box_arrows and u not in st.moved):
                    return False  # FB 6.4, 6.3
        return True

    def end_blocker(self, st: FBState) -> IllegalAction | None:
        legal_movers(st)
        assert st.move_lists is not None
        over = [] if st.move_lists.stacking.settled else overfull(st)
        if over:
            where = ", ".join(f"{h} ({len(st.at(h))} units)" for h in over)
            return IllegalAction(
                "FB 5.0", f"at most {HEX_STACK} ground units a hex at the end of the movement phase: {where}"
            )
        stuck = unmoved_in_boxes(st)
        if stuck:
            return IllegalAction(
                "FB 6.3", f"Japanese units in off-board boxes must move every turn ({', '.join(stuck)})"
            )
        waiting = waiting_on_entry_points(st)
        if waiting:
            where = ", ".join(f"{u} on {st.ground[u]}" for u in waiting)
            return IllegalAction("FB 6.4", f"units may not stay on entry points while they can enter the map ({where})")
        return None

    def leave(self, st: FBState, events: list[Event]) -> None:
        st.mf = {}
        st.move_lists = None


PHASE = Movement()
