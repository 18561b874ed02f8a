"""How long one TAB takes: shell completion of ``tysiac`` as bash runs it, a new process each time.

Each case sets ``_TYSIAC_COMPLETE=bash_complete`` with the words typed so far, as the script
``eval "$(_TYSIAC_COMPLETE=bash_source tysiac)"`` installs it, and runs ``python -m
tysiac_spec`` ``--runs`` times (after one run that is not counted, which also writes the
bytecode).  The figures are the median and the least wall time and CPU time of the child (user
+ system), in seconds, per case.  The package is this checkout, its bytecode in a temporary
folder (``PYTHONPYCACHEPREFIX``) as an installed package has it; ``--wheel`` installs a wheel of
this checkout first, as ``validate_cold.py`` does.  Prints one JSON line.  Not asserted anywhere
(issue 29's aim: under 0.15 s a TAB).

    .venv/bin/python benchmarks/completion_speed.py --runs 7
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CASES = {
    "commands": "tysiac ",
    "play options": "tysiac play --",
    "score options": "tysiac score --",
    "play -O values": "tysiac play pl-standard -O ",
    "play --players": "tysiac play pl-standard --players ",
    "simulate --bots": "tysiac simulate pl-standard --bots heuristic,r",
    "ruleset ids": "tysiac show pl-",
}
"""Each case: the command line typed so far (the last word is the one completed)."""


def _run(env: dict[str, str], words: str, cwd: Path) -> tuple[float, float]:
    cword = len(words.split(" ")) - 1
    env = {**env, "_TYSIAC_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": str(cword)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "tysiac_spec"], capture_output=True, text=True,
                          env=env, cwd=cwd, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode or not proc.stdout.strip():
        raise SystemExit(f"completing {words!r} failed ({proc.returncode}): {proc.stderr.strip()}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs a case (default 5)")
    parser.add_argument("--wheel", action="store_true", help="time a wheel of this checkout, installed")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
    with tempfile.TemporaryDirectory(prefix="tysiac-tab-") as tmp:
        cwd = Path(tmp)
        if args.wheel:
            sys.path.insert(0, str(Path(__file__).parent))
            from validate_cold import _install

            env["PYTHONPATH"] = str(_install(cwd))
        else:
            env["PYTHONPATH"] = str(ROOT)
            env["PYTHONPYCACHEPREFIX"] = str(cwd / "pycache")
        out: dict[str, object] = {"python": sys.version.split()[0], "cpus": os.cpu_count(),
                                  "runs": args.runs}
        for name, words in CASES.items():
            _run(env, words, cwd)  # (the bytecode written, the files in the cache)
            runs = [_run(env, words, cwd) for _ in range(args.runs)]
            out[name] = {"median_wall_s": round(statistics.median(r[0] for r in runs), 3),
                         "median_cpu_s": round(statistics.median(r[1] for r in runs), 3),
                         "least_wall_s": round(min(r[0] for r in runs), 3)}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
