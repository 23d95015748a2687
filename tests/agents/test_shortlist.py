"""The heuristic's choice of actions to score in very large decisions."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from henderson.agents.shortlist import considered, group_of


def test_group_is_the_first_two_words():
    assert group_of("move 1/5 0405") == "move 1/5"
    assert group_of("end") == "end"


def test_everything_is_considered_when_it_fits():
    actions = [f"move u{i} h{j}" for i in range(3) for j in range(4)] + ["end"]
    assert considered(actions, 13, random.Random(1)) == list(range(13))


def test_one_word_actions_and_every_group_are_kept():
    actions = [f"move u{i} h{j}" for i in range(10) for j in range(50)] + ["end"]
    picked = considered(actions, 40, random.Random(2))
    assert len(picked) == 40
    assert len(actions) - 1 in picked  # end
    assert {group_of(actions[i]) for i in picked} == {"end"} | {f"move u{i}" for i in range(10)}
    counts = [sum(1 for i in picked if actions[i].startswith(f"move u{k} ")) for k in range(10)]
    assert max(counts) - min(counts) <= 1  # an even share each


@given(
    st.lists(st.tuples(st.integers(0, 6), st.integers(0, 30)), min_size=1, max_size=200, unique=True),
    st.integers(1, 60),
    st.integers(0, 2**32),
)
def test_at_most_limit_distinct_indexes_in_order(pairs, limit, seed):
    actions = [f"move u{a} h{b}" for a, b in pairs]
    picked = considered(actions, limit, random.Random(seed))
    assert picked == sorted(set(picked))
    assert len(picked) == min(limit, len(actions))
    assert considered(actions, limit, random.Random(seed)) == picked  # seeded


def test_the_heuristic_scores_at_most_its_limit(monkeypatch):
    """A decision with more actions than `limit` is decided on a share of them (shortlist.py)."""
    from henderson import games
    from henderson.agents import heuristic

    game = games.get("firstblood")
    state = game.new_state(4)
    while len(state.legal_actions()) <= 60:
        state.apply(state.legal_actions()[0])
    scored: list[int] = []
    real = heuristic.action_values

    def counting(state, actions, *rest):
        scored.append(len(actions))
        return real(state, actions, *rest)

    monkeypatch.setattr(heuristic, "action_values", counting)
    action = heuristic.HeuristicAgent(1, limit=40).choose(state)
    assert scored == [40] and action in state.legal_actions()
