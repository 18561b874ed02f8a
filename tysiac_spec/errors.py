"""The error hierarchy and the one diagnostic record used for every user error.

Every problem a user can cause (bad YAML, a schema violation, a DSL mistake, a
semantic inconsistency, an illegal action) is reported as a :class:`Diagnostic`
and raised as a subclass of :class:`TysiacError`.  The CLI prints diagnostics as
``file:line:col: error[code]: message`` followed by the source line and a caret,
and never shows a traceback for them.

Codes are stable identifiers (``yaml.duplicate-key``, ``schema.enum``,
``merge.cycle``, ``dsl.unknown-name`` ...); tests and tools may match on them.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .text import printable, shorten

__all__ = [
    "TRACEBACK_ENV",
    "AdapterError",
    "BotActionError",
    "BotError",
    "BotRaisedError",
    "CannotServe",
    "ClusterError",
    "Diagnostic",
    "DistributedMissing",
    "DslError",
    "EngineUnavailable",
    "EntryError",
    "IllegalActionError",
    "IncidentsError",
    "LimitError",
    "MatchError",
    "NotationError",
    "OptionError",
    "PlotsMissing",
    "RecordError",
    "RulesetError",
    "SaveConflictError",
    "SaveError",
    "ScenarioError",
    "SiteError",
    "StatsMissing",
    "TysiacError",
    "bot_raised",
    "format_path",
    "illegal_action",
]


def format_path(path: Sequence[str | int]) -> str:
    """Render a path inside a ruleset as dotted text: ``("deck", "ranks", 0)`` -> ``deck.ranks[0]``.

    An empty path renders as ``<root>``.
    """
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "<root>"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One user-facing problem, with where it is.

    Attributes:
        code: stable identifier such as ``schema.enum`` or ``yaml.duplicate-key``.
        message: one sentence naming the field, what was expected and what was found.
        file: the file the problem is in, or ``None`` when there is no file (an API call).
        line: 1-based line number, or ``None`` when unknown.
        column: 1-based column number, or ``None`` when unknown.
        path: path inside the ruleset (``("auction", "step")``); empty for the whole document.
        hint: an optional suggestion of what to do.
        severity: ``"error"`` (the default) or ``"warning"``.
        notes: further lines, each shown as ``note: …`` after the hint: where the cause
            of a problem lies when that is not where it shows (a house file's line that made
            a value it inherits invalid, ``note: because of my-table.yaml:4:3: …``).
    """

    code: str
    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    path: tuple[str | int, ...] = ()
    hint: str | None = None
    severity: str = "error"
    notes: tuple[str, ...] = ()

    @property
    def location(self) -> str:
        """``file:line:col`` (as much of it as is known); ``<input>`` without a file."""
        loc = self.file or "<input>"
        if self.line is not None:
            loc += f":{self.line}"
            if self.column is not None:
                loc += f":{self.column}"
        return loc

    def headline(self) -> str:
        """The one-line form: ``file:line:col: error[code]: message`` (no location part when
        the problem is not in a file, e.g. an unknown ruleset id).  Control characters are
        written as escapes (``\\x1b``), so a message quoting untrusted text is safe to print."""
        head = f"{self.severity}[{self.code}]: {self.message}"
        line = f"{self.location}: {head}" if self.file is not None else head
        return printable(line, keep_newlines=False)

    def render(self, *, source: str | None = None) -> str:
        """Headline, then the source line with a caret under the column, then path, hint and
        notes.

        The source line is shown cut to about 100 characters around the column, with
        control characters written as escapes (the caret moved past them).  A file is read
        for it only when it is small (:data:`SOURCE_BYTES`).

        Args:
            source: the text of :attr:`file`; read from disk when ``None`` and the file exists.
        """
        lines = [self.headline()]
        text = source
        if text is None and self.file is not None and self.line is not None:
            text = _small_file_text(self.file)
        if text is not None and self.line is not None:
            src_lines = text.splitlines()
            if 1 <= self.line <= len(src_lines):
                src = src_lines[self.line - 1]
                column = self.column
                if len(src) > _SOURCE_WIDTH and column is not None:
                    start = max(0, min(column - 1 - _SOURCE_WIDTH // 2, len(src) - _SOURCE_WIDTH))
                    src = src[start : start + _SOURCE_WIDTH]
                    column -= start
                elif len(src) > _SOURCE_WIDTH:
                    src = src[:_SOURCE_WIDTH]
                shown = printable(src, keep_newlines=False)
                lines.append(f"  {shown}")
                if column is not None and 1 <= column <= len(src) + 1:
                    # (under the escaped line: each escape before the column widens it)
                    before = printable(src[: column - 1], keep_newlines=False)
                    lines.append("  " + " " * len(before) + "^")
        if self.path:
            lines.append(f"  at: {shorten(format_path(self.path), 200)}")
        if self.hint:
            lines.append(f"  hint: {printable(self.hint, keep_newlines=False)}")
        lines.extend(f"  note: {printable(note, keep_newlines=False)}" for note in self.notes)
        return "\n".join(lines)


_SOURCE_WIDTH = 100
"""Characters of a source line shown under a diagnostic."""

SOURCE_BYTES = 2_000_000
"""Largest file :meth:`Diagnostic.render` reads to show a source line (larger files are
refused by the limits before any diagnostic points into them)."""


def _small_file_text(file: str) -> str | None:
    try:
        path = Path(file)
        if not path.is_file() or path.stat().st_size > SOURCE_BYTES:
            return None
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


class TysiacError(Exception):
    """Base of every error caused by user input (rulesets, formulas, options, actions).

    Carries one or more :class:`Diagnostic` records; ``str(error)`` is the headline
    of each, one per line.  Programming errors (bugs) are never ``TysiacError``.
    """

    def __init__(self, diagnostics: Diagnostic | Iterable[Diagnostic] | str) -> None:
        if isinstance(diagnostics, str):
            diagnostics = Diagnostic(code=self.default_code, message=diagnostics)
        if isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics: tuple[Diagnostic, ...] = tuple(diagnostics)
        super().__init__("\n".join(d.headline() for d in self.diagnostics))

    default_code = "error"

    @property
    def diagnostic(self) -> Diagnostic:
        """The first (most important) diagnostic."""
        return self.diagnostics[0]


class RulesetError(TysiacError, ValueError):
    """Raised when a ruleset cannot be loaded: bad YAML, schema or semantic errors,
    a broken ``extends`` chain, or an unknown ruleset id.  Holds every problem found."""

    default_code = "ruleset"


class LimitError(RulesetError):
    """Raised when an input goes over one of the bounds in :mod:`tysiac_spec.limits` (a file's
    size, a document's nodes or depth, an integer's digits, a text's length, the fan-out of
    ``extends`` or of options), before the work it guards is done.  The code is
    ``limit.<name>``; the hint names the environment variable that raises the limit."""

    default_code = "limit"


class OptionError(RulesetError):
    """Raised when a game asks for an option the ruleset does not declare, or gives a
    value outside the option's choices or range.  The message lists the valid ones."""

    default_code = "option"


class DslError(TysiacError, ValueError):
    """Raised when a formula does not parse, does not type-check in its context, or
    fails at run time (for example a division by zero)."""

    default_code = "dsl"


class NotationError(TysiacError, ValueError):
    """Raised when a card (``QH``) or action text cannot be parsed; the message names the text."""

    default_code = "notation"


class IllegalActionError(TysiacError, ValueError):
    """Raised when an action is not legal in the current state; the state is unchanged."""

    default_code = "action"


class MatchError(TysiacError, ValueError):
    """Raised when a match state or a deal outcome given by a user or a scenario is impossible:
    a wrong number of players, an unknown counter, card points above the deck total, a contract
    below the bid, a forfeit beyond the table's limit."""

    default_code = "match"


class RecordError(TysiacError, ValueError):
    """Raised when a game record cannot be read (malformed JSON, a missing or unknown key, a
    wrong type) or replayed (the ruleset's content hash differs, an action is illegal)."""

    default_code = "record"


class ScenarioError(TysiacError, ValueError):
    """Raised when a scenario file cannot be loaded: bad YAML, a schema violation, an unknown
    ruleset, source id, player count or card.  Holds every problem found, with positions."""

    default_code = "scenario"


class EntryError(TysiacError, ValueError):
    """Raised when what the user typed at the table or on the scoresheet cannot be used: an
    unknown command, an ambiguous abbreviation, a number out of range, an impossible deal
    entry (:mod:`tysiac_spec.table`, ``tysiac play``), or a scoresheet file that cannot be
    read or does not fit its ruleset (:mod:`tysiac_spec.scoresheet`, ``tysiac score``).  The
    code is ``entry.<what>``; the message says what was expected."""

    default_code = "entry"


class SaveError(TysiacError):
    """Raised by :mod:`tysiac_spec.savefile` when a file the user keeps (a scoresheet, a game
    record) cannot be written: its folder is missing or read-only, the disk is full, or the
    path is not a regular file (a FIFO, a device, a folder).  Nothing was written; the file
    keeps its earlier content.  Code ``save.write``."""

    default_code = "save.write"


class SaveConflictError(SaveError):
    """Raised by :func:`tysiac_spec.savefile.write_versioned` when the file changed since the
    writer read it (another ``tysiac score`` on the same sheet, another ``play --resume`` of
    the same record, another web request): writing would drop the other writer's data, so
    nothing was written.  ``expected`` and ``found`` are the versions (``""``: no file).
    Code ``save.conflict``."""

    default_code = "save.conflict"

    def __init__(self, diagnostics: Diagnostic | Iterable[Diagnostic] | str, *, expected: str = "",
                 found: str = "") -> None:
        super().__init__(diagnostics)
        self.expected, self.found = expected, found


class SiteError(TysiacError, ValueError):
    """Raised by :func:`tysiac_spec.docs.site.build_site` when the site cannot be written where
    asked: the output path is not a directory; it holds files that are not an earlier
    build's where the build would have to remove or overwrite them; the earlier build's
    manifest cannot be read; it cannot be written (a missing or read-only parent, a full
    disk); or two rulesets of the site have the same id.  Nothing is changed; the message
    (``error.diagnostic.message``) says why."""

    default_code = "site"


# --------------------------------------------------------------------------- the tools' errors
# (raised by bots/, simulate.py, study.py, adapters/ and apps/web/, which re-export them)


class EngineUnavailable(ValueError):
    """``engine="fast"`` for a run the fast path cannot play; the message says why (a seat's
    bot, or the rule of the form the generator does not cover)."""


class IncidentsError(ValueError):
    """A bad ``--incidents`` (``simulate``'s ``incidents``): not ``KIND=RATE`` pairs, a rate
    outside 0..1, a kind that is no table incident nor ``revoke``, or one the ruleset has no
    rule for; the message says which."""


class ClusterError(RuntimeError):
    """The Dask scheduler named by address cannot be used; the message says why."""


class DistributedMissing(ImportError):
    """The ``dask`` backend was asked for without the ``distributed`` package."""

    def __init__(self) -> None:
        super().__init__(
            "the dask backend needs the distributed package: pip install 'tysiac-spec[distributed]'"
        )


class StatsMissing(ImportError):
    """A study was asked for without SciPy (the ``study`` extra)."""

    def __init__(self) -> None:
        super().__init__("a study's statistics need SciPy: pip install 'tysiac-spec[study]'")


class PlotsMissing(ImportError):
    """The HTML page of a study was asked for without matplotlib."""

    def __init__(self) -> None:
        super().__init__("the study's figures need matplotlib: pip install 'tysiac-spec[study]'")


class AdapterError(TysiacError):
    """An adapter's argument or state problem (codes ``adapter.*``)."""


class CannotServe(Exception):
    """``tysiac serve`` cannot start: the database is not one, or the port is taken (one
    line, for the command to print)."""


class BotError(ValueError):
    """A bot name that cannot be used; the message names it and says why."""


class BotActionError(TysiacError, ValueError):
    """A bot's ``choose(view, legal)`` returned something that is not an element of ``legal``
    (code ``bot.illegal``); one line naming the bot, its seat, and what it returned (repr and
    type).  ``seat`` (0-based), ``name``, ``returned`` (a short repr), ``type_name`` and
    ``choices`` (how many legal actions it was given) are kept for :meth:`named`."""

    default_code = "bot.illegal"
    seat: int = -1
    name: str = ""
    returned: str = ""
    type_name: str = ""
    choices: int = 0

    def named(self, name: str) -> BotActionError:
        """The same error naming the bot ``name`` (e.g. as the user spelled it on the command
        line, not the absolute path the worker processes load)."""
        return illegal_action(self.seat, name, self.returned, self.type_name, self.choices)


def illegal_action(seat: int, name: str, returned: str, type_name: str, choices: int) -> BotActionError:
    """The :class:`BotActionError` for the bot ``name`` in ``seat`` (0-based) that returned a
    value of repr ``returned`` and type ``type_name`` instead of one of its ``choices`` legal
    actions."""
    error = BotActionError(Diagnostic(
        "bot.illegal",
        f"bot `{name}` in seat {seat} returned {returned} (a {type_name}), which is not one of the "
        f"{choices} legal action{'s' if choices != 1 else ''} it was given: choose(view, legal) must "
        "return an element of legal",
    ))
    error.seat, error.name, error.returned, error.type_name, error.choices = (
        seat, name, returned, type_name, choices)
    return error


TRACEBACK_ENV = "TYSIAC_BOT_TRACEBACK"
"""The environment variable that, set to ``1``, adds the Python traceback of a bot's exception
to the ``bot.raised`` error (as ``note:`` lines)."""


class BotRaisedError(TysiacError, RuntimeError):
    """A bot's ``choose(view, legal)`` raised an exception (code ``bot.raised``); one line
    naming the bot, its seat, the exception's type and message, and the line of the bot's file
    it was raised at.  ``seat`` (0-based), ``name``, ``type_name``, ``text`` (the exception's
    message), ``where`` (``mybots.py:12``) and ``frames`` (the traceback's lines, shown only
    when :data:`TRACEBACK_ENV` is ``1``) are kept for :meth:`named`; they pickle, so the error
    crosses from a worker process."""

    default_code = "bot.raised"
    seat: int = -1
    name: str = ""
    type_name: str = ""
    text: str = ""
    where: str = ""
    frames: tuple[str, ...] = ()

    def named(self, name: str) -> BotRaisedError:
        """The same error naming the bot ``name`` (as the user spelled it)."""
        return bot_raised(self.seat, name, self.type_name, self.text, self.where, self.frames)


def bot_raised(seat: int, name: str, type_name: str, text: str, where: str,
               frames: tuple[str, ...] = ()) -> BotRaisedError:
    """The :class:`BotRaisedError` for the bot ``name`` in ``seat`` (0-based) whose ``choose``
    raised ``type_name`` with message ``text`` at ``where`` (``file:line``): ``bot
    `mybots.py:Crash` in seat 1 raised ZeroDivisionError: division by zero (at mybots.py:8)``.
    ``frames`` (the traceback's lines) become ``note:`` lines when :data:`TRACEBACK_ENV` is
    ``1``; else the hint says how to see them."""
    shown = os.environ.get(TRACEBACK_ENV) == "1"
    said = f"{type_name}: {shorten(text, 200)}" if text else type_name
    error = BotRaisedError(Diagnostic(
        "bot.raised",
        f"bot `{name}` in seat {seat} raised {said}" + (f" (at {where})" if where else ""),
        hint=None if shown else f"for the Python traceback run again with {TRACEBACK_ENV}=1",
        notes=frames if shown else (),
    ))
    error.seat, error.name, error.type_name, error.text, error.where, error.frames = (
        seat, name, type_name, text, where, frames)
    return error


@dataclass(slots=True)
class DiagnosticSink:
    """Collects diagnostics during validation (which reports *all* problems at once)."""

    items: list[Diagnostic] = field(default_factory=list)

    def add(self, diagnostic: Diagnostic) -> None:
        self.items.append(diagnostic)

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_if_any(self) -> None:
        """Raise :class:`RulesetError` holding every collected diagnostic, if any."""
        if self.items:
            raise RulesetError(self.items)
