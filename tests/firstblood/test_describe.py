"""Actions as structured values (`Game.describe`): every legal action of seeded random games
describes itself as a verb and typed arguments that name real counters, hexes and boxes, and
its text round-trips through `parse_action`."""

from __future__ import annotations

import random

from hypothesis import given

from henderson.core.actions import ArgKind
from henderson.games.firstblood import actions as A

from .test_notation import actions

VERBS = {"place", "setup", "commit", "move", "bomb", "attack", "add", "resolve", "cancel", "air", "bombard"} | {
    "lose",
    "retreat",
    "advance",
    "stop",
    "land",
    "fly",
    "end",
}


def places(game) -> set[str]:
    board = game.board
    return {*board.box_arrows, *board.ep_arrows, *game.data.map.holding_boxes}


def check(game, action) -> None:
    info = game.describe(action)
    assert info.text == str(action) and game.parse_action(info.text) == action
    assert info.verb == info.text.split()[0]
    data, board = game.data, game.board
    counters = {*data.ground, *data.air, *data.ships}
    for arg in info.args:
        assert arg.role
        if arg.kind is ArgKind.UNIT:
            assert arg.value in counters, (info.text, arg)
        elif arg.kind is ArgKind.UNITS:
            assert arg.value and all(u in counters for u in arg.value), (info.text, arg)
        elif arg.kind is ArgKind.HEX:
            assert arg.value in board.terrain, (info.text, arg)
        elif arg.kind is ArgKind.BOX:
            assert arg.value in places(game), (info.text, arg)
        else:
            assert arg.kind is ArgKind.WORD and arg.value in info.text.split()
        assert arg.to_json()["kind"] == arg.kind.value


def test_every_legal_action_of_random_play_describes_itself(game):
    seen: set[str] = set()
    checked: set[A.FBAction] = set()  # each action once: the same move is legal at many plies
    for seed in range(4):
        st = game.new_state(seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            acts = st.legal_actions()
            for action in acts:
                if action not in checked:
                    check(game, action)
                    checked.add(action)
                    seen.add(str(action).split()[0])
            st.apply(acts[rng.randrange(len(acts))])
    assert seen == VERBS  # every kind of action was met


def test_an_attack_names_its_targets_and_each_part(game):
    info = game.describe(A.parse_action("attack 0906+0907 with 1/1,2/1 art 11Mar ships DD-1"))
    assert info.verb == "attack"
    assert [(a.kind, a.role, a.value) for a in info.args] == [
        (ArgKind.HEX, "target", "0906"),
        (ArgKind.HEX, "target", "0907"),
        (ArgKind.UNITS, "with", ("1/1", "2/1")),
        (ArgKind.UNITS, "artillery", ("11Mar",)),
        (ArgKind.UNITS, "ships", ("DD-1",)),
    ]
    fly = game.describe(A.parse_action("fly F4F-1 cap"))
    assert fly.first(ArgKind.UNIT) == "F4F-1" and fly.first(ArgKind.BOX) == "usaf_cap"


@given(actions)
def test_any_action_describes_itself_with_its_own_words(action):
    from henderson import games

    info = games.get("firstblood").describe(action)
    assert info.text == str(action) and A.parse_action(info.text) == action and info.verb == info.text.split()[0]
