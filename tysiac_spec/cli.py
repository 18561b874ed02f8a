"""The ``tysiac`` command.

Every user error (a bad ruleset, an unknown id, a bad option) is printed as
``file:line:col: error[code]: message`` with the source line and a caret, on
stderr, and the command exits with status 1 — never with a traceback.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any, ClassVar

import click
import yaml
from rich.console import Console
from rich.table import Table

from . import __version__
from .commands._common import (
    EXIT_USER_ERROR,
    emit,
    parse_option_args,
    print_diagnostics,
    user_errors,
)
from .errors import TysiacError
from .ruleset import check_every_option, load_ruleset, registry, ruleset_schema


def _stdout() -> Console:
    return Console(highlight=False, soft_wrap=True)


option_arg = click.option(
    "--option",
    "-O",
    "options",
    multiple=True,
    metavar="NAME=VALUE",
    help="Set a table option of the ruleset (repeatable), e.g. -O five_rounds=up.",
)


class _Commands(click.Group):
    """The group of commands: the commands built on the engine and the generated documents
    live one a module in :mod:`tysiac_spec.commands`, imported only when used (so that
    ``tysiac validate`` does not load the engine, the bots and the site builder)."""

    lazy: ClassVar[dict[str, tuple[str, str]]] = {
        "build": ("build", "build"),
        "check": ("check", "check"),
        "compare": ("compare", "compare_cmd"),
        "docs": ("docs", "docs"),
        "play": ("play", "play"),
        "replay": ("replay", "replay_cmd"),
        "score": ("score", "score"),
        "simulate": ("simulate", "simulate_cmd"),
    }

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.lazy])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy:
            module_name, attribute = self.lazy[cmd_name]
            module = importlib.import_module(f"{__package__}.commands.{module_name}")
            command: click.Command = getattr(module, attribute)
            return command
        return super().get_command(ctx, cmd_name)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tysiac")
@click.option(
    "--rules-dir",
    "rules_dirs",
    multiple=True,
    metavar="DIR",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    help="Let rulesets, scenario files and game records also name files in DIR and below "
    "(repeatable). Without it, a file may name a shipped ruleset id, or a file in its own "
    "folder (or below) or in the folder of the file you gave.",
)
@click.pass_context
def main(ctx: click.Context, rules_dirs: tuple[Path, ...]) -> None:
    """tysiac — the card game Tysiąc / Тысяча / 1000 with its rules as data.

    Rulesets are YAML files: the shipped ones are found by id (see `tysiac list`),
    your own by path. Start with `tysiac list`, then `tysiac validate` or
    `tysiac show pl-standard`.

    Files from other people are treated as untrusted: sizes, nesting, numbers, texts and the
    number of options are bounded (each error names the TYSIAC_MAX_* variable that raises
    its limit), and a file may only name files in the folders described under --rules-dir.
    """
    if rules_dirs:
        ctx.with_resource(registry.allowed_folders(rules_dirs))


@main.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
@user_errors
def list_cmd(as_json: bool) -> None:
    """List the shipped rulesets: id, kind, player counts, name and parent."""
    rows: list[dict[str, Any]] = []
    for entry in registry.entries():
        try:
            rules = load_ruleset(entry.id)
            players = ",".join(str(n) for n in rules.player_counts) or "-"
            status = "ok"
        except TysiacError:
            players, status = "?", "invalid"
        rows.append(
            {
                "id": entry.id,
                "kind": entry.kind,
                "players": players,
                "name": entry.name,
                "extends": list(entry.extends),
                "aliases": list(entry.aliases),
                "status": status,
            }
        )
    if as_json:
        for row in rows:
            row["players"] = [int(n) for n in str(row["players"]).split(",") if n.isdigit()]
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    table = Table(title="Shipped rulesets")
    table.add_column("id", no_wrap=True)
    table.add_column("kind", no_wrap=True)
    table.add_column("players", no_wrap=True)
    table.add_column("name")
    table.add_column("extends")
    table.add_column("aliases")
    for row in rows:
        style = "red" if row["status"] != "ok" else None
        table.add_row(
            row["id"], row["kind"], row["players"], row["name"],
            ", ".join(row["extends"]), ", ".join(row["aliases"]), style=style,
        )
    _stdout().print(table)


@main.command()
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


@main.command()
@click.argument("ruleset", metavar="ID|PATH")
@option_arg
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
        from .ruleset._yaml import to_plain
        from .ruleset.validate import form_sections

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


@main.command()
@click.option(
    "--output", "-o", type=click.Path(dir_okay=False, path_type=Path),
    help="Write to this file (atomically) instead of standard output; - for standard output.",
)
def schema(output: Path | None) -> None:
    """Print the ruleset JSON Schema (draft 2020-12).

    Editors use it through a first line
    `# yaml-language-server: $schema=<path>/ruleset.schema.json` in a ruleset file.
    """
    text = json.dumps(ruleset_schema(), ensure_ascii=False, indent=2) + "\n"
    emit(text, output)


@main.command("dsl-reference")
@click.option(
    "--output", "-o", type=click.Path(dir_okay=False, path_type=Path),
    help="Write to this file instead of standard output (the repository keeps docs/dsl.md).",
)
def dsl_reference(output: Path | None) -> None:
    """Print the reference of the formula language (Markdown): every context, name,
    type, unit and function, with examples."""
    from .dsl.reference import render_reference

    text = render_reference()
    emit(text, output)


if __name__ == "__main__":  # pragma: no cover
    main()
