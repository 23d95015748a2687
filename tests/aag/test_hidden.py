"""The hidden-movement option (AAG Appendix 1) keeps each side's sea orders secret: from
`view`, from the log the server sends (`redact`), and from look-ahead (`sample_unseen`
draws the other side's orders again, from what the side can see)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from henderson.core.record import record_for, seen_by
from henderson.games.aag.model import other

from .helpers import game, without_dice


def to_orders(seed: int, orders: int) -> Any:
    """A hidden-movement game at turn 1 in Hidden Sea Movement, after the first player wrote
    `orders` sea orders and ended: the second player now writes."""
    state = game().new_state(seed, options={"hidden_movement": True})
    while state.step != "hidden:orders":
        state.apply("end")
    rng = random.Random(seed)
    for _ in range(orders):
        moves = [a for a in state.legal_actions() if a.verb == "move"]
        state.apply(rng.choice(moves))
    state.apply("end")
    assert state.step == "hidden:orders" and state.half == 1
    return state


def without_orders(state: Any, side: str) -> Any:
    """The same position as `side` sees it, with the other side having written nothing."""
    obj = state.to_json()
    hidden = obj["orders"][other(side)]
    for p in obj["pieces"].values():
        if p["id"] in hidden:
            p["moved"] = False
    obj["orders"][other(side)] = {}
    return game().load_state(obj)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sample_unseen_depends_only_on_the_view_rule_aag_hidden_movement(seed: int) -> None:
    written = to_orders(seed, orders=2)
    side = written.current_player()
    assert written.orders[other(side)]  # the secret
    blank = without_orders(written, side)
    assert blank.orders[other(side)] == {}
    assert written.view(side) == blank.view(side)
    a = written.sample_unseen(side, random.Random(11))
    b = blank.sample_unseen(side, random.Random(11))
    assert a.to_json() == b.to_json()
    assert a.view(side) == written.view(side)  # the guess agrees with what the side sees
    # the original keeps its orders; the guess is legal: one sea move from where each unit is
    assert written.orders[other(side)] and written.to_json() != blank.to_json()
    graph = written.data.board.sea_graph
    for uid, dest in a.orders[other(side)].items():
        assert dest in graph[a.pieces[uid].zone] and a.pieces[uid].moved


def test_sample_unseen_guesses_vary_and_play_on() -> None:
    state = to_orders(4, orders=1)
    side = state.current_player()
    guesses = {
        tuple(sorted(state.sample_unseen(side, random.Random(n)).orders[other(side)].items())) for n in range(12)
    }
    assert len(guesses) > 1
    sample = state.sample_unseen(side, random.Random(0))
    sample.apply("end")  # the side's own orders written: both revealed and carried out
    assert sample.orders == {"us": {}, "jp": {}} and sample.step != "hidden:orders"


def test_nothing_is_redrawn_when_nothing_is_hidden() -> None:
    state = game().new_state(6, options={"hidden_movement": True})
    while state.step != "hidden:orders":
        state.apply("end")
    first = state.current_player()
    sample = state.sample_unseen(first, random.Random(3))  # the other side has not begun
    assert without_dice(sample) == without_dice(state)
    plain = game().new_state(6)
    assert without_dice(plain.sample_unseen("us", random.Random(3))) == without_dice(plain)


def test_sample_unseen_draws_new_dice() -> None:
    state = game().new_state(6)
    a = state.sample_unseen("us", random.Random(1))
    b = state.sample_unseen("us", random.Random(2))
    assert a.to_json()["dice"] != b.to_json()["dice"]
    assert state.sample_unseen("us", random.Random(1)).to_json() == a.to_json()


def test_orders_are_redacted_in_the_log_rule_aag_hidden_movement() -> None:
    g = game()
    state = g.new_state(5, options={"hidden_movement": True})
    record = record_for(g, state, {"us": "human", "jp": "human"})
    while state.step != "hidden:orders":
        record.add(state.current_player(), "end", state.apply("end"))
    writer = state.current_player()
    move = next(a for a in state.legal_actions() if a.verb == "move")
    record.add(writer, str(move), state.apply(move))
    entry = record.entries[-1]
    unit = move.args[1].split(",")[0]
    assert seen_by(state, entry, writer)["action"] == str(move)
    for reader in (other(writer), None):
        seen = seen_by(state, entry, reader)
        assert seen["action"] == "move (secret sea order)"
        assert unit not in str(seen) and move.args[0] not in seen["action"]
    # a public action is not redacted
    record.add(writer, "end", state.apply("end"))
    assert seen_by(state, record.entries[-1], other(writer))["action"] == "end"
