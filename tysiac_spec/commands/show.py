"""``tysiac show``: a resolved ruleset (``extends`` merged, options applied) as YAML or JSON."""

from __future__ import annotations

import json
from typing import Any

import click
import yaml

from ..ruleset._yaml import to_plain
from ..text import printable
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
    `tysiac schema`). With --players, the ruleset for that many players only:
    every section merged with that player count's overrides (also a valid ruleset).
    """
    from ..docs.terms import option_text
    from ..ruleset import load_ruleset  # (not at import: completion)

    rules = load_ruleset(ruleset, options=parse_option_args(options))
    doc: dict[str, Any] = dict(rules.document)
    # the values in force are written as the options' defaults, so the output loads again
    doc["options"] = {
        name: {**opt, "default": rules.selected[name]} for name, opt in doc.get("options", {}).items()
    }
    header = ""
    if players is not None:
        rules.form(players)  # raises for an unknown player count
        doc = _for_players(doc, players)
        in_force = ", ".join(f"{k}={option_text(v)}" for k, v in rules.selected.items())  # as -O takes it
        header = f"# {printable(rules.id, keep_newlines=False)} for {players} players" + (
            f"; options in force: {printable(in_force, keep_newlines=False)}" if in_force else "") + "\n"
    if fmt == "json":
        click.echo(json.dumps(doc, ensure_ascii=False, indent=2))
    else:
        body = yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, width=100)
        click.echo(header + body, nl=False)


def _for_players(doc: dict[str, Any], players: int) -> dict[str, Any]:
    """The resolved document ``doc`` as a ruleset for ``players`` only: every section merged
    with that count's overrides, ``players`` reduced to that count's table, and the table
    options' patches reduced to that count (a patch of another count's rules is dropped)."""
    from ..ruleset.model import SECTIONS

    key = str(players)
    from ..ruleset.validate import form_sections

    merged = to_plain(form_sections(doc, key))
    entry = to_plain(doc["players"][key]) or {}
    table = {k: v for k, v in entry.items() if k not in SECTIONS}
    out: dict[str, Any] = {}
    for name, value in doc.items():
        if name == "options":
            out[name] = {o: _option_for(spec, key) for o, spec in to_plain(value).items()}
        elif name == "players":
            out[name] = {players: table}
        elif name in SECTIONS:
            if merged.get(name) is not None:
                out[name] = merged[name]
        else:
            out[name] = value
    for name in SECTIONS:
        if name not in out and merged.get(name) is not None:
            out[name] = merged[name]
    return out


def _option_for(spec: Any, key: str) -> Any:
    """A table option whose patches (``set``) change only the rules of ``key`` players."""
    if not isinstance(spec, dict) or not isinstance(spec.get("set"), dict):
        return spec
    patches = {}
    for value, patch in spec["set"].items():
        if isinstance(patch, dict) and isinstance(patch.get("players"), dict):
            kept = {k: v for k, v in patch["players"].items() if str(k) == key}
            patch = {k: v for k, v in patch.items() if k != "players"} | ({"players": kept} if kept else {})
        patches[value] = patch
    return {**spec, "set": patches}
