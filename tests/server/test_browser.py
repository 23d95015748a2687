"""End to end in a real headless Chromium (Debian's, driven by Playwright for Python):
the lobby, a game against the computer played by clicks and keys, reload, replay,
two browsers playing each other by invite links. Screenshots go to test-artifacts/."""

from __future__ import annotations

import re
from typing import Any

from tests.server.browser_support import (  # fixtures are used by name
    Page,
    browser,
    expect,
    log_count,
    server,
    tab,
    then_my_turn,
    wait_my_turn,
)

__all__ = ["browser", "server", "tab"]


def toy_hotseat(page: Any, server: str) -> None:
    """A toy match with both sides played here (no computer, no chance of an early end)."""
    page.goto(server + "/")
    page.select_option("#game-select", "toy")
    page.select_option("select[data-side=blue]", "human")
    page.check("#hotseat")
    page.click("#create")
    wait_my_turn(page)


def test_a_game_against_the_computer_survives_a_reload(server: str, tab: Page) -> None:
    page = tab.page
    page.goto(server + "/")
    page.select_option("#game-select", "toy")
    page.select_option("select[data-side=blue]", "random")
    tab.shot("lobby")
    page.click("#create")
    page.wait_for_url(re.compile(r"/play#"))
    wait_my_turn(page)
    tab.shot("game-start")
    # play by clicking the board, by clicking the list, and by typing

    def typed() -> None:
        page.keyboard.press("/")
        page.keyboard.type("hold")
        page.keyboard.press("Enter")

    steps = [
        lambda: page.click("g.toy-button[data-action=roll]"),
        lambda: page.locator("#action-list li", has_text="hold").click(),
        typed,
    ]
    for step in steps:
        before = log_count(page)
        step()
        if not then_my_turn(page, before):
            break  # the computer won
    expect(page.locator("#log li").first).to_contain_text("red")
    tab.shot("game-played")
    before = log_count(page)
    status = page.locator("#status").inner_text()
    assert before >= 2
    page.reload()
    wait_my_turn(page)
    expect(page.locator("#log li")).to_have_count(before)
    assert page.locator("#status").inner_text() == status
    tab.shot("game-reloaded")
    # the game is listed in the lobby
    page.goto(server + "/")
    expect(page.locator("#mine-table tbody tr")).to_have_count(1)
    expect(page.locator("#mine-table")).to_contain_text(re.compile("your turn|finished"))
    tab.shot("lobby-my-games")
    assert tab.errors == []


def test_the_page_shows_an_action_on_its_way_and_sends_no_other_meanwhile(server: str, tab: Page) -> None:
    page = tab.page
    toy_hotseat(page, server)
    held: list[Any] = []
    page.route("**/api/seat/actions", lambda route: held.append(route))  # a slow server: it waits here
    page.click("g.toy-button[data-action=hold]")
    page.wait_for_function("document.body.classList.contains('sending')")
    page.click("g.toy-button[data-action=roll]")  # a second action while the first is on its way
    page.wait_for_timeout(200)
    assert len(held) == 1 and "hold" in (held[0].request.post_data or "")
    expect(page.locator("#action-error")).to_contain_text("not sent: roll")  # said, not dropped in silence
    held[0].continue_()
    expect(page.locator("#log li")).to_have_count(1)
    expect(page.locator("body")).not_to_have_class(re.compile("sending"))
    expect(page.locator("#action-error")).to_have_text("")
    assert "hold" in page.locator("#log li").first.inner_text()
    assert tab.errors == []


def test_replay_steps_back_and_forward(server: str, tab: Page) -> None:
    page = tab.page
    toy_hotseat(page, server)
    for count in (1, 2):
        page.click("g.toy-button[data-action=hold]")
        expect(page.locator("#log li")).to_have_count(count)
        wait_my_turn(page)
    steps = log_count(page)
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#status")).to_contain_text(f"Replay at step {steps - 1} of {steps}")
    expect(page.locator("#replay-flag")).to_be_visible()
    expect(page.locator("#action-input")).to_be_disabled()
    page.keyboard.press("Home")
    expect(page.locator("#status")).to_contain_text(f"Replay at step 0 of {steps}")
    tab.shot("replay-start")
    page.click("#r-fwd")
    expect(page.locator("#status")).to_contain_text(f"Replay at step 1 of {steps}")
    expect(page.locator("#log li.current")).to_have_count(1)
    page.keyboard.press("Escape")
    expect(page.locator("#replay-flag")).to_be_hidden()
    expect(page.locator("#action-input")).to_be_enabled()
    assert tab.errors == []


def test_a_game_without_a_renderer_is_shown_as_text(server: str, tab: Page) -> None:
    page = tab.page
    page.goto(server + "/")
    page.select_option("#game-select", "stricttoy")
    page.select_option("select[data-side=blue]", "random")
    page.click("#create")
    wait_my_turn(page)
    expect(page.locator("#board-text")).to_contain_text("scores")
    expect(page.locator("#board-svg")).to_be_hidden()
    page.locator("#action-list li", has_text="hold").click()  # illegal: STRICT 1
    expect(page.locator("#action-error")).to_contain_text("STRICT 1")
    tab.shot("generic-board-illegal-action")
    # Chromium logs every 4xx answer; the refused action is the only one allowed
    assert [e for e in tab.errors if "status of 422" not in e] == []


def test_two_browsers_play_each_other_by_invite_links(server: str, browser: Any) -> None:
    """The creator gets its own seat and an invite for the other: the invitee takes the seat
    from the invite link (pasted in the lobby), and the seat is the invitee's alone."""
    red, blue = Page(browser, 1280, 720), Page(browser, 1440, 900)
    try:
        page = red.page
        page.goto(server + "/")
        page.select_option("#game-select", "toy")
        page.select_option("select[data-side=blue]", "human")
        page.click("#create")
        expect(page.locator("#invites")).to_be_visible()
        red.shot("invite-links")
        expect(page.locator("#invite-links .invite[data-kind=invite]")).to_have_count(1)
        blue_link = page.locator("#invite-links .invite[data-side=blue] input").input_value()
        assert "/play#invite=" in blue_link
        page.click("#open-mine")
        wait_my_turn(page)
        page.click("g.toy-button[data-action=hold]")
        expect(page.locator("#status")).to_contain_text("waiting for blue to join")
        blue.page.goto(server + "/")
        blue.page.fill("#link-input", blue_link)
        blue.page.click("#open-form button")
        expect(blue.page.locator("#join")).to_contain_text("you are invited to play blue")
        expect(blue.page.locator("#join")).to_contain_text("committed")
        blue.shot("invite-join")
        blue.page.click("#take-seat")
        blue.page.wait_for_url(re.compile(r"/play#(?!invite=)"))
        expect(blue.page.locator("#status")).to_contain_text("your decision")
        expect(blue.page.locator("#log li")).to_have_count(1)
        expect(blue.page.locator("#dice-proof")).to_contain_text("mixed with red, blue")
        blue.shot("blue-to-act")
        # the creator's lobby no longer offers the used invite
        page.goto(server + "/")
        expect(page.locator("#mine-table tbody tr")).to_have_count(1)
        expect(page.locator("#mine-table")).not_to_contain_text("invite")
        assert red.errors == [] and blue.errors == []
    finally:
        red.close()
        blue.close()


def test_hot_seat_follows_the_turn_on_one_screen(server: str, tab: Page) -> None:
    page = tab.page
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(server + "/")
    page.select_option("#game-select", "toy")
    page.select_option("select[data-side=blue]", "human")
    page.check("#hotseat")
    page.click("#create")
    page.wait_for_url(re.compile(r"/play#"))
    expect(page.locator("#title")).to_contain_text("playing red")
    wait_my_turn(page)
    expect(page.locator("#seat-switch")).to_be_visible()
    page.click("g.toy-button[data-action=hold]")
    expect(page.locator("#title")).to_contain_text("playing blue")
    wait_my_turn(page)
    expect(page.locator("#log li")).to_have_count(1)
    tab.shot("hot-seat-blue")
    assert tab.errors == []


def test_a_hex_map_game_is_drawn_and_moved_by_clicks(server: str, tab: Page) -> None:
    page = tab.page
    page.goto(server + "/")
    page.select_option("#game-select", "hextoy")
    page.select_option("select[data-side=blue]", "random")
    page.click("#create")
    wait_my_turn(page)
    expect(page.locator("#board-svg polygon.hex")).to_have_count(15)
    expect(page.locator("#board-svg [data-kind=river]")).to_have_count(1)
    expect(page.locator("#board-svg polygon[data-hex='0203'] title")).to_contain_text("0203")
    page.click("#board-svg [data-counter=r1]")
    expect(page.locator("#action-input")).to_have_value("r1")
    reach = page.locator("#board-svg polygon.reach")
    expect(reach).to_have_count(page.locator("#action-list li").count())  # each move's hex
    assert reach.count() >= 2
    tab.shot("hex-map-selected")
    target = reach.first.get_attribute("data-hex")
    page.click(f"#board-svg polygon[data-hex='{target}']", force=True)
    expect(page.locator("#log li").first).to_contain_text(f"r1 {target}")
    then_my_turn(page, 1)
    tab.shot("hex-map-moved")
    assert tab.errors == []
