"""Prepare for play (DG 3.0): every counter waits on the turn track for its arrival turn or in
its box at Rabaul; the Japanese control every village and Henderson Field (DG 9.3), whose
marker starts at twenty (DG 7.11). Then the first turn's bookkeeping starts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from henderson.core.events import Event

from ..state import Airfield
from ..units import UnitState
from .phase import DGPhase
from .turn_end import begin_turn

if TYPE_CHECKING:
    from ..state import DGState


class Setup(DGPhase):
    """The preparation: nothing to decide (DG 3.0)."""

    kind = "setup"

    def enter(self, state: DGState, events: list[Event]) -> None:
        d = state.data
        state.units = {
            uid: UnitState(uid, t.side, "turn" if t.arrival else "rabaul", t.strength) for uid, t in d.units.items()
        }
        state.villages = dict.fromkeys(d.map.villages, "jp")
        state.airfield = Airfield(d.constants.hf_start, "jp")
        begin_turn(state)


PHASE = Setup()
