"""The static site (`tysiac build`): every page present, every local link resolves, no
external resources, and the pages load in a real headless browser without console errors.

The browser test drives Debian's chromium through the harness of tests/web/browser.py
(the DevTools protocol over websocket-client) and saves screenshots of the index and of one rule book under build/screenshots/ (the
paths are printed).  It is skipped only when chromium is not installed; .ci/run installs it.
"""

from __future__ import annotations

import shutil
import time
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from click.testing import CliRunner
from web.browser import CHROMIUM, PHONE, BrowserError, Chromium, Page  # tests/web/browser.py

from tysiac_spec.cli import main
from tysiac_spec.docs.terms import LANGS
from tysiac_spec.ruleset import registry

ROOT = Path(__file__).resolve().parents[1]
HOUSE = (
    "id: my-table\nkind: house\nextends: pl-standard\nname: {en: Our table}\n"
    "options:\n  graduated_auction: {default: true}\n"
)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("site")
    house = tmp / "my-table.yaml"
    house.write_text(HOUSE, encoding="utf-8")
    out = tmp / "site"
    result = CliRunner().invoke(main, ["build", "-o", str(out), "--rulesets", str(house)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"built {out}/index.html: ")
    return out


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[tuple[str, str, str]] = []  # (tag, attribute, url)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name == "id" and value:
                self.ids.add(value)
            if name in ("href", "src") and value is not None:
                self.links.append((tag, name, value))


def _parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def check_site(root: Path) -> list[str]:
    """Problems of a built site: broken local links or anchors, external resources."""
    problems: list[str] = []
    pages = {p: _parse(p) for p in root.rglob("*.html")}
    for path, page in pages.items():
        for tag, _attr, url in page.links:
            parts = urlsplit(url)
            if parts.scheme in ("http", "https"):
                if tag != "a":
                    problems.append(f"{path.relative_to(root)}: external resource {url}")
                continue
            if parts.scheme:
                problems.append(f"{path.relative_to(root)}: unexpected link {url}")
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if not target.is_file():
                problems.append(f"{path.relative_to(root)}: broken link {url}")
            elif parts.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else _parse(target).ids
                if unquote(parts.fragment) not in ids:
                    problems.append(f"{path.relative_to(root)}: no anchor #{parts.fragment} in {url}")
    return problems


def expected_pages() -> list[str]:
    ids = [e.id for e in registry.entries()] + ["my-table"]
    pages = ["index.html", "compare.html", "compare-full.html", "dsl.html"]
    pages += [f"rules/{i}.{lang}.{ext}" for i in ids for lang in LANGS for ext in ("html", "md")]
    return pages


@pytest.mark.slow  # about 9 s of CPU (quick-loop budget, issue 25)
def test_every_page_is_built(site: Path) -> None:
    missing = [p for p in expected_pages() if not (site / p).is_file()]
    assert missing == []
    index = (site / "index.html").read_text(encoding="utf-8")
    for page in expected_pages():
        if page.endswith(".html") and page != "index.html":
            assert f'href="{page}"' in index  # every page is reachable from the index
    assert 'href="rules/my-table.pl.html"' in index  # the house rule file given with --rulesets
    assert "<h1>The rules DSL</h1>" in (site / "dsl.html").read_text(encoding="utf-8")


@pytest.mark.slow  # reads every page of the site
def test_no_broken_links_and_no_external_resources(site: Path) -> None:
    assert check_site(site) == []


@pytest.mark.slow  # copies the site
def test_link_check_finds_a_missing_page_and_a_broken_anchor(site: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(site, broken)
    (broken / "rules" / "ru-online.cs.html").unlink()
    page = broken / "compare.html"
    page.write_text(page.read_text(encoding="utf-8").replace('href="index.html"', 'href="index.html#nowhere"', 1),
                    encoding="utf-8")
    problems = check_site(broken)
    assert "index.html: broken link rules/ru-online.cs.html" in problems
    assert "compare.html: no anchor #nowhere in index.html#nowhere" in problems


def test_build_refuses_to_replace_a_foreign_directory(tmp_path: Path) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", "-o", str(tmp_path / "mine")])
    assert result.exit_code != 0
    assert "is not a site built by `tysiac build`" in result.output
    assert (tmp_path / "mine" / "notes.txt").read_text(encoding="utf-8") == "keep me"


def test_build_into_a_place_it_cannot_write_is_a_clean_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", "-o", str(blocker / "site")])
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: cannot write the site to {blocker / 'site'}: ")
    assert isinstance(result.exception, SystemExit)  # a clean exit, not an exception


# --------------------------------------------------------------------------- browser
# (the one Chromium harness of the tests: tests/web/browser.py)


def _load(page: Page, path: Path) -> list[str]:
    """Open a page of the site; its console errors, uncaught exceptions and failed loads."""
    page.browser.events[page.session] = []  # this page's own errors only
    page.goto(path.as_uri())
    for attempt in range(5):
        try:
            page.evaluate("1")  # let pending console events arrive
            break
        except BrowserError as exc:  # the page was still settling (it navigated): ask again
            if "navigated or closed" not in str(exc) or attempt == 4:
                raise
            time.sleep(0.2)
    return page.errors()


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (.ci/run installs it: apt-get install chromium)")
def test_site_in_a_headless_browser(site: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    browser = Chromium(tmp_path / "profile")
    try:
        page = browser.page(PHONE)
        pages = [p for p in sorted(site.rglob("*.html"))]
        failures: dict[str, list[str]] = {}
        too_wide: list[str] = []
        for path in pages:
            if errs := _load(page, path):
                failures[str(path.relative_to(site))] = errs
            # readable on a phone: no page wider than the screen (wide tables scroll in their box)
            if page.overflows():
                too_wide.append(str(path.relative_to(site)))
        assert failures == {}
        assert too_wide == []
        shots = []
        for path, name in ((site / "index.html", "index.png"), (site / "rules" / "pl-standard.pl.html",
                                                                "pl-standard.pl.png")):
            assert _load(page, path) == []
            title = page.evaluate("document.querySelector('h1').textContent")
            assert title in ("Thousand — rule books", "Tysiąc — zasady standardowe")
            # readable on a phone: nothing wider than the screen
            assert not page.overflows()
            shot = page.screenshot(name)
            assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 5000
            shots.append(shot)
    finally:
        browser.close()
    with capsys.disabled():
        for shot in shots:
            print(f"\nscreenshot: {shot}")
