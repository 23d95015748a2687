"""Rabaul reinforcements (DG 10.0-10.2): available units by period, and the bonus picks the
Japanese earn by capturing, disabling or holding Henderson Field (decided at turn end)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from henderson.core.events import Event, roll
from henderson.core.game import Action

from ..actions import DGAction, act
from ..decisions import RabaulPicks
from ..state import RabaulTerms
from .common import hf_operational
from .phase import DGPhase

if TYPE_CHECKING:
    from ..state import DGState
    from ..units import UnitState


def landing_turn(state: DGState) -> int:
    """The turn the Rabaul picks land in: they are made at the turn end (DG 4.0 step 20,
    DG 12.0) for "the next turn's reinforcements" (DG 10.2.1-2), and wait at sea until the
    Japanese reinforcement step of that turn."""
    return state.turn + 1 if state.kind_of(state.current_step) == "turn_end" else state.turn


def in_period(state: DGState, uid: str, period: int) -> bool:
    """DG 10.1, 2.2.1.11: a Rabaul unit is available from its colour's period for as many
    periods as its number."""
    t = state.data.units[uid]
    return bool(t.rabaul_period) and t.rabaul_period <= period < t.rabaul_period + t.rabaul_periods


def available(state: DGState) -> list[UnitState]:
    """DG 10.1: the units still at Rabaul (or on the turn track, which may come early, DG 3.0
    note) that are available in the period of the turn the picks arrive, not the turn they are
    picked in: picks made at the end of turn 4 land in turn 5, the first period."""
    period = state.data.period_of(landing_turn(state))
    return [
        state.units[uid]
        for uid in state.data.units
        if state.units[uid].at in ("rabaul", "turn") and in_period(state, uid, period)
    ]


def bonus_at_turn_end(state: DGState, events: list[Event]) -> None:
    """DG 10.2.1 capture/disable: pick two units. DG 10.2.2 holding: roll two dice and pick
    units up to that much strength, and roll twice for supply next turn. DG 10.2.3: holding an
    operational field gives next turn's air bonus."""
    f = state.this_turn
    kept = f.hf_jp_start and not f.hf_us_touched and state.airfield.control == "jp"
    inop_kept = f.hf_inop_start and not hf_operational(state)
    state.next_turn.air_bonus = bool(kept and f.hf_op_start and hf_operational(state))
    if f.jp_captured or f.jp_reduced:
        if available(state):
            state.pending.append(RabaulPicks("jp", count=2, strength=99, picked=[]))
            note_bonus(state, 2, 99)
            events.append(Event("rabaul", "DG 10.2.1 Japan may pick two Rabaul units", {}))
    elif kept or inop_kept:
        total = roll(state.dice, "DG 10.2.2 Rabaul reinforcements", events)
        total += roll(state.dice, "DG 10.2.2 Rabaul reinforcements", events)
        state.next_turn.double_supply = True
        if available(state):
            state.pending.append(RabaulPicks("jp", count=99, strength=total, picked=[]))
            note_bonus(state, 99, total)
            events.append(
                Event("rabaul", f"DG 10.2.2 Japan may pick Rabaul units up to {total} strength", {})
            )


def note_bonus(state: DGState, count: int, strength: int) -> None:
    """Remember the public terms of this turn's picks (the period they land in, how many
    units, how much strength) until the picks land: all the enemy may know of them (DG 10.2,
    ruling 14a)."""
    period = state.data.period_of(landing_turn(state))
    state.next_turn.rabaul_bonus = RabaulTerms(period, count, strength)


def legal(state: DGState, p: RabaulPicks) -> list[DGAction]:
    """Rabaul picks within the limit of this bonus, and `pass`."""
    used = sum(state.data.units[i].strength for i in p.picked)
    out = []
    if len(p.picked) < p.count:
        for u in available(state):
            if used + state.data.units[u.id].strength <= p.strength:
                out.append(act("rabaul", u.id))
    out.append(act("pass"))
    return out


class Picks(DGPhase):
    """The Japanese pick Rabaul units for next turn's reinforcements, one at a time, until they
    `pass` or the bonus is used up (DG 10.2.1, 10.2.2)."""

    kind = "rabaul"

    def actions(self, state: DGState) -> list[Action]:
        return list(legal(state, state.decision(RabaulPicks)))

    def do(self, state: DGState, action: Action, events: list[Event]) -> None:
        assert isinstance(action, DGAction)
        p = state.decision(RabaulPicks)
        if action.verb == "pass":
            state.pending.remove(p)
            return
        u = state.update(state.units[action.args[0]], at="next")
        p.picked.append(u.id)
        events.append(Event("rabaul", f"{u.id} will sail from Rabaul next turn", {"unit": u.id}))
        if len(legal(state, p)) == 1:
            state.pending.remove(p)


PICKS = Picks()
