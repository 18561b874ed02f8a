"""``tysiac validate``: check rulesets for every value of every option.

Loads only :mod:`tysiac_spec.ruleset` (never the engine), so that it stays fast.
"""

from __future__ import annotations

import sys

import click

from ..errors import TysiacError
from ..ruleset import check_every_option, load_ruleset, registry
from ._common import EXIT_USER_ERROR, print_diagnostics

__all__ = ["validate"]


@click.command("validate")
@click.argument("rulesets", nargs=-1, metavar="[ID|PATH]...")
@click.option("--quiet", "-q", is_flag=True, help="Print only problems.")
def validate(rulesets: tuple[str, ...], quiet: bool) -> None:
    """Validate rulesets (all shipped ones by default).

    Checks the YAML, the `extends` chain, the JSON Schema, the semantic rules
    (hands and talons use the whole pack, cited sources exist, …) for the
    default options and for every value of every option. Problems go to stderr
    as file:line:col: error[code]: message; the exit status is 1 if any.
    """
    refs = list(rulesets) or [e.id for e in registry.entries()]
    failed = 0
    for ref in refs:
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
        click.echo(f"{failed} of {len(refs)} ruleset(s) invalid", err=True)
        sys.exit(EXIT_USER_ERROR)
