"""A study with ``strong`` bots, run one ruleset per process and stopped at a deadline.

``tysiac compare A B --simulate N --bots strong`` plays every match of A before the first of
B, so a run cut short on a shared machine compares nothing.  This script plays each ruleset
in its own process (``run``: matches from the same seed, in seed order, until ``--matches``
or Ctrl-C / SIGTERM, which keep the matches finished) and writes its
:class:`~tysiac_spec.simulate.Statistics` to a pickle; ``combine`` then keeps the matches
both runs finished (the same seeds: a paired comparison) and writes the study page and its
data as ``compare --simulate --format html --site-page --data`` does.

    nice -n 10 python benchmarks/strong_study.py run pl-standard /tmp/pl.pickle --matches 300 &
    nice -n 10 python benchmarks/strong_study.py run ru-classic /tmp/ru.pickle --matches 300 &
    kill -TERM <both pids>     # at the deadline (a background job ignores SIGINT)
    python benchmarks/strong_study.py combine /tmp/pl.pickle /tmp/ru.pickle \\
        -o docs/studies/x-strong.html --data docs/studies/x-strong.json
"""

from __future__ import annotations

import argparse
import json
import pickle
import time
from dataclasses import replace
from pathlib import Path

from tysiac_spec.simulate import simulate
from tysiac_spec.study import Study, render_study


def _run(args: argparse.Namespace) -> None:
    start = time.process_time()
    stats = simulate(args.ruleset, players=args.players, games=args.matches, seed=args.seed, bots=args.bots,
                     workers=1, stop_on_interrupt=True)
    cpu = time.process_time() - start
    Path(args.out).write_bytes(pickle.dumps({"stats": stats, "cpu_seconds": cpu}))
    deals = sum(r.deals for r in stats.results)
    print(json.dumps({"ruleset": args.ruleset, "matches": len(stats.results), "deals": deals,
                      "cpu_seconds": round(cpu, 1), "cpu_seconds_per_deal": round(cpu / max(deals, 1), 3),
                      "interrupted": stats.interrupted}))


def _combine(args: argparse.Namespace) -> None:
    loaded = [pickle.loads(Path(p).read_bytes()) for p in args.pickles]
    runs = [x["stats"] for x in loaded]
    common = set.intersection(*({r.index for r in s.results} for s in runs))
    runs = [replace(s, results=sorted((r for r in s.results if r.index in common), key=lambda r: r.index),
                    interrupted=False)
            for s in runs]
    cpu = sum(x["cpu_seconds"] for x in loaded)
    study = Study(runs, seconds=cpu)
    links = {"home": "../index.html", "books_prefix": "../rules/", "compare": "../compare.html"}
    Path(args.output).write_text(render_study(study, "html", links=links), encoding="utf-8")
    data = study.as_dict()
    data["cpu_seconds"] = [round(x["cpu_seconds"], 1) for x in loaded]
    Path(args.data).write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(render_study(study, "text"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    run = sub.add_parser("run")
    run.add_argument("ruleset")
    run.add_argument("out")
    run.add_argument("--matches", type=int, default=300)
    run.add_argument("--players", type=int, default=3)
    run.add_argument("--seed", type=int, default=0)
    run.add_argument("--bots", default="strong")
    both = sub.add_parser("combine")
    both.add_argument("pickles", nargs="+")
    both.add_argument("-o", "--output", required=True)
    both.add_argument("--data", required=True)
    args = parser.parse_args()
    _run(args) if args.what == "run" else _combine(args)


if __name__ == "__main__":
    main()
