"""The strength bench's count of attacks made at odds that can only lose (issue: no attack at
odds that can only lose), on records the engines wrote."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from henderson import games
from henderson.core.dice import ScriptedDice

ROOT = Path(__file__).resolve().parents[2]


def strength_bench() -> Any:
    spec = importlib.util.spec_from_file_location("strength_bench", ROOT / "bench" / "strength.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fb_attack(ground: dict[str, str], attack: str, die: int) -> list[dict[str, Any]]:
    """A record of one US attack resolved in a hand-written FIRST BLOOD position."""
    game = games.get("firstblood")
    obj = {"format": "henderson-position", "game": "firstblood", "version": 1}
    obj.update(turn="OCT I", phase="us_combat", ground=ground)
    st = game.load_state(obj, dice=ScriptedDice([die] * 4))
    record: list[dict[str, Any]] = [{"header": True}]
    events = st.apply(attack)
    record.append({"player": "us", "action": attack, "events": [e.to_json() for e in events]})
    return record


def test_an_attack_below_1_2_counts_as_one_that_can_only_lose() -> None:
    """FB 8.6: below 1-2 the attackers are eliminated before the roll."""
    bench = strength_bench()
    record = fb_attack({"6NCB": "0906", "1/4": "0905", "3/4": "0905"}, "attack 0905 with 6NCB", 6)
    assert bench.hopeless(record) == {"us": 1}


def test_an_attack_that_can_win_is_not_counted() -> None:
    """FB 8.10: at 1-1 and better some rolls cost the defender (a retreat, a step, the stack)."""
    bench = strength_bench()
    record = fb_attack({"1/1": "0906", "2/1": "0906", "Kuma": "0905"}, "attack 0905 with 1/1,2/1", 6)
    assert [e["kind"] for e in record[1]["events"]].count("attack") == 1  # resolved, and counted not
    assert bench.hopeless(record) == {}


def test_a_dg_assault_below_1_6_counts() -> None:
    """DG 8.2.1.3: attackers below 1-6 are eliminated; any other column can hurt the defender."""
    bench = strength_bench()
    event = {"kind": "assault", "text": "", "data": {"ratio": "below 1-6"}}
    fair = {"kind": "assault", "text": "", "data": {"ratio": "1-3"}}
    record = [{"header": True}, {"player": "jp", "events": [event]}, {"player": "us", "events": [fair]}]
    assert bench.hopeless(record) == {"jp": 1}


def test_a_run_split_with_start_plays_the_same_games_as_one_run(tmp_path: Path) -> None:
    """`--start K -n N` plays games K to K+N-1 of the seed: the second half of a run split in
    two is the same games (seeds, results) as the last games of the whole run."""
    bench = strength_bench()
    whole, part = tmp_path / "whole.jsonl", tmp_path / "part.jsonl"
    run = ["toy", "--pairs", "random-normal", "--seed", "7", "--seat", "first"]
    bench.main([*run, "-n", "3", "-o", str(whole)])
    bench.main([*run, "-n", "1", "--start", "2", "-o", str(part)])
    last = whole.read_text().splitlines()[-1]
    assert part.read_text().splitlines() == [last]
