"""Legal-action counts at fixed positions, like perft in chess: they pin move generation so that a
change to it is seen (the counts were taken before the engine moved onto the game kit, and hold
after). If a count changes on purpose, check the new one by hand and update it here."""

from __future__ import annotations

from collections import Counter

from .support import GAME, state

# a US movement phase: six US units (an LVT and artillery among them) against two Japanese
# stacks and a stealth marker (DG 7.1-7.7)
US_MOVE = {
    "7/1": "3808",
    "1/1": "3707",
    "5/1": "3608",
    "11/1": "3607",
    "1LVT": "3607",
    "10/3": "3706",
    "124/1": {"at": "4012", "order": 1},
    "124/2": {"at": "4012", "order": 2},
    "4/1": "3912",
    "124/3": {"at": "4014", "stealth": 2},
}
# a Japanese movement phase with two units under stealth (DG 7.7) and an engineer
JP_MOVE = {
    "7/1": "3808",
    "1/1": "3707",
    "124/1": {"at": "4012", "order": 1},
    "124/2": {"at": "4012", "order": 2},
    "4/1": "3912",
    "124/3": {"at": "4014", "stealth": 3},
    "28/1": {"at": "4115", "stealth": 1},
    "38Eng": "3911",
}
FIRE = {"10/3": "3706", "90": "3606", "7/1": "3808", "124/2": "3708", "28/1": "3909", "20Mt": "3912"}
COMBAT = {
    "147/1": "3808",
    "147/2": "3808",
    "10/3": "3707",
    "11/1": "3709",
    "124/2": "3708",
    "28/1": "3708",
    "4/1": "3810",
}


def verbs(s) -> dict[str, int]:
    return dict(Counter(a.verb for a in s.legal_actions()))


def test_the_opening():  # DG 3.0, 6.0: the first US landing, on any village or clear coastal hex
    s = GAME.new_state(1)
    assert (s.step, s.current_player()) == ("us_reinforce", "us")
    assert verbs(s) == {"land": 49}


def test_a_us_movement_phase():  # DG 7.1-7.6, 7.7.5
    s = state(10, "us_move", US_MOVE)
    assert verbs(s) == {"move": 1304, "sea": 83, "stack": 153, "detect": 8, "end": 1}


def test_a_japanese_movement_phase():  # DG 7.1-7.5, 7.7.1, 7.7.3
    s = state(10, "jp_move", JP_MOVE)
    assert verbs(s) == {"move": 305, "stack": 81, "stealth": 3, "unstealth": 2, "end": 1}


def test_an_artillery_phase():  # DG 8.1, 8.1.8
    s = state(15, "us_fire_1", FIRE, supply={"us": 6, "jp": 6})
    assert verbs(s) == {"fire": 21, "counter": 8, "end": 1}


def test_an_assault_from_start_to_end():  # DG 8.2, 8.2.1, 8.2.3, 8.2.4, 8.2.1.4
    s = state(15, "us_combat", COMBAT, supply={"us": 4, "jp": 6}, dice=[1] * 10)
    assert [str(a) for a in s.legal_actions()] == ["attack 3708"]
    support = [f"support {u} {n}" for u in ("10/3", "11/1") for n in (1, 2, 3)]
    s.apply("attack 3708")
    assert [str(a) for a in s.legal_actions()] == [*support, "with 147/1", "with 147/2"]
    s.apply("with 147/1")
    assert [str(a) for a in s.legal_actions()] == [*support, "with 147/2", "strain"]
    s.apply("with 147/2")
    assert [str(a) for a in s.legal_actions()] == [*support, "strain", "go"]
    s.apply("support 10/3 2")
    s.apply("go")  # 10 to 8, 1-1, a 1: the defender loses a step, the attacker may advance
    assert (s.current_player(), [str(a) for a in s.legal_actions()]) == ("jp", ["lose 124/2", "lose 28/1"])
    s.apply("lose 124/2")
    assert [str(a) for a in s.legal_actions()] == ["advance 147/1 3708", "advance 147/2 3708", "stop"]
    s.apply("advance 147/1 3708")
    assert [str(a) for a in s.legal_actions()] == ["advance 147/2 3708", "stop"]
    s.apply("advance 147/2 3708")
    assert [str(a) for a in s.legal_actions()] == ["end"]  # the phase waits for its end


def test_rabaul_picks():  # DG 10.2.2: Japan held an operational field all turn; 3 + 4 strength
    s = state(
        12,
        "turn_end",
        {"124/2": "3707"},
        open=False,
        dice=[3, 4],
        henderson_field={"status": 20, "control": "jp"},
        flags={"hf_jp_start": True, "hf_op_start": True},
    )
    assert s.current_player() == "jp"
    assert verbs(s) == {"rabaul": 6, "pass": 1}
