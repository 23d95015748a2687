"""The `mcts` agent (level `hard`): determinised, open-loop Monte Carlo tree search.

Each iteration clones the real position with fresh seeded dice (so the search
never reads the game's own dice), walks the tree by UCT, adds one edge, then
scores the leaf by the game's evaluation (after a few random plies, or plies
chosen by a one-step look-ahead, when asked or when the game says so: AAG plays
one; random playouts to the end when the game has no evaluation) and backs the
value up for the side that chose each edge. Because the tree is keyed by
action notation rather than by position, dice outcomes are averaged inside it
("open loop"); an edge's statistics count only the iterations in which it was
legal (availability, as in information-set MCTS).

Large action spaces (FB has many units, each with many destinations):
- grouping: when a decision offers more than `group_min` actions, the tree first
  chooses among groups of actions sharing the first words of their notation
  (e.g. the unit that moves), then within the group (recursively);
- heuristic priors: actions are scored once by a one-step look-ahead on the
  evaluation (`prior_limit` actions at most per decision, `root_prior_limit` at
  the root); the score orders them and biases UCT (progressive bias);
- pruning: only the best `max_children` by prior are ever considered;
- progressive widening: a node visited n times considers its best
  ceil(pw_c * n ** pw_alpha) children.

Root candidates: the root's actions are first scored the way the `heuristic`
agent scores them (several dice samples for an action that rolls dice, at most
`root_limit` actions); the search then compares only the best `candidates` of
them, each starting with `prior_visits` virtual visits worth its score, by
sequential halving on common determinisations, and plays the finalist with the
best mean value. The search thus refines the
heuristic's choice by looking past it (the opponent's answers, the side's own
next moves) instead of starting from nothing in a decision of a thousand
actions; `candidates=0` searches every root action (grouped, like any node).

The tree is kept between moves: when the new position descends from the old
root by actions the agent knows (its own, or those given to `observe`), the
matching subtree becomes the new root.
"""

from __future__ import annotations

import math
import random
import time
import zlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from henderson.agents.chance import determinise, sample_after
from henderson.agents.evaluation import Evaluator, check_evaluation, chosen_evaluator, neutral, value, values
from henderson.agents.heuristic import action_value, scored_actions
from henderson.agents.repetition import History, one_word
from henderson.agents.shortlist import considered
from henderson.core.game import Action, State

UNDECIDED = -1
EPSILON = 1e-9
# the options a game plays by where the agent is given none, each measured there against the
# default (docs/agents.md, "The evidence bar in DG", "Leaves scored after a greedy ply in AAG");
# where a game has no option of its own, it keeps `DEFAULTS`
DEFAULTS: dict[str, float] = {"evidence": 0.0, "trivial_share": 0.125, "greedy_plies": 0, "greedy_limit": 12}
GAME_OPTIONS: dict[str, dict[str, float]] = {
    "deluxe": {"evidence": 1.0},
    "aag": {"greedy_plies": 1, "greedy_limit": 100},  # "Leaves scored after a greedy ply in AAG"
}


class Edge:
    """An action (or a group of actions) from a node: visits, summed value, availability, prior."""

    __slots__ = ("avail", "n", "node", "prior", "w")

    def __init__(self, prior: float) -> None:
        self.prior = prior
        self.n = 0
        self.w = 0.0
        self.avail = 0
        self.node: Node | None = None

    def mean(self) -> float:
        return self.w / self.n if self.n else 0.0


class Node:
    """One decision (or one group within a decision) in the open-loop tree."""

    __slots__ = ("edges", "group_cache", "group_k", "keys_cache", "priors", "rank_cache", "salt", "visits")

    def __init__(self, salt: int) -> None:
        self.edges: dict[str, Edge] = {}
        self.visits = 0
        self.group_k = UNDECIDED  # 0: children are actions; k: groups by the first k words
        self.priors: dict[str, float] | None = None  # action notation -> one-step score
        self.salt = salt
        self.rank_cache: tuple[list[str], list[str]] | None = None
        # the last legal list seen here and its notations; the last grouping of them
        self.keys_cache: tuple[Sequence[Action], list[str]] | None = None
        self.group_cache: tuple[list[str], Any, dict[str, list[str]], dict[str, float] | None] | None = None

    def keys_for(self, actions: Sequence[Action]) -> list[str]:
        """The notations of `actions`, reused while the legal list is the same."""
        cache = self.keys_cache
        if cache is not None and (cache[0] is actions or cache[0] == actions):
            return cache[1]
        keys = [str(a) for a in actions]
        self.keys_cache = (actions, keys)
        return keys

    def groups_for(
        self, keys: list[str], priors: dict[str, float] | None
    ) -> tuple[dict[str, list[str]], dict[str, float] | None]:
        """`keys` grouped by their first `group_k` words, and each group's best prior;
        reused while the keys (and priors) are the same."""
        cache = self.group_cache
        if cache is not None and cache[1] is priors and (cache[0] is keys or cache[0] == keys):
            return cache[2], cache[3]
        groups: dict[str, list[str]] = {}
        k = self.group_k
        for a in keys:
            groups.setdefault(prefix(a, k), []).append(a)
        best = (
            {g: max(priors.get(a, 0.0) for a in members) for g, members in groups.items()}
            if priors is not None
            else None
        )
        self.group_cache = (keys, priors, groups, best)
        return groups, best


def prefix(key: str, k: int) -> str:
    """The first `k` words of an action's notation."""
    return " ".join(key.split(None, k)[:k])


def grouping_level(keys: Sequence[str], level: int, group_min: int) -> int:
    """The fewest words (beyond `level`) that split `keys` into several groups; 0 for none."""
    if len(keys) <= group_min:
        return 0
    words = [tuple(key.split()) for key in keys]
    most = max(len(w) for w in words)
    for k in range(level + 1, most):
        groups = {w[:k] for w in words}
        if len(groups) >= len(keys):
            return 0
        if len(groups) >= 2:
            return k
    return 0


class MCTSAgent:
    """Determinised open-loop MCTS with UCT, heuristic priors, grouping and widening.

    Budget per move, the first reached ends the search: `iterations`; `work`,
    the number of actions the search may play on its clones (tree walks,
    playouts and prior look-aheads, not the greedy plies: a reproducible bound on time
    where no greedy ply is played); `seconds`
    (a clock, so not reproducible). At least one iteration is always done.
    `c`: UCT exploration; `bias`: weight of the prior (progressive bias);
    `rollout_plies`: random plies before evaluating a leaf (default 0 when the
    game has an evaluation, else to the end of the game, at most `rollout_limit`);
    `greedy_plies`: plies played after the leaf (and its random plies, if any), before it is
    evaluated, each by a one-step look-ahead over at most `greedy_limit` of the actions (an
    even share of each unit's; one dice sample each, ties to the first listed), so a leaf in
    the middle of a side's turn is scored after its next moves, not before them;
    `eval`: the evaluation it plays by, `hand` or `learned` (as `HeuristicAgent`).
    A decision with one legal action is answered without searching; one between fewer
    root candidates than `candidates` gets that fraction of the budget, and one whose
    candidates the one-step look-ahead scores within `trivial_spread` of one another
    (all alike) `trivial_share` of that. `evidence`: a finalist other than the one-step
    look-ahead's own choice is played only when its paired gain over that choice, on the
    determinisations both were walked on, exceeds `evidence` standard errors (0: the best
    mean is played, however slight its lead). These four left None: the game's own
    (`GAME_OPTIONS`), else `DEFAULTS`.
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int | None = None,
        work: int | None = None,
        seconds: float | None = None,
        c: float = 1.0,
        bias: float = 1.0,
        pw_c: float = 2.0,
        pw_alpha: float = 0.5,
        max_children: int = 40,
        group_min: int = 12,
        prior_limit: int = 24,
        root_prior_limit: int = 512,
        rollout_plies: int | None = None,
        rollout_limit: int = 200,
        greedy_plies: int | None = None,
        greedy_limit: int | None = None,
        candidates: int = 8,
        prior_visits: int = 2,
        root_samples: int = 6,
        root_limit: int = 1200,
        reuse: bool = True,
        trivial_spread: float = 1e-6,
        trivial_share: float | None = None,
        evidence: float | None = None,
        name: str = "mcts",
        eval: str = "hand",
    ) -> None:
        if iterations is None and seconds is None and work is None:
            iterations = 400
        if (
            (iterations is not None and iterations < 1)
            or (work is not None and work < 1)
            or (seconds is not None and seconds <= 0)
        ):
            raise ValueError("the budget needs iterations >= 1, work >= 1 or seconds > 0")
        if (greedy_plies is not None and greedy_plies < 0) or (greedy_limit is not None and greedy_limit < 1):
            raise ValueError("need greedy_plies >= 0 and greedy_limit >= 1")
        if candidates < 0 or prior_visits < 0 or root_samples < 1 or root_limit < 1:
            raise ValueError("need candidates >= 0, prior_visits >= 0, root_samples >= 1 and root_limit >= 1")
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.work = work
        self._work_done = 0
        self.seconds = seconds
        self.c = float(c)
        self.bias = float(bias)
        self.pw_c = float(pw_c)
        self.pw_alpha = float(pw_alpha)
        self.max_children = int(max_children)
        self.group_min = int(group_min)
        self.prior_limit = int(prior_limit)
        self.root_prior_limit = int(root_prior_limit)
        self.rollout_plies = rollout_plies
        self.rollout_limit = int(rollout_limit)
        self.greedy_plies = None if greedy_plies is None else int(greedy_plies)
        self.greedy_limit = None if greedy_limit is None else int(greedy_limit)
        self._greedy_plan = (0, 1)  # the search going on: (greedy plies, actions scored in each)
        self.candidates = int(candidates)
        self.prior_visits = int(prior_visits)
        self.root_samples = int(root_samples)
        self.root_limit = int(root_limit)
        self.reuse = bool(reuse)
        self.trivial_spread = float(trivial_spread)
        self.trivial_share = None if trivial_share is None else float(trivial_share)
        if (self.trivial_share is not None and not 0 < self.trivial_share <= 1) or self.trivial_spread < 0:
            raise ValueError("need 0 < trivial_share <= 1 and trivial_spread >= 0")
        self.evidence = None if evidence is None else float(evidence)
        if self.evidence is not None and self.evidence < 0:
            raise ValueError("need evidence >= 0")
        # the value of each halving walk for the side deciding: candidate -> walk number -> value
        self._walks: dict[str, dict[int, float]] = {}
        self.name = name
        self.evaluation = check_evaluation(eval)
        self._root_keys: list[str] | None = None  # the root candidates of the search going on
        self._finalists: list[str] = []  # those still in after the last round of halving
        self._root: Node | None = None
        self._root_ply = -1
        self._root_print: object = None
        self._game: Any = None
        self._played: dict[int, str] = {}
        self.history = History()
        # what the last search did, for benchmarks and curious players
        self.last_iterations = 0
        self.last_work = 0
        self.last_seconds = 0.0
        self.last_reused_visits = 0
        self.last_share = 1.0  # the share of the budget the last decision got

    @classmethod
    def hard(cls, seed: int | None = None, **options: Any) -> MCTSAgent:
        """The `hard` level: 400 iterations or 4,000 actions of work, the first reached (reproducible)."""
        return cls(seed, **{"iterations": 400, "work": 4000, "name": "hard", **options})

    # ---- the driver's interface -------------------------------------------------

    def observe(self, ply: int, action: Any) -> None:
        """Note that `action` was played at `ply` (by anyone): lets the tree follow the game."""
        self._played[ply] = str(action)

    def reset(self) -> None:
        """Forget the tree (a new game)."""
        self._root = None
        self._played.clear()
        self.history.clear()

    def choose(self, state: State) -> Action:
        actions = state.legal_actions()
        if not actions:
            raise ValueError("no legal action: the game is over")
        self._sync(state)
        if len(actions) == 1:
            self._played[state.ply] = str(actions[0])
            return actions[0]
        root = self._root
        assert root is not None
        self.last_reused_visits = root.visits
        keys = [str(a) for a in actions]
        self._root_keys = None
        share = 1.0  # of the budget: less for a choice that is nearly made
        if self.candidates and chosen_evaluator(state.game, self.evaluation) not in (None, neutral):
            root = self._root = self._candidate_root(state, actions, keys)
            chosen: list[str] = self._root_keys or []
            if len(chosen) == 1:
                return self._play(state, actions, keys, list(chosen))
            share = self._share(root, chosen, self._option("trivial_share", state))
        self.last_share = share
        evaluate = chosen_evaluator(state.game, self.evaluation)
        rollout = self.rollout_plies
        if rollout is None:
            rollout = 0 if evaluate is not None else self.rollout_limit
        evaluate = evaluate or neutral
        self._greedy_plan = (int(self._option("greedy_plies", state)), int(self._option("greedy_limit", state)))
        sides = tuple(state.game.sides)
        start = time.perf_counter()
        deadline = start + self.seconds if self.seconds is not None else math.inf
        done = 0
        self._work_done = 0
        work = self.work * share if self.work is not None else math.inf
        iterations = self.iterations if self.iterations is not None else math.inf
        if self._root_keys is not None:
            done = self._halve(state, root, evaluate, sides, rollout, work, deadline, share)
        while done == 0 or (
            self._root_keys is None and done < iterations and self._work_done < work and time.perf_counter() < deadline
        ):
            self._iterate(state, root, evaluate, sides, rollout)
            done += 1
        self.last_iterations = done
        self.last_work = self._work_done
        self.last_seconds = time.perf_counter() - start
        if self._root_keys is not None:
            edges = root.edges
            ranked = sorted(self._root_keys, key=lambda k: (-edges[k].mean(), -edges[k].prior))
            ranked.sort(key=lambda k: k not in self._finalists)  # the last round's survivors first
            if not self._overruled(ranked[0], self._root_keys[0], self._option("evidence", state)):
                ranked.remove(self._root_keys[0])
                ranked.insert(0, self._root_keys[0])
        else:
            ranked = self._ranked_choices(root, keys)
        return self._play(state, actions, keys, ranked)

    def _play(self, state: State, actions: Sequence[Action], keys: list[str], ranked: list[str]) -> Any:
        """The first of `ranked` not leading back to a position already decided in; noted as played."""
        if ranked:
            chosen = self.history.first_new(
                state, [actions[keys.index(k)] for k in ranked], self.rng, self._spare(actions, keys, ranked)
            )
            key = str(chosen)
        else:
            key = keys[0]
        self._played[state.ply] = key
        return actions[keys.index(key)]

    def _option(self, name: str, state: State) -> float:
        """An option given the agent (`evidence`, `trivial_share`, `greedy_plies`,
        `greedy_limit`), else the game's own
        (`GAME_OPTIONS`), else the default (`DEFAULTS`)."""
        given = getattr(self, name)
        if given is not None:
            return float(given)
        return GAME_OPTIONS.get(state.game.name, {}).get(name, DEFAULTS[name])

    def _share(self, root: Node, chosen: list[str], trivial_share: float) -> float:
        """The share of the budget a decision between the root candidates `chosen` deserves:
        in proportion to their number (two candidates get a quarter of what eight get), and
        `trivial_share` of that when the one-step look-ahead finds them all worth the same
        (within `trivial_spread`): a near-forced choice is answered at once."""
        share = min(1.0, len(chosen) / max(1, self.candidates))
        scores = [root.edges[k].prior for k in chosen]
        if max(scores) - min(scores) <= self.trivial_spread:
            share *= trivial_share
        return share

    def _overruled(self, best: str, first: str, bar: float) -> bool:
        """Whether the search's `best` finalist replaces `first`, the one-step look-ahead's
        choice: always when `bar` is 0, else when its mean paired gain over `first` on
        their common walks exceeds `bar` standard errors of that mean."""
        if best == first or bar == 0:
            return True
        mine, theirs = self._walks.get(best, {}), self._walks.get(first, {})
        gains = [value - theirs[walk] for walk, value in mine.items() if walk in theirs]
        n = len(gains)
        if n < 2:
            return False
        mean = sum(gains) / n
        spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1))
        return mean > bar * spread / math.sqrt(n)

    def _spare(self, actions: Sequence[Action], keys: list[str], ranked: list[str]) -> Iterator[Any]:
        """The actions not in `ranked`, one-word ones first, then by the root's priors: where
        to look when every ranked action would take a unit back (built only if needed)."""
        yield from one_word(actions)
        priors = self._root.priors if self._root is not None else None
        if priors:
            index = {k: i for i, k in enumerate(keys)}
            skip = set(ranked)
            for key in sorted(priors, key=lambda k: -priors[k]):
                if key in index and key not in skip:
                    yield actions[index[key]]

    def _halve(
        self,
        state: State,
        root: Node,
        evaluate: Evaluator,
        sides: tuple[str, ...],
        rollout: int,
        work: float,
        deadline: float,
        share: float = 1.0,
    ) -> int:
        """Sequential halving over the root candidates (Karnin, Koren and Somekh 2013): rounds
        in which every candidate still in gets the same walks, on the same determinisations
        (common random numbers: a paired comparison, far less noisy than independent ones),
        after which the better half by mean value stays. Returns the walks done."""
        alive = list(self._root_keys or ())
        self._walks = {key: {} for key in alive}
        rounds = max(1, math.ceil(math.log2(len(alive))))
        total = self.iterations if self.iterations is not None else 32 * self.candidates
        total = max(len(alive), round(total * share))
        done = 0
        for _ in range(rounds):
            per = max(1, total // (rounds * len(alive)))
            for _ in range(per):
                seed = self.rng.getrandbits(63)
                walk = done
                for key in alive:
                    if done and (self._work_done >= work or time.perf_counter() >= deadline):
                        self._finalists = alive
                        return done
                    found = self._iterate(state, root, evaluate, sides, rollout, forced=key, chance=random.Random(seed))
                    self._walks[key][walk] = found
                    done += 1
            edges = root.edges
            alive.sort(key=lambda k: (-edges[k].mean(), -edges[k].prior))
            alive = alive[: max(1, math.ceil(len(alive) / 2))]
        self._finalists = alive
        return done

    def _candidate_root(self, state: State, actions: Sequence[Action], keys: list[str]) -> Node:
        """A root over the heuristic's best `candidates` actions, each primed with
        `prior_visits` visits worth its heuristic score; kept subtrees stay under their edges."""
        evaluate = chosen_evaluator(state.game, self.evaluation) or neutral
        side = state.current_player()
        assert side is not None  # a decision is being made
        _, index, scores = scored_actions(
            state, actions, side, evaluate, self.rng, self.root_samples, self.root_limit
        )
        tiebreak = {i: self.rng.random() for i in index}
        order = sorted(zip(index, scores, strict=True), key=lambda p: (-p[1], tiebreak[p[0]]))
        old = self._root
        root = Node(self.rng.getrandbits(32))
        root.group_k = 0
        root.priors = {keys[i]: score for i, score in order}
        chosen = [keys[i] for i, _ in order[: self.candidates]]
        for key in chosen:
            edge = root.edges[key] = Edge(root.priors[key])
            edge.n = edge.avail = self.prior_visits
            edge.w = edge.n * edge.prior
            edge.node = self._descend(old, key) if old is not None else None
            root.visits += edge.n
        self._root_keys = chosen
        return root

    # ---- the tree across moves ----------------------------------------------------

    def _sync(self, state: State) -> None:
        """Make the root the node for `state`: the kept subtree when it descends, else new."""
        node: Node | None = None
        printed = state.key(state.current_player())
        self.history.note(state)  # every position decided in, forced ones too
        if self.reuse and self._root is not None and state.game is self._game:
            node = self._root
            if state.ply < self._root_ply or (state.ply == self._root_ply and printed != self._root_print):
                node = None  # an earlier position, or another one at the same ply
            for ply in range(self._root_ply, state.ply if node is not None else self._root_ply):
                key = self._played.get(ply)
                node = self._descend(node, key) if key is not None and node is not None else None
                if node is None:
                    break
        self._root = node or Node(self.rng.getrandbits(32))
        self._root_ply = state.ply
        self._root_print = printed
        self._game = state.game
        self._played = {p: k for p, k in self._played.items() if p >= state.ply}

    @staticmethod
    def _descend(node: Node, key: str) -> Node | None:
        current: Node | None = node
        while current is not None and current.group_k > 0:
            edge = current.edges.get(prefix(key, current.group_k))
            current = edge.node if edge else None
        if current is None:
            return None
        edge = current.edges.get(key)
        return edge.node if edge else None

    def _ranked_choices(self, root: Node, keys: list[str]) -> list[str]:
        """Legal actions the search visited, best first: most visited (within the most visited
        groups first), then by mean value and prior."""
        legal = set(keys)

        def walk(node: Node | None, members: set[str]) -> list[str]:
            if node is None or not node.edges:
                return []
            edges = node.edges
            if node.group_k > 0:
                present = {prefix(a, node.group_k) for a in members}
                options = [g for g in edges if edges[g].n > 0 and g in present]
            else:
                options = [a for a in edges if edges[a].n > 0 and a in members]
            options.sort(key=lambda o: (-edges[o].n, -edges[o].mean(), -edges[o].prior))
            if node.group_k <= 0:
                return options
            found: list[str] = []
            for g in options[:3]:  # enough fallbacks without walking the whole tree
                inner = {a for a in members if prefix(a, node.group_k) == g}
                found.extend(walk(edges[g].node, inner))
            return found

        return walk(root, legal)

    # ---- one iteration ------------------------------------------------------------

    def _iterate(
        self,
        root_state: State,
        root: Node,
        evaluate: Evaluator,
        sides: tuple[str, ...],
        rollout: int,
        forced: str | None = None,
        chance: random.Random | None = None,
    ) -> float:
        """One walk from the root: select, expand one edge, evaluate, back up. `forced`: the
        root action to take (sequential halving); `chance`: the generator of this walk's
        determinisation (shared by the candidates compared on it). Returns the walk's value for
        the side deciding at the root."""
        sim = determinise(root_state, chance or self.rng)
        path: list[tuple[Edge, str]] = []
        node = root
        depth = 0
        while not sim.is_terminal():
            player = sim.current_player()
            assert player is not None
            actions = list(sim.legal_actions())
            keys = node.keys_for(actions)
            limit = self.root_prior_limit if depth == 0 else self.prior_limit
            if node.priors is None:
                if len(keys) > limit:  # too many to score: an even share of each unit's actions
                    chosen = considered(actions, limit, self.rng)
                    some = [actions[i] for i in chosen]
                    scored = self._priors(sim, some, [keys[i] for i in chosen], player, evaluate)
                    floor = min(scored.values(), default=0.0) - EPSILON  # the rest rank after
                    node.priors = {key: scored.get(key, floor) for key in keys}
                else:
                    node.priors = self._priors(sim, actions, keys, player, evaluate)
            avail = keys
            if depth == 0 and self._root_keys is not None:
                legal = set(keys)
                avail = [k for k in self._root_keys if k in legal] or keys
            current, level = node, 0
            chosen_for_us = forced is not None and depth == 0 and forced in current.edges
            if chosen_for_us:  # sequential halving names the root candidate
                assert forced is not None
                current.visits += 1
                key = forced
                edge = current.edges[key]
                edge.avail += 1
                path.append((edge, player))
            while not chosen_for_us:
                current.visits += 1
                if current.group_k == UNDECIDED:
                    current.group_k = grouping_level(avail, level, self.group_min)
                if current.group_k <= 0:
                    key = self._select(current, avail, current.priors)
                    edge = current.edges[key]
                    path.append((edge, player))
                    break
                k = current.group_k
                priors = current.priors
                groups, group_priors = current.groups_for(avail, priors)
                g = self._select(current, list(groups), group_priors)
                edge = current.edges[g]
                path.append((edge, player))
                if edge.node is None:
                    edge.node = Node(self.rng.getrandbits(32))
                child = edge.node
                if child.priors is None:
                    if priors is not None:
                        child.priors = priors
                    elif len(groups[g]) <= self.prior_limit:
                        members = groups[g]
                        member_actions = [actions[keys.index(a)] for a in members]
                        child.priors = self._priors(sim, member_actions, members, player, evaluate)
                current, avail, level = child, groups[g], k
            fresh = edge.n == 0
            sim.apply(actions[keys.index(key)])
            self._work_done += 1
            depth += 1
            if fresh:
                break
            if edge.node is None:
                edge.node = Node(self.rng.getrandbits(32))
            node = edge.node
        for _ in range(rollout):
            if sim.is_terminal():
                break
            moves = sim.legal_actions()
            sim.apply(moves[self.rng.randrange(len(moves))])
            self._work_done += 1
        if self._greedy_plan[0] and evaluate is not neutral:
            self._greedy(sim, evaluate)
        result = values(sim, sides, evaluate)
        for edge, player in path:
            edge.n += 1
            edge.w += result.get(player, 0.0)
        return result.get(path[0][1], 0.0) if path else 0.0

    def _greedy(self, sim: Any, evaluate: Evaluator) -> None:
        """Play `greedy_plies` plies on `sim` as the one-step look-ahead would (over at most
        `greedy_limit` actions, one dice sample each), every side for itself. Neither the plies
        nor their look-aheads count as `work`, so `work` ends a search where it ended it without
        them; the walks (`iterations`) or the clock bound their cost."""
        plies, limit = self._greedy_plan
        for _ in range(plies):
            if sim.is_terminal():
                return
            moves = sim.legal_actions()
            if len(moves) > 1:
                player = sim.current_player()
                assert player is not None  # a decision is being made
                some = [moves[i] for i in considered(moves, limit, self.rng)]
                move = max(some, key=lambda a: action_value(sim, a, player, evaluate, self.rng, 1))
            else:
                move = moves[0]
            sim.apply(move)

    def _priors(
        self,
        sim: Any,
        actions: Sequence[Any],
        keys: Sequence[str],
        player: str,
        evaluate: Evaluator,
    ) -> dict[str, float]:
        """One determinised one-step look-ahead score per action, for `player`."""
        if evaluate is neutral:
            return {}
        self._work_done += len(actions)
        return {
            key: value(sample_after(sim, action, self.rng)[0], player, evaluate)
            for key, action in zip(keys, actions, strict=True)
        }

    def _ranked(self, node: Node, keys: list[str], priors: dict[str, float] | None) -> list[str]:
        cache = node.rank_cache
        if cache is not None and cache[0] == keys:
            return cache[1]
        salt = node.salt

        def order(key: str) -> tuple[float, int]:
            p = priors.get(key, 0.0) if priors else 0.0
            return (-p, zlib.crc32(key.encode()) ^ salt)

        ranked = sorted(keys, key=order)
        if priors and self.max_children > 0:
            ranked = ranked[: self.max_children]
        node.rank_cache = (keys, ranked)
        return ranked

    def _select(self, node: Node, keys: list[str], priors: dict[str, float] | None) -> str:
        """UCT with progressive bias over the best `widen(visits)` available children."""
        edges = node.edges
        if len(keys) == 1:
            key = keys[0]
            edge = edges.get(key)
            if edge is None:
                edge = edges[key] = Edge(priors.get(key, 0.0) if priors else 0.0)
            edge.avail += 1
            return key
        ranked = self._ranked(node, keys, priors)
        allowed = max(1, math.ceil(self.pw_c * node.visits**self.pw_alpha))
        candidates = ranked[:allowed]
        first_new: str | None = None
        for key in candidates:
            edge = edges.get(key)
            if edge is None:
                edge = edges[key] = Edge(priors.get(key, 0.0) if priors else 0.0)
            edge.avail += 1
            if edge.n == 0 and first_new is None:
                first_new = key
        if first_new is not None:
            return first_new
        c, bias, log = self.c, self.bias, math.log
        score: Callable[[str], float] = lambda k: (  # noqa: E731
            edges[k].w / edges[k].n
            + c * math.sqrt(log(edges[k].avail) / edges[k].n)
            + bias * edges[k].prior / (edges[k].n + 1)
        )
        return max(candidates, key=score)
