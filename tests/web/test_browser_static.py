"""The page's static files, read without a browser: no HTML written from data, no inline
script or style (the Content-Security-Policy forbids them), and every word the page asks for
written in English, Polish, Russian and Czech."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tysiac_spec.docs.terms import TABLE_EVENTS, TABLE_WORDS

STATIC = Path(__file__).resolve().parents[2] / "tysiac_spec" / "apps" / "web" / "static"


def test_every_text_goes_in_as_text() -> None:
    """No file of the page writes HTML: no innerHTML, outerHTML, insertAdjacentHTML or
    document.write anywhere in the static files."""
    found = {str(p.relative_to(STATIC)): m.group(0)
             for p in STATIC.rglob("*.js")
             for m in [re.search(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function",
                                 p.read_text())] if m}
    assert found == {}


def test_pages_have_no_inline_script_or_style_and_no_outside_resource() -> None:
    pages = sorted(str(p.relative_to(STATIC)) for p in STATIC.rglob("*.html"))
    assert pages == ["index.html", "sheet.html", "table.html", "workbench.html"]
    own = {"index.html": ["/static/js/start.js"], "table.html": ["/static/js/table.js"],
           "sheet.html": ["/static/css/sheet.css", "/static/js/sheet.js"],
           "workbench.html": ["/static/css/workbench.css", "/static/js/workbench.js"]}
    for page in STATIC.rglob("*.html"):
        text = page.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)|<style|\sstyle=|\son\w+=", text), page.name
        assert re.findall(r'(?:src|href)="(/static/[^"]+|[a-z]+:[^"]*)"', text) == [
            "/static/favicon.svg", "/static/css/app.css", *own[page.name]]
    for css_or_js in [*STATIC.rglob("*.js"), *STATIC.rglob("*.css")]:
        assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", css_or_js.read_text()), css_or_js.name


def _words() -> dict[str, list[str]]:
    text = (STATIC / "js" / "i18n.js").read_text()
    body = text[text.index("const WORDS = {"):text.index("\n};", text.index("const WORDS = {"))]
    words: dict[str, list[str]] = {}
    for m in re.finditer(r'^\s+("[^"]+"|\w+): \[(.*?)\],$', body, re.M | re.S):
        key = m.group(1).strip('"')
        words[key] = json.loads(f"[{m.group(2)}]")
    return words


def test_every_word_is_in_four_languages() -> None:
    words = _words()
    assert len(words) > 100
    short = {k: v for k, v in words.items() if len(v) != 4 or not all(x.strip() for x in v)}
    assert short == {}
    # the placeholders agree between languages ("{name} bids {n}")
    differ = {k: v for k, v in words.items() if len({tuple(sorted(re.findall(r"\{\w+\}", x))) for x in v}) != 1}
    assert differ == {}


def test_every_word_the_page_asks_for_exists() -> None:
    # the interface words in the page's one dictionary (i18n.js); the game words from the
    # server, the rule book's terms (TABLE_WORDS, sent in the welcome frame)
    words = _words()
    asked = {m.group(1) for p in STATIC.rglob("*.js") if p.name != "i18n.js"
             for m in re.finditer(r'\bt\("([\w.:]+)"', p.read_text())}
    assert len(asked) > 60  # the scan finds the calls
    assert asked - set(words) - set(TABLE_WORDS) == set()


def test_the_game_words_have_one_home() -> None:
    """No game word is kept in the page's dictionary (they come from terms.py), no page file
    but i18n.js keeps a dictionary, and the placeholders of terms.py's table words agree
    between languages."""
    words = _words()
    assert set(words) & set(TABLE_WORDS) == set()
    assert not [k for k in words if k.startswith(("act.", "said.", "phase.", "ev.", "q."))]
    tables = [p.name for p in STATIC.rglob("*.js") if p.name != "i18n.js" and "const WORDS" in p.read_text()]
    assert tables == []
    for table in (TABLE_WORDS, TABLE_EVENTS):
        differ = {k: v for k, v in table.items() if len({tuple(sorted(re.findall(r"\{\w+\}", x))) for x in v}) != 1}
        assert differ == {}
