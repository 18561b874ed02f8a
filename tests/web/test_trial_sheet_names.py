"""The scoresheet page at a phone's 390x844 with a long, hostile name beside short ones:
the names are text (no element made from them), and a short name is never broken inside
itself ("Ola" read as "Ol" over "a") to make room for the long one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from browser import CHROMIUM, PHONE, Chromium, Server

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)"),
]

NAMES = ["Ala", "<img src=x onerror=alert(1)>", "Ola"]
DEAL = {"declarer": "Ala", "bid": "120", "contract": "", "points": "100 20 0", "marriages": ""}

_LINES = """[...document.querySelectorAll('#sheet thead th')].map(th => {
  const range = document.createRange();
  range.selectNodeContents(th);
  const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
  return [th.textContent, tops.size];
})"""
"""Each header cell's text and the number of lines it is drawn on."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    served = Server(tmp_path_factory.mktemp("serve-trial-sheet"))
    yield served
    served.close()


@pytest.fixture(scope="module")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Chromium]:
    browser = Chromium(tmp_path_factory.mktemp("chromium-trial-sheet"))
    yield browser
    browser.close()


def test_short_names_stay_whole_beside_a_long_one(server: Server, chromium: Chromium) -> None:
    status, sheet = server.request("POST", "/api/sheets", {"ruleset": "pl-standard", "players": 3, "names": NAMES})
    assert status == 201
    status, _ = server.request(
        "POST", f"/api/sheets/{sheet['sheet']}/deals", {"version": sheet["version"], "answers": DEAL},
        token=sheet["edit_token"],
    )
    assert status == 201
    page = chromium.page(PHONE)
    page.goto(sheet["view"])
    page.wait("document.querySelectorAll('#sheet tbody tr').length >= 1", "the sheet's first deal")
    lines = dict(page.evaluate(_LINES))
    assert set(lines) == {"#", *NAMES}
    assert lines["Ala"] == 1
    assert lines["Ola"] == 1
    assert page.evaluate("document.querySelectorAll('img').length") == 0
    assert page.evaluate("[...document.querySelectorAll('#totals td')].map(c => c.textContent)") == [
        "Total", "-120", "20", "0"]
    assert not page.overflows()
    page.screenshot("trial-sheet-names-390")
    assert page.errors() == []
