"""The FIRST BLOOD position as text for a terminal: a hex map with stacks, then the boxes."""

from __future__ import annotations

from henderson.games.firstblood.state import FBState

TERRAIN_MARK = {"clear": ".", "jungle": '"', "ridge": "^"}
SIDE_MARK = {"river": "~", "ford": "="}  # hexsides drawn between the cells (FB 4.2, 4.4)


def cell(st: FBState, hex_id: str) -> str:
    units = st.at(hex_id)
    if units:
        side = st.data.ground[units[0]].side
        return f"{'U' if side == 'us' else 'J'}{len(units)}"
    if hex_id in st.airfield:
        return {"operational": "HF", "damaged": "Hd", "destroyed": "Hx", "unbuilt": "fs"}[st.airfield[hex_id]]
    return TERRAIN_MARK[st.board.terrain[hex_id]] * 2


def hex_rows(st: FBState, rows: dict[int, dict[int, str]], max_col: int) -> list[str]:
    """The hex rows, north first, each hex two characters wide; river and ford hexsides are
    marked on the character between two hexes: in the gap beside a hex for its east and west
    sides, and on a line between two rows for the sides it shares with the row below."""
    where: dict[str, tuple[int, int]] = {}  # hex -> (text line, first character)
    lines: list[list[str]] = []
    order = sorted(rows, reverse=True)
    for n, r in enumerate(order):
        pad = 1 if r % 2 else 0  # odd rows sit half a hex toward the lower (eastern) columns
        text = list(f"{r:02d}  " + " " * pad)
        for c in range(max_col, 0, -1):
            here = rows[r].get(c)
            if here:
                where[here] = (2 * n, len(text))
            text.extend(cell(st, here) if here else "  ")
            text.append(" ")
        lines.append(text)
        if n < len(order) - 1:
            lines.append([])
    board = st.board
    for (a, b), kind in board.side.items():
        mark = SIDE_MARK.get(kind)
        if mark is None or a > b or a not in where or b not in where:
            continue
        (la, xa), (lb, xb) = where[a], where[b]
        line = (la + lb) // 2
        x = min(xa, xb) + 2 if la == lb else (xa + xb + 1) // 2  # the gap, or under the shared side
        row = lines[line]
        row.extend(" " * (x + 1 - len(row)))
        if row[x] == " " or mark == "=":
            row[x] = mark
    return ["".join(t).rstrip() for t in lines]


def render(st: FBState) -> str:
    board = st.board
    rows: dict[int, dict[int, str]] = {}
    for h in board.terrain:
        r, c = board.layout.to_offset(h)
        rows.setdefault(r, {})[c] = h
    max_col = max(c for cols in rows.values() for c in cols)
    lines = [f"{st.turn_label} — {st.current_step.name} — to act: {(st.current_player() or 'nobody').upper()}"]
    if st.result is not None:
        lines.append(f"GAME OVER: {(st.result.winner or 'nobody').upper()} wins ({st.result.cause})")
    header = "     " + "".join(f"{c:02d} " for c in range(max_col, 0, -1))
    lines.append(header + "  (columns: west ← → east)")
    lines.extend(hex_rows(st, rows, max_col))
    lines.append(
        'key: . clear  " jungle  ^ ridge  HF airfield (Hd damaged, Hx destroyed, fs Fighter Strip unbuilt)  '
        "U2/J1 stacks\n     between the hexes: ~ a river hexside, = the ford (FB 4.2, 4.4)"
    )
    stacks = []
    for place in sorted(st.occ):
        units = st.at(place)
        desc = ", ".join(f"{u}({st.data.ground[u].cf}-{st.data.ground[u].mf})" for u in units)
        stacks.append(f"  {place}: {desc}")
    lines.append("ground units:")
    lines.extend(stacks or ["  none"])
    boxes: dict[str, list[str]] = {}
    for a, where in st.air.items():
        boxes.setdefault(where, []).append(a + ("*" if a in st.inverted else ""))
    for s, where in st.ships.items():
        boxes.setdefault(where, []).append(s)
    if boxes:
        lines.append("air and naval (* inverted):")
        for where in sorted(boxes):
            lines.append(f"  {where}: {', '.join(sorted(boxes[where]))}")
    if st.bombing:
        lines.append("bombers over targets: " + ", ".join(f"{b}→{h}" for b, h in sorted(st.bombing.items())))
    damaged = {h: s for h, s in st.airfield.items() if s != "operational"}
    if damaged:
        lines.append("airfields: " + ", ".join(f"{h} {s}" for h, s in sorted(damaged.items())))
    if st.pending:
        d = st.pending[-1]
        lines.append(f"decision for {d.side.upper()}: {d.kind} ({d.rule}) {', '.join(d.units)}")
    if st.combat.building:
        b = st.combat.building
        parts = ", ".join(b.attackers + b.artillery + b.ships + b.air) or "nobody yet"
        lines.append(f"attack being built on {'+'.join(b.defenders)}: {parts}")
    return "\n".join(lines)
