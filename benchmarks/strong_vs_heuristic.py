"""Strength of the ``strong`` bot against the ``heuristic`` bot, on the same deals.

For each seed, the first deal of a match (scores 0) is played twice per seat: once with
``strong`` in that seat and ``heuristic`` in the others, once with ``heuristic`` everywhere
(the same bot seeds, so only the one seat's choices differ).  The difference of that seat's
score change is one sample; every seat takes its turn (seat rotation).  The figure is the
mean difference per deal, with a 95 % interval from the per-seed means (normal
approximation); also the mean score per deal of each side and how often the strong seat
did better, the same or worse.  Runs until ``--deals`` seeds or ``--cpu-seconds`` are
spent.  Prints one JSON line (and one every ``--progress`` seeds).

    nice -n 10 python benchmarks/strong_vs_heuristic.py --ruleset pl-standard --players 3 --cpu-seconds 500
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time

from tysiac_spec import Game, load_ruleset
from tysiac_spec.bots import HeuristicBot, StrongBot
from tysiac_spec.bots.strong import DEFAULT_DEPTH, DEFAULT_SAMPLES


def _deal(rules: object, players: int, seed: int, strong_seat: int | None, samples: int,
          depth: int) -> tuple[int, ...]:
    game = Game(rules, players=players, seed=seed)  # type: ignore[arg-type]
    bots = [
        StrongBot(seed * 10 + p, game.form, samples=samples, depth=depth) if p == strong_seat
        else HeuristicBot(seed * 10 + p, game.form)
        for p in range(players)
    ]
    while not game.deal_scores and not game.is_over:
        p = game.current_player
        game.apply(bots[p].choose(game.view(p), game.legal_actions()))
    return tuple(game.deal_scores[0]) if game.deal_scores else (0,) * players


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", default="pl-standard")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--deals", type=int, default=2000, help="seeds at most (each played in every seat)")
    parser.add_argument("--cpu-seconds", type=float, default=600.0)
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    parser.add_argument("--depth", type=int, default=DEFAULT_DEPTH)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--progress", type=int, default=0, help="print the figures so far every N seeds")
    args = parser.parse_args()
    rules = load_ruleset(args.ruleset)
    start = time.process_time()
    per_seed: list[float] = []
    diffs: list[int] = []
    strong_scores: list[int] = []
    base_scores: list[int] = []
    seed = args.first_seed
    while len(per_seed) < args.deals and time.process_time() - start < args.cpu_seconds:
        base = _deal(rules, args.players, seed, None, args.samples, args.depth)
        row = []
        for seat in range(args.players):
            got = _deal(rules, args.players, seed, seat, args.samples, args.depth)
            row.append(got[seat] - base[seat])
            strong_scores.append(got[seat])
            base_scores.append(base[seat])
        diffs += row
        per_seed.append(sum(row) / len(row))
        seed += 1
        if args.progress and len(per_seed) % args.progress == 0:
            _report(args, per_seed, diffs, strong_scores, base_scores, time.process_time() - start)
    _report(args, per_seed, diffs, strong_scores, base_scores, time.process_time() - start)


def _report(args: argparse.Namespace, per_seed: list[float], diffs: list[int], strong_scores: list[int],
            base_scores: list[int], cpu: float) -> None:
    """Print the figures so far as one JSON line."""
    n = len(per_seed)
    mean = statistics.fmean(per_seed) if n else 0.0
    half = 1.96 * statistics.stdev(per_seed) / math.sqrt(n) if n > 1 else float("nan")
    print(json.dumps({
        "ruleset": args.ruleset, "players": args.players, "samples": args.samples, "depth": args.depth,
        "seeds": n, "deals_played_by_strong": len(diffs),
        "mean_difference_per_deal": round(mean, 2), "ci95": [round(mean - half, 2), round(mean + half, 2)],
        "strong_mean_score": round(statistics.fmean(strong_scores), 2) if diffs else None,
        "heuristic_mean_score_same_seat": round(statistics.fmean(base_scores), 2) if diffs else None,
        "better": sum(d > 0 for d in diffs), "same": sum(d == 0 for d in diffs),
        "worse": sum(d < 0 for d in diffs),
        "cpu_seconds": round(cpu, 1), "cpu_seconds_per_strong_deal": round(cpu / max(len(diffs), 1), 3),
    }), flush=True)


if __name__ == "__main__":
    main()
