"""The start page at a phone's 390x844: a table option's name (an identifier such as
``leftover_two_player``) wraps between its words, never inside one, and still reads as
the name (the label's text is the option's id, as ``-O NAME=VALUE`` on the command line)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from browser import CHROMIUM, PHONE, Chromium, Server

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)"),
]

_PIECES = """(() => {
  const label = document.querySelector('label[for="opt-leftover_two_player"]');
  const pieces = [...label.childNodes].filter(n => n.nodeType === Node.TEXT_NODE).map(n => {
    const range = document.createRange();
    range.selectNodeContents(n);
    const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
    return [n.textContent, tops.size];
  });
  return [label.textContent, pieces];
})()"""
"""The label's text, and each of its words with the number of lines it is drawn on."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    served = Server(tmp_path_factory.mktemp("serve-trial-start"))
    yield served
    served.close()


@pytest.fixture(scope="module")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Chromium]:
    browser = Chromium(tmp_path_factory.mktemp("chromium-trial-start"))
    yield browser
    browser.close()


def test_option_names_wrap_between_words(server: Server, chromium: Chromium) -> None:
    page = chromium.page(PHONE)
    page.goto(server.url + "/")
    page.wait("document.querySelector('label[for=\"opt-leftover_two_player\"]') !== null", "pl-standard's options")
    text, pieces = page.evaluate(_PIECES)
    assert text == "leftover_two_player"
    assert pieces == [["leftover_", 1], ["two_", 1], ["player", 1]]
    assert not page.overflows()
    assert page.errors() == []
