"""JSON from untrusted files (game records, scoresheets), read within the limits.

Records and scoresheets are passed between people, so a file is read as untrusted input,
each bound checked before the work it guards (:mod:`tysiac_spec.limits`):

1. the file's size (``record_bytes`` or ``sheet_bytes``), before it is read;
2. UTF-8 text (the first bad byte is named);
3. the nesting depth (``depth``), by a scan of the brackets outside strings, before the text
   is parsed (Python's own parser would fail with ``RecursionError`` on deep nesting);
4. while parsing: the digits of an integer (``int_digits``, before ``int()`` sees them),
   ``NaN`` / ``Infinity`` (refused: they are not JSON), numbers out of range (``1e999``),
   a key given twice in one object (refused: which one would count is not obvious);
5. after parsing: the length of each text, key or value (``text_chars``), and lone
   surrogates (``"\\ud800"``: JSON lets them through, but they are not Unicode and cannot
   be printed or written back).

A bound that is exceeded raises :class:`~tysiac_spec.errors.LimitError` (code
``limit.<name>``, the hint names the variable that raises it).  Every other problem is
raised through the caller's ``fail(kind, detail)`` (:data:`Fail`), so that a record reports
a :class:`~tysiac_spec.errors.RecordError` and a scoresheet its own error, each in its own
words.  Values repeated in messages are cut with :func:`tysiac_spec.text.shorten`.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import replace
from itertools import accumulate
from pathlib import Path
from typing import Any

from . import limits
from .errors import TysiacError
from .text import shorten

__all__ = ["Fail", "loads", "read_json_file", "shown"]

Fail = Callable[[str, str], TysiacError]
"""Makes the caller's error: ``fail(kind, detail)`` returns the error to raise.

``kind`` is ``"read"`` (the file cannot be read; ``detail`` is ``"cannot read it: <reason>"``),
``"text"`` (not UTF-8: ``"the file is not UTF-8 text (byte 12)"``) or ``"json"`` (not JSON
as this reader takes it: ``"Expecting value"``, ``"the key `seed` is given twice in one
object"``).  Where the parser stopped is given as the diagnostics' line and column when the
text's file is known (``game.json:89:5: error[…]``), else in the detail
(``"Expecting value (line 1, column 1)"``)."""

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*\\?(?:"|\Z)', re.S)
"""A JSON string, or an unterminated one up to the end of the text (so that the scan never
backtracks: every quote starts a match)."""
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def read_json_file(path: str | Path, *, size_limit: str, fail: Fail) -> Any:
    """The JSON document in the file at ``path``, read within the limits (module docstring).

    The size is checked before anything is read (:func:`tysiac_spec.limits.read_file`; a
    pipe or a device is refused unread).

    Args:
        size_limit: the name of the limit on the file's bytes (``record_bytes``).
        fail: makes the error for a file that cannot be read or is not JSON (:data:`Fail`).

    Returns:
        The document: dicts, lists, texts, integers, floats, booleans and ``None``.

    Raises:
        LimitError: ``limit.<size_limit>``, ``limit.depth``, ``limit.int_digits``,
            ``limit.text_chars``; the diagnostic's ``file`` is ``str(path)``.
        TysiacError: what ``fail`` returns.
    """
    name = str(path)
    try:
        data = limits.read_file(path, size_limit)
    except OSError as exc:
        raise fail("read", f"cannot read it: {exc.strerror or type(exc).__name__}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise fail("text", f"the file is not UTF-8 text (byte {exc.start})") from None
    return loads(text, fail=fail, file=name)


def loads(text: str, *, fail: Fail, file: str | None = None, size_limit: str | None = None) -> Any:
    """The JSON document in ``text``, read within the limits (module docstring).

    Args:
        fail: makes the error for a text that is not JSON (kind ``"json"``, :data:`Fail`).
        file: the file the text came from, named in limit errors.
        size_limit: when given, the text's size in UTF-8 bytes is checked against this limit
            first (for text that did not come through :func:`read_json_file`).

    Raises:
        LimitError: ``limit.<size_limit>``, ``limit.depth``, ``limit.int_digits``,
            ``limit.text_chars``.
        TysiacError: what ``fail`` returns.
    """
    if size_limit is not None:
        limits.check(size_limit, len(text), file=file)  # characters: never more than the bytes
        if not text.isascii():
            limits.check(size_limit, len(text.encode("utf-8", "surrogatepass")), file=file)
    structure = _STRING.sub("", text)
    limits.check("depth", depth(structure), file=file)
    limits.check("json_values", sum(map(structure.count, ",[{")), file=file)
    reader = _Reader(fail, file)
    try:
        data = json.loads(
            text,
            parse_int=reader.integer,
            parse_float=reader.number,
            parse_constant=reader.constant,
            object_pairs_hook=reader.object,
        )
    except json.JSONDecodeError as exc:
        if file is None:
            raise fail("json", f"{exc.msg} (line {exc.lineno}, column {exc.colno})") from None
        raise _located(fail("json", exc.msg), file, exc.lineno, exc.colno) from None
    except RecursionError:  # a depth limit raised above what Python can parse
        raise limits.beyond_python("depth", "deeper than this Python can read", levels=depth(text),
                                   file=file) from None
    _check_texts(data, fail, file)
    return data


def _located(error: TysiacError, file: str, line: int, column: int) -> TysiacError:
    """``error`` with its diagnostics placed at ``file:line:column`` (where the parser
    stopped), so that a half-written file is reported as ``game.json:89:5: error[…]``."""
    return type(error)([
        d if d.line is not None else replace(d, file=d.file or file, line=line, column=column)
        for d in error.diagnostics
    ])


def depth(text: str) -> int:
    """The deepest nesting of ``[…]`` and ``{…}`` in the JSON ``text`` (levels; 0 for a bare
    value), counting brackets outside strings only.  For text that is not JSON it is the
    depth the parser would reach before it fails.  Linear in the text's length."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


class _Reader:
    """The parser's hooks: each checks one kind of value as it is read."""

    def __init__(self, fail: Fail, file: str | None) -> None:
        self.fail, self.file = fail, file
        self.digits = limits.limit("int_digits")

    def integer(self, text: str) -> int:
        digits = len(text) - text.startswith("-")
        if digits > self.digits:
            raise limits.exceeded("int_digits", digits, file=self.file)
        try:
            return int(text)
        except ValueError:  # int_digits raised above what int() converts (4,300 digits)
            raise limits.exceeded("int_digits", "more digits than Python converts", file=self.file) from None

    def number(self, text: str) -> float:
        value = float(text)
        if not math.isfinite(value):
            raise self.fail("json", f"the number {shorten(text)} is out of range")
        return value

    def constant(self, text: str) -> Any:
        raise self.fail("json", f"`{text}` is not a JSON value (NaN and Infinity are refused)")

    def object(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(pairs)
        if len(obj) != len(pairs):
            seen: set[str] = set()
            for key, _ in pairs:
                if key in seen:
                    raise self.fail("json", f"the key `{shorten(key)}` is given twice in one object")
                seen.add(key)
        return obj


def _check_texts(data: Any, fail: Fail, file: str | None) -> None:
    """Every text (keys included) within ``text_chars`` and valid Unicode."""
    most = limits.limit("text_chars")
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value)
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, str):
            if len(value) > most:
                raise limits.exceeded("text_chars", len(value), file=file)
            if not value.isascii():
                try:
                    value.encode("utf-8")
                except UnicodeEncodeError:
                    raise fail("json", f"the text {shown(value)} is not Unicode (a lone surrogate)") from None


_SMALL = 20
"""Values (items and keys) of a list or object shown whole by :func:`shown`."""


def shown(value: Any, width: int = 60) -> str:
    """A JSON value as a message quotes it: its JSON text, cut to ``width`` characters with
    control characters made visible (:func:`~tysiac_spec.text.shorten`); a list or an object
    of more than a few values is described (``a list of 1,000 values``) instead of written
    out.  Never slower than the value is small."""
    if isinstance(value, list | dict) and _size(value, _SMALL) > _SMALL:
        return _described(value)
    if isinstance(value, str):
        return f'"{shorten(value, width)}"'
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
        return f"an integer of about {int(value.bit_length() * math.log10(2)):,} digits"
    try:
        return shorten(json.dumps(value, ensure_ascii=False), width)
    except ValueError:  # an integer inside with more digits than Python writes out
        return _described(value)


def _described(value: Any) -> str:
    if isinstance(value, dict):
        return f"an object of {len(value):,} keys"
    if isinstance(value, list):
        return f"a list of {len(value):,} values"
    return f"a {type(value).__name__}"


def _size(value: Any, most: int) -> int:
    """Values in ``value`` (items, keys, nested ones), counted up to just above ``most``."""
    count, stack = 0, [value]
    while stack and count <= most:
        item = stack.pop()
        count += 1
        if isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return count
