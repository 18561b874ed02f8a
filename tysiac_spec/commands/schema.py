"""``tysiac schema``: the ruleset JSON Schemas (draft 2020-12; draft-07 reads them alike)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..ruleset import extends_schema, ruleset_schema
from ._common import emit

__all__ = ["schema"]


@click.command("schema")
@click.option(
    "--extends", "extending", is_flag=True,
    help="The schema of a file that extends another (house rules): nothing required that "
    "a parent gives, `{$delete: true}` accepted.",
)
@click.option(
    "--output", "-o", type=click.Path(dir_okay=False, path_type=Path),
    help="Write to this file (atomically; missing folders are made) instead of standard output; - for "
    "standard output.",
)
def schema(extending: bool, output: Path | None) -> None:
    """Print the ruleset JSON Schema (draft 2020-12): of a complete ruleset, or with
    `--extends` of a file that extends another.

    Editors use it through a first line naming it, relative to the file:
    `# yaml-language-server: $schema=<path>/ruleset-extends.schema.json` in a house rule
    file (one with `extends`), `<path>/ruleset.schema.json` in a complete ruleset.
    """
    text = json.dumps(extends_schema() if extending else ruleset_schema(),
                      ensure_ascii=False, indent=2) + "\n"
    emit(text, output)
