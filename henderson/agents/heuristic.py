"""The `heuristic` agent: one-step look-ahead on the game's evaluation function.

For each legal action it plays the action on a determinised clone (made from
what the deciding side can see, `chance.observer_clone`) and scores the result
with the game's `evaluate(state, side)` (see `evaluation.py`). An action that
rolled dice is scored by the mean over `samples` clones with fresh dice, an
estimate of its expectation; an action that rolled none needs one.
`easy` adds noise to the scores and sometimes plays at random; `normal` is the
plain heuristic.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from henderson.agents.chance import observer_clone, sample_after
from henderson.agents.evaluation import Evaluator, check_evaluation, chosen_evaluator, neutral, value
from henderson.agents.repetition import History, one_word
from henderson.agents.shortlist import considered
from henderson.core.game import Action, State

EPSILON = 1e-9


def action_value(
    state: State, action: Action, side: str, evaluate: Evaluator, rng: random.Random, samples: int
) -> float:
    """The expected worth for `side` of playing `action` in `state` (sampled over dice)."""
    after, chance = sample_after(state, action, rng)
    total = value(after, side, evaluate)
    if not chance or samples <= 1:
        return total
    for _ in range(samples - 1):
        after, _ = sample_after(state, action, rng)
        total += value(after, side, evaluate)
    return total / samples


def action_values(
    state: State,
    actions: Sequence[Any],
    side: str,
    evaluate: Evaluator,
    rng: random.Random,
    samples: int,
) -> list[float]:
    """`action_value` for each action, in order."""
    return [action_value(state, a, side, evaluate, rng, samples) for a in actions]


def scored_actions(
    state: State,
    actions: Sequence[Any],
    side: str,
    evaluate: Evaluator,
    rng: random.Random,
    samples: int,
    limit: int,
) -> tuple[Any, list[int], list[float]]:
    """Score a decision the heuristic's way: at most `limit` of `actions` (an even share of
    each unit's, `shortlist.py`), each by `action_value` on one guess at what `side` cannot
    see (a game with nothing to guess is read as is). Returns the position looked ahead
    from, the indexes of the actions scored and their scores."""
    index = considered(actions, limit, rng)
    seen = observer_clone(state, side, rng) if state.game.hidden_information else state
    return seen, index, action_values(seen, [actions[i] for i in index], side, evaluate, rng, samples)


class HeuristicAgent:
    """Plays the action whose expected evaluation is best; ties broken by the seeded generator.

    `noise`: standard deviation of Gaussian noise added to each score;
    `epsilon`: chance of playing a uniformly random action instead;
    `samples`: determinised clones per action that rolls dice;
    `limit`: the most actions scored in one decision (a larger decision scores an even,
    seeded share of each unit's actions and every one-word action, see `shortlist.py`);
    `eval`: `hand` (the game's hand-written evaluation) or `learned` (its learned one
    where it ships one, see `learned.py`).
    A sure action that returns to a position the agent already decided in is
    passed over (see `repetition.py`), so free back-and-forth choices end.
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        noise: float = 0.0,
        epsilon: float = 0.0,
        samples: int = 6,
        limit: int = 1200,
        name: str = "heuristic",
        eval: str = "hand",
    ) -> None:
        if samples < 1 or limit < 1 or noise < 0 or not 0 <= epsilon <= 1:
            raise ValueError("need samples >= 1, limit >= 1, noise >= 0 and 0 <= epsilon <= 1")
        self.rng = random.Random(seed)
        self.noise = float(noise)
        self.epsilon = float(epsilon)
        self.samples = int(samples)
        self.limit = int(limit)
        self.name = name
        self.evaluation = check_evaluation(eval)
        self.history = History()

    @classmethod
    def easy(cls, seed: int | None = None, **options: Any) -> HeuristicAgent:
        """The `easy` level: the heuristic with noisy scores and a random move one time in five."""
        options = {"noise": 0.25, "epsilon": 0.2, "name": "easy", **options}
        return cls(seed, **options)

    @classmethod
    def normal(cls, seed: int | None = None, **options: Any) -> HeuristicAgent:
        """The `normal` level: the plain heuristic."""
        return cls(seed, **{"name": "normal", **options})

    def choose(self, state: State) -> Action:
        actions = state.legal_actions()
        if not actions:
            raise ValueError("no legal action: the game is over")
        self.history.note(state)  # even a forced position: a cancel may lead back to it
        if len(actions) == 1:
            return actions[0]
        if self.epsilon and self.rng.random() < self.epsilon:
            return actions[self.rng.randrange(len(actions))]
        side = state.current_player()
        assert side is not None  # a decision is being made
        # one guess at what `side` cannot see, shared by every action: fair, and cheaper
        # than a guess per look-ahead (chance.py)
        evaluate = chosen_evaluator(state.game, self.evaluation) or neutral
        seen, index, scores = scored_actions(state, actions, side, evaluate, self.rng, self.samples, self.limit)
        legal, actions = actions, [actions[i] for i in index]
        if self.noise:
            scores = [s + self.rng.gauss(0.0, self.noise) for s in scores]
        # best first; equal scores in a seeded random order
        tiebreak = [self.rng.random() for _ in actions]
        order = sorted(range(len(actions)), key=lambda i: (-scores[i], tiebreak[i]))
        best = scores[order[0]]
        top = [actions[i] for i in order if scores[i] >= best - EPSILON]
        rest = [actions[i] for i in order if scores[i] < best - EPSILON]
        head = len(top) + 8
        return self.history.first_new(seen, top + rest[:head], self.rng, one_word(legal) + rest[head:])
