"""The AAG position as text for a terminal: zones with their units by side and type."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from henderson.games.aag.model import SIDES

if TYPE_CHECKING:
    from henderson.games.aag.state import AAGState

SHORT = {
    "infantry": "inf",
    "artillery": "art",
    "aa_gun": "aa",
    "transport": "tp",
    "submarine": "sub",
    "destroyer": "dd",
    "cruiser": "ca",
    "carrier": "cv",
    "battleship": "bb",
    "bomber": "bmb",
    "fighter": "ftr",
    "supply": "sup",
}


def stack(state: AAGState, zone: str, side: str) -> str:
    counts = Counter(p.type for p in state.in_zone(zone, side) if p.aboard is None)
    parts = [f"{n} {SHORT.get(k, k)}" for k, n in sorted(counts.items())]
    for ship in state.in_zone(zone, side):
        cargo = Counter(c.type for c in state.cargo(ship))
        if cargo:
            inside = ", ".join(f"{n} {SHORT.get(k, k)}" for k, n in sorted(cargo.items()))
            parts.append(f"[{ship.id} {SHORT[ship.type]}: {inside}]")
    return ", ".join(parts)


def touching(state: AAGState) -> list[str]:
    """Which zones touch (AAG Game Board): for each sea zone, the seas a ship moves to in one step
    (islands between two seas block it) and the islands on its shores; for each base, its
    sea."""
    board = state.data.board
    lines = ["zones that touch (ships move one sea a step; land units reach an island from its seas):"]
    for sea in sorted(board.seas):
        seas = ", ".join(sorted(z for z in board.sea_graph.get(sea, ()) if board.is_sea(z)))
        shores = ", ".join(board.islands[i].name for i in board.land_zones_by_sea(sea) if i in board.islands)
        lines.append(f"  {sea}: seas {seas or '-'}" + (f"; islands {shores}" if shores else ""))
    for base in board.bases.values():
        lines.append(f"  {base.land} ({base.name}): its sea {base.sea}")
    return lines


def render(state: AAGState) -> str:
    """Turn, step, victory points, then one line per occupied zone."""
    lines = [
        f"AAG turn {state.turn}, {state.step} (first player {state.first}); to act: {state.current_player() or '-'}",
        "victory points: " + ", ".join(f"{s} {state.vp[s]}" for s in SIDES),
    ]
    if state.winner():
        lines.append(f"winner: {state.winner()} ({state.end_cause})")
    board = state.data.board
    for zone in board.zone_ids():
        isl = board.islands.get(zone)
        head = zone
        if isl:
            fields = [f"{a.side}{'*' if a.damaged else ''}" for a in state.airfields if a.island == zone]
            head = f"{isl.name} ({state.control[zone]}; airfields {len(fields)}/{isl.airfields}"
            head += f": {' '.join(fields)})" if fields else ")"
        cells = [f"{s}: {stack(state, zone, s)}" for s in SIDES if stack(state, zone, s)]
        if cells or isl:
            lines.append(f"  {head:40} " + " | ".join(cells))
    for side in SIDES:
        damaged = Counter(p.type for p in state.pieces.values() if p.side == side and p.damaged)
        if damaged:
            lines.append(f"  {side} damaged at base: " + ", ".join(f"{n} {k}" for k, n in sorted(damaged.items())))
    lines.extend(touching(state))
    fought = state.battle
    if fought is not None:
        lines.append(f"battle: {fought.category} combat in {fought.zone}, {fought.attacker} attacking")
    for decision in state.pending:
        lines.append(f"{decision.side} to decide: {decision.kind}")
    return "\n".join(lines)
