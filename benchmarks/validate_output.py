"""What `tysiac validate` prints for every YAML file of a checkout, to compare two trees.

Runs ``tysiac validate FILE`` for each ``*.yaml``/``*.yml`` under ``rulesets/``, ``examples/``
and ``tests/`` (the shipped rulesets and scenarios, the house examples, the invalid and hostile
corpus), then ``tysiac validate`` with no argument (every shipped ruleset), and writes each
run's exit status, standard output and standard error to one text file, the tree's own path
written ``TREE`` and a process's ``/proc/<pid>`` written ``/proc/PID`` (so that the files of two
trees compare byte for byte).  By default every run is in this one process (``CliRunner``,
about two minutes); ``--fresh`` starts a new process for each (about ten).  Prints the number
of runs and how many failed.  Speed work on the loader (issue 25 item 6) must leave the file
unchanged:

    .venv/bin/python benchmarks/validate_output.py /tmp/main-copy /tmp/main.txt
    .venv/bin/python benchmarks/validate_output.py . /tmp/branch.txt
    cmp /tmp/main.txt /tmp/branch.txt
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path


def _files(tree: Path) -> list[str]:
    found: set[str] = set()
    for folder in ("rulesets", "examples", "tests"):
        for pattern in ("*.yaml", "*.yml"):
            found.update(str(p.relative_to(tree)) for p in (tree / folder).rglob(pattern))
    return sorted(found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tree", type=Path, help="the checkout whose tysiac_spec runs")
    parser.add_argument("out", type=Path, help="the text file written")
    parser.add_argument("--fresh", action="store_true", help="a new process for each run")
    args = parser.parse_args()
    tree = args.tree.resolve()
    os.chdir(tree)
    runs = [[f] for f in _files(tree)] + [[]]
    results: list[str] = []
    if args.fresh:
        env = {**os.environ, "PYTHONPATH": str(tree)}
        for files in runs:
            proc = subprocess.run([sys.executable, "-m", "tysiac_spec", "validate", *files],
                                  capture_output=True, text=True, env=env, check=False)
            results.append(f"=== {files} rc={proc.returncode}\n--- out\n{proc.stdout}--- err\n"
                           f"{proc.stderr}")
    else:
        sys.path.insert(0, str(tree))
        from click.testing import CliRunner

        from tysiac_spec.cli import main as cli

        runner = CliRunner()
        for files in runs:
            got = runner.invoke(cli, ["validate", *files])
            raised = got.exception
            crash = "" if raised is None or isinstance(raised, SystemExit) else f" {raised!r}"
            results.append(f"=== {files} rc={got.exit_code}{crash}\n--- out\n{got.stdout}--- err\n"
                           f"{got.stderr}")
    text = re.sub(r"/proc/\d+", "/proc/PID", "\n".join(results).replace(str(tree), "TREE"))
    args.out.write_text(text, encoding="utf-8")
    failed = sum(" rc=0" not in r.split("\n", 1)[0] for r in results)
    print(f"{len(runs)} runs; {failed} with a non-zero status")


if __name__ == "__main__":
    main()
