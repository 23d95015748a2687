"""The sequence of play (DG 4.0) driven by `sequence.toml`: automatic steps run at once,
decision steps wait for the side named in the step, and the turn end (DG 12.0) advances the
turn marker."""

from __future__ import annotations

from typing import TYPE_CHECKING

from henderson.core.events import Event

from . import (
    artillery,
    guerrilla,
    rabaul,
    reinforcements,
    stealth,
    supply,
    victory,
)
from . import (
    events as random_events,
)
from .assault import legal as assault_legal
from .common import hf_operational

if TYPE_CHECKING:
    from ..state import DGState


def begin_turn(state: DGState) -> None:
    """Per-turn bookkeeping: flags carried from the last turn, Henderson Field at the start."""
    state.flags = dict(state.next_flags)
    state.next_flags = {}
    state.flags["hf_jp_start"] = state.hf_control == "jp"
    state.flags["hf_op_start"] = hf_operational(state)
    state.flags["hf_inop_start"] = not hf_operational(state)
    for u in state.units.values():
        u.attacked = False
        u.self_exit = False
        u.pool_start = 0


def begin_side(state: DGState, side: str) -> None:
    """DG 7.9 / 7.10: remember where each unit of `side` begins its turn."""
    for u in state.units.values():
        if u.side == side:
            u.start = u.at if u.on_map else ""


def begin_phase(state: DGState) -> None:
    """Movement allowances reset at the start of each movement phase."""
    for u in state.units.values():
        u.spent = 0
        u.moved = False
        u.leg = ""
    state.flags["crossings"] = {}
    state.flags["hf_work"] = []


def begin_player_turn(state: DGState) -> None:
    """DG 8.1: each artillery unit fires once in a player's turn: in its side's artillery
    phase, or as part of that turn's assaults (docs/rulings/deluxe.md, ruling 24a)."""
    for u in state.units.values():
        u.fired = False


def run(state: DGState, events: list[Event]) -> None:
    """Play automatic steps until a side must decide or the game ends."""
    while state.result is None and not state.pending and not state.open:
        step = state.data.sequence[state.step_index]
        if start_step(state, step.kind, step.side, events):
            state.open = True
            return
        next_step(state, events)


def start_step(state: DGState, kind: str, side: str, events: list[Event]) -> bool:
    """Begin a step; True when the step waits for decisions."""
    step = state.data.sequence[state.step_index]
    if step.number in (1, 11):
        begin_side(state, side)
        begin_player_turn(state)
    if kind == "event":
        random_events.draw(state, side, events)
        return False
    if kind == "vp":
        victory.score_phase(state, side, events)
        return False
    if kind == "naval":
        return artillery.can_bombard(state, side)
    if kind == "reinforce":
        return bool(reinforcements.legal(state, side))
    if kind == "supply":
        victory.score_villages(state, side, events)  # DG 9.1: after the reinforcements
        supply.receive(state, side, events)
        return False
    if kind == "guerrilla":
        return len(guerrilla.legal(state)) > 1
    if kind == "move":
        begin_phase(state)
        stealth.start_phase(state, side, events)
        return True
    if kind == "fire":
        return bool(artillery.legal(state, side))
    if kind == "combat":
        # DG 8.2 "each defending hex may only be attacked once": once in each combat phase,
        # so a hex the US attacked in step 10 may be attacked by Japan in step 19
        state.flags["attacked_hexes"] = []
        state.flags["advanced"] = []
        return any(a.verb == "attack" for a in assault_legal(state, side))
    if kind == "turn_end":
        victory.score_turn_end(state, events)
        victory.check_end(state, events)  # DG 9.4 before anything else happens
        if state.result is None:
            rabaul.bonus_at_turn_end(state, events)
        return False
    raise AssertionError(f"unknown step kind {kind}")


def finish_step(state: DGState, events: list[Event]) -> None:
    """The deciding side ended an open step."""
    step = state.data.sequence[state.step_index]
    if step.kind == "move":
        stealth.end_phase(state, step.side, events)
    state.open = False
    next_step(state, events)
    run(state, events)


def next_step(state: DGState, events: list[Event]) -> None:
    """Go to the next step (at the turn end, once any Rabaul picks are made)."""
    step = state.data.sequence[state.step_index]
    if step.kind == "turn_end":
        if state.pending:
            return  # Rabaul picks first; `after_pending` comes back here
        end_turn(state, events)
        return
    state.step_index += 1


def end_turn(state: DGState, events: list[Event]) -> None:
    """DG 12.0: suppressed artillery recovers, victory is checked, the turn marker advances."""
    for u in state.units.values():
        u.suppressed = False
    if state.result is not None:
        return
    state.turn += 1
    state.step_index = 0
    begin_turn(state)
    events.append(
        Event(
            "turn",
            f"turn {state.turn} begins ({state.data.turn(state.turn).date})",
            {"turn": state.turn},
        )
    )


def after_pending(state: DGState, events: list[Event]) -> None:
    """When the last pending decision is settled, continue the sequence."""
    if state.pending or state.result is not None:
        return
    step = state.data.sequence[state.step_index]
    if step.kind == "turn_end":
        end_turn(state, events)
        run(state, events)
    elif step.kind == "reinforce" and state.open and not reinforcements.legal(state, step.side):
        finish_step(state, events)
    run(state, events)
