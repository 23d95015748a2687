"""The turn end (DG 4.0 step 20, DG 12.0): Henderson Field scores, the game may end (DG 9.4),
the Japanese earn Rabaul reinforcements for holding or taking the field (DG 10.2), suppressed
artillery recovers (DG 8.1.8) and the turn marker advances."""

from __future__ import annotations

from typing import TYPE_CHECKING

from henderson.core.events import Event

from ..state import Carried, ThisTurn
from .common import hf_operational
from .phase import DGPhase
from .rabaul import bonus_at_turn_end
from .victory import check_end, score_turn_end

if TYPE_CHECKING:
    from ..state import DGState


def begin_turn(state: DGState) -> None:
    """A turn's bookkeeping starts: what the last turn end carried into it, Henderson Field
    as the turn begins (DG 10.2.2, 10.2.3), and no unit has attacked or left stealth yet."""
    carried = state.next_turn
    state.this_turn = ThisTurn(
        air_bonus=carried.air_bonus,
        double_supply=carried.double_supply,
        rabaul_bonus=carried.rabaul_bonus,
        hf_jp_start=state.airfield.control == "jp",
        hf_op_start=hf_operational(state),
        hf_inop_start=not hf_operational(state),
    )
    state.next_turn = Carried()
    for u in list(state.units.values()):
        if u.attacked or u.self_exit or u.pool_start:
            state.update(u, attacked=False, self_exit=False, pool_start=0)


class TurnEnd(DGPhase):
    """Step 20: score the field and check for the end (DG 9.4) before anything else; then the
    Rabaul picks, if earned, are made (a decision), and the next turn begins."""

    kind = "turn_end"

    def enter(self, state: DGState, events: list[Event]) -> None:
        score_turn_end(state, events)
        check_end(state, events)  # DG 9.4 before anything else happens
        if not state.is_terminal():
            bonus_at_turn_end(state, events)

    def leave(self, state: DGState, events: list[Event]) -> None:
        for u in list(state.units.values()):
            if u.suppressed:
                state.update(u, suppressed=False)  # DG 12.0 suppressed artillery recovers
        begin_turn(state)


PHASE = TurnEnd()
