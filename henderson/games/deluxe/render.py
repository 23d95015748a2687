"""A text rendering of a DG position for the terminal: the status line, the units on the map
by hex, and what waits to arrive."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .rules.common import occupancy

if TYPE_CHECKING:
    from .state import DGState


def render(state: DGState, viewer: str | None = None) -> str:
    """Status line, units on the map by hex, and this turn's arrivals; with `viewer`, as that
    side may see it (DG 7.8: of an enemy stack the top counter and how many are hidden,
    stealth markers without their units)."""
    hidden = state.hidden_ids(viewer) if viewer is not None else set()
    lines = [state.summary()]
    if state.is_terminal():
        lines.append(f"game over: {state.winner() or 'draw'} ({state.end_cause})")
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
            f"{u.id}({u.strength}{', S' + str(u.stealth) if u.stealth else ''})"
            for u in units
            if u.id not in hidden
        )
        unseen = [u for u in units if u.id in hidden]
        if unseen:
            marks = [f"S{u.stealth}" for u in unseen if u.stealth]
            below = len(unseen) - len(marks)
            extra = [f"{below} counter(s) below" if below else "", *(f"stealth marker {m}" for m in marks)]
            names = ", ".join(x for x in (names, *extra) if x)
        lines.append(f"  {hid} [{where}, level {h.level}] {units[0].side}: {names}")
    due = [
        u.id
        for u in state.units.values()
        if u.at == "turn" and state.data.units[u.id].arrival == state.turn
    ]
    if due:
        lines.append(f"arriving this turn: {', '.join(due)}")
    return "\n".join(lines)
