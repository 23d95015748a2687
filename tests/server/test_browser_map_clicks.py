"""Play on the map as a VASSAL or TripleA player expects, in a real browser, in the three
games: a click on one of the seat's own counters selects it (never moves the selected unit
onto it); the selected unit moves onto a friendly hex or area only by the marked affordance
(the move-here marker, shift-click, or the marked area); Esc deselects. Screenshots in
test-artifacts/."""

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
    server,
    settle,
    sync_api,
    tab,
)
from tests.server.records import play_until

__all__ = ["browser", "server", "tab"]

HEX = re.compile(r"\d{4}")


def setup_then_random(rng: Any, actions: list[str]) -> str:
    setups = [a for a in actions if a.startswith("setup")]
    return setups[0] if setups else rng.choice(actions)


def no_new_entry(page: Any, before: int, ms: int = 1500) -> bool:
    """True when the log did not grow within `ms` (the click played nothing)."""
    try:
        page.wait_for_function(f"document.querySelectorAll('#log li').length > {before}", timeout=ms)
    except sync_api.TimeoutError:
        return True
    return False


def onto_friend(name: str, where: Any) -> tuple[Any, str, str, str]:
    """A position where the US may move a unit A onto a hex or area that holds another US
    unit B: the record, A, the place and B. `where(view)` maps each US unit to its place."""
    found: list[str] = []

    def done(state: Any, side: str | None, actions: list[str], events: Any) -> bool:
        if side != "us":
            return False
        at = where(state.view("us"))
        for action in actions:
            parts = action.split()
            if parts[0] != "move" or len(parts) != 3:
                continue
            unit, place = (parts[2], parts[1]) if name == "aag" else (parts[1], parts[2])
            if "," in unit:
                continue
            friends = [u for u, p in at.items() if p == place and u != unit]
            if friends and unit in at:
                found[:] = [action, unit, place, friends[0]]
                return True
        return False

    record, _ = play_until(
        name,
        {"us": "human", "jp": "random"},
        done,
        choose=setup_then_random,
        seed=2,
        choice_seed=2,
        limit=4000,
        what="a move onto a friendly unit",
    )
    return record, found[1], found[2], found[3]


def fb_places(view: dict[str, Any]) -> dict[str, str]:
    board = games.get("firstblood").client_data()["ground"]
    return {u: p for u, p in view["ground"].items() if board.get(u, {}).get("side") == "us" and HEX.fullmatch(str(p))}


def dg_places(view: dict[str, Any]) -> dict[str, str]:
    return {
        u: str(d["at"]) for u, d in view["units"].items() if d.get("side") == "us" and HEX.fullmatch(str(d.get("at")))
    }


def aag_places(view: dict[str, Any]) -> dict[str, str]:
    return {u: p["zone"] for u, p in view["pieces"].items() if p["side"] == "us" and not p.get("aboard")}


CASES = {"firstblood": fb_places, "deluxe": dg_places, "aag": aag_places}


@pytest.mark.parametrize("name", list(CASES))
def test_a_click_on_a_friend_selects_it_and_esc_deselects(server: str, tab: Page, tmp_path: Path, name: str) -> None:
    if name not in games.names():
        pytest.skip(f"{name} is not installed")
    record, unit, place, friend = onto_friend(name, CASES[name])
    page = tab.page
    open_record(page, server, tmp_path / f"{name}.jsonl", record)
    panel = page.locator("#board-panel")
    if name == "aag":
        mine = page.locator(f"#board-svg g.chip[data-chip~='{unit}']").first
        theirs = page.locator(f"#board-svg g.chip[data-chip~='{friend}']").first
    else:
        mine = page.locator(f"#board-svg [data-counter='{unit}']").first
        theirs = page.locator(f"#board-svg [data-counter='{friend}']").first
    mine.dispatch_event("click")
    expect(panel).to_contain_text(unit)
    before = log_count(page)
    theirs.dispatch_event("click")
    # the friend is selected now, and nothing was played
    expect(panel.locator("h3")).to_contain_text(friend if name != "aag" else re.compile(r"Allies"))
    if name == "aag":
        expect(panel).to_contain_text(friend)
    assert no_new_entry(page, before), "a click on a friendly counter played a move"
    # Esc deselects
    page.keyboard.press("Escape")
    expect(panel.locator("h3")).to_have_count(0)
    if name != "aag":
        # a click on the hex of the seat's own units (off the counters) opens that stack
        page.locator(f"#board-svg polygon[data-hex='{place}']").first.dispatch_event("click")
        expect(panel.locator("h3")).to_have_count(1)
        assert no_new_entry(page, before, 500)
    # the selected unit moves onto the friendly place by the marked affordance
    mine.dispatch_event("click")
    expect(panel).to_contain_text(unit)
    if name == "aag":
        page.locator(f"#board-svg g[data-area='{place}']").first.dispatch_event("click")
    else:
        page.locator(f"#board-svg [data-move-here='{place}']").dispatch_event("click")
    settle(page, before)
    expect(page.locator("#log li").last).to_contain_text(
        f"move {place} {unit}" if name == "aag" else f"move {unit} {place}"
    )
    # the move stays marked, from → to, until the other side acts
    expect(page.locator(f"#board-svg .last-move[data-side=us][data-to='{place}']").first).to_be_attached()
    tab.shot(f"{name}-move-onto-friend")
    assert tab.errors == []


def after_enemy_moves(name: str) -> tuple[Any, list[tuple[str, str]]]:
    """A position where the US is to act just after the Japanese side made moves: the record
    and the moves (from, to) of that last Japanese run of actions."""
    runs: list[tuple[str | None, list[tuple[str, str]]]] = []
    last: list[str | None] = [None]

    def done(state: Any, side: str | None, actions: list[str], events: Any) -> bool:
        mover = last[0]
        if mover is not None:
            if not runs or runs[-1][0] != mover:
                runs.append((mover, []))
            for e in events:
                d = e.data or {}
                if e.kind == "move" and isinstance(d.get("from", d.get("start")), str):
                    runs[-1][1].append((str(d.get("from", d.get("start"))), str(d.get("to", d.get("dest")))))
        last[0] = side
        return bool(side == "us" and runs and runs[-1][0] == "jp" and runs[-1][1])

    record, _ = play_until(
        name,
        {"us": "human", "jp": "random"},
        done,
        choose=setup_then_random,
        seed=3,
        choice_seed=3,
        limit=4000,
        what="Japanese moves",
    )
    return record, runs[-1][1]


@pytest.mark.parametrize("name", list(CASES))
def test_the_other_sides_last_moves_are_marked(server: str, tab: Page, tmp_path: Path, name: str) -> None:
    if name not in games.names():
        pytest.skip(f"{name} is not installed")
    record, moves = after_enemy_moves(name)
    page = tab.page
    open_record(page, server, tmp_path / f"{name}-moves.jsonl", record)
    drawn = page.locator("#board-svg .last-move[data-side=jp]")
    expect(drawn.first).to_be_attached()
    pairs = {(g.get_attribute("data-from"), g.get_attribute("data-to")) for g in drawn.all()}
    assert pairs <= set(moves) and pairs, (pairs, moves)
    tab.shot(f"{name}-last-moves")
    assert tab.errors == []
