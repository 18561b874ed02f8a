"""How long `tysiac validate` of every shipped ruleset takes cold, from an installed package.

Builds a wheel of this checkout, installs it (without its dependencies, which are taken from
the running environment) into a temporary folder as pip installs it (bytecode compiled), and
runs ``python -m tysiac_spec validate -q`` there ``--runs`` times, each a new process started
from a folder outside the checkout.  The first run is reported apart (the operating system's
file cache may still be cold for the installed files); the figures are the median and the
least wall time and CPU time of the child (user + system), in seconds.  Prints one JSON line.
Not asserted anywhere (issue 25's aim: under 0.5 s).

    .venv/bin/python benchmarks/validate_cold.py --runs 7
    .venv/bin/python benchmarks/validate_cold.py --installed  # the package as installed now
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


def _install(tmp: Path) -> Path:
    """The folder the wheel of this checkout is installed in."""
    wheels, site = tmp / "wheels", tmp / "site"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "wheel", "--no-deps", "-w", str(wheels), str(ROOT)],
                   check=True, capture_output=True)
    (wheel,) = wheels.glob("tysiac_spec-*.whl")
    subprocess.run([*pip, "install", "--no-deps", "--compile", "--target", str(site), str(wheel)],
                   check=True, capture_output=True)
    return site


def _run(env: dict[str, str], cwd: Path) -> tuple[float, float, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "tysiac_spec", "validate", "-q"],
                          capture_output=True, text=True, check=False, env=env, cwd=cwd)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode:
        raise SystemExit(f"tysiac validate failed ({proc.returncode}): {proc.stderr.strip()}")
    return wall, cpu, proc.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs after the first (default 5)")
    parser.add_argument("--installed", action="store_true",
                        help="time the tysiac_spec the running Python imports, not a fresh wheel")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
    with tempfile.TemporaryDirectory(prefix="tysiac-cold-") as tmp:
        cwd = Path(tmp)
        if not args.installed:
            env["PYTHONPATH"] = str(_install(cwd))
        where = subprocess.run([sys.executable, "-c", "import tysiac_spec; print(tysiac_spec.__file__)"],
                               capture_output=True, text=True, check=True, env=env, cwd=cwd).stdout.strip()
        first = _run(env, cwd)
        runs = [_run(env, cwd) for _ in range(args.runs)]
    print(json.dumps({
        "python": sys.version.split()[0], "cpus": os.cpu_count(), "package": where,
        "first": {"wall_s": round(first[0], 3), "cpu_s": round(first[1], 3)},
        "median": {"wall_s": round(statistics.median(r[0] for r in runs), 3),
                   "cpu_s": round(statistics.median(r[1] for r in runs), 3)},
        "least": {"wall_s": round(min(r[0] for r in runs), 3), "cpu_s": round(min(r[1] for r in runs), 3)},
        "runs": args.runs,
    }))


if __name__ == "__main__":
    main()
