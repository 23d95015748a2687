"""The movement phase (DG 4.0 steps 7 and 16, DG 7.0): moves by land, in stacks and by sea
(movement.py), and the other things a unit may do in lieu of moving or as part of its move:
stealth and detection, withdrawal, consolidation, Henderson Field work (stealth.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from henderson.core.events import Event
from henderson.core.game import Action

from ..actions import DGAction
from . import movement, stealth
from .phase import DGPhase

if TYPE_CHECKING:
    from ..state import DGState


def _move(state: DGState, a: DGAction, events: list[Event]) -> None:
    movement.do_move(state, state.units[a.args[0]], a.args[1], events)


def _stack(state: DGState, a: DGAction, events: list[Event]) -> None:
    movement.do_stack(state, a.args[0].split("+"), a.args[1], events)


def _sea(state: DGState, a: DGAction, events: list[Event]) -> None:
    movement.do_sea(state, state.units[a.args[0]], a.args[1], events)


def _stealth(state: DGState, a: DGAction, events: list[Event]) -> None:
    stealth.enter(state, state.units[a.args[0]], events)


def _unstealth(state: DGState, a: DGAction, events: list[Event]) -> None:
    stealth.leave(state, state.units[a.args[0]], events, detected=False)


def _detect(state: DGState, a: DGAction, events: list[Event]) -> None:
    unit = state.units[a.args[0]]
    if len(a.args) == 3:  # DG 7.7.5 part-way through the move: a leg first
        movement.do_move(state, unit, a.args[2], events, finish=False)
    stealth.detect(state, state.units[unit.id], a.args[1], events)


def _withdraw(state: DGState, a: DGAction, events: list[Event]) -> None:
    stealth.withdraw(state, state.units[a.args[0]], events)


def _consolidate(state: DGState, a: DGAction, events: list[Event]) -> None:
    stealth.consolidate(state, state.units[a.args[0]], state.units[a.args[1]], events)


def _repair(state: DGState, a: DGAction, events: list[Event]) -> None:
    stealth.repair(state, state.units[a.args[0]], events)


def _wreck(state: DGState, a: DGAction, events: list[Event]) -> None:
    stealth.wreck(state, state.units[a.args[0]], events)


DOES: dict[str, Callable[[DGState, DGAction, list[Event]], None]] = {
    "move": _move,
    "stack": _stack,
    "sea": _sea,
    "stealth": _stealth,
    "unstealth": _unstealth,
    "detect": _detect,
    "withdraw": _withdraw,
    "consolidate": _consolidate,
    "repair": _repair,
    "wreck": _wreck,
}


class Movement(DGPhase):
    """A side's movement phase: movement allowances are fresh, units that must leave stealth
    leave it (DG 7.7.3); it ends with `end`, and a unit that stayed under stealth all phase
    raises its marker (DG 7.7.2)."""

    kind = "move"
    lists_afresh = True  # `actions` builds a new list (`movement.legal`'s, joined by the others)

    def enter(self, state: DGState, events: list[Event]) -> None:
        for u in list(state.units.values()):
            if u.spent or u.moved or u.leg:
                state.update(u, spent=0, moved=False, leg="")
        state.this_turn.crossings = {}
        state.this_turn.hf_work = []
        stealth.start_phase(state, state.side_of(state.current_step), events)

    def has_choice(self, state: DGState) -> bool:
        return True  # ending the phase is a choice: units may move, or not

    def actions(self, state: DGState) -> list[Action]:
        side = state.side_of(state.current_step)
        ctx = movement.Context.of(state, side)  # read by both, changed by neither
        listed = cast(list[Action], movement.legal(state, side, ctx))  # a new list: the others join it
        listed.extend(stealth.legal(state, side, ctx))
        return listed

    def is_legal(self, state: DGState, action: Action) -> bool:
        """A land or sea move is checked for its unit alone (`movement.move_listed`,
        `movement.sea_listed`), the most played actions of the game; any other against the
        list."""
        if isinstance(action, DGAction) and action.verb == "move":
            return movement.move_listed(state, state.side_of(state.current_step), action)
        if isinstance(action, DGAction) and action.verb == "sea":
            return movement.sea_listed(state, state.side_of(state.current_step), action)
        return state.is_listed(action)

    def do(self, state: DGState, action: Action, events: list[Event]) -> None:
        assert isinstance(action, DGAction)
        DOES[action.verb](state, action, events)

    def leave(self, state: DGState, events: list[Event]) -> None:
        stealth.end_phase(state, state.side_of(state.current_step), events)


PHASE = Movement()
