"""Fair computer players: they look ahead on what their side can see (`sample_unseen`),
never on the other side's hidden units or secret choices (DG 7.7, 7.8, 10.2; ruling 14b)."""

from __future__ import annotations

import json
import random

import pytest

from henderson.agents import chance
from henderson.agents.evaluation import _REGISTERED, register_evaluator
from henderson.agents.heuristic import HeuristicAgent
from henderson.agents.mcts import MCTSAgent
from henderson.core.dice import SeededDice
from henderson.games.deluxe import load_game
from henderson.games.deluxe.evaluate import evaluate as dg_evaluate

GAME = load_game()
US = {"7/1": "3808", "1/1": "3707", "5/1": "3608", "11/1": "3607"}
HIDDEN_A = {  # Japanese stacks: 124/1 and 4/1 below the top, 124/3 and 29/1 under stealth
    "124/1": {"at": "4012", "order": 1},
    "124/2": {"at": "4012", "order": 2},
    "4/1": {"at": "3912", "order": 3},
    "4/2": {"at": "3912", "order": 4},
    "124/3": {"at": "4014", "stealth": 2},
    "29/1": {"at": "4115", "stealth": 1},
}


def swapped(units, a, b):
    """The same places with units `a` and `b` exchanged: a different hidden position."""
    out = dict(units)
    out[a], out[b] = units[b], units[a]
    return out


HIDDEN_B = swapped(swapped(HIDDEN_A, "124/1", "4/1"), "124/3", "4/1")


def position(hidden, turn=10, step="us_move", **extra):
    units = {}
    for uid, where in {**US, **hidden}.items():
        fields = {"at": where} if isinstance(where, str) else dict(where)
        if fields["at"][0].isdigit():
            fields.setdefault("start", fields["at"])
        units[uid] = fields
    obj = {"format": "henderson-position", "game": "deluxe", "version": 1, "turn": turn, "step": step}
    obj.update(open=True, units=units, **extra)
    return GAME.load_state(obj, dice=SeededDice(99))


def test_the_two_positions_differ_only_in_what_the_us_cannot_see():
    a, b = position(HIDDEN_A), position(HIDDEN_B)
    assert a.to_json()["units"] != b.to_json()["units"]
    assert a.view("us") == b.view("us") and a.key("us") == b.key("us")
    assert a.key() != b.key() and a.key("jp") != b.key("jp")
    assert a.view("jp") != b.view("jp")


@pytest.mark.parametrize("seed", range(3))
def test_a_guess_depends_only_on_the_view(seed):
    a, b = position(HIDDEN_A), position(HIDDEN_B)
    ga = chance.determinise(a, random.Random(seed), side="us")
    gb = chance.determinise(b, random.Random(seed), side="us")
    assert ga.to_json() == gb.to_json()
    assert ga.view("us") == a.view("us")
    assert [str(x) for x in ga.legal_actions()] == [str(x) for x in a.legal_actions()]


def test_guesses_vary_and_keep_the_rules():
    a = position(HIDDEN_A)
    seen = set()
    for seed in range(30):
        g = a.sample_unseen("us", random.Random(seed))
        assert g.invariant_errors() == []
        assert g.view("us") == a.view("us")
        assert all(GAME.data.units[u].type == "infantry" for u, x in g.units.items() if x.stealth)
        seen.add(tuple(sorted((u, x.at) for u, x in g.units.items() if x.side == "jp" and x.on_map)))
    assert len(seen) > 3  # the hidden units really are dealt again


@pytest.fixture
def recording():
    """The DG evaluation, recording every position it is asked about."""
    seen: list[str] = []
    before = dict(_REGISTERED)

    def record(state, side):
        obj = state.to_json()
        obj.pop("dice", None)
        seen.append(json.dumps(obj, sort_keys=True))
        return dg_evaluate(state, side)

    register_evaluator("deluxe", record)
    yield seen
    _REGISTERED.clear()
    _REGISTERED.update(before)


def test_the_heuristic_decides_from_what_it_sees(recording):
    a, b = position(HIDDEN_A), position(HIDDEN_B)
    pick_a = HeuristicAgent(7, samples=2).choose(a)
    seen_a = list(recording)
    recording.clear()
    pick_b = HeuristicAgent(7, samples=2).choose(b)
    assert str(pick_a) == str(pick_b)
    assert seen_a == recording and len(seen_a) > 10  # every evaluated position the same


def test_the_evaluation_never_reads_the_real_hidden_stacks(recording):
    a = position(HIDDEN_A)
    real = {u: (x.at, x.order, x.stealth) for u, x in a.units.items() if x.side == "jp" and x.on_map}
    HeuristicAgent(3, samples=1).choose(a)
    guesses = {json.dumps(json.loads(s)["units"], sort_keys=True) for s in recording}
    # each evaluated position comes from one guess: with six hidden units, not the real one
    placed = [{u: (v["at"], v.get("order", 0), v.get("stealth", 0)) for u, v in json.loads(g).items()} for g in guesses]
    hidden_real = {u: real[u] for u in ("124/1", "4/1", "124/3", "29/1")}
    assert all({u: p[u] for u in hidden_real} != hidden_real for p in placed)


def test_mcts_decides_from_what_it_sees():
    a, b = position(HIDDEN_A), position(HIDDEN_B)
    pick_a = MCTSAgent(5, iterations=20).choose(a)
    pick_b = MCTSAgent(5, iterations=20).choose(b)
    assert str(pick_a) == str(pick_b)


def test_rabaul_picks_are_guessed_again():  # DG 10.2
    base = {"turn": 13, "step": "us_move"}
    terms = {"rabaul_bonus": {"period": 2, "count": 99, "strength": 7}}
    a = position({**HIDDEN_A, "2Ar": "next"}, flags=terms, **base)
    other = next(
        uid
        for uid, t in GAME.data.units.items()
        if t.side == "jp"
        and uid != "2Ar"
        and t.strength <= 7
        and not t.arrival
        and 0 < t.rabaul_period <= 2 < t.rabaul_period + t.rabaul_periods
    )
    b = position({**HIDDEN_A, other: "next"}, flags=terms, **base)
    assert a.view("us") == b.view("us") and a.view("us")["rabaul_sailing"] == 1
    ga = a.sample_unseen("us", random.Random(1))
    gb = b.sample_unseen("us", random.Random(1))
    assert ga.to_json() == gb.to_json()
    sailing = [u for u, x in ga.units.items() if x.at == "next"]
    assert len(sailing) == 1 and GAME.data.units[sailing[0]].strength <= 7
    drawn = {
        next(u for u, x in a.sample_unseen("us", random.Random(s)).units.items() if x.at == "next") for s in range(20)
    }
    assert len(drawn) > 1


def test_guesses_over_random_play_keep_the_view_and_the_legal_actions():
    s = GAME.new_state(4)
    rng = random.Random(4)
    checked = 0
    for ply in range(400):
        if s.is_terminal():
            break
        side = s.current_player()
        if ply % 7 == 0:
            g = s.sample_unseen(side, random.Random(ply))
            assert g.view(side) == s.view(side)
            assert [str(x) for x in g.legal_actions()] == [str(x) for x in s.legal_actions()]
            assert g.invariant_errors() == []
            checked += 1
        acts = s.legal_actions()
        ends = [a for a in acts if a.verb in ("end", "pass", "stop", "go")]
        s.apply(rng.choice(ends) if ends and rng.random() < 0.35 else rng.choice(acts))
    assert checked > 20
