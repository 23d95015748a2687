"""Deluxe Guadalcanal and Axis & Allies: Guadalcanal in the browser: the board drawn from the
game's board data, a move made by clicking, no console errors. Screenshots in test-artifacts/."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from henderson import games
from henderson.core.events import Event
from henderson.core.record import GameRecord, record_for
from tests.server.browser_support import (  # fixtures are used by name
    Page,
    browser,
    expect,
    log_count,
    open_record,
    server,
    tab,
    wait_my_turn,
)
from tests.server.records import play_until

__all__ = ["browser", "server", "tab"]


def start(page: Any, server: str, game: str, human: str, computer: str) -> None:
    """Open the lobby and start `game`: `human` plays against the random computer player."""
    page.goto(server + "/")
    page.select_option("#game-select", game)
    page.select_option(f"select[data-side={human}]", "human")
    page.select_option(f"select[data-side={computer}]", "random")
    page.click("#create")
    wait_my_turn(page)


@pytest.mark.skipif("deluxe" not in games.names(), reason="Deluxe Guadalcanal is not installed")
def test_deluxe_map_and_a_landing_by_clicking(server: str, tab: Page) -> None:
    page = tab.page
    start(page, server, "deluxe", "us", "jp")
    board = games.get("deluxe").client_data()
    expect(page.locator("#board-svg polygon.hex")).to_have_count(len(board["hexes"]))
    expect(page.locator("#board-svg [data-kind=river]").first).to_be_attached()
    expect(page.locator("#board-svg [data-kind=road]").first).to_be_attached()
    expect(page.locator("#board-svg [data-kind=slope]").first).to_be_attached()
    expect(page.locator("#board-svg [data-henderson='3707']")).to_have_attribute("data-control", "jp")
    expect(page.locator("#board-svg [data-village='3507']")).to_be_attached()
    expect(page.locator("#status")).to_contain_text("Turn 1")
    tab.shot("dg-start")
    legal = page.locator("#action-list li:not(.more)").all_inner_texts()
    lander = next(a for a in legal if a.startswith("land ")).split()[1]
    # the counter may lie outside the view (the map pans): the click is sent to it
    page.locator(f"#board-svg [data-counter='{lander}']").first.dispatch_event("click")
    expect(page.locator("#board-panel")).to_contain_text(lander)
    reach = page.locator("#board-svg polygon.reach")
    expect(reach.first).to_be_attached()
    tab.shot("dg-unit-selected")
    target = reach.first.get_attribute("data-hex")
    before = log_count(page)
    page.locator(f"#board-svg polygon[data-hex='{target}']").dispatch_event("click")
    page.wait_for_function(f"document.querySelectorAll('#log li').length > {before}")
    expect(page.locator("#log li").last).to_contain_text(f"land {lander} {target}")
    expect(page.locator(f"#board-svg [data-counter='{lander}']")).to_be_attached()
    tab.shot("dg-unit-landed")
    # the map opens at one pixel a unit around Henderson Field; "fit" shows all of it
    assert float(str(page.locator("#board-svg").get_attribute("data-zoom"))) > 1
    page.locator("#zoom-fit").click()
    expect(page.locator("#board-svg")).to_have_attribute("data-zoom", "1.00")
    tab.shot("dg-zoomed-out")
    assert tab.errors == []


@pytest.mark.skipif("aag" not in games.names(), reason="Axis & Allies: Guadalcanal is not installed")
def test_aag_areas_and_a_move_by_clicking(server: str, tab: Page) -> None:
    page = tab.page
    start(page, server, "aag", "jp", "us")
    board = games.get("aag").client_data()
    expect(page.locator("#board-svg [data-area]")).to_have_count(len(board["areas"]))
    expect(page.locator("#board-svg [data-area=guadalcanal] [data-control=us]")).to_be_attached()
    expect(page.locator("#board-svg [data-airfield]").first).to_be_attached()
    expect(page.locator("#board-svg [data-first=jp]")).to_be_attached()
    # the board drawn as a map: a polygon per sea zone, a coast per island, the two
    # straits no ship passes, the route-to-base zones marked
    expect(page.locator("#board-svg path.sea-zone")).to_have_count(13)
    expect(page.locator("#board-svg path.island")).to_have_count(6)
    expect(page.locator("#board-svg [data-area=guadalcanal] path.island")).to_be_attached()
    expect(page.locator("#board-svg line.strait")).to_have_count(len(board["map"]["straits"]))
    routes = sorted(a["id"] for a in board["areas"] if a.get("route_to_base"))
    expect(page.locator("#board-svg [data-route]")).to_have_count(len(routes))
    tab.shot("aag-start")
    page.set_viewport_size({"width": 1920, "height": 1080})
    expect(page.locator("#board-svg path.sea-zone").first).to_be_visible()
    tab.shot("aag-start-1920")
    page.set_viewport_size({"width": 1366, "height": 768})
    legal = page.locator("#action-list li:not(.more)").all_inner_texts()
    zone, unit = next(a for a in legal if a.startswith("move ")).split()[1:3]
    page.locator(f"#board-svg [data-chip~='{unit}']").first.click()
    reach = page.locator("#board-svg .reach")
    expect(reach.first).to_be_attached()
    tab.shot("aag-unit-selected")
    before = log_count(page)
    page.locator(f"#board-svg [data-area='{zone}'] .area").dispatch_event("click")
    page.wait_for_function(f"document.querySelectorAll('#log li').length > {before}")
    expect(page.locator("#log li").nth(before)).to_contain_text(f"move {zone}")
    tab.shot("aag-unit-moved")
    assert tab.errors == []


def aag_record_until_a_battle() -> GameRecord:
    """Random play of AAG until a battle has rolled its dice and Japan (the human) decides."""
    fought = False

    def done(state: Any, side: str | None, actions: list[str], events: list[Event]) -> bool:
        nonlocal fought
        fought = fought or any(e.kind == "roll" for e in events)
        return fought and side == "jp"

    return play_until("aag", {"us": "random", "jp": "human"}, done, limit=2000, what="a battle")[0]


@pytest.mark.skipif("aag" not in games.names(), reason="Axis & Allies: Guadalcanal is not installed")
def test_aag_battle_box_shows_the_dice(server: str, tab: Page, tmp_path: Path) -> None:
    page = tab.page
    open_record(page, server, tmp_path / "battle.jsonl", aag_record_until_a_battle())
    expect(page.locator("#board-svg .battle-box")).to_contain_text("Battle box · AAG Combat")
    expect(page.locator("#board-svg .battle-box .die").first).to_be_attached()
    page.wait_for_timeout(1500)  # the dice have landed
    tab.shot("aag-battle-box")
    assert tab.errors == []


def dg_end_now_and_then(rng: random.Random, actions: list[str]) -> str:
    """Random DG play that ends phases often enough to get on with the game."""
    return "end" if "end" in actions and rng.random() < 0.3 else rng.choice(actions)


def dg_record_until_us_movement() -> GameRecord:
    """Random play of DG until the US moves in turn 2 or later with Japanese stacks in sight."""

    def done(state: Any, side: str | None, actions: list[str], events: list[Event]) -> bool:
        view = state.view("us")
        return (
            side == "us"
            and view["turn"] >= 2
            and bool(view["enemy_stacks"])
            and any(a.startswith("move ") for a in actions)
        )

    players = {"us": "human", "jp": "random"}
    return play_until("deluxe", players, done, choose=dg_end_now_and_then, what="a US movement in sight")[0]


@pytest.mark.skipif("deluxe" not in games.names(), reason="Deluxe Guadalcanal is not installed")
def test_deluxe_movement_with_the_enemy_in_sight(server: str, browser: Any, tmp_path: Path) -> None:
    tab = Page(browser, width=1280, height=720)  # a small laptop screen
    page = tab.page
    open_record(page, server, tmp_path / "movement.jsonl", dg_record_until_us_movement())
    expect(page.locator("#status")).to_contain_text("Movement")
    expect(page.locator("#board-svg [data-side=jp].counter").first).to_be_attached()  # only the top counters
    legal = page.locator("#action-list li:not(.more)").all_inner_texts()
    mover, target = next(a for a in legal if a.startswith("move ")).split()[1:3]
    page.locator(f"#board-svg [data-counter='{mover}']").first.dispatch_event("click")
    expect(page.locator(f"#board-svg polygon.reach[data-hex='{target}']")).to_be_attached()
    page.locator(f"#board-svg polygon[data-hex='{target}']").dispatch_event("mouseenter")
    expect(page.locator("#board-svg text.cost").first).to_be_attached()  # its cost, from the server
    tab.shot("dg-movement")
    before = log_count(page)
    page.locator(f"#board-svg polygon[data-hex='{target}']").dispatch_event("click")
    page.wait_for_function(f"document.querySelectorAll('#log li').length > {before}")
    expect(page.locator("#log li").nth(before)).to_contain_text(f"{mover} {target}")
    wait_my_turn(page)
    # a stack moves together (DG 7.5): select one of its units, then ask for the stack
    page.locator("#action-input").fill("stack ")
    stacked = page.locator("#action-list li:not(.more)").all_inner_texts()
    page.locator("#action-input").fill("")
    stack = next((a.split()[1] for a in stacked if a.startswith("stack ")), None)
    if stack:
        first = stack.split("+")[0]
        page.locator(f"#board-svg [data-counter='{first}']").first.dispatch_event("click")
        page.locator("#board-panel button[data-together=no]").click()
        expect(page.locator("#board-panel button[data-together=yes]")).to_be_attached()
        reach = page.locator("#board-svg polygon.reach").first
        expect(reach).to_be_attached()
        hex_id = reach.get_attribute("data-hex")
        before = log_count(page)
        reach.dispatch_event("click")
        page.wait_for_function(f"document.querySelectorAll('#log li').length > {before}")
        expect(page.locator("#log li").nth(before)).to_contain_text(
            re.compile(rf"stack \S*{re.escape(first)}\S* {hex_id}")
        )
        tab.shot("dg-stack-moved")
    assert tab.errors == []
    tab.close()


def aag_record_until_japan_buys() -> GameRecord:
    """Random play of AAG until Japan (the human) may buy reinforcements."""

    def done(state: Any, side: str | None, actions: list[str], events: list[Event]) -> bool:
        return side == "jp" and any(a.startswith("buy ") for a in actions)

    def choose(rng: random.Random, actions: list[str]) -> str:
        return rng.choice([a for a in actions if not a.startswith("buy ")] or actions)

    return play_until("aag", {"us": "random", "jp": "human"}, done, choose=choose, what="Japan buying")[0]


@pytest.mark.skipif("aag" not in games.names(), reason="Axis & Allies: Guadalcanal is not installed")
def test_aag_purchases_in_the_panel(server: str, browser: Any, tmp_path: Path) -> None:
    small = Page(browser, width=1280, height=720)  # a small laptop screen
    page = small.page
    open_record(page, server, tmp_path / "buy.jsonl", aag_record_until_japan_buys())
    expect(page.locator("#board-panel")).to_contain_text("Purchases")
    button = page.locator("#board-panel button[data-action^='buy ']").first
    action = button.get_attribute("data-action")
    before = log_count(page)
    button.click()
    page.wait_for_function(f"document.querySelectorAll('#log li').length > {before}")
    expect(page.locator("#log li").nth(before)).to_contain_text(action)
    expect(page.locator("#board-panel ul.bought li").first).to_be_attached()
    small.shot("aag-purchases")
    assert small.errors == []
    small.close()


def dg_record_assault_with_stealth() -> GameRecord:
    """A DG position in the US combat step with an attack to open, where one Japanese unit
    away from it is under stealth (a record that starts from that position)."""
    game = games.get("deluxe")

    def done(state: Any, side: str | None, actions: list[str], events: list[Event]) -> bool:
        return side == "us" and any(a.startswith("attack ") for a in actions)

    _, state = play_until(
        "deluxe",
        {"us": "human", "jp": "random"},
        done,
        choose=dg_end_now_and_then,
        choice_seed=3,
        what="a US attack",
    )
    actions = [str(a) for a in state.legal_actions()]
    attacked = {a.split()[1] for a in actions if a.startswith("attack ")}
    position = state.to_json()
    hidden = next(
        uid
        for uid, u in position["units"].items()
        if u["side"] == "jp" and u["at"] in game.data.map.hexes and u["at"] not in attacked
    )
    position["units"][hidden]["stealth"] = 2  # DG 7.7
    return record_for(game, game.load_state(position), {"us": "human", "jp": "random"}, from_position=True)


@pytest.mark.skipif("deluxe" not in games.names(), reason="Deluxe Guadalcanal is not installed")
def test_deluxe_assault_by_clicking_and_a_stealth_marker(server: str, tab: Page, tmp_path: Path) -> None:
    page = tab.page
    open_record(page, server, tmp_path / "assault.jsonl", dg_record_assault_with_stealth())
    expect(page.locator("#board-svg .stealth-marker")).to_have_count(1)  # a marker, not the unit
    hexes = page.locator("#board-svg polygon.hexaction")
    expect(hexes.first).to_be_attached()
    target = hexes.first.get_attribute("data-hex")
    before = log_count(page)
    hexes.first.dispatch_event("click")
    page.wait_for_function(f"document.querySelectorAll('#log li').length > {before}")
    expect(page.locator("#log li").nth(before)).to_contain_text(f"attack {target}")
    expect(page.locator("#board-panel")).to_contain_text(f"Assault on {target}")
    expect(page.locator(f"#board-svg .assaulted[data-hex='{target}']")).to_be_attached()
    legal = page.locator("#action-list li:not(.more)").all_inner_texts()
    joining = next((a.split()[1] for a in legal if a.startswith("with ")), None)
    if joining:
        before = log_count(page)
        page.locator(f"#board-svg [data-counter='{joining}']").first.dispatch_event("click")
        page.wait_for_function(f"document.querySelectorAll('#log li').length > {before}")
        expect(page.locator("#board-panel")).to_contain_text(joining)
    tab.shot("dg-assault")
    assert tab.errors == []
