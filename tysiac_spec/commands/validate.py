"""``tysiac validate``: check rulesets for every value of every option.

Loads only :mod:`tysiac_spec.ruleset` (never the engine), so that it stays fast.
"""

from __future__ import annotations

import gc
import os
import sys

import click

from ..errors import TysiacError
from ..ruleset import registry
from ._common import EXIT_USER_ERROR, print_diagnostics

__all__ = ["validate"]


@click.command("validate")
@click.argument("rulesets", nargs=-1, metavar="[ID|PATH]...")
@click.option("--quiet", "-q", is_flag=True, help="Print only problems.")
def validate(rulesets: tuple[str, ...], quiet: bool) -> None:
    """Validate rulesets (all shipped ones by default).

    Checks the YAML, the `extends` chain, the JSON Schema, the semantic rules
    (hands and talons use the whole pack, cited sources exist, …) for the
    default options and for every value of every option. A file whose first
    line names the scenario schema (`# yaml-language-server:
    $schema=…/scenario.schema.json`) is checked as a scenario file: its schema,
    its ruleset, its cards and actions (`tysiac check --file` runs it). Problems
    go to stderr as file:line:col: error[code]: message; the exit status is 1 if
    any.
    """
    threshold = gc.get_threshold()
    gc.set_threshold(_YOUNG_OBJECTS, *threshold[1:])
    try:
        _validate(rulesets, quiet)
    finally:
        gc.set_threshold(*threshold)


_YOUNG_OBJECTS = 100_000
"""The cycle collector's first threshold while rulesets are validated (Python's default is
700): loading keeps most of what it makes (documents, models, compiled formulas), so each
collection of the young objects found almost nothing to free and cost a tenth of a run's
time (``benchmarks/README.md``, issue 25).  Collections still happen, 140 times rarer."""


def _validate(rulesets: tuple[str, ...], quiet: bool) -> None:
    from ..ruleset import check_every_option, load_ruleset  # (not at import: completion)

    refs = list(rulesets) or [e.id for e in registry.entries()]
    failed = 0
    scenario_files = 0
    for ref in refs:
        if _is_scenario_file(ref):
            scenario_files += 1
            failed += not _validate_scenarios(ref, quiet)
            continue
        try:
            rules = load_ruleset(ref)
            check_every_option(rules)
        except TysiacError as exc:
            failed += 1
            print_diagnostics(exc.diagnostics)
            continue
        if not quiet:
            counts = ", ".join(str(n) for n in rules.player_counts) or "none"
            click.echo(
                f"ok  {rules.id:<22} {rules.kind:<8} players: {counts}; "
                f"options: {len(rules.options)}"
            )
    if failed:
        noun = "file(s)" if scenario_files else "ruleset(s)"
        click.echo(f"{failed} of {len(refs)} {noun} invalid", err=True)
        sys.exit(EXIT_USER_ERROR)


def _is_scenario_file(ref: str) -> bool:
    if not registry.looks_like_path(ref) or not os.path.isfile(ref):
        return False
    from ..scenarios import names_scenario_schema

    return names_scenario_schema(ref)


def _validate_scenarios(path: str, quiet: bool) -> bool:
    """Check a scenario file (:func:`~tysiac_spec.scenarios.load_scenarios`); whether it is valid."""
    from ..scenarios import load_scenarios

    try:
        loaded = load_scenarios(path)
    except TysiacError as exc:
        print_diagnostics(exc.diagnostics)
        return False
    if not quiet:
        click.echo(f"ok  {path:<22} scenarios for {loaded.ruleset.id}: {len(loaded.scenarios)}")
    return True
