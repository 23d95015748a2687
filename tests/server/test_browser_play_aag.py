"""Axis & Allies: Guadalcanal played in a real browser through the page only, the Allies
against the `normal` computer player, from the first turn to the result screen: the end-phase
key, the roll key and the action box, the turn shown, no console error. Screenshot in
test-artifacts/."""

from __future__ import annotations

import re
from typing import Any

import pytest

from henderson import games
from tests.server.browser_support import (  # fixtures are used by name
    Page,
    browser,
    expect,
    log_count,
    seat,
    server,
    settle,
    tab,
    wait_my_turn,
)

if "aag" not in games.names():
    pytest.skip("Axis & Allies: Guadalcanal is not installed", allow_module_level=True)

__all__ = ["browser", "server", "tab"]

def press(page: Any, key: str) -> None:
    page.locator("#board-svg").click(position={"x": 3, "y": 3})  # focus off the action box
    page.keyboard.press(key)


def one_step(page: Any, legal: list[str], buys: list[int]) -> None:
    """One Allied decision: a purchase the first time one is offered each turn, else the
    end-phase key, the roll key, or the first action offered typed into the action box."""
    before = log_count(page)
    buy = next((a for a in legal if a.startswith("buy ")), None)
    if buy is not None and len(buys) < 3:
        buys.append(before)
        page.locator("#action-input").fill(buy)
        page.locator("#action-input").press("Enter")
    elif "end" in legal:
        if len(buys) % 2:
            page.locator("#end-phase").click()
        else:
            press(page, "e")
    elif "roll" in legal:
        press(page, "r")
    else:
        page.locator("#action-input").fill(legal[0])
        page.locator("#action-input").press("Enter")
    settle(page, before)


def test_a_whole_game_against_the_normal_computer(server: str, tab: Page) -> None:
    page = tab.page
    page.goto(server + "/")
    page.select_option("#game-select", "aag")
    page.select_option("select[data-side=us]", "human")
    page.select_option("select[data-side=jp]", "normal")
    page.click("#create")
    wait_my_turn(page)
    turns: set[Any] = set()
    buys: list[int] = []
    for _ in range(600):
        message = seat(page)
        if message["terminal"]:
            break
        turns.add(message["view"].get("turn"))
        one_step(page, [str(a) for a in message["legal_actions"]], buys)
    message = seat(page)
    assert message["terminal"], "the game did not end"
    expect(page.locator("#status")).to_contain_text("Game over")
    banner = page.locator("#result-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text(re.compile(r"You win|You lose|a draw"))
    expect(banner.locator(".why")).to_contain_text("victory points")
    # a typed purchase that the server refused would have left the log unchanged (settle)
    assert len(turns) >= 2 and buys, "a game of one turn, or nothing bought"
    tab.shot("aag-result")
    assert tab.errors == []
