"""Suits, ranks, cards and the deck, all built from a ruleset's ``deck`` section.

Nothing here knows the Tysiąc pack: ids, letters, symbols, trick order and card
points come from data (see ``rulesets/core.yaml``).  Card notation is rank then
suit: ``QH``, ``Q♥``, ``10H``, ``TH`` and ``th`` all parse to the queen... of hearts
and the ten of hearts respectively; :func:`str` prints the one canonical form
(rank letter + suit letter, ``TH``).

A card is read against a :class:`Deck`, whose data gives the letters: nothing here reads a
file.  The pack of the shipped ``core`` ruleset is :func:`tysiac_spec.ruleset.core_deck`;
a loaded ruleset's pack is ``ruleset.deck``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import FrozenInstanceError, dataclass, field

from .errors import Diagnostic, NotationError
from .text import shorten

__all__ = ["Card", "Deck", "Rank", "Suit"]


class _Named:
    """Equality, hashing and names shared by suits and ranks (which have ``id`` and ``names``).

    A suit or rank is equal to another of its kind with the same id, and to its id string
    (``suit == "hearts"``), which is how formulas of the DSL see it.
    """

    __slots__ = ()
    id: str
    names: Mapping[str, str]

    def __eq__(self, other: object) -> bool:
        if other.__class__ is str:  # the usual case in formulas (a rank compared with a rank id)
            return self.id == other
        if self is other:  # suits and ranks of one deck are shared objects
            return True
        if type(other) is type(self):
            return self.id == other.id
        if isinstance(other, str):
            return self.id == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.id)

    def name(self, lang: str = "en") -> str:
        """The name in ``lang``, falling back to English, then to the id."""
        return self.names.get(lang) or self.names.get("en") or self.id


@dataclass(frozen=True, slots=True, eq=False)
class Suit(_Named):
    """A suit of the pack.

    Attributes:
        id: stable identifier used in rulesets and formulas (``hearts``).
        letter: one upper-case letter used in card notation (``H``).
        symbol: the printed symbol (``♥``); also accepted when parsing.
        names: the suit's name per language code (``{"pl": "kier"}``).
    """

    id: str
    letter: str
    symbol: str
    names: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)

    def __str__(self) -> str:
        return self.letter



@dataclass(frozen=True, slots=True, eq=False)
class Rank(_Named):
    """A rank of the pack.

    Attributes:
        id: stable identifier (``ten``).
        letter: the canonical letter used in card notation (``T``).
        strength: position in trick order; a higher strength beats a lower one
            of the same suit (0 = lowest).
        points: card points counted by whoever wins the card in a trick (points, >= 0).
        aliases: other accepted spellings (``10`` for the ten).
        names: the rank's name per language code.
    """

    id: str
    letter: str
    strength: int
    points: int
    aliases: tuple[str, ...] = ()
    names: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)

    def __str__(self) -> str:
        return self.letter



class Card:
    """One card: a rank of a suit; an immutable value, built complete by its :class:`Deck`.

    ``index`` is the card's position in its :class:`Deck` (0-based), usable for bit sets.
    ``str(card)`` is the canonical notation (``QH``) and ``Card.parse`` reads it back.
    Two cards are equal when their rank and suit are (and hash alike); cards have no order.

    Attributes:
        rank: the :class:`Rank`.
        suit: the :class:`Suit`.
        index: the position in its deck (-1 for a card built outside a deck).
        suit_id: ``suit.id`` (``hearts``), read often by the engine.
        strength: ``rank.strength``, the position in trick order (0 = lowest).
        points: ``rank.points``, the card points of this card (points).
        bit: ``1 << index``: the card in a bit set of the pack's cards (0 outside a deck).
        suit_bits: the bit set of every card of this card's suit in its deck (0 outside a
            deck).
    """

    __slots__ = (
        "_hash", "bit", "index", "pack", "points", "rank", "strength", "suit", "suit_bits", "suit_id",
    )

    _hash: int
    rank: Rank
    suit: Suit
    index: int
    suit_id: str
    strength: int
    points: int
    bit: int
    suit_bits: int
    pack: tuple[Card, ...]
    """The cards of its :class:`Deck` (``deck.cards``; ``()`` outside a deck): bits are
    comparable between cards of one pack."""

    def __init__(
        self, rank: Rank, suit: Suit, index: int = -1, *, suit_bits: int = 0, pack: tuple[Card, ...] = ()
    ) -> None:
        """A card of ``rank`` and ``suit``; a :class:`Deck` gives each of its cards its
        ``index``, the ``suit_bits`` of its suit and the ``pack`` (its cards, this one among
        them: the Deck makes the card objects first and then builds each one with this
        constructor, once).

        Raises:
            FrozenInstanceError: the card was built already.
        """
        if hasattr(self, "rank"):
            raise FrozenInstanceError("a card is built once")
        values = (
            ("_hash", hash((rank.id, suit.id))), ("bit", 1 << index if index >= 0 else 0), ("index", index),
            ("pack", pack), ("points", rank.points), ("rank", rank), ("strength", rank.strength),
            ("suit", suit), ("suit_bits", suit_bits), ("suit_id", suit.id),
        )
        for name, value in values:
            object.__setattr__(self, name, value)  # an immutable value: set once, here

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __getstate__(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in Card.__slots__)

    def __setstate__(self, state: tuple[object, ...]) -> None:
        """A copy or an unpickled card (``copy.copy``, ``pickle``): the values of the original."""
        for name, value in zip(Card.__slots__, state, strict=True):
            object.__setattr__(self, name, value)

    def __eq__(self, other: object) -> bool:
        if self is other:  # the usual case: the cards of one deck are shared objects
            return True
        if type(other) is Card:
            return self.rank == other.rank and self.suit == other.suit
        return NotImplemented

    def __hash__(self) -> int:
        return self._hash  # hash((rank id, suit id)), made once

    def __str__(self) -> str:
        return f"{self.rank.letter}{self.suit.letter}"

    def __repr__(self) -> str:
        """``Card.parse('QH')``: the card's notation in a parse call; pasted back, the call also
        needs the card's pack (``Card.parse('QH', deck)``).  The text is unchanged from when
        ``Card.parse`` had a default deck (``benchmarks/engine_fingerprint.py`` hashes it)."""
        return f"Card.parse({str(self)!r})"

    def symbol(self) -> str:
        """Notation with the suit symbol, for display: ``Q♥``."""
        return f"{self.rank.letter}{self.suit.symbol}"

    @classmethod
    def parse(cls, text: str, deck: Deck) -> Card:
        """Parse card notation (``QH``, ``Q♥``, ``10H``, ``th``) against ``deck``: the same as
        ``deck.parse(text)``, and the inverse of ``str(card)``.

        Args:
            text: rank then suit; letters are case-insensitive; surrounding blanks ignored.
            deck: the pack whose letters, aliases and symbols are read (``ruleset.deck``, or
                :func:`tysiac_spec.ruleset.core_deck` for the shipped core pack).

        Returns:
            The deck's own card object (``deck.cards[i]``), not a copy.

        Raises:
            NotationError: ``notation.card``, the text names no card of the deck; the message
                quotes it and lists the deck's rank and suit letters.
        """
        return deck.parse(text)


class Deck:
    """The pack: suits, ranks (in trick order) and every card, with notation lookup.

    Build it from data with :meth:`from_data` (the ``deck`` section of a resolved
    ruleset).  Cards are ordered suit by suit (in the order the suits are listed),
    each suit from the strongest rank down; ``deck.cards[i].index == i``.
    """

    __slots__ = ("_lookup", "cards", "ranks", "suit_bits", "suits")

    def __init__(self, suits: Sequence[Suit], ranks: Sequence[Rank]) -> None:
        self.suits: tuple[Suit, ...] = tuple(suits)
        self.ranks: tuple[Rank, ...] = tuple(sorted(ranks, key=lambda r: -r.strength))
        per_suit = len(self.ranks)
        self.suit_bits: dict[str, int] = {}
        """Suit id -> the bit set (``card.bit``) of the suit's cards: contiguous, the strongest
        card lowest."""
        for i, suit in enumerate(self.suits):  # the cards' indexes, as laid out below
            bits = ((1 << per_suit) - 1) << (i * per_suit)
            self.suit_bits[suit.id] = self.suit_bits.get(suit.id, 0) | bits
        # every card object first, so that each is built complete with its pack (the tuple of
        # them all), by its constructor
        layout = [(rank, suit) for suit in self.suits for rank in self.ranks]
        self.cards: tuple[Card, ...] = tuple(Card.__new__(Card) for _ in layout)
        for index, (card, (rank, suit)) in enumerate(zip(self.cards, layout, strict=True)):
            card.__init__(rank, suit, index, suit_bits=self.suit_bits[suit.id], pack=self.cards)  # type: ignore[misc]
        lookup: dict[str, Card] = {}
        for card in self.cards:
            rank_spellings = {card.rank.letter, *card.rank.aliases}
            suit_spellings = {card.suit.letter, card.suit.symbol}
            for r in rank_spellings:
                for s in suit_spellings:
                    lookup[(r + s).upper()] = card
        self._lookup = lookup

    @classmethod
    def from_data(cls, data: Mapping[str, object]) -> Deck:
        """Build a deck from a ``deck`` mapping (``suits`` and ``ranks`` lists) of a ruleset.

        ``ranks`` is listed from the strongest to the weakest.  The data is assumed
        to be schema-valid (the ruleset validator checks it first).
        """
        suits_data = data["suits"]
        ranks_data = data["ranks"]
        assert isinstance(suits_data, list) and isinstance(ranks_data, list)
        suits = [
            Suit(
                id=s["id"],
                letter=s["letter"],
                symbol=s.get("symbol") or s["letter"],
                names=dict(s.get("names") or {}),
            )
            for s in suits_data
        ]
        n = len(ranks_data)
        ranks = [
            Rank(
                id=r["id"],
                letter=r["letter"],
                strength=n - 1 - i,
                points=r["points"],
                aliases=tuple(r.get("aliases") or ()),
                names=dict(r.get("names") or {}),
            )
            for i, r in enumerate(ranks_data)
        ]
        return cls(suits, ranks)

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.cards)

    def __repr__(self) -> str:
        suits = "".join(s.letter for s in self.suits)
        ranks = "".join(r.letter for r in self.ranks)
        return f"<Deck suits={suits} ranks={ranks} cards={len(self.cards)}>"

    @property
    def total_points(self) -> int:
        """Sum of the card points of the whole pack (points; 120 for the Tysiąc pack)."""
        return sum(c.points for c in self.cards)

    def suit(self, key: str) -> Suit:
        """The suit with this id, letter or symbol (case-insensitive).

        Raises:
            NotationError: no such suit; the message lists the known ones.
        """
        k = key.strip()
        for s in self.suits:
            if k.lower() in (s.id.lower(), s.letter.lower()) or k == s.symbol:
                return s
        known = ", ".join(f"{s.letter} ({s.id})" for s in self.suits)
        raise NotationError(
            Diagnostic("notation.suit", f"unknown suit `{shorten(key)}`; expected one of {known}")
        )

    def rank(self, key: str) -> Rank:
        """The rank with this id, letter or alias (case-insensitive).

        Raises:
            NotationError: no such rank; the message lists the known ones.
        """
        k = key.strip().lower()
        for r in self.ranks:
            if k in (r.id.lower(), r.letter.lower(), *(a.lower() for a in r.aliases)):
                return r
        known = ", ".join(r.letter for r in self.ranks)
        raise NotationError(
            Diagnostic("notation.rank", f"unknown rank `{shorten(key)}`; expected one of {known}")
        )

    def parse(self, text: str) -> Card:
        """Parse one card (``QH``, ``Q♥``, ``10h``, ``th``).

        Raises:
            NotationError: ``text`` names no card of this deck; the message quotes it.
        """
        key = text.strip().upper()
        card = self._lookup.get(key)
        if card is None:
            ranks = "".join(r.letter for r in self.ranks)
            suits = "".join(s.letter for s in self.suits)
            raise NotationError(
                Diagnostic(
                    "notation.card",
                    f"`{shorten(text)}` is not a card: write a rank ({' '.join(ranks)}, or 10) then a "
                    f"suit ({' '.join(suits)} or its symbol), e.g. "
                    f"`{self.cards[0]}`",
                )
            )
        return card

    def parse_many(self, text: str | Iterable[str]) -> tuple[Card, ...]:
        """Parse cards separated by blanks or commas (``"QH KH 9S"``) or an iterable of texts.

        Raises:
            NotationError: for the first text that is not a card.
        """
        items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
        return tuple(self.parse(t) for t in items)

    def format(self, cards: Iterable[Card]) -> str:
        """Canonical notation of several cards, blank-separated (``"QH KH 9S"``)."""
        return " ".join(str(c) for c in cards)
