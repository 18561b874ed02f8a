"""``tysiac replay``: print a recorded game deal by deal and trick by trick, verified
against its ruleset (a record whose ruleset changed is reported, never silently replayed).

The record is untrusted input: it is read within the limits (``Record.read``), its ruleset
is a shipped one or a file in the record's folder, and the transcript is printed with
control characters made visible (:func:`tysiac_spec.text.printable`)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import click

from ..errors import RecordError
from ..text import printable
from ._common import user_errors as _user_errors

__all__ = ["chunks", "in_file", "replay_cmd"]


def chunks(text: str) -> Iterator[str]:
    """The transcript cut before each deal (``Deal 2: …``) and each trick (``  trick 3: …``),
    the pieces ``--step`` pauses between."""
    piece: list[str] = []
    for line in text.splitlines():
        if piece and (line.startswith("Deal ") or line.startswith("  trick ")):
            yield "\n".join(piece)
            piece = []
        piece.append(line)
    if piece:
        yield "\n".join(piece)


def in_file(exc: RecordError, file: Path) -> RecordError:
    """The same error with its diagnostics placed in ``file`` (``game.json: error[…]: …``)."""
    return RecordError([d if d.file else replace(d, file=str(file)) for d in exc.diagnostics])


@click.command("replay")
@click.argument("file", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@click.option(
    "--step", is_flag=True, help="Pause after each deal's opening and each trick (Enter goes on, q stops)."
)
@_user_errors
def replay_cmd(file: Path, step: bool) -> None:
    """Print a recorded game (`tysiac play --save`) deal by deal, trick by trick, with the
    scores.

    The record is first verified against its ruleset: a ruleset whose content hash differs
    from the record's, or an action that is not legal, is reported (exit status 1). The
    record's ruleset is a shipped one or a file in the record's folder or below.
    """
    from ..engine.record import Record
    from ..engine.replay import replay
    from ..transcript import transcript

    try:
        record = Record.read(file)  # LimitError (unread) on a file over the limits
        game = replay(record)  # RecordError on a hash mismatch or an illegal action
    except RecordError as exc:
        raise in_file(exc, file) from None
    text = printable(transcript(game))
    if not step:
        click.echo(text, nl=False)
        return
    pausing = True
    for piece in chunks(text):
        click.echo(piece)
        if not pausing:
            continue
        line = sys.stdin.readline()
        if not line:
            pausing = False  # end of input: print the rest without pausing
        elif line.strip().lower() in ("q", "quit"):
            return
