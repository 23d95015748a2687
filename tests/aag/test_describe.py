"""Every AAG action as a structured value (`Game.describe`): a verb and typed arguments, unit ids
as UNIT (a group move's as UNITS), zones as ZONE, unit types and categories as KIND, next to the
notation, which round-trips through `parse_action`."""

from __future__ import annotations

import random

import pytest

from henderson.core.actions import ArgKind
from henderson.games.aag.state import AAGState

from .helpers import game


def check(state: AAGState) -> None:
    """Every legal action of `state` describes itself, with arguments it names."""
    g = state.game
    zones = set(g.data.board.zone_ids())
    kinds = {*g.data.units, "supply", "air", "sea", "land"}
    for action in state.legal_actions():
        info = g.describe(action)
        assert info.text == str(action) and info.verb == action.verb
        assert g.parse_action(info.text) == action
        assert info.to_json()["text"] == info.text
        for arg in info.args:
            if arg.kind is ArgKind.UNIT:
                assert arg.value in state.pieces, (action, arg)
            elif arg.kind is ArgKind.UNITS:
                assert all(uid in state.pieces for uid in arg.value), (action, arg)
            elif arg.kind is ArgKind.ZONE:
                assert arg.value in zones, (action, arg)
            elif arg.kind is ArgKind.KIND:
                assert arg.value in kinds, (action, arg)
            else:
                assert arg.kind is ArgKind.WORD and arg.role == "token", (action, arg)


@pytest.mark.parametrize(
    ("seed", "options"),
    [(1, {}), (2, {"hidden_movement": True}), (3, {"advantages": True}), (4, {"advantages": True})],
)
def test_every_legal_action_in_random_play_describes_itself(seed: int, options: dict[str, bool]) -> None:
    state = game().new_state(seed, options=options)
    rng = random.Random(seed)
    verbs = set()
    for _ in range(1500):
        if state.is_terminal():
            break
        check(state)
        legal = state.legal_actions()
        verbs |= {a.verb for a in legal}
        state.apply(rng.choice(legal))
    assert {"move", "load", "fight", "roll", "land", "buy", "end"} <= verbs


def test_the_arguments_and_their_roles() -> None:
    g = game()
    cases = {
        "move H us3,us4": ("move", [("zone", "to", "H"), ("units", "units", ["us3", "us4"])]),
        "land us2 us5": ("land", [("unit", "unit", "us2"), ("unit", "to", "us5")]),
        "land us2 guadalcanal": ("land", [("unit", "unit", "us2"), ("zone", "to", "guadalcanal")]),
        "repair us6": ("repair", [("unit", "unit", "us6")]),
        "repair guadalcanal": ("repair", [("zone", "at", "guadalcanal")]),
        "torpedo us7 jp12": ("torpedo", [("unit", "with", "us7"), ("unit", "target", "jp12")]),
        "buy supply": ("buy", [("kind", "type", "supply")]),
        "use command_decision H sea": (
            "use",
            [("word", "token", "command_decision"), ("zone", "zone", "H"), ("kind", "category", "sea")],
        ),
        "use quick_drop E new_georgia": (
            "use",
            [("word", "token", "quick_drop"), ("zone", "from", "E"), ("zone", "to", "new_georgia")],
        ),
        "end": ("end", []),
    }
    for text, (verb, args) in cases.items():
        info = g.describe(g.parse_action(text)).to_json()
        assert info["verb"] == verb
        assert [(a["kind"], a["role"], a["value"]) for a in info["args"]] == args, text
