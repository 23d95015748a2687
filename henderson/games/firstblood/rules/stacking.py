"""Stacking in the movement phase (FB 5.0): the limit of three ground units a hex "only applies
at the end of the movement phase", so a unit may stop in a full hex (two full hexes may swap
units) as long as the phase can still end within the limit.

A move is legal only if, after it, the moving side's units could still all stand within the
limit at the end of the phase, each where it is or somewhere it can still reach. Friendly units
never hinder one another's movement and the enemy does not move, so this is an assignment
problem: `Stacking` keeps one such assignment (the witness: every unit where it stands, except
that the units of an overfull hex are pushed out along chains of moves), the full hexes, and
which of them could still shed a unit. A move into a hex with room in the witness is always
safe; a move into a full hex is safe when a chain of moves from it ends in a hex with room.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from henderson.games.firstblood.rules.placement import HEX_STACK

if TYPE_CHECKING:
    from henderson.games.firstblood.state import FBState


class Stacking:
    """One phase position's answer to "can the phase still end within FB 5.0?", and for a
    proposed move, whether it still could afterwards."""

    __slots__ = ("_closure", "_opts", "assign", "at", "esc", "full", "kept", "load", "ok", "settled", "terrain")

    def __init__(self, st: FBState) -> None:
        self.terrain = terrain = st.board.terrain
        side = st.phasing
        ground = st.data.ground
        self.load: dict[str, int] = {}  # map hex -> units standing there in the witness
        self.at: dict[str, tuple[str, ...]] = {}  # map hex -> units there in the witness (tuples: shared)
        self.assign: dict[str, str] = {}  # unit -> its place in the witness
        self._opts: dict[str, frozenset[str]] = {}
        self._closure: dict[str, set[str]] = {}
        self.ok = True
        self.settled = True  # every unit stands where the witness has it
        self.full: set[str] = set()
        self.esc: set[str] = set()
        # with no hex of the side at the limit, no move's answer reads the witness: it is not
        # made (`kept` false, and `step` has nothing to follow) and every move is safe
        occ = st.occ
        self.kept = max(map(len, occ.values()), default=0) >= HEX_STACK and any(  # none that high: no look
            len(units) >= HEX_STACK and place in terrain and ground[units[0]].side == side
            for place, units in occ.items()
        )
        if self.kept:
            self._witness(st)

    def _witness(self, st: FBState) -> None:
        """The witness: every unit of the side where it stands, but the units of an overfull
        hex pushed out along chains of moves; then the full hexes and their escapes."""
        side = st.phasing
        ground = st.data.ground
        for place, units in st.occ.items():
            if ground[units[0]].side != side:
                continue
            for u in units:
                self.assign[u] = place
            if place in self.terrain:
                self.load[place] = len(units)
                self.at[place] = units
        over = sorted(h for h, n in self.load.items() if n > HEX_STACK)
        self.settled = not over
        for h in over:
            while self.ok and self.load[h] > HEX_STACK:
                self.ok = self._push(st, h)
        self.full = {h for h, n in self.load.items() if n >= HEX_STACK}
        self.esc = self._escapes(st) if self.full else set()

    # --- the witness ------------------------------------------------------------------

    def options(self, st: FBState, unit: str) -> frozenset[str]:
        """Where `unit` may stand at the end of the phase: where it is, or anywhere it can reach."""
        found = self._opts.get(unit)
        if found is None:
            from henderson.games.firstblood.rules.movement import costs

            here = st.ground[unit]
            found = frozenset(costs(st, unit)) | {here} if st.mf.get(unit, 0) > 0 else frozenset((here,))
            self._opts[unit] = found
        return found

    def room(self, place: str) -> bool:
        """Off the map (boxes, entry points) there is always room; a hex has room below three."""
        return place not in self.terrain or self.load.get(place, 0) < HEX_STACK

    def _push(self, st: FBState, start: str) -> bool:
        """Move one unit out of `start` in the witness, along a chain of moves that ends in a
        place with room (an augmenting path); False if there is none."""
        parent: dict[str, tuple[str, str] | None] = {start: None}
        queue = [start]
        for x in queue:
            for y in self.at.get(x, ()):
                for r in self.options(st, y):
                    if r in parent:
                        continue
                    parent[r] = (x, y)
                    if self.room(r):
                        self._shift(parent, r)
                        return True
                    queue.append(r)
        return False

    def _shift(self, parent: dict[str, tuple[str, str] | None], end: str) -> None:
        r = end
        step = parent[r]
        while step is not None:
            x, y = step
            self.at[x] = _without(self.at[x], y)
            self.load[x] -= 1
            self.at[r] = (*self.at.get(r, ()), y)
            if r in self.terrain:
                self.load[r] = self.load.get(r, 0) + 1
            self.assign[y] = r
            r = x
            step = parent[r]

    def _escapes(self, st: FBState) -> set[str]:
        """The full hexes from which a chain of moves ends in a place with room."""
        esc: set[str] = set()
        into: dict[str, list[str]] = {}  # full hex r -> full hexes with a unit that could go to r
        for x in self.full:
            found = False
            for y in self.at[x]:
                for r in self.options(st, y):
                    if r == x:
                        continue
                    if self.room(r):
                        found = True
                        break
                    into.setdefault(r, []).append(x)
                if found:
                    break
            if found:
                esc.add(x)
        queue = list(esc)
        for r in queue:
            for x in into.get(r, ()):
                if x not in esc:
                    esc.add(x)
                    queue.append(x)
        return esc

    def closure(self, st: FBState, start: str) -> set[str]:
        """The full hexes a chain of moves from `start` (full, without escape) can reach."""
        found = self._closure.get(start)
        if found is None:
            found = {start}
            queue = [start]
            for x in queue:
                for y in self.at.get(x, ()):
                    for r in self.options(st, y):
                        if r not in found and r in self.full:
                            found.add(r)
                            queue.append(r)
            self._closure[start] = found
        return found

    def step(self, unit: str, frm: str, to: str) -> None:
        """Follow a move between places with room, neither full before nor after: the full
        hexes and their escapes are unchanged (no unit in a full hex moved, no room was lost)."""
        if not self.kept:
            return
        self.assign[unit] = to
        self._opts.pop(unit, None)
        if frm in self.terrain:
            self.load[frm] -= 1
            self.at[frm] = _without(self.at[frm], unit)
        if to in self.terrain:
            self.load[to] = self.load.get(to, 0) + 1
            self.at[to] = (*self.at.get(to, ()), unit)

    # --- the question asked of each move ------------------------------------------------

    def allows(self, st: FBState, unit: str, to: str, cost: int) -> bool:
        """Whether, after `unit` moves to `to` for `cost` half-MF, the phase could still end within
        the stacking limit (FB 5.0)."""
        if not self.ok:
            return True  # a hand-made position past repair: stacking cannot be kept whatever moves
        if to not in self.full:
            return True
        a = self.assign[unit]  # where the witness has the unit now: that place gains room
        if to == a or to in self.esc or a in self.closure(st, to):
            return True
        return any(self._settles(st, unit, a, to, r) for r in self._onward(st, unit, to, st.mf[unit] - cost))

    def _settles(self, st: FBState, unit: str, a: str, to: str, r: str) -> bool:
        """Whether the unit, gone on from `to` to `r`, leaves every hex within the limit."""
        if r == to:
            return False
        return r == a or self.room(r) or r in self.esc or (r in self.full and a in self.closure(st, r))

    def _onward(self, st: FBState, unit: str, frm: str, left: int) -> list[str]:
        """Where `unit` could still go from `frm` with `left` half-MF: its neighbours first (the
        usual answer), then the full search."""
        from henderson.games.firstblood.rules import movement

        if left <= 0:
            return []
        g = st.data.ground[unit]
        key = ("onward", g.side, g.mf, frm, left)
        found = st.reach_cache.get(key)
        if found is None:
            found = [sorted(movement.reach(st, unit, frm, left))]
            st.reach_cache[key] = found
        return found[0]


def _without(units: tuple[str, ...], unit: str) -> tuple[str, ...]:
    """`units` less `unit` (each unit stands in one place once)."""
    return tuple(u for u in units if u != unit)


def overfull(st: FBState) -> list[str]:
    """Map hexes of the moving side holding more than three ground units (FB 5.0)."""
    terrain = st.board.terrain
    side = st.phasing
    ground = st.data.ground
    return sorted(
        p for p, units in st.occ.items() if len(units) > HEX_STACK and p in terrain and ground[units[0]].side == side
    )
