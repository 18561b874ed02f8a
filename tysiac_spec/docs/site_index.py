"""The site's index pages (one per language, with a picker that filters the variants by
country, player count and key rules) and the search index over the rule books.

The picker and the search run in ``site.js`` (plain JavaScript); without it the index lists
every ruleset and the search box stays hidden.  Each ruleset row carries what the picker
filters on as ``data-`` attributes: ``data-country="pl"``, ``data-players="2 3 4"``,
``data-rules="special.barrel special.bolts"`` (the key rules it plays).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..ruleset.model import Ruleset
from . import terms
from .book import Book
from .fields import value_at
from .render import anchor, render_template

__all__ = ["PICKER_RULES", "country", "played_rules", "render_index", "search_script"]

PICKER_RULES = ("special.barrel", "special.bolts", "special.dark", "special.golden_round", "contract.forfeit",
                "match.threshold")
"""The key rules the picker filters on: groups of the model played when their ``enabled``
field is true (in any player count's form)."""

KINDS = ("variant", "house", "base")
"""The index's groups, in the order a player looks for them (other kinds last)."""


def country(ruleset: Ruleset, by_id: Mapping[str, Ruleset]) -> str:
    """The country code of ``ruleset`` for the picker: the first part of its id when it names
    one of :data:`terms.COUNTRIES` (``pl-standard`` -> ``pl``), else its first base's that has
    one (a house file), else ``""``."""
    seen: set[str] = set()
    todo = [ruleset.id]
    while todo:
        rid = todo.pop(0)
        if rid in seen:
            continue
        seen.add(rid)
        head = rid.split("-", 1)[0]
        if head in terms.COUNTRIES:
            return head
        parent = by_id.get(rid)
        todo.extend(parent.parents if parent is not None else ())
    return ""


def played_rules(ruleset: Ruleset) -> list[str]:
    """The groups of :data:`PICKER_RULES` that ``ruleset`` plays with some number of players."""
    return [group for group in PICKER_RULES
            if any(value_at(ruleset.form(n), f"{group}.enabled") is True for n in ruleset.player_counts)]


def render_index(lang: str, entries: Sequence[tuple[Ruleset, str]], *, books: Mapping[str, Mapping[str, str]],
                 sheets: Mapping[str, Mapping[str, str]], has_compare: bool,
                 studies: Sequence[Mapping[str, str]], has_api: bool = False) -> str:
    """The index page in ``lang``: ``entries`` are ``(ruleset, origin)`` ("shipped" or the file
    given), ``books`` and ``sheets`` the pages of each ruleset by language; ``has_api``: the site
    has the Python API reference (``api/``)."""
    ui = {key: terms.pick(texts, lang) for key, texts in terms.UI.items()}
    by_id = {r.id: r for r, _ in entries}
    rows: list[dict[str, Any]] = []
    for ruleset, origin in entries:
        rows.append({
            "id": ruleset.id, "kind": ruleset.kind, "title": ruleset.title(lang),
            "names": {code: ruleset.title(code) for code in terms.LANGS},
            "description": ruleset.description.get(lang) or ruleset.description.get("en", ""),
            "players": ", ".join(str(n) for n in ruleset.player_counts) or "—",
            "player_list": " ".join(str(n) for n in ruleset.player_counts),
            "extends": ", ".join(ruleset.parents), "origin": origin, "country": country(ruleset, by_id),
            "rules": " ".join(played_rules(ruleset)) if ruleset.player_counts else "",
            "books": books[ruleset.id], "sheet": sheets[ruleset.id][lang],
        })
    groups = [(ui[f"heading.{kind}"], [r for r in rows if r["kind"] == kind]) for kind in KINDS]
    groups.append((ui["heading.other"], [r for r in rows if r["kind"] not in KINDS]))
    countries = sorted({r["country"] for r in rows if r["country"]})
    counts = sorted({int(n) for r in rows for n in r["player_list"].split()})
    picker = {
        "countries": [(code, terms.pick(terms.COUNTRIES[code], lang)) for code in countries],
        "counts": counts,
        "rules": [(group, terms.label(group, lang)) for group in PICKER_RULES],
    }
    page = "index.html" if lang == "en" else f"index.{lang}.html"
    return render_template(
        "index.html.j2", groups=[g for g in groups if g[1]], langs=terms.LANGS, lang_names=terms.LANG_NAMES,
        ui=ui, has_compare=has_compare, has_api=has_api, lang=lang, title=ui["index_title"], studies=studies,
        picker=picker,
        index_links={code: ("index.html" if code == "en" else f"index.{code}.html") for code in terms.LANGS},
        page=page, script="site.js", search_data=f"search.{lang}.js", root="",
        countries={code: terms.pick(names, lang) for code, names in terms.COUNTRIES.items()},
    )


def search_script(lang: str, books: Sequence[tuple[Book, str]]) -> str:
    """The search index of the rule books in ``lang`` as a script (a page opened from disk may
    not fetch a JSON file): ``window.TYSIAC_SEARCH = [[title, href, text], …]``, one entry per
    rule (its label and value in words) with the book's page and the rule's anchor; ``books``
    are ``(book, href)`` relative to the site's root."""
    out: list[list[str]] = []
    for book, href in books:
        for section in book.sections:
            out.append([f"{book.title} › {section.title}", f"{href}#{section.key}", section.title])
            for rule in section.rules:
                words = "; ".join(c.words for c in rule.values).replace("**", "").replace("`", "")
                out.append([f"{book.title} › {rule.label}".replace("`", ""), f"{href}#{anchor(rule.path)}",
                            f"{rule.label} {words}".replace("`", "")])
    return "window.TYSIAC_SEARCH = " + json.dumps(out, ensure_ascii=False, separators=(",", ":")) + ";\n"
