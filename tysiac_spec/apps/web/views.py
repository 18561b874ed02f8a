"""The one serializer of game state for clients: a seat's or a watcher's STATE body
(:mod:`.protocol`), the deck (and the URL of its card pictures), the match score table,
rulesets and diagnostics as JSON.

Nothing else in the web layer turns a :class:`~tysiac_spec.engine.game.Game` into data for a
client.  What a seat sees is what :meth:`Game.view` gives (a watcher: :meth:`Game.public_view`);
the actions of the current deal are listed with the card of a give or a discard hidden from
anyone the view does not show it to.  Never sent: the seed, the record before the match ends,
another hand, an unshown talon, an engine diagnostic (an illegal-action error's hint holds
every hand).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..._paths import RULESETS_DIR
from ...cards import Deck
from ...docs import cards, terms
from ...docs.terms import LANGS
from ...engine.game import Game, View
from ...errors import Diagnostic, format_path
from ...ruleset.model import Ruleset

__all__ = [
    "LAST_ACTIONS",
    "deal_rows",
    "deck_json",
    "diagnostic_json",
    "dumps",
    "public_actions",
    "ruleset_json",
    "sprite_text",
    "sprite_url",
    "state_body",
    "table_options",
    "table_words",
    "view_json",
]

LAST_ACTIONS = 60
"""At most this many actions of the current deal are listed in ``last``."""


def dumps(data: Any) -> str:
    """Compact JSON text (UTF-8 characters kept), the same bytes for equal data."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _cards(cards: Sequence[Any]) -> list[str]:
    return [str(c) for c in cards]


def view_json(view: View) -> dict[str, Any]:
    """A :class:`View` as the ``view`` object of the STATE body (``turn`` is ``None`` when the
    match is over)."""
    over = view.phase == "over"
    return {
        "phase": view.phase,
        "turn": None if over else view.current_player,
        "dealer": view.dealer,
        "sitter": view.sitter,
        "hand": _cards(view.hand),
        "hand_sizes": [[p, n] for p, n in view.hand_sizes],
        "talon": _cards(view.talon),
        "given": [[to, str(c)] for to, c in view.given],
        "bids": [[p, str(b)] for p, b in view.bids],
        "declarer": view.declarer,
        "contract": view.contract,
        "kind": view.kind,
        "trump": view.trump,
        "trick": [[p, str(c)] for p, c in view.trick],
        "tricks": [[p, n] for p, n in view.tricks],
        "declared": [[p, str(s)] for p, s in view.declared],
        "stock": view.stock,
        "stock_card": None if view.stock_card is None else str(view.stock_card),
        "open_hand": _cards(view.open_hand),
        "contra": view.contra,
        "price": view.price,
    }


def public_actions(
    history: Sequence[str], actors: Sequence[int], deal_start: int, seat: int | None, view: View
) -> list[dict[str, Any]]:
    """The actions of the current deal (from ``deal_start``) as ``seat`` may read them:
    ``[{"v", "seat", "action"}]``, the last :data:`LAST_ACTIONS`.  A give or a discard by
    another seat names its card only when ``view`` shows that gift (``given``)."""
    seen = {f"give {c} to {to}" for to, c in view.given}
    out: list[dict[str, Any]] = []
    first = max(deal_start, len(history) - LAST_ACTIONS)
    for n in range(first, len(history)):
        text, actor = history[n], actors[n]
        if actor != seat:
            words = text.split()
            if words[0] == "give" and text not in seen:
                text = f"give ? to {words[-1]}"
            elif words[0] == "discard":
                text = "discard ?"
        out.append({"v": n + 1, "seat": actor, "action": text})
    return out


def _event_words(kind: str, value: int | None) -> dict[str, str] | None:
    words = {lang: terms.table_event(kind, value, lang) for lang in LANGS}
    return None if words["en"] is None else {lang: str(text) for lang, text in words.items()}


def deal_rows(game: Game) -> list[dict[str, Any]]:
    """The match score table: one row per finished deal, with the score changes, the scores
    after it and the deal's events (kind, seat, value, the engine's English text and the
    rule book's words in every language, :func:`~tysiac_spec.docs.terms.table_event`, where
    it has them)."""
    by_deal: dict[int, list[dict[str, Any]]] = {}
    for e in game.events:
        by_deal.setdefault(e.deal, []).append(
            {
                "kind": e.kind,
                "seat": e.player,
                "value": e.value,
                "text": e.text,
                "words": _event_words(e.kind, e.value),
            }
        )
    rows: list[dict[str, Any]] = []
    totals = [0] * game.players
    for n, changes in enumerate(game.deal_scores):
        totals = [t + c for t, c in zip(totals, changes, strict=True)]
        rows.append(
            {"deal": n, "changes": list(changes), "scores": list(totals), "events": by_deal.get(n, [])}
        )
    if rows:  # (match rules may set a score outright: the last row shows the scores as they are)
        rows[-1]["scores"] = list(game.scores)
    return rows


def state_body(
    game: Game,
    *,
    seat: int | None,
    match_no: int,
    seats: list[dict[str, Any]],
    settings: Mapping[str, Any],
    actors: Sequence[int],
    deal_start: int,
    rows: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The STATE body for ``seat`` (``None``: a watcher), as :mod:`.protocol` writes it.

    ``actors`` is the seat of each action in ``game.history``; ``deal_start`` the index in it
    of the current deal's first action; ``rows`` the score table when already made
    (:func:`deal_rows`, the same for every seat)."""
    view = game.public_view() if seat is None else game.view(seat)
    over = game.is_over
    legal: list[str] = []
    if seat is not None and not over and game.current_player == seat:
        legal = [a.text for a in game.legal_actions()]
    return {
        "version": len(game.history),
        "match": match_no,
        "seat": seat,
        "over": over,
        "winners": list(game.winners) if over else [],
        "legal": legal,
        "scores": list(game.scores),
        "seats": seats,
        "settings": dict(settings),
        "view": view_json(view),
        "last": public_actions(game.history, actors, deal_start, seat, view),
        "deals": deal_rows(game) if rows is None else rows,
    }


def table_options(ruleset: Ruleset, players: int) -> list[dict[str, Any]]:
    """The table options in force that have a say at ``players`` players, as the table page
    lists them: ``[{"name", "value"}]`` (their words are in :func:`table_words`)."""
    return [
        {"name": name, "value": ruleset.selected.get(name, o.default)}
        for name, o in ruleset.options.items()
        if o.applies_to(players)
    ]


def table_words(ruleset: Ruleset, players: int) -> dict[str, dict[str, str]]:
    """The game words of a table in every language (``{lang: {key: text}}``), all from the
    rule book's terms (:mod:`tysiac_spec.docs.terms`): the page's game words
    (:data:`~tysiac_spec.docs.terms.TABLE_WORDS`), ``opt.<name>`` and ``opt.<name>=<value>``
    for the table options (:func:`table_options`), and ``kind.<id>`` for the named
    contracts of the table's form.  The same object for every table of the same rules (kept
    for the last :data:`WORDS_KEPT` rules: 500 tables hold one copy, not 500)."""
    key = (ruleset.id, ruleset.content_hash, players, repr(sorted(ruleset.selected.items())))
    found = _WORDS.get(key)
    if found is None:
        found = _WORDS[key] = _table_words(ruleset, players)
        while len(_WORDS) > WORDS_KEPT:
            del _WORDS[next(iter(_WORDS))]
    return found


WORDS_KEPT = 64
_WORDS: dict[tuple[str, str, int, str], dict[str, dict[str, str]]] = {}


def _table_words(ruleset: Ruleset, players: int) -> dict[str, dict[str, str]]:
    kinds = ruleset.form(players).contract.kinds if players in ruleset.player_counts else ()
    out: dict[str, dict[str, str]] = {}
    for lang in LANGS:
        words = {key: terms.pick(texts, lang) for key, texts in terms.TABLE_WORDS.items()}
        for o in table_options(ruleset, players):
            name, value = o["name"], o["value"]
            words[f"opt.{name}"] = terms.option_name(name, lang, ruleset.options[name].doc)
            words[f"opt.{name}={terms.option_text(value)}"] = terms.option_value(name, value, lang)
        for k in kinds:
            words[f"kind.{k.id}"] = terms.kind_name(k.id, k.name, lang)
        out[lang] = words
    return out


SPRITES_KEPT = 64
"""Card sprites the server keeps to serve (the newest; a deck's is made again when a client
is sent its URL)."""

_sprites: dict[str, str] = {}
_sprites_lock = threading.Lock()


def sprite_url(deck: Deck) -> str:
    """The path of ``deck``'s card pictures, ``/cards/<key>.svg`` (``key``: 16 hex digits of
    the SHA-256 of the sprite, so a URL names one drawing), the sprite
    :func:`tysiac_spec.docs.cards.sprite_file` draws, kept for :func:`sprite_text`."""
    text = cards.sprite_file(deck)
    key = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    with _sprites_lock:
        _sprites.pop(key, None)
        _sprites[key] = text
        while len(_sprites) > SPRITES_KEPT:
            del _sprites[next(iter(_sprites))]
    return f"/cards/{key}.svg"


def sprite_text(key: str) -> str | None:
    """The sprite (SVG text) named ``key`` by :func:`sprite_url`, or ``None`` when this server
    has not given that URL (or no longer keeps it)."""
    with _sprites_lock:
        return _sprites.get(key)


def deck_json(ruleset: Ruleset) -> dict[str, Any]:
    """The deck's suits and ranks (strongest rank first) with their letters, symbols, points
    and names, and ``sprite``: the URL of its card pictures (:func:`sprite_url`)."""
    deck = ruleset.deck
    return {
        "sprite": sprite_url(ruleset.deck),
        "suits": [
            {"id": s.id, "letter": s.letter, "symbol": s.symbol, "names": dict(s.names)} for s in deck.suits
        ],
        "ranks": [
            {"id": r.id, "letter": r.letter, "points": r.points, "names": dict(r.names)}
            for r in sorted(deck.ranks, key=lambda r: -r.strength)
        ],
    }


def ruleset_json(ruleset: Ruleset) -> dict[str, Any]:
    """A ruleset as the start page lists it: id, kind, names, ``sprite`` (its cards' pictures,
    :func:`sprite_url`), player counts and options (each
    with its ``label`` and its values' words, ``values``, in every language: the rule book's
    terms)."""
    options = []
    for name, o in ruleset.options.items():
        values = list(o.choices or ()) if o.type == "choice" else [True, False] if o.type == "bool" else []
        options.append(
            {
                "name": name,
                "type": o.type,
                "default": o.default,
                "choices": list(o.choices or ()),
                "minimum": o.minimum,
                "maximum": o.maximum,
                "doc": dict(o.doc or {}),
                "label": {lang: terms.option_name(name, lang, o.doc) for lang in LANGS},
                "values": {
                    terms.option_text(v): {lang: terms.option_value(name, v, lang) for lang in LANGS}
                    for v in values
                },
            }
        )
    return {
        "id": ruleset.id,
        "kind": ruleset.kind,
        "names": {lang: ruleset.title(lang) for lang in LANGS},
        "sprite": sprite_url(ruleset.deck),
        "players": list(ruleset.player_counts),
        "options": options,
    }


def _small_text(path: Path) -> str:
    """A shipped ruleset's text, for the source line of a diagnostic ("" if unreadable)."""
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def diagnostic_json(d: Diagnostic, *, file: str, source: str) -> dict[str, Any]:
    """A diagnostic of the house-rule file ``file`` (its text ``source``) as the page shows
    it, with ``text`` exactly as ``tysiac validate`` prints it for that file.  The source
    line is taken from ``source`` for the file itself and from the shipped file for a parent
    (only shipped ids may be extended); no other file is read."""
    shipped = d.file is not None and Path(d.file).resolve().is_relative_to(RULESETS_DIR.resolve())
    if d.file is None or d.file == file:
        text = d.render(source=source)
    else:  # a parent: named without the server's folders (a shipped file by its own name)
        shown = (Path(d.file).resolve().relative_to(RULESETS_DIR.resolve()).as_posix() if shipped
                 else Path(d.file).name)
        parent = _small_text(Path(d.file)) if shipped else ""
        text = dataclasses.replace(d, file=shown).render(source=parent)
    return {
        "code": d.code,
        "message": d.message,
        "line": d.line,
        "column": d.column,
        "path": format_path(d.path) if d.path else None,
        "text": text,
    }
