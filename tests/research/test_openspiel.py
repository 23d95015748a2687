"""The OpenSpiel python games pass OpenSpiel's random simulation test, with dice as explicit
chance nodes that exact expectimax and chance-sampling search can read."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

from henderson import games
from henderson.core.dice import DiceExhausted, ScriptedDice
from tests.research.conftest import GAMES, SOAK

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import mcts, minimax  # noqa: E402

from henderson.research import openspiel_game  # noqa: E402

# henderson actions per simulated game: whole games when soaking
PLIES = {"firstblood": 30, "deluxe": 12, "aag": 30}


@pytest.mark.parametrize("name", GAMES)
def test_random_sim_test_passes_with_explicit_chance(name: str) -> None:
    game = openspiel_game.load(name, max_plies=0 if SOAK else PLIES[name])
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    pyspiel.random_sim_test(game, num_sims=3 if SOAK else 1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_random_sim_test_passes_with_sampled_dice(name: str) -> None:
    game = openspiel_game.load(name, max_plies=PLIES[name], explicit_chance=False, seed=4)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_the_game_declares_its_spaces_and_information() -> None:
    fb = openspiel_game.load("firstblood")
    assert fb.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    dg = openspiel_game.load("deluxe", options="us_stealth")
    assert dg.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert dg.max_chance_outcomes() == openspiel_game.max_die(games.get("deluxe")) >= 6
    assert dg.num_distinct_actions() == openspiel_game.action_space(games.get("deluxe")).size
    state = dg.new_initial_state()
    assert len(state.observation_tensor(0)) == dg.observation_tensor_size()
    assert state.information_state_string(0) != state.information_state_string(1)
    assert pickle.loads(pickle.dumps(dg)).num_distinct_actions() == dg.num_distinct_actions()
    with pytest.raises(Exception, match="unknown deluxe option"):
        openspiel_game.load("deluxe", options="fog_of_war")


def _state_before_a_roll(**params: object) -> object:
    """An OpenSpiel FIRST BLOOD state where "resolve" is legal and rolls a die."""
    game = openspiel_game.load("firstblood", **params)
    state = game.new_initial_state()
    rng = random.Random(2)
    space = state.match.space
    resolve = space.tokens("resolve")
    while True:
        if state.is_chance_node():
            faces, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(faces, probs)[0])
            continue
        match = state.match
        if not match.prefix and resolve[0] in state.legal_actions():
            probe = state.clone()
            probe.apply_action(resolve[0])
            probe.apply_action(resolve[1])
            if probe.is_chance_node():
                return state
        state.apply_action(rng.choice(state.legal_actions()))


def test_chance_nodes_give_the_exact_expectation_over_the_dice() -> None:
    state = _state_before_a_roll()
    space = state.match.space  # type: ignore[attr-defined]
    game = games.get("firstblood")
    player = state.current_player()  # type: ignore[attr-defined]
    side = game.sides[player]

    def value(s: object) -> float:
        match = s.match  # type: ignore[attr-defined]
        if match.is_over():
            return float(match.returns()[game.sides[0]])
        return game.evaluate(match.state, game.sides[0])

    after = state.clone()  # type: ignore[attr-defined]
    for token in space.tokens("resolve"):
        after.apply_action(token)
    assert after.is_chance_node()
    outcomes = after.chance_outcomes()
    assert [f for f, _ in outcomes] == list(range(6)) and sum(p for _, p in outcomes) == pytest.approx(1.0)

    def over_chance(s: object) -> float:
        """Exact expectation through OpenSpiel's chance nodes (outcomes and probabilities)."""
        if s.is_chance_node():  # type: ignore[attr-defined]
            return sum(p * over_chance(s.child(a)) for a, p in s.chance_outcomes())  # type: ignore[attr-defined]
        return value(s)

    searched = over_chance(after)

    def expected(rolled: list[int]) -> float:
        """The mean over every face of every die the action rolls, played on henderson directly."""
        branch = state.match.state.clone()  # type: ignore[attr-defined]
        branch.dice = ScriptedDice(rolled)
        try:
            branch.apply("resolve")
        except DiceExhausted:
            return float(np.mean([expected([*rolled, face]) for face in range(1, 7)]))
        if branch.is_terminal():
            return float(branch.returns()[game.sides[0]])
        return game.evaluate(branch, game.sides[0])

    assert searched == pytest.approx(expected([]))
    # OpenSpiel's own expectiminimax searches through the dice (depth counts tokens)
    best, token = minimax.expectiminimax(state.clone(), 2, value, player)  # type: ignore[attr-defined]
    assert -1.0 <= best <= 1.0 and token in state.legal_actions()  # type: ignore[attr-defined]
    assert side == game.sides[player]


def test_chance_sampling_search_runs_on_the_game() -> None:
    state = _state_before_a_roll(max_plies=120)  # rollouts end (a draw) 120 actions in
    bot = mcts.MCTSBot(
        state.get_game(),  # type: ignore[attr-defined]
        uct_c=1.4,
        max_simulations=30,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(7)),
        random_state=np.random.RandomState(7),
    )
    action = bot.step(state)
    assert action in state.legal_actions()  # type: ignore[attr-defined]
    assert state.get_game().max_chance_outcomes() == 6  # type: ignore[attr-defined]
