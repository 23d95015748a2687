"""The PettingZoo AEC environments pass PettingZoo's own API and seed tests, and play whole
games with the rewards of the result."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from henderson.core.errors import HendersonError
from henderson.research.match import MatchError
from tests.research.conftest import GAMES, SOAK

pettingzoo_test = pytest.importorskip("pettingzoo.test")
from henderson.research.pettingzoo_env import env  # noqa: E402

# long enough for the API test to reach a truncation and play on through the agents' removal
PLIES = {"firstblood": 60, "deluxe": 30, "aag": 80}


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api_test_passes(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # advice about dict observations and agent names
        pettingzoo_test.api_test(env(name, max_plies=None if SOAK else PLIES[name]), num_cycles=50_000 if SOAK else 400)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_seed_test_passes(name: str) -> None:
    pettingzoo_test.seed_test(lambda: env(name, max_plies=PLIES[name]), num_cycles=150)


def test_a_whole_game_ends_with_the_winner_rewarded() -> None:
    e = env("aag")
    e.reset(seed=12)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    steps = 0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        if terminated or truncated:
            assert terminated and not truncated
            e.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.sum() >= 1
        for other in e.possible_agents:
            if other != agent:
                assert e.observe(other)["action_mask"].sum() == 0, "only the side choosing has legal tokens"
        e.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    match = e.match
    assert match is not None and match.state.is_terminal()
    winner = match.state.winner()
    assert sorted(totals.values()) == [-1.0, 1.0] and totals[winner] == 1.0
    assert steps > match.plies, "each action took its tokens"


def test_resets_with_a_seed_replay_the_same_game_and_bad_input_is_refused() -> None:
    e = env("firstblood", max_plies=20)
    e.reset(seed=3)
    first = e.observe(e.agent_selection)["observation"].copy()
    token = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])
    e.step(token)
    e.reset(seed=3)
    assert np.array_equal(e.observe(e.agent_selection)["observation"], first)
    illegal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(MatchError):
        e.step(illegal)
    with pytest.raises(HendersonError):
        env("firstblood", options={"no_such_rule": True})
    with pytest.raises(HendersonError):
        e.reset(seed=-1)
    text = e.render()
    assert isinstance(text, str) and text
