"""``tysiac dsl-reference``: the reference of the formula language (the repository's
``docs/dsl.md``)."""

from __future__ import annotations

from pathlib import Path

import click

from ._common import emit

__all__ = ["dsl_reference"]


@click.command("dsl-reference")
@click.option(
    "--output", "-o", type=click.Path(dir_okay=False, path_type=Path),
    help="Write to this file instead of standard output (the repository keeps docs/dsl.md).",
)
def dsl_reference(output: Path | None) -> None:
    """Print the reference of the formula language (Markdown): every context, name,
    type, unit and function, with examples."""
    from ..dsl.reference import render_reference  # (not at import: completion)

    text = render_reference()
    emit(text, output)
