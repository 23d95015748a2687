"""Board data of Deluxe Guadalcanal and Axis & Allies: Guadalcanal served for the browser
client: `GET /api/games/{name}/board` answers the game's `client_data()`, the whole map."""

from __future__ import annotations

import json
import math

import pytest
from fastapi.testclient import TestClient

from henderson import games


@pytest.mark.skipif("deluxe" not in games.names(), reason="Deluxe Guadalcanal is not installed")
def test_deluxe_board_is_the_map(client: TestClient) -> None:
    response = client.get("/api/games/deluxe/board")
    assert response.status_code == 200
    board = response.json()
    assert board == games.get("deluxe").client_data()
    hexes = {h["id"]: h for h in board["hexes"]}
    game = games.get("deluxe")
    land = {hid for hid, h in game.data.map.hexes.items() if h.land}
    assert land <= set(hexes)  # every land hex is drawn (DG 2.1)
    assert board["henderson_field"] == "3707"  # DG 2.1
    assert hexes["3707"]["terrain"] == "clear"  # DG 2.1.1
    assert hexes["3209"]["village"] == "Matanikau" and hexes["3209"]["river"]  # DG 2.1.3
    assert hexes["3308"]["road"]  # DG 2.1.6
    assert hexes["3408"]["coastal"]  # DG 2.1.5
    assert ["3212", "3312"] in board["slopes"]  # DG 2.1.4
    assert {r["name"] for r in board["rivers"]} >= {"Matanikau", "Lunga"}
    assert len(board["turns"]) == game.data.constants.turns
    assert set(board["units"]) == set(game.data.units)


@pytest.mark.skipif("deluxe" not in games.names(), reason="Deluxe Guadalcanal is not installed")
def test_deluxe_hex_centres_are_one_hex_apart_and_run_east_west() -> None:
    board = games.get("deluxe").client_data()
    hexes = {h["id"]: h for h in board["hexes"]}
    game = games.get("deluxe")
    for a, neighbours in list(game.data.map.adjacent.items())[:300]:
        for b in neighbours:
            if a in hexes and b in hexes:
                d = math.dist((hexes[a]["x"], hexes[a]["y"]), (hexes[b]["x"], hexes[b]["y"]))
                assert abs(d - math.sqrt(3)) < 1e-2, (a, b, d)
    assert hexes["0306"]["x"] < hexes["3707"]["x"] < hexes["7706"]["x"]  # columns run west to east
    assert hexes["3607"]["y"] < hexes["3621"]["y"]  # rows run north to south
    json.dumps(board)


@pytest.mark.skipif("aag" not in games.names(), reason="Axis & Allies: Guadalcanal is not installed")
def test_aag_board_is_the_areas(client: TestClient) -> None:
    response = client.get("/api/games/aag/board")
    assert response.status_code == 200
    board = response.json()
    assert board == games.get("aag").client_data()
    areas = {a["id"]: a for a in board["areas"]}
    assert {a for a in areas if areas[a]["kind"] == "sea"} == set("ABCDEFGHIJKLM")
    islands = {a for a in areas if areas[a]["kind"] == "island"}
    assert "guadalcanal" in islands and len(islands) == 6
    assert areas["guadalcanal"]["airfields"] == 2  # AAG Build Airfields
    assert set(areas["guadalcanal"]["seas"]) == {"G", "H", "I", "J"}
    assert {areas[a]["kind"] for a in ("rabaul", "new_caledonia")} == {"base"}
    drawn = board["map"]  # every island, sea zone and base has its shape on the drawn map
    assert set(drawn["seas"]) == set("ABCDEFGHIJKLM") and set(drawn["islands"]) == islands
    assert set(drawn["bases"]) == {"rabaul", "new_caledonia"}
    assert "E" in board["sea_graph"]["G"]
    assert len(board["neck"]["sea"]) == 12  # AAG Appendix 2
