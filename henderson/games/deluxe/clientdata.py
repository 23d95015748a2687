"""Static Deluxe Guadalcanal board data for the browser client: the map and the counters as JSON.

The client draws from this and never decides a rule; where the units are comes from
`state.view` (each side's fog-of-war view, DG 7.8).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from henderson.games.deluxe.game import DGGame

SQRT3 = math.sqrt(3)
SEA_MARGIN = 2  # sea hexes drawn around the land, in hexes: enough to show the coast


def client_data(game: DGGame) -> dict[str, Any]:
    """The map (hexes with centres, terrain, level; slopes, rivers, roads, villages, coast,
    Henderson Field), the counters, the turn track and the sequence of play."""
    data = game.data
    m = data.map
    land = [h for h in m.hexes.values() if h.land]
    near_land = {
        h.id
        for h in m.hexes.values()
        if h.land or any(m.distance(h.id, x.id) <= SEA_MARGIN for x in land if abs(x.hex.q - h.hex.q) <= SEA_MARGIN)
    }
    hexes = []
    for hid in sorted(near_land):
        h = m.hexes[hid]
        # flat-topped hexes, columns west to east, rows north to south (DG 2.1, map.toml)
        x = 1.5 * h.hex.q
        y = SQRT3 * (h.hex.r + h.hex.q / 2)
        entry: dict[str, Any] = {
            "id": hid,
            "x": round(x, 3),
            "y": round(y, 3),
            "terrain": h.base,
            "level": h.level,
        }
        if h.coastal:
            entry["coastal"] = True
        if h.river:
            entry["river"] = True
        if h.road:
            entry["road"] = True
        if h.village:
            entry["village"] = h.village
        hexes.append(entry)
    slopes = sorted(
        {
            tuple(sorted((a, b)))
            for a, ns in m.adjacent.items()
            for b in ns
            if a in m.hexes and b in m.hexes and m.hexes[a].land and m.hexes[b].land and m.slope(a, b)
        }
    )
    return {
        "game": "deluxe",
        "title": game.title,
        "data_version": data.version,
        "hex_size": 1,
        "orientation": "flat",
        "hexes": hexes,
        "slopes": [list(s) for s in slopes],  # DG 2.1.4: levels differ across the hexside
        "rivers": [{"name": n, "hexes": list(p)} for n, p in m.rivers.items()],  # DG 2.1.3
        "roads": [{"name": n, "hexes": list(p)} for n, p in m.roads.items()],  # DG 2.1.6
        "villages": [{"hex": h, "name": n} for h, n in sorted(m.villages.items())],  # DG 2.1.7
        "henderson_field": m.henderson_field,  # DG 2.1
        "units": {
            u.id: {
                "side": u.side,
                "type": u.type,
                "bar": u.bar,
                "strength": u.strength,
                "movement": u.movement,
                "range": u.range,
                "arrival": u.arrival,
                "heavy": u.heavy,
            }
            for u in data.units.values()
        },
        "turns": [
            {"turn": t.turn, "date": t.date, "month": t.month, "event": t.event, "supply": dict(t.supply)}
            for t in data.turns
        ],
        "sequence": steps(game),  # DG 3.0, 4.0: from sequence.toml, the only list of the steps
        "constants": {
            "turns": data.constants.turns,
            "hf_max": data.constants.hf_max,
            "hf_operational": data.constants.hf_operational,
            "vp_to_win": data.constants.vp_to_win,
            "supply_cap": data.constants.supply_cap,
            "stacking": data.constants.stacking,
        },
    }


def steps(game: DGGame) -> list[dict[str, Any]]:
    """The steps of the sequence of play: id, name, side, and number in DG 4.0 (0 for the
    preparation before the first turn)."""
    plan = game.sequence().for_options(frozenset())
    return [
        {"id": s.id, "name": s.name, "side": s.side, "number": i - plan.first_turn_step + 1 if not s.setup else 0}
        for i, s in enumerate(plan.steps)
    ]
