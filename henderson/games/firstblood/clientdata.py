"""Static FIRST BLOOD board data for the browser client: the map and the counters as JSON.

The client draws from this and never decides a rule; positions come from `state.view`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from henderson.games.firstblood.game import FBGame


def client_data(game: FBGame) -> dict[str, Any]:
    data = game.data
    m = data.map
    board = game.board
    hexes = []
    for h in sorted(m.hexes):
        row, col = m.layout.to_offset(h)
        ax = board.axial[h]
        hexes.append({"id": h, "terrain": m.hexes[h].terrain, "row": row, "col": col, "q": ax.q, "r": ax.r})
    return {
        "game": "firstblood",
        "title": game.title,
        "data_version": data.data_version,
        "layout": {"parity": m.layout.parity, "order": m.layout.order, "columns_increase": "west"},
        "hexes": hexes,
        "hexsides": [{"a": a, "b": b, "type": t} for (a, b), (t, _src) in sorted(m.hexsides.items()) if t != "clear"],
        "airfields": [
            {"id": af.id, "name": af.name, "kind": af.kind, "hexes": list(af.hexes)} for af in m.airfields.values()
        ],
        "entry_points": [
            {"id": f"EP{e.number}", "number": e.number, "side": e.side, "circled": e.circled, "arrows": list(e.arrows)}
            for e in sorted(m.entry_points.values(), key=lambda e: e.number)
        ],
        "boxes": [
            {"id": b.id, "order": b.order, "arrows": list(b.arrows), "reinforcement": b.reinforcement}
            for b in sorted(m.boxes.values(), key=lambda b: b.order)
        ],
        "holding_boxes": [{"id": hb.id, "name": hb.name, "side": hb.side} for hb in m.holding_boxes.values()],
        "setup_area": {"rows": list(m.setup_rows), "cols": list(m.setup_cols)},
        "ground": {
            u.id: {"name": u.name, "side": u.side, "kind": u.kind, "cf": u.cf, "range": u.range, "mf": u.mf}
            for u in data.ground.values()
        },
        "air": {
            a.id: {
                "type": a.type,
                "side": a.side,
                "roles": list(data.air_types[a.type].roles),
                "name": data.air_types[a.type].name,
            }
            for a in data.air.values()
        },
        "ships": {s.id: {"type": s.type, "name": data.ship_types[s.type].name} for s in data.ships.values()},
        "turns": list(data.turns),
        "steps": [
            {"id": s.id, "name": s.name, "side": s.side, "rule": s.rule, "setup": s.setup}
            for s in game.sequence().for_options(frozenset()).steps
        ],
    }
