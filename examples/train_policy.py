"""Train a small policy on one henderson game with the PettingZoo environment, numpy only,
and measure it against the `random` agent.

The policy is a one-hidden-layer network from a seat's observation vector to a score per
token; it chooses the best legal token (the environment's mask). It learns by imitation:
games of the `normal` agent against `random` are played through the environment, and the
network is fitted to the tokens `normal` chose (cross-entropy over the legal tokens, Adam).
Then it plays `random` from both sides and the score is reported with its 95% interval.

    python examples/train_policy.py --game aag --games 40 --epochs 8 --eval 200 --seed 1

(`--games 1 --epochs 1 --eval 2` runs in seconds: the test suite runs it so.)
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from henderson import agents
from henderson.research.pettingzoo_env import HendersonAEC, env
from henderson.sim.seeds import derive_seed
from henderson.sim.stats import wilson

Chooser = Callable[[HendersonAEC, str, dict[str, Any]], int]


@dataclass
class Policy:
    """Observation -> hidden (ReLU) -> one score per token; the best legal token is played."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray

    @classmethod
    def new(cls, inputs: int, hidden: int, tokens: int, rng: np.random.Generator) -> Policy:
        return cls(
            rng.normal(0, 1 / np.sqrt(inputs), (inputs, hidden)).astype(np.float32),
            np.zeros(hidden, np.float32),
            rng.normal(0, 1 / np.sqrt(hidden), (hidden, tokens)).astype(np.float32),
            np.zeros(tokens, np.float32),
        )

    def scores(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        hidden = np.maximum(x @ self.w1 + self.b1, 0)
        return hidden, hidden @ self.w2 + self.b2

    def choose(self, observation: np.ndarray, mask: np.ndarray) -> int:
        _, scores = self.scores(observation[None, :])
        return int(np.argmax(np.where(mask.astype(bool), scores[0], -np.inf)))

    def params(self) -> list[np.ndarray]:
        return [self.w1, self.b1, self.w2, self.b2]

    def save(self, path: Path) -> None:
        np.savez_compressed(path, w1=self.w1, b1=self.b1, w2=self.w2, b2=self.b2)


def agent_chooser(spec: str, seed: int) -> Chooser:
    """A henderson agent choosing whole actions, fed to the environment token by token."""
    agent = agents.get(spec, seed)
    queued: list[int] = []

    def choose(e: HendersonAEC, side: str, obs: dict[str, Any]) -> int:
        match = e.match
        assert match is not None
        if not match.prefix:
            queued[:] = match.space.tokens(agent.choose(match.state))
        return queued[len(match.prefix)]

    return choose


def play(e: HendersonAEC, seed: int, choosers: dict[str, Chooser], record: str | None = None) -> tuple[dict, list]:
    """One game; returns the rewards and, for side `record`, (observation, mask, token) of
    each decision with more than one legal token."""
    e.reset(seed=seed)
    samples = []
    rewards = dict.fromkeys(e.possible_agents, 0.0)
    for side in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        rewards[side] += reward
        if terminated or truncated:
            e.step(None)
            continue
        token = choosers[side](e, side, obs)
        if side == record and obs["action_mask"].sum() > 1:
            samples.append((obs["observation"], obs["action_mask"].astype(bool), token))
        e.step(token)
    return rewards, samples


def train(policy: Policy, data: list, epochs: int, rng: np.random.Generator, lr: float = 1e-3) -> list[float]:
    """Fit the policy to the teacher's tokens: cross-entropy over the legal tokens, Adam."""
    x = np.stack([d[0] for d in data])
    masks = np.stack([d[1] for d in data])
    y = np.array([d[2] for d in data])
    moments = [(np.zeros_like(p), np.zeros_like(p)) for p in policy.params()]
    step, losses = 0, []
    for _ in range(epochs):
        order = rng.permutation(len(y))
        total = 0.0
        for start in range(0, len(y), 128):
            batch = order[start : start + 128]
            hidden, scores = policy.scores(x[batch])
            scores = np.where(masks[batch], scores, -1e9)
            scores -= scores.max(axis=1, keepdims=True)
            probs = np.exp(scores) * masks[batch]
            probs /= probs.sum(axis=1, keepdims=True)
            rows = np.arange(len(batch))
            total += float(-np.log(probs[rows, y[batch]] + 1e-12).sum())
            grad = probs
            grad[rows, y[batch]] -= 1
            grad /= len(batch)
            g_w2 = hidden.T @ grad
            g_b2 = grad.sum(axis=0)
            g_hidden = (grad @ policy.w2.T) * (hidden > 0)
            g_w1 = x[batch].T @ g_hidden
            g_b1 = g_hidden.sum(axis=0)
            step += 1
            for p, g, (m, v) in zip(policy.params(), (g_w1, g_b1, g_w2, g_b2), moments, strict=True):
                m[:] = 0.9 * m + 0.1 * g
                v[:] = 0.999 * v + 0.001 * g * g
                p -= lr * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
        losses.append(total / len(y))
    return losses


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="aag")
    parser.add_argument("--teacher", default="normal", help="the agent imitated")
    parser.add_argument("--games", type=int, default=40, help="teacher games (each side in turn)")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--eval", type=int, default=200, help="games against random (each side in turn)")
    parser.add_argument("--max-plies", type=int, default=3000, help="a game longer than this is a draw")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", type=Path, help="write the trained weights (.npz)")
    args = parser.parse_args(argv)

    e = env(args.game, max_plies=args.max_plies)
    sides = e.possible_agents
    rng = np.random.default_rng(args.seed)
    clock = time.perf_counter()
    data: list = []
    for i in range(args.games):
        seed = derive_seed(args.seed, "teach", i)
        learner, other = sides[i % 2], sides[1 - i % 2]
        choosers = {
            learner: agent_chooser(args.teacher, derive_seed(seed, learner)),
            other: agent_chooser("random", derive_seed(seed, other)),
        }
        _, samples = play(e, seed, choosers, record=learner)
        data.extend(samples)
    print(f"{len(data)} decisions of {args.teacher} from {args.games} games ({time.perf_counter() - clock:.0f} s)")

    observation_size = e.observation_space(sides[0])["observation"].shape[0]
    policy = Policy.new(observation_size, args.hidden, e.action_space(sides[0]).n, rng)
    losses = train(policy, data, args.epochs, rng)
    print("loss by epoch: " + " ".join(f"{x:.3f}" for x in losses))
    if args.save:
        policy.save(args.save)

    def learned(e: HendersonAEC, side: str, obs: dict[str, Any]) -> int:
        return policy.choose(obs["observation"], obs["action_mask"])

    points, played = 0.0, 0
    for i in range(args.eval):
        seed = derive_seed(args.seed, "eval", i)
        learner, other = sides[i % 2], sides[1 - i % 2]
        rewards, _ = play(e, seed, {learner: learned, other: agent_chooser("random", derive_seed(seed, other))})
        points += (rewards[learner] + 1) / 2  # win 1, draw 1/2, loss 0
        played += 1
    low, high = wilson(points, played) if played else (0.0, 1.0)
    share = points / played if played else 0.0
    print(f"policy v random: {share:.1%} of the points in {played} games (95% CI {low:.1%}-{high:.1%})")
    print(f"{time.perf_counter() - clock:.0f} s in all")
    return {"score": share, "games": played, "interval": (low, high), "losses": losses}


if __name__ == "__main__":
    main()
