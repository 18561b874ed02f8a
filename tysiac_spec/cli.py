"""The ``tysiac`` command: the group, its ``--rules-dir`` option and the table of
subcommands, each defined in its own module of :mod:`tysiac_spec.commands` and imported only
when it is run (or listed by ``--help``).

The shell completes commands, ruleset ids, option names and values and player counts
(:mod:`tysiac_spec.commands._complete`, given to each command's parameters when it is loaded):
``eval "$(_TYSIAC_COMPLETE=bash_source tysiac)"`` in bash.

Every user error (a bad ruleset, an unknown id, a bad option) is printed as
``file:line:col: error[code]: message`` with the source line and a caret, on
stderr, and the command exits with status 1 — never with a traceback.
"""

from __future__ import annotations

import errno
import importlib
import os
import sys
from pathlib import Path
from typing import Any, ClassVar

import click
from click.shell_completion import CompletionItem

from . import __version__, limits
from .commands._complete import attach
from .errors import TysiacError

_COMMANDS: dict[str, tuple[str, str, str]] = {
    "advise": ("advise", "advise_cmd", "For each bid level: the chance of making..."),
    "build": ("build", "build", "Build the documentation site: an index of..."),
    "check": ("check", "check", "Run the scenarios (executable examples..."),
    "compare": ("compare", "compare_cmd", "Compare rulesets (shipped ids or YAML..."),
    "docs": ("docs", "docs", "Print the rule book of a ruleset (a..."),
    "dsl-reference": ("dsl_reference", "dsl_reference", "Print the reference of the formula..."),
    "list": ("list", "list_cmd", "List the shipped rulesets: id, kind,..."),
    "play": ("play", "play", "Play a match at the terminal against bots."),
    "position": ("position", "position_cmd", "Read a position in the middle of a deal..."),
    "replay": ("replay", "replay_cmd", "Print a recorded game (`tysiac play..."),
    "schema": ("schema", "schema", "Print a JSON Schema (draft 2020-12): of a..."),
    "score": ("score", "score", "Keep the scoresheet of a game played with..."),
    "serve": ("serve", "serve", "Serve the web table: create a table for..."),
    "show": ("show", "show", "Print a resolved ruleset: `extends` merged..."),
    "simulate": ("simulate", "simulate_cmd", "Play whole matches between bots and print..."),
    "validate": ("validate", "validate", "Validate rulesets (all shipped ones by..."),
}
"""Each command: its module in :mod:`tysiac_spec.commands`, the module's attribute, and its
short help as ``--help`` shows it (the docstring's first words; a test keeps them equal), for
completing a command name without importing every command."""


class _Commands(click.Group):
    """The group of commands: every command lives in its own module of
    :mod:`tysiac_spec.commands`, imported only when used (so that ``tysiac validate`` does
    not load the engine, the bots and the site builder). ``lazy`` maps a command's name to
    its module and the module's attribute."""

    lazy: ClassVar[dict[str, tuple[str, str]]] = {
        name: (module, attribute) for name, (module, attribute, _) in _COMMANDS.items()
    }

    def shell_complete(self, ctx: click.Context, incomplete: str) -> list[CompletionItem]:
        """The command names starting with ``incomplete``, with their short help from
        :data:`_COMMANDS` (no command module is imported: a TAB answers fast), then the
        group's options."""
        items = [CompletionItem(name, help=entry[2]) for name, entry in _COMMANDS.items()
                 if name.startswith(incomplete)]
        items.extend(click.Command.shell_complete(self, ctx, incomplete))
        return items

    def main(self, *args: Any, **kwargs: Any) -> Any:
        # A console that cannot show a character (cp1250 and ♥, a Windows console) shows a
        # replacement instead of failing; output that cannot be written (a full disk) is one
        # line and status 1, never a traceback (click answers only a broken pipe so)
        _replace_unshown()
        try:
            try:
                return super().main(*args, **kwargs)
            finally:
                if sys.stdout is not None:
                    sys.stdout.flush()  # (at exit, an error could no longer be reported)
        except OSError as exc:
            if exc.errno == errno.EPIPE:
                _discard_output()
                sys.exit(1)
            _discard_output()
            if exc.errno in _OUTPUT_ERRORS or not exc.filename:
                click.echo(f"tysiac: cannot write the output: {exc.strerror or exc}", err=True)
            else:  # (a file the command did not report itself)
                click.echo(f"tysiac: {exc.filename}: {exc.strerror or exc}", err=True)
            sys.exit(1)

    def invoke(self, ctx: click.Context) -> Any:
        # Ctrl-C before a command handles it itself (loading a ruleset, importing a command):
        # one line and the status of an interrupt (130), as `simulate` gives, not click's
        # "Aborted!" with status 1
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            ctx.exit(130)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.lazy])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy:
            module_name, attribute = self.lazy[cmd_name]
            module = importlib.import_module(f"{__package__}.commands.{module_name}")
            command: click.Command = getattr(module, attribute)
            return attach(command)
        return super().get_command(ctx, cmd_name)


_OUTPUT_ERRORS = frozenset(
    getattr(errno, name) for name in ("ENOSPC", "EDQUOT", "EFBIG", "EIO", "EROFS") if hasattr(errno, name)
)
"""The errors of writing standard output to a file or terminal that cannot take it."""


def _replace_unshown() -> None:
    """Let standard output and error replace the characters their encoding cannot show
    (``?``) instead of raising ``UnicodeEncodeError``: a ``cp1250`` or ``ascii`` console
    prints ♥ as ``?``; UTF-8 is not changed."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        encoding = str(getattr(stream, "encoding", "") or "").lower().replace("-", "").replace("_", "")
        if reconfigure is not None and encoding != "utf8":
            try:
                reconfigure(errors="replace")
            except (OSError, ValueError):  # (a closed or detached stream)
                pass


def _discard_output() -> None:
    """Point standard output at ``os.devnull``, so that what is still buffered for it is
    dropped at exit instead of failing again (and printing a traceback as Python exits)."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.stdout.fileno())
        os.close(fd)
    except (OSError, AttributeError, ValueError):
        pass


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
    try:  # a TYSIAC_MAX_* set to `abc` or `-5`: one line, before any work
        limits.check_environment()
    except TysiacError as exc:
        click.echo(f"tysiac: {exc.diagnostic.message}", err=True)
        ctx.exit(1)
    if rules_dirs:
        from .ruleset import registry

        ctx.with_resource(registry.allowed_folders(rules_dirs))


if __name__ == "__main__":  # pragma: no cover
    main()
