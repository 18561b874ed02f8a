"""``tysiac schema``: the JSON Schemas of ruleset and scenario files (draft 2020-12;
draft-07 reads them alike), as editors read them."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ._common import emit

__all__ = ["schema"]


@click.command("schema")
@click.option(
    "--extends", "extending", is_flag=True,
    help="The schema of a file that extends another (house rules): nothing required that "
    "a parent gives, `{$delete: true}` accepted.",
)
@click.option(
    "--scenario", is_flag=True,
    help="The schema of a scenario file (`ruleset:` and `scenarios:`).",
)
@click.option(
    "--output", "-o", type=click.Path(dir_okay=False, path_type=Path),
    help="Write to this file (atomically; missing folders are made) instead of standard output; - for "
    "standard output.",
)
def schema(extending: bool, scenario: bool, output: Path | None) -> None:
    """Print a JSON Schema (draft 2020-12): of a complete ruleset, with `--extends` of a
    file that extends another, with `--scenario` of a scenario file.

    Editors use it through a first line naming it, relative to the file:
    `# yaml-language-server: $schema=<path>/ruleset-extends.schema.json` in a house rule
    file (one with `extends`), `<path>/ruleset.schema.json` in a complete ruleset,
    `<path>/scenario.schema.json` in a scenario file. Each rule field carries its label in
    the rule book (title, hover text in four languages), each choice its phrase.
    """
    if extending and scenario:
        raise click.UsageError("--extends and --scenario name two schemas: give one")
    if scenario:
        from ..scenarios import scenario_schema

        document = scenario_schema()
    else:
        from ..docs.editor_schema import editor_schema

        document = editor_schema("extends" if extending else "complete")
    emit(json.dumps(document, ensure_ascii=False, indent=2) + "\n", output)
