"""Instructions per deal (valgrind's callgrind) of the engine and the fast path, one JSON line.

Each case plays ``engine_speed.py``'s loop (the same seeded matches and random play; the
fast path with its random draws in the generated code) on the measured checkout's package
twice under ``valgrind --tool=callgrind``, a short and a long run (the fast path 200 and
1,200 deals, the engine 200 and 700, as the earlier sessions measured), and divides the
difference of the two totals by the difference of the deals, so that what is not a deal
cancels out.  The start-up (interpreter, imports, loading the ruleset, compiling the form) runs
uninstrumented (``--instr-atstart=no``; a small C library built with ``cc`` from
``valgrind/callgrind.h`` switches the instrumentation on before the first deal and off after the
last), which makes a case about four times quicker; without a C compiler every instruction is
counted, and the subtraction gives the same figure.  Instructions
executed do not depend on the machine's load, so two runs of one tree agree to about 0.1 %
(CPU seconds on the shared machine move by ±20 %).

The cases (``--case`` picks some, by their label):

- ``engine pl-standard 3`` and ``engine ru-classic 4``: the generic engine,
  ``Game.legal_actions``/``apply`` and a random bot;
- ``fast <ruleset> <players> pure``: the fast path's generated module in pure Python
  (``TYSIAC_FAST_PURE=1``), for pl-standard 3, ru-classic 4, ru-online 3, ua-standard 3;
- ``fast <ruleset> <players> mypyc``: the same forms with the mypyc build of the module
  (``python -m tysiac_spec.fast.build RULESET PLAYERS``, run first; the ``[fast]`` extra).

Every run sets ``PYTHONHASHSEED=0`` (hash orders would move the counts), ``PYTHONPATH`` to the
checkout and ``TYSIAC_FAST_CACHE`` to a cache folder of its own for that checkout (``--cache``;
the built modules are kept there between runs).  A case is first run once outside valgrind, so
that bytecode and the generated source are cached alike for both measured runs.  A case whose
run is not what it names (a form the fast path leaves to the engine, a mypyc build that did
not load) is reported with ``error`` instead of figures.

    nice -n 10 .venv/bin/python benchmarks/instructions.py                 # this checkout
    nice -n 10 .venv/bin/python benchmarks/instructions.py --tree /tmp/main-copy
    nice -n 10 .venv/bin/python benchmarks/instructions.py --case "fast ru-classic 4 mypyc" --keep /tmp/cg

Prints ``{"tree", "commit", "dirty", "python", "seed", "cases": {label: {"deals": [short, long],
"instructions": [short, long], "per_deal", "simulator"}}, "per_deal": {label: per_deal}}``;
``--keep DIR`` leaves the callgrind files there (``callgrind_annotate --inclusive=yes FILE``
shows where a case's instructions go).  Takes about eleven minutes of CPU for the ten cases.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

FAST_FORMS = (("pl-standard", 3), ("ru-classic", 4), ("ru-online", 3), ("ua-standard", 3))
"""The forms measured on the fast path, pure and mypyc."""

ENGINE_FORMS = (("pl-standard", 3), ("ru-classic", 4))
"""The forms measured on the generic engine."""


def cases() -> list[tuple[str, str, str, int]]:
    """Every case as (label, kind, ruleset, players); kind is ``engine``, ``pure`` or ``mypyc``."""
    out = [(f"engine {r} {n}", "engine", r, n) for r, n in ENGINE_FORMS]
    for kind in ("pure", "mypyc"):
        out += [(f"fast {r} {n} {kind}", kind, r, n) for r, n in FAST_FORMS]
    return out


def _env(tree: Path, cache: Path, kind: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("TYSIAC_FAST_PURE", "PYTHONPATH")}
    env.update(PYTHONHASHSEED="0", PYTHONPATH=str(tree), TYSIAC_FAST_CACHE=str(cache))
    if kind == "pure":
        env["TYSIAC_FAST_PURE"] = "1"
    return env


def _command(python: str, kind: str, ruleset: str, players: int, deals: int, seed: int,
             helper: Path | None) -> list[str]:
    return [python, str(Path(__file__).resolve()), "--child", kind, ruleset, str(players), str(deals),
            str(seed), str(helper or "")]


HELPER_C = """#include <valgrind/callgrind.h>
void tysiac_start(void) { CALLGRIND_START_INSTRUMENTATION; }
void tysiac_stop(void) { CALLGRIND_STOP_INSTRUMENTATION; }
"""


def _helper(cache: Path) -> Path | None:
    """A shared library whose two functions switch callgrind's instrumentation on and off (so
    that the start-up runs uninstrumented, about ten times faster), or ``None`` when it cannot be
    built (no C compiler or no ``valgrind/callgrind.h``: every instruction is then counted)."""
    path = cache / "callgrind_toggle.so"
    if path.exists():
        return path
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        return None
    cache.mkdir(parents=True, exist_ok=True)
    source = cache / "callgrind_toggle.c"
    source.write_text(HELPER_C, encoding="utf-8")
    done = subprocess.run([cc, "-shared", "-fPIC", "-O1", "-o", str(path), str(source)],
                          capture_output=True, text=True, check=False)
    return path if done.returncode == 0 and path.exists() else None


def child(kind: str, ruleset: str, players: int, deals: int, seed: int, helper: str) -> None:
    """Play ``deals`` deals as ``engine_speed.py`` does (``run``, or ``run_fast`` with the random
    draws in the generated code), instrumented from the first deal to the last only."""
    import ctypes
    import random

    from tysiac_spec import Game, load_ruleset  # the measured tree's (PYTHONPATH)

    lib = ctypes.CDLL(helper) if helper else None
    start, stop = (lib.tysiac_start, lib.tysiac_stop) if lib else (lambda: None, lambda: None)
    rules = load_ruleset(ruleset)
    played = match = 0
    if kind == "engine":
        from tysiac_spec.bots import RandomBot

        bot = RandomBot(seed)
        simulator = "engine"
        start()
        while played < deals:
            game = Game(rules, players=players, seed=seed + match)
            match += 1
            legal_actions, apply, choose = game.legal_actions, game.apply, bot.choose
            scored = game.deal_scores
            left = deals - played
            while len(scored) < left:
                legal = legal_actions()
                if not legal:
                    break
                apply(choose(None, legal))  # type: ignore[arg-type]
            played += len(scored)
        stop()
    else:
        from tysiac_spec import fast

        runner = fast.compile(rules, players)
        simulator = ("fast-fallback" if runner.fallback_reason
                     else "fast-mypyc" if getattr(runner, "compiled", False) else "fast")
        chooser = random.Random(seed)
        start()
        while played < deals:
            result = runner.play_match(seed + match, chooser, max_deals=deals - played, outcomes=False)
            match += 1
            played += len(result.deal_scores)
        stop()
    print(json.dumps({"simulator": simulator, "deals": played}))


def _simulator(stdout: str) -> str:
    """The ``simulator`` the child reported (its last line is the JSON)."""
    return str(json.loads(stdout.strip().splitlines()[-1])["simulator"])


EXPECTED = {"engine": "engine", "pure": "fast", "mypyc": "fast-mypyc"}


def _total(path: Path) -> int:
    """The instructions a callgrind output file counts (its ``totals:`` line; its ``summary:``
    line is 0 when the instrumentation started late)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    found = re.findall(r"^totals:\s*(\d+)", text, re.M) or re.findall(r"^summary:\s*(\d+)", text, re.M)
    if not found:
        raise RuntimeError(f"no total in {path}")
    return int(found[-1])


def measure(python: str, tree: Path, cache: Path, kind: str, ruleset: str, players: int,
            deals: tuple[int, int], seed: int, keep: Path | None, label: str) -> dict[str, object]:
    """One case: the two callgrind runs and the instructions per deal."""
    env = _env(tree, cache, kind)
    helper = _helper(cache)
    warm = subprocess.run(_command(python, kind, ruleset, players, 20, seed, None), env=env,
                          capture_output=True, text=True, check=False)
    if warm.returncode:
        return {"error": (warm.stderr.strip().splitlines() or ["failed"])[-1]}
    simulator = _simulator(warm.stdout)
    if simulator != EXPECTED[kind]:
        return {"error": f"ran as {simulator}, not {EXPECTED[kind]}", "simulator": simulator}
    totals: list[int] = []
    with tempfile.TemporaryDirectory(prefix="tysiac-callgrind-") as tmp:
        for n in deals:
            out = Path(tmp) / f"{label.replace(' ', '_')}.{n}.callgrind"
            atstart = ["--instr-atstart=no"] if helper else []
            run = subprocess.run(["valgrind", "--tool=callgrind", *atstart, f"--callgrind-out-file={out}",
                                  *_command(python, kind, ruleset, players, n, seed, helper)],
                                 env=env, capture_output=True, text=True, check=False)
            if run.returncode:
                return {"error": (run.stderr.strip().splitlines() or ["failed"])[-1]}
            totals.append(_total(out))
            if keep is not None:
                keep.mkdir(parents=True, exist_ok=True)
                shutil.copy(out, keep / out.name)
    per_deal = (totals[1] - totals[0]) / (deals[1] - deals[0])
    return {"deals": list(deals), "instructions": totals, "per_deal": round(per_deal),
            "simulator": simulator}


def build(python: str, tree: Path, cache: Path, ruleset: str, players: int) -> str | None:
    """Build the form's mypyc module in the tree's cache; ``None`` when it is there, else why not."""
    done = subprocess.run([python, "-m", "tysiac_spec.fast.build", ruleset, str(players)],
                          env=_env(tree, cache, "mypyc"), cwd=tree, capture_output=True, text=True,
                          check=False)
    line = (done.stdout.strip().splitlines() or [done.stderr.strip()])[-1]
    return None if done.returncode == 0 and (line.endswith(" built") or line.endswith(" present")) else line


def _git(tree: Path, *args: str) -> str | None:
    done = subprocess.run(["git", "-C", str(tree), *args], capture_output=True, text=True, check=False)
    return done.stdout.strip() if done.returncode == 0 else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", type=Path, default=Path(__file__).resolve().parents[1],
                        help="The checkout to measure (default: this one).")
    parser.add_argument("--python", default=sys.executable,
                        help="The interpreter (with the tree's dependencies; default: this one).")
    parser.add_argument("--case", action="append", default=[],
                        help="A case's label, e.g. 'fast ru-classic 4 mypyc' (repeatable; default: all).")
    parser.add_argument("--deals", type=int, nargs=2, default=(200, 1200), metavar=("SHORT", "LONG"),
                        help="The fast path's two runs (default 200 1200).")
    parser.add_argument("--engine-deals", type=int, nargs=2, default=(200, 700), metavar=("SHORT", "LONG"),
                        help="The engine's two runs (default 200 700).")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cache", type=Path, default=None,
                        help="TYSIAC_FAST_CACHE for the runs (default: a folder under the temporary "
                             "directory named after the tree).")
    parser.add_argument("--keep", type=Path, default=None, help="Keep the callgrind files in this folder.")
    parser.add_argument("--list", action="store_true", help="List the cases' labels and stop.")
    parser.add_argument("--child", nargs=6, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        kind, ruleset, players, deals, seed, helper = args.child
        child(kind, ruleset, int(players), int(deals), int(seed), helper)
        return 0
    chosen = cases()
    if args.list:
        print("\n".join(label for label, *_ in chosen))
        return 0
    if args.case:
        unknown = sorted(set(args.case) - {label for label, *_ in chosen})
        if unknown:
            parser.error(f"unknown case {unknown[0]!r} (--list shows them)")
        chosen = [c for c in chosen if c[0] in args.case]
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not installed")
    tree = args.tree.resolve()
    if not (tree / "tysiac_spec" / "fast" / "build.py").exists():
        parser.error(f"{tree} has no tysiac_spec/fast/build.py")
    cache = args.cache or Path(tempfile.gettempdir()) / (
        "tysiac-instructions-" + hashlib.sha1(str(tree).encode()).hexdigest()[:10])
    results: dict[str, dict[str, object]] = {}
    for label, kind, ruleset, players in chosen:
        if kind == "mypyc":
            failure = build(args.python, tree, cache, ruleset, players)
            if failure is not None:
                results[label] = {"error": f"mypyc build: {failure}"}
                continue
        deals = tuple(args.engine_deals if kind == "engine" else args.deals)
        results[label] = measure(args.python, tree, cache, kind, ruleset, players,
                                 (deals[0], deals[1]), args.seed, args.keep, label)
    status = _git(tree, "status", "--porcelain", "--untracked-files=no")
    print(json.dumps({
        "tree": str(tree), "commit": _git(tree, "rev-parse", "--short", "HEAD"),
        "dirty": bool(status) if status is not None else None,
        "python": subprocess.run([args.python, "-c", "import sys; print(sys.version.split()[0])"],
                                 capture_output=True, text=True, check=False).stdout.strip(),
        "seed": args.seed, "cases": results,
        "per_deal": {label: r.get("per_deal") for label, r in results.items()},
    }))
    return 1 if any("error" in r for r in results.values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())
