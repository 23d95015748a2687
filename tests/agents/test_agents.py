"""Every agent plays legal, reproducible moves without touching the game; the registry by name."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from henderson import agents, games
from henderson.agents import AgentError, parse_spec
from henderson.agents.heuristic import HeuristicAgent
from henderson.agents.mcts import MCTSAgent
from tests.agents.helpers import clearly_better, match, play

FAST = ["random", "heuristic", "easy", "normal", "mcts:iterations=30", "hard:iterations=30"]


def position(seed: int, plies: int):
    """A toy position reached by seeded random play."""
    state = games.get("toy").new_state(seed)
    mover = agents.get("random", seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply(mover.choose(state))
    return state


def test_levels_and_builtins_are_registered() -> None:
    assert {"random", "heuristic", "mcts", "easy", "normal", "hard"} <= set(agents.names())
    assert isinstance(agents.get("normal"), HeuristicAgent)
    assert isinstance(agents.get("hard"), MCTSAgent)
    easy = agents.get("easy")
    assert isinstance(easy, HeuristicAgent) and easy.noise > 0 and easy.epsilon > 0


@given(seed=st.integers(0, 10_000), plies=st.integers(0, 30), spec=st.sampled_from(FAST))
@settings(max_examples=40, deadline=None)
def test_agents_choose_a_legal_action_and_leave_the_state_alone(seed: int, plies: int, spec: str) -> None:
    state = position(seed, plies)
    if state.is_terminal():
        return
    before = state.to_json()
    action = agents.get(spec, seed).choose(state)
    assert str(action) in {str(a) for a in state.legal_actions()}
    assert state.to_json() == before  # the game's own dice were not rolled either


@pytest.mark.parametrize("spec", FAST)
def test_agents_are_reproducible_with_a_seed(spec: str) -> None:
    game = games.get("toy")
    first = play(game, {"red": spec, "blue": spec}, 11)
    second = play(game, {"red": spec, "blue": spec}, 11)
    assert first.to_json() == second.to_json()
    assert first.ply == second.ply


def test_different_seeds_give_different_random_play() -> None:
    game = games.get("toy")
    finals = {play(game, {"red": "random", "blue": "random"}, s).ply for s in range(10)}
    assert len(finals) > 1


def test_heuristic_beats_random_from_both_sides() -> None:
    wins, n = match("heuristic", "random", 60)
    assert clearly_better(wins, n), f"{wins}/{n}"


def test_normal_beats_easy_from_both_sides() -> None:
    wins, n = match("normal", "easy", 80, seed=500)
    assert clearly_better(wins, n), f"{wins}/{n}"


def test_mcts_beats_random_from_both_sides() -> None:
    wins, n = match("mcts:iterations=60", "random", 30, seed=1000)
    assert clearly_better(wins, n), f"{wins}/{n}"


def test_spec_options_reach_the_agent() -> None:
    agent = agents.get("mcts:iterations=12:c=0.5:reuse=false", 3)
    assert isinstance(agent, MCTSAgent)
    assert (agent.iterations, agent.c, agent.reuse) == (12, 0.5, False)
    assert parse_spec("easy:noise=0.1") == ("easy", {"noise": 0.1})


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("nobody", "unknown agent 'nobody'"),
        ("mcts:iterations", "is not key=value"),
        ("mcts:bogus=1", "bogus"),
        ("heuristic:samples=0", "samples"),
    ],
)
def test_bad_agent_names_are_one_line_errors(spec: str, says: str) -> None:
    with pytest.raises(AgentError) as info:
        agents.get(spec)
    assert says in str(info.value)
    assert "\n" not in str(info.value)


def test_an_agent_with_one_legal_action_takes_it_and_none_raises() -> None:
    state = games.get("toy").load_state(
        {
            "format": "henderson-position",
            "game": "toy",
            "version": 1,
            "step": "blue",
            "entered": True,
            "scores": {"red": 20, "blue": 3},
            "cards": {"red": 1, "blue": 2},
            "turn_total": 0,
            "result": {"winner": "red", "cause": "20 points"},
        }
    )
    assert state.is_terminal()
    for spec in FAST:
        with pytest.raises(ValueError):
            agents.get(spec, 0).choose(state)
