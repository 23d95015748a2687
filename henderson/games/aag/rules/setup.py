"""The set-up (AAG Game Setup): airfields, control markers, units and supply tokens as
`setup.toml` places them, the first-player marker, and with the Advantages option each
side's eight tokens (AAG Appendix 1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from henderson.core.events import Event
from henderson.games.aag.model import SIDES
from henderson.games.aag.rules.base import AagPhase
from henderson.games.aag.state import Airfield

if TYPE_CHECKING:
    from henderson.games.aag.state import AAGState


class Setup(AagPhase):
    """Nobody decides anything: the position is laid out as the game begins."""

    def enter(self, state: AAGState, events: list[Event]) -> None:
        data = state.data
        setup = data.setup
        state.first = data.rules.first_player
        state.tokens = {s: {} for s in SIDES}
        if state.options.get("advantages"):  # AAG Appendix 1: 8 tokens per player
            for token in data.advantages:
                state.tokens[token.side][token.id] = token.count
        state.control = dict(setup.control)
        state.airfields = [Airfield(island=a.island, side=a.side) for a in setup.airfields]
        state.pieces = {}
        state.index = None
        state.next_id = dict.fromkeys(SIDES, 1)
        # side by side in id order (each side's pieces in the order of setup.toml): every new
        # piece then comes last in id order, and none is put among the others
        for side in sorted(SIDES):
            for place in setup.places:
                for kind, count in place.units.items():
                    for _ in range(count if place.side == side else 0):
                        state.new_piece(place.side, kind, place.zone)
            for ship in setup.ships:
                if ship.side == side:
                    p = state.new_piece(ship.side, ship.type, ship.zone)
                    for kind, count in ship.cargo.items():
                        for _ in range(count):
                            state.new_piece(ship.side, kind, ship.zone, aboard=p.id)


PHASE = Setup()
