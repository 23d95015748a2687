"""Counters waiting to be placed, drawn in a tray beside the map and placed by clicks or by
drag and drop, in a real browser: the FIRST BLOOD set-up (FB 3.0) played from the tray
(any waiting counter, not only the next one the legal actions list), a refused hex click
that does nothing, undo, a drag onto a hex, a reinforcement entering on an entry point
(FB 7.1), and the tray under the map on a phone, placed by touch. Screenshots in
test-artifacts/."""

from __future__ import annotations

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
    sync_api,
    wait_my_turn,
)
from tests.server.records import play_until

__all__ = ["browser", "server"]

if "firstblood" not in games.names():
    pytest.skip("FIRST BLOOD is not installed", allow_module_level=True)

PLACES = """async (unit) => {
  const token = decodeURIComponent(location.hash.slice(1));
  const answer = await fetch('/api/seat/placements?unit=' + encodeURIComponent(unit),
    {headers: {Authorization: 'Bearer ' + token}});
  return (await answer.json()).actions.map((a) => a.args[1].value);
}"""


def places(page: Any, unit: str) -> list[str]:
    """Where the server says a waiting counter may be placed now."""
    return [str(p) for p in page.evaluate(PLACES, unit)]


def new_setup(browser: Any, server: str, width: int, height: int, touch: bool = False) -> Page:
    """A FIRST BLOOD game against the computer, at the US set-up, on a page of this size."""
    tab = Page(browser, width, height)
    if touch:
        tab.context.close()
        tab.context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True, is_mobile=True)
        tab.page = tab.context.new_page()
        tab.page.on("console", lambda m: tab.errors.append(m.text) if m.type == "error" else None)
        tab.page.on("pageerror", lambda e: tab.errors.append(str(e)))
    page = tab.page
    page.goto(server + "/")
    page.select_option("#game-select", "firstblood")
    page.select_option("select[data-side=jp]", "random")
    page.click("#create")
    wait_my_turn(page)
    expect(page.locator("#tray")).to_be_visible()
    return tab


def empty_hex(page: Any, allowed: list[str]) -> str:
    """A hex of `allowed` with no counter on it."""
    ground = seat(page)["view"]["ground"]
    taken = set(ground.values())
    return next(h for h in allowed if h.isdigit() and h not in taken)


def all_hexes(page: Any) -> list[str]:
    return [str(h) for h in page.locator("#board-svg polygon.hex").evaluate_all("(ps) => ps.map((p) => p.dataset.hex)")]


def no_new_entry(page: Any, before: int, ms: int = 1500) -> bool:
    try:
        page.wait_for_function(f"document.querySelectorAll('#log li').length > {before}", timeout=ms)
    except sync_api.TimeoutError:
        return True
    return False


def select(page: Any, unit: str, tap: bool = False) -> list[str]:
    """Select a waiting counter in the tray; wait until the map marks its places; they are returned."""
    counter = page.locator(f"#tray [data-tray='{unit}']")
    counter.tap() if tap else counter.click()
    expect(page.locator(f"#tray [data-tray='{unit}'].sel")).to_have_count(1)
    allowed = places(page, unit)
    hexes = [p for p in allowed if p.isdigit()]
    expect(page.locator("#board-svg polygon.hex.reach")).to_have_count(len(hexes))
    marked = page.locator("#board-svg polygon.hex.reach").evaluate_all("(ps) => ps.map((p) => p.dataset.hex)")
    assert sorted(marked) == sorted(hexes)  # the map marks what the server allows, nothing else
    return allowed


def test_the_us_set_up_by_clicks_on_the_tray_and_the_map(browser: Any, server: str) -> None:
    tab = new_setup(browser, server, 1440, 900)
    page = tab.page
    waiting = seat(page)["view"]["to_place"]
    expect(page.locator("#tray .tray-counter")).to_have_count(len(waiting))
    expect(page.locator("#tray .tray-group")).to_have_count(2)  # ground units, aircraft
    expect(page.locator("#tray [data-action='setup default']")).to_be_visible()
    tab.shot("tray-fb-setup-start")

    # FB 3.0: the tank, though the legal actions list the placements of 1/1 only
    assert not any("1Tank" in a for a in seat(page)["legal_actions"])
    allowed = select(page, "1Tank")
    outside = next(h for h in all_hexes(page) if h not in allowed)
    before = log_count(page)
    page.locator(f"#board-svg polygon[data-hex='{outside}']").click()
    assert no_new_entry(page, before)  # refused: nothing is played, the tank stays selected
    expect(page.locator("#tray [data-tray='1Tank'].sel")).to_have_count(1)
    where = empty_hex(page, allowed)
    page.locator(f"#board-svg polygon[data-hex='{where}']").click()
    settle(page, before)
    expect(page.locator("#tray [data-tray='1Tank']")).to_have_count(0)
    assert seat(page)["view"]["ground"]["1Tank"] == where
    expect(page.locator(f"#board-svg [data-counter='1Tank'][data-at='{where}']")).to_have_count(1)

    # two more ground units, the first listed and another, each on an empty marked hex
    for unit in ("1/1", "3DB"):
        allowed = select(page, unit)
        where = empty_hex(page, allowed)
        before = log_count(page)
        page.locator(f"#board-svg polygon[data-hex='{where}']").click()
        settle(page, before)
        assert seat(page)["view"]["ground"][unit] == where

    # a second click deselects; Esc deselects
    page.locator("#tray [data-tray='2/1']").click()
    expect(page.locator("#tray .tray-counter.sel")).to_have_count(1)
    page.locator("#tray [data-tray='2/1']").click()
    expect(page.locator("#tray .tray-counter.sel")).to_have_count(0)
    expect(page.locator("#board-svg polygon.hex.reach")).to_have_count(0)
    select(page, "2/1")
    page.keyboard.press("Escape")
    expect(page.locator("#tray .tray-counter.sel")).to_have_count(0)

    # an aircraft to the CAP box (FB 3.0), then taken back with Undo
    allowed = select(page, "F4F-1")
    assert "usaf_cap" in allowed
    before = log_count(page)
    page.locator("#board-svg g.box[data-place='usaf_cap']").click()
    settle(page, before)
    assert seat(page)["view"]["air"]["F4F-1"] == "usaf_cap"
    expect(page.locator("#tray [data-tray='F4F-1']")).to_have_count(0)
    tab.shot("tray-fb-setup-placed")
    page.locator("#undo").click()
    expect(page.locator("#tray [data-tray='F4F-1']")).to_have_count(1)
    assert "F4F-1" not in seat(page)["view"]["air"]

    # the rest as the default set-up, from the tray's button
    before = log_count(page)
    page.locator("#tray [data-action='setup default']").click()
    settle(page, before)
    assert seat(page)["view"]["step"] != "us_setup"  # every US counter is placed: the set-up is over
    assert "setup default" in page.locator("#log").inner_text()
    assert tab.errors == []
    tab.close()


def drag(page: Any, source: Any, target: Any) -> None:
    """Drag with the mouse from the centre of `source` to the centre of `target`."""
    a = source.bounding_box()
    b = target.bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(a["x"] + a["width"] / 2 + 10, a["y"] + a["height"] / 2 + 10, steps=3)
    b = target.bounding_box()  # the map marks the places once the drag begins
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=8)
    page.mouse.up()


def test_a_counter_dragged_from_the_tray_onto_a_hex(browser: Any, server: str) -> None:
    tab = new_setup(browser, server, 768, 1024)
    page = tab.page
    allowed = places(page, "2/5")  # not the next counter listed: its places are asked of the server
    where = empty_hex(page, allowed)
    refused = next(h for h in all_hexes(page) if h not in allowed)
    before = log_count(page)
    drag(page, page.locator("#tray [data-tray='2/5']"), page.locator(f"#board-svg polygon[data-hex='{refused}']"))
    assert no_new_entry(page, before)  # dropped where it may not go: still waiting
    expect(page.locator("#tray [data-tray='2/5']")).to_have_count(1)
    page.keyboard.press("Escape")
    drag(page, page.locator("#tray [data-tray='2/5']"), page.locator(f"#board-svg polygon[data-hex='{where}']"))
    settle(page, before)
    assert seat(page)["view"]["ground"]["2/5"] == where
    expect(page.locator("#tray [data-tray='2/5']")).to_have_count(0)
    # dropped on a counter of its own side: onto that counter's hex (FB 5.0 allows three)
    assert where in places(page, "3/5")
    before = log_count(page)
    friend = page.locator(f"#board-svg [data-counter='2/5'][data-at='{where}']")
    drag(page, page.locator("#tray [data-tray='3/5']"), friend)
    settle(page, before)
    assert seat(page)["view"]["ground"]["3/5"] == where
    tab.shot("tray-fb-dragged")
    assert tab.errors == []
    tab.close()


def us_reinforcements() -> Any:
    """Default set-ups, then seeded random play until US ground reinforcements wait (FB 7.1)."""

    def choose(rng: Any, actions: list[str]) -> str:
        return "setup default" if "setup default" in actions else rng.choice(actions)

    def done(state: Any, side: str | None, actions: list[str], events: Any) -> bool:
        view = state.view("us")
        return side == "us" and view["step"] == "us_reinforcement" and any(a.startswith("place ") for a in actions)

    record, _ = play_until(
        "firstblood",
        {"us": "human", "jp": "random"},
        done,
        choose=choose,
        seed=2,
        choice_seed=2,
        what="a US reinforcement to place",
    )
    return record


def test_a_reinforcement_enters_from_the_tray(browser: Any, server: str, tmp_path: Path) -> None:
    tab = Page(browser, 1440, 900)
    page = tab.page
    open_record(page, server, tmp_path / "reinforce.jsonl", us_reinforcements())
    waiting = seat(page)["view"]["to_place"]
    expect(page.locator("#tray .tray-counter")).to_have_count(len(waiting))
    expect(page.locator("#tray [data-action='setup default']")).to_have_count(0)
    unit = waiting[-1]
    allowed = places(page, unit)
    assert allowed and all(not p.isdigit() for p in allowed)  # entry points (FB 7.1)
    page.locator(f"#tray [data-tray='{unit}']").click()
    expect(page.locator(f"#tray [data-tray='{unit}'].sel")).to_have_count(1)
    before = log_count(page)
    entry = page.locator(f"#board-svg g.entry[data-place='{allowed[0]}']")
    expect(entry.locator("circle")).to_have_count(2)  # marked: the highlight under the point
    tab.shot("tray-fb-reinforcement")
    entry.dispatch_event("click")
    settle(page, before)
    assert seat(page)["view"]["ground"][unit] == allowed[0]
    expect(page.locator(f"#tray [data-tray='{unit}']")).to_have_count(0)
    assert tab.errors == []
    tab.close()


def touch_drag(tab: Page, source: Any, target: str) -> None:
    """Drag with one finger from the centre of `source` to the centre of `target` (a selector),
    by the browser's touch input; the page scrolls nothing while a counter is dragged."""
    cdp = tab.context.new_cdp_session(tab.page)
    a = source.bounding_box()
    b = tab.page.locator(target).bounding_box()
    x, y = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    bx, by = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y - 12}]})
    for i in range(1, 9):
        point = {"x": x + (bx - x) * i / 8, "y": y - 12 + (by - y + 12) * i / 8}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_on_a_phone_the_tray_is_under_the_map_and_placed_by_touch(browser: Any, server: str) -> None:
    tab = new_setup(browser, server, 390, 844, touch=True)
    page = tab.page
    board = page.locator("#board").bounding_box()
    tray = page.locator("#tray").bounding_box()
    assert tray["y"] >= board["y"] + board["height"] - 1  # under the map
    assert tray["x"] >= 0 and tray["x"] + tray["width"] <= 390 + 0.5  # within the screen
    page.locator("#tray").scroll_into_view_if_needed()
    tab.shot("tray-fb-phone")
    allowed = select(page, "1Rdr", tap=True)
    where = empty_hex(page, allowed)
    page.locator("#board").scroll_into_view_if_needed()
    before = log_count(page)
    page.locator(f"#board-svg polygon[data-hex='{where}']").tap()
    settle(page, before)
    assert seat(page)["view"]["ground"]["1Rdr"] == where
    expect(page.locator("#tray [data-tray='1Rdr']")).to_have_count(0)
    # a drag with a finger, from the tray up onto a hex of the map (touch events, as a phone sends)
    allowed = places(page, "1Para")
    where = empty_hex(page, allowed)
    page.evaluate("window.scrollTo(0, 0)")  # the map and the tray both on the screen
    before = log_count(page)
    touch_drag(tab, page.locator("#tray [data-tray='1Para']"), f"#board-svg polygon[data-hex='{where}']")
    settle(page, before)
    assert seat(page)["view"]["ground"]["1Para"] == where
    tab.shot("tray-fb-phone-placed")
    assert tab.errors == []
    tab.close()


def dg_landing() -> Any:
    """Deluxe Guadalcanal: seeded random play until US reinforcements land (DG 6.0)."""

    def done(state: Any, side: str | None, actions: list[str], events: Any) -> bool:
        return side == "us" and any(a.startswith("land ") for a in actions)

    record, _ = play_until("deluxe", {"us": "human", "jp": "random"}, done, seed=1, what="a US landing")
    return record


def test_deluxe_reinforcements_land_from_the_tray(browser: Any, server: str, tmp_path: Path) -> None:
    tab = Page(browser, 1440, 900)
    page = tab.page
    open_record(page, server, tmp_path / "landing.jsonl", dg_landing())
    message = seat(page)
    landing = [a for a in message["actions"] if a["verb"] == "land"]
    unit = landing[0]["args"][0]["value"]
    hexes = sorted({a["args"][1]["value"] for a in landing if a["args"][0]["value"] == unit})
    expect(page.locator("#tray .tray-counter:not([disabled])")).to_have_count(1)  # one at a time (DG 6.0)
    later = page.locator("#tray .tray-counter[disabled]").count()
    page.locator(f"#tray [data-tray='{unit}']").click()
    expect(page.locator(f"#tray [data-tray='{unit}'].sel")).to_have_count(1)
    expect(page.locator("#board-svg polygon.hex.reach")).to_have_count(len(hexes))
    tab.shot("tray-dg-landing")
    before = log_count(page)
    page.locator(f"#board-svg polygon[data-hex='{hexes[0]}']").dispatch_event("click")
    settle(page, before)
    assert seat(page)["view"]["units"][unit]["at"] == hexes[0]
    expect(page.locator(f"#tray [data-tray='{unit}']")).to_have_count(0)
    if later:  # the next arriving unit may land now
        expect(page.locator("#tray .tray-counter:not([disabled])")).to_have_count(1)
    assert tab.errors == []
    tab.close()


def aag_deploy() -> Any:
    """Axis & Allies: Guadalcanal: seeded random play until the Allies may deploy sea units."""

    def done(state: Any, side: str | None, actions: list[str], events: Any) -> bool:
        return side == "us" and any(a.startswith("deploy ") for a in actions)

    record, _ = play_until("aag", {"us": "human", "jp": "random"}, done, seed=1, what="an Allied deployment")
    return record


def test_aag_sea_units_deploy_from_the_tray_by_drag(browser: Any, server: str, tmp_path: Path) -> None:
    """AAG Deploy: a sea unit of the base card, dragged from the tray onto a marked sea zone."""
    tab = Page(browser, 1440, 900)
    page = tab.page
    open_record(page, server, tmp_path / "deploy.jsonl", aag_deploy())
    deploys = [a for a in seat(page)["actions"] if a["verb"] == "deploy"]
    units = {a["args"][0]["value"] for a in deploys}
    types = {seat(page)["view"]["pieces"][u]["type"] for u in units}
    expect(page.locator("#tray .tray-counter")).to_have_count(len(types))  # one counter per type
    source = page.locator("#tray .tray-counter").first
    source.click()
    expect(page.locator("#tray .tray-counter.sel")).to_have_count(1)
    unit = source.get_attribute("data-tray")
    marked = page.locator("#board-svg g.reach[data-area]").evaluate_all("(gs) => gs.map((g) => g.dataset.area)")
    assert sorted(marked) == sorted({a["args"][1]["value"] for a in deploys if a["args"][0]["value"] == unit})
    zone = sorted(marked)[0]
    kind = seat(page)["view"]["pieces"][unit]["type"]
    tab.shot("tray-aag-deploy")
    page.keyboard.press("Escape")
    expect(page.locator("#tray .tray-counter.sel")).to_have_count(0)
    before = log_count(page)
    area = f"#board-svg g[data-area='{zone}']"
    drag(page, source, page.locator(f"{area} path, {area} polygon").first)
    settle(page, before)
    pieces = seat(page)["view"]["pieces"]
    moved = [u for u in units if pieces[u]["zone"] == zone]
    assert len(moved) == 1 and pieces[moved[0]]["type"] == kind  # one unit of the type dragged
    assert tab.errors == []
    tab.close()
