"""Engine throughput: seeded deals played by a bot choosing uniformly among legal actions.

Plays ``--deals`` scored deals of a ruleset (a new seeded match is started whenever one
ends) and prints one JSON line: ``ruleset``, ``players``, ``deals``, ``actions``,
``seconds``, ``deals_per_second``, ``actions_per_second``, and ``cpu_seconds`` with
``deals_per_cpu_second`` (steadier than wall time on a busy machine).  With ``--views`` the bot is
also handed the player's view each turn, as a real bot would be.

    python benchmarks/engine_speed.py --ruleset pl-standard --players 3 --deals 20000 --seed 1

``--fast`` measures the fast path (:mod:`tysiac_spec.fast`) the same way: the same seeded
matches, deals and random choices (its :func:`~tysiac_spec.fast.random_policy` draws as
``RandomBot`` does), the form compiled once before the clock starts; ``simulator`` is
``fast`` (``fast-mypyc`` when the compiled module is the mypyc build, ``fast-fallback`` when the
form is played by the engine, with ``fallback_reason``).  ``TYSIAC_FAST_PURE=1`` measures the
pure-Python module even where a mypyc build exists.

Compare with ``benchmarks/reference_pl3.py`` (a special-purpose simulator of the same
Polish 3-player game); profile with ``python -m cProfile -s tottime benchmarks/engine_speed.py``.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import cast

from tysiac_spec import Game, load_ruleset
from tysiac_spec.bots import RandomBot
from tysiac_spec.engine import View


def run(ruleset: str, players: int, deals: int, seed: int, views: bool = False) -> dict[str, object]:
    """Play ``deals`` scored deals; the measured figures as a mapping."""
    rules = load_ruleset(ruleset)
    bot = RandomBot(seed)
    no_view = cast(View, None)
    played = actions = 0
    match = 0
    started, cpu_started = time.perf_counter(), time.process_time()
    while played < deals:
        game = Game(rules, players=players, seed=seed + match)
        match += 1
        # the game's and the bot's methods looked up once (the loop's own cost is the harness's)
        legal_actions, apply, choose, scored = game.legal_actions, game.apply, bot.choose, game.deal_scores
        left = deals - played
        while len(scored) < left:
            legal = legal_actions()
            if not legal:  # the match is over
                break
            if views:
                apply(choose(game.view(game.current_player), legal))
            else:  # the random bot does not look at the view
                apply(choose(no_view, legal))
            actions += 1
        played += len(scored)
    seconds = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    return {
        "simulator": "engine",
        "ruleset": rules.id,
        "players": players,
        "views": views,
        "deals": played,
        "matches": match,
        "actions": actions,
        "seconds": round(seconds, 3),
        "deals_per_second": round(played / seconds, 1),
        "actions_per_second": round(actions / seconds, 1),
        "cpu_seconds": round(cpu, 3),
        "deals_per_cpu_second": round(played / cpu, 1),
    }


def run_fast(ruleset: str, players: int, deals: int, seed: int) -> dict[str, object]:
    """:func:`run` on the fast path (no views: the fast path has none)."""
    from tysiac_spec import fast

    rules = load_ruleset(ruleset)
    runner = fast.compile(rules, players)
    policies = fast.random_policies(seed, players)  # (with --count-actions: one call per action)
    played = actions = 0
    match = 0
    counting = [0]

    def counted(player: int, legal: list[int], choose: fast.Policy = policies[0]) -> int:
        counting[0] += 1
        return choose(player, legal)

    # the random choices drawn inside the generated code (RandomBot's draws, no call per action)
    chooser = [counted] * players if actions_counted else random.Random(seed)
    started, cpu_started = time.perf_counter(), time.process_time()
    while played < deals:
        result = runner.play_match(seed + match, chooser, max_deals=deals - played, outcomes=False)
        match += 1
        played += len(result.deal_scores)
    seconds = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    actions = counting[0]
    kind = "fast-fallback" if runner.fallback_reason else ("fast-mypyc" if runner.compiled else "fast")
    out: dict[str, object] = {
        "simulator": kind,
        "ruleset": rules.id,
        "players": players,
        "views": False,
        "deals": played,
        "matches": match,
        "actions": actions if actions_counted else None,
        "seconds": round(seconds, 3),
        "deals_per_second": round(played / seconds, 1),
        "actions_per_second": round(actions / seconds, 1) if actions_counted else None,
        "cpu_seconds": round(cpu, 3),
        "deals_per_cpu_second": round(played / cpu, 1),
    }
    if runner.fallback_reason:
        out["fallback_reason"] = runner.fallback_reason
    return out


actions_counted = False
"""Whether ``--fast`` counts the actions (a wrapper around the policy: about 5 % slower)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ruleset", default="pl-standard")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--views", action="store_true", help="Also build the player's view each turn.")
    parser.add_argument("--fast", action="store_true", help="Measure the fast path (tysiac_spec.fast).")
    parser.add_argument("--count-actions", action="store_true",
                        help="With --fast, also count the actions (through a wrapper around the policy).")
    args = parser.parse_args()
    if args.fast:
        global actions_counted
        actions_counted = args.count_actions
        print(json.dumps(run_fast(args.ruleset, args.players, args.deals, args.seed)))
        return
    print(json.dumps(run(args.ruleset, args.players, args.deals, args.seed, args.views)))


if __name__ == "__main__":
    main()
