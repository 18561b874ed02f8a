"""Printable pages of the site: a rule sheet per ruleset (every rule of its book in words,
on one or two A4 pages) and a blank scoresheet (one A4 page).

Both are HTML pages with print CSS (``@page { size: A4 }``): read on a screen, printed from
the browser.  The rule sheet is the rule book's content (:func:`~.book.build_book`) without
its prose, formulas, sources and worked examples; nothing is written twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from . import terms
from .book import Book
from .render import render_template

__all__ = ["SCORE_ROWS", "SheetLine", "render_rule_sheet", "render_scoresheet", "sheet_lines"]

SCORE_ROWS = 32
"""Deals on the blank scoresheet (one A4 page)."""

_LEFT_OUT = frozenset(("options", "sources", "cards"))
"""Chapters the rule sheet leaves out: the options are shown by the rules they set, the
sources are in the book, the pack is the sheet's first table."""


@dataclass(frozen=True, slots=True)
class SheetLine:
    """One line of the rule sheet: a chapter heading (``level`` 0), a group (1) or a rule (2)."""

    level: int
    label: str
    text: str = ""
    indent: bool = False
    """A rule of the group named by the line before it."""


def sheet_lines(book: Book) -> list[SheetLine]:
    """The lines of ``book``'s rule sheet, in the book's order: a heading per chapter, then its
    rules as ``label: value`` (per player count where they differ); a group's heading only
    when a rule of it follows."""
    out: list[SheetLine] = []
    for section in book.sections:
        if section.key in _LEFT_OUT or not section.rules:
            continue
        out.append(SheetLine(0, f"{section.number}. {section.title}"))
        group: SheetLine | None = None
        for rule in section.rules:
            if rule.kind == "group":
                group = SheetLine(1, rule.label)
                continue
            if rule.depth == 0:
                group = None
            elif group is not None:
                out.append(group)
                group = None
            text = "; ".join(f"{c.players}: {c.words}" if c.players else c.words for c in rule.values)
            out.append(SheetLine(2, rule.label, text, rule.depth > 0))
    return out


def render_rule_sheet(book: Book, *, links: Mapping[str, Any] | None = None) -> str:
    """The printable rule sheet of ``book`` as a standalone HTML page (A4, two columns).

    ``links``: ``{"home": "../index.html", "book": "pl-standard.pl.html", "scoresheet":
    "../scoresheet.pl.html"}``."""
    ui = {key: terms.pick(texts, book.lang) for key, texts in terms.UI.items()}
    cards = next((s for s in book.sections if s.key == "cards"), None)
    return render_template("sheet.html.j2", book=book, lines=sheet_lines(book), ui=ui, links=links or {},
                           pack=cards.tables if cards is not None else [])


def render_scoresheet(lang: str, *, players: int = 4, links: Mapping[str, Any] | None = None) -> str:
    """A blank scoresheet in ``lang``: a column per player (each deal's points and the running
    total) for ``players`` players, the declarer and contract of each deal; one A4 page."""
    ui = {key: terms.pick(texts, lang) for key, texts in terms.UI.items()}
    return render_template("scoresheet.html.j2", lang=lang, ui=ui, players=players, rows=SCORE_ROWS,
                           links=links or {}, title=ui["scoresheet"])
