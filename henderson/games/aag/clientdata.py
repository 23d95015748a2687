"""Static Axis & Allies: Guadalcanal board data for the browser client: the areas as JSON.

The board is a set of areas (islands, sea zones A–M, the two bases), not hexes. `map` is
the drawn board (`data/board_layout.toml`: sea-zone polygons, island coasts, base cards,
blocked straits). The adjacency the rules use is sent too; the client decides no rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from henderson.games.aag.layout import layout_path, load_layout

if TYPE_CHECKING:
    from henderson.games.aag.game import AAGGame


def client_data(game: AAGGame) -> dict[str, Any]:
    """Islands, sea zones, bases, their adjacency for sea and air moves, the unit types, the
    battle-box neck, the drawn map (board_layout.toml) and the steps of the sequence of play
    (data/sequence.toml: the client names the current step from them)."""
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
    return {
        "game": "aag",
        "title": game.title,
        "data_version": data.data_version,
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
        "steps": [
            {
                "id": step.id,
                "name": step.name,
                "rule": step.rule,
                "side": step.side,
                "setup": step.setup,
                "alternate": alternate,
                "when": when,
                "unless": unless,
                "params": dict(step.params),
            }
            for step, alternate, when, unless in game.sequence().entries
        ],
    }
