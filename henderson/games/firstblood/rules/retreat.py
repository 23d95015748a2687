"""Retreats (FB 8.10–8.12, 8.2.2, 8.2.3, 4.4): where a unit may retreat to, if anywhere."""

from __future__ import annotations

from collections.abc import Iterator

from henderson.core.paths import Step, cheapest
from henderson.games.firstblood.rules.placement import HEX_STACK
from henderson.games.firstblood.state import FBState, enemy_of


def options(st: FBState, unit: str) -> list[str]:
    """Hexes `unit` may retreat to: one hex away, or further past full hexes (FB 8.2.3), never
    into or through enemy units or their zones of control (FB 8.11, 8.2.2), never across a
    river (FB 8.12; the ford excepted, FB 4.4) or off the map."""
    here = st.ground.get(unit)
    board = st.board
    if here is None or not board.on_map(here):
        return []  # FB 8.12: re-entering boxes or entry points is not allowed
    enemy = st.hexes_of(enemy_of(st.data.ground[unit].side))
    zoc = board.zoc(enemy)

    def onward(h: str, _hexes: int) -> Iterator[Step[str]]:
        for n in board.adj[h]:
            if n != here and n not in enemy and n not in zoc and board.side[(h, n)] != "river":
                # a hex with room ends the retreat; a full one is passed (FB 8.2.3)
                yield (n, 1, len(st.at(n)) < HEX_STACK, None)

    return sorted(cheapest({here: 0}, onward).stops)


def refusal(st: FBState, unit: str, to: str) -> tuple[str, str]:
    """Why `unit` may not retreat to `to` (which is not among its options): the rule and the reason."""
    here = st.ground.get(unit)
    board = st.board
    if here is None or not board.on_map(here) or to not in board.terrain:
        return "FB 8.12", f"{to} is not a hex of the map: no retreat off it"
    enemy = st.hexes_of(enemy_of(st.data.ground[unit].side))
    if to in enemy:
        return "FB 8.11", f"{to} holds enemy units"
    if to in board.zoc(enemy):
        return "FB 8.2.2", f"{to} is in an enemy zone of control"
    if to in board.adj[here] and board.side[(here, to)] == "river":
        return "FB 8.12", f"{to} is across a river from {here} (only the ford may be crossed, FB 4.4)"
    if to in board.adj[here] and len(st.at(to)) >= HEX_STACK:
        return "FB 8.2.3", f"{to} is full: the retreat goes on past it to a hex with room"
    return "FB 8.10", f"{to} is not one hex from {here} (a retreat goes further only past full hexes, FB 8.2.3)"
