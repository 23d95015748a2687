"""Artillery (FB 9.0–9.7): who may bombard what, and the Japanese fire on the airfields."""

from __future__ import annotations

from henderson.games.firstblood.state import FBState, enemy_of


def adjacent_to_enemy(st: FBState, unit: str) -> bool:
    """FB 9.4: an artillery unit next to enemy ground units attacks them, it cannot bombard elsewhere."""
    here = st.ground.get(unit)
    if here is None or not st.board.on_map(here):
        return False
    enemy = enemy_of(st.data.ground[unit].side)
    return any(st.owner_of_hex(n) == enemy for n in st.board.adj[here])


def guns(st: FBState) -> frozenset[str]:
    """Every artillery unit of the game (a range, FB 9.1), found once from the data."""
    key = ("artillery",)
    found: frozenset[str] | None = st.board.memo.get(key)
    if found is None:
        found = st.board.memo[key] = frozenset(u for u, g in st.data.ground.items() if g.range is not None)
    return found


def can_bombard(st: FBState, unit: str, targets: tuple[str, ...] | list[str]) -> bool:
    """An artillery unit of the phasing side that may add its factors to an attack on
    `targets` without being adjacent: on the map (FB 9.4.2), not yet used (FB 9.4), not
    next to the enemy (FB 9.4), every target hex in range (FB 9.2, 9.3)."""
    reach = fire_range(st, unit)
    if reach is None:
        return False
    here = st.ground[unit]
    return all(st.board.in_range(here, t, reach) for t in targets)


def fire_range(st: FBState, unit: str) -> int | None:
    """The range of an artillery unit of the phasing side that may bombard now, wherever its
    targets are: on the map (FB 9.4.2), not yet used, not next to the enemy (FB 9.4); None
    for any other unit."""
    g = st.data.ground.get(unit)
    if g is None or g.range is None or g.side != st.phasing:
        return None
    here = st.ground.get(unit)
    if here is None or not st.board.on_map(here) or unit in st.combat.attacked:
        return None
    if adjacent_to_enemy(st, unit):
        return None
    return g.range


def bombardable_artillery(st: FBState, targets: tuple[str, ...] | list[str]) -> list[str]:
    side = st.phasing
    return sorted(
        u
        for u, where in st.ground.items()
        if st.data.ground[u].side == side and st.data.ground[u].range is not None and can_bombard(st, u, targets)
    )
