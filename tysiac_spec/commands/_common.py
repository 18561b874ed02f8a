"""What every ``tysiac`` command shares: printing user errors without a traceback,
``-O name=value`` options, atomic file writes, reading lines from a terminal or a pipe.

Kept apart from :mod:`tysiac_spec.cli` so that the command modules can import it at the
top without an import cycle.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable, Iterable, Sequence
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ..errors import Diagnostic, SaveError, TysiacError
from ..limits import SEED_MAX
from ..savefile import refuse_special, remove_stale_temps, temp_prefix
from ..stopping import stop_signals
from ..text import shorten

if TYPE_CHECKING:  # rich is imported by the commands that print with it, not by validate
    from rich.console import Console

__all__ = [
    "EXIT_USER_ERROR",
    "SEED_MAX",
    "check_folder",
    "check_output",
    "emit",
    "line_reader",
    "parse_option_args",
    "print_diagnostics",
    "stop_signals",
    "user_errors",
    "write_atomically",
]

F = TypeVar("F", bound=Callable[..., Any])

EXIT_USER_ERROR = 1



ECHO_WIDTH = 200
"""Characters of a line read from a pipe echoed before it is cut (:func:`line_reader`)."""

SHOWN_DIAGNOSTICS = 20
"""Most problems printed for one input; the rest are counted (a file of 3,000 duplicate keys
is answered in a screenful, not 600 KB)."""


def print_diagnostics(diagnostics: Iterable[Diagnostic], stream: Any = None) -> None:
    """Print diagnostics in the ``file:line:col: error[code]: message`` form with a caret:
    the first :data:`SHOWN_DIAGNOSTICS`, then how many more there are."""
    out = stream or sys.stderr
    items = list(diagnostics)
    for diagnostic in items[:SHOWN_DIAGNOSTICS]:
        print(diagnostic.render(), file=out)
    if len(items) > SHOWN_DIAGNOSTICS:
        rest = len(items) - SHOWN_DIAGNOSTICS
        print(f"... and {rest:,} more problem{'s' if rest > 1 else ''} (fix these first)", file=out)


def user_errors(func: F) -> F:
    """Turn any :class:`TysiacError` into printed diagnostics and exit status 1."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except TysiacError as exc:
            print_diagnostics(exc.diagnostics)
            sys.exit(EXIT_USER_ERROR)

    return wrapper  # type: ignore[return-value]


def parse_option_args(values: Sequence[str]) -> dict[str, str]:
    """``["five_rounds=up", "barrel=false"]`` -> ``{"five_rounds": "up", "barrel": "false"}``.

    Raises:
        click.BadParameter: an item without ``=``; an option given twice (which one was meant
            is not known).
    """
    out: dict[str, str] = {}
    for item in values:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise click.BadParameter(f"expected NAME=VALUE, got {item!r}", param_hint="--option")
        name, value = name.strip(), value.strip()
        if name in out:
            raise click.BadParameter(
                f"`{name}` is given twice ({out[name]!r} and {value!r}); give it once", param_hint="--option"
            )
        out[name] = value
    return out


def check_folder(path: Path) -> None:
    """Refuse ``path`` when its folder does not exist (no folder is ever made for it), so that
    a command can refuse a file it will write before doing anything else.

    Raises:
        click.ClickException: ``cannot write x/y.json: the folder x does not exist`` (or ``is
            not a folder``).
    """
    if str(path) == "-":
        return
    _refuse_folder(path, (path.resolve() if path.is_symlink() else path).parent)


def _refuse_folder(path: Path, folder: Path, *, missing_ok: bool = False) -> None:
    """Raise ``cannot write <path>: the folder <folder> is not a folder`` (or ``does not
    exist``, unless ``missing_ok``: the folders will be made; then the nearest one that
    exists must be a folder)."""
    if folder.is_dir():
        return
    if missing_ok:
        while not folder.exists() and folder != folder.parent:
            folder = folder.parent
        if folder.is_dir() or not folder.exists():
            return
    what = "is not a folder" if folder.exists() else "does not exist"
    raise click.ClickException(f"cannot write {path}: the folder {folder} {what}")


def write_atomically(path: Path, text: str, *, make_folders: bool = False) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename: never half-written.

    ``-`` writes to standard output; a symbolic link is followed (its target is
    replaced); a special file (a FIFO, a device, a socket) is refused, as a save refuses it
    (:func:`~tysiac_spec.savefile.refuse_special`: writing a FIFO would block for ever);
    an existing file keeps its permissions.  A file in a folder that does not exist is refused, and
    nothing is written (:func:`check_folder`), unless ``make_folders`` (an output the user
    names with ``-o``: ``tysiac schema -o my-editor/ruleset.schema.json``).

    Raises:
        click.ClickException: the file cannot be written (the message says why: ``cannot
            write x/y.json: the folder x does not exist``).
    """
    if str(path) == "-":
        click.echo(text, nl=False)
        return
    target = path.resolve() if path.is_symlink() else path
    try:
        if target.exists() and not target.is_file():
            if target.is_dir():
                raise click.ClickException(f"cannot write {path}: it is a directory")
            refuse_special(path)
        mode = target.stat().st_mode & 0o777 if target.exists() else 0o644
        if make_folders:
            _refuse_folder(path, target.parent, missing_ok=True)  # a file where a folder goes
            target.parent.mkdir(parents=True, exist_ok=True)
        else:
            check_folder(path)
        remove_stale_temps(target)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=temp_prefix(target), suffix=".tmp")
    except OSError as exc:
        raise click.ClickException(f"cannot write {path}: {exc.strerror or exc}") from None
    except SaveError as exc:
        raise click.ClickException(exc.diagnostic.message) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise click.ClickException(f"cannot write {path}: {exc.strerror or exc}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def check_output(path: Path | None) -> None:
    """Refuse, before a long run, an output path (``-o``) that is a special file (a FIFO, a
    device, a socket): :func:`~tysiac_spec.savefile.refuse_special`; ``None`` and ``-``
    (standard output) pass.

    Raises:
        click.ClickException: ``cannot write ff: it is a FIFO (named pipe), not a regular file``.
    """
    if path is None or str(path) == "-":
        return
    try:
        refuse_special(path)
    except SaveError as exc:
        raise click.ClickException(exc.diagnostic.message) from None


def emit(text: str, output: Path | None) -> None:
    """Print ``text``, or write it atomically to ``output`` (``-``: standard output), making
    its folders."""
    if output is None or str(output) == "-":
        click.echo(text, nl=False)
        return
    write_atomically(output, text, make_folders=True)
    click.echo(f"wrote {output}", err=True)


def line_reader(console: Console, *, highlight: bool = True) -> Callable[[str], str]:
    """Read one line after a prompt: with line editing on a terminal (``input``); from a pipe,
    echoing the prompt and the line read so that a scripted session reads like a typed one.

    The returned function raises ``EOFError`` at the end of input.
    """
    if sys.stdin.isatty():  # pragma: no cover - needs a terminal
        return input
    from rich.markup import escape

    def read(prompt: str) -> str:
        console.print(escape(prompt), end="")
        line = sys.stdin.readline()
        if not line:
            console.print()
            raise EOFError
        # as typed, but safe and short: control characters and bytes that were not UTF-8
        # made visible, a very long line cut (a script's 100,000 characters)
        console.print(escape(shorten(line.rstrip("\n"), ECHO_WIDTH)), highlight=highlight)
        return line

    return read
