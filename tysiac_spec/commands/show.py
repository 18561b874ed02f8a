"""``tysiac show``: a resolved ruleset (``extends`` merged, options applied) as YAML or JSON."""

from __future__ import annotations

import json
from typing import Any

import click
import yaml

from ..ruleset import load_ruleset
from ..ruleset._yaml import to_plain
from ..ruleset.validate import form_sections
from ._common import parse_option_args, user_errors

__all__ = ["show"]


@click.command("show")
@click.argument("ruleset", metavar="ID|PATH")
@click.option(
    "--option", "-O", "options", multiple=True, metavar="NAME=VALUE",
    help="Set a table option of the ruleset (repeatable), e.g. -O five_rounds=up.",
)
@click.option("--players", "-p", type=int, help="Show only the rules for this many players.")
@click.option(
    "--format", "fmt", type=click.Choice(["yaml", "json"]), default="yaml", show_default=True
)
@user_errors
def show(ruleset: str, options: tuple[str, ...], players: int | None, fmt: str) -> None:
    """Print a resolved ruleset: `extends` merged and options applied.

    The output is itself a valid ruleset (the options in force become the options'
    defaults). Fields it does not list take their documented defaults (see
    `tysiac schema`). With --players, only the rules for that many players are
    printed, every section merged with that player count's overrides.
    """
    rules = load_ruleset(ruleset, options=parse_option_args(options))
    doc: dict[str, Any] = dict(rules.document)
    # the values in force are written as the options' defaults, so the output loads again
    doc["options"] = {
        name: {**opt, "default": rules.selected[name]} for name, opt in doc.get("options", {}).items()
    }
    if players is not None:
        rules.form(players)  # raises for an unknown player count
        sections = to_plain(form_sections(doc, str(players)))
        doc = {
            "id": rules.id,
            "players": players,
            "table": doc["players"][str(players)],
            **{k: v for k, v in sections.items() if v is not None},
            "options_in_force": dict(rules.selected),
        }
    if fmt == "json":
        click.echo(json.dumps(doc, ensure_ascii=False, indent=2))
    else:
        click.echo(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, width=100), nl=False)
