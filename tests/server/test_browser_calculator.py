"""The battle calculator in a real browser, for each game: opened from the play page by a
player or a spectator, inputs changed, the exact distribution read, each rule a link to its
summary, a bad input named; and started from the last attack whose odds the seat was shown.
Screenshots in test-artifacts/."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from henderson import games
from tests.server.browser_support import (  # fixtures are used by name
    browser,
    expect,
    server,
    tab,
)

__all__ = ["browser", "server", "tab"]


def new_match(server: str, game: str) -> dict[str, Any]:
    body = json.dumps({"game": game, "hotseat": True}).encode()
    request = urllib.request.Request(server + "/api/matches", data=body, method="POST")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request) as answer:
        return dict(json.loads(answer.read()))


def open_calculator(page: Any, server: str, token: str) -> None:
    page.goto(f"{server}/play#{token}")
    expect(page.locator("#title")).not_to_be_empty()
    page.click("#calc-open")
    expect(page.locator("#calc-panel")).to_be_visible()
    expect(page.locator("#calc-result .calc-summary")).to_be_visible()


def set_input(page: Any, name: str, value: str | bool) -> None:
    control = page.locator(f"#calc-form [name='{name}']")
    if isinstance(value, bool):
        control.set_checked(value)
    elif control.evaluate("(e) => e.tagName") == "SELECT":
        control.select_option(value)
    else:
        control.fill(value)


def test_firstblood_calculator_for_a_spectator(server: str, tab: Any) -> None:
    """FB 8.4: 7 against 3 is 2-1; FB 8.7.1 jungle -1: A1 on a third of the rolls."""
    page = tab.page
    open_calculator(page, server, new_match(server, "firstblood")["spectator"])
    set_input(page, "ground", "7")
    set_input(page, "defence", "3")
    set_input(page, "terrain", "jungle")
    expect(page.locator("#calc-result .calc-summary")).to_contain_text("column 2-1 of the American Attack Table")
    row = page.locator("#calc-result .calc-outcomes tr", has_text="A1")
    expect(row).to_contain_text("1/3 (33.3%)")
    note = page.locator("#calc-result .calc-notes li", has_text="jungle")
    expect(note).to_contain_text("-1")
    expect(note.locator("button")).to_have_count(1)  # FB 8.7.1 opens its summary
    page.locator("#calc-result").scroll_into_view_if_needed()
    tab.shot("calculator-firstblood")
    set_input(page, "attacker", "jp")
    set_input(page, "bombers", "1")
    expect(page.locator("#calc-result .error")).to_contain_text("bombers:")
    assert tab.errors == [] or all("422" in e for e in tab.errors)


def test_firstblood_calculator_starts_from_the_last_attack_shown(server: str, tab: Any) -> None:
    """The odds of the FB 4.4 ford attack (1/1 on 0910, jungle, behind the river) fill the form
    and the calculator gives the same column and results."""
    game = games.get("firstblood")
    position = {"format": "henderson-position", "game": "firstblood", "version": 1, "turn": "SEP II"}
    state = game.load_state({**position, "phase": "us_combat", "ground": {"1/124": "0910", "1/1": "0909"}})
    odds = game.odds(state, "attack 0910 with 1/1").to_json()
    page = tab.page
    open_calculator(page, server, new_match(server, "firstblood")["seats"]["us"])
    page.evaluate("async (odds) => (await import('/web/js/calculator.js')).noteOdds({ odds })", odds)
    page.click("#calc-prefill")
    expect(page.locator("#calc-form [name='doubling']")).to_have_value("river")
    expect(page.locator("#calc-form [name='terrain']")).to_have_value("jungle")
    expect(page.locator("#calc-form [name='ground']")).to_have_value(str(odds["ground"]))
    expect(page.locator("#calc-result .calc-summary")).to_contain_text(f"column {odds['column']}")
    for code, chance in odds["distribution"].items():
        expect(page.locator("#calc-result .calc-outcomes tr", has_text=code)).to_contain_text(chance)


@pytest.mark.skipif("deluxe" not in games.names(), reason="Deluxe Guadalcanal is not installed")
def test_deluxe_calculator(server: str, tab: Any) -> None:
    """DG 8.2 example column 2-1: a 6 costs the attacker two steps and a hex; uphill (×2) makes
    6 against 6 the 1-1 column."""
    page = tab.page
    open_calculator(page, server, new_match(server, "deluxe")["seats"]["us"])
    set_input(page, "attack", "6")
    set_input(page, "defence", "3")
    expect(page.locator("#calc-result .calc-summary")).to_contain_text("column 2-1")
    expect(page.locator("#calc-result .calc-outcomes tr", has_text="attacker L2 R1 A0")).to_contain_text("1/6")
    set_input(page, "uphill", True)
    expect(page.locator("#calc-result .calc-summary")).to_contain_text("column 1-1")
    expect(page.locator("#calc-result .calc-notes")).to_contain_text("×2 defender: uphill")
    page.locator("#calc-result").scroll_into_view_if_needed()
    tab.shot("calculator-deluxe")


@pytest.mark.skipif("aag" not in games.names(), reason="AAG is not installed")
def test_aag_calculator_both_sides_fire(server: str, tab: Any) -> None:
    """AAG Declare Your Hits: one die hits an infantry on a 1 or a 2, a third of the time."""
    page = tab.page
    open_calculator(page, server, new_match(server, "aag")["seats"]["us"])
    set_input(page, "category", "land")
    set_input(page, "attacker_infantry", "1")
    set_input(page, "defender_infantry", "1")
    expect(page.locator("#calc-result h3")).to_have_count(2)
    row = page.locator("#calc-result .calc-outcomes tr", has_text="infantry: 1 destroyed").first
    expect(row).to_contain_text("1/3 (33.3%)")
    page.locator("#calc-result").scroll_into_view_if_needed()
    tab.shot("calculator-aag")


@pytest.mark.skipif("deluxe" not in games.names(), reason="Deluxe Guadalcanal is not installed")
def test_deluxe_calculator_starts_from_the_last_assault_shown(server: str, tab: Any) -> None:
    """An assault of 17/2 (a river hex halves, DG 8.2.1.1) against 9/2 (a village, ×3/2, DG
    8.2.1.2) is filled in as 17 from a river hex against 3 in a village: 17/2 to 9/2 is 1-1."""
    page = tab.page
    open_calculator(page, server, new_match(server, "deluxe")["seats"]["us"])
    shown = {"attack": "17/2", "defense": "9/2", "ratio": "1-1", "results": []}
    page.evaluate("async (odds) => (await import('/web/js/calculator.js')).noteOdds({ odds })", shown)
    page.click("#calc-prefill")
    expect(page.locator("#calc-form [name='attack_river']")).to_have_value("17")
    expect(page.locator("#calc-form [name='terrain']")).to_have_value("village")
    expect(page.locator("#calc-result .calc-summary")).to_contain_text("attack 17/2 against defence 9/2: column 1-1")


@pytest.mark.skipif("aag" not in games.names(), reason="AAG is not installed")
def test_aag_calculator_starts_from_the_last_battle_shown(server: str, tab: Any) -> None:
    """A cruiser's 2 dice on a transport (the position's odds) give the same chances: 5/9."""
    from tests.aag.helpers import piece, position

    state = position([piece("us1", "cruiser", "H"), piece("jp1", "transport", "H")], step="combat:sea", first="us")
    shown = state.odds("H", "sea", "us").to_json()
    page = tab.page
    open_calculator(page, server, new_match(server, "aag")["seats"]["us"])
    page.evaluate("async (odds) => (await import('/web/js/calculator.js')).noteOdds({ odds })", shown)
    page.click("#calc-prefill")
    expect(page.locator("#calc-form [name='attacker_dice']")).to_have_value("2")
    row = page.locator("#calc-result .calc-outcomes tr", has_text="transport: 1 destroyed")
    expect(row).to_contain_text("5/9")


def test_firstblood_odds_seen_in_the_attack_builder_fill_the_calculator(server: str, tab: Any, tmp_path: Any) -> None:
    """A real US attack built on the map: once its odds are shown, "From the last attack" gives
    the calculator the same odds (ratio and column) for editing."""
    from tests.server.browser_support import log_count, open_record
    from tests.server.records import record_until_us_attack

    page = tab.page
    open_record(page, server, tmp_path / "combat.jsonl", record_until_us_attack())
    expect(page.locator("#calc-prefill")).to_be_disabled()
    attackable = page.locator("#board-svg polygon.attackable")
    expect(attackable.first).to_be_attached()
    before = log_count(page)
    attackable.first.dispatch_event("click")
    page.wait_for_function(f"document.querySelectorAll('#log li').length > {before}")
    page.locator("#board-panel button[data-action^='add ']").first.click()
    box = page.locator("#board-panel .odds-box")
    expect(box).to_contain_text("Odds", timeout=10000)
    shown = box.locator("strong").inner_text().removeprefix("Odds ")  # e.g. "4-8 → 1-2"
    page.click("#calc-open")
    expect(page.locator("#calc-prefill")).to_be_enabled()
    page.click("#calc-prefill")
    expect(page.locator("#calc-result .calc-summary")).to_contain_text(shown)
    page.locator("#calc-result").scroll_into_view_if_needed()
    tab.shot("calculator-firstblood-from-attack")


@pytest.mark.skipif("aag" not in games.names(), reason="AAG is not installed")
def test_the_calculator_fits_a_phone(server: str, browser: Any) -> None:
    """The longest form (AAG: every unit type on each side) stays within a phone's width."""
    from tests.server.browser_support import Page

    phone = Page(browser, 390, 844)
    try:
        open_calculator(phone.page, server, new_match(server, "aag")["spectator"])
        set_input(phone.page, "attacker_fighter", "2")
        set_input(phone.page, "defender_destroyer", "1")
        expect(phone.page.locator("#calc-result .calc-outcomes").first).to_be_attached()
        assert phone.page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") <= 0
        phone.page.locator("#calc-panel").scroll_into_view_if_needed()
        phone.shot("calculator-phone")
    finally:
        phone.close()
