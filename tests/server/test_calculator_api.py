"""The battle calculator over HTTP: the form, the odds of any attack, and refusals naming the
field; no seat is needed and no position is read."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient


@pytest.mark.parametrize("game", ["firstblood", "deluxe", "aag"])
def test_the_form_lists_fields_with_ranges_and_rules(client: TestClient, game: str) -> None:
    response = client.get(f"/api/games/{game}/calculator")
    assert response.status_code == 200
    fields = response.json()["fields"]
    assert fields and all(f["rule"] for f in fields)
    assert all(("min" in f and "max" in f) for f in fields if f["kind"] == "number")
    assert all(f["choices"] for f in fields if f["kind"] == "choice")


def test_fb_result_with_each_modifier_and_its_rule(client: TestClient) -> None:
    """FB 8.4: 7 against 3 is 2-1; FB 8.7.1: jungle -1 (see the engine test for the table)."""
    body = {"inputs": {"ground": 7, "defence": 3, "terrain": "jungle"}}
    answer = client.post("/api/games/firstblood/calculator", json=body).json()
    assert answer["notes"] == [{"rule": "FB 8.7.1", "text": "defender in a jungle hex", "value": "-1"}]
    assert {o["label"]: o["chance"] for o in answer["outcomes"]}["A1"] == "1/3"
    assert answer["inputs"]["attacker"] == "us" and "column 2-1" in answer["summary"]


def test_values_may_come_as_text_from_a_form(client: TestClient) -> None:
    body = {"inputs": {"attack": "6", "defence": "3", "uphill": "false"}}
    answer = client.post("/api/games/deluxe/calculator", json=body).json()
    assert answer["details"]["ratio"] == "2-1"


def test_aag_both_sides_fire(client: TestClient) -> None:
    body = {"inputs": {"category": "land", "attacker_infantry": 2, "defender_infantry": 1}}
    answer = client.post("/api/games/aag/calculator", json=body).json()
    assert {o["group"] for o in answer["outcomes"]} == {
        "attacker's 2 dice on the defender's land units",
        "defender's 1 die on the attacker's land units",
    }


@pytest.mark.parametrize(
    ("game", "inputs", "field"),
    [
        ("firstblood", {"ground": -1}, "ground"),
        ("firstblood", {"terrain": "swamp"}, "terrain"),
        ("firstblood", {"nonsense": 1}, "nonsense"),
        ("deluxe", {"strain": 9}, "strain"),
        ("aag", {"category": "sea", "banzai_charge": True}, "banzai_charge"),
    ],
)
def test_bad_inputs_are_422_naming_the_field(client: TestClient, game: str, inputs: dict, field: str) -> None:
    response = client.post(f"/api/games/{game}/calculator", json={"inputs": inputs})
    assert response.status_code == 422
    assert response.json()["error"] == "bad-input" and response.json()["message"].startswith(f"{field}: ")


def test_a_battle_too_large_is_422_in_one_line(client: TestClient) -> None:
    ships = ("battleship", "cruiser", "destroyer", "carrier", "transport", "submarine", "pt_boat")
    attackers = {f"attacker_{kind}": 20 for kind in ("battleship", "cruiser", "bomber", "fighter", "pt_boat")}
    inputs = {"category": "sea", **attackers, "attacker_dice": 60, **{f"defender_{kind}": 20 for kind in ships}}
    response = client.post("/api/games/aag/calculator", json={"inputs": inputs})
    assert response.status_code == 422 and "too long to work out" in response.json()["message"]


def test_malformed_bodies_and_games_without_a_calculator(client: TestClient) -> None:
    response = client.post("/api/games/firstblood/calculator", json={"inputs": {"ground": [1]}})
    assert response.status_code == 422 and response.json()["error"] == "invalid-body"
    response = client.post("/api/games/firstblood/calculator", json={"inputs": {}, "extra": 1})
    assert response.status_code == 422 and "extra" in response.json()["message"]
    response = client.get("/api/games/toy/calculator")
    assert response.status_code == 404 and response.json()["error"] == "no-calculator"
    response = client.get("/api/games/nosuchgame/calculator")
    assert response.status_code == 404
