"""A whole game turn played in a real browser by clicks on the map and on the page's buttons
and keys only (nothing typed, nothing chosen from the action list), FIRST BLOOD and Deluxe
Guadalcanal: moves by a counter and a marked hex, attacks by a marked hex and the panel,
losses by a ringed counter, phases ended by the End phase button. Screenshots in
test-artifacts/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from henderson import games
from tests.server.browser_support import (  # fixtures are used by name
    Page,
    browser,
    expect,
    log_count,
    open_record,
    seat,
    server,
    settle,
    tab,
)
from tests.server.records import play_until

__all__ = ["browser", "server", "tab"]

PLACES = ("move", "retreat", "advance", "place", "land", "fly", "bomb")


def turn(page: Any) -> str:
    return str(page.locator("#board-svg rect[data-turn][fill='#facc15']").get_attribute("data-turn"))


def click_place(page: Any, place: str) -> None:
    """A click on a place: its move-here marker when friends stand there, else the hex or box."""
    marker = page.locator(f"#board-svg [data-move-here='{place}']")
    if marker.count():
        marker.dispatch_event("click")
    elif page.locator(f"#board-svg polygon[data-hex='{place}']").count():
        page.locator(f"#board-svg polygon[data-hex='{place}']").dispatch_event("click")
    else:
        page.locator(f"#board-svg [data-place='{place}']").first.dispatch_event("click")


def one_click_step(page: Any, moved: set[str]) -> None:
    """One US decision by clicks; `moved` holds the phases in which a move was made."""
    message = seat(page)
    legal = [str(a) for a in message["legal_actions"]]
    phase = str(page.locator("#status").inner_text()).split(" · your")[0]
    before = log_count(page)
    unit_place = [a for a in legal if a.split()[0] in PLACES and len(a.split()) == 3]
    if "end" in legal and not (unit_place and phase not in moved and unit_place[0].startswith("move ")):
        page.locator("#end-phase").click()
    elif any(a.startswith("lose ") for a in legal):
        unit = next(a for a in legal if a.startswith("lose ")).split()[1]
        page.locator(f"#board-svg [data-counter='{unit}']").first.dispatch_event("click")
    elif unit_place:
        moved.add(phase)
        info = next(a for a in message["actions"] if a["text"] == unit_place[0])
        unit = next(x["value"] for x in info["args"] if x["role"] == "unit")
        place = next(x["value"] for x in info["args"] if x["role"] in ("to", "target"))  # a box by its board id
        counter = page.locator(f"#board-svg [data-counter='{unit}']")
        if counter.count():
            counter.first.dispatch_event("click")
        else:  # one of a holding box's counters of a type
            page.locator(f"#board-svg [data-group~='{unit}']").first.dispatch_event("click")
            for _ in range(12):
                if unit in page.locator("#board-panel h3").inner_text():
                    break
                page.locator(f"#board-svg [data-group~='{unit}']").first.dispatch_event("click")
        expect(page.locator("#board-panel h3")).to_contain_text(unit)
        click_place(page, place)
    elif any(a in legal for a in ("resolve", "cancel")) or any(a.startswith("add ") for a in legal):
        button = "add " if any(a.startswith("add ") for a in legal) else "resolve" if "resolve" in legal else "cancel"
        page.locator(f"#board-panel button[data-action^='{button}']").first.click()
    elif any(a.startswith("attack ") and "+" not in a for a in legal):
        hex_id = next(a for a in legal if a.startswith("attack ") and "+" not in a).split()[1]
        page.locator(f"#board-svg polygon.attackable[data-hex='{hex_id}']").dispatch_event("click")
    else:
        raise AssertionError(f"no click plays any of {legal[:8]}")
    settle(page, before)


def test_firstblood_a_game_turn_by_clicks_only(server: str, tab: Page, tmp_path: Path) -> None:
    if "firstblood" not in games.names():
        pytest.skip("FIRST BLOOD is not installed")

    def done(state: Any, side: str | None, actions: list[str], events: Any) -> bool:
        return side == "us" and "setup default" not in actions

    def setups(rng: Any, actions: list[str]) -> str:
        return "setup default" if "setup default" in actions else rng.choice(actions)

    record, _ = play_until("firstblood", {"us": "human", "jp": "random"}, done, choose=setups, what="the first turn")
    page = tab.page
    open_record(page, server, tmp_path / "fb-clicks.jsonl", record)
    start = turn(page)
    moved: set[str] = set()
    for _ in range(150):
        if turn(page) != start or "Game over" in page.locator("#status").inner_text():
            break
        one_click_step(page, moved)
    assert turn(page) != start or "Game over" in page.locator("#status").inner_text(), "the turn did not end"
    assert moved, "no move made by clicks"
    assert page.locator("#action-input").input_value() == ""
    expect(page.locator("#log")).to_contain_text(re.compile(r"us move "))
    tab.shot("fb-turn-by-clicks")
    assert tab.errors == []


def press(page: Any, key: str) -> None:
    page.locator("#board-svg").click(position={"x": 3, "y": 3})  # focus off the action box
    page.keyboard.press(key)


def dg_click_step(page: Any, moved: set[str]) -> None:
    """One US decision of DG by clicks and keys; `moved` holds the steps with a move made."""
    message = seat(page)
    legal = [str(a) for a in message["legal_actions"]]
    step = str(message["view"].get("step"))
    before = log_count(page)
    unit_place = [a for a in legal if a.split()[0] in ("land", "move", "retreat", "advance") and len(a.split()) == 3]
    hex_acts = [a for a in legal if len(a.split()) == 2 and re.fullmatch(r"\d{4}", a.split()[1])]
    assault = [a for a in legal if a.split()[0] in ("defend", "support", "strain", "ambush", "banzai", "stop")]
    if "end" in legal and not (unit_place and step not in moved and unit_place[0].startswith("move ")):
        page.locator("#end-phase").click()
    elif "pass" in legal:
        press(page, "p")
    elif "go" in legal:
        press(page, "g")
    elif any(a.split()[0] in ("lose", "with") for a in legal):
        unit = next(a for a in legal if a.split()[0] in ("lose", "with")).split()[1]
        page.locator(f"#board-svg [data-counter='{unit}']").first.dispatch_event("click")
    elif unit_place:
        moved.add(step)
        _, unit, place = unit_place[0].split()
        page.locator(f"#board-svg [data-counter='{unit}']").first.dispatch_event("click")
        expect(page.locator("#board-panel h3")).to_contain_text(unit)
        click_place(page, place)
    elif hex_acts:
        page.locator(f"#board-svg polygon[data-hex='{hex_acts[0].split()[1]}']").dispatch_event("click")
    elif assault:  # DG 8.2.4: the defender's artillery supply, and the like, are the panel's buttons
        page.locator(f"#board-panel button[data-action='{assault[0]}']").click()
    else:
        raise AssertionError(f"no click plays any of {legal[:8]}")
    settle(page, before)


def test_deluxe_a_game_turn_by_clicks_only(server: str, tab: Page, tmp_path: Path) -> None:
    if "deluxe" not in games.names():
        pytest.skip("Deluxe Guadalcanal is not installed")
    page = tab.page
    page.goto(server + "/")
    page.select_option("#game-select", "deluxe")
    page.select_option("select[data-side=us]", "human")
    page.select_option("select[data-side=jp]", "random")
    page.click("#create")
    page.wait_for_url(re.compile(r"/play#"))
    expect(page.locator("#status")).to_contain_text(re.compile("your decision|Game over"))
    start = seat(page)["view"]["turn"]
    moved: set[str] = set()
    for _ in range(200):
        message = seat(page)
        if message["terminal"] or message["view"]["turn"] != start:
            break
        dg_click_step(page, moved)
    message = seat(page)
    assert message["terminal"] or message["view"]["turn"] != start, "the turn did not end"
    assert moved, "no move made by clicks"
    assert page.locator("#action-input").input_value() == ""
    tab.shot("dg-turn-by-clicks")
    assert tab.errors == []


def aag_click_step(page: Any, moved: set[str]) -> None:
    """One Allied decision of AAG by clicks and keys; `moved` holds the steps with a move made."""
    message = seat(page)
    legal = [str(a) for a in message["legal_actions"]]
    step = str(message["view"].get("step"))
    before = log_count(page)
    moves = [a for a in legal if a.split()[0] in ("move", "deploy", "land", "unload") and len(a.split()) == 3]
    zone_acts = [a for a in legal if a.split()[0] in ("fight", "build") and len(a.split()) == 2]
    if "end" in legal and not (moves and step not in moved):
        page.locator("#end-phase").click()
    elif "roll" in legal:
        press(page, "r")
    elif moves:
        moved.add(step)
        verb, a, b = moves[0].split()
        unit, zone = (b.split(",")[0], a) if verb == "move" else (a, b)
        pieces = message["view"]["pieces"]
        if zone in pieces:  # a landing on a carrier: the carrier's area
            zone = pieces[zone]["zone"]
        page.locator(f"#board-svg g.chip[data-chip~='{unit}']").first.dispatch_event("click")
        expect(page.locator("#board-panel")).to_contain_text(unit)
        page.locator(f"#board-svg g[data-area='{zone}']").first.dispatch_event("click")
    elif zone_acts:
        page.locator(f"#board-svg g[data-area='{zone_acts[0].split()[1]}']").first.dispatch_event("click")
    else:
        action = next((a for a in legal if len(a.split()) >= 2 and re.fullmatch(r"(us|jp)\d+", a.split()[1])), None)
        if action is None:
            raise AssertionError(f"no click plays any of {legal[:8]}")
        page.locator(f"#board-svg g.chip[data-chip~='{action.split()[1]}']").first.dispatch_event("click")
        page.locator(f"#board-panel button[data-action='{action}']").click()
    settle(page, before)


def test_aag_a_game_turn_by_clicks_only(server: str, tab: Page) -> None:
    if "aag" not in games.names():
        pytest.skip("Axis & Allies: Guadalcanal is not installed")
    page = tab.page
    page.goto(server + "/")
    page.select_option("#game-select", "aag")
    page.select_option("select[data-side=us]", "human")
    page.select_option("select[data-side=jp]", "random")
    page.click("#create")
    page.wait_for_url(re.compile(r"/play#"))
    expect(page.locator("#status")).to_contain_text(re.compile("your decision|Game over"))
    start = seat(page)["view"]["turn"]
    moved: set[str] = set()
    for _ in range(250):
        message = seat(page)
        if message["terminal"] or message["view"]["turn"] != start:
            break
        aag_click_step(page, moved)
    message = seat(page)
    assert message["terminal"] or message["view"]["turn"] != start, "the turn did not end"
    assert moved, "no move made by clicks"
    assert page.locator("#action-input").input_value() == ""
    tab.shot("aag-turn-by-clicks")
    assert tab.errors == []
