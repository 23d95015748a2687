"""Fit a game's learned evaluation from seeded games and write its model file.

    python scripts/train_evaluation.py GAME [--games N] [--seed S] [--agents A,B,...] [--every K]
                                       [--only F1,F2,...] [--l2 X] [--toward-hand] [--holdout F]
                                       [--out PATH] [--cache PATH]
    python scripts/train_evaluation.py GAME --spsa N [--seed S] [--agents SPEC] [--only F1,F2,...]
                                       [--perturb C] [--step A] [--batch B] [--residual] [--out PATH]

Fitting to results (the first form) plays N seeded games (game i: seed derived from (S, i); each side's agent drawn from
`--agents` by that seed), takes every K-th position in which a side decides, and records the
game's features for that side (`henderson/games/<game>/features.py`) with the final result
for that side (+1 won, -1 lost, 0 drawn or unfinished). It then fits a logistic model,
P(win) = (1 + tanh(w . x)) / 2, by Newton's method with an L2 penalty, each game weighing
the same however long it ran (`--only`: fitting those features alone, the others weigh 0).
The penalty pulls the weights toward 0, or with `--toward-hand` toward the game's
`HAND_WEIGHTS` (the weights with which the model is the hand-written evaluation), so the
model learns corrections to it: a model fitted only to results can underrate what the
agents it learned from seldom got wrong (throwing units away), which a one-step search
then does. It writes the weights with how they were made to
`henderson/games/<game>/data/evaluation.json` (or `--out`), the file `eval=learned` reads
(`henderson/agents/learned.py`). The last `--holdout` share of the games is left out of the
fit and used to compare the learned and the hand-written evaluation's log loss; the model
written is then fitted again on all games.

Tuning by play (`--spsa N`, the second form) fits the weights to playing strength instead:
simultaneous perturbation stochastic approximation (SPSA), starting from `HAND_WEIGHTS`. Each
of N rounds draws a random sign for every tuned feature (`--only`, default `SPSA_FEATURES`),
makes two models, the weights plus and minus `--perturb` times those signs, and plays them
against each other in one seeded game from each side (`--agents`: the agent both play, with
their model as its evaluation). Every tuned weight then moves by the step (`--step`, shrinking
over the rounds) times its sign times the plus model's margin (its points less the minus
model's, -2 to 2, over the two games). The model written is the mean of the weights over the
last half of the rounds, which evens out the noise of single games. `--batch B` plays B seeds
(2B games) a round and moves by the mean margin, a less noisy step for B times the games.
`--residual` starts from the hand-written evaluation's own value (weight 1 on the `hand`
feature, 0 elsewhere: the same choices as the hand-written evaluation wherever no dice are
averaged) and tunes corrections to it, so the search starts exactly where the baseline plays.

Everything follows from the seed: the same command writes the same file. Needs numpy (the
`rl` extra); play with the model does not.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from henderson import agents, games  # noqa: E402
from henderson.agents.evaluation import Evaluator, register_evaluator, unregister_evaluator  # noqa: E402
from henderson.agents.learned import LearnedEvaluator, LearnedModel, feature_module, model_path  # noqa: E402
from henderson.core.game import Action, Game, State  # noqa: E402
from henderson.sim.seeds import derive_seed  # noqa: E402

DEFAULT_AGENTS = "normal:epsilon=0.1:samples=3,normal:epsilon=0.1:samples=3,easy"
SPSA_AGENT = "normal"
# the features SPSA tunes unless --only names others or the game's features module names its own
# (`SPSA_FEATURES`; those of them the game has): for AAG the
# hand-written evaluation's terms, the plain counts of islands held and airfields up, and the
# projected race (the side and the stage of the race shift every action's value alike, so a
# one-step search hardly feels them)
SPSA_FEATURES = (
    "term_vp",
    "term_material",
    "term_islands",
    "term_airfields",
    "term_fields_to_come",
    "term_second_mover",
    "islands_held",
    "airfields_up",
    "race",
)
SPSA_PERTURB = 0.2
SPSA_STEP = 0.03
SPSA_DECAY = 0.602  # the step shrinks as (1 + A) / (k + 1 + A) to this power (Spall's gains)
MAX_PLIES = 5000


def play(game: Game, specs: list[str], seed: int, index: int, every: int) -> tuple[list[list[float]], list[float]]:
    """One seeded game: the features of every `every`-th decision for the side deciding, and
    the game's result for that side."""
    module = feature_module(game)
    game_seed = derive_seed(seed, index)
    pick = random.Random(game_seed)
    seats = {side: agents.get(pick.choice(specs), derive_seed(game_seed, side)) for side in game.sides}
    state = game.new_state(game_seed)
    rows: list[list[float]] = []
    movers: list[str] = []
    plies = 0
    while not state.is_terminal() and plies < MAX_PLIES:
        side = state.current_player()
        assert side is not None
        if plies % every == 0:
            rows.append([float(x) for x in module.features(state, side)])
            movers.append(side)
        state.apply(seats[side].choose(state))
        plies += 1
    returns = state.returns() if state.is_terminal() else {}
    return rows, [float(returns.get(side, 0.0)) for side in movers]


class WeightedPlayer:
    """An agent that plays by a learned model with given weights (a tuning candidate): its
    evaluation is registered for the game while it decides, in place of the hand-written one."""

    def __init__(self, spec: str, seed: int, evaluate: Evaluator) -> None:
        self.agent = agents.get(spec, seed)
        self.name = self.agent.name
        self.evaluate = evaluate

    def choose(self, state: State) -> Action:
        name = state.game.name
        register_evaluator(name, self.evaluate)
        try:
            return self.agent.choose(state)
        finally:
            unregister_evaluator(name)


def points(game: Game, spec: str, names: list[str], first: Any, second: Any, seed: int) -> float:
    """The points (1 a win, 1/2 a draw or an unfinished game) the model with weights `first`
    scores against the one with `second` in two games of the same seed, one from each side."""
    module = feature_module(game)
    plus, minus = (
        LearnedEvaluator(LearnedModel(game.name, tuple(names), tuple(float(v) for v in w), {}), module.features)
        for w in (first, second)
    )
    total = 0.0
    for mine in game.sides:  # `first` plays each side once
        players = {
            side: WeightedPlayer(spec, derive_seed(seed, mine, side), plus if side == mine else minus)
            for side in game.sides
        }
        state = game.new_state(seed)
        plies = 0
        while not state.is_terminal() and plies < MAX_PLIES:
            side = state.current_player()
            assert side is not None
            state.apply(players[side].choose(state))
            plies += 1
        result = state.returns().get(mine, 0.0) if state.is_terminal() else 0.0
        total += (1.0 + result) / 2.0
    return total


def spsa(
    game: Game,
    spec: str,
    names: list[str],
    tuned: list[int],
    start: Any,
    rounds: int,
    seed: int,
    perturb: float,
    step: float,
    progress: bool = False,
    batch: int = 1,
) -> Any:
    """Weights tuned by SPSA from `start` over `rounds` rounds of `batch` seeds, two games each
    (the module docstring says how); the mean of the weights over the last half of the rounds."""
    theta = np.array(start, dtype=float)
    signs = random.Random(derive_seed(seed, "spsa-signs"))
    settle = max(rounds // 10, 1)  # Spall's A: the early steps are not much larger than the later
    kept: list[Any] = []
    for k in range(rounds):
        delta = np.zeros(len(names))
        for i in tuned:
            delta[i] = signs.choice((-1.0, 1.0))
        plus, minus = theta + perturb * delta, theta - perturb * delta
        # the seeds of the first round's batch are those of the one-seed rounds, so --batch 1 is the plain method
        seeds = [derive_seed(seed, "spsa", k) if b == 0 else derive_seed(seed, "spsa", k, b) for b in range(batch)]
        margin = sum(points(game, spec, names, plus, minus, s) - 1.0 for s in seeds) / batch
        margin *= 2.0  # the plus model's points less the minus model's, over two games a seed
        theta = theta + step * ((1.0 + settle) / (k + 1.0 + settle)) ** SPSA_DECAY * margin * delta
        if k >= rounds // 2:
            kept.append(theta.copy())
        if progress and (k + 1) % 10 == 0:
            shown = " ".join(f"{names[i]}={theta[i]:+.3f}" for i in tuned)
            print(f"  round {k + 1}/{rounds}: {shown}", file=sys.stderr, flush=True)
    return np.mean(kept, axis=0)


def fit(x: Any, z: Any, weight: Any, l2: float, center: Any = None, steps: int = 100) -> Any:
    """Weights w of P(win) = sigmoid(2 w . x), fitted to results z in {-1, 0, 1} (0 counts
    half a win) by Newton's method on the weighted log loss plus l2 |w - center|^2 / 2."""
    y = (1.0 + z) / 2.0
    center = np.zeros(x.shape[1]) if center is None else center
    w = center.copy()
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-2.0 * (x @ w)))
        grad = 2.0 * x.T @ (weight * (p - y)) + l2 * (w - center)
        hess = 4.0 * (x.T * (weight * p * (1.0 - p))) @ x + l2 * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        w = w - step
        if float(np.max(np.abs(step))) < 1e-10:
            break
    return w


def log_loss(value: Any, z: Any, weight: Any) -> float:
    """The weighted mean log loss of values in [-1, 1] read as (1 + v) / 2 chances to win."""
    p = np.clip((1.0 + value) / 2.0, 1e-6, 1.0 - 1e-6)
    y = (1.0 + z) / 2.0
    loss = -(y * np.log(p) + (1.0 - y) * np.log(1.0 - p))
    return float(np.sum(weight * loss) / np.sum(weight))


def tune(args: argparse.Namespace, game: Game, module: Any, names: list[str]) -> int:
    """`--spsa`: tune the weights by play from HAND_WEIGHTS and write the model."""
    if args.spsa < 1 or args.perturb <= 0 or args.step <= 0 or args.batch < 1:
        print("error: need --spsa >= 1, --perturb > 0, --step > 0 and --batch >= 1", file=sys.stderr)
        return 2
    if "," in args.agents or "eval=" in args.agents:
        print("error: --spsa: --agents is the one agent both models play, without eval=", file=sys.stderr)
        return 2
    if not hasattr(module, "HAND_WEIGHTS"):
        print(f"error: --spsa: game {args.game!r} has no HAND_WEIGHTS to start from", file=sys.stderr)
        return 2
    tunable = getattr(module, "SPSA_FEATURES", SPSA_FEATURES)
    only = [n.strip() for n in args.only.split(",")] if args.only else [n for n in tunable if n in names]
    if args.residual:
        if "hand" not in names:
            print(f"error: --residual: game {args.game!r} has no `hand` feature", file=sys.stderr)
            return 2
        start = np.array([1.0 if n == "hand" else 0.0 for n in names])
    else:
        start = np.array([module.HAND_WEIGHTS.get(n, 0.0) for n in names])
    begun = time.perf_counter()
    w = spsa(
        game,
        args.agents,
        names,
        [names.index(n) for n in only],
        start,
        args.spsa,
        args.seed,
        args.perturb,
        args.step,
        args.progress,
        args.batch,
    )
    played = time.perf_counter() - begun
    command = (
        f"python scripts/train_evaluation.py {args.game} --spsa {args.spsa} --seed {args.seed} "
        f"--agents {args.agents} --perturb {args.perturb} --step {args.step}"
    ) + (f" --only {args.only}" if args.only else "")
    command += (f" --batch {args.batch}" if args.batch > 1 else "") + (" --residual" if args.residual else "")
    games_played = 2 * args.spsa * args.batch
    provenance = {"command": command, "seed": args.seed, "games": games_played, "method": "spsa"}
    model = LearnedModel(game.name, tuple(names), tuple(round(float(v), 6) for v in w), provenance)
    out = args.out or model_path(game)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(model.to_json(), indent=1) + "\n", encoding="utf-8")
    print(f"{args.game}: {args.spsa} rounds of SPSA, {games_played} games in {played:.0f} s; wrote {out}")
    for name, v in zip(names, model.weights, strict=True):
        print(f"  {name:24} {v:+.4f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=150, help="games to play (default 150)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--agents", default=DEFAULT_AGENTS, help="comma-separated agents each side is drawn from")
    parser.add_argument("--every", type=int, default=1, help="take every K-th decision (default 1)")
    parser.add_argument("--only", help="comma-separated features to fit (default: all; the rest weigh 0)")
    parser.add_argument("--l2", type=float, default=1.0, help="L2 penalty on the weights (default 1)")
    parser.add_argument("--toward-hand", action="store_true", help="pull the weights toward HAND_WEIGHTS")
    parser.add_argument("--holdout", type=float, default=0.2, help="share of games kept out to compare (0.2)")
    parser.add_argument("--out", type=Path, help="model file (default: the game's data/evaluation.json)")
    parser.add_argument("--cache", type=Path, help="positions file (.npz): reused when made by the same games")
    parser.add_argument("--spsa", type=int, metavar="N", help="tune by play instead: N rounds of SPSA")
    parser.add_argument("--perturb", type=float, default=SPSA_PERTURB, help=f"SPSA: perturbation ({SPSA_PERTURB})")
    parser.add_argument("--step", type=float, default=SPSA_STEP, help=f"SPSA: first step ({SPSA_STEP})")
    parser.add_argument("--progress", action="store_true", help="SPSA: print the weights every 10 rounds")
    parser.add_argument("--batch", type=int, default=1, help="SPSA: seeds a round, two games each (1)")
    parser.add_argument("--residual", action="store_true", help="SPSA: start from the hand-written value itself")
    args = parser.parse_args(argv)
    try:
        game = games.get(args.game)
    except Exception as exc:  # an unknown game: one line, exit 2
        print(f"error: {exc}", file=sys.stderr)
        return 2
    module = feature_module(game)
    if module is None:
        print(f"error: game {args.game!r} has no features module", file=sys.stderr)
        return 2
    if args.games < 2 or args.every < 1 or args.l2 < 0 or not 0 <= args.holdout < 1:
        print("error: need --games >= 2, --every >= 1, --l2 >= 0 and 0 <= --holdout < 1", file=sys.stderr)
        return 2
    if args.spsa is not None:
        args.agents = SPSA_AGENT if args.agents == DEFAULT_AGENTS else args.agents
    specs = [s.strip() for s in args.agents.split(",") if s.strip()]
    for spec in specs:
        agents.get(spec, 0)  # a bad agent name fails here, before any game is played

    names = list(module.FEATURES)
    only = [n.strip() for n in args.only.split(",")] if args.only else names
    unknown = [n for n in only if n not in names]
    if unknown:
        print(f"error: --only: no feature {unknown[0]!r} (known: {', '.join(names)})", file=sys.stderr)
        return 2
    if args.spsa is not None:
        return tune(args, game, module, names)
    fitted = [names.index(n) for n in names if n in only]
    center = np.zeros(len(names))
    if args.toward_hand:
        if not hasattr(module, "HAND_WEIGHTS"):
            print(f"error: --toward-hand: game {args.game!r} has no HAND_WEIGHTS", file=sys.stderr)
            return 2
        center = np.array([module.HAND_WEIGHTS.get(n, 0.0) for n in names])
    made_by = json.dumps([args.game, args.games, args.seed, specs, args.every, names])
    start = time.perf_counter()
    if args.cache and args.cache.exists() and str(np.load(args.cache)["made_by"]) == made_by:
        saved = np.load(args.cache)
        x, z, weight, index = saved["x"], saved["z"], saved["weight"], saved["index"]
    else:
        xs: list[list[float]] = []
        zs: list[float] = []
        weights: list[float] = []
        game_of: list[int] = []
        for i in range(args.games):
            rows, results = play(game, specs, args.seed, i, args.every)
            xs += rows
            zs += results
            weights += [1.0 / max(len(rows), 1)] * len(rows)
            game_of += [i] * len(rows)
        x, z, weight, index = np.array(xs), np.array(zs), np.array(weights), np.array(game_of)
        if args.cache:
            np.savez(args.cache, x=x, z=z, weight=weight, index=index, made_by=np.array(made_by))
    played = time.perf_counter() - start

    report: dict[str, Any] = {}
    split = round(args.games * (1.0 - args.holdout))
    if args.holdout and 0 < split < args.games:
        train, test = index < split, index >= split
        w = fit(x[train][:, fitted], z[train], weight[train], args.l2, center[fitted])
        hand = x[test][:, names.index("hand")] if "hand" in names else np.zeros(int(test.sum()))
        report = {
            "holdout_games": args.games - split,
            "holdout_log_loss_learned": round(log_loss(np.tanh(x[test][:, fitted] @ w), z[test], weight[test]), 4),
            "holdout_log_loss_hand": round(log_loss(hand, z[test], weight[test]), 4),
        }
    w = np.zeros(len(names))
    w[fitted] = fit(x[:, fitted], z, weight, args.l2, center[fitted])
    command = (
        (
            f"python scripts/train_evaluation.py {args.game} --games {args.games} --seed {args.seed} "
            f"--agents {args.agents} --every {args.every} --l2 {args.l2} --holdout {args.holdout}"
        )
        + (f" --only {','.join(only)}" if args.only else "")
        + (" --toward-hand" if args.toward_hand else "")
    )
    model = LearnedModel(
        game.name,
        tuple(names),
        tuple(round(float(v), 6) for v in w),
        {
            "command": command,
            "seed": args.seed,
            "games": args.games,
            "positions": len(x),
            **report,
        },
    )
    out = args.out or model_path(game)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(model.to_json(), indent=1) + "\n", encoding="utf-8")
    print(f"{args.game}: {args.games} games, {len(x)} positions in {played:.0f} s; wrote {out}")
    for key, v in report.items():
        print(f"  {key}: {v}")
    for name, v in zip(names, model.weights, strict=True):
        print(f"  {name:24} {v:+.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
