"""A text rendering of a DG position for the terminal: the status line, a window of the hex
map, the units on the map by hex, and what waits to arrive."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .rules.common import occupancy

if TYPE_CHECKING:
    from .state import DGState, UnitState


WINDOW = 26  # map columns shown at once: 78 characters, a terminal's width
TERRAIN_MARK = {"clear": ".", "jungle": '"', "sea": "~"}
MAP_KEY = (
    'key: . clear  " jungle  ~ sea  a digit: the level (DG 2.1)  Vi village  HF Henderson Field\n'
    "     U3/J2 a stack of 3 US / 2 Japanese counters  S1 stealth markers only (DG 7.8)"
)


def cell(state: DGState, hex_id: str, stacks: dict[str, list[UnitState]], hidden: set[str]) -> str:
    """Two characters for a hex: its stack as the viewer sees it, else its terrain."""
    units = stacks.get(hex_id, [])
    seen = [u for u in units if u.id not in hidden]
    if seen:
        return f"{'U' if seen[0].side == 'us' else 'J'}{min(len(units), 9)}"
    markers = [u for u in units if u.stealth]
    if markers:
        return f"S{min(len(markers), 9)}"
    h = state.data.map.hexes[hex_id]
    if hex_id == state.data.map.henderson_field:
        return "HF"
    if h.village:
        return "Vi"
    mark = TERRAIN_MARK.get(h.base, "?")
    return mark + (str(h.level) if h.level else mark)


def window(state: DGState, stacks: dict[str, list[UnitState]]) -> range:
    """The map columns to show: all those holding units when they fit in one window, else a
    window centred on Henderson Field, where the campaign turns."""
    layout = state.data.map.layout
    columns = [layout.to_offset(h)[1] for h in state.data.map.hexes]
    first, last = min(columns), max(columns)
    used = [layout.to_offset(h)[1] for h in stacks if h in state.data.map.hexes]
    if used and max(used) - min(used) < WINDOW:
        low = max(first, min(min(used) - 2, max(used) + 3 - WINDOW))
    else:
        low = layout.to_offset(state.data.map.henderson_field)[1] - WINDOW // 2
    low = max(first, min(low, last - WINDOW + 1))
    return range(low, min(last, low + WINDOW - 1) + 1)


def map_text(state: DGState, viewer: str | None = None) -> list[str]:
    """A window of the hex map, flat-topped columns with the even ones half a hex south (DG
    2.1): two text lines per row of hexes, each hex two characters wide."""
    layout = state.data.map.layout
    hidden = state.hidden_ids(viewer) if viewer is not None else set()
    stacks = occupancy(state)
    cols = window(state, stacks)
    rows = sorted({layout.to_offset(h)[0] for h in state.data.map.hexes})
    lines = [
        f"map columns {cols.start:02d}-{cols.stop - 1:02d} (hex numbers are column then row; north up; "
        "rows of open sea left out)",
        "     " + "".join(f"{c:02d} " if c % 2 else "   " for c in cols),
        "     " + "".join("   " if c % 2 else f"{c:02d} " for c in cols),
    ]
    m = state.data.map
    for r in rows:
        here = [layout.from_offset(r, c) for c in cols]
        if all(h not in m.hexes or (not m.hexes[h].land and h not in stacks) for h in here):
            continue  # open sea: nothing to show
        for even in (False, True):  # odd columns first, even columns half a hex lower
            cells = []
            for c in cols:
                hex_id = layout.from_offset(r, c)
                if (c % 2 == 0) == even and hex_id in state.data.map.hexes:
                    cells.append(cell(state, hex_id, stacks, hidden) + " ")
                else:
                    cells.append("   ")
            lines.append((f"{r:02d}   " if not even else "     ") + "".join(cells).rstrip())
    lines.append(MAP_KEY)
    return lines


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
    lines.extend(map_text(state, viewer))
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
