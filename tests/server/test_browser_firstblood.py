"""FIRST BLOOD in the browser: the map drawn, a unit moved by clicking, the odds of an attack
seen before resolving it, play to the end of a turn, a reload. Screenshots in test-artifacts/."""

from __future__ import annotations

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
    server,
    tab,
    wait_my_turn,
)

if "firstblood" not in games.names():
    pytest.skip("FIRST BLOOD is not installed", allow_module_level=True)

from tests.server.records import record_until_us_attack

__all__ = ["browser", "server", "tab"]


def legal(page: Any) -> list[str]:
    return [str(t) for t in page.locator("#action-list li:not(.more)").all_inner_texts()]


def play_listed(page: Any, action: str) -> None:
    """Play an action from the list and wait until this seat decides again (or the end)."""
    before = log_count(page)
    page.locator("#action-input").fill(action)
    page.locator("#action-input").press("Enter")
    page.wait_for_function(f"document.querySelectorAll('#log li').length > {before}", timeout=20000)
    wait_my_turn(page)
    page.wait_for_function(
        "!document.getElementById('action-input').disabled"
        " || document.getElementById('status').textContent.includes('Game over')",
        timeout=30000,
    )


def test_firstblood_move_by_clicking(server: str, tab: Page) -> None:
    page = tab.page
    page.goto(server + "/")
    page.select_option("#game-select", "firstblood")
    page.select_option("select[data-side=jp]", "random")
    page.click("#create")
    wait_my_turn(page)
    expect(page.locator("#board-svg polygon.hex")).to_have_count(len(games.get("firstblood").client_data()["hexes"]))
    expect(page.locator("#board-svg [data-kind=river]").first).to_be_attached()
    expect(page.locator("#board-svg [data-airfield='0708']")).to_have_attribute("data-status", "operational")
    expect(page.locator("#status")).to_contain_text("SEP I · US set-up")
    tab.shot("fb-setup")
    play_listed(page, "setup default")
    # on to the US movement phase, ending phases as they come
    for _ in range(40):
        if "US movement" in page.locator("#status").inner_text():
            break
        actions = legal(page)
        play_listed(page, "end" if "end" in actions else actions[0])
    expect(page.locator("#status")).to_contain_text("US movement")
    mover = next(a for a in legal(page) if a.startswith("move ")).split()[1]
    page.locator(f"#board-svg [data-counter='{mover}']").first.click()
    expect(page.locator("#board-panel")).to_contain_text(mover)
    reach = page.locator("#board-svg polygon.reach")
    expect(reach.first).to_be_attached()
    expect(page.locator("#board-svg text.cost").first).to_be_attached()  # costs from the server
    tab.shot("fb-unit-selected")
    target = reach.first.get_attribute("data-hex")
    before = log_count(page)
    page.locator(f"#board-svg polygon[data-hex='{target}']").dispatch_event("click")
    page.wait_for_function(f"document.querySelectorAll('#log li').length > {before}")
    expect(page.locator("#log li").last).to_contain_text(f"move {mover} {target}")
    tab.shot("fb-unit-moved")
    expect(page.locator("#undo")).to_be_enabled()
    page.locator("#board-svg").click(position={"x": 5, "y": 5})  # focus away from the action box
    page.keyboard.press("u")  # take the move back
    expect(page.locator("#log li")).to_have_count(before)
    page.locator(f"#board-svg [data-counter='{mover}']").first.click()
    page.locator(f"#board-svg polygon[data-hex='{target}']").dispatch_event("click")
    expect(page.locator("#log li")).to_have_count(before + 1)
    status = page.locator("#status").inner_text()
    count = log_count(page)
    page.reload()
    wait_my_turn(page)
    expect(page.locator("#log li")).to_have_count(count)
    assert page.locator("#status").inner_text() == status
    assert tab.errors == []


def test_firstblood_attack_odds_then_the_end_of_the_turn(server: str, tab: Page, tmp_path: Path) -> None:
    page = tab.page
    open_record(page, server, tmp_path / "combat.jsonl", record_until_us_attack())
    expect(page.locator("#status")).to_contain_text("US combat")
    attackable = page.locator("#board-svg polygon.attackable")
    expect(attackable.first).to_be_attached()
    before = log_count(page)
    attackable.first.dispatch_event("click")
    page.wait_for_function(f"document.querySelectorAll('#log li').length > {before}")
    expect(page.locator("#board-panel")).to_contain_text("Attack on")
    page.locator("#board-panel button[data-action^='add ']").first.click()
    expect(page.locator("#board-panel .odds-box")).to_contain_text("Odds", timeout=10000)
    expect(page.locator("#board-panel .odds-box table tr")).not_to_have_count(1)
    assert "null" not in page.locator("#board-panel").inner_text()
    tab.shot("fb-attack-odds")
    turn = page.locator("#status").inner_text().split(" · ")[0]
    # resolve, then play on (ending phases, answering losses) until the turn changes
    for _ in range(150):
        status = page.locator("#status").inner_text()
        if status.split(" · ")[0] != turn or "Game over" in status:
            break
        actions = legal(page)
        if not actions:
            wait_my_turn(page)
            continue
        choice = next((a for a in ("resolve", "end") if a in actions), actions[0])
        play_listed(page, choice)
    status = page.locator("#status").inner_text()
    assert status.split(" · ")[0] != turn or "Game over" in status
    pinned = "li => li.getBoundingClientRect().bottom <= li.parentElement.getBoundingClientRect().bottom + 2"
    assert page.locator("#log li").last.evaluate(pinned)  # the log follows the game
    tab.shot("fb-next-turn")
    assert tab.errors == []
