"""The table's cards have one drawing, ``docs/cards.py``: the server serves a deck's sprite at
the URL the welcome frame and ``/api/rulesets`` name, and ``static/js/cards.js`` only refers
to its symbols (``<use>``) and draws the table's marks."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from webserver import Served

from tysiac_spec.docs import cards
from tysiac_spec.ruleset import load_ruleset

STATIC = Path(__file__).resolve().parents[2] / "tysiac_spec" / "apps" / "web" / "static"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    served = Served(tmp_path_factory.mktemp("cards") / "web.sqlite3")
    yield served
    served.stop()


def test_the_welcome_names_the_decks_sprite_and_the_server_serves_it(server: Served) -> None:
    t = server.create(ruleset="pl-standard", players=3, seats=["human", "bot:random", "bot:random"])
    sock = server.socket(t["table"], t["seats"][0]["token"])
    welcome = sock.until("welcome")
    sock.close()
    url = welcome["deck"]["sprite"]
    assert re.fullmatch(r"/cards/[0-9a-f]{16}\.svg", url)
    status, text = server.call("GET", url)
    assert status == 200
    # the very file docs/cards.py draws for the pack: 24 faces, the back, 4 suits
    assert text == cards.sprite_file(load_ruleset("pl-standard").deck)
    assert text.count('<symbol id="card-') == 25 and text.count('<symbol id="suit-') == 4
    assert '<symbol id="card-QH" viewBox="0 0 100 140">' in text and 'id="card-back"' in text
    headers = server.headers(url)
    assert headers["content-type"].startswith("image/svg+xml")
    assert headers["cache-control"] == "public, max-age=31536000, immutable"
    assert "default-src 'self'" in headers["content-security-policy"]


def test_the_start_page_list_names_each_rulesets_sprite(server: Served) -> None:
    status, catalog = server.call("GET", "/api/rulesets")
    assert status == 200
    by_id = {r["id"]: r["sprite"] for r in catalog["rulesets"]}
    status, text = server.call("GET", by_id["pl-standard"])
    assert status == 200 and 'id="card-TH"' in text


def test_an_unknown_sprite_is_404(server: Served) -> None:
    assert server.call("GET", "/cards/0123456789abcdef.svg") == (404, "no such card pictures")


def test_the_page_draws_no_card_face_of_its_own() -> None:
    """cards.js refers to the sprite's symbols; no suit shape or face geometry is written in
    the page's code (the shapes live in docs/cards.py alone)."""
    js = "".join(p.read_text() for p in STATIC.rglob("*.js"))
    assert 's("use", { href: `${sprite}#${id}` })' in js
    for d in cards.SHAPES.values():
        assert d[:20] not in js
    assert '"font-family"' not in js and "#fffdf8" not in js
