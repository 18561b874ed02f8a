"""Evaluate the heuristic bot against random agents through the PettingZoo environment.

Run from the repository root (needs the ``[rl]`` extra)::

    python examples/rl/heuristic_vs_random.py pl-standard 3 200

Seat 0 is :class:`~tysiac_spec.bots.HeuristicBot`, the other seats sample uniformly among the
legal actions (the action mask).  Each episode is one deal; the script prints the mean
change of score per deal of each seat (points) and how often seat 0 did best.
"""

from __future__ import annotations

import sys

import numpy as np

from tysiac_spec.adapters.pettingzoo import TysiacEnv
from tysiac_spec.bots import HeuristicBot


def evaluate(
    ruleset: str = "pl-standard", players: int = 3, deals: int = 100, seed: int = 0
) -> dict[str, float]:
    """Play ``deals`` deals; the mean points per deal of each seat, and ``best``: the share of
    deals where seat 0 gained the most (ties count)."""
    env = TysiacEnv(ruleset, players)
    bot = HeuristicBot(seed, env.game.form)
    totals, best = np.zeros(players), 0
    for episode in range(deals):
        env.reset(seed=seed + episode)
        for p, agent in enumerate(env.possible_agents):
            env.action_space(agent).seed(seed + episode + p)
        gained = np.zeros(players)
        for agent in env.agent_iter():
            observation, reward, done, cut, _ = env.last()
            gained[env.possible_agents.index(agent)] += reward
            if done or cut:
                env.step(None)
                continue
            mask = observation["action_mask"]
            if agent == "player_0":  # the bot sees its view and the legal actions
                legal = [env.index.actions[i] for i in np.flatnonzero(mask)]
                action = env.index.number(bot.choose(env.game.view(0), legal))
            else:
                action = env.action_space(agent).sample(mask)
            env.step(action)
        totals += gained
        best += gained[0] == gained.max()
    return {**{f"player_{p}": totals[p] / deals for p in range(players)}, "best": best / deals}


if __name__ == "__main__":
    args = sys.argv[1:]
    result = evaluate(args[0] if args else "pl-standard", int(args[1]) if len(args) > 1 else 3,
                      int(args[2]) if len(args) > 2 else 100)
    for name, value in result.items():
        print(f"{name}: {value:.2f}")
