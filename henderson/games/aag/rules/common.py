"""Helpers shared by the rules modules: unit signatures (to offer one action per group of
interchangeable units) and casualty removal (AAG Damaging and Destroying Units, Loss of Cargo)."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import TYPE_CHECKING

from henderson.core.events import Event
from henderson.games.aag.model import other
from henderson.games.aag.pieces import Piece

if TYPE_CHECKING:
    from henderson.games.aag.state import AAGState


def signature(state: AAGState, p: Piece) -> tuple[object, ...]:
    """What tells units apart for the rules: two units with one signature are interchangeable.

    Every flag a rule reads is in it (`Piece.traits`), and the types of the cargo aboard:
    above all `damaged`, since a damaged ship waits in its base's damaged area until
    repaired (AAG Damaging and Destroying Units) and must never stand in for a sound one of
    its type, nor a sound one for it."""
    if state.has_cargo(p):
        return (p.traits, tuple(sorted(c.type for c in state.cargo(p))))
    return p.traits


def casualty_signature(state: AAGState, p: Piece) -> tuple[object, ...]:
    """What tells units apart when one of them takes a hit (AAG Loss of Cargo): the cargo
    lost with it, its heavy armour, and whether it is already marked damaged. How it
    moved, fired or flew this turn no longer matters."""
    cargo = tuple(sorted(c.type for c in state.cargo(p) if c.type != "fighter"))
    return (p.side, p.type, p.zone, p.armor_used, p.hit, cargo)


def representatives(
    state: AAGState, pieces: list[Piece], key: Callable[..., tuple[object, ...]] | None = None
) -> list[Piece]:
    """One piece (the lowest id) per signature (or per `key`), in id order."""
    if key is None and state.index is not None:
        return _representatives(state.index.by_ship, pieces)
    seen: set[tuple[object, ...]] = set()
    out = []
    for p in pieces:
        sig = (key or signature)(state, p)
        if sig not in seen:
            seen.add(sig)
            out.append(p)
    return out


def _representatives(by_ship: dict[str, list[Piece]], pieces: list[Piece]) -> list[Piece]:
    """`representatives` by `signature`, the cargo read from the pieces indexed by ship and
    the traits compared by their mark (`Piece.mark`, one number for equal traits): a fast
    path, since it runs at nearly every listing of the legal actions."""
    if len(pieces) < 2:
        return list(pieces)
    first: dict[object, Piece] = {}  # by signature, its first piece
    aboard = by_ship.get
    for p in pieces:
        cargo = aboard(p.id)
        first.setdefault((p.mark, tuple(sorted(map(PIECE_TYPE, cargo)))) if cargo else p.mark, p)
    return list(first.values())


PIECE_TYPE = operator.attrgetter("type")


def is_cargo(p: Piece) -> bool:
    """A land unit or supply aboard a ship (fighters aboard carriers are air units in the zone)."""
    return p.aboard is not None and p.type != "fighter"


def land_piece(state: AAGState, p: Piece) -> bool:
    """A land unit or a supply token."""
    return p.type in state.data.land_pieces


def note(events: list[Event], kind: str, text: str, **data: object) -> None:
    """Record what happened among the events of the action being played."""
    events.append(Event(kind, text, data))


def lose_cargo(state: AAGState, p: Piece, events: list[Event]) -> None:
    """AAG Loss of Cargo: a ship hit loses its land units and supplies; its fighters stay
    in that sea zone."""
    for c in state.cargo(p):
        if c.type == "fighter":
            state.update(c, aboard=None)
        else:
            state.remove(c)
            note(events, "destroyed", f"{c.id} ({c.type}) is lost with {p.id}", unit=c.id)


def destroy(state: AAGState, p: Piece, why: str, events: list[Event]) -> None:
    """Remove a unit: its cargo is lost, its fighters stay in the zone, capital ships score."""
    ut = state.data.units.get(p.type)
    lose_cargo(state, p, events)
    state.remove(p)
    note(events, "destroyed", f"{p.id} ({p.type}) destroyed ({why})", unit=p.id)
    if ut is not None and ut.capital:  # AAG Capital Ship: the opponent earns 1 victory point
        winner = other(p.side)
        state.vp[winner] += 1
        state.vp_ships[winner] += 1
        note(events, "vp", f"{winner} scores 1 victory point for sinking a {p.type}", side=winner, ship=p.type)


def damage(state: AAGState, p: Piece, why: str, events: list[Event]) -> None:
    """A damaged ship goes to its base's damaged area; cargo is lost (AAG Loss of Cargo)."""
    lose_cargo(state, p, events)
    state.update(p, damaged=True, zone=state.base_sea(p.side), hit=None)
    note(events, "damaged", f"{p.id} ({p.type}) damaged and sent home for repair ({why})", unit=p.id)


def remove_casualties(state: AAGState, pieces: list[Piece], why: str, events: list[Event]) -> None:
    """Take off every marked casualty among `pieces` (AAG Combat: after both sides attack)."""
    for p in sorted(pieces, key=lambda q: (q.hit != "destroyed", q.id)):
        if p.id not in state.pieces:
            continue
        if p.hit == "destroyed":
            destroy(state, p, why, events)
        elif p.hit == "damaged":
            damage(state, p, why, events)
