"""The table page in Polish and Russian: the table options, a named contract and the
actions read in the rule book's words (tysiac_spec/docs/terms.py, sent by the server); no
option id is shown as a label."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser import CHROMIUM, PHONE, Chromium, Page, Server

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)"),
]

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    served = Server(tmp_path_factory.mktemp("serve-words"), env={"TYSIAC_WEB_SEEDS": "1"})
    yield served
    served.close()


@pytest.fixture(scope="module")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Chromium]:
    browser = Chromium(tmp_path_factory.mktemp("chromium-words"))
    yield browser
    browser.close()


def _in(page: Page, lang: str) -> None:
    page.evaluate(f"(() => {{ const s = document.querySelector('#lang'); s.value = '{lang}';"
                  " s.dispatchEvent(new Event('change')); })()")


@pytest.mark.parametrize(("lang", "workbench", "sheet"), [
    ("en", "Write your table's own rules, without code: the house-rule workbench",
     "Keep the score of a game played with real cards: the scoresheet"),
    ("pl", "Napisz własne zasady stołu, bez programowania: warsztat zasad domowych",
     "Zapisuj wyniki gry prawdziwymi kartami: zapis gry"),
    ("ru", "Напишите свои правила стола без программирования: мастерская домашних правил",
     "Ведите счёт игры настоящими картами: запись игры"),
    ("cs", "Napište si vlastní pravidla stolu bez programování: dílna domácích pravidel",
     "Zapisujte skóre hry skutečnými kartami: zápis hry"),
])
def test_the_start_pages_links_read_in_its_language(
    lang: str, workbench: str, sheet: str, server: Server, chromium: Chromium
) -> None:
    page = chromium.page(PHONE)
    page.goto(server.url + "/")
    page.wait("document.querySelector('#lang') && document.querySelector('.brand use')", "the start page")
    _in(page, lang)
    assert page.evaluate("document.querySelector('#workbench-link').textContent") == workbench
    assert page.evaluate("document.querySelector('#sheet-link').textContent") == sheet
    assert page.evaluate("document.querySelector('#workbench-link').getAttribute('href')") == "/w"
    assert page.errors() == []


def test_the_table_options_read_in_words(server: Server, chromium: Chromium) -> None:
    status, table = server.request("POST", "/api/tables", {
        "ruleset": "ru-classic", "players": 3, "seats": ["human", "bot:random", "bot:random"], "seed": 3,
        "options": {"gold_set": True, "barrel_variant": "lviv"}})
    assert status == 201, table
    page = chromium.page(PHONE)
    page.goto(table["host"])
    page.wait("window.tysiacTable && window.tysiacTable.S.st && document.querySelector('#table-options')",
              "the table options")
    _in(page, "pl")
    options = page.evaluate("document.querySelector('#table-options').textContent")
    assert "Złoty set (po rozdaniu każdemu na start)tak" in options
    assert "Beczkalwowska: na 900, bez limitu" in options
    _in(page, "ru")
    options = page.evaluate("document.querySelector('#table-options').textContent")
    assert "Золотой кон (по раздаче каждому в начале)да" in options
    assert page.evaluate("document.querySelector('#phase').textContent") in (
        "Торговля", "Прикуп", "Снос", "Заказ", "Розыгрыш")
    # no option's id anywhere on the page
    text = page.evaluate("document.body.innerText + document.querySelector('#tools').textContent")
    ids = re.findall(r"\b[a-z]+(?:_[a-z0-9]+)+\b", text)
    assert ids == []
    assert page.errors() == []


def test_a_named_contract_reads_in_words(server: Server, chromium: Chromium) -> None:
    text = (ROOT / "examples/house/misere.yaml").read_text(encoding="utf-8")
    status, table = server.request("POST", "/api/tables", {
        "ruleset_text": text, "players": 3, "seats": ["human", "bot:random", "bot:random"], "seed": 1})
    assert status == 201, table
    page = chromium.page(PHONE)
    page.goto(table["host"])
    page.wait("window.tysiacTable && window.tysiacTable.S.st && window.tysiacTable.S.st.legal.includes('bid misere')",
              "the seat's turn to bid, misère offered")
    _in(page, "pl")
    buttons = page.evaluate("[...document.querySelectorAll('#actions button')].map(b => b.textContent)")
    assert "Licytuj: Mizer" in buttons and "Pas" in buttons
    _in(page, "ru")
    buttons = page.evaluate("[...document.querySelectorAll('#actions button')].map(b => b.textContent)")
    assert "Заказать: Мизер" in buttons
    assert page.errors() == []
