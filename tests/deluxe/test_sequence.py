"""The sequence of play (DG 3.0, 4.0) runs from `sequence.toml` on the kit's engine: automatic
steps pass by themselves, decision steps wait for the side the step names."""

from __future__ import annotations

from henderson.games.deluxe.rules.phase import DGPhase

from .support import GAME

PLAN = GAME.sequence().for_options(frozenset())


def test_sequence_is_data():  # DG 3.0, 4.0
    assert [s.id for s in PLAN.steps if s.setup] == ["setup"]  # DG 3.0 prepare for play
    steps = PLAN.steps[PLAN.first_turn_step :]
    assert len(steps) == 20
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
    state = GAME.new_state(1)
    kinds = [state.rules_named(s.phase) for s in PLAN.steps]
    assert all(isinstance(k, DGPhase) for k in kinds)  # each step names its rules in rules/
    assert [k.kind for k in kinds][:4] == ["setup", "event", "vp", "naval"]


def test_first_turn_visits_the_decision_steps_in_order():  # DG 4.0, 6.0, 12.0
    s = GAME.new_state(3)
    seen = []
    while s.turn == 1:
        step = (s.step, s.current_player())
        if not seen or seen[-1] != step:
            seen.append(step)
        acts = s.legal_actions()
        enders = [a for a in acts if a.verb in ("end", "pass")]
        s.apply(enders[0] if enders else acts[0])
    assert seen[0] == ("us_reinforce", "us")  # turn 1: nothing to score, no bombardment yet
    order = [sid for sid, _ in seen]
    assert order.index("us_move") < order.index("jp_reinforce") < order.index("jp_move")
    assert all(player == PLAN.steps[PLAN.index(sid)].side for sid, player in seen)
    assert s.turn == 2 and s.units["1/1"].on_map and s.units["84G"].on_map
