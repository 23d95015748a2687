"""Static Axis & Allies: Guadalcanal board data for the browser client: the areas as JSON.

The board is a set of areas (islands, sea zones A–M, the two bases), not hexes. `map` is
the drawn board (`data/board_layout.toml`: sea-zone polygons, island coasts, base cards,
blocked straits); `cell` places each area in a schematic 6 × 4 grid as well, north-west
(Rabaul) to south-east (New Caledonia), for a compact view. The adjacency the rules use is
sent too; the client decides no rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from henderson.games.aag.layout import layout_path, load_layout

if TYPE_CHECKING:
    from henderson.games.aag.game import AagGame

# design: a schematic layout of the reconstructed board (data/board.toml); (column, row, width)
LAYOUT: dict[str, tuple[int, int, int]] = {
    "rabaul": (0, 0, 1),
    "B": (1, 0, 1),
    "choiseul": (2, 0, 1),
    "C": (3, 0, 1),
    "F": (4, 0, 1),
    "M": (5, 0, 1),
    "rabaul_sea": (0, 1, 1),
    "bougainville": (1, 1, 1),
    "E": (2, 1, 1),
    "santa_isabel": (3, 1, 1),
    "malaita": (4, 1, 1),
    "K": (5, 1, 1),
    "A": (0, 2, 1),
    "D": (1, 2, 1),
    "new_georgia": (2, 2, 1),
    "G": (3, 2, 1),
    "H": (4, 2, 1),
    "new_caledonia_sea": (5, 2, 1),
    "L": (0, 3, 2),
    "I": (2, 3, 1),
    "guadalcanal": (3, 3, 1),
    "J": (4, 3, 1),
    "new_caledonia": (5, 3, 1),
}
COLUMNS, ROWS = 6, 4


def client_data(game: AagGame) -> dict[str, Any]:
    """Islands, sea zones, bases, their adjacency for sea and air moves, the unit types, the
    battle-box neck and a grid layout for drawing the areas."""
    data = game.data
    board = data.board
    areas: list[dict[str, Any]] = []
    for island in board.islands.values():
        areas.append(
            {
                "id": island.id,
                "kind": "island",
                "name": island.name,
                "airfields": island.airfields,  # AAG Build Airfields: capacity
                "chain": island.chain,
                "seas": list(island.seas),
            }
        )
    for sea in board.seas.values():
        areas.append(
            {
                "id": sea.id,
                "kind": "sea",
                "name": f"Sea zone {sea.id}",
                "role": sea.role,
                "adjacent": list(sea.adjacent),
                "route_to_base": sea.route_to_base,
                "deployment": dict(sea.deployment),  # AAG Deploy
            }
        )
    for base in board.bases.values():
        areas.append({"id": base.land, "kind": "base", "name": base.name, "side": base.side})
        areas.append(
            {
                "id": base.sea,
                "kind": "base_sea",
                "name": f"{base.name} sea",
                "side": base.side,
                "routes": list(base.routes),
            }
        )
    for area in areas:
        col, row, width = LAYOUT.get(area["id"], (0, 0, 1))
        area["cell"] = {"col": col, "row": row, "w": width, "h": 1}
    return {
        "game": "aag",
        "title": game.title,
        "data_version": data.data_version,
        "grid": {"columns": COLUMNS, "rows": ROWS},
        "map": load_layout(board, layout_path(data.data_dir)),
        "areas": areas,
        "sea_graph": {z: sorted(n) for z, n in sorted(board.sea_graph.items())},
        "air_graph": {z: sorted(n) for z, n in sorted(board.air_graph.items())},
        "blocks": [{"island": b.island, "seas": list(b.seas)} for b in board.blocks],
        "bases": {side: {"land": b.land, "sea": b.sea, "name": b.name} for side, b in board.bases.items()},
        "units": {
            u.id: {
                "name": u.name,
                "category": u.category,
                "cost": u.cost,
                "attack": dict(u.attack),
                "cargo": u.cargo,
                "range": u.range,
                "abilities": sorted(u.abilities),
            }
            for u in data.units.values()
        },
        "neck": {cat: list(slots) for cat, slots in data.neck.slots.items()},
        "hit_values": sorted(data.neck.hit_values),
    }
