"""Deals per CPU second of ``tysiac simulate --bots heuristic``: the generic engine against the
fast path, where the heuristic bot is shown the engine's view built from what the generated
code records (``tysiac_spec/fast/views.py``).

Each round plays the same matches (seeded from ``--seed``) with ``engine="generic"`` and then
``engine="fast"`` in this process, one worker, and times them by CPU time
(``time.process_time``); a warm-up match first makes the fast path's code.  Prints one line per
round on standard error, and per form one JSON line: the medians of the rates and of the
per-round ratios.  With the mypyc build of the module that
records the views (``python -m tysiac_spec.fast.build --views``) the fast path runs it; with
``TYSIAC_FAST_PURE=1`` the pure-Python one.

    nice -n 10 python benchmarks/view_bots_speed.py                       # pl-standard 3, ru-classic 4
    nice -n 10 python benchmarks/view_bots_speed.py --form pl-standard:3 --games 20 --rounds 5
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from tysiac_spec import load_ruleset
from tysiac_spec.simulate import simulate


def _rate(rules: object, players: int, engine: str, games: int, seed: int, max_deals: int,
          bots: str) -> tuple[float, int]:
    start = time.process_time()
    stats = simulate(rules, players=players, games=games, seed=seed, bots=bots,  # type: ignore[arg-type]
                     max_deals=max_deals, engine=engine)
    spent = time.process_time() - start
    assert stats.engine == engine, stats.fallback_reason
    deals = sum(r.deals for r in stats.results)
    return deals / spent, deals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--form", action="append", default=[], help="RULESET:PLAYERS (repeatable)")
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--max-deals", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="heuristic")
    args = parser.parse_args()
    forms = args.form or ["pl-standard:3", "ru-classic:4"]
    for spec in forms:
        rid, _, n = spec.partition(":")
        players = int(n or 3)
        rules = load_ruleset(rid)
        simulate(rules, players=players, games=1, seed=0, bots=args.bots, max_deals=2, engine="fast")
        ratios, engines, fasts = [], [], []
        for r in range(args.rounds):
            generic, deals = _rate(rules, players, "generic", args.games, args.seed, args.max_deals,
                                   args.bots)
            quick, same = _rate(rules, players, "fast", args.games, args.seed, args.max_deals, args.bots)
            assert same == deals
            ratios.append(quick / generic)
            engines.append(generic)
            fasts.append(quick)
            print(f"{rid} {players} round {r}: {deals} deals; engine {generic:.0f}, fast path {quick:.0f} "
                  f"deals per CPU second ({quick / generic:.2f}x)", file=sys.stderr, flush=True)
        print(json.dumps({
            "ruleset": rid, "players": players, "bots": args.bots, "deals": deals, "rounds": args.rounds,
            "engine_deals_per_cpu_second": round(statistics.median(engines)),
            "fast_deals_per_cpu_second": round(statistics.median(fasts)),
            "fast_over_engine": round(statistics.median(ratios), 2),
        }), flush=True)


if __name__ == "__main__":
    main()
