"""The pages a browser opens, which need none of the server's state: the start, table and
workbench pages (package data, :data:`STATIC`), a shipped ruleset's rule book and the
comparison of the shipped variants (HTML, made once per ruleset and language), and a deck's
card pictures (``/cards/<key>.svg``)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, PlainTextResponse, Response

from . import views
from .guard import CSP_BOOK
from .protocol import LANGS
from .rulesets import shipped
from .server_state import _lang

__all__ = ["STATIC", "cards", "compare_page", "page", "rules_page"]

STATIC = Path(__file__).parent / "static"
"""The page's files (package data)."""


async def cards(request: Request) -> Response:
    """``GET /cards/<key>.svg``: the card sprite a ``sprite`` URL names
    (:func:`.views.sprite_url`); the shipped decks' are made again after a restart."""
    key = request.path_params["key"]
    text = views.sprite_text(key)
    if text is None:
        for r in shipped():
            views.sprite_url(r.deck)
        text = views.sprite_text(key)
    if text is None:
        return PlainTextResponse("no such card pictures", status_code=404)
    # the key is the drawing's hash: a URL always names the same file
    return Response(text, media_type="image/svg+xml",
                    headers={"Cache-Control": "public, max-age=31536000, immutable"})


async def page(request: Request) -> Response:
    name = "table.html" if "table" in request.path_params else "index.html"
    if request.url.path == "/w" or request.url.path.startswith("/w/"):
        name = "workbench.html"
    path = STATIC / name
    if not path.is_file():
        return PlainTextResponse("the page is not installed", status_code=404)
    return FileResponse(path, media_type="text/html")


async def rules_page(request: Request) -> Response:
    lang = _lang(request)
    rid = request.path_params["rid"]
    if rid not in {r.id for r in shipped()}:
        return PlainTextResponse("no such ruleset", status_code=404)
    return HTMLResponse(_book_html(rid, lang), headers={"Content-Security-Policy": CSP_BOOK})


async def compare_page(request: Request) -> Response:
    return HTMLResponse(_compare_html(), headers={"Content-Security-Policy": CSP_BOOK})


@lru_cache(maxsize=64)
def _book_html(rid: str, lang: str) -> str:
    from ...docs.book import build_book, render_book
    from ...ruleset import load_ruleset

    links = {"home": "/", "langs": {code: f"/rules/{rid}?lang={code}" for code in LANGS}, "markdown": ""}
    return render_book(build_book(load_ruleset(rid), lang=lang), "html", links=links)


@lru_cache(maxsize=1)
def _compare_html() -> str:
    from ...docs.compare import by_kind, compare, render_comparison

    playable = by_kind(shipped())
    books = {r.id: f"/rules/{r.id}" for r in playable}
    return render_comparison(
        compare(playable), "html", links={"home": "/", "full": "/compare", "full_label": "", "books": books}
    )
