"""The Gymnasium single-agent environment: one side against a built-in agent."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from henderson.agents import AgentError
from henderson.core.errors import HendersonError

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

from henderson.research.gym_env import HendersonEnv  # noqa: E402


def test_gymnasium_env_checker_passes() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # advice about an unbounded observation box
        check_env(HendersonEnv("aag", side="us", opponent="random", on_illegal="lose", max_plies=40))


@pytest.mark.parametrize("side", ["us", "jp"])
def test_the_learner_plays_its_side_to_the_end_against_the_agent(side: str) -> None:
    e = HendersonEnv("aag", side=side, opponent="random")
    obs, _ = e.reset(seed=21)
    rng = np.random.default_rng(1)
    reward, done = 0.0, False
    while not done:
        assert e.match is not None and e.match.current_player() == side
        assert np.array_equal(obs["action_mask"].astype(bool), e.action_masks())
        obs, reward, terminated, truncated, _info = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        done = terminated or truncated
    assert e.match is not None and e.match.state.is_terminal()
    assert reward == (1.0 if e.match.state.winner() == side else -1.0)
    with pytest.raises(HendersonError, match="over"):
        e.step(0)


def test_illegal_tokens_raise_lose_or_are_replaced() -> None:
    e = HendersonEnv("firstblood", opponent="random", max_plies=10)
    obs, _ = e.reset(seed=2)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(HendersonError):
        e.step(illegal)
    lose = HendersonEnv("firstblood", opponent="random", on_illegal="lose")
    lose.reset(seed=2)
    _, reward, terminated, _, info = lose.step(illegal)
    assert (reward, terminated, info["illegal"]) == (-1.0, True, illegal)
    other = HendersonEnv("firstblood", opponent="random", on_illegal="random")
    other.reset(seed=2)
    other.step(illegal)
    assert other.match is not None and len(other.match.history) == 1


def test_bad_settings_are_refused_in_one_line() -> None:
    with pytest.raises(AgentError, match="unknown agent"):
        HendersonEnv("aag", opponent="grandmaster")
    with pytest.raises(HendersonError, match="no side"):
        HendersonEnv("aag", side="axis")
    with pytest.raises(HendersonError, match="on_illegal"):
        HendersonEnv("aag", on_illegal="ignore")
