"""The search agent: grouping, pruning, widening, tree reuse, strength on a wide game."""

from __future__ import annotations

import pytest

from henderson import agents, games
from henderson.agents.evaluation import register_evaluator
from henderson.agents.mcts import MCTSAgent, grouping_level, prefix
from tests.agents import wide


@pytest.fixture
def wide_game(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(games.REGISTRY, "wide", "tests.agents.wide")
    games._load.cache_clear()
    return games.get("wide")


def test_grouping_takes_the_fewest_words_that_split_the_actions() -> None:
    keys = [f"move {u} {h}" for u in ("1/5", "6DB", "2/1") for h in ("0101", "0102", "0203", "0304", "0405")]
    assert grouping_level(keys, 0, group_min=12) == 2  # "move" alone is one group
    assert prefix(keys[0], 2) == "move 1/5"
    assert grouping_level([*keys, "pass"], 0, group_min=12) == 1  # move | pass
    assert grouping_level(keys[:5], 0, group_min=12) == 0  # few actions: no grouping
    assert grouping_level([f"hex {i}" for i in range(20)], 0, group_min=12) == 0  # nothing shared


def test_wide_decisions_branch_per_unit_then_per_item(wide_game) -> None:
    register_evaluator("wide", wide.evaluate)
    agent = MCTSAgent(1, iterations=200, candidates=0)
    state = wide_game.new_state(3)
    agent.choose(state)
    root = agent._root
    assert root is not None and root.group_k == 2
    assert set(root.edges) <= {f"take u{i}" for i in range(wide.UNITS)}
    inner = next(e.node for e in root.edges.values() if e.node is not None)
    assert all(key.startswith("take u") and len(key.split()) == 3 for key in inner.edges)


def test_priors_prune_to_max_children(wide_game) -> None:
    register_evaluator("wide", wide.evaluate)
    agent = MCTSAgent(2, iterations=150, max_children=3, candidates=0)
    agent.choose(wide_game.new_state(4))
    assert agent._root is not None
    assert len([e for e in agent._root.edges.values() if e.n > 0]) <= 3


def test_progressive_widening_limits_children_without_priors(wide_game, monkeypatch) -> None:
    from henderson.agents import evaluation

    monkeypatch.setitem(evaluation._REGISTERED, "wide", evaluation.neutral)
    agent = MCTSAgent(2, iterations=9, pw_c=1.0, pw_alpha=0.5)
    agent.choose(wide_game.new_state(4))
    assert agent._root is not None
    # after 9 visits at most ceil(1 * 9 ** 0.5) = 3 groups were ever considered
    assert len([e for e in agent._root.edges.values() if e.n > 0]) <= 3


def test_the_root_compares_the_heuristics_best_candidates(wide_game) -> None:
    register_evaluator("wide", wide.evaluate)
    state = wide_game.new_state(9)
    agent = MCTSAgent(4, iterations=60, candidates=5, prior_visits=3)
    choice = agent.choose(state)
    root = agent._root
    assert root is not None and set(root.edges) == set(agent._root_keys or ())
    assert len(root.edges) == 5 and str(choice) in root.edges
    # every candidate is worth at least what any action left out is worth, by the heuristic
    assert min(root.priors[k] for k in root.edges) >= max(v for k, v in root.priors.items() if k not in root.edges)
    # each began with three visits worth its score, and the search added its iterations
    assert sum(e.n for e in root.edges.values()) == 5 * 3 + agent.last_iterations
    # sequential halving, 5 -> 3 -> 2 -> 1 in three rounds of 20 walks; the choice is the finalist
    assert len(agent._finalists) == 1
    assert str(choice) == max(agent._finalists, key=lambda k: (root.edges[k].mean(), root.edges[k].prior))


def test_evidence_keeps_the_one_step_choice_unless_the_search_clearly_beats_it(wide_game) -> None:
    """`evidence`: a finalist replaces the one-step look-ahead's choice only on a paired gain
    of more than that many standard errors over their common walks."""
    register_evaluator("wide", wide.evaluate)
    overruled = 0
    for seed in range(9, 21):
        doubting = MCTSAgent(4, iterations=60, candidates=5, prior_visits=3, evidence=1e9)
        assert str(doubting.choose(wide_game.new_state(seed))) == (doubting._root_keys or [])[0]
        trusting = MCTSAgent(4, iterations=60, candidates=5, prior_visits=3)
        overruled += str(trusting.choose(wide_game.new_state(seed))) != (trusting._root_keys or [])[0]
    assert overruled  # without the bar the search does overrule the one-step choice here
    agent = MCTSAgent(4)
    agent._walks = {"a": {0: 1.0, 1: 2.0, 2: 3.0}, "b": {0: 0.0, 1: 1.1, 2: 1.9}}
    assert agent._overruled("a", "b", 1.0)  # gains 1.0, 0.9, 1.1: far over one standard error
    agent._walks = {"a": {0: 1.0, 1: -1.0, 2: 1.2}, "b": {0: 0.0, 1: 0.0, 2: 0.0}}
    assert not agent._overruled("a", "b", 1.0)  # mean 0.4, standard error 0.7
    assert agent._overruled("a", "b", 0.0)  # no bar: the best mean is played
    agent._walks = {"a": {0: 5.0, 3: 5.0}, "b": {0: 0.0, 1: 0.0}}
    assert not agent._overruled("a", "b", 1.0)  # one common walk is no evidence
    with pytest.raises(ValueError, match="evidence"):
        MCTSAgent(4, evidence=-1)


def test_the_evidence_bar_is_the_games_own_unless_one_is_given(wide_game, monkeypatch) -> None:
    """A game's own bar (`GAME_OPTIONS`) holds where the agent is given none, and a bar
    given wins: with the game's bar set too high to clear, the search never overrules its
    one-step choice; with `evidence=0` it does."""
    from henderson.agents import mcts

    assert agents.get("hard", 1).evidence is None  # type: ignore[attr-defined]
    register_evaluator("wide", wide.evaluate)
    monkeypatch.setitem(mcts.GAME_OPTIONS, "wide", {"evidence": 1e9})
    overruled = 0
    for seed in range(9, 21):
        own = MCTSAgent(4, iterations=60, candidates=5, prior_visits=3)  # the game's bar: never overrule
        assert str(own.choose(wide_game.new_state(seed))) == (own._root_keys or [])[0]
        given = MCTSAgent(4, iterations=60, candidates=5, prior_visits=3, evidence=0)
        overruled += str(given.choose(wide_game.new_state(seed))) != (given._root_keys or [])[0]
    assert overruled


def test_a_game_without_options_of_its_own_plays_by_the_defaults(wide_game, monkeypatch) -> None:
    """An option neither given nor the game's own is `DEFAULTS`': the best mean wins (bar 0)
    and a choice between equals gets an eighth of the budget."""
    from henderson.agents import mcts

    monkeypatch.delitem(mcts.GAME_OPTIONS, "wide", raising=False)
    agent = MCTSAgent(4)
    state = wide_game.new_state(9)
    assert agent._option("evidence", state) == 0.0
    assert agent._option("trivial_share", state) == 0.125
    monkeypatch.setitem(mcts.GAME_OPTIONS, "wide", {"trivial_share": 1.0})
    assert agent._option("trivial_share", state) == 1.0
    assert agent._option("evidence", state) == 0.0  # one option of its own: the other the default
    assert MCTSAgent(4, trivial_share=0.5)._option("trivial_share", state) == 0.5
    with pytest.raises(ValueError, match="trivial_share"):
        MCTSAgent(4, trivial_share=0)


def test_greedy_plies_play_the_one_step_choice_before_a_leaf_is_scored(wide_game) -> None:
    """`greedy_plies`: after the tree's leaf, each ply is the one-step look-ahead's choice (over
    `greedy_limit` actions): here the best take of each ply, give or take its d6."""
    register_evaluator("wide", wide.evaluate)
    state = wide_game.new_state(9)
    agent = MCTSAgent(2)
    agent._greedy_plan = (2, wide.UNITS * wide.UNITS)  # as `choose` sets it from the options
    sim = state.clone()
    agent._greedy(sim, wide.evaluate)
    assert sim.ply == 2
    for ply, side in enumerate(("a", "b")):
        best = max(wide.WORTH[(ply, i, j)] for i in range(wide.UNITS) for j in range(wide.UNITS))
        assert sim.scores[side] >= best + 1 - 5  # the best worth, or one within a die of it
    assert agent._work_done == 0  # bound by the walks, not by `work`
    with pytest.raises(ValueError, match="greedy_plies"):
        MCTSAgent(2, greedy_plies=-1)


def test_aag_scores_its_leaves_after_a_greedy_ply_unless_told_otherwise(monkeypatch) -> None:
    """AAG's own options (`GAME_OPTIONS`): a greedy ply over every action before a leaf is
    scored; an option given the agent comes first, and the other games play without."""
    aag, toy = games.get("aag").new_state(1), games.get("toy").new_state(1)
    agent = MCTSAgent(4)
    assert (agent._option("greedy_plies", aag), agent._option("greedy_limit", aag)) == (1, 100)
    assert (agent._option("greedy_plies", toy), agent._option("greedy_limit", toy)) == (0, 12)
    assert MCTSAgent(4, greedy_plies=0)._option("greedy_plies", aag) == 0
    walked = []
    monkeypatch.setattr(MCTSAgent, "_greedy", lambda self, sim, evaluate: walked.append(self._greedy_plan))
    agents.get("hard:iterations=20", 3).choose(aag)
    assert walked and set(walked) == {(1, 100)}
    walked.clear()
    agents.get("hard:iterations=20:greedy_plies=0", 3).choose(aag)
    assert walked == []


def test_search_finds_the_best_take_among_256(wide_game) -> None:
    register_evaluator("wide", wide.evaluate)
    state = wide_game.new_state(9)
    best = max((wide.WORTH[(0, i, j)], f"take u{i} {j}") for i in range(wide.UNITS) for j in range(wide.UNITS))
    choice = agents.get("mcts:iterations=300", 5).choose(state)
    assert wide.WORTH[(0, choice.unit, choice.item)] >= best[0] - 5


def test_the_tree_is_kept_when_the_game_follows_it() -> None:
    game = games.get("toy")
    state = game.new_state(21)
    seats = {side: MCTSAgent(i, iterations=60) for i, side in enumerate(game.sides)}
    reused = 0
    while not state.is_terminal():
        agent = seats[state.current_player()]
        action = agent.choose(state)
        reused += agent.last_reused_visits > 0
        ply = state.ply
        state.apply(action)
        for seat in seats.values():
            seat.observe(ply, action)
    assert reused > 0


def test_no_reuse_when_asked_or_when_the_position_is_unrelated() -> None:
    game = games.get("toy")
    agent = MCTSAgent(0, iterations=40, reuse=False)
    state = game.new_state(1)
    action = agent.choose(state)
    state.apply(action)
    if not state.is_terminal():
        agent.choose(state)
        assert agent.last_reused_visits == 0
    fresh = MCTSAgent(0, iterations=40)
    fresh.choose(game.new_state(2))
    fresh.choose(game.new_state(3))  # ply 0 again: not a descendant
    assert fresh.last_reused_visits == 0


def test_a_seconds_budget_stops_the_search() -> None:
    agent = MCTSAgent(0, seconds=0.05)
    agent.choose(games.get("toy").new_state(0))
    assert agent.last_iterations >= 1


def test_a_work_budget_bounds_the_actions_played_and_stays_reproducible() -> None:
    state = games.get("toy").new_state(5)
    first = MCTSAgent(3, work=50)
    second = MCTSAgent(3, work=50)
    assert str(first.choose(state)) == str(second.choose(state))
    assert first.last_iterations == second.last_iterations >= 1
    budget = 50 * first.last_share  # a choice between fewer than 8 candidates gets a share
    assert budget <= first.last_work < budget + 10  # stops at the first iteration past the budget


def test_an_earlier_position_gets_a_new_tree() -> None:
    game = games.get("toy")
    state = game.new_state(4)
    earlier = state.clone()
    agent = MCTSAgent(0, iterations=30)
    state.apply(agent.choose(state))
    if not state.is_terminal():
        agent.choose(state)
    agent.choose(earlier)
    assert agent.last_reused_visits == 0
