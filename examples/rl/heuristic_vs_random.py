"""Evaluate the heuristic bot against random agents through the PettingZoo environment.

Run from the repository root (needs the ``[rl]`` extra)::

    python examples/rl/heuristic_vs_random.py pl-standard 3 200
    python examples/rl/heuristic_vs_random.py examples/house/misere.yaml 4 100 --seed 7
    python examples/rl/heuristic_vs_random.py --help

Seat 0 is :class:`~tysiac_spec.bots.HeuristicBot`, the other seats sample uniformly among the
legal actions (the action mask).  Each episode is one deal; the script prints the mean
change of score per deal of each seat (points) and how often seat 0 did best.
"""

from __future__ import annotations

import argparse

import numpy as np

from tysiac_spec.adapters.pettingzoo import TysiacEnv
from tysiac_spec.bots import HeuristicBot
from tysiac_spec.errors import TysiacError


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


def main(argv: list[str] | None = None) -> int:
    """The command line: ``RULESET [PLAYERS [DEALS]] [--seed N]``; prints one line per seat."""
    parser = argparse.ArgumentParser(
        description="Seat 0 (the heuristic bot) against random agents, one deal per episode, "
        "through the PettingZoo environment: the mean points per deal of each seat and how "
        "often seat 0 gained the most.")
    parser.add_argument("ruleset", nargs="?", default="pl-standard",
                        help="a ruleset id, alias or YAML file (default: pl-standard)")
    parser.add_argument("players", nargs="?", type=int, default=3, help="players (default: 3)")
    parser.add_argument("deals", nargs="?", type=int, default=100, help="deals to play (default: 100)")
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed (default: 0)")
    args = parser.parse_args(argv)
    if args.players < 1 or args.deals < 1:
        parser.error("players and deals must be positive")
    try:
        result = evaluate(args.ruleset, args.players, args.deals, args.seed)
    except TysiacError as err:  # an unknown ruleset, a player count without a form
        parser.exit(2, f"{err}\n")
    for name, value in result.items():
        print(f"{name}: {value:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
