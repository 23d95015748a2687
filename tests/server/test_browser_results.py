"""Results in the browser: every roll says what it came to in the log (an AAG attack fought by
itself, where the first player has nothing to fire with, and a DG artillery fire, a miss
included), and a game of hidden information resumed from both seats' copies uploaded together
in the lobby. Screenshots in test-artifacts/."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from henderson import games
from henderson.core.record import record_for
from tests.server.browser_support import (  # fixtures are used by name
    Page,
    browser,
    expect,
    log_count,
    open_record,
    server,
    tab,
)

__all__ = ["browser", "server", "tab"]

PLAYERS = {"us": "human", "jp": "random"}


def act(page: Any, action: str) -> None:
    """Type `action` into the action box and wait for its log entry."""
    before = log_count(page)
    page.locator("#action-input").fill(action)
    page.locator("#action-input").press("Enter")
    page.wait_for_function(f"document.querySelectorAll('#log li').length > {before}")


@pytest.mark.skipif("aag" not in games.names(), reason="Axis & Allies: Guadalcanal is not installed")
def test_aag_attack_fought_by_itself_shows_its_result(server: str, tab: Page, tmp_path: Path) -> None:
    from tests.aag.helpers import piece, position

    pieces = [
        piece("us1", "transport", "H"),
        piece("jp1", "destroyer", "H"),
        piece("us2", "destroyer", "E"),
        piece("jp2", "destroyer", "E"),
    ]
    game = games.get("aag")
    start = game.load_state(position(pieces, step="combat:sea", first="us", airfields=[]).to_json())
    page = tab.page
    open_record(page, server, tmp_path / "aag.jsonl", record_for(game, start, PLAYERS, from_position=True))
    expect(page.locator("#action-list")).to_contain_text("fight E")
    expect(page.locator("#action-list")).not_to_contain_text("fight H")  # nothing of ours fires there
    act(page, "fight E")
    entry = page.locator("#log li").last
    expect(entry).to_contain_text(re.compile(r"us's attack on sea units in E: 1 dice, (no hits|1 hit)"))
    expect(entry).to_contain_text(re.compile(r"jp's attack on sea units in H: 1 dice, (no hits|1 hit)"))
    tab.shot("aag-attack-results")
    assert tab.errors == []


@pytest.mark.skipif("deluxe" not in games.names(), reason="Deluxe Guadalcanal is not installed")
def test_deluxe_artillery_fire_shows_its_result(server: str, tab: Page, tmp_path: Path) -> None:
    from tests.deluxe.support import GAME, position

    units = {"2/2": "3707", "10/3": "3508", "90": "4010", "124/2": "3708", "20Mt": "3911"}
    fields = {"supply": {"us": 3, "jp": 3}, "henderson_field": {"status": 20, "control": "us"}}
    start = GAME.load_state(position(15, "us_fire_2", units, **fields))
    page = tab.page
    open_record(page, server, tmp_path / "dg.jsonl", record_for(GAME, start, PLAYERS, from_position=True))
    act(page, "fire 90 3708 3")
    entry = page.locator("#log li", has_text="fire 90 3708 3")
    expect(entry).to_contain_text(
        re.compile(r"DG 8\.1\.5 artillery fire at 3708: (no effect|\d steps? lost) \(dice \d, \d, \d; 1 needed to hit")
    )
    tab.shot("dg-artillery-result")
    assert tab.errors == []


def post(url: str, body: Any, token: str | None = None) -> Any:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())


def get(url: str, token: str) -> Any:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request) as answer:
        return answer.read().decode()


@pytest.mark.skipif("deluxe" not in games.names(), reason="Deluxe Guadalcanal is not installed")
def test_both_seat_copies_uploaded_together_resume(server: str, tab: Page, tmp_path: Path) -> None:
    made = post(server + "/api/matches", {"game": "deluxe", "hotseat": True})
    for _ in range(4):
        side = json.loads(get(server + "/api/seat", made["spectator"]))["current_player"]
        token = made["seats"][side]
        mine = json.loads(get(server + "/api/seat", token))
        post(server + "/api/seat/actions", {"action": mine["legal_actions"][0], "ply": mine["ply"]}, token)
    copies = []
    for side in ("us", "jp"):
        path = tmp_path / f"{side}.jsonl"
        path.write_text(get(server + "/api/seat/record", made["seats"][side]))
        copies.append(str(path))
    page = tab.page
    page.goto(f"{server}/play#{made['seats']['us']}")
    expect(page.locator("#download")).to_be_enabled()
    with page.expect_download() as download:
        page.locator("#download").click()
    assert download.value.suggested_filename == f"deluxe-{made['match']}-us-seat-copy.jsonl"
    page.goto(server + "/")
    page.set_input_files("#record-file", copies[:1])
    page.click("#upload-form button")
    expect(page.locator("#upload-error")).to_contain_text("the copy of jp is needed")
    page.set_input_files("#record-file", copies)
    page.check("#upload-hotseat")
    page.click("#upload-form button")
    page.wait_for_url(re.compile(r"/play#"))
    ply = json.loads(get(server + "/api/seat", made["spectator"]))["ply"]
    expect(page.locator("#log li")).to_have_count(ply)
    assert all("422" in e for e in tab.errors)  # only the refused upload of one copy
