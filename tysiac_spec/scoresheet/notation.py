"""The scoresheet's notation: how a player, an amount, a yes or no, a list of players, the
declared marriages and the talon are written in an answer or a sheet file, and the engine's
outcome problems (:mod:`tysiac_spec.engine.outcome`) turned into the sheet's
:class:`~tysiac_spec.errors.EntryError` with the players named as on the sheet.

Players are numbered from 0 (seats ``0`` to ``N-1``, shown as ``P0``…, or by name), in the
file and in every answer (``1:H`` is a marriage of hearts declared by P1, the second seat).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from ..cards import Deck, Suit
from ..docs.terms import sheet_prompt
from ..errors import EntryError, MatchError, NotationError
from ..ruleset.model import Form
from ..text import printable, shorten
from .sheetfile import _NAME_WIDTH, Sheet, _err

__all__ = [
    "ACE_MARRIAGE",
    "marriage_example",
    "marriage_value",
    "parse_amount",
    "parse_marriages",
    "parse_player",
    "parse_players_list",
    "parse_yes_no",
    "seats_text",
]

ACE_MARRIAGE = "aces"
"""The marriage id used on the sheet for the four-aces marriage."""

_MAX_DIGITS = 18
"""Digits of the largest number an answer may give (a file's integers have at most 18)."""
_NUMBER = re.compile(r"[+-]?([0-9]+)")

def seats_text(players: int) -> str:
    """How a seat is written in an answer: ``seat 0 to 2, counting from 0`` (the words of
    the declarer question, :data:`~tysiac_spec.docs.terms.SHEET_PROMPTS`)."""
    return sheet_prompt("declarer.seats", "en", last=players - 1)


def marriage_example(form: Form, deck: Deck, lang: str = "en") -> str:
    """An example answer to the marriages question for ``form`` and what it means:
    ``1:H 2:D = P1 hearts, P2 diamonds`` (the last two seats, the first two suits with a
    marriage value; in another ``lang`` than ``en``, the suits' names in it from the pack)."""
    seats = range(max(form.players - 2, 0), form.players)
    ids = list(form.marriages.values)[:2] or [s.id for s in deck.suits[:2]]
    suits = [deck.suit(s) for s in ids]
    pairs = list(zip(seats, suits, strict=False))
    def named(s: Suit) -> str:
        return s.id if lang == "en" else str(s.names.get(lang) or s.id)

    meaning = ", ".join(f"P{p} {named(s)}" for p, s in pairs)
    return " ".join(f"{p}:{s.letter}" for p, s in pairs) + " = " + meaning


def parse_player(text: str, players: int, names: Sequence[str] = ()) -> int:
    """A player: a seat number counted from 0 (``1``), ``P1``, or a name on the sheet.

    Raises:
        EntryError: ``entry.player`` — no such player.
    """
    t = text.strip()
    low = t.lower()
    for i, n in enumerate(names):
        if n and n.lower() == low:
            return i
    if low.startswith("p"):
        low = low[1:]
    if low.isascii() and low.isdigit() and len(low) <= 6 and int(low) < players:
        return int(low)
    named = [shorten(printable(n, keep_newlines=False), _NAME_WIDTH) for n in names if n]
    raise _err("player", f"`{shorten(t)}` is not a player: give a {seats_text(players)}" + (
        f" or a name ({', '.join(named)})" if named else ""))


def parse_amount(text: str, what: str) -> int:
    """A whole number of points (at most 18 digits, more than any score).

    Raises:
        EntryError: ``entry.number`` — not a whole number, or one too large.
    """
    t = text.strip()
    number = _NUMBER.fullmatch(t)  # plain digits: not `1_000`, nor other scripts' digits
    if number is None:
        raise _err("number", f"{what} must be a whole number of points (got `{shorten(t)}`)")
    if len(number[1]) > _MAX_DIGITS:  # int() would refuse above 4,300 digits
        raise _err("number", f"{what} is too large: at most {_MAX_DIGITS} digits (got `{shorten(t, 24)}`)")
    return int(t)


def parse_yes_no(text: str) -> bool:
    """``y``/``yes`` or ``n``/``no`` (empty: no).

    Raises:
        EntryError: ``entry.yes-no``.
    """
    t = text.strip().lower()
    if t in ("y", "yes", "t", "tak", "da", "ano"):
        return True
    if t in ("", "n", "no", "nie", "net", "ne"):
        return False
    raise _err("yes-no", f"answer y or n (got `{shorten(text.strip())}`)")


def parse_players_list(text: str, players: int, names: Sequence[str] = ()) -> tuple[int, ...]:
    """Players separated by blanks or commas (``1 2``); empty or ``-`` for none.

    Raises:
        EntryError: ``entry.player`` — an unknown player or one named twice.
    """
    items = text.replace(",", " ").split()
    if items in ([], ["-"]):
        return ()
    out = [parse_player(i, players, names) for i in items]
    if len(set(out)) != len(out):
        raise _err("player", "a player is named twice")
    return tuple(sorted(out))


def parse_marriages(
    text: str, form: Form, deck: Deck, players: int, names: Sequence[str] = ()
) -> tuple[tuple[int, str], ...]:
    """Declared marriages: ``1:H 2:D`` (the seat, counted from 0, or the player's name, then
    the suit's letter, symbol or id: P1 hearts, P2 diamonds); ``1:A`` or ``1:aces`` for the
    four-aces marriage when the ruleset has it; empty or ``-`` for none.

    Raises:
        EntryError: ``entry.marriage`` — a malformed item, an unknown suit, a suit without a
            marriage value, or a marriage counted twice.
    """
    items = text.replace(",", " ").split()
    if items in ([], ["-"]):
        return ()
    ace_words = _ace_marriage_words(form, deck)
    out: list[tuple[int, str]] = []
    for item in items:
        who, sep, what = item.partition(":")
        if not sep or not what:
            raise _err("marriage", f"`{shorten(item)}` is not a marriage: write seat:suit, seats counting "
                       f"from 0, e.g. `{marriage_example(form, deck)}`")
        player = parse_player(who, players, names)
        if what.lower() in ace_words:
            suit = ACE_MARRIAGE
        else:
            try:
                suit = deck.suit(what).id
            except NotationError as exc:
                raise _err("marriage", shorten(exc.diagnostic.message, 300)) from None
        out.append((player, suit))
    for error in _iter_marriage_notation_errors(form, out):
        raise error
    return tuple(out)


def _ace_marriage_words(form: Form, deck: Deck) -> frozenset[str]:
    """What the sheet accepts (lower case) for the ace marriage: ``aces`` and, from its rank
    (``marriages.ace_marriage.rank``), the rank's id, letter (``a``) and four of it (``4a``)."""
    words = {ACE_MARRIAGE}
    try:
        rank = deck.rank(form.marriages.ace_marriage.rank)
    except NotationError:  # a pack without that rank (then the ruleset has no ace marriage)
        return frozenset(words)
    letter = rank.letter.lower()
    return frozenset({*words, rank.id.lower(), letter, f"4{letter}"})


def _iter_marriage_notation_errors(form: Form, marriages: Sequence[tuple[int, str]]) -> Iterator[EntryError]:
    """The sheet's marriages as ``(player, suit id)``: each suit has a marriage value (``aces``
    only when the ruleset has the ace marriage), none counted twice (``entry.marriage``)."""
    seen: set[str] = set()
    for _, suit in marriages:
        if suit == ACE_MARRIAGE:
            if not form.marriages.ace_marriage.enabled:
                yield _err("marriage", "this ruleset has no ace marriage")
        elif suit not in form.marriages.values:
            yield _err("marriage", f"`{shorten(suit)}` has no marriage value in this ruleset")
        if suit in seen:
            yield _err("marriage", f"the {shorten(suit)} marriage is counted twice")
        seen.add(suit)


def _marriage_points(form: Form, marriages: Sequence[tuple[int, str]]) -> dict[int, int]:
    """Declared marriage points by player (points) of the sheet's ``(player, suit id)`` list."""
    points: dict[int, int] = {}
    for p, suit in marriages:
        points[p] = points.get(p, 0) + marriage_value(form, suit)
    return points


def _iter_talon_errors(form: Form, deck: Deck, talon: Sequence[str]) -> Iterator[EntryError]:
    """The talon as dealt, in card notation: known cards, ``sum(table.talons)`` different ones
    (``entry.talon``)."""
    try:
        cards = deck.parse_many(" ".join(talon))
    except NotationError as exc:
        yield _err("talon", shorten(exc.diagnostic.message, 300))
        return
    size = sum(form.table.talons)
    if len(cards) != size or len(set(cards)) != size:
        yield _err("talon", f"give the {size} different cards of the talon as dealt")


_CODES = {
    "match": "sheet",
    "players": "player",
    "sitter": "player",
    "declarer": "player",
    "multiplier": "sheet",
    "contra": "contra",
    "sold": "sold",
    "all_pass": "player",
    "forfeited": "forfeit",
    "card_points": "points",
    "marriages": "marriage",
    "tricks": "player",
}
"""The ``entry.*`` code of an outcome problem, by the outcome field it names first
(``bid`` and ``contract`` keep their name; a ``mode`` problem is ``entry.dark`` or
``entry.golden``)."""

_PLAYER = re.compile(r"\bplayer (\d+)\b")


def _entry_error(error: MatchError, *, mode: str = "", sheet: Sheet | None = None) -> EntryError:
    """The engine's outcome problem ``error`` (:mod:`tysiac_spec.engine.outcome`) as an
    :class:`EntryError`; with ``sheet``, ``player 1`` in the message becomes the player's name
    on the sheet (``P1`` when none)."""
    d = error.diagnostic
    field_name = str(d.path[0]) if d.path else "match"
    code = mode if field_name == "mode" and mode in ("dark", "golden") else _CODES.get(field_name, field_name)
    message = d.message
    if sheet is not None:
        named = sheet
        message = _PLAYER.sub(lambda m: named.name(int(m[1])) if int(m[1]) < named.players else m[0], message)
    return _err(code, message)


def marriage_value(form: Form, suit: str) -> int:
    """Points of a declared marriage (the ace marriage's value for ``aces``)."""
    if suit == ACE_MARRIAGE:
        return form.marriages.ace_marriage.value
    return form.marriages.values[suit]

