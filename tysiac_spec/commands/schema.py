"""``tysiac schema``: the ruleset JSON Schema (draft 2020-12)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..ruleset import ruleset_schema
from ._common import emit

__all__ = ["schema"]


@click.command("schema")
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
