"""The FIRST BLOOD position as text for a terminal: a hex map with stacks, then the boxes."""

from __future__ import annotations

from henderson.games.firstblood.state import FBState

TERRAIN_MARK = {"clear": ".", "jungle": '"', "ridge": "^"}


def cell(st: FBState, hex_id: str) -> str:
    units = st.at(hex_id)
    if units:
        side = st.data.ground[units[0]].side
        return f"{'U' if side == 'us' else 'J'}{len(units)}"
    if hex_id in st.airfield:
        return {"operational": "HF", "damaged": "Hd", "destroyed": "Hx", "unbuilt": "fs"}[st.airfield[hex_id]]
    return TERRAIN_MARK[st.board.terrain[hex_id]] * 2


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
    for r in sorted(rows, reverse=True):
        pad = " " if r % 2 else ""  # even rows sit half a hex toward the higher (western) columns
        cells = []
        for c in range(max_col, 0, -1):
            here = rows[r].get(c)
            cells.append(cell(st, here) if here else "  ")
        lines.append(f"{r:02d}  {pad}" + " ".join(cells))
    lines.append(
        'key: . clear  " jungle  ^ ridge  HF airfield (Hd damaged, Hx destroyed, fs Fighter Strip unbuilt)  '
        "U2/J1 stacks"
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
