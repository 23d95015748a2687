"""Random events (DG 5.0, steps 1 and 11): from turn 9 the side whose colour outlines the turn
box draws a card and applies its own half at once; it lasts for this turn. The step also
begins its side's player turn (`params.player_turn` in sequence.toml)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from henderson.core.events import Event, roll

from ..model import other
from ..state import DrawnEvent
from .common import add_supply, award_vp, begin_player_turn, change_hf
from .phase import DGPhase

if TYPE_CHECKING:
    from ..state import DGState


def draw(state: DGState, side: str, events: list[Event]) -> None:
    """Draw from the cards not yet drawn (the deck is reshuffled when it runs out)."""
    if state.data.turn(state.turn).event != side:
        return
    deck = [c.number for c in state.data.cards if c.number not in state.drawn]
    if not deck:
        state.drawn.clear()
        deck = [c.number for c in state.data.cards]
    pick = deck[roll(state.dice, "DG 5.0 random event card", events, sides=len(deck)) - 1]
    state.drawn.append(pick)
    card = next(c for c in state.data.cards if c.number == pick)
    eff = card.effect(side)
    events.append(
        Event(
            "event",
            f"{side} draws card {pick}: {eff.title}",
            {"side": side, "card": pick, "kind": eff.kind},
        )
    )
    state.this_turn.event = DrawnEvent(side, pick, eff.kind, eff.target, eff.amount)
    targets = {"self": [side], "enemy": [other(side)], "both": [side, other(side)]}[eff.target]
    if eff.kind == "supply":
        for t in targets:
            add_supply(state, t, eff.amount, events, eff.title)
    elif eff.kind == "hf":
        # a positive amount repairs the field of the drawing side only; a negative one damages
        # the field held by the targeted side only (docs/rulings/deluxe.md)
        if state.airfield.control in targets:
            change_hf(state, eff.amount, side, events, eff.title)
    elif eff.kind == "vp":
        award_vp(state, side, eff.amount, events, eff.title)


class RandomEvent(DGPhase):
    """Steps 1 and 11: the player turn begins, and the random event is drawn (DG 5.0)."""

    kind = "event"

    def enter(self, state: DGState, events: list[Event]) -> None:
        step = state.current_step
        side = state.side_of(step)
        if step.params.get("player_turn"):
            begin_player_turn(state, side)
        draw(state, side, events)


PHASE = RandomEvent()
