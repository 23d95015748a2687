"""Every DG action as a structured value (`Game.describe`): a verb and typed arguments (unit ids
as UNIT, a stack as UNITS, hexes as HEX, numbers as NUMBER), each with its role, for clients that
pick actions without reading notation; and its text round-trips through `parse_action`."""

from __future__ import annotations

import random

import pytest

from henderson.core.actions import ArgKind
from henderson.games.deluxe.actions import ROLES, VERBS

from .support import GAME


def check(state) -> set[str]:
    """Every legal action of `state` describes itself; the verbs seen."""
    seen = set()
    for action in state.legal_actions():
        info = GAME.describe(action)
        assert info.text == str(action) and info.verb == action.verb
        assert GAME.parse_action(info.text) == action
        assert len(info.args) == len(action.args)
        for arg, raw in zip(info.args, action.args, strict=True):
            assert arg.role
            if arg.kind is ArgKind.UNIT:
                assert arg.value in GAME.data.units
            elif arg.kind is ArgKind.UNITS:
                assert "+".join(arg.value) == raw and all(u in GAME.data.units for u in arg.value)
            elif arg.kind is ArgKind.HEX:
                assert arg.value in GAME.data.map.hexes
            else:
                assert arg.kind is ArgKind.NUMBER and arg.value == int(raw)
        seen.add(action.verb)
    return seen


@pytest.mark.parametrize("seed", range(3))
def test_every_legal_action_in_random_play_describes_itself(seed):
    state = GAME.new_state(seed, options={"us_stealth": seed == 2})
    rng = random.Random(seed)
    verbs: set[str] = set()
    while not state.is_terminal() and state.ply < 900:
        if state.ply % 3 == 0 or not state.step.endswith("_move"):  # a movement phase lists thousands
            verbs |= check(state)
        acts = state.legal_actions()
        ends = [a for a in acts if a.verb in ("end", "pass", "stop", "go")]
        state.apply(rng.choice(ends) if ends and rng.random() < 0.35 else rng.choice(acts))
    assert {"land", "move", "stack", "attack", "with", "go", "lose", "end", "pass"} <= verbs


def test_every_verb_has_a_role_for_each_argument():
    for verb, spec in VERBS.items():
        assert len(ROLES.get(verb, ())) == len(spec.replace("?", "")), verb


def test_a_described_action():
    info = GAME.describe(GAME.parse_action("fire 10/3 3708 2")).to_json()
    assert info == {
        "text": "fire 10/3 3708 2",
        "verb": "fire",
        "args": [
            {"kind": "unit", "role": "unit", "value": "10/3"},
            {"kind": "hex", "role": "target", "value": "3708"},
            {"kind": "number", "role": "factors", "value": 2},
        ],
    }
    stack = GAME.describe(GAME.parse_action("stack 7/1+1/1 3808")).to_json()["args"][0]
    assert stack == {"kind": "units", "role": "units", "value": ["1/1", "7/1"]}
