"""Text from untrusted input, made safe to show: control characters made visible, long
values cut.

Rulesets, records and scoresheets come from other people; their text is printed to
terminals and repeated in error messages.  :func:`printable` writes every control
character as an escape (so an escape sequence in a ruleset's name cannot clear or recolour
a terminal) and :func:`shorten` cuts a value to a readable length for a message.
"""

from __future__ import annotations

import unicodedata

LANGUAGES = ("en", "pl", "ru", "cs")
"""The languages of rule books, formulas in words and the site, in their order: the one list
(``docs.terms.LANGS``, ``ruleset.model.LANGS`` and ``dsl.LANGUAGES`` are this tuple)."""

__all__ = ["has_control", "printable", "shorten", "signed"]

_SHORT = 60
"""Characters of a value shown in a message before it is cut."""


def signed(points: int, *, plus: bool = True) -> str:
    """Points as every event, transcript and command writes them: a change of score
    ``+50``, ``−10`` (a minus sign, U+2212), ``0``; with ``plus=False`` a score itself (a
    total), ``50``, ``−10``, ``0``.  The one text of signed points, so that a page or a
    transcript uses one minus sign."""
    if points > 0:
        return f"+{points}" if plus else str(points)
    return f"−{-points}" if points < 0 else "0"


def shorten(text: str, width: int = _SHORT) -> str:
    """``text`` with control characters made visible and cut to ``width`` characters:
    ``"aaaa…(+49,990 characters)"``.  For values repeated in messages."""
    shown = printable(text if len(text) <= width * 4 else text[: width * 4])
    if len(text) <= width and len(shown) <= width:
        return shown
    rest = len(text) - width
    return f"{shown[:width]}…(+{rest:,} characters)"


def _visible(char: str) -> str:
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8, kept by "surrogateescape"
        return f"\\x{code - 0xDC00:02x}"
    if code > 0xFFFF:  # (a tag character)
        return f"\\U{code:08x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _is_control(char: str, *, keep_newlines: bool) -> bool:
    if char in "\t" or (keep_newlines and char == "\n"):
        return False
    category = unicodedata.category(char)
    if category in ("Cc", "Cs"):
        return True
    # bidirectional overrides and isolates (they reorder the text around them on a terminal),
    # and the invisible ones: zero-width space, joiners and marks, word joiner, BOM (a key or
    # an id holding one looks like another: "pl-standard\u200b"), and the tag characters
    # U+E0000-E007F (invisible: a text can hide a second text in them)
    return (
        "\u202a" <= char <= "\u202e"
        or "\u2066" <= char <= "\u2069"
        or "\u200b" <= char <= "\u200f"
        or "\u2060" <= char <= "\u2064"
        or char == "\ufeff"
        or "\U000e0000" <= char <= "\U000e007f"
    )


def has_control(text: str, *, keep_newlines: bool = True) -> str | None:
    """The first control character in ``text`` (C0/C1 controls, lone surrogates,
    bidirectional overrides, zero-width and other
    invisible characters), or ``None``; tab, and newline when ``keep_newlines``, are
    allowed."""
    for char in text:
        if (char < " " or char >= "\x7f") and _is_control(char, keep_newlines=keep_newlines):
            return char
    return None


def printable(text: str, *, keep_newlines: bool = True) -> str:
    """``text`` with every control character written as an escape (``\\x1b``), so that it
    cannot move the cursor, clear or recolour a terminal.  Tab, and newline when
    ``keep_newlines``, are kept.  A byte that was not UTF-8 (read with Python's
    ``surrogateescape``: ``\\udcff``) is written as the byte it was (``\\xff``), other lone
    surrogates as ``\\udxxx``."""
    if has_control(text, keep_newlines=keep_newlines) is None:
        return text
    return "".join(
        _visible(c) if _is_control(c, keep_newlines=keep_newlines) else c for c in text
    )
