"""Reading the game in a real browser: the computer levels described in the lobby, a rule
cited in the log opening its summary (GET /api/games/<name>/rules), AAG actions named by
what the board shows instead of internal unit ids. Screenshots in test-artifacts/."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from henderson import agents, games, rules_reference
from tests.server.browser_support import (  # fixtures are used by name
    Page,
    browser,
    expect,
    open_record,
    server,
    tab,
)
from tests.server.records import play_until

__all__ = ["browser", "server", "tab"]


def setup_then_random(rng: Any, actions: list[str]) -> str:
    setups = [a for a in actions if a.startswith("setup")]
    return setups[0] if setups else rng.choice(actions)


def test_the_lobby_describes_each_computer_level(server: str, tab: Page) -> None:
    page = tab.page
    page.goto(server + "/")
    page.select_option("#game-select", "firstblood" if "firstblood" in games.names() else "toy")
    side = page.locator("#sides select").nth(1)
    name = str(side.get_attribute("data-side"))
    note = page.locator(f"[data-level-for='{name}']")
    for level, words in agents.LEVELS.items():
        side.select_option(level)
        expect(note).to_have_text(words)
        assert side.locator(f"option[value='{level}']").get_attribute("title") == words
    side.select_option("human")
    expect(note).to_be_hidden()
    assert tab.errors == []


def get_json(url: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(url) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def test_the_rules_reference_is_served(server: str) -> None:
    status, body = get_json(server + "/api/games/firstblood/rules")
    assert status == 200 and body["prefix"] == "FB"
    first = next(iter(rules_reference.rulebook("FB")))
    assert body["rules"][0] == {
        "id": first.id,
        "title": first.title,
        "text": first.text,
        "aliases": list(first.aliases),
    }
    status, body = get_json(server + "/api/games/toy/rules")
    assert status == 200 and body == {"prefix": None, "rules": []}
    status, body = get_json(server + "/api/games/nosuchgame/rules")
    assert status == 404


CITED = re.compile(r"\b(FB|DG|AAG) [^()]*")


@pytest.mark.parametrize("name", ["firstblood", "deluxe", "aag"])
def test_a_rule_in_the_log_opens_its_summary(server: str, tab: Page, tmp_path: Path, name: str) -> None:
    if name not in games.names():
        pytest.skip(f"{name} is not installed")
    prefix = {"firstblood": "FB", "deluxe": "DG", "aag": "AAG"}[name]
    seen: list[str] = []

    def done(state: Any, side: str | None, actions: list[str], events: Any) -> bool:
        for e in events:
            for m in re.finditer(rf"\b{prefix} [^()]*", e.text):
                if rules_reference.explain(m.group(0)) is not None:
                    seen.append(m.group(0))
        return bool(seen) and side == "us"

    record, _ = play_until(
        name,
        {"us": "human", "jp": "random"},
        done,
        choose=setup_then_random,
        seed=4,
        choice_seed=4,
        limit=4000,
        what="a rule cited in the log",
    )
    rule = rules_reference.explain(seen[0])
    assert rule is not None
    page = tab.page
    open_record(page, server, tmp_path / f"{name}-rules.jsonl", record)
    ref = page.locator(f"#log .rule-ref[data-rule='{rule.id}']").first
    expect(ref).to_be_attached()
    ref.click()
    pop = page.locator("#rule-pop")
    expect(pop).to_be_visible()
    expect(pop).to_contain_text(rule.title)
    expect(pop).to_contain_text(rule.text[:40])
    tab.shot(f"{name}-rule-popover")
    page.keyboard.press("Escape")
    expect(pop).to_be_hidden()
    assert tab.errors == []


def test_aag_actions_name_units_as_the_board_shows_them(server: str, tab: Page, tmp_path: Path) -> None:
    if "aag" not in games.names():
        pytest.skip("Axis & Allies: Guadalcanal is not installed")

    def done(state: Any, side: str | None, actions: list[str], events: Any) -> bool:
        return side == "us" and any(a.startswith("load ") for a in actions)

    record, state = play_until("aag", {"us": "human", "jp": "random"}, done, what="a load")
    load = next(str(a) for a in state.legal_actions() if str(a).startswith("load "))
    ship, cargo = load.split()[1:]
    view = state.view("us")
    board = games.get("aag").client_data()
    names = {u: board["units"][view["pieces"][u]["type"]]["name"] for u in (ship, cargo)}
    page = tab.page
    open_record(page, server, tmp_path / "aag-names.jsonl", record)
    item = page.locator("#action-list li", has_text=load).first
    expect(item).to_contain_text(f"Allied {names[ship]}")
    expect(item).to_contain_text(f"Allied {names[cargo]}")
    # typing what the board shows finds the action
    page.locator("#action-input").fill(f"load {names[cargo].lower()}")
    expect(page.locator("#action-list li", has_text=load).first).to_be_visible()
    tab.shot("aag-action-names")
    assert tab.errors == []


def test_firstblood_asks_for_a_loss_in_words(server: str, tab: Page, tmp_path: Path) -> None:
    if "firstblood" not in games.names():
        pytest.skip("FIRST BLOOD is not installed")

    def done(state: Any, side: str | None, actions: list[str], events: Any) -> bool:
        pending = state.view("us").get("pending") or []
        return (
            side == "us"
            and any(a.startswith("lose ") for a in actions)
            and any(p.get("kind") == "lose" and p.get("side") == "us" for p in pending)
        )

    record, state = None, None
    for seed in range(1, 12):
        try:
            record, state = play_until(
                "firstblood",
                {"us": "human", "jp": "random"},
                done,
                choose=setup_then_random,
                seed=seed,
                choice_seed=seed,
                limit=5000,
                what="a US loss to choose",
            )
            break
        except AssertionError:
            continue
    assert record is not None and state is not None, "no US loss to choose came up"
    rule = next(p for p in state.view("us")["pending"] if p["kind"] == "lose")["rule"]
    page = tab.page
    open_record(page, server, tmp_path / "fb-loss.jsonl", record)
    panel = page.locator("#board-panel")
    expect(panel.locator("h3[data-prompt=loss]")).to_have_text("Choose a loss")
    expect(panel).to_contain_text(rule)
    panel.locator(".rule-ref").first.click()  # the rule opens its summary here too
    expect(page.locator("#rule-pop")).to_be_visible()
    expect(panel.locator("button[data-action^='lose ']").first).to_be_visible()
    tab.shot("fb-loss-prompt")
    assert tab.errors == []


def test_deluxe_names_a_hidden_actor_once(server: str, tab: Page, tmp_path: Path) -> None:
    if "deluxe" not in games.names():
        pytest.skip("Deluxe Guadalcanal is not installed")
    acted: list[tuple[str | None, str]] = []  # (side, action) of each action played
    to_act: list[str | None] = [None]

    def choose(rng: Any, actions: list[str]) -> str:
        action = setup_then_random(rng, actions)
        acted.append((to_act[0], action))
        return action

    def done(state: Any, side: str | None, actions: list[str], events: Any) -> bool:
        to_act[0] = side
        hidden = set(state.hidden_ids("us"))
        named = {w for s, a in acted if s == "jp" for w in a.split()[1:]}
        return side == "us" and bool(hidden & named)

    record, _ = play_until(
        "deluxe", {"us": "human", "jp": "random"}, done, choose=choose, seed=5, choice_seed=5, what="a hidden action"
    )
    page = tab.page
    open_record(page, server, tmp_path / "dg-hidden.jsonl", record)
    log = page.locator("#log")
    expect(log).to_contain_text("acts out of sight")
    assert not re.search(r"\bjp\s+jp\b", log.inner_text())
    assert tab.errors == []


def test_deluxe_shows_the_odds_of_an_assault_being_built(server: str, tab: Page, tmp_path: Path) -> None:
    if "deluxe" not in games.names():
        pytest.skip("Deluxe Guadalcanal is not installed")

    def attack_first(rng: Any, actions: list[str]) -> str:
        attacks = [a for a in actions if a.startswith("attack ")]
        return attacks[0] if attacks and rng.random() < 0.5 else setup_then_random(rng, actions)

    def done(state: Any, side: str | None, actions: list[str], events: Any) -> bool:
        pending = (state.view("us").get("pending") or [None])[-1]
        return (
            side == "us"
            and bool(pending)
            and pending.get("kind") == "assault"
            and any(a.startswith("with ") for a in actions)
        )

    record, state = play_until(
        "deluxe", {"us": "human", "jp": "random"}, done, choose=attack_first, seed=6, choice_seed=6, what="a US assault"
    )
    unit = next(str(a).split()[1] for a in state.legal_actions() if str(a).startswith("with "))
    page = tab.page
    open_record(page, server, tmp_path / "dg-odds.jsonl", record)
    box = page.locator("#board-panel .odds-box")
    expect(box).to_contain_text("Odds")
    page.locator(f"#board-svg [data-counter='{unit}']").first.dispatch_event("click")  # with UNIT
    expect(page.locator("#log li").last).to_contain_text(f"with {unit}")
    expect(box.locator("table.odds tr").nth(1)).to_be_attached()  # a row per die
    tab.shot("dg-assault-odds")
    assert tab.errors == []


def test_aag_shows_the_odds_of_a_roll_before_it(server: str, tab: Page, tmp_path: Path) -> None:
    if "aag" not in games.names():
        pytest.skip("Axis & Allies: Guadalcanal is not installed")

    def done(state: Any, side: str | None, actions: list[str], events: Any) -> bool:
        battle = state.view("us").get("battle") or {}
        return (
            side == "us"
            and "roll" in actions
            and battle.get("attacker") == "us"
            and battle.get("category") in ("sea", "air", "land")
        )

    record, state = play_until(
        "aag", {"us": "human", "jp": "random"}, done, seed=3, choice_seed=3, what="an Allied roll"
    )
    battle = state.view("us")["battle"]
    page = tab.page
    open_record(page, server, tmp_path / "aag-odds.jsonl", record)
    box = page.locator("#board-panel .odds-box")
    expect(box).to_contain_text(re.compile(rf"Odds: \d+ dice against {battle['category']}"))
    tab.shot("aag-roll-odds")
    assert tab.errors == []


def test_deluxe_artillery_fire_without_loss_says_so(server: str, tab: Page, tmp_path: Path) -> None:
    if "deluxe" not in games.names():
        pytest.skip("Deluxe Guadalcanal is not installed")
    fired: list[str] = []

    def fire_often(rng: Any, actions: list[str]) -> str:
        fire = [a for a in actions if a.startswith("fire ")]
        return fire[0] if fire and rng.random() < 0.7 else setup_then_random(rng, actions)

    def done(state: Any, side: str | None, actions: list[str], events: Any) -> bool:
        fire = next((e for e in events if e.kind == "fire"), None)
        if fire is None or fire.data.get("unit", "").startswith("jp"):
            return False
        lost = any(e.kind in ("step", "eliminated") and "unit" in (e.data or {}) for e in events)
        pending = [p.get("kind") for p in state.view("us").get("pending") or []]
        if lost or "artillery_loss" in pending or side is None:
            return False
        fired.append(str(fire.data["unit"]))
        return True

    record, _ = play_until(
        "deluxe", {"us": "human", "jp": "random"}, done, choose=fire_often, seed=7, choice_seed=7, what="a miss"
    )
    page = tab.page
    open_record(page, server, tmp_path / "dg-miss.jsonl", record)
    line = page.locator("#log li", has_text=f"{fired[0]} fires").last
    expect(line.locator(".ev.note")).to_contain_text("result: no step lost")
    assert tab.errors == []
