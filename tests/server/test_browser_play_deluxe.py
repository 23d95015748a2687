"""Deluxe Guadalcanal played in a real browser through the page only, the US against the
`normal` computer player: two game turns with combat, never a hidden Japanese unit drawn
(DG 7.7, 7.8: what is drawn is checked against the seat's view from the API), and a late
position played to the result screen. Screenshots in test-artifacts/."""

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
    sync_api,
    tab,
    wait_my_turn,
)

if "deluxe" not in games.names():
    pytest.skip("Deluxe Guadalcanal is not installed", allow_module_level=True)

from henderson.core.record import GameRecord
from tests.server.records import play_until

__all__ = ["browser", "server", "tab"]

DRAWN = """() => [...document.querySelectorAll('#board-svg [data-counter]')].map(
  (g) => [g.getAttribute('data-counter'), g.getAttribute('data-side')])"""


def enemy_of(server_games: dict[str, Any], side: str) -> str:
    """The other side of DG, as the server names it (read from the server, not hard-coded)."""
    entry = next(g for g in server_games["games"] if g["name"] == "deluxe")
    return next(s for s in entry["sides"] if s != side)


def assert_nothing_hidden_drawn(page: Any, message: dict[str, Any]) -> None:
    """Every counter drawn is in the seat's view; of an enemy stack on the map only its top
    counter, and as many stealth markers as the view has (DG 7.7, 7.8)."""
    view = message["view"]
    units = view["units"]
    tops = {s["top"] for s in view.get("enemy_stacks", [])}
    for unit, side in page.evaluate(DRAWN):
        assert unit in units, f"{unit} is drawn but not in the view"
        if side != message["side"] and re.fullmatch(r"\d{4}", str(units[unit].get("at", ""))):
            assert unit in tops, f"{unit} is drawn but is not the top of its stack"
    drawn = page.locator("#board-svg .stealth-marker").count()
    assert drawn == len(view.get("stealth_markers", []))


def grew(page: Any, before: int, ms: int = 3000) -> bool:
    """Whether the log grew past `before` entries: a click that played nothing is told within
    `ms`; one whose action is still on its way to a busy server (`body.sending`) is waited for."""
    grown = f"document.querySelectorAll('#log li').length > {before}"
    try:
        page.wait_for_function(grown, timeout=ms)
    except sync_api.TimeoutError:
        if not page.evaluate("document.body.classList.contains('sending')"):
            return False  # the click played nothing
        page.wait_for_function(grown, timeout=60_000)  # the server is slow, not the click idle
    return True


def type_action(page: Any, action: str) -> None:
    page.locator("#action-input").fill(action)
    page.locator("#action-input").press("Enter")


def press(page: Any, key: str) -> None:
    page.locator("#board-svg").click(position={"x": 3, "y": 60})  # focus off the action box
    page.keyboard.press(key)


REACH = "(polys) => polys.map((p) => p.getAttribute('data-hex'))"


def near_henderson(hex_id: str) -> int:
    """How far a hex (printed CCRR) is from Henderson Field (3707), roughly: the fighting is there."""
    return abs(int(hex_id[:2]) - 37) + abs(int(hex_id[2:]) - 7)


def click_a_move(page: Any, legal: list[str]) -> bool:
    """Select a unit that may land or move and click the marked hex nearest Henderson Field."""
    movers = [a.split()[1] for a in legal if a.split()[0] in ("land", "move")]
    for mover in dict.fromkeys(movers[:4]):
        counter = page.locator(f"#board-svg [data-counter='{mover}']").first
        if not counter.count():
            continue
        counter.dispatch_event("click")
        panel = page.locator("#board-panel")
        expect(panel).to_contain_text(mover)  # the panel beside the map, in sight whatever the scroll
        box, width = panel.bounding_box(), page.viewport_size["width"]
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        hexes = [str(h) for h in page.locator("#board-svg polygon.reach").evaluate_all(REACH)]
        if not hexes:
            continue
        before = log_count(page)
        page.locator(f"#board-svg polygon.reach[data-hex='{min(hexes, key=near_henderson)}']").dispatch_event("click")
        if grew(page, before):
            return True
    return False


def one_step(page: Any, message: dict[str, Any], moved: set[str]) -> None:
    """One US decision through the page: a landing or move by clicking once a step, assaults
    opened on the outlined hexes, `go`, `end` and `pass` by their keys or the end-phase
    button, anything else typed into the action box."""
    legal = message["legal_actions"]
    step = f"{message['view']['turn']}:{message['view']['step']}"
    before = log_count(page)
    attacks = [a for a in legal if a.startswith("attack ") and len(a.split()) == 2]
    joins = [a for a in legal if a.startswith("with ")]
    if "go" in legal and not joins:
        press(page, "g")
    elif joins:
        page.locator(f"#board-svg [data-counter='{joins[0].split()[1]}']").first.dispatch_event("click")
        if not grew(page, before):
            type_action(page, joins[0])
    elif attacks and step not in moved:
        moved.add(step)
        hex_id = attacks[0].split()[1]
        page.locator(f"#board-svg polygon[data-hex='{hex_id}']").dispatch_event("click")
        if not grew(page, before):  # a selected unit took the first click
            page.locator(f"#board-svg polygon[data-hex='{hex_id}']").dispatch_event("click")
    elif step not in moved and any(a.split()[0] in ("land", "move") for a in legal) and click_a_move(page, legal):
        moved.add(step)
    elif "end" in legal:
        if len(moved) % 2:
            page.locator("#end-phase").click()
        else:
            press(page, "e")
    elif "pass" in legal:
        press(page, "p")
    else:
        type_action(page, legal[0])
    settle(page, before)


def start_against(page: Any, server: str, computer: str) -> str:
    page.goto(server + "/")
    enemy = enemy_of(page.evaluate("async () => (await fetch('/api/games')).json()"), "us")
    page.select_option("#game-select", "deluxe")
    page.select_option("select[data-side=us]", "human")
    page.select_option(f"select[data-side={enemy}]", computer)
    page.click("#create")
    wait_my_turn(page)
    return enemy


def test_two_turns_against_the_normal_computer(server: str, tab: Page) -> None:
    page = tab.page
    start_against(page, server, "normal")
    expect(page.locator("#key-hints")).to_contain_text("end phase")
    # DG hides things, but against the computer alone the whole record downloads mid-game
    with page.expect_download() as download:
        page.locator("#download").click()
    assert download.value.suggested_filename.endswith(".jsonl")
    expect(page.locator("#action-error")).to_be_empty()
    expect(page.locator("#download")).to_be_enabled()
    first_turn = seat(page)["view"]["turn"]
    moved: set[str] = set()
    checked = 0
    for _ in range(160):
        message = seat(page)
        if message["terminal"]:
            break
        assert_nothing_hidden_drawn(page, message)
        checked += 1
        combat = re.search(r"assault|fire", page.locator("#log").inner_text(), re.IGNORECASE)
        if message["view"]["turn"] >= first_turn + 2 and combat:
            break
        one_step(page, message, moved)
    message = seat(page)
    tab.shot("dg-two-turns")
    assert message["view"]["turn"] >= first_turn + 2 or message["terminal"]
    expect(page.locator("#board-svg [data-turn] rect[fill='#facc15']")).to_have_count(1)
    now = page.locator("#board-svg [data-turn]:has(rect[fill='#facc15'])").get_attribute("data-turn")
    assert int(str(now)) == message["view"]["turn"]
    assert re.search(r"assault|fire", page.locator("#log").inner_text(), re.IGNORECASE), "no combat in the log"
    assert checked > 10
    assert tab.errors == []


def ends_this_turn(state: Any) -> bool:
    """Whether the game ends by the end of the current turn when both sides only end their
    phases (or take the first choice offered): tried on a copy."""
    trial = state.clone()
    turn = trial.view("us")["turn"]
    for _ in range(400):
        if trial.is_terminal():
            return True
        if trial.view("us")["turn"] != turn:
            return False
        actions = [str(a) for a in trial.legal_actions()]
        trial.apply(next((a for a in ("end", "pass", "stop") if a in actions), actions[0]))
    return False


def late_record() -> GameRecord:
    """Random play until the US takes its last step of a turn (DG 4.0) at whose end the game
    is over (DG 9.4: more than sixty victory points, or the last turn): only the other side's
    artillery fire and combat are left before the result."""
    game = games.get("deluxe")
    enemy = next(s for s in game.sides if s != "us")
    data = game.client_data()
    last_us_step = [s["id"] for s in data["sequence"] if s["side"] == "us"][-1]
    limit = int(data.get("constants", {}).get("vp_to_win", 61))
    last = int(data.get("constants", {}).get("turns", 26))

    def done(state: Any, side: str | None, actions: list[str], events: Any) -> bool:
        view = state.view("us")
        near = view["turn"] >= last or abs(view["vp"]) >= limit
        return side == "us" and view["step"] == last_us_step and near and ends_this_turn(state)

    return play_until("deluxe", {"us": "human", enemy: "normal"}, done, limit=6000, what="a late DG position")[0]


def test_a_late_position_to_the_result(server: str, browser: Any, tmp_path: Path) -> None:
    tab = Page(browser, 1920, 1080)  # the large screen here, 1366 x 768 in the test above
    page = tab.page
    try:
        open_record(page, server, tmp_path / "late-dg.jsonl", late_record())
        moved: set[str] = set()
        for _ in range(150):
            message = seat(page)
            if message["terminal"]:
                break
            assert_nothing_hidden_drawn(page, message)
            one_step(page, message, moved)
        expect(page.locator("#status")).to_contain_text("Game over")
        banner = page.locator("#result-banner")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text(re.compile(r"You win|You lose|a draw"))
        expect(banner.locator(".why")).to_contain_text("DG 9")
        tab.shot("dg-result")
        assert tab.errors == []
    finally:
        tab.close()
