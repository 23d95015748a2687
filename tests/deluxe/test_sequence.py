"""The sequence of play (DG 4.0) runs from `sequence.toml`: automatic steps pass by
themselves, decision steps wait for the side the step names."""

from __future__ import annotations

from .support import GAME


def test_sequence_is_data():  # DG 4.0
    steps = GAME.data.sequence
    assert [s.number for s in steps] == list(range(1, 21))
    assert [s.id for s in steps][:7] == [
        "us_event",
        "us_vp",
        "us_naval",
        "us_reinforce",
        "us_supply",
        "guerrilla",
        "us_move",
    ]
    assert steps[7].side == "jp" and steps[8].side == "us"  # Japanese fire first in step 8
    assert steps[16].side == "us" and steps[17].side == "jp"  # then US fire in step 17


def test_first_turn_visits_the_decision_steps_in_order():  # DG 4.0, 6.0, 12.0
    s = GAME.new_state(3)
    seen = []
    while s.turn == 1:
        step = (s.step_id, s.current_player())
        if not seen or seen[-1] != step:
            seen.append(step)
        acts = s.legal_actions()
        enders = [a for a in acts if a.verb in ("end", "pass")]
        s.apply(enders[0] if enders else acts[0])
    assert seen[0] == ("us_reinforce", "us")  # turn 1: nothing to score, no bombardment yet
    order = [sid for sid, _ in seen]
    assert order.index("us_move") < order.index("jp_reinforce") < order.index("jp_move")
    assert all(
        player == GAME.data.sequence[[x.id for x in GAME.data.sequence].index(sid)].side
        for sid, player in seen
    )
    assert s.turn == 2 and s.units["1/1"].on_map and s.units["84G"].on_map
