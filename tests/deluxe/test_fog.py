"""Fog of war over random play (DG 7.7, 7.8, 10.2; rulings 14, 14a): after every action, no
enemy unit a side may not see (under stealth, below the top of a stack, picked at Rabaul and
not yet landed) is named in its view, in the other side's actions as it reads them, or in
their events; and a refusal reads the same whatever the hidden units are."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from henderson.core.dice import SeededDice
from henderson.games.deluxe.model import SIDES

from .support import GAME, position, redacted, state
from .test_explain import refusal

PLIES = 220


def secrets(s, viewer):
    """Computed here from the rules, not with the engine's helper: enemy units on the map
    under stealth or below the top non-stealth counter, and enemy Rabaul picks at sea."""
    out, stacks = set(), {}
    for u in s.units.values():
        if u.side == viewer:
            continue
        if u.at == "next":
            out.add(u.id)
        elif u.on_map:
            stacks.setdefault(u.at, []).append(u)
    for units in stacks.values():
        out.update(u.id for u in units if u.stealth)
        shown = sorted((u for u in units if not u.stealth), key=lambda u: (u.order, u.id))
        out.update(u.id for u in shown[:-1])
    return out


def strings(obj):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield str(k)
            yield from strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from strings(v)
    elif isinstance(obj, str):
        yield obj
        yield from re.split(r"[\s+,;:()]+", obj)  # unit ids inside a text


def check_fog(s, player, action, events, viewer):
    secret = secrets(s, viewer)
    if not secret:
        return
    view = s.view(viewer)
    sailing = [uid for uid in secret if s.units[uid].at == "next"]
    for uid in sailing:  # at sea: shown where it was printed, never as picked (DG 10.2)
        assert view["units"][uid] == {"side": s.units[uid].side, "at": s.home(uid), "strength": s.units[uid].strength}
    assert view["rabaul_sailing"] == len(sailing)
    rest = dict(view, units={k: v for k, v in view["units"].items() if k not in sailing})
    assert not secret & set(strings(rest)), (viewer, secret & set(strings(rest)))
    if player != viewer:
        text, shown = redacted(s, player, action, [e.to_json() for e in events], viewer)
        named = secret & set(strings([text, shown]))
        assert not named, (viewer, action, named)


def play(s, seed, plies=PLIES):
    rng = random.Random(seed)
    for _ in range(plies):
        if s.is_terminal():
            break
        acts = s.legal_actions()
        ends = [a for a in acts if a.verb in ("end", "pass", "stop", "go")]
        action = rng.choice(ends) if ends and rng.random() < 0.35 else rng.choice(acts)
        player = s.current_player()
        events = s.apply(action)
        for viewer in SIDES:
            check_fog(s, player, str(action), events, viewer)
    return s


def rabaul_start(seed):
    """Turn 12 ends with Japan holding an operational field: Rabaul picks (DG 10.2.2) that
    land on turn 13 among everything else due by then."""
    obj = position(
        12,
        "turn_end",
        {"124/2": "3707", "6/3": "3512"},
        open=False,
        henderson_field={"status": 20, "control": "jp"},
        flags={"hf_jp_start": True, "hf_op_start": True},
    )
    return GAME.load_state(obj, dice=SeededDice(seed))


@pytest.mark.parametrize("seed", range(3))
def test_random_play_never_names_a_hidden_unit(seed):
    play(GAME.new_state(seed), seed)


@pytest.mark.parametrize("seed", range(3))
def test_rabaul_picks_stay_secret_until_they_land(seed):
    s = rabaul_start(seed)
    assert s.current_player() == "jp" and s.pending[-1].kind == "rabaul"
    play(s, seed, plies=160)


@settings(max_examples=3, deadline=None)
@given(st.integers(0, 2**32))
def test_any_seed_keeps_the_fog(seed):
    play(GAME.new_state(seed), seed, plies=150)


def test_a_rabaul_pick_reads_as_a_pick():  # DG 10.2, ruling 14a
    s = state(
        12,
        "turn_end",
        {},
        open=False,
        dice=[3, 4, *[1] * 9],
        henderson_field={"status": 20, "control": "jp"},
        flags={"hf_jp_start": True, "hf_op_start": True},
    )
    pick = next(a for a in s.legal_actions() if a.verb == "rabaul")
    uid = pick.args[0]
    events = s.apply(pick)
    text, shown = redacted(s, "jp", str(pick), [e.to_json() for e in events], "us")
    assert text == "jp picks a unit at Rabaul" and uid not in str(shown)
    assert redacted(s, "jp", str(pick), [e.to_json() for e in events], "jp")[0] == str(pick)
    us, jp = s.view("us"), s.view("jp")
    assert us["units"][uid]["at"] == s.home(uid) and jp["units"][uid]["at"] == "next"
    assert us["rabaul_sailing"] == 1
    assert us["pending"][-1]["picked"] == [] and jp["pending"][-1]["picked"] == [uid]
    assert us["this_turn"] == jp["this_turn"] and us["next_turn"]["rabaul_bonus"]["strength"] == 7


def test_the_arrival_schedule_is_public():  # DG 2.2.1.10: the printed arrival turn
    s = GAME.new_state(1)
    us = s.view("us")
    later = [uid for uid, t in s.data.units.items() if t.side == "jp" and t.arrival > 1]
    assert later and all(us["units"][uid]["at"] == "turn" for uid in later)


def test_dg_10_1_guessed_rabaul_picks_come_from_the_period_they_arrive_in():  # ruling 14b
    # picked at the end of turn 14, the units land in turn 15 (period 3): the enemy's guess
    # draws among the units available then, never the period-2-only ones (DG 10.1)
    s = state(
        14,
        "turn_end",
        {"124/2": "3707"},
        open=False,
        henderson_field={"status": 20, "control": "jp"},
        flags={"jp_captured": True, "capture_bonus_given": True},
    )
    s.apply("rabaul H1")
    assert s.next_turn.rabaul_bonus.period == 3
    drawn = set()
    for seed in range(30):
        guess = s.sample_unseen("us", random.Random(seed))
        drawn.update(u for u, x in guess.units.items() if x.at == "next")
    period_3 = {
        uid
        for uid, t in GAME.data.units.items()
        if t.rabaul_period and t.rabaul_period <= 3 < t.rabaul_period + t.rabaul_periods
    }
    assert drawn and drawn <= period_3 and len(drawn) > 1


# -- fog of war: a refusal reads the same whatever the hidden units are (DG 7.7, 7.8) ----------
HIDDEN = [  # what stands under the stealth marker in 4012 and below the 124/1 in 3708
    {"124/2": {"at": "4012", "stealth": 2}, "28/1": {"at": "3708", "order": 1}},
    {"124/3": {"at": "4012", "stealth": 2, "strength": 1}, "5Yk": {"at": "3708", "order": 1, "strength": 1}},
    {"229/1": {"at": "4012", "stealth": 2, "strength": 2}, "230/1": {"at": "3708", "order": 1}},
]
SEEN = {
    "124/1": {"at": "3708", "order": 5},
    "7/1": "3912",
    "147/1": "3808",
    "147/2": "3807",
    "11/1": "3806",
    "1Eng": "3911",
    "1/1": "3706",
}
PROBE_HEXES = ("4012", "3708", "3808", "4011", "3913", "3707", "3807", "3909")


def probes(s) -> list[str]:
    """Actions of the side to move that name the hexes holding hidden units, or their
    neighbours, and numbers around what the hidden units could be worth."""
    own = sorted(u.id for u in s.units.values() if u.side == s.current_player() and u.on_map)
    out = ["end", "pass", "go", "strain", "ambush", "stop", "banzai", "defend 3"]
    for h in PROBE_HEXES:
        out += [f"attack {h}", f"target {h}", f"guerrilla {h}"]
        for uid in own:
            out += [f"move {uid} {h}", f"sea {uid} {h}", f"detect {uid} {h}", f"detect {uid} 4012 {h}"]
            out += [f"fire {uid} {h} 2", f"counter {uid} {h} 1", f"retreat {uid} {h}", f"advance {uid} {h}"]
    for uid in (*own, "124/2", "28/1", "124/1", "7/2", "1/1"):
        out += [f"with {uid}", f"support {uid} 2", f"lose {uid}", f"stealth {uid}", f"withdraw {uid}"]
    return out


def answers(s) -> dict[str, str]:
    """Every probe's outcome: legal, or the refusal as the player reads it."""
    legal = {str(a) for a in s.legal_actions()}
    out = {}
    for text in probes(s):
        out[text] = "legal" if text in legal else str(refusal(s, text))
    return out


@pytest.mark.parametrize(
    ("step", "setup"),
    [
        ("us_move", ()),
        ("us_fire_1", ()),
        ("us_combat", ()),
        ("us_combat", ("attack 3708", "with 147/2")),
        ("us_combat", ("attack 3909", "with 147/1")),
    ],
)
def test_dg_7_8_refusals_read_the_same_whatever_the_hidden_units_are(step, setup):
    seen = []
    for hidden in HIDDEN:
        s = state(15, step, {**SEEN, **hidden, "4/1": "3909"}, dice=[6] * 12, supply={"us": 6, "jp": 6})
        for a in setup:
            s.apply(a)
        seen.append(answers(s))
    assert seen[0] == seen[1] == seen[2]
    reached = [v for v in seen[0].values() if v != "legal" and ("4012" in v or "3708" in v)]
    assert reached  # the probes reach the hexes that hold hidden units


HIDDEN_US = [  # below the 147/1 in 3808
    {"7/2": {"at": "3808", "order": 1}},
    {"1/1": {"at": "3808", "order": 1, "strength": 1}},
]
SEEN_BY_JAPAN = {"147/1": {"at": "3808", "order": 5}, "124/2": "3708", "124/1": "3909", "20Mt": "3412", "38Eng": "3911"}


@pytest.mark.parametrize(
    ("step", "setup"),
    [
        ("jp_move", ()),
        ("jp_fire_2", ()),
        ("jp_combat", ()),
        ("jp_combat", ("attack 3808", "with 124/2")),
    ],
)
def test_dg_7_8_refusals_to_japan_read_the_same_whatever_the_us_stack_hides(step, setup):
    seen = []
    for hidden in HIDDEN_US:
        s = state(15, step, {**SEEN_BY_JAPAN, **hidden}, dice=[6] * 12, supply={"us": 6, "jp": 6})
        for a in setup:
            s.apply(a)
        seen.append(answers(s))
    assert seen[0] == seen[1]
    assert [v for v in seen[0].values() if v != "legal" and "3808" in v]  # the probes reach the stack
