"""The static documentation site: every rule book in every language, the comparison,
and the formula language reference, as plain HTML files that work offline.

Layout of the output directory::

    index.html                 the rulesets, with links to everything below, and a picker;
                               index.<lang>.html: the same in pl, ru, cs
    search.<lang>.js           the search index of the rule books in that language
    rules/<id>.<lang>.html     rule books (and .md beside them), lang in en, pl, ru, cs
    rules/<id>.sheet.<lang>.html  the rule sheet to print (A4, one or two pages)
    scoresheet.<lang>.html     a blank scoresheet to print (A4)
    compare.html               the variants' differences; compare-full.html: every rule;
                               compare.<lang>.html, compare-full.<lang>.html in pl, ru, cs
    dsl.html                   the formula language reference (docs/dsl.md)
    site.js                    the one script: sticky comparison headers, the index's picker, search
    cards.svg                  the card faces as an SVG sprite (docs/cards.py), ``#card-QH``
    api/                       the Python API reference, from the docstrings by pdoc (the docs
                               extra; left out, with a note on standard error, without it)
    studies/<name>.html        the committed study pages (docs/studies/, written by
                               ``tysiac compare --simulate N --format html --site-page``), copied
                               with the finding in words put first (``study.for_players``):
                               building the site needs no plotting library
    .tysiac-build.json         the manifest: the files this build wrote

The output directory may hold files of the user's beside the site: a later build removes
and replaces only the files listed in the manifest (see :func:`build_site`).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from markdown_it import MarkdownIt

from .._paths import STUDIES_DIR
from ..errors import SiteError
from ..ruleset import load_ruleset, registry
from ..ruleset.model import Ruleset
from ..savefile import remove_stale_temps, temp_prefix
from ..study import for_players
from . import cards, terms
from .book import Book, build_book, render_book
from .compare import by_kind, compare, render_comparison
from .render import TEMPLATES, render_template
from .sheet import render_rule_sheet, render_scoresheet
from .site_index import render_index, search_script

__all__ = ["MANIFEST", "MARKER", "SiteError", "build_site"]

MANIFEST = ".tysiac-build.json"
"""The manifest in every built site: JSON ``{"built_by": "tysiac build", "files": [relative
paths, "/"-separated]}``; a later build removes or replaces only the files listed."""

MARKER = ".tysiac-site"
"""The file that marked a site built before the manifest existed: such a directory is
rebuilt only if every file in it is one the new build writes."""

_TMP_NAME = "tysiac-build"
"""Name prefix of the temporary directory a build into an existing directory writes in it."""

_SHOWN = 5
"""Paths named in an error before the rest are counted."""


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
    """Build the site into ``out`` and return the files written (relative to ``out``; the
    manifest :data:`MANIFEST` is written besides them).

    The site is built in a temporary directory beside ``out`` first, so a build that fails
    leaves ``out`` untouched.  Then, when ``out``:

    * does not exist or is empty: the site is put there;
    * holds a manifest of an earlier build: the files it lists are removed or replaced, and
      every other file (the user's) is kept; a file of the new site whose path is taken by
      such another file makes the build refuse, before anything is changed;
    * holds no manifest: the build refuses, changing nothing, unless the directory is a site
      of an older ``tysiac build`` (it has :data:`MARKER`) holding only files the new build
      writes.

    Raises:
        RulesetError, OptionError: a ruleset does not load.
        SiteError: ``out`` is not a directory; it holds files that are not an earlier build's
            (they are named) where the build would have to remove or overwrite them; its
            manifest cannot be read; or it cannot be written (a missing or read-only
            parent, a full disk).
    """
    if out.exists() and not out.is_dir():
        raise SiteError(f"{out} exists and is not a directory; choose another directory")
    remove_stale_temps(out)  # the temporary folders of builds killed before their end
    if out.is_dir():
        remove_stale_temps(out / _TMP_NAME)
    if out.is_dir() and _manifest(out) is None and not (out / MARKER).exists() and any(out.iterdir()):
        raise _foreign(out, sorted(_files_in(out)))  # before the work of building
    entries = _rulesets(extra)
    try:
        # named with the process id (savefile.temp_prefix), so that the next build removes
        # one a killed build left (remove_stale_temps)
        if out.exists():  # inside: the same file system, and writable where the site goes
            stage = out / _TMP_NAME
        else:
            out.parent.mkdir(parents=True, exist_ok=True)
            stage = out
        tmp = Path(tempfile.mkdtemp(dir=stage.parent, prefix=temp_prefix(stage), suffix=".tmp"))
    except OSError as exc:
        raise SiteError(f"cannot write the site to {out}: {exc.strerror or exc}") from None
    try:
        written = _write_site(tmp, entries)
        os.chmod(tmp, 0o755)
        if out.exists():
            _replace_site(out, tmp, written)
            shutil.rmtree(tmp)
        else:
            _write_manifest(tmp, written)
            os.replace(tmp, out)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise SiteError(f"cannot write the site to {out}: {exc.strerror or exc}") from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return written


def _listing(paths: Sequence[str]) -> str:
    shown = ", ".join(paths[:_SHOWN])
    return shown + (f" and {len(paths) - _SHOWN} more" if len(paths) > _SHOWN else "")


def _foreign(out: Path, paths: Sequence[str]) -> SiteError:
    return SiteError(
        f"{out} exists and is not a site built by `tysiac build` (it has no {MANIFEST}) and holds "
        f"other files: {_listing(paths)}; nothing was changed: choose another directory, or move "
        "those files away"
    )


def _manifest(out: Path) -> set[str] | None:
    """The paths listed in ``out``'s manifest, or ``None`` when it has none.

    Raises:
        SiteError: the manifest is not the JSON :data:`MANIFEST` describes.
    """
    path = out / MANIFEST
    if not path.exists() and not path.is_symlink():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SiteError(f"{path}: cannot read the manifest of the earlier build ({exc}); "
                        "nothing was changed") from None
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        raise SiteError(f"{path}: not a manifest of `tysiac build` (expected {{\"files\": [paths]}}); "
                        "nothing was changed")
    return set(files)


def _files_in(out: Path, *, skip: Path | None = None) -> set[str]:
    """Every entry under ``out`` that is not a directory (files, symbolic links, including
    links to directories, which are not followed), as ``/``-separated relative paths; the
    manifest itself and the directory ``skip`` are left out."""
    found: set[str] = set()
    for top, dirs, files in os.walk(out):
        base = Path(top).relative_to(out)
        if skip is not None and Path(top) == out:
            dirs[:] = [d for d in dirs if out / d != skip]
        for name in [d for d in dirs if (Path(top) / d).is_symlink()]:
            dirs.remove(name)
            files.append(name)
        found.update((base / name).as_posix() for name in files)
    found.discard(MANIFEST)
    return found


def _parents(paths: Iterable[str]) -> set[str]:
    return {parent.as_posix() for p in paths for parent in Path(p).parents if parent != Path(".")}


def _write_manifest(root: Path, files: Iterable[Path | str]) -> None:
    """Write the manifest listing ``files`` through a temporary file and a rename."""
    data = {"built_by": "tysiac build", "files": sorted({Path(f).as_posix() for f in files})}
    tmp = root / f"{MANIFEST}.tmp"
    tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, root / MANIFEST)


def _replace_site(out: Path, new_root: Path, written: Sequence[Path]) -> None:
    """Put the site built in ``new_root`` into the existing directory ``out``, removing only
    what an earlier build wrote there (:func:`build_site` gives the rules).

    The manifest is first rewritten to list the earlier build's files and the new ones, so
    an interruption half way leaves every file of ours listed for the next build.

    Raises:
        SiteError: ``out`` holds other files where the rules forbid it (nothing changed).
        OSError: a file cannot be removed or moved.
    """
    new = {p.as_posix() for p in written}
    listed = _manifest(out)
    present = _files_in(out, skip=new_root)
    if listed is not None:
        ours = listed & present
    elif (out / MARKER).exists():  # a site of an older `tysiac build`, which had no manifest
        ours = (new | {MARKER}) & present
    else:
        ours = set()
    foreign = sorted(present - ours)
    if listed is None and foreign:
        raise _foreign(out, foreign)
    blocked = sorted((set(foreign) & (new | _parents(new))) | {p for p in new if (out / p).is_dir()})
    if blocked:
        raise SiteError(
            f"{out}: the new site would overwrite {_listing(blocked)}, not written by an earlier "
            "build; nothing was changed: move them away or choose another directory"
        )
    _write_manifest(out, ours | new)
    for rel in sorted(ours - new):
        (out / rel).unlink()
    for directory in sorted(_parents(ours - new), key=lambda d: d.count("/"), reverse=True):
        path = out / directory
        if path.is_dir() and not path.is_symlink() and not any(path.iterdir()):
            path.rmdir()
    for rel in sorted(new):
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        os.replace(new_root / rel, out / rel)
    _write_manifest(out, new)


def _write(root: Path, rel: str, text: str, written: list[Path]) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    written.append(Path(rel))


def _write_site(root: Path, entries: Sequence[_Entry]) -> list[Path]:
    written: list[Path] = []
    books: dict[str, dict[str, str]] = {}
    sheets: dict[str, dict[str, str]] = {}
    built: list[Book] = []
    for entry in entries:
        rid = entry.ruleset.id
        books[rid], sheets[rid] = {}, {}
        for lang in terms.LANGS:
            book = build_book(entry.ruleset, lang=lang)
            html_name = f"{rid}.{lang}.html"
            links = {
                "home": "../index.html",
                "langs": {code: f"{rid}.{code}.html" for code in terms.LANGS},
                "markdown": f"{rid}.{lang}.md",
                "script": "../site.js",
                "search": f"search.{lang}.js",
            }
            links["sheet"] = f"{rid}.sheet.{lang}.html"
            _write(root, f"rules/{html_name}", render_book(book, "html", links=links), written)
            _write(root, f"rules/{rid}.{lang}.md", render_book(book, "md"), written)
            _write(root, f"rules/{rid}.sheet.{lang}.html", render_rule_sheet(book, links={
                "home": "../index.html", "book": html_name, "scoresheet": f"../scoresheet.{lang}.html",
            }), written)
            books[rid][lang] = f"rules/{html_name}"
            sheets[rid][lang] = f"rules/{rid}.sheet.{lang}.html"
            built.append(book)
    for lang in terms.LANGS:
        _write(root, f"scoresheet.{lang}.html", render_scoresheet(lang, links={
            "home": "index.html", "langs": {code: f"scoresheet.{code}.html" for code in terms.LANGS},
        }), written)

    playable = by_kind([e.ruleset for e in entries if e.ruleset.player_counts])
    if len(playable) >= 2:  # compare.html (English), compare.<lang>.html; -full: every rule
        for lang in terms.LANGS:
            comp = compare(playable, lang=lang)
            tail = _tail(lang)
            common = {"home": f"index{tail}.html", "script": "site.js",
                      "books": {r.id: books[r.id][lang] for r in playable}}
            for full, name, other in ((False, "compare", "compare-full"), (True, "compare-full", "compare")):
                _write(root, f"{name}{tail}.html", render_comparison(comp, "html", full=full, links={
                    **common, "full": f"{other}{tail}.html",
                    "full_label": terms.ui("differences_only" if full else "all_rules_link", lang),
                    "langs": {code: f"{name}{_tail(code)}.html" for code in terms.LANGS},
                }), written)
    from ..dsl.reference import render_reference

    body = MarkdownIt("commonmark").enable("table").render(render_reference())
    _write(root, "dsl.html", render_template("page.html.j2", lang="en", title="The rules DSL", body=body,
                                             home="index.html"), written)
    studies = _copy_studies(root, written)
    api = _api_reference(root)
    written.extend(api)
    _write(root, "site.js", (TEMPLATES / "site.js").read_text(encoding="utf-8"), written)
    if entries:  # the card faces as one sprite file, for pages (and the table) that link to it
        _write(root, "cards.svg", cards.sprite_file(entries[0].ruleset.deck), written)
    pairs = [(e.ruleset, e.origin) for e in entries]
    for lang in terms.LANGS:
        _write(root, "index.html" if lang == "en" else f"index.{lang}.html", render_index(
            lang, pairs, books=books, sheets=sheets, has_compare=len(playable) >= 2, studies=studies,
            has_api=bool(api),
        ), written)
        _write(root, f"search.{lang}.js", search_script(lang, [
            (book, books[book.id][lang]) for book in built if book.lang == lang]), written)
    return written


def _tail(lang: str) -> str:
    """What a page's name ends with before ``.html`` in ``lang``: nothing for English (the
    default pages: ``index.html``), ``.pl`` for Polish (``index.pl.html``)."""
    return "" if lang == "en" else f".{lang}"


def _api_reference(root: Path) -> list[Path]:
    """The Python API reference under ``api/`` (:func:`tysiac_spec.docs.api.write_api`); none,
    with a note on standard error, when pdoc is not installed."""
    from .api import ApiMissing, write_api

    try:
        return write_api(root)
    except ApiMissing as exc:
        import sys

        print(f"note: {exc}; the site has no API reference", file=sys.stderr)
        return []


def _copy_studies(root: Path, written: list[Path]) -> list[dict[str, str]]:
    """Copy each committed study page (``STUDIES_DIR/<name>.html`` with its data
    ``<name>.json``) to ``studies/<name>.html``; the index's entries (``href``, ``title``,
    ``deals``), by name.  A page without its data is copied and titled by its name."""
    out = []
    for page in sorted(STUDIES_DIR.glob("*.html")) if STUDIES_DIR.is_dir() else []:
        rel = f"studies/{page.name}"
        text = page.read_text(encoding="utf-8")
        title, deals, names, players = page.stem, "many", "", ""
        data = page.with_suffix(".json")
        if data.is_file():
            facts = json.loads(data.read_text(encoding="utf-8"))
            text = for_players(text, facts)  # the finding in words first, then figures, then method
            title = "Study: " + " against ".join(facts["rulesets"]) + f", {facts['players']} players"
            if facts.get("bots", "heuristic") != "heuristic":  # the same pair again, played by other bots
                title += f", {facts['bots']} bots"
            deals = f"{sum(facts['deals']):,}"
            names, players = " / ".join(facts["rulesets"]), str(facts["players"])
        _write(root, rel, text, written)
        out.append({"href": rel, "title": title, "deals": deals, "names": names, "players": players})
    return out
