"""The cost of copying a game: a new game against ``clone()``, ``copy.deepcopy``, a pickle round
trip and a replay of the record, at a position ``--actions`` random actions into a match; and
the round trip of a hand-set deal through a record (issue 16).

Prints one JSON line: ``ruleset``, ``players``, ``actions`` (the position's length, and the
deals scored by then), then per operation the CPU microseconds of one call (the best of
``--rounds`` rounds of ``--calls`` calls: CPU time is steadier than wall time on a busy
machine) and its ratio to a new game; ``pickle_bytes``; and ``stacked_deal``, whether a game
started with ``start_deal`` comes back identical (state, generator, history) from its record
written to JSON, read and replayed, with its microseconds.

    python benchmarks/clone_speed.py --ruleset pl-standard --players 3 --actions 40

Timings only, never asserted: ``tests/test_clone.py`` checks what a copy is.
"""

from __future__ import annotations

import argparse
import copy
import json
import pickle
import random
import time
from collections.abc import Callable

from tysiac_spec import Game, load_ruleset
from tysiac_spec.engine.deal_notation import Deal
from tysiac_spec.engine.record import Record
from tysiac_spec.engine.replay import replay


def _cpu_us(call: Callable[[], object], calls: int, rounds: int) -> float:
    """The best of ``rounds`` rounds: CPU microseconds per call."""
    best = float("inf")
    for _ in range(rounds):
        started = time.process_time()
        for _ in range(calls):
            call()
        best = min(best, (time.process_time() - started) / calls * 1e6)
    return round(best, 1)


def run(ruleset: str, players: int, actions: int, seed: int, calls: int, rounds: int) -> dict[str, object]:
    rules = load_ruleset(ruleset)
    game = Game(rules, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        legal = game.legal_actions()
        if not legal:
            break
        game.apply(rng.choice(legal))
    record = game.record
    data = pickle.dumps(game)
    timings = {
        "new_game_us": _cpu_us(lambda: Game(rules, players=players, seed=seed), calls, rounds),
        "clone_us": _cpu_us(game.clone, calls, rounds),
        "deepcopy_us": _cpu_us(lambda: copy.deepcopy(game), calls, rounds),
        "pickle_dumps_us": _cpu_us(lambda: pickle.dumps(game), calls, rounds),
        "pickle_loads_us": _cpu_us(lambda: pickle.loads(data), calls, rounds),
        "pickle_round_trip_us": _cpu_us(lambda: pickle.loads(pickle.dumps(game)), calls, rounds),
        "replay_us": _cpu_us(lambda: replay(record), max(1, calls // 10), rounds),
    }
    new = timings["new_game_us"]
    ratios = {k.replace("_us", "_ratio"): round(v / new, 2) for k, v in timings.items() if k != "new_game_us"}

    # a hand-set deal through a record: dealt, played a little, written, read, replayed
    stacked = Game(rules, players=players, seed=seed + 1)
    donor = Game(rules, players=players, seed=seed + 2)
    d = donor.deal

    text = str(Deal.of(d.dealer, {p: d.hands[p] for p in d.order}, d.talons, d.stock, players=players))
    stacked.start_deal(text)
    for _ in range(actions):
        legal = stacked.legal_actions()
        if not legal:
            break
        stacked.apply(rng.choice(legal))

    def round_trip() -> Game:
        return replay(Record.from_json(stacked.record.to_json()))

    again = round_trip()
    return {
        "benchmark": "clone_speed",
        "ruleset": rules.id,
        "players": players,
        "actions": len(game.history),
        "deals_scored": len(game.deal_scores),
        **timings,
        **ratios,
        "pickle_bytes": len(data),
        "stacked_deal": {
            "deal": text,
            "identical_after_replay": again.snapshot() == stacked.snapshot(),
            "dealt_as_given": again.record.deals == ((0, text),),
            "round_trip_us": _cpu_us(round_trip, max(1, calls // 10), rounds),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ruleset", default="pl-standard")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--actions", type=int, default=40, help="Random actions before the copies.")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(json.dumps(run(args.ruleset, args.players, args.actions, args.seed, args.calls, args.rounds),
                     ensure_ascii=False))


if __name__ == "__main__":
    main()
