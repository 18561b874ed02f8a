"""The start page at a phone's 390x844: a table option is named in the rule book's words
(tysiac_spec/docs/terms.py), and its id (an identifier such as ``leftover_two_player``, as
``-O NAME=VALUE`` writes it on the command line) wraps between its words, never inside one."""

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
  const id = label.querySelector('code.opt-id');
  const pieces = [...id.childNodes].filter(n => n.nodeType === Node.TEXT_NODE).map(n => {
    const range = document.createRange();
    range.selectNodeContents(n);
    const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
    return [n.textContent, tops.size];
  });
  return [label.firstChild.textContent, id.textContent, pieces];
})()"""
"""The label's words, the option's id, and each word of the id with the number of lines it is
drawn on."""


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
    words, text, pieces = page.evaluate(_PIECES)
    assert words == "Who scores the cards set aside (2 players)"  # (the page's language: the browser's, English)
    assert text == "leftover_two_player"
    assert pieces == [["leftover_", 1], ["two_", 1], ["player", 1]]
    assert not page.overflows()
    assert page.errors() == []
