"""Train a small masked agent in the Gymnasium environment and measure it against random play.

Run from the repository root (needs the ``[gymnasium]`` extra; numpy only, no deep-learning
library; a few CPU minutes; not part of the test suite's default run)::

    python examples/rl/masked_reinforce.py                      # pl-standard, 3 players, random bots
    python examples/rl/masked_reinforce.py --train 40000 --evaluate 4000 --bots heuristic
    python examples/rl/masked_reinforce.py --help

The agent sits in seat 0 of ``tysiac/<ruleset>-<n>p-v0`` (:mod:`tysiac_spec.adapters.gym`),
one deal per episode.  Its policy is a linear softmax over the form's action index, restricted
to the legal actions by ``env.action_masks()`` (the mask sb3-contrib's ``MaskablePPO`` reads),
trained by REINFORCE with a running-mean baseline on the deal's score divided by the most a
deal is worth.  The evaluation plays the same deals (the same seeds: the same cards and the
same bots' choices until the learners differ) once with the trained policy and once with a
uniformly random legal action, and prints each one's mean score per deal (points) and the
mean difference with its 95% interval (normal approximation over the paired deals).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np

import tysiac_spec.adapters.gym  # noqa: F401  (registers tysiac/<ruleset>-<n>p-v0)
from tysiac_spec.errors import TysiacError


class LinearPolicy:
    """``softmax(W @ observation + b)`` over the legal actions (the mask)."""

    def __init__(self, observations: int, actions: int, seed: int) -> None:
        self.w = np.zeros((actions, observations))
        self.b = np.zeros(actions)
        self.rng = np.random.default_rng(seed)

    def probabilities(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = self.w @ observation + self.b
        logits = np.where(mask, logits, -np.inf)
        logits -= logits[mask].max()
        p = np.exp(logits)
        return p / p.sum()  # type: ignore[no-any-return]

    def sample(self, observation: np.ndarray, mask: np.ndarray) -> int:
        return int(self.rng.choice(len(mask), p=self.probabilities(observation, mask)))


Chooser = Callable[[np.ndarray, np.ndarray], int]
"""``choose(observation, mask)``: the number of an action the mask allows."""


def play(env: Any, seed: int, choose: Chooser) -> tuple[float, list[tuple[np.ndarray, np.ndarray, int]]]:
    """One deal from ``seed``; the learner's score and its (observation, mask, action) steps."""
    observation, _ = env.reset(seed=seed)
    steps, total, done = [], 0.0, False
    while not done:
        mask = env.unwrapped.action_masks()
        action = choose(observation, mask)
        steps.append((observation, mask, action))
        observation, reward, done, cut, _ = env.step(action)
        total += float(reward)
        done = done or cut
    return total, steps


def train(env: Any, deals: int, seed: int, rate: float = 0.05) -> LinearPolicy:
    """REINFORCE with a running-mean baseline, one update per deal."""
    scale = env.unwrapped.layout.scale
    policy = LinearPolicy(env.observation_space.shape[0], env.action_space.n, seed)
    baseline = 0.0
    for deal in range(deals):
        score, steps = play(env, 1_000_000 + seed * deals + deal, policy.sample)
        advantage = score / scale - baseline
        baseline += 0.01 * (score / scale - baseline)
        for observation, mask, action in steps:
            gradient = -policy.probabilities(observation, mask)
            gradient[action] += 1.0
            policy.w += rate * advantage * np.outer(gradient, observation)
            policy.b += rate * advantage * gradient
    return policy


def evaluate(env: Any, policy: LinearPolicy, deals: int, seed: int) -> dict[str, float]:
    """The trained and the random learner on the same ``deals`` seeds: mean scores per deal,
    the mean difference and its 95% interval."""
    rng = np.random.default_rng(seed)

    def greedy(observation: np.ndarray, mask: np.ndarray) -> int:
        return int(np.argmax(policy.probabilities(observation, mask)))

    def uniform(observation: np.ndarray, mask: np.ndarray) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    trained = np.array([play(env, seed + d, greedy)[0] for d in range(deals)])
    random_ = np.array([play(env, seed + d, uniform)[0] for d in range(deals)])
    diff = trained - random_
    half = 1.96 * diff.std(ddof=1) / math.sqrt(deals) if deals > 1 else math.inf
    mean = float(diff.mean())
    return {"trained": float(trained.mean()), "random": float(random_.mean()),
            "difference": mean, "low": mean - half, "high": mean + half}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", default="pl-standard", help="a shipped ruleset id (default pl-standard)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--bots", default="random", help="the other seats' bots (default random)")
    parser.add_argument("--train", type=int, default=20000, help="training deals (default 20000)")
    parser.add_argument("--evaluate", type=int, default=2000, help="evaluation deals (default 2000)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        env = gymnasium.make(f"tysiac/{args.ruleset}-{args.players}p-v0", bots=args.bots)
    except (TysiacError, gymnasium.error.Error, ValueError) as exc:
        parser.exit(2, f"error: {exc}\n")
    start = time.perf_counter()
    policy = train(env, args.train, args.seed)
    trained_in = time.perf_counter() - start
    r = evaluate(env, policy, args.evaluate, 10_000_000 + args.seed)
    print(f"trained on {args.train} deals in {trained_in:.0f} s; {args.evaluate} evaluation deals in seat 0")
    print(f"trained: {r['trained']:+.1f} points per deal; random: {r['random']:+.1f}")
    print(f"difference: {r['difference']:+.1f} [{r['low']:+.1f}, {r['high']:+.1f}] (95%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
