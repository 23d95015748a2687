"""Phones and tablets in a real browser (390×844, 768×1024): the lobby with a game listed and
its invite links, and a FIRST BLOOD game page, never wider than the screen; the map on top,
big enough to play, the selection panel under it. Screenshots in test-artifacts/."""

from __future__ import annotations

import re
from typing import Any

import pytest

from henderson import games
from tests.server.browser_support import (  # fixtures are used by name
    Page,
    browser,
    expect,
    server,
    wait_my_turn,
)

__all__ = ["browser", "server"]

SIZES = [(390, 844), (768, 1024)]
WIDE = "() => document.documentElement.scrollWidth - window.innerWidth"


@pytest.mark.parametrize("size", SIZES)
def test_small_screens(server: str, browser: Any, size: tuple[int, int]) -> None:
    game = "firstblood" if "firstblood" in games.names() else "toy"
    tab = Page(browser, *size)
    page = tab.page
    try:
        page.goto(server + "/")
        page.select_option("#game-select", game)
        sides = page.locator("#sides select")
        page.select_option(f"select[data-side={sides.nth(1).get_attribute('data-side')}]", "human")
        page.click("#create")  # two humans, not on one screen: an invite link is shown
        expect(page.locator("#invite-links")).to_be_visible()
        page.goto(server + "/")
        expect(page.locator("#mine-table")).to_be_visible()
        assert page.evaluate(WIDE) <= 0, "the lobby is wider than the screen"
        tab.shot(f"lobby-{size[0]}x{size[1]}")
        page.locator("#mine-table a[href^='/play#']").first.click()
        page.wait_for_url(re.compile(r"/play#"))
        wait_my_turn(page)
        assert page.evaluate(WIDE) <= 0, "the game page is wider than the screen"
        board = page.locator("#board-svg").bounding_box()
        assert board["width"] >= size[0] - 40, board
        expect(page.locator("#zoom-in")).to_be_visible()  # and pinch: a small map zooms
        if game == "firstblood":
            page.locator("#action-list li", has_text="setup default").click()
            page.locator("#board-svg g.counter").first.dispatch_event("click")
            panel = page.locator("#board-panel")
            expect(panel).to_be_visible()
            assert panel.bounding_box()["y"] >= page.locator("#board").bounding_box()["y"] + board["height"] - 2
        assert page.evaluate(WIDE) <= 0
        tab.shot(f"fb-{size[0]}x{size[1]}")
        assert tab.errors == []
    finally:
        tab.close()


def test_deluxe_on_a_phone(server: str, browser: Any) -> None:
    if "deluxe" not in games.names():
        pytest.skip("Deluxe Guadalcanal is not installed")
    tab = Page(browser, 390, 844)
    page = tab.page
    try:
        page.goto(server + "/")
        page.select_option("#game-select", "deluxe")
        page.select_option("select[data-side=us]", "human")
        page.select_option("select[data-side=jp]", "random")
        page.click("#create")
        page.wait_for_url(re.compile(r"/play#"))
        wait_my_turn(page)
        board = page.locator("#board-svg").bounding_box()
        assert board["width"] >= 350 and board["height"] >= 844 * 0.4, board
        assert float(str(page.locator("#board-svg").get_attribute("data-zoom"))) > 1  # zoomed in
        assert page.evaluate(WIDE) <= 0
        tab.shot("dg-390x844")
        assert tab.errors == []
    finally:
        tab.close()
