"""Agents do not shuffle units back and forth, and `hard` does not think over a choice that is made."""

from __future__ import annotations

import random
from typing import Any

import pytest

from henderson import agents, games
from henderson.agents.evaluation import register_evaluator, unregister_evaluator
from henderson.agents.mcts import MCTSAgent
from henderson.agents.repetition import PhaseMemory, moves_of, phase_of, unit_places
from tests.agents.test_repetition import LoopGame, LoopState


@pytest.fixture(scope="module")
def fb() -> Any:
    try:
        return games.get("firstblood")
    except Exception as exc:  # the engine is not on this branch yet
        pytest.skip(f"FIRST BLOOD is not playable here: {exc}")


def us_movement(fb: Any) -> Any:
    """A US movement phase from seeded random play, with many moves to choose from."""
    state = fb.new_state(3)
    rng = random.Random(3)
    while state.ply < 200 or state.step != "us_movement" or len(state.legal_actions()) < 100:
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    return state


def test_moves_and_places_are_read_from_the_public_api(fb: Any) -> None:
    state = us_movement(fb)
    places = unit_places(state.view("us"))
    move = next(a for a in state.legal_actions() if str(a).startswith("move "))
    ((unit, to),) = moves_of(fb, move)
    assert unit in places and to != places[unit]
    memory = PhaseMemory()
    memory.note(state, "us")
    after = state.clone()
    after.apply(move)
    back = next((a for a in after.legal_actions() if moves_of(fb, a) == [(unit, places[unit])]), None)
    if back is not None:
        assert memory.shuffles(after, back)


def test_normal_never_moves_a_unit_back_to_where_it_stood_this_phase(fb: Any) -> None:
    # every position worth the same: only the rule against shuffling keeps the moves purposeful
    register_evaluator("firstblood", lambda state, side: 0.0)
    try:
        state = us_movement(fb)
        phase = phase_of(state)
        agent = agents.get("normal:limit=150", 5)
        stood: dict[str, set[str]] = {}
        moves = 0
        while phase_of(state) == phase and moves < 40:
            for unit, place in unit_places(state.view(None)).items():
                stood.setdefault(unit, set()).add(place)
            action = agent.choose(state)
            for unit, place in moves_of(fb, action):
                assert place not in stood.get(unit, ()), f"{action} takes {unit} back"
            moves += 1
            state.apply(action)
        assert moves >= 10
    finally:
        unregister_evaluator("firstblood")


class OneWay(LoopState):
    """The loop game with a single legal action."""

    def legal_actions(self) -> list[str]:
        return [] if self.over else ["end"]


def test_hard_answers_a_forced_decision_without_searching(monkeypatch: pytest.MonkeyPatch) -> None:
    register_evaluator("loop", lambda state, side: 0.0)
    state = OneWay(LoopGame())
    agent = agents.get("hard", 1)

    def no_look_ahead(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("searched a forced decision")

    monkeypatch.setattr(agent, "_iterate", no_look_ahead)
    monkeypatch.setattr(agent, "_candidate_root", no_look_ahead)
    assert agent.choose(state) == "end"


class TwoWays(LoopState):
    """The loop game where both actions toggle the flag: a choice between equals."""

    def legal_actions(self) -> list[str]:
        return ["toggle", "flip"]

    def _apply(self, action: Any) -> list[Any]:
        self.flag = not self.flag
        self._ply += 1
        return []

    def clone(self) -> TwoWays:
        other = TwoWays(self._game)
        other.flag, other._ply, other.dice = self.flag, self._ply, self.dice.clone()
        return other


def test_hard_spends_little_on_a_choice_between_equals() -> None:
    register_evaluator("loop", lambda state, side: 0.25)
    state = TwoWays(LoopGame())
    agent = MCTSAgent.hard(1)
    agent.choose(state)
    assert agent.last_share == pytest.approx(2 / 8 * 0.125)
    assert agent.last_iterations <= 400 * agent.last_share + 2


def test_a_game_that_searches_its_equal_choices_in_full_gets_their_whole_share(monkeypatch) -> None:
    """`trivial_share` 1 as a game's own option (DG's, `GAME_OPTIONS`): candidates the one-step
    look-ahead finds alike are searched like any others."""
    from henderson.agents import mcts

    register_evaluator("loop", lambda state, side: 0.25)
    monkeypatch.setitem(mcts.GAME_OPTIONS, "loop", {"trivial_share": 1.0})
    agent = MCTSAgent.hard(1)
    agent.choose(TwoWays(LoopGame()))
    assert agent.last_share == pytest.approx(2 / 8)
    assert agent.last_iterations > 400 * 2 / 8 * 0.125 + 2


def test_hard_spends_its_budget_in_proportion_to_the_candidates() -> None:
    # `toggle` is worth more than `end`: a real choice between two, a quarter of the budget
    register_evaluator(
        "loop", lambda state, side: (0.5 if getattr(state, "flag", False) else -0.5) * (1 if side == "a" else -1)
    )
    state = LoopState(LoopGame())
    agent = MCTSAgent.hard(1)
    agent.choose(state)
    assert agent.last_share == pytest.approx(2 / 8)
    assert agent.last_iterations > 400 * 2 / 8 * 0.125 + 2


class Stub:
    """Just enough of a game and a position for the phase memory: a turn, a step, a view."""

    turn = 3
    step = "regroup:land"

    def __init__(self, places: dict[str, str]) -> None:
        self.places = places
        self.game = games.get("aag")

    def view(self, side: Any) -> dict[str, Any]:
        return {"pieces": {u: {"zone": z} for u, z in self.places.items()}}


def test_staying_where_a_unit_stands_is_no_shuffle() -> None:
    memory = PhaseMemory()
    memory.note(Stub({"jp52": "malaita"}), "jp")  # type: ignore[arg-type]
    memory.note(Stub({"jp52": "C"}), "jp")  # type: ignore[arg-type]
    back, stay = Stub({"jp52": "C"}), Stub({"jp52": "malaita"})
    land = back.game.parse_action("land jp52 malaita")
    assert memory.shuffles(back, land)  # type: ignore[arg-type]
    memory.note(stay, "jp")  # type: ignore[arg-type]
    assert not memory.shuffles(stay, land)  # type: ignore[arg-type]
