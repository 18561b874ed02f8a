"""The web table's wire protocol (version 1): HTTP routes, websocket frames, error and close
codes, and the bounds on what a client may send.  No I/O here: the parser of client frames
(:func:`parse_frame`) and the constants the server, the tests and the page share.

Every card and action is written in the engine's notation (:mod:`tysiac_spec.engine.actions`):
cards ``QH``, ``TS``, ``9C`` (rank letter, suit letter of the ruleset's deck); actions
``bid 110``, ``pass``, ``talon 1``, ``give 9S to 2``, ``discard 9S``, ``contract 120``,
``play QH``, ``play QH marriage``, ``marriage hearts``, ``contra``, ``buy``, ``claim``, …
A client never builds an action: it sends one of the texts the server listed in ``legal``.
Seats are numbered from 0.  Every JSON body is UTF-8; every text the page shows is rendered
with ``textContent``.

HTTP routes
-----------

=========================================  ==================================================
``GET /``                                  start page (``static/index.html``)
``GET /t/<table>``                         the table page (``static/table.html``); the secret
                                           is in the URL fragment: ``#seat=<token>``,
                                           ``#host=<token>`` or ``#watch=<token>``
``GET /static/<path>``                     the page's files (CSS, ES modules)
``GET /cards/<key>.svg``                   a deck's card pictures, an SVG sprite
                                           (``docs/cards.py``): ``#card-QH``, ``#card-back``,
                                           ``#suit-H``; ``key`` from a ``sprite`` field below
``GET /rules/<id>?lang=en``                a shipped ruleset's rule book, HTML
``GET /compare?lang=en``                   the comparison of the shipped variants, HTML
``GET /api/rulesets``                      the shipped rulesets (below)
``POST /api/rulesets/check``               validate a house-rule file (below)
``GET /w``, ``GET /w/<house>``             the house-rule workbench (``static/workbench.html``):
                                           a new house file; a saved one
``POST /api/rulesets/book``                ``{"text", "lang"}`` → the file's rule book, HTML;
                                           422 with the ``check`` answer when it has errors
``POST /api/rulesets/compare``             ``{"text", "lang"}`` → what differs from the one
                                           ruleset it extends (``docs.compare.to_json``)
``GET /api/rulesets/controls``             ``?base=<id>&lang=`` → the workbench's form: one
                                           control per rule (:func:`.workbench.controls`)
``POST /api/rulesets/house``               ``{"base", "changes", "id", "name",
                                           "previous"?}`` → ``{"text"}`` (the house YAML);
                                           ``{"text"}`` → ``{"base", "id", "name",
                                           "changes", "other"}``
``POST /api/houses``                       ``{"text"}`` (a valid file) → 201 ``{"house",
                                           "url", "id"}``: kept under ``/w/<house>``
``GET /api/houses/<house>[.yaml]``         ``{"house", "text"}``; ``.yaml``: the file
``POST /api/studies``                      ``{"text", "matches"?, "seconds"?, "players"?}`` →
                                           202, the study queued (:mod:`.studies`); over a
                                           bound 400, the queue full 429, naming the bound
``GET /api/studies/<id>``                  ``{"state", "position", "done", "total",
                                           "result"?, "error"?}``; ``GET /studies/<id>``: its page
``POST /api/tables``                       create a table (below), 201
``GET /api/tables/<t>/state``              the caller's state (Bearer token), 200
``POST /api/tables/<t>/actions``           act (Bearer token), 200 with the new state
``GET /api/tables/<t>/record``             the match record, ``tysiac play --save`` format
                                           (Bearer token of the table); 403 ``not_over``
                                           until the match is over; ``?match=N`` for an
                                           earlier match of the table (a rematch)
``GET /api/tables/<t>/ruleset``            the uploaded house-rule text of the table
                                           (Bearer), ``text/yaml``; 404 for a shipped id
``GET /api/metrics``                       from 127.0.0.1 only: server-side time per action
                                           (``p50_ms``, ``p99_ms``, ``max_ms``), ``rss_mb``,
                                           ``tables``, ``sockets`` (benchmarks)
``POST /api/qr``                           ``{"text": "<url>"}`` → an SVG QR code
                                           (``image/svg+xml``; POST so a secret link never
                                           lands in a URL or a log)
``WS /t/<table>/ws``                       the table socket (below)
``GET /s``, ``GET /s/<sheet>``             the scoresheet page (``static/sheet.html``): a new
                                           sheet; a sheet, editable with ``#edit=<token>``
``POST /api/sheets``                       a sheet (:mod:`.sheets`), 201: ``{"ruleset": id`` or
                                           ``"ruleset_text"``, ``"players"``, ``"names"``,
                                           ``"options"``, ``"dealer"}`` or ``{"sheet_text"}``
                                           → ``sheet``, ``edit`` and ``edit_token``, ``view``
                                           (the read-only link) and the sheet's view
``GET /api/sheets/<s>``                    the sheet: ``version``, ``names``, ``rows``,
                                           ``totals``, ``winner``, ``next`` (no token needed)
``POST /api/sheets/<s>/next``              ``{"answers": {key: text}, "lang"?}`` → the next
                                           question of ``tysiac score`` (its ``prompt``,
                                           ``label`` and every question's ``labels`` in
                                           ``lang``: en, pl, ru, cs) or ``{"done": true}``
``POST /api/sheets/<s>/deals``             ``{"version", "answers"}`` → 201, the sheet
``DELETE /api/sheets/<s>/deals/last``      undo (``?version=`` or a body), → the sheet
``GET /api/sheets/<s>/export``             ``{"sheet": <tysiac score --sheet file text>,
                                           "ruleset", "version"}``; ``?download=1``: the file
``PUT /api/sheets/<s>``                    import ``{"version", "sheet_text"}`` → the sheet
``POST /api/sheets/<s>/new-rules``         ``{"version"}``: go on under changed rules
                                           (sheet writes: ``Authorization: Bearer <edit
                                           token>``, else 403 ``read_only``; 409 ``stale``
                                           with the current ``version``; 422 ``entry.*``)
=========================================  ==================================================

``GET /api/rulesets`` → ``{"rulesets": [R, …], "bots": ["heuristic", "random", "strong"],
"languages": ["en", "pl", "ru", "cs"]}``, with each ``R``::

    {"id": "pl-standard", "kind": "variant", "names": {"en": "…", "pl": "…", …},
     "sprite": "/cards/<key>.svg", "players": [2, 3, 4],
     "options": [{"name": "five_rounds", "type": "choice", "default": "down",
                  "choices": ["down", "up"], "minimum": null, "maximum": null,
                  "doc": {"en": "…", "pl": "…"}}]}

``type`` is ``bool``, ``choice`` or ``int`` (as in the ruleset file; ``choices`` empty
unless ``choice``).  ``doc`` holds the languages the ruleset writes (fall back to ``en``).

``POST /api/rulesets/check`` with ``{"text": "<yaml>"}`` (the workbench) → 200 ``{"ok": bool,
"errors": [D, …], "id": "<the file's id>" | null}``, checked as ``tysiac validate`` checks a
file, every value of every table option included.  With ``{"ruleset_text": "<yaml>",
"options": {…}?}`` (a table's file with its options) → 200
``{"ok": true, "ruleset": R}`` (``R`` as above, with ``"id"`` the file's own id), or 200
``{"ok": false, "diagnostics": [D, …]}`` with each ``D``::

    {"code": "schema.enum", "message": "…", "line": 3, "column": 9, "path": "auction.step",
     "text": "house.yaml:3:9: error[schema.enum]: …\\n  3 | …\\n    |   ^"}

``text`` is exactly what ``tysiac validate`` prints for the same file saved as
``house.yaml``.  An uploaded file may ``extends`` shipped ruleset ids, and the ids of
house files saved on the server (``/w/<house>``), only; a path
(``extends: ../x.yaml``, ``/etc/passwd``) is refused with the diagnostic
``upload.extends-path`` and never opened.  The text is bounded by the project's limits
(``limit.*`` diagnostics).

``POST /api/tables`` with::

    {"ruleset": "pl-standard"            (or "ruleset_text": "<yaml>"),
     "players": 3, "options": {"five_rounds": "up"},
     "seats": ["human", "bot:heuristic", "human"],      (one per seat; "bot:random", …)
     "names": ["Ala", null, "Ola"]?,                    (optional; defaults "Player 1", …)
     "host_seat": 0?,                  (the human seat the host plays; default the first
                                        human seat; null: the host only watches)
     "chat": true?, "spectators": false?, "grace": 60?,  (grace: seconds, 0 to 3600)
     "hints": true?          (the seats may ask for a hint: the ``hint`` frame below)
     "seed": 123?            (refused with 403 unless the server runs with
                              TYSIAC_WEB_SEEDS=1: tests and benchmarks only)}

A table of bots only is played by the server from when it is made (the host watches it;
the bots move in chunks of 400 actions between other work, each chunk broadcast as a
``state``; such a match stops after 20,000 actions, or 500 deals, if no bot has reached
the target: ``TYSIAC_MAX_WEB_ACTIONS``, ``TYSIAC_MAX_WEB_DEALS``).
Bots reply to a human within the same answer.

→ 201::

    {"table": "<id>", "host": "<url /t/<id>#host=<token>>", "host_token": "<token>",
     "watch": "<url #watch=<token>>" | null, "watch_token": "<token>" | null,
     "seats": [{"seat": 0, "kind": "human", "name": "Ala", "token": "<token>",
                "url": "<url /t/<id>#seat=<token>>"},
               {"seat": 1, "kind": "bot", "bot": "heuristic", "name": "heuristic"}, …]}

Errors: 400 ``bad_request`` (shape), 422 ``ruleset_invalid`` (with ``"diagnostics"`` as
above beside ``"error"``) or ``bad_options`` or ``bad_seats``.

``GET /api/tables/<t>/state`` and ``POST /api/tables/<t>/actions`` take the header
``Authorization: Bearer <token>`` (a seat token; the host token acts as the host's seat).
The answer is a STATE body (below, without ``"type"``).  The POST body is
``{"version": v, "action": "<text>"}``.  The answer comes after the bots' replies.

HTTP errors are ``{"error": {"code": "…", "message": "…"}}``: 400 ``bad_request``, 401
``bad_token`` (no ``Authorization`` or a token unknown to the table), 403 ``forbidden``
(a watch token acting; a record before the end: ``not_over``), 404 ``no_table``, 409
``stale`` (``version`` is not the current one; the body also carries ``"version"``), 422
``illegal`` (an action not in ``legal``) or ``not_your_turn``, 413 ``too_large``, 429
``rate`` (more than 60 tables made or files checked in an hour from one address other than
127.0.0.1).  The message is the server's own words: never an engine diagnostic.

The websocket ``/t/<table>/ws``
-------------------------------

JSON text frames, at most :data:`MAX_FRAME` bytes (a larger one gets the error
``too_large``; one over 64 KiB is closed by the websocket layer with 1009).  The socket
checks ``Origin`` (same host as the page, or none).  The first frame must be ``hello``
within :data:`HELLO_SECONDS`.

Client → server (``type`` and fields):

- ``hello``: ``proto`` (1), ``token``, ``lang`` (``en|pl|ru|cs``, optional), ``since``
  (the last version seen, optional).  Answer: ``welcome``, then ``state``.
- ``act``: ``v`` (the current version), ``a`` (an action text from ``legal``), ``req``
  (optional client request id, a string ≤ 40 chars; an ``act`` re-sent with a ``req``
  already applied is not applied again, the server answers ``state``).
- ``chat``: ``text`` (1–300 characters); refused with ``chat_off`` when the host has
  switched chat off; watchers cannot chat.
- ``name``: ``name`` (1–24 characters, no control characters): rename one's own seat.
- ``seat_bot``: ``seat``, ``bot`` (``heuristic``/``random``) — host only: a human seat whose
  player is not connected and has been away at least the grace period (``now −
  seats[i].away_since`` ≥ ``settings.grace`` seconds, or never connected) is played by that
  bot (else the error ``not_away``).  The player takes the seat back by opening
  the seat link again (a ``hello`` with the seat's token).
- ``hint``: ``v`` (the current version): at one's own turn, what the ``strong`` bot would
  do in one's place, judged from this seat's view of the deal only (never another hand).
  Answer, to this connection only: ``hint``. Refused with ``hints_off`` when the host has
  switched hints off, ``forbidden`` for watchers and a host without a seat,
  ``not_your_turn``, ``stale``, ``over``.
- ``settings``: ``chat`` (bool, optional), ``spectators`` (bool, optional), ``hints``
  (bool, optional) — host only.
- ``rematch``: host only, after the match is over: a new match, same seats, new seed.
- ``ping``: ``t`` (any number) → ``pong`` with the same ``t``.

Server → client:

- ``welcome``: ``proto``, ``table``, ``role`` (``seat``, ``host`` or ``watcher``), ``seat``
  (int or null), ``host`` (bool: the host's rights), ``ruleset`` (``{"id", "names"}``),
  ``players``, ``deck`` (``{"suits": [{"id": "hearts", "letter": "H", "symbol": "♥",
  "names": {…}}], "ranks": [{"id": "ace", "letter": "A", "points": 11, "names": {…}}]}``,
  strongest rank first; ``"sprite": "/cards/<key>.svg"``, its pictures), ``settings``
  (``{"chat", "spectators", "hints", "grace"}``), ``lang``,
  ``options`` (the table options in force: ``[{"name": "gold_set", "value": true}, …]``) and
  ``words`` (``{"en": {key: text}, "pl": …, "ru": …, "cs": …}``: the game's words from the
  rule book's terms, ``tysiac_spec/docs/terms.py``: the actions (``act.*``), what a player
  did (``said.*``), the phases (``phase.*``), ``opt.<name>`` and ``opt.<name>=<value>`` for
  the options, ``kind.<id>`` for the named contracts; the page keeps only its interface
  words).
- ``state``: the STATE body below with ``"type": "state"``; sent after every change to
  every socket of the table, each its own view.
- ``deal_over``: ``deal`` (0-based number), ``row`` (the deal's row of the score table,
  below), ``trick`` (the plays that closed the deal, ``[[seat, card], …]``, for the
  animation); sent after the ``state`` that ends a deal.
- ``match_over``: ``winners`` (seats), ``record`` (the record URL path).
- ``presence``: ``seat``, ``connected`` (bool).
- ``chat``: ``seat`` (int or null for the host watching), ``name``, ``text``, ``at``
  (seconds since the epoch).  Sent to seats and host (not watchers).
- ``pong``: ``t``.
- ``hint``: ``v`` (the version it answers), ``a`` (an action text from ``legal``): the
  answer to one's own ``hint``, sent to that connection only.
- ``error``: ``code``, ``message``, ``req`` (when the frame had one).  The connection stays
  open; see the codes below.

The STATE body (one serializer, :mod:`.views`)::

    {"version": 17,                    (actions applied in this match)
     "match": 1,                       (match number at the table; a rematch adds 1)
     "seat": 0 | null,                 (null: a watcher / the host not seated)
     "over": false, "winners": [],
     "legal": ["bid 110", "bid 120", …, "pass"],   (empty unless it is this seat's turn)
     "scores": [0, 120, -10],          (by seat)
     "seats": [{"seat": 0, "name": "Ala", "kind": "human" | "bot", "bot": null | "heuristic",
                "connected": true, "away_since": null | 1765000000.5, "handed": false}, …],
                (handed: a human seat played by a bot for now; connected: a socket of that
                 seat is open (always false for bots); away_since: when its last socket
                 closed, seconds since the epoch; null while connected or never connected)
     "settings": {"chat": true, "spectators": false, "hints": true, "grace": 60},
     "view": {
        "phase": "auction",            (auction, talon, exchange, contract, marriages,
                                        play, dark, redeal, contra, rebuy, over)
        "turn": 1 | null,              (the seat to act; null when over)
        "dealer": 0, "sitter": null | 2,
        "hand": ["TH", "QH", …],       (this seat's own cards only; [] for watchers)
        "hand_sizes": [[1, 7], [2, 7], [0, 7]],      ([seat, cards] pairs)
        "talon": ["KS", …],            (only the talon cards this seat sees)
        "given": [[2, "9S"], …],       (cards given in the exchange this seat sees: [to, card])
        "bids": [[1, "bid 100"], [2, "pass"], …],    ([seat, the bid's action text] in order)
        "declarer": null | 1, "contract": 0, "kind": null | "<named contract id>",
        "trump": null | "hearts",      (a suit id)
        "trick": [[1, "QH"], …],       ([seat, card] in play order)
        "tricks": [[1, 0], …],         ([seat, tricks taken])
        "declared": [[1, "hearts"], …],([seat, suit id] of marriages declared)
        "stock": 0, "stock_card": null | "9C",
        "open_hand": [],               (the declarer's hand played face up, when so)
        "contra": 1, "price": 0},
     "last": [{"v": 17, "seat": 2, "action": "play QH"}, …],
                (the public actions of the current deal so far, oldest first, at most 60;
                 an action of another seat that moves a hidden card reads
                 "give ? to 2" / "discard ?" unless this seat saw the card)
     "deals": [ROW, …]}                (the match score table, one row per finished deal)

A ROW: ``{"deal": 0, "changes": [120, -100, 0], "scores": [120, -100, 0], "events":
[EV, …]}`` and an ``EV``: ``{"kind": "contract.made", "seat": 1 | null, "value": 120 |
null, "text": "<the engine's words, English>", "words": {"en": "…", "pl": "…", "ru": "…",
"cs": "…"} | null}`` (``words``: the rule book's phrase for the event, with its value,
told after the seat's name: ``rzuca bombę −120``; ``null`` for a kind it has no words
for: then show ``text``).

Error codes (``error.code``, HTTP and websocket): :data:`ERRORS`.  Close codes:
:data:`CLOSE` (when the server stops, uvicorn may close with 1012 "service restart" instead
of 1001: reconnect as well).  A client reconnects after any close except 4401, 4403, 4404 and 4409,
with backoff, and sends ``hello`` with ``since``; it always receives the full state.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Mapping
from typing import Any

__all__ = [
    "CHAT_CHARS",
    "CLOSE",
    "ERRORS",
    "HELLO_SECONDS",
    "LANGS",
    "MAX_BODY",
    "MAX_FRAME",
    "NAME_CHARS",
    "PROTO",
    "BadFrame",
    "clean_name",
    "finite_float",
    "parse_frame",
]

PROTO = 1
"""The protocol version (``hello.proto``, ``welcome.proto``)."""

MAX_FRAME = 16 * 1024
"""The largest websocket frame a client may send, in bytes."""

MAX_BODY = 300 * 1024
"""The largest HTTP request body, in bytes (a house-rule file is bounded by the project's
``ruleset_bytes`` limit below it)."""

HELLO_SECONDS = 5.0
"""A socket that sends no ``hello`` within this many seconds is closed with 4408."""

CHAT_CHARS = 300
NAME_CHARS = 24
LANGS = ("en", "pl", "ru", "cs")

ERRORS: Mapping[str, str] = {
    "bad_request": "the request is not what this route takes",
    "bad_message": "the frame is not a message of the protocol",
    "bad_token": "no token, or a token this table does not know",
    "forbidden": "this link may not do that",
    "no_table": "there is no such table",
    "stale": "the game has moved on; here is the current state",
    "illegal": "that action is not legal now",
    "not_your_turn": "it is not your turn",
    "over": "the match is over",
    "not_over": "the record is shown when the match is over",
    "chat_off": "the host has switched the chat off",
    "hints_off": "the host has switched hints off",
    "rate": "too many messages; slow down",
    "too_large": "the message is too large",
    "ruleset_invalid": "the ruleset has errors",
    "bad_options": "an option is unknown or has a value it does not take",
    "bad_seats": "the seats are not one human or bot per player",
    "not_away": "the seat's player is connected or within the grace period",
    "rules_failed": "the table's rules failed on this action; the table is back at its last stored move",
    "server": "the server failed; the table is unchanged",
    "no_upload": "this table plays a shipped ruleset: see /api/rulesets",
    "no_house": "there is no saved house-rule file with this id",
    "no_study": "there is no such study (finished studies are kept for a while only)",
    "study_unavailable": "studies need SciPy, the study extra: pip install 'tysiac-spec[study]'",
    "wrong_host": "this server answers to its IP addresses and localhost (and TYSIAC_WEB_HOSTS)",
}
"""Every error code, with the default message (a reply may say more, in its own words)."""

CLOSE: Mapping[str, int] = {
    "going_away": 1001,  # the server stops: reconnect
    "bad_messages": 4400,  # too many bad frames
    "bad_token": 4401,  # no or unknown token in hello
    "forbidden": 4403,  # e.g. watching while spectators are off; Origin refused
    "no_table": 4404,
    "no_hello": 4408,  # no hello in time
    "replaced": 4409,  # the same seat opened elsewhere; the newest connection wins
    "rate": 4429,  # sustained flooding
}
"""Websocket close codes."""

_TYPES: dict[str, dict[str, tuple[type | tuple[type, ...], bool]]] = {
    # type -> field -> (python type(s), required)
    "hello": {"proto": (int, True), "token": (str, True), "lang": (str, False), "since": (int, False)},
    "act": {"v": (int, True), "a": (str, True), "req": (str, False)},
    "chat": {"text": (str, True)},
    "name": {"name": (str, True)},
    "seat_bot": {"seat": (int, True), "bot": (str, True)},
    "settings": {"chat": (bool, False), "spectators": (bool, False), "hints": (bool, False)},
    "hint": {"v": (int, True)},
    "rematch": {},
    "ping": {"t": ((int, float), False)},
}


class BadFrame(ValueError):
    """A client frame that is not a message of the protocol; ``code`` is an :data:`ERRORS`
    key (``bad_message`` or ``too_large``) and the message says what is wrong, in words safe
    to send back."""

    def __init__(self, message: str, code: str = "bad_message") -> None:
        super().__init__(message)
        self.code = code


def parse_frame(text: str | bytes) -> dict[str, Any]:
    """One client frame as a checked dict: ``{"type": …, <fields>}``.

    Raises:
        BadFrame: larger than :data:`MAX_FRAME`, not a JSON object, an unknown ``type``, a
            missing field, a field of the wrong type, or an unknown field.
    """
    if isinstance(text, bytes):
        if len(text) > MAX_FRAME:
            raise BadFrame(f"frames are at most {MAX_FRAME} bytes", "too_large")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise BadFrame("a frame is UTF-8 JSON text") from None
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FRAME:
        raise BadFrame(f"frames are at most {MAX_FRAME} bytes", "too_large")
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_float=finite_float)
    except (ValueError, RecursionError):
        raise BadFrame("a frame is one JSON object") from None
    if not isinstance(data, dict):
        raise BadFrame("a frame is one JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _TYPES:
        known = ", ".join(sorted(_TYPES))
        raise BadFrame(f"unknown frame type (known: {known})")
    fields = _TYPES[kind]
    for name in data:
        if name != "type" and name not in fields:
            raise BadFrame(f"`{kind}` has no field `{_short(name)}`")
    for name, (types, required) in fields.items():
        if name not in data:
            if required:
                raise BadFrame(f"`{kind}` needs the field `{name}`")
            continue
        value = data[name]
        if isinstance(value, bool) and types is not bool:
            raise BadFrame(f"`{kind}.{name}` has the wrong type")
        if not isinstance(value, types):
            raise BadFrame(f"`{kind}.{name}` has the wrong type")
    return data


def finite_float(text: str) -> float:
    """A JSON number with a fraction or exponent as a float (``json.loads(parse_float=…)``).

    Raises:
        ValueError: it is not finite (``1e400`` is infinity, which JSON cannot write back).
    """
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(name)


def _short(text: str) -> str:
    return text[:20] + "…" if len(text) > 20 else text


_CONTROL = re.compile(r"[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def clean_name(text: str, most: int = NAME_CHARS) -> str | None:
    """``text`` in NFC, stripped, when it has 1 to ``most`` characters and no control or
    bidi-override character; else ``None``."""
    name = unicodedata.normalize("NFC", text).strip()
    if not 1 <= len(name) <= most or _CONTROL.search(name):
        return None
    return name
