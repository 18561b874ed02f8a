"""How long `tysiac validate` takes in a fresh process, and how long the hostile fan-out and
option cases of issue 12 take to be answered.

Each case is run ``--runs`` times as a new process (``python -m tysiac_spec ...``); the
figures are the median wall time and the median CPU time of the child (user + system), in
seconds, with the largest resident set in MB.  Prints one JSON line.

``--bytecode`` says how the child gets the modules' bytecode:

- ``cached`` (the default): from a private cache in the temporary folder
  (``PYTHONPYCACHEPREFIX``), written by one untimed run of each case first -- what an
  installed package gives (pip compiles it when installing);
- ``as-is``: as the environment says; where ``PYTHONDONTWRITEBYTECODE`` is set and the
  checkout has no ``__pycache__`` (the development machine), every module of the package is
  compiled from source at each run (about 0.06 s there), the libraries' bytecode is used.

    .venv/bin/python benchmarks/validate_speed.py --runs 7
    .venv/bin/python benchmarks/validate_speed.py --runs 7 --bytecode as-is
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


def _house(folder: Path, name: str, extends: list[str] | str, extra: str = "") -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(
        f"id: {name}\nkind: house\nname: {{en: {name}}}\nextends: {extends}\n{extra}",
        encoding="utf-8",
    )
    return path


def _cases(folder: Path) -> dict[str, list[str]]:
    """The commands measured: every shipped ruleset, and the crafted fan-out and option files."""
    for level in range(6):  # four parents per level, six levels
        for i in range(4):
            parents = [f"l{level + 1}-{j}.yaml" for j in range(4)] if level < 5 else ["pl-standard"]
            _house(folder, f"l{level}-{i}", parents)
    fan = _house(folder, "fan-out", [f"l0-{i}.yaml" for i in range(4)])
    repeats = _house(folder, "repeats", ["pl-standard"] * 5000)
    choice = "    type: choice\n    choices: [a, b, c]\n    default: a\n"
    options = _house(
        folder, "options-200", "pl-standard",
        "options:\n" + "".join(f"  o{i}:\n{choice}" for i in range(200)),
    )
    many = _house(
        folder, "options-10000", "pl-standard",
        "options:\n" + "".join(f"  o{i}:\n    type: bool\n    default: true\n" for i in range(10000)),
    )
    return {
        "validate (all shipped)": ["validate", "-q"],
        "fan-out 4 x 6 levels": ["validate", "-q", str(fan)],
        "extends x5000 repeats": ["validate", "-q", str(repeats)],
        "200 three-valued options": ["validate", "-q", str(options)],
        "10,000 options": ["validate", "-q", str(many)],
    }


def _run(args: list[str], env: dict[str, str] | None) -> tuple[float, float, float, int]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "tysiac_spec", *args], capture_output=True, check=False, env=env
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, after.ru_maxrss / 1024, proc.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each case (default 5)")
    parser.add_argument(
        "--bytecode", choices=["cached", "as-is"], default="cached",
        help="cached: bytecode in a private cache, written by an untimed first run (default); "
        "as-is: as the environment says (see the module's text)",
    )
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        cases = _cases(Path(tmp))
        env = None
        if args.bytecode == "cached":
            env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
            env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        for name, command in cases.items():
            if env is not None:
                _run(command, env)  # writes the bytecode this case needs
            runs = [_run(command, env) for _ in range(args.runs)]
            results[name] = {
                "wall_s": round(statistics.median(r[0] for r in runs), 3),
                "cpu_s": round(statistics.median(r[1] for r in runs), 3),
                "max_rss_mb": round(max(r[2] for r in runs), 1),
                "exit": runs[0][3],
            }
    print(json.dumps({"python": sys.version.split()[0], "cpus": os.cpu_count(),
                      "bytecode": args.bytecode, **results}))


if __name__ == "__main__":
    main()
