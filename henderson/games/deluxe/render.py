"""A text rendering of a DG position for the terminal: the status line, the units on the map
by hex, and what waits to arrive."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .rules.common import occupancy

if TYPE_CHECKING:
    from .state import DGState


def render(state: DGState) -> str:
    """Status line, units on the map by hex, and this turn's arrivals."""
    lines = [state.summary()]
    if state.result:
        lines.append(f"game over: {state.result[0] or 'draw'} ({state.result[1]})")
    else:
        lines.append(f"to decide: {state.current_player()}")
    villages = ", ".join(
        f"{state.data.map.villages[h]} {o}" for h, o in sorted(state.villages.items())
    )
    lines.append(f"villages: {villages}")
    for hid, units in sorted(occupancy(state).items()):
        h = state.data.map.hexes[hid]
        where = " ".join(sorted(h.types() - {"clear"})) or "clear"
        names = ", ".join(
            f"{u.id}({u.strength}{', S' + str(u.stealth) if u.stealth else ''})" for u in units
        )
        lines.append(f"  {hid} [{where}, level {h.level}] {units[0].side}: {names}")
    due = [
        u.id
        for u in state.units.values()
        if u.at == "turn" and state.data.units[u.id].arrival == state.turn
    ]
    if due:
        lines.append(f"arriving this turn: {', '.join(due)}")
    return "\n".join(lines)
