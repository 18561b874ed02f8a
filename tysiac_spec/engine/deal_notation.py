"""Deal notation: one line of text for a deal (dealer, hands, talons, stock), like bridge's PBN.

A deal is written as the dealer's seat, a colon, every player's hand from seat 0 on separated
by ``/``, then ``|`` and the talons in order separated by ``/``, then, when the form has a
stock (``table.stock``), ``|`` and the stock from its top to its face-up bottom card::

    1:9S TS JS QS KS AS 9H / TH JH QH KH AH 9D TD / JD QD KD AD 9C TC JC | QC KC AC

(no blank after the colon, as in bridge's PBN ``N:…``: so the line is a plain YAML scalar, and
a scenario file may write ``deal: 1:9S TS …`` unquoted; a blank there is read too).

Cards are written in the pack's own notation (:mod:`tysiac_spec.cards`: ``AS``, ``TH``,
``10h``, ``Q♥``), blank-separated; ``-`` is an empty pile: the hand of a player who sits the
deal out (``table.sitter``) or an empty talon.  Nothing in the notation knows a pack size or a
rank: which cards exist, how many each hand holds and whether every card is dealt once is the
ruleset's question, answered by :meth:`~tysiac_spec.engine.game.Game.start_deal` (and by
:meth:`Deal.check` for the cards alone).

:meth:`Deal.parse` and ``str(deal)`` are a pair: ``Deal.parse(str(deal)) == deal``, and
``str(Deal.parse(text)) == text`` for a text written the canonical way (one blank around
``/`` and ``|``, none after the colon).  A text that is not a deal is refused with a
:class:`~tysiac_spec.errors.NotationError` of code ``notation.deal`` (the column of the
problem, counted from 1) or, with a pack given, ``notation.card`` at the card's column.

The notation is used by scenario files (a one-line ``deal:``), ``tysiac play --deal``, game
records (a hand-set deal, :class:`~tysiac_spec.engine.record.Record`) and error reports.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from ..cards import Card, Deck
from ..errors import Diagnostic, NotationError
from ..ruleset.model import Form
from ..text import shorten

__all__ = ["EMPTY", "STOCK_NAME", "Deal", "dealt_twice", "hand_name", "misfit", "talon_name"]

_C = TypeVar("_C", bound=Hashable)

STOCK_NAME = "the stock"
"""The stock as :func:`dealt_twice` names it."""


def hand_name(player: int) -> str:
    """A hand as :func:`dealt_twice` names it: ``player 2's hand``."""
    return f"player {player}'s hand"


def talon_name(index: int) -> str:
    """A talon as :func:`dealt_twice` names it: ``talon 0``."""
    return f"talon {index}"


def dealt_twice(piles: Iterable[tuple[str, Iterable[_C]]]) -> Iterator[tuple[int, _C, str]]:
    """Each card of a deal given again after its first place: the index of the pile where it
    is repeated, the card, and the message (the one wording of a repeated card, for
    :meth:`~tysiac_spec.engine.game.Game.start_deal` and the scenario files):
    ``QH is dealt twice: in player 0's hand and in talon 0``, or ``QH is dealt twice in
    player 2's hand`` when both are the same pile.

    Args:
        piles: the deal's piles in order, each as ``(name, cards)``; the names from
            :func:`hand_name`, :func:`talon_name` and :data:`STOCK_NAME`.
    """
    seen: dict[_C, str] = {}
    for index, (name, cards) in enumerate(piles):
        for card in cards:
            first = seen.get(card)
            if first is None:
                seen[card] = name
            elif first == name:
                yield index, card, f"{card} is dealt twice in {name}"
            else:
                yield index, card, f"{card} is dealt twice: in {first} and in {name}"

EMPTY = "-"
"""An empty pile: the hand of a player who sits the deal out, or an empty talon."""

_MAX_CHARS = 4000
"""The longest deal text read (far above any pack: a bound on untrusted input)."""


def misfit(
    form: Form,
    pack_size: int,
    order: Sequence[int],
    hands: Mapping[int, Sequence[Card]],
    talons: Sequence[Sequence[Card]],
    stock: Sequence[Card],
) -> str:
    """Why ``hands`` (by player), ``talons`` and ``stock`` are not a deal of ``form`` (a pack
    of ``pack_size`` cards) for the active players ``order``: hands for other players, a hand,
    talon or stock of the wrong size, a card dealt twice, or not every card of the pack (but
    ``table.left_out``); ``""`` when they are one."""
    table = form.table
    if sorted(hands) != sorted(order):
        return f"hands must be given for players {sorted(order)} (got {sorted(hands)})"
    if any(len(h) != table.hand_size for h in hands.values()):
        return f"each hand must hold {table.hand_size} cards"
    if [len(t) for t in talons] != list(table.talons):
        return f"talon sizes must be {list(table.talons)}"
    if len(stock) != (table.stock or 0):
        return f"the stock must hold {table.stock or 0} cards"
    twice = next(dealt_twice([
        *((hand_name(p), h) for p, h in sorted(hands.items())),
        *((talon_name(k), t) for k, t in enumerate(talons)), (STOCK_NAME, stock)]), None)
    if twice is not None:
        return twice[2]
    every = [c for h in hands.values() for c in h] + [c for t in talons for c in t] + list(stock)
    if len(set(every)) != pack_size - table.left_out:
        if table.left_out:
            return (f"the deal must hold {pack_size - table.left_out} different "
                    f"cards ({table.left_out} of the {pack_size} are left out)")
        return f"the deal must hold each of the {pack_size} cards once"
    return ""


def _error(message: str, column: int, code: str = "notation.deal", hint: str | None = None) -> NotationError:
    return NotationError(Diagnostic(code, message, line=1, column=column, hint=hint))


_HINT = "write `DEALER:HAND / HAND / … | TALON / … [| STOCK]`, e.g. `0:AS KS / QH JH | TC 9C`"


@dataclass(frozen=True, slots=True)
class Deal:
    """A deal as text: the dealer, the hands by seat, the talons, the stock.

    Attributes:
        dealer: the dealer's seat (0-based).
        hands: each seat's hand, seat 0 first, as card texts; an empty tuple for a seat dealt
            no hand (the sitter).
        talons: the talons in order (``table.talons``), as card texts.
        stock: the stock from its top to its face-up bottom card (``table.stock``; empty:
            none).
    """

    dealer: int
    hands: tuple[tuple[str, ...], ...]
    talons: tuple[tuple[str, ...], ...] = ()
    stock: tuple[str, ...] = ()

    def __str__(self) -> str:
        text = f"{self.dealer}:" + " / ".join(map(_pile, self.hands))
        talons = " / ".join(map(_pile, self.talons))
        text += f" | {talons}" if talons else " |"
        if self.stock:
            text += " | " + _pile(self.stock)
        return text

    @classmethod
    def parse(cls, text: str, deck: Deck | None = None, *, empty_hands: bool = False) -> Deal:
        """Read a deal written in deal notation (see the module docstring).

        Args:
            text: one line; blanks around ``:``, ``/`` and ``|`` are free.
            deck: when given, every card must be one of its cards, and the deal keeps each
                card's canonical text (``th`` → ``TH``, ``10H`` → ``TH``); without it the
                card texts are kept as written (checked later against a ruleset's pack).
            empty_hands: every hand may be empty (the piles of a position at a deal's end,
                :mod:`.position`); a deal names cards in its hands.

        Raises:
            NotationError: ``notation.deal`` (no dealer, no colon, no hand, a third ``|``,
                more than one line, too long), ``notation.card`` (with ``deck``: a text that
                is no card of it); the column is the problem's, counted from 1.
        """
        if not isinstance(text, str):
            raise _error(f"a deal is a text (got {type(text).__name__})", 1)
        if len(text) > _MAX_CHARS:
            raise _error(f"the deal text is too long ({len(text):,} characters; at most {_MAX_CHARS:,})", 1)
        for i, ch in enumerate(text):
            if ch in "\r\n" or (not ch.isprintable() and ch != "\t"):
                raise _error("a deal is written on one line, without control characters", i + 1)
        colon = text.find(":")
        head = text[:colon] if colon >= 0 else text
        start = len(head) - len(head.lstrip())
        dealer_text = head.strip()
        if colon < 0:
            raise _error("a deal opens with the dealer's seat and a colon (`0:…`)", start + 1, hint=_HINT)
        if not (dealer_text.isascii() and dealer_text.isdigit()) or len(dealer_text) > 3:
            shown = shorten(dealer_text) or "nothing"
            raise _error(f"the dealer must be a seat number (got `{shown}`)", start + 1, hint=_HINT)
        sections = list(_split(text[colon + 1 :], "|", colon + 2))
        if len(sections) > 3:
            column = sections[3][1] - 1
            raise _error("a deal has at most three parts: hands | talons | stock", column, hint=_HINT)
        hands = tuple(_piles(*sections[0], deck))
        if not any(hands) and not empty_hands:
            raise _error("the deal names no card in the hands", sections[0][1], hint=_HINT)
        talons: tuple[tuple[str, ...], ...] = ()
        if len(sections) > 1:
            talons = () if not sections[1][0].strip() else tuple(_piles(*sections[1], deck))
        stock: tuple[str, ...] = ()
        if len(sections) > 2:
            stock = _cards(*sections[2], deck)
        return cls(dealer=int(dealer_text), hands=hands, talons=talons, stock=stock)

    @classmethod
    def of(
        cls,
        dealer: int,
        hands: Mapping[int, Sequence[Card | str]],
        talons: Sequence[Sequence[Card | str]],
        stock: Sequence[Card | str] = (),
        *,
        players: int | None = None,
    ) -> Deal:
        """The deal of ``hands`` by seat (a seat missing or empty: no hand), ``talons`` and
        ``stock`` (cards or card texts), for ``players`` seats (default: up to the highest seat
        of ``hands``).  A hand given as one text (``"QH KH"``) is split at blanks and commas."""
        count = players if players is not None else max(hands, default=-1) + 1
        return cls(
            dealer=dealer,
            hands=tuple(_texts(hands.get(p, ())) for p in range(count)),
            talons=tuple(_texts(t) for t in talons),
            stock=_texts(stock),
        )

    def check(self, deck: Deck) -> Deal:
        """This deal with every card checked against ``deck`` and written canonically.

        Raises:
            NotationError: ``notation.card`` for the first text that is no card of ``deck``
                (its column in ``str(self)``).
        """
        return Deal.parse(str(self), deck)

    def start_args(self, deck: Deck | None = None) -> dict[str, object]:
        """The keyword arguments of :meth:`Game.start_deal
        <tysiac_spec.engine.game.Game.start_deal>` for this deal: ``hands`` of the seats dealt
        one, ``talons``, ``dealer``, ``stock`` (card texts; parsed against ``deck`` first when
        given)."""
        deal = self if deck is None else self.check(deck)
        return {
            "hands": {p: " ".join(h) for p, h in enumerate(deal.hands) if h},
            "talons": [" ".join(t) for t in deal.talons],
            "dealer": deal.dealer,
            "stock": " ".join(deal.stock),
        }

    def with_dealer(self, dealer: int) -> Deal:
        """The same cards dealt by ``dealer``."""
        return replace(self, dealer=dealer)


def _pile(cards: Sequence[str]) -> str:
    return " ".join(cards) or EMPTY


def _texts(cards: str | Sequence[Card | str]) -> tuple[str, ...]:
    if isinstance(cards, str):
        return tuple(cards.replace(",", " ").split())
    return tuple(str(c) for c in cards)


def _split(text: str, sep: str, column: int) -> Iterator[tuple[str, int]]:
    """The parts of ``text`` between ``sep``, each with its 1-based column in the line
    (``text`` starts at ``column``)."""
    for part in text.split(sep):
        yield part, column
        column += len(part) + 1


def _piles(part: str, column: int, deck: Deck | None) -> Iterator[tuple[str, ...]]:
    for pile, at in _split(part, "/", column):
        yield _cards(pile, at, deck)


def _cards(part: str, column: int, deck: Deck | None) -> tuple[str, ...]:
    """The card texts of one pile (``-``: none), each checked against ``deck`` when given."""
    words: list[tuple[str, int]] = []
    i = 0
    while i < len(part):
        if part[i].isspace() or part[i] == ",":
            i += 1
            continue
        j = i
        while j < len(part) and not (part[j].isspace() or part[j] == ","):
            j += 1
        words.append((part[i:j], column + i))
        i = j
    if not words:
        raise _error("an empty pile is written `-`", column, hint=_HINT)
    if len(words) == 1 and words[0][0] == EMPTY:
        return ()
    out = []
    for word, at in words:
        if word == EMPTY:
            raise _error("`-` stands alone for an empty pile", at, hint=_HINT)
        if ":" in word:
            raise _error("a deal has one colon, after the dealer", at + word.index(":"), hint=_HINT)
        if deck is None:
            out.append(word)
            continue
        try:
            out.append(str(deck.parse(word)))
        except NotationError as exc:
            d = exc.diagnostic
            raise NotationError(Diagnostic(d.code, d.message, line=1, column=at, hint=d.hint)) from None
    return tuple(out)
