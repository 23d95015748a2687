"""FIRST BLOOD played in a real browser through the page only: a multi-hex attack built with
the mouse (FB 8.2), the map never covered by the side column, two game turns against the
computer, a late position played to the result screen. Screenshots in test-artifacts/."""

from __future__ import annotations

import re
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
    seat,
    server,
    settle,
    tab,
    wait_my_turn,
)

if "firstblood" not in games.names():
    pytest.skip("FIRST BLOOD is not installed", allow_module_level=True)

from henderson.core.record import GameRecord
from tests.server.records import play_until

__all__ = ["browser", "server", "tab"]


class GameOver(Exception):
    """Random play ended the game before the position looked for came up."""


def setup_then_random(rng: Any, actions: list[str]) -> str:
    return "setup default" if actions and actions[0] == "setup default" else rng.choice(actions)


def fb_record(done: Any, what: str) -> tuple[GameRecord, Any]:
    """Random FIRST BLOOD play (default set-ups) until `done`; a few seeds are tried, since
    random play may end the game first."""

    def check(state: Any, side: str | None, actions: list[str], events: Any) -> bool:
        if not actions:
            raise GameOver
        return bool(done(state, side, actions))

    for seed in range(1, 30):
        try:
            return play_until(
                "firstblood",
                {"us": "human", "jp": "random"},
                check,
                choose=setup_then_random,
                seed=seed,
                choice_seed=seed,
                limit=6000,
                what=what,
            )
        except (GameOver, AssertionError):
            continue
    raise AssertionError(f"{what} never came up")


def legal(page: Any) -> list[str]:
    """The seat's legal actions (from the API: the page lists only the first 250)."""
    return [str(a) for a in seat(page)["legal_actions"]]


def box_inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    return (
        inner["x"] >= outer["x"] - 1
        and inner["y"] >= outer["y"] - 1
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 1
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 1
    )


def boxes_apart(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] + a["width"] <= b["x"] + 1
        or b["x"] + b["width"] <= a["x"] + 1
        or a["y"] + a["height"] <= b["y"] + 1
        or b["y"] + b["height"] <= a["y"] + 1
    )


def assert_map_uncovered(page: Any) -> None:
    """Every holding box and Box A-D lies inside the board frame, and the panel outside it."""
    board = page.locator("#board").bounding_box()
    panel = page.locator("#board-panel")
    if panel.is_visible():
        assert boxes_apart(panel.bounding_box(), board), "the panel covers the board"
    places = page.locator("#board-svg g.box")
    assert places.count() >= 11  # seven holding boxes and Boxes A-D
    for i in range(places.count()):
        rect = None
        for _ in range(30):  # a box being drawn again after a pushed update has no box yet
            rect = places.nth(i).bounding_box()
            if rect is not None:
                break
            page.wait_for_timeout(100)
        assert rect is not None and box_inside(rect, board), f"{places.nth(i).get_attribute('data-place')} is cut off"


def multi_hex_position() -> tuple[GameRecord, str, str]:
    """A US combat phase offering an attack on two hexes at once: the record and the two hexes."""

    def hexes(actions: list[str]) -> list[str] | None:
        pair = next((a for a in actions if a.startswith("attack ") and "+" in a), None)
        return None if pair is None else pair.split()[1].split("+")[:2]

    def done(state: Any, side: str | None, actions: list[str]) -> bool:
        found = hexes(actions) if side == "us" else None
        if found is None:
            return False
        # a click on the first hex opens the first attack listed on it: here the one-hex attack
        if next(a for a in actions if a.startswith("attack ") and found[0] in a.split()[1].split("+")) != (
            f"attack {found[0]}"
        ):
            return False
        # the test adds the first unit offered against the first hex: with it alone the two-hex
        # attack must be one that may be rolled (odds shown, not an FB 8.2 refusal)
        trial = state.clone()
        trial.apply(f"attack {found[0]}")
        adds = [str(a) for a in trial.legal_actions() if str(a).startswith("add ")]
        trial.apply("cancel")
        trial.apply(f"attack {'+'.join(found)}")
        if not adds or adds[0] not in [str(a) for a in trial.legal_actions()]:
            return False
        trial.apply(adds[0])
        return "resolve" in [str(a) for a in trial.legal_actions()]

    record, state = fb_record(done, "a two-hex US attack")
    found = hexes([str(a) for a in state.legal_actions()])
    assert found is not None
    return record, found[0], found[1]


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)])
def test_a_two_hex_attack_with_the_mouse(server: str, browser: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    record, first, second = multi_hex_position()
    tab = Page(browser, *size)
    page = tab.page
    try:
        open_record(page, server, tmp_path / "multi.jsonl", record)
        expect(page.locator("#status")).to_contain_text("US combat")
        assert_map_uncovered(page)
        before = log_count(page)
        page.locator(f"#board-svg polygon.attackable[data-hex='{first}']").dispatch_event("click")
        settle(page, before)
        expect(page.locator("#board-panel")).to_contain_text(f"Attack on {first}")
        # the hexes that may join are marked; the first added attacker gives odds
        expect(page.locator(f"#board-svg polygon.join[data-hex='{second}']")).to_be_attached()
        expect(page.locator("#board-panel [data-hint=defenders]")).to_contain_text(second)
        before = log_count(page)
        page.locator("#board-panel button[data-action^='add ']").first.click()
        settle(page, before)
        # the odds, or why this one-hex attack may not be made (e.g. FB 8.2: the other hex too)
        answer = page.locator("#board-panel .odds-box, #board-panel .error").first
        expect(answer).to_contain_text(re.compile(r"Odds|FB"))
        one_hex = page.locator("#board-panel").inner_text()
        # a click on the second hex makes it a two-hex attack: cancel, open, add again
        page.locator(f"#board-svg polygon[data-hex='{second}']").dispatch_event("click")
        both = " + ".join(sorted([first, second]))
        expect(page.locator("#board-panel h3")).to_have_text(f"Attack on {both}")
        expect(page.locator("#board-svg [data-defender]")).to_have_count(2)
        expect(page.locator("#log li").last).to_contain_text(re.compile(r"add |attack "))
        expect(page.locator("#board-panel .odds-box")).to_contain_text("Odds")
        assert page.locator("#board-panel").inner_text() != one_hex
        assert_map_uncovered(page)
        tab.shot(f"fb-two-hex-attack-{size[0]}x{size[1]}")
        # a reload forgets the attacks listed before this one opened: the panel says how to
        # get them back (cancel), and the page still shows the attack being built
        page.reload()
        wait_my_turn(page)
        expect(page.locator("#board-panel h3")).to_have_text(f"Attack on {both}")
        expect(page.locator("#board-panel")).to_contain_text("cancel and open the attack again")
        # the attack is opened again on the two hexes from the list, then a click leaves one out
        before = log_count(page)
        page.locator("#board-panel button[data-action=cancel]").click()
        settle(page, before)
        before = log_count(page)
        page.locator(f"#board-svg polygon.attackable[data-hex='{first}']").dispatch_event("click")
        settle(page, before)
        page.locator(f"#board-svg polygon.join[data-hex='{second}']").dispatch_event("click")
        expect(page.locator("#board-panel h3")).to_have_text(f"Attack on {both}")
        # the new state is drawn before the action's answer is in; the page sends nothing meanwhile
        expect(page.locator("body")).not_to_have_class(re.compile("sending"))
        # a click on a defending hex leaves it out again
        page.locator(f"#board-svg polygon.drop[data-hex='{second}']").dispatch_event("click")
        expect(page.locator("#board-panel h3")).to_have_text(f"Attack on {first}")
        expect(page.locator("#board-svg [data-defender]")).to_have_count(1)
        assert tab.errors == []
    finally:
        tab.close()


def click_a_move(page: Any) -> bool:
    """Select a unit that may move and click the first hex marked for it; False when none."""
    movers = [a.split()[1] for a in legal(page) if a.startswith("move ")]
    for mover in movers[:3]:
        counter = page.locator(f"#board-svg [data-counter='{mover}']").first
        if not counter.count():
            continue
        counter.dispatch_event("click")
        reach = page.locator("#board-svg polygon.reach")
        if not reach.count():
            continue
        before = log_count(page)
        reach.first.dispatch_event("click")
        page.wait_for_function(f"document.querySelectorAll('#log li').length > {before}", timeout=20000)
        return True
    return False


def log_grew(page: Any, before: int) -> None:
    """After an action in a game of two humans: wait for the log to grow only."""
    page.wait_for_function(f"document.querySelectorAll('#log li').length > {before}", timeout=20000)


def open_an_attack(page: Any, actions: list[str], tried: set[str], turn_phase: str) -> None:
    """Open an attack not yet tried this phase: a one-hex attack by clicking its hex, one on
    several hexes from the action list. An attack that may not be resolved alone (FB 8.2: the
    attackers also touch another defending hex) is cancelled, and the next one is tried."""
    attacks = [a for a in actions if a.startswith("attack ")]
    done = {t.split("|", 1)[1] for t in tried if t.startswith(turn_phase + "|")}
    choice = next((a for a in attacks if a not in done), attacks[0])
    tried.add(f"{turn_phase}|{choice}")
    target = choice.split()[1]
    if "+" in target:
        page.locator("#action-list li", has_text=choice).first.click()
    else:
        page.locator(f"#board-svg polygon.attackable[data-hex='{target}']").dispatch_event("click")


def one_step(page: Any, moved: set[str], turn_phase: str, wait: Any = settle) -> None:
    """One decision through the page: a move by clicking once a phase, the end-phase button or
    key, attacks and losses by clicking, anything else from the action list. `moved` keeps the
    phases with a move made and the attacks tried (as "phase|attack")."""
    actions = legal(page)
    before = log_count(page)
    if "end" in actions:
        if turn_phase not in moved and any(a.startswith("move ") for a in actions):
            moved.add(turn_phase)
            if click_a_move(page):
                wait(page, log_count(page) - 1)
                return
        if sum("|" not in m for m in moved) % 2:
            page.locator("#end-phase").click()
        else:
            page.locator("#board-svg").click(position={"x": 3, "y": 3})
            page.keyboard.press("e")
    elif "resolve" in actions:
        page.locator("#board-svg").click(position={"x": 3, "y": 3})
        page.keyboard.press("r")
    elif any(a.startswith("add ") for a in actions):
        page.locator("#board-panel button[data-action^='add ']").first.click()
    elif any(a.startswith("attack ") for a in actions):
        open_an_attack(page, actions, moved, turn_phase)
    else:
        page.locator("#action-list li:not(.more)").first.click()
    wait(page, before)


def test_two_turns_against_the_computer(server: str, tab: Page) -> None:
    page = tab.page
    page.goto(server + "/")
    page.select_option("#game-select", "firstblood")
    page.select_option("select[data-side=jp]", "random")
    page.click("#create")
    wait_my_turn(page)
    expect(page.locator("#key-hints")).to_contain_text("end phase")
    expect(page.locator("#key-hints")).to_contain_text("undo")
    expect(page.locator("#turn-badge")).to_contain_text("your turn")
    before = log_count(page)
    page.locator("#action-list li", has_text="setup default").click()
    settle(page, before)
    turns_seen = [page.locator("#board-svg rect[data-turn][fill='#facc15']").get_attribute("data-turn")]
    moved: set[str] = set()
    combat = re.compile(r"(US|JP) attack on ")
    for _ in range(400):  # two turns at least, and on until some combat (the game's seed is random)
        if "Game over" in page.locator("#status").inner_text():
            break
        if len(turns_seen) >= 3 and combat.search(page.locator("#log").inner_text()):
            break
        one_step(page, moved, " · ".join(page.locator("#status").inner_text().split(" · ")[:2]))
        now = page.locator("#board-svg rect[data-turn][fill='#facc15']").get_attribute("data-turn")
        if now != turns_seen[-1]:
            turns_seen.append(now)
    tab.shot("fb-two-turns")
    over = "Game over" in page.locator("#status").inner_text()
    assert len(turns_seen) >= 3 or over, turns_seen
    log = page.locator("#log").inner_text()
    assert combat.search(log) or over, "no combat in the log"
    assert any("|" not in m for m in moved)  # at least one move made by clicking
    assert tab.errors == []


def test_a_late_position_to_the_result(server: str, tab: Page, tmp_path: Path) -> None:
    last = games.get("firstblood").client_data()["turns"][-1]

    def done(state: Any, side: str | None, actions: list[str]) -> bool:
        return side == "us" and state.turn_label == last and "end" in actions

    record, _ = fb_record(done, f"the US in {last}")
    page = tab.page
    open_record(page, server, tmp_path / "late.jsonl", record)
    expect(page.locator("#status")).to_contain_text(last)
    moved: set[str] = set()
    for _ in range(120):
        if "Game over" in page.locator("#status").inner_text():
            break
        one_step(page, moved, page.locator("#status").inner_text())
    expect(page.locator("#status")).to_contain_text("Game over")
    banner = page.locator("#result-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text(re.compile(r"You win \(us\)|You lose · jp wins"))
    expect(banner.locator(".why")).to_contain_text("FB 2.0")
    expect(page.locator("#turn-badge")).to_have_text("game over")
    expect(page.locator("#end-phase")).to_be_hidden()
    # a holding box shows one counter per type with its count, so a full box stays readable
    for group in page.locator("#board-svg g.counter[data-group*=' ']").all():
        count = len(str(group.get_attribute("data-group")).split())
        expect(group).to_contain_text(f"×{count}")
    tab.shot("fb-result")
    assert tab.errors == []
