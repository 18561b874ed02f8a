"""Strength of the ``strong`` bot against the ``heuristic`` bot, on the same deals.

For each seed, the first deal of a match (scores 0) is played twice per seat: once with
``strong`` in that seat and ``heuristic`` in the others, once with ``heuristic`` everywhere
(the same bot seeds, so only the one seat's choices differ).  The difference of that seat's
score change is one sample; every seat takes its turn (seat rotation).  The figure is the
mean difference per deal, with a 95 % interval from the per-seed means (normal
approximation); also the mean score per deal of each side and how often the strong seat
did better, the same or worse.  Runs until ``--deals`` seeds or ``--cpu-seconds`` are
spent.  Prints one JSON line (and one every ``--progress`` seeds).

With ``--matches``: whole matches instead of first deals.  Seed ``s`` is played to its end
(at most ``--max-deals`` deals) twice: with ``strong`` in seat ``s mod players`` and
``heuristic`` in the others, and with ``heuristic`` everywhere; the figure is how often that
seat wins the match in each (a win rate per match, Wilson 95 % intervals), and the paired
difference (a mean of +1/0/-1 per seed with its normal 95 % interval).

    nice -n 10 python benchmarks/strong_vs_heuristic.py --ruleset pl-standard --players 3 --cpu-seconds 500
    nice -n 10 python benchmarks/strong_vs_heuristic.py --matches --cpu-seconds 1200 --progress 10
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


def _match(rules: object, players: int, seed: int, strong_seat: int | None, samples: int,
           depth: int, max_deals: int) -> tuple[bool, int]:
    """Play seed's match to its end: whether seat ``seed % players`` won it, and the deals."""
    game = Game(rules, players=players, seed=seed)  # type: ignore[arg-type]
    bots = [
        StrongBot(seed * 10 + p, game.form, samples=samples, depth=depth) if p == strong_seat
        else HeuristicBot(seed * 10 + p, game.form)
        for p in range(players)
    ]
    while not game.is_over and len(game.deal_scores) < max_deals:
        p = game.current_player
        game.apply(bots[p].choose(game.view(p), game.legal_actions()))
    return seed % players in game.winners, len(game.deal_scores)


def _wilson(k: int, n: int) -> list[float]:
    """Wilson's 95 % interval of k successes in n."""
    if not n:
        return [0.0, 1.0]
    z = 1.96
    p = k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return [round(mid - half, 3), round(mid + half, 3)]


def _matches(args: argparse.Namespace, rules: object) -> None:
    start = time.process_time()
    strong_wins: list[bool] = []
    base_wins: list[bool] = []
    deals = 0
    seed = args.first_seed
    while len(strong_wins) < args.deals and time.process_time() - start < args.cpu_seconds:
        seat = seed % args.players
        won, n = _match(rules, args.players, seed, seat, args.samples, args.depth, args.max_deals)
        base, _ = _match(rules, args.players, seed, None, args.samples, args.depth, args.max_deals)
        strong_wins.append(won)
        base_wins.append(base)
        deals += n
        seed += 1
        if args.progress and len(strong_wins) % args.progress == 0:
            _report_matches(args, strong_wins, base_wins, deals, time.process_time() - start)
    _report_matches(args, strong_wins, base_wins, deals, time.process_time() - start)


def _report_matches(args: argparse.Namespace, strong_wins: list[bool], base_wins: list[bool], deals: int,
                    cpu: float) -> None:
    """Print the match figures so far as one JSON line."""
    n = len(strong_wins)
    diffs = [int(a) - int(b) for a, b in zip(strong_wins, base_wins, strict=True)]
    mean = statistics.fmean(diffs) if n else 0.0
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(n) if n > 1 else float("nan")
    print(json.dumps({
        "ruleset": args.ruleset, "players": args.players, "samples": args.samples, "depth": args.depth,
        "matches": n, "strong_match_deals": deals,
        "strong_wins": sum(strong_wins), "strong_win_rate": round(sum(strong_wins) / max(n, 1), 3),
        "strong_ci95": _wilson(sum(strong_wins), n),
        "heuristic_wins_same_seat": sum(base_wins),
        "heuristic_win_rate": round(sum(base_wins) / max(n, 1), 3),
        "heuristic_ci95": _wilson(sum(base_wins), n),
        "paired_difference": round(mean, 3), "paired_ci95": [round(mean - half, 3), round(mean + half, 3)],
        "won_only_with_strong": sum(d > 0 for d in diffs),
        "won_only_with_heuristic": sum(d < 0 for d in diffs),
        "cpu_seconds": round(cpu, 1),
    }), flush=True)


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
    parser.add_argument("--matches", action="store_true", help="whole matches: the win rate per match")
    parser.add_argument("--max-deals", type=int, default=1000, help="with --matches: deals per match at most")
    args = parser.parse_args()
    rules = load_ruleset(args.ruleset)
    if args.matches:
        _matches(args, rules)
        return
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
