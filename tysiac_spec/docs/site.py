"""The static documentation site: every rule book in every language, the comparison,
and the formula language reference, as plain HTML files that work offline.

Layout of the output directory::

    index.html                 the rulesets, with links to everything below
    rules/<id>.<lang>.html     rule books (and .md beside them), lang in en, pl, ru, cs
    compare.html               the variants' differences; compare-full.html: every rule
    dsl.html                   the formula language reference (docs/dsl.md)
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from markdown_it import MarkdownIt

from ..ruleset import load_ruleset, registry
from ..ruleset.model import Ruleset
from . import terms
from .book import build_book, render_book
from .render import render_template

__all__ = ["MARKER", "SiteError", "build_site"]

MARKER = ".tysiac-site"
"""A file in every built site; an existing output directory is replaced only if it has one."""


class SiteError(Exception):
    """The site cannot be written where asked (the message says why)."""


@dataclass(frozen=True, slots=True)
class _Entry:
    ruleset: Ruleset
    origin: str


def _rulesets(extra: Sequence[str | Path]) -> list[_Entry]:
    out = [_Entry(load_ruleset(e.id), "shipped") for e in registry.entries()]
    seen = {e.ruleset.id for e in out}
    for ref in extra:
        rules = load_ruleset(ref)
        if rules.id in seen:
            raise SiteError(f"{ref}: a ruleset with id `{rules.id}` is already in the site")
        seen.add(rules.id)
        out.append(_Entry(rules, str(ref)))
    return out


def build_site(out: Path, *, extra: Sequence[str | Path] = ()) -> list[Path]:
    """Build the site into ``out`` and return the files written (relative to ``out``).

    The site is built in a temporary directory beside ``out`` and then moved into place,
    so a failed build leaves any previous site untouched.

    Raises:
        RulesetError, OptionError: a ruleset does not load.
        SiteError: ``out`` exists, is not empty and is not a site built by this function,
            or it cannot be written (a missing or read-only parent, a full disk).
    """
    entries = _rulesets(extra)
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / MARKER).exists())):
        raise SiteError(f"{out} exists and is not a site built by `tysiac build`; choose another directory")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}."))
    except OSError as exc:
        raise SiteError(f"cannot write the site to {out}: {exc.strerror or exc}") from None
    try:
        written = _write_site(tmp, entries)
        os.chmod(tmp, 0o755)
        if out.exists():
            shutil.rmtree(out)
        os.replace(tmp, out)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise SiteError(f"cannot write the site to {out}: {exc.strerror or exc}") from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return written


def _write(root: Path, rel: str, text: str, written: list[Path]) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    written.append(Path(rel))


def _write_site(root: Path, entries: Sequence[_Entry]) -> list[Path]:
    written: list[Path] = []
    _write(root, MARKER, "built by tysiac build\n", written)
    books: dict[str, dict[str, str]] = {}
    for entry in entries:
        rid = entry.ruleset.id
        books[rid] = {}
        for lang in terms.LANGS:
            book = build_book(entry.ruleset, lang=lang)
            html_name = f"{rid}.{lang}.html"
            links = {
                "home": "../index.html",
                "langs": {code: f"{rid}.{code}.html" for code in terms.LANGS},
                "markdown": f"{rid}.{lang}.md",
            }
            _write(root, f"rules/{html_name}", render_book(book, "html", links=links), written)
            _write(root, f"rules/{rid}.{lang}.md", render_book(book, "md"), written)
            books[rid][lang] = f"rules/{html_name}"
    from ..compare import by_kind, compare, render_comparison  # compare imports this package's modules

    playable = by_kind([e.ruleset for e in entries if e.ruleset.player_counts])
    if len(playable) >= 2:
        comp = compare(playable)
        book_links = {r.id: books[r.id]["en"] for r in playable}
        _write(root, "compare.html", render_comparison(comp, "html", links={
            "home": "index.html", "full": "compare-full.html", "full_label": "all rules", "books": book_links,
        }), written)
        _write(root, "compare-full.html", render_comparison(comp, "html", full=True, links={
            "home": "index.html", "full": "compare.html", "full_label": "differences only",
            "books": book_links,
        }), written)
    from ..dsl.reference import render_reference

    body = MarkdownIt("commonmark").enable("table").render(render_reference())
    _write(root, "dsl.html", render_template("page.html.j2", lang="en", title="The rules DSL", body=body,
                                             home="index.html"), written)
    rows = [
        {
            "id": e.ruleset.id,
            "kind": e.ruleset.kind,
            "title": e.ruleset.title("en"),
            "names": {lang: e.ruleset.title(lang) for lang in terms.LANGS},
            "description": e.ruleset.description.get("en", ""),
            "players": ", ".join(str(n) for n in e.ruleset.player_counts) or "—",
            "extends": ", ".join(e.ruleset.parents),
            "origin": e.origin,
            "books": books[e.ruleset.id],
        }
        for e in entries
    ]
    ui = {key: terms.pick(texts, "en") for key, texts in terms.UI.items()}
    kinds = ("variant", "house", "base")  # what a player looks for first; others (none yet) last
    groups = [(ui[f"heading.{kind}"], [r for r in rows if r["kind"] == kind]) for kind in kinds]
    groups.append((ui["heading.other"], [r for r in rows if r["kind"] not in kinds]))
    _write(root, "index.html", render_template(
        "index.html.j2", groups=[g for g in groups if g[1]], langs=terms.LANGS, lang_names=terms.LANG_NAMES,
        ui=ui,
        has_compare=len(playable) >= 2, lang="en", title=ui["index_title"],
    ), written)
    return written
