"""Chat between the seats of a match, in two real browsers: a message sent from one seat
shows beside the other's log as plain text (markup is not run), a spectator reads but does
not write, and a message is cut to its limit and cleaned (GET/POST /api/seat/chat)."""

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
