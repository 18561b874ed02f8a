"""Card pictures, as SVG drawn from the pack's data, with no script: the one drawing of the
cards, for the static site and the web table alike.

A face is a 100 x 140 card: the rank and suit index top left, a big pip or a framed court
letter.  :func:`sprite_file` writes the whole pack as an SVG sprite (``cards.svg``: one
``<symbol id="card-QH">`` per card, ``card-back`` for a card face down, ``suit-H`` per suit
in a 100 x 100 box) that any page can show with ``<use href="cards.svg#card-QH">``; the web
table's server serves it per deck (``/cards/<key>.svg``, :func:`tysiac_spec.apps.web.views.sprite_url`)
and ``apps/web/static/js/cards.js`` only refers to its symbols and adds the table's marks
(trump, marriage).

A page shows cards with :func:`card_use` (a small ``<svg>`` that refers to a symbol) and
carries the symbols it refers to once, in :func:`sprite` (an inline, hidden ``<svg>``), so
it works opened from disk, where a browser refuses a ``<use>`` of another file.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from ..cards import Deck, Rank, Suit

__all__ = ["card_code", "card_use", "sprite", "sprite_file"]

SHAPES = {
    "hearts": "M50 92C24 70 4 52 8 30C11 12 32 4 50 24C68 4 89 12 92 30C96 52 76 70 50 92Z",
    "diamonds": "M50 4L86 50L50 96L14 50Z",
    "spades": "M50 6C30 30 8 44 8 64C8 80 28 88 44 74C42 84 38 90 30 96H70C62 90 58 84 56 74C72 88 92 80 "
              "92 64C92 44 70 30 50 6Z",
    "clubs": "M50 8A19 19 0 0 0 36 40A19 19 0 1 0 44 72C42 82 38 90 30 96H70C62 90 58 82 56 72A19 19 0 1 0 "
             "64 40A19 19 0 0 0 50 8Z",
}
"""Suit shapes in a 100 x 100 box, by suit id (a suit of another pack is drawn as its symbol)."""

RED, DARK = "#c0152f", "#16181d"
_RED_SUITS = frozenset(("hearts", "diamonds"))
_COURTS = frozenset(("jack", "queen", "king"))
_SANS = "system-ui, 'DejaVu Sans', Arial, sans-serif"
_SERIF = "Georgia, 'DejaVu Serif', serif"

# "queen of hearts" in each language: the suit in the case the phrase needs
_OF_SUIT = {
    "en": {"hearts": "of hearts", "diamonds": "of diamonds", "clubs": "of clubs", "spades": "of spades"},
    "pl": {"hearts": "kier", "diamonds": "karo", "clubs": "trefl", "spades": "pik"},
    "ru": {"hearts": "червей", "diamonds": "бубен", "clubs": "треф", "spades": "пик"},
    "cs": {"hearts": "srdcí", "diamonds": "kár", "clubs": "křížů", "spades": "pik"},
}


def _face(rank: Rank) -> str:
    """The rank as printed on a face: its digit alias (``10`` for the ten), else its letter."""
    return next((a for a in rank.aliases if a.isdigit()), rank.letter)


def _name(suit: Suit, rank: Rank, lang: str) -> str:
    rank_name = (rank.names or {}).get(lang) or (rank.names or {}).get("en") or rank.id
    of = _OF_SUIT.get(lang, {}).get(suit.id)
    if of:
        return f"{rank_name} {of}"
    suit_name = (suit.names or {}).get(lang) or suit.id
    return f"{rank_name} of {suit_name}" if lang == "en" else f"{rank_name} {suit_name}"


def _shape(suit: Suit, x: float, y: float, size: float, fill: str) -> str:
    d = SHAPES.get(suit.id)
    if d is None:
        return (f'<text x="{x + size / 2:g}" y="{y + size * 0.85:g}" font-size="{size:g}" '
                f'text-anchor="middle" fill="{fill}">{escape(suit.symbol)}</text>')
    return f'<path d="{d}" fill="{fill}" transform="translate({x:g} {y:g}) scale({size / 100:g})"/>'


def _symbol(suit: Suit, rank: Rank) -> str:
    """One card face as an SVG ``<symbol id="card-QH">`` (viewBox 100 x 140)."""
    colour = RED if suit.id in _RED_SUITS else DARK
    face = _face(rank)
    wide = len(face) > 1
    parts = [
        '<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="#fffdf8" stroke="#8a8f98" '
        'stroke-width="2"/>',
        f'<text x="{4 if wide else 8}" y="40" font-size="{36 if wide else 42}" font-weight="700" '
        f'font-family="{_SANS}" letter-spacing="{-3 if wide else 0}" fill="{colour}">{escape(face)}</text>',
        _shape(suit, 8, 46, 28, colour),
    ]
    if rank.id in _COURTS:
        parts += [
            f'<rect x="42" y="50" width="50" height="84" rx="6" fill="none" stroke="{colour}" '
            'stroke-width="2" opacity="0.55"/>',
            f'<text x="67" y="94" font-size="40" font-weight="700" text-anchor="middle" '
            f'font-family="{_SERIF}" fill="{colour}">{escape(rank.letter)}</text>',
            _shape(suit, 55, 102, 25, colour),
        ]
    else:
        parts.append(_shape(suit, 42, 66, 50, colour))
    return f'<symbol id="card-{rank.letter}{suit.letter}" viewBox="0 0 100 140">{"".join(parts)}</symbol>'


def _back() -> str:
    """The card face down as ``<symbol id="card-back">``: a blue lattice in a frame, "1000" in
    a ring.  The lattice's lines are cut to the frame here (no ``clipPath``, whose id a page
    using the symbol from another file could not reach)."""
    x0, y0, x1, y1 = 8, 8, 92, 132
    lines = []
    for i in range(-124, 84, 14):
        for ax, dx in ((x0 + i, 1), (x0 + i + 124, -1)):  # the line from (ax, y0) going down at 45°
            # the part of x = ax + dx * (y - y0) inside the frame (x0 <= x <= x1)
            lo = max(y0, y0 + (x0 - ax if dx > 0 else ax - x1))
            hi = min(y1, y0 + (x1 - ax if dx > 0 else ax - x0))
            if hi - lo > 0.01:
                lines.append(f"M{ax + dx * (lo - y0):g} {lo:g}L{ax + dx * (hi - y0):g} {hi:g}")
    return (
        '<symbol id="card-back" viewBox="0 0 100 140">'
        '<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="#fffdf8" stroke="#8a8f98" '
        'stroke-width="2"/><rect x="8" y="8" width="84" height="124" rx="5" fill="#24478f"/>'
        f'<path d="{"".join(lines)}" stroke="#5b7fc7" stroke-width="2.5" fill="none"/>'
        '<circle cx="50" cy="70" r="22" fill="#24478f" stroke="#fffdf8" stroke-width="3"/>'
        f'<text x="50" y="76" font-size="16" font-weight="700" text-anchor="middle" font-family="{_SANS}" '
        'fill="#fffdf8">1000</text></symbol>'
    )


def _suit_symbol(suit: Suit) -> str:
    """A suit's shape in its colour as ``<symbol id="suit-H">`` (viewBox 100 x 100), for text."""
    colour = RED if suit.id in _RED_SUITS else DARK
    return f'<symbol id="suit-{suit.letter}" viewBox="0 0 100 100">{_shape(suit, 0, 0, 100, colour)}</symbol>'


def _parse(deck: Deck, code: str) -> tuple[Suit, Rank] | None:
    suit = next((s for s in deck.suits if code[-1:] in (s.letter, s.symbol)), None)
    rank = next((r for r in deck.ranks if code[:-1] in (r.letter, *r.aliases)), None)
    return (suit, rank) if suit is not None and rank is not None else None


def card_code(deck: Deck, text: str) -> str | None:
    """The canonical code (``TH``) of a card written ``TH``, ``10H`` or ``10♥``; ``None`` when
    ``text`` is not a card of ``deck``."""
    found = _parse(deck, text.strip())
    return None if found is None else f"{found[1].letter}{found[0].letter}"


def card_use(deck: Deck, code: str, lang: str) -> str:
    """A card picture referring to the page's sprite: ``<svg class="card" role="img"
    aria-label="queen of hearts"><use href="#card-QH"/></svg>``; the card's text when
    ``code`` is not a card of ``deck``."""
    found = _parse(deck, code)
    if found is None:
        return escape(code)
    suit, rank = found
    label = escape(_name(suit, rank, lang))
    return (f'<svg class="card" viewBox="0 0 100 140" role="img" aria-label="{label}">'
            f'<use href="#card-{rank.letter}{suit.letter}"/></svg>')


def sprite(deck: Deck, codes: Iterable[str]) -> str:
    """A hidden inline ``<svg>`` holding the symbols of the cards ``codes`` (canonical, as
    :func:`card_code` gives them) in the pack's order; empty when there are none."""
    wanted = set(codes)
    symbols = [_symbol(s, r) for s in deck.suits for r in deck.ranks if f"{r.letter}{s.letter}" in wanted]
    if not symbols:
        return ""
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0" style="position:absolute" '
            f'aria-hidden="true">{"".join(symbols)}</svg>')


def sprite_file(deck: Deck) -> str:
    """Every card of ``deck`` as a standalone SVG sprite file (``cards.svg``): a symbol
    ``card-QH`` per card, ``card-back``, and ``suit-H`` per suit."""
    body = "".join(_symbol(s, r) for s in deck.suits for r in deck.ranks)
    body += _back() + "".join(_suit_symbol(s) for s in deck.suits)
    return f'<svg xmlns="http://www.w3.org/2000/svg">{body}</svg>\n'

