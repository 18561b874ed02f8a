"""The static site (`tysiac build`) in headless Chromium at a phone's and a desktop's width
(issue 27, items 4 and 6): the comparison's header row stays in view while the page scrolls,
nothing is wider than the screen, every rule sheet prints on one or two A4 pages and the
scoresheet on one, and screenshots at 390 and 1280 px go to ``build/screenshots/``."""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser import CHROMIUM, DESKTOP, PHONE, Chromium, Page
from click.testing import CliRunner

from tysiac_spec.cli import main
from tysiac_spec.docs.terms import LANGS
from tysiac_spec.ruleset import registry

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)"),
]

HOUSE = (
    "id: my-table\nkind: house\nextends: pl-standard\nname: {en: Our table, pl: Nasz stół}\n"
    "options:\n  graduated_auction: {default: true}\n"
    "auction: {min_bid: 110}\n"
)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("site")
    house = tmp / "my-table.yaml"
    house.write_text(HOUSE, encoding="utf-8")
    result = CliRunner().invoke(main, ["build", "-o", str(tmp / "out"), "--rulesets", str(house)])
    assert result.exit_code == 0, result.output
    return tmp / "out"


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Chromium]:
    chromium = Chromium(tmp_path_factory.mktemp("profile"))
    try:
        yield chromium
    finally:
        chromium.close()


def _open(browser: Chromium, size: tuple[int, int], path: Path) -> Page:
    page = browser.page(size)
    page.goto(path.as_uri())
    return page


def _pdf_pages(page: Page) -> int:
    """The number of A4 pages the page prints on (Chromium's print to PDF)."""
    data = base64.b64decode(page.call("Page.printToPDF", paperWidth=8.27, paperHeight=11.69,
                                      preferCSSPageSize=True, printBackground=True)["data"])
    assert data.startswith(b"%PDF")
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", data))


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["390", "1280"])
def test_comparison_header_stays_in_view_while_the_page_scrolls(
    browser: Chromium, site: Path, size: tuple[int, int]
) -> None:
    page = _open(browser, size, site / "compare-full.html")
    head = "document.querySelector('table.matrix:not(.glance) thead th:nth-child(3)')"
    first = "document.querySelector('table.matrix:not(.glance) tbody tr:not(.section-row) th')"
    assert page.evaluate(f"{head}.getBoundingClientRect().top") > 300  # below the summary at first
    page.evaluate("window.scrollTo(0, document.body.scrollHeight / 2)")
    # far down the table, the header row is at the top of the screen, over the rows
    page.wait(f"Math.abs({head}.getBoundingClientRect().top) < 1", "the header row at the top")
    assert page.evaluate(f"document.elementFromPoint({head}.getBoundingClientRect().left + 20, 10).closest('thead')"
                         " !== null") is True
    assert page.overflows() is False
    if size == DESKTOP:  # every column in view: the last one is not cut off
        assert page.evaluate("document.querySelector('table.matrix:not(.glance) thead th:last-child')"
                             ".getBoundingClientRect().right") <= size[0]
    else:  # the table scrolls sideways in its box; its first column stays
        page.evaluate("document.querySelector('.scroll.fits:last-of-type').scrollLeft = 400")
        assert page.evaluate(f"{first}.getBoundingClientRect().left") == pytest.approx(
            page.evaluate("document.querySelector('.scroll.fits:last-of-type').getBoundingClientRect().left"), abs=1)
    assert page.errors() == []
    page.screenshot(f"site-compare-{size[0]}.png")


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["390", "1280"])
def test_pages_fit_the_screen_and_screenshots(browser: Chromium, site: Path, size: tuple[int, int]) -> None:
    shots = {"index.html": "index", "rules/pl-standard.pl.html": "book-pl", "rules/my-table.en.html": "house-en",
             "rules/pl-standard.sheet.pl.html": "sheet-pl", "scoresheet.en.html": "scoresheet-en"}
    for rel, name in shots.items():
        page = _open(browser, size, site / rel)
        assert page.overflows() is False, rel
        assert page.errors() == [], rel
        if rel.startswith("rules/pl-standard.pl"):  # card pictures drawn, at their size
            page.evaluate("document.querySelector('.example table.hands').scrollIntoView()")
            width = page.evaluate("document.querySelector('.example svg.card').getBoundingClientRect().width")
            assert 25 < width < 50
        shot = page.screenshot(f"site-{name}-{size[0]}.png")
        assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 5000


def test_rule_sheets_print_on_one_or_two_a4_pages(browser: Chromium, site: Path) -> None:
    page = browser.page(DESKTOP)
    counts = {}
    for entry in [*registry.entries(), "my-table"]:
        rid = entry if isinstance(entry, str) else entry.id
        for lang in LANGS:
            page.goto((site / "rules" / f"{rid}.sheet.{lang}.html").as_uri())
            counts[f"{rid}.{lang}"] = _pdf_pages(page)
    assert {k: n for k, n in counts.items() if n not in (1, 2)} == {}
    for lang in LANGS:
        page.goto((site / f"scoresheet.{lang}.html").as_uri())
        assert _pdf_pages(page) == 1
    # what is printed: no navigation bar, the rules in two columns
    page.goto((site / "rules" / "pl-standard.sheet.pl.html").as_uri())
    page.call("Emulation.setEmulatedMedia", media="print")
    assert page.evaluate("getComputedStyle(document.querySelector('header.top')).display") == "none"
    assert page.evaluate("getComputedStyle(document.querySelector('.sheet-cols')).columnCount") == "2"
    page.screenshot("site-sheet-print-a4.png", full=True)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["390", "1280"])
def test_index_picker_filters_the_variants(browser: Chromium, site: Path, size: tuple[int, int]) -> None:
    page = _open(browser, size, site / "index.pl.html")
    assert page.evaluate("document.querySelector('form.picker').hidden") is False  # site.js showed it
    shown = "[...document.querySelectorAll('section.variant')].filter(s => !s.hidden).map(s => s.id).join(' ')"

    def choose(selector: str, value: str) -> None:
        page.evaluate(f"(s => {{ s.value = {value!r}; s.dispatchEvent(new Event('change', {{bubbles: true}})); }})"
                      f"(document.querySelector({selector!r}))")

    choose("select[name=country]", "pl")  # the Polish variants and the house files based on them
    assert page.evaluate(shown) == "pl-online pl-standard pl-tysiac-hd house-five-up my-table"
    choose("select[name=country]", "")
    choose("select[data-rule='special.barrel']", "yes")
    choose("select[name=players]", "4")
    assert page.evaluate(shown) == "ru-classic ru-online"
    assert page.evaluate("document.querySelector('[data-template]').textContent") == "pokazano 2 z 11"
    assert page.errors() == []
    page.screenshot(f"site-index-picker-{size[0]}.png")


def test_search_box_finds_rules_in_the_books(browser: Chromium, site: Path) -> None:
    page = _open(browser, PHONE, site / "rules" / "pl-standard.pl.html")
    page.click("form.search input")
    page.call("Input.insertText", text="meldunku wartość")
    hits = page.wait("[...document.querySelectorAll('ol.hits a')].map(a => a.getAttribute('href'))", "hits")
    assert "../rules/pl-standard.pl.html#marriages-values" in hits
    assert hits[0] == "../rules/pl-standard.pl.html#marriages-values"  # this book's hits first
    page.click("ol.hits a[href='../rules/pl-standard.pl.html#marriages-values']")
    page.wait("location.hash === '#marriages-values'", "the rule in view")
    assert page.errors() == []
