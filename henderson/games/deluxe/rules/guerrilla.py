"""Guerrilla activities (DG 11.0, step 6): the US spends a supply point per roll (none when
supply is unlimited) to flip a Japanese-controlled village on a 5 or 6; each village once a
turn, only when free of Japanese units and outside their zones of control."""

from __future__ import annotations

from typing import TYPE_CHECKING

from henderson.core.errors import IllegalAction
from henderson.core.events import Event

from ..actions import DGAction, act
from .artillery import unlimited
from .common import in_enemy_zoc, occupancy, roll

if TYPE_CHECKING:
    from ..state import DGState


def villages(state: DGState) -> list[str]:
    """Villages the US may roll for now (DG 11.0)."""
    occ = occupancy(state)
    if not unlimited(state, "us") and state.supply["us"] < 1:
        return []
    out = []
    for hid in sorted(state.data.map.villages):
        if state.villages.get(hid) != "jp" or hid in state.flags.get("guerrilla", []):
            continue
        if any(u.side == "jp" for u in occ.get(hid, [])):
            continue
        if in_enemy_zoc(state, occ, hid, "us"):
            continue
        out.append(hid)
    return out


def legal(state: DGState) -> list[DGAction]:
    """Guerrilla rolls open to the US, and `pass`."""
    return [*(act("guerrilla", h) for h in villages(state)), act("pass")]


def attempt(state: DGState, hex_id: str, events: list[Event]) -> None:
    """Spend a supply point (unless unlimited) and roll: 5-6 flips the village."""
    if hex_id not in villages(state):
        raise IllegalAction(
            "DG 11.0",
            f"{hex_id} is not a Japanese-controlled village free of Japanese "
            "units and zones of control, not yet tried this turn (and supply is needed)",
        )
    state.flags.setdefault("guerrilla", []).append(hex_id)
    if not unlimited(state, "us"):
        state.supply["us"] -= 1
    die = roll(state, "DG 11.0 guerrilla activity", events)
    name = state.data.map.villages[hex_id]
    if die >= 5:
        state.villages[hex_id] = "us"
        events.append(
            Event("control", f"guerrillas flip {name} to US control", {"hex": hex_id, "side": "us"})
        )
    else:
        events.append(Event("guerrilla", f"guerrillas fail at {name}", {"hex": hex_id}))
