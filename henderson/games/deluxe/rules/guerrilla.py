"""Guerrilla activities (DG 11.0, step 6): the US spends a supply point per roll (none when
supply is unlimited) to flip a Japanese-controlled village on a 5 or 6; each village once a
turn, only when free of Japanese units and outside their zones of control."""

from __future__ import annotations

from typing import TYPE_CHECKING

from henderson.core.events import Event, roll
from henderson.core.game import Action

from ..actions import DGAction, act
from .artillery import unlimited
from .common import in_enemy_zoc, occupancy
from .phase import DGPhase

if TYPE_CHECKING:
    from ..state import DGState

PASS = act("pass")


def villages(state: DGState) -> list[str]:
    """Villages the US may roll for now (DG 11.0)."""
    occ = occupancy(state)
    if not unlimited(state, "us") and state.supply["us"] < 1:
        return []
    out = []
    for hid in sorted(state.data.map.villages):
        if state.villages.get(hid) != "jp" or hid in state.this_turn.guerrilla:
            continue
        if any(u.side == "jp" for u in occ.get(hid, [])):
            continue
        if in_enemy_zoc(state, occ, hid, "us"):
            continue
        out.append(hid)
    return out


def attempt(state: DGState, hex_id: str, events: list[Event]) -> None:
    """Spend a supply point (unless unlimited) and roll: 5-6 flips the village."""
    state.this_turn.guerrilla.append(hex_id)
    if not unlimited(state, "us"):
        state.supply["us"] -= 1
    die = roll(state.dice, "DG 11.0 guerrilla activity", events)
    name = state.data.map.villages[hex_id]
    if die >= 5:
        state.villages[hex_id] = "us"
        events.append(Event("control", f"guerrillas flip {name} to US control", {"hex": hex_id, "side": "us"}))
    else:
        events.append(Event("guerrilla", f"guerrillas fail at {name}", {"hex": hex_id}))


class Guerrillas(DGPhase):
    """Step 6: a roll for each village the US chooses, then `pass` (DG 11.0)."""

    kind = "guerrilla"
    offers_end = False  # declined with `pass`

    def has_choice(self, state: DGState) -> bool:
        return bool(villages(state))

    def actions(self, state: DGState) -> list[Action]:
        return [*(act("guerrilla", h) for h in villages(state)), PASS]

    def do(self, state: DGState, action: Action, events: list[Event]) -> None:
        assert isinstance(action, DGAction)
        if action == PASS:
            state.finish_step(events)
        else:
            attempt(state, action.args[0], events)


PHASE = Guerrillas()
