"""Two people play FIRST BLOOD against each other from the two invite links, each in a browser
of their own, and a third watches from the spectator link: each page sees the other's moves
live (WebSocket), the page that waits and the spectator's cannot act. Screenshots in
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
    server,
)

if "firstblood" not in games.names():
    pytest.skip("FIRST BLOOD is not installed", allow_module_level=True)

from tests.server.test_browser_play_firstblood import legal, log_grew, one_step, seat

__all__ = ["browser", "server"]


def invites(page: Any, server: str) -> dict[str, str]:
    """Start a FIRST BLOOD game of two humans from the lobby: side (or "spectator") -> link."""
    page.goto(server + "/")
    page.select_option("#game-select", "firstblood")
    page.select_option("select[data-side=us]", "human")
    page.select_option("select[data-side=jp]", "human")
    page.click("#create")
    expect(page.locator("#invite-links .invite")).to_have_count(3)
    links = {}
    for row in page.locator("#invite-links .invite").all():
        links[row.locator("span").first.inner_text().strip()] = row.locator("input").input_value()
    return links


def center(box: dict[str, float]) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def assert_cannot_act(tab: Page) -> None:
    """A page that waits (or watches): nothing to play, no end-phase button, and neither a key
    nor a click on the map plays anything."""
    page = tab.page
    expect(page.locator("#action-input")).to_be_disabled()
    expect(page.locator("#end-phase")).to_be_hidden()
    expect(page.locator("#undo")).to_be_disabled()
    assert page.locator("#action-list li").count() == 0
    before = log_count(page)
    page.locator("#board-svg").click(position={"x": 3, "y": 60})
    page.keyboard.press("e")
    page.locator("#board-svg polygon.hex").first.dispatch_event("click")
    page.wait_for_timeout(300)
    assert log_count(page) == before


def test_two_browsers_and_a_spectator_play_a_turn(server: str, browser: Any) -> None:
    host = Page(browser)
    links = invites(host.page, server)
    assert set(links) == {"us", "jp", "spectator"}
    host.close()
    pages = {side: Page(browser) for side in ("us", "jp", "spectator")}  # three separate browsers
    try:
        for side, tab in pages.items():
            tab.page.goto(links[side])
            expect(tab.page.locator("#conn")).to_have_text("live")
        us, jp, watcher = pages["us"].page, pages["jp"].page, pages["spectator"].page
        expect(us.locator("#turn-badge")).to_have_text("your turn (us)")
        expect(jp.locator("#turn-badge")).to_have_text("us to play")
        expect(watcher.locator("#turn-badge")).to_have_text("us to play")
        expect(watcher.locator("#title")).to_contain_text("spectator")
        expect(watcher.locator("#action-input")).to_be_hidden()
        expect(watcher.locator("#key-hints")).not_to_contain_text("end phase")
        expect(jp.locator("#action-input")).to_have_attribute("placeholder", "waiting for us…")
        first_turn = seat(us)["view"]["turn"]
        moved_seen = False
        done: set[str] = set()
        for _ in range(120):
            message = seat(us)
            if message["view"]["turn"] != first_turn or message["terminal"]:
                break
            side = message["current_player"]
            acting, waiting = (pages["us"], pages["jp"]) if side == "us" else (pages["jp"], pages["us"])
            expect(acting.page.locator("#action-input")).to_be_enabled()
            assert_cannot_act(waiting)
            assert_cannot_act(pages["spectator"])
            steps = message["steps"]
            actions = legal(acting.page)
            mover = next((a.split()[1] for a in actions if a.startswith("move ")), None)
            phase = f"{message['view']['turn']} {message['view']['step']}"
            if mover and phase not in done and not moved_seen:
                done.add(phase)
                # a move by clicking; the other two pages see the counter go there, live
                acting.page.locator(f"#board-svg [data-counter='{mover}']").first.dispatch_event("click")
                reach = acting.page.locator("#board-svg polygon.reach").first
                target = reach.get_attribute("data-hex")
                reach.dispatch_event("click")
                for other in (waiting, pages["spectator"]):
                    expect(other.page.locator("#log li")).to_have_count(steps + 1)
                    expect(other.page.locator("#log li").last).to_contain_text(f"move {mover} {target}")
                    hex_box = other.page.locator(f"#board-svg polygon[data-hex='{target}']").bounding_box()
                    unit_box = other.page.locator(f"#board-svg [data-counter='{mover}']").first.bounding_box()
                    (hx, hy), (ux, uy) = center(hex_box), center(unit_box)
                    assert abs(hx - ux) < hex_box["width"] / 2 and abs(hy - uy) < hex_box["height"] / 2
                moved_seen = True
                pages["spectator"].shot("fb-invites-spectator")
                waiting.shot(f"fb-invites-{'jp' if side == 'us' else 'us'}-waiting")
                continue
            one_step(acting.page, done, phase, wait=log_grew)
            for other in (waiting, pages["spectator"]):
                expect(other.page.locator("#log li")).to_have_count(seat(us)["steps"])
        assert moved_seen
        assert seat(us)["view"]["turn"] != first_turn
        for tab in pages.values():
            expect(tab.page.locator("#board-svg rect[data-turn][fill='#facc15']")).not_to_have_attribute(
                "data-turn", games.get("firstblood").client_data()["turns"][first_turn - 1]  # the turn counts from 1
            )
            assert re.search(r"\d+ steps", tab.page.locator("#r-where").inner_text())
        pages["us"].shot("fb-invites-us-next-turn")
        for side, tab in pages.items():
            assert tab.errors == [], side
    finally:
        for tab in pages.values():
            tab.close()
