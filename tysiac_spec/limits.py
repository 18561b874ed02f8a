"""The bounds on untrusted input, checked before the work they guard.

Rulesets, house rules, scenario files, game records and scoresheets are shared between
people, so every reader treats them as untrusted: a file's size is checked before it is
parsed, a document's nodes, depth, integers and texts while it is built, and the fan-out of
``extends`` and of table options before anything is merged.  Each limit has a name, a
value, the unit it counts, and an environment variable that raises it for a user who
really needs more (``TYSIAC_MAX_RULESET_BYTES=4000000 tysiac validate big.yaml``).
Three limits bound play rather than input: ``passed_out`` (deals everyone passes in a row,
read by :mod:`tysiac_spec.engine.auction` when it is imported), ``web_deals`` and
``web_actions`` (a match at a web table, read when a table is opened).

A limit that is exceeded raises :class:`~tysiac_spec.errors.LimitError` with the code
``limit.<name>``; the message names the limit, its value and the variable that raises it.

Values repeated in messages are cut with :func:`tysiac_spec.text.shorten`.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from .errors import Diagnostic, LimitError

SEED_MAX = 10**18 - 1
"""The largest seed of a game (``0..SEED_MAX``): a record keeps it, and a file's integers
have at most 18 digits (limit ``int_digits``).  The one home of the bound: ``play --seed``,
``simulate --seed`` and a record's ``seed`` and ``table.bot_seed``
(:func:`tysiac_spec.engine.record.check_seed`); here, so that the commands' options read it
without loading the engine."""

__all__ = [
    "LIMITS",
    "Limit",
    "beyond_python",
    "check",
    "check_environment",
    "exceeded",
    "limit",
    "read_file",
]


@dataclass(frozen=True, slots=True)
class Limit:
    """One bound on input.

    Attributes:
        name: the limit's name (``ruleset_bytes``); the error code is ``limit.<name>``.
        default: its value when the environment does not raise it.
        unit: what it counts, plural (``bytes``, ``values``, ``levels``).
        what: what is bounded, in words (``a ruleset file``).
    """

    name: str
    default: int
    unit: str
    what: str

    @property
    def variable(self) -> str:
        """The environment variable that changes it: ``TYSIAC_MAX_<NAME>``."""
        return f"TYSIAC_MAX_{self.name.upper()}"

    @property
    def value(self) -> int:
        """The limit in force: the environment variable's value when it is set, else
        :attr:`default`.

        Raises:
            LimitError: ``limit.variable``: the variable is set to something other than a
                positive whole number (``TYSIAC_MAX_DEPTH=abc``), which is refused rather
                than silently replaced by the default.
        """
        raw = os.environ.get(self.variable)
        if raw is None:
            return self.default
        text = raw.strip().replace("_", "")
        if text.isascii() and text.isdigit() and len(text) <= 30 and int(text) > 0:
            return int(text)
        shown = raw if len(raw) <= 20 and raw.isprintable() else repr(raw[:20]) + "…"
        raise LimitError(Diagnostic(
            "limit.variable",
            f"{self.variable}={shown} is not a positive whole number (it sets the limit on "
            f"{self.what}, {self.default:,} {self.unit} by default)",
        ))


LIMITS: dict[str, Limit] = {
    limit.name: limit
    for limit in (
        Limit("ruleset_bytes", 256_000, "bytes", "a ruleset or scenario file"),
        Limit("record_bytes", 20_000_000, "bytes", "a game record"),
        Limit("sheet_bytes", 5_000_000, "bytes", "a scoresheet"),
        Limit("sheet_deals", 5_000, "deals", "a scoresheet"),
        Limit("yaml_nodes", 200_000, "values", "a YAML document (counting every alias expansion)"),
        Limit("depth", 64, "levels", "the nesting of a YAML or JSON document"),
        Limit("json_values", 1_000_000, "values", "a JSON document (lists, objects, items)"),
        Limit("text_chars", 20_000, "characters", "a single text value"),
        Limit("int_digits", 18, "digits", "an integer in a file"),
        Limit("options", 100, "options", "the table options of a ruleset"),
        Limit("option_values", 300, "values", "the values of all table options of a ruleset"),
        Limit("deck_ranks", 13, "ranks", "the ranks of a pack"),
        Limit("deck_suits", 8, "suits", "the suits of a pack"),
        Limit("bids", 1_000, "amounts", "the bids or contracts offered at one turn"),
        Limit("bot_samples", 1_000, "samples", "the worlds a bot draws per decision"),
        Limit("bot_ms", 60_000, "milliseconds", "the time a bot thinks per decision"),
        Limit("extends_depth", 16, "levels", "an `extends` chain"),
        Limit("extends_parents", 16, "parents", "the `extends` list of one ruleset"),
        Limit("extends_files", 64, "files", "the distinct files an `extends` tree reads"),
        # bounds on play, not on a file: how long a match may run without a winner
        Limit("passed_out", 100, "deals", "the deals in a row everyone passes and that are dealt "
              "again (`auction.all_pass: redeal`) before a match stops without a winner"),
        Limit("web_deals", 500, "deals", "a match at a web table without a winner (then abandoned)"),
        Limit("web_actions", 20_000, "actions", "a match at a web table without a winner (then "
              "abandoned)"),
    )
}
"""Every limit, by name."""


def limit(name: str) -> int:
    """The value in force of the limit ``name`` (raises ``KeyError`` for an unknown name)."""
    return LIMITS[name].value


def exceeded(
    name: str,
    found: int | str,
    *,
    file: str | None = None,
    line: int | None = None,
    column: int | None = None,
    path: tuple[str | int, ...] = (),
    subject: str | None = None,
) -> LimitError:
    """The error for going over the limit ``name``.

    Args:
        found: what was found: a number of the limit's unit, or words (``"an alias bomb"``).
        subject: what went over, in words; the limit's own :attr:`Limit.what` by default.

    Returns:
        A :class:`LimitError` (code ``limit.<name>``) to raise; its hint says how to raise the
        limit.
    """
    spec = LIMITS[name]
    what = subject or spec.what
    if isinstance(found, int):
        message = f"{what}: {found:,} {spec.unit}, more than the limit of {spec.value:,}"
    else:
        message = f"{what}: {found}, over the limit of {spec.value:,} {spec.unit}"
    return LimitError(
        Diagnostic(
            f"limit.{name}",
            message,
            file=file,
            line=line,
            column=column,
            path=path,
            hint=f"if the input is meant to be this large, raise the limit: {spec.variable}=N",
        )
    )


def beyond_python(name: str, found: str, *, levels: int | None = None, file: str | None = None) -> LimitError:
    """The error for input within the limit ``name`` (raised by its variable) but beyond
    what this Python itself can do (``deeper than this Python can read``): no hint to raise
    the limit, which cannot help.

    Args:
        found: what Python cannot do, in words.
        levels: how many of the limit's unit the input has, when known (shown in brackets).
    """
    spec = LIMITS[name]
    counted = f" ({levels:,} {spec.unit})" if levels is not None else ""
    return LimitError(Diagnostic(f"limit.{name}", f"{spec.what}: {found}{counted}", file=file))


def check_environment() -> None:
    """Check every ``TYSIAC_MAX_*`` variable that is set (:attr:`Limit.value`).

    Raises:
        LimitError: ``limit.variable``, for the first one that is not a positive whole number.
    """
    for spec in LIMITS.values():
        spec.value  # noqa: B018 - raises for a bad value


def check(name: str, found: int, **where: object) -> None:
    """Raise :func:`exceeded`'s error when ``found`` is above the limit ``name``.

    ``where`` takes the keywords of :func:`exceeded` (``file``, ``path``, ``subject``, …).
    """
    if found > LIMITS[name].value:
        raise exceeded(name, found, **where)  # type: ignore[arg-type]


def read_file(path: str | Path, limit: str) -> bytes:
    """The bytes of the regular file ``path``, no more than the limit ``limit`` allows: the
    size is checked before reading, and again on what is read (the file may grow).

    A FIFO is opened without waiting for a writer; it, a device or a directory is refused
    unread.

    Raises:
        LimitError: ``limit.<limit>``, naming the file.
        OSError: the file cannot be opened or read; ``strerror`` is ``"not a regular file"``
            for a FIFO, a device or a directory.
    """
    name = str(path)
    most = LIMITS[limit].value
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with open(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", name)
        check(limit, os.fstat(fd).st_size, file=name)
        data = fh.read(most + 1)
    check(limit, len(data), file=name)
    return data
