"""Speed of the double-dummy solver (``tysiac_spec.bots.solver``): a whole deal from the first
lead, every hand known, solved for its optimum and a move reaching it.

The deals are the first deals of seeded matches of ``--ruleset`` with ``--players``, bid and
exchanged by the heuristic bot; the clock (CPU time) covers only the solve.  Prints one JSON
line: the median, the 10th, 25th, 75th and 90th percentiles and the largest CPU milliseconds
per deal, the median positions searched, and
the same with the value of every first move (``every_move``, what the ``strong`` bot asks per
world) at ``--cards`` cards in hand.

    python benchmarks/solver_speed.py --deals 30
    python benchmarks/solver_speed.py --deals 30 --solver pure

``--solver``: ``compiled`` (the mypyc build, ``python -m tysiac_spec.bots.solver_build``;
refused when it is not built), ``pure`` (pure Python) or ``auto`` (the compiled one when
built, as :func:`tysiac_spec.bots.solver.solver_of` does); the line names the one used.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time

from tysiac_spec import Game, load_ruleset
from tysiac_spec.bots import HeuristicBot
from tysiac_spec.bots.solver import Solver, played_form, solve_deal, solver_class, unsupported


def _at_play(rules: object, players: int, seed: int, cards: int | None) -> Game | None:
    game = Game(rules, players=players, seed=seed)  # type: ignore[arg-type]
    bots = [HeuristicBot(seed + p, game.form) for p in range(players)]
    rng = random.Random(seed)
    while not game.is_over and len(game.deal_scores) < 3:
        d = game.deal
        if d.phase == "play" and d.declarer is not None:
            if cards is None or (not d.trick and len(d.hands[d.current]) == cards):
                return None if unsupported(played_form(game.form, d), d) else game
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            continue
        p = game.current_player
        game.apply(bots[p].choose(game.view(p), game.legal_actions()))
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", default="pl-standard")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--cards", type=int, default=5, help="cards in hand for the every-move figure")
    parser.add_argument("--solver", choices=("auto", "compiled", "pure"), default="auto")
    args = parser.parse_args()
    if args.solver == "pure":
        os.environ["TYSIAC_SOLVER"] = "pure"
    used = "pure" if solver_class() is Solver else "compiled"
    if args.solver == "compiled" and used == "pure":
        parser.error("the compiled solver is not built (python -m tysiac_spec.bots.solver_build)")
    rules = load_ruleset(args.ruleset)
    out: dict[str, object] = {"ruleset": args.ruleset, "players": args.players, "solver": used}
    runs = (("whole_deal", None, False), (f"every_move_at_{args.cards}_cards", args.cards, True))
    for label, cards, every in runs:
        times, nodes = [], []
        seed = 0
        while len(times) < args.deals and seed < args.deals * 5:
            game = _at_play(rules, args.players, seed, cards)
            seed += 1
            if game is None:
                continue
            start = time.process_time()
            solution, _ = solve_deal(game.form, game.deal, rules.deck.cards, every_move=every)
            times.append((time.process_time() - start) * 1000)
            nodes.append(solution.nodes)
        tenths = statistics.quantiles(times, n=10) if len(times) > 1 else [times[0]] * 9
        quarters = statistics.quantiles(times, n=4) if len(times) > 1 else [times[0]] * 3
        out[label] = {"deals": len(times), "median_ms": round(statistics.median(times), 1),
                      "p10_ms": round(tenths[0], 1), "p25_ms": round(quarters[0], 1),
                      "p75_ms": round(quarters[2], 1), "p90_ms": round(tenths[8], 1),
                      "max_ms": round(max(times), 1), "median_nodes": statistics.median(nodes)}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
