"""Chat between the seats of a match, in two real browsers: a message sent from one seat
shows beside the other's log as plain text (markup is not run), a spectator reads but does
not write, and a message is cut to its limit and cleaned (GET/POST /api/seat/chat); a message
comes pushed over the other seat's WebSocket, with no chat read by that seat."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from typing import Any

from henderson.server.chat import MESSAGE_LIMIT
from tests.server.browser_support import (  # fixtures are used by name
    Page,
    browser,
    expect,
    server,
)

__all__ = ["browser", "server"]


def call(url: str, method: str = "GET", token: str | None = None, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def test_two_seats_chat_beside_the_log(server: str, browser: Any) -> None:
    status, made = call(
        server + "/api/matches",
        "POST",
        body={"game": "toy", "players": {"red": "human", "blue": "human"}, "hotseat": True},
    )
    assert status == 201, made
    red, blue = made["seats"]["red"], made["seats"]["blue"]
    one, two = Page(browser), Page(browser, 390, 844)
    try:
        one.page.goto(f"{server}/play#{red}")
        two.page.goto(f"{server}/play#{blue}")
        expect(one.page.locator("#chat-empty")).to_be_visible()
        words = "attack at dawn <img src=x onerror=alert(1)>"
        one.page.locator("#chat-input").fill(words)
        one.page.locator("#chat-input").press("Enter")
        expect(one.page.locator("#chat li.mine")).to_contain_text("attack at dawn")
        line = two.page.locator("#chat li").first
        expect(line).to_contain_text(words)  # the markup shows as text
        expect(line.locator(".who")).to_have_text("red")
        assert two.page.locator("#chat img").count() == 0
        expect(two.page.locator("#chat-empty")).to_be_hidden()
        two.page.locator("#chat-input").fill("no")
        two.page.locator("#chat-form button").click()
        expect(one.page.locator("#chat li")).to_have_count(2, timeout=15000)
        two.shot("chat-phone")
        assert one.errors == [] and two.errors == []
    finally:
        one.close()
        two.close()
    # the server keeps plain text of a limited size; a spectator reads only
    status, said = call(server + "/api/seat/chat", "POST", red, {"text": "a\x00b\n\n" + "x" * (2 * MESSAGE_LIMIT)})
    assert status == 201 and said["text"].startswith("ab x") and len(said["text"]) == MESSAGE_LIMIT
    status, said = call(server + "/api/seat/chat", "POST", red, {"text": " \n\t "})
    assert status == 422
    status, said = call(server + "/api/seat/chat", "POST", made["spectator"], {"text": "hello"})
    assert status == 403
    status, read = call(server + "/api/seat/chat?after=0", token=made["spectator"])
    assert status == 200 and [m["side"] for m in read["messages"]] == ["red", "blue", "red"]
    assert re.fullmatch(r"\d{4}-.*", read["messages"][0]["at"])


def test_a_message_is_pushed_to_the_other_seat_without_polling(server: str, browser: Any) -> None:
    status, made = call(
        server + "/api/matches",
        "POST",
        body={"game": "toy", "players": {"red": "human", "blue": "human"}, "hotseat": True},
    )
    assert status == 201, made
    red, blue = made["seats"]["red"], made["seats"]["blue"]
    one, two = Page(browser), Page(browser)
    try:
        one.page.goto(f"{server}/play#{red}")
        two.page.goto(f"{server}/play#{blue}")
        for page in (one.page, two.page):
            expect(page.locator("#chat-empty")).to_be_visible()
            expect(page.locator("#conn")).to_have_text("live")
        reads: list[str] = []

        def refuse(route: Any) -> None:  # the blue seat may not read the chat any more
            reads.append(route.request.url)
            route.abort()

        two.page.route(re.compile(r"/api/seat/chat\?"), refuse)
        one.page.locator("#chat-input").fill("pushed, not polled")
        one.page.locator("#chat-input").press("Enter")
        expect(two.page.locator("#chat li")).to_have_text(re.compile("pushed, not polled"), timeout=10000)
        two.page.wait_for_timeout(500)
        assert reads == []  # the socket is up: no poll, no read
        two.page.unroute(re.compile(r"/api/seat/chat\?"))
        assert one.errors == [] and two.errors == []
    finally:
        one.close()
        two.close()


def test_with_its_socket_down_a_seat_polls_the_chat(server: str, browser: Any) -> None:
    status, made = call(
        server + "/api/matches",
        "POST",
        body={"game": "toy", "players": {"red": "human", "blue": "human"}, "hotseat": True},
    )
    assert status == 201, made
    red, blue = made["seats"]["red"], made["seats"]["blue"]
    two = Page(browser)
    try:
        two.page.route_web_socket(re.compile(r"/api/ws$"), lambda ws: ws.close())  # never connects
        two.page.goto(f"{server}/play#{blue}")
        expect(two.page.locator("#chat-empty")).to_be_visible()
        expect(two.page.locator("#conn")).to_have_text("offline")
        status, _ = call(server + "/api/seat/chat", "POST", red, {"text": "by the poll"})
        assert status == 201
        expect(two.page.locator("#chat li")).to_have_text(re.compile("by the poll"), timeout=15000)
    finally:
        two.close()
