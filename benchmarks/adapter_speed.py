"""Adapter throughput: steps per second of the PettingZoo environment and the OpenSpiel game.

Plays ``--steps`` steps of random legal actions in each adapter (new episodes, one deal
each, as they end) and prints one JSON line per adapter: ``adapter``, ``ruleset``,
``players``, ``steps``, ``episodes``, ``seconds``, ``steps_per_second``, ``cpu_seconds``,
``steps_per_cpu_second``.  A PettingZoo step is ``env.last()`` (the acting agent's
observation and action mask) then ``env.step``; an OpenSpiel step is
``state.legal_actions()``, ``state.observation_tensor()`` then ``state.apply_action``
(chance nodes sampled, not counted).  ``--all`` measures every shipped ruleset and player
count.  Needs the ``[rl]`` extra.

    python benchmarks/adapter_speed.py --ruleset pl-standard --players 3 --steps 20000
"""

from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np
import pyspiel

import tysiac_spec.adapters.openspiel  # noqa: F401  (registers python_tysiac)
from tysiac_spec import load_ruleset
from tysiac_spec.adapters.pettingzoo import TysiacEnv
from tysiac_spec.ruleset.registry import entries


def _figures(adapter: str, ruleset: str, players: int, steps: int, episodes: int,
             seconds: float, cpu: float) -> dict[str, object]:
    return {
        "adapter": adapter, "ruleset": ruleset, "players": players, "steps": steps,
        "episodes": episodes, "seconds": round(seconds, 3),
        "steps_per_second": round(steps / seconds, 1), "cpu_seconds": round(cpu, 3),
        "steps_per_cpu_second": round(steps / cpu, 1),
    }


def pettingzoo(ruleset: str, players: int, steps: int, seed: int) -> dict[str, object]:
    """``steps`` steps of the PettingZoo environment (random legal actions)."""
    env = TysiacEnv(ruleset, players)
    rng = np.random.default_rng(seed)
    done_steps = episodes = 0
    started, cpu_started = time.perf_counter(), time.process_time()
    while done_steps < steps:
        env.reset(seed=seed + episodes)
        episodes += 1
        for _agent in env.agent_iter():
            observation, _, done, cut, _ = env.last()
            if done or cut:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            done_steps += 1
    return _figures("pettingzoo", ruleset, players, done_steps, episodes,
                    time.perf_counter() - started, time.process_time() - cpu_started)


def openspiel(ruleset: str, players: int, steps: int, seed: int) -> dict[str, object]:
    """``steps`` player steps of the OpenSpiel game (random legal actions)."""
    game = pyspiel.load_game("python_tysiac", {"ruleset": ruleset, "players": players})
    rng = random.Random(seed)
    done_steps = episodes = 0
    started, cpu_started = time.perf_counter(), time.process_time()
    while done_steps < steps:
        state = game.new_initial_state()
        episodes += 1
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.randrange(len(state.chance_outcomes())))
                continue
            legal = state.legal_actions()
            state.observation_tensor(state.current_player())
            state.apply_action(rng.choice(legal))
            done_steps += 1
    return _figures("openspiel", ruleset, players, done_steps, episodes,
                    time.perf_counter() - started, time.process_time() - cpu_started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ruleset", default="pl-standard")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--steps", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--all", action="store_true", help="Every shipped ruleset and player count.")
    args = parser.parse_args()
    forms = [(args.ruleset, args.players)]
    if args.all:
        forms = [(e.id, n) for e in entries() if e.kind != "base" for n in load_ruleset(e.id).player_counts]
    for ruleset, players in forms:
        print(json.dumps(pettingzoo(ruleset, players, args.steps, args.seed)), flush=True)
        print(json.dumps(openspiel(ruleset, players, args.steps, args.seed)), flush=True)


if __name__ == "__main__":
    main()
