"""Fit a game's learned evaluation from seeded games and write its model file.

    python scripts/train_evaluation.py GAME [--games N] [--seed S] [--agents A,B,...] [--every K]
                                       [--only F1,F2,...] [--l2 X] [--toward-hand] [--holdout F]
                                       [--out PATH] [--cache PATH]

Plays N seeded games (game i: seed derived from (S, i); each side's agent drawn from
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
from henderson.agents.learned import LearnedModel, feature_module, model_path  # noqa: E402
from henderson.core.game import Game  # noqa: E402
from henderson.sim.seeds import derive_seed  # noqa: E402

DEFAULT_AGENTS = "normal:epsilon=0.1:samples=3,normal:epsilon=0.1:samples=3,easy"
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
    specs = [s.strip() for s in args.agents.split(",") if s.strip()]
    for spec in specs:
        agents.get(spec, 0)  # a bad agent name fails here, before any game is played

    names = list(module.FEATURES)
    only = [n.strip() for n in args.only.split(",")] if args.only else names
    unknown = [n for n in only if n not in names]
    if unknown:
        print(f"error: --only: no feature {unknown[0]!r} (known: {', '.join(names)})", file=sys.stderr)
        return 2
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
        f"python scripts/train_evaluation.py {args.game} --games {args.games} --seed {args.seed} "
        f"--agents {args.agents} --every {args.every} --l2 {args.l2} --holdout {args.holdout}"
    ) + (f" --only {','.join(only)}" if args.only else "") + (" --toward-hand" if args.toward_hand else "")
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
