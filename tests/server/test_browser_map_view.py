"""The map's view in a real browser: hex numbers (shown by default, a toggle remembered in
this browser) and place names on the FB map; wheel zoom, drag to pan (a drag plays nothing)
and "fit" on FB and AAG; DG counters inside their hexes with Henderson Field's marker over
them. Screenshots in test-artifacts/."""

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
    server,
    tab,
    wait_my_turn,
)

__all__ = ["browser", "server", "tab"]


def start(page: Any, server: str, game: str, human: str, computer: str) -> None:
    page.goto(server + "/")
    page.select_option("#game-select", game)
    page.select_option(f"select[data-side={human}]", "human")
    page.select_option(f"select[data-side={computer}]", "random")
    page.click("#create")
    page.wait_for_url(re.compile(r"/play#"))
    wait_my_turn(page)


def view_box(page: Any) -> list[float]:
    return [float(n) for n in str(page.locator("#board-svg").get_attribute("viewBox")).split()]


def zoom_and_pan(page: Any) -> None:
    """Wheel zoom in about the pointer, a drag pans without playing, fit shows it all."""
    full = view_box(page)
    box = page.locator("#board-svg").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(cx, cy)
    page.mouse.wheel(0, -600)
    page.wait_for_function("parseFloat(document.getElementById('board-svg').dataset.zoom) > 1.5")
    zoomed = view_box(page)
    assert zoomed[2] < full[2] * 0.7 and zoomed[3] < full[3] * 0.7
    before = log_count(page)
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(cx + 120, cy + 60, steps=6)
    page.mouse.up()
    panned = view_box(page)
    assert panned[0] < zoomed[0] and panned[2] == pytest.approx(zoomed[2])
    page.wait_for_timeout(500)
    assert log_count(page) == before, "a drag played an action"
    # the view is kept when the board is drawn again (an undo-free redraw: the help dialog)
    page.locator("#zoom-in").click()
    assert view_box(page)[2] < panned[2]
    page.locator("#zoom-fit").click()
    assert view_box(page) == pytest.approx(full)


def test_firstblood_hex_numbers_names_zoom_and_pan(server: str, tab: Page) -> None:
    if "firstblood" not in games.names():
        pytest.skip("FIRST BLOOD is not installed")
    page = tab.page
    start(page, server, "firstblood", "us", "jp")
    hexes = len(games.get("firstblood").client_data()["hexes"])
    numbers = page.locator("#board-svg text.hex-id")
    expect(numbers).to_have_count(hexes)
    expect(page.locator("#board-svg text.hex-id", has_text="0509")).to_be_visible()
    expect(page.locator("#board-svg text.place-name", has_text="Henderson Field")).to_be_visible()
    tab.shot("fb-hex-numbers")
    page.locator("#hex-ids").click()
    expect(page.locator("#board-svg text.hex-id").first).to_be_hidden()
    page.reload()
    wait_my_turn(page)
    expect(page.locator("#board-svg text.hex-id").first).to_be_hidden()  # remembered
    page.locator("#hex-ids").click()
    expect(page.locator("#board-svg text.hex-id").first).to_be_visible()
    zoom_and_pan(page)
    assert tab.errors == []


def test_aag_zoom_and_pan(server: str, tab: Page) -> None:
    if "aag" not in games.names():
        pytest.skip("Axis & Allies: Guadalcanal is not installed")
    page = tab.page
    start(page, server, "aag", "us", "jp")
    expect(page.locator("#hex-ids")).to_be_hidden()  # no hexes
    zoom_and_pan(page)
    assert tab.errors == []


def test_deluxe_counters_fit_their_hexes(server: str, tab: Page) -> None:
    if "deluxe" not in games.names():
        pytest.skip("Deluxe Guadalcanal is not installed")
    page = tab.page
    start(page, server, "deluxe", "us", "jp")
    expect(page.locator("#board-svg text.hex-id").first).to_be_attached()
    size = page.evaluate(
        """() => {
      const hex = document.querySelector('#board-svg polygon.hex[data-hex]').getBBox();
      const counter = document.querySelector('#board-svg g.counter rect').getBBox();
      return [hex.height, counter.width, counter.height];
    }"""
    )
    assert size[1] < size[0] * 0.75 and size[2] < size[0] * 0.75, size
    # Henderson Field's marker is drawn over the counters
    order = page.evaluate(
        """() => [...document.querySelectorAll('#board-svg > g')].map((g) => g.getAttribute('class'))"""
    )
    assert order.index("hf-mark") > order.index("counters"), order
    expect(page.locator("#board-svg .hf-mark text", has_text="HF")).to_be_attached()
    tab.shot("dg-counters-in-hexes")
    assert tab.errors == []
