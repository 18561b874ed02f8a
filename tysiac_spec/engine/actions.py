"""Player actions: small frozen values that print and parse in pairs.

Each action has a compact text form (``bid 120``, ``pass``, ``talon 1``,
``give 9S to 2``, ``discard 9S``, ``contract 120``, ``play QH``,
``play QH marriage``, ``play AH aces``, ``forfeit``, ``dark``, ``cancel dark``,
``redeal``, ``claim``); :func:`parse_action` reads it back, so
``parse_action(str(a), deck) == a`` for every action ``a``.
Players and talons are numbered from 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..cards import Card, Deck
from ..errors import Diagnostic, NotationError
from ..text import shorten

__all__ = [
    "Action",
    "ActionTable",
    "Bid",
    "CancelDark",
    "ChooseTalon",
    "Claim",
    "Dark",
    "DeclareContract",
    "Discard",
    "Forfeit",
    "GiveCard",
    "Pass",
    "PlayCard",
    "Redeal",
    "parse_action",
]


@dataclass(frozen=True, slots=True)
class _Text:
    """An action's compact text (``str(action)``), made once when the action is made."""

    text: str = field(init=False, compare=False, repr=False, default="")

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", str(self))


@dataclass(frozen=True, slots=True)
class Bid(_Text):
    """A bid in the auction (points, a multiple of the auction step)."""

    amount: int

    def __str__(self) -> str:
        return f"bid {self.amount}"


@dataclass(frozen=True, slots=True)
class Pass(_Text):
    """Passing in the auction."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class ChooseTalon(_Text):
    """The declarer takes talon ``index`` (0-based) of several (2-player game)."""

    index: int

    def __str__(self) -> str:
        return f"talon {self.index}"


@dataclass(frozen=True, slots=True)
class GiveCard(_Text):
    """The declarer gives ``card`` face down to player ``to`` (a seat number, 0-based)."""

    card: Card
    to: int

    def __str__(self) -> str:
        return f"give {self.card} to {self.to}"


@dataclass(frozen=True, slots=True)
class Discard(_Text):
    """The declarer discards ``card`` face down."""

    card: Card

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True)
class DeclareContract(_Text):
    """The declarer fixes the contract after the exchange (points, never below the bid)."""

    amount: int

    def __str__(self) -> str:
        return f"contract {self.amount}"


@dataclass(frozen=True, slots=True)
class PlayCard(_Text):
    """Playing ``card`` to the trick; ``marriage`` declares the marriage of its suit (on a lead);
    ``aces`` declares the ace marriage (leading an ace while holding all four)."""

    card: Card
    marriage: bool = False
    aces: bool = False

    def __str__(self) -> str:
        return f"play {self.card}" + (" marriage" if self.marriage else "") + (" aces" if self.aces else "")


@dataclass(frozen=True, slots=True)
class Forfeit(_Text):
    """The declarer gives up the deal after seeing the talon (rospis / bomb); it is not played."""

    def __str__(self) -> str:
        return "forfeit"


@dataclass(frozen=True, slots=True)
class Dark(_Text):
    """Declaring the dark (blind) game before the auction (``special.dark``)."""

    def __str__(self) -> str:
        return "dark"


@dataclass(frozen=True, slots=True)
class CancelDark(_Text):
    """An opponent holding a marriage cancels a declared dark game (``cancel_with_marriage``)."""

    def __str__(self) -> str:
        return "cancel dark"


@dataclass(frozen=True, slots=True)
class Claim(_Text):
    """The declarer, sure of every remaining trick, shows his hand instead of playing on."""

    def __str__(self) -> str:
        return "claim"


@dataclass(frozen=True, slots=True)
class Redeal(_Text):
    """Calling for the deal to be abandoned and dealt again (``deal.redeals``)."""

    def __str__(self) -> str:
        return "redeal"


Action = (
    Bid | Pass | ChooseTalon | GiveCard | Discard | DeclareContract | PlayCard
    | Forfeit | Dark | CancelDark | Redeal | Claim
)
"""Any player action."""


class ActionTable:
    """Shared action objects of the games of one form (actions are immutable values, so a
    game hands out the same object for the same action instead of building a new one).

    Objects are kept for the table's lifetime, so their ``id`` stays unique (the look-ups by
    ``id(card)`` rely on it).  ``pack`` (the deck's cards, ``pack[i].index == i``) lets
    :meth:`gives_by_index` and :meth:`discards_by_index` list the exchange's actions by card
    index.
    """

    __slots__ = (
        "_contracts", "_discard_list", "_discards", "_give_lists", "_gives", "_pack", "_plays",
        "bids", "claim", "forfeit", "pass_", "plains",
    )

    def __init__(self, pack: Sequence[Card] = ()) -> None:
        self._pack = tuple(pack)
        self._give_lists: dict[int, list[GiveCard]] = {}
        self._discard_list: list[Discard] | None = None
        self.plains: dict[int, PlayCard] = {}
        """``PlayCard(card)`` by ``id(card)``, for the cards met so far (see :meth:`plain`)."""
        self._plays: dict[tuple[int, bool, bool], PlayCard] = {}
        self._discards: dict[int, Discard] = {}
        self._gives: dict[int, dict[int, GiveCard]] = {}
        self.bids: dict[int, Bid] = {}
        """``Bid(amount)`` by amount, for the amounts met so far (see :meth:`bid`)."""
        self._contracts: dict[int, DeclareContract] = {}
        self.pass_ = Pass()
        self.forfeit = Forfeit()
        self.claim = Claim()

    def plain(self, card: Card) -> PlayCard:
        """``PlayCard(card)``."""
        action = self.plains.get(id(card))
        if action is None:
            # the action holds the card, so the card's id is not reused while it is kept
            action = self.plains[id(card)] = PlayCard(card)
        return action

    def play(self, card: Card, marriage: bool = False, aces: bool = False) -> PlayCard:
        """``PlayCard(card, marriage, aces)``."""
        if not marriage and not aces:
            return self.plain(card)
        key = (id(card), marriage, aces)
        action = self._plays.get(key)
        if action is None:
            action = self._plays[key] = PlayCard(card, marriage, aces)
        return action

    def gives_to(self, to: int) -> dict[int, GiveCard]:
        """``GiveCard(card, to)`` by ``id(card)``, for the cards met so far (see :meth:`give`)."""
        made = self._gives.get(to)
        if made is None:
            made = self._gives[to] = {}
        return made

    def give(self, card: Card, to: int) -> GiveCard:
        """``GiveCard(card, to)``."""
        made = self.gives_to(to)
        action = made.get(id(card))
        if action is None:
            action = made[id(card)] = GiveCard(card, to)
        return action

    def gives_by_index(self, to: int) -> list[GiveCard]:
        """``GiveCard(card, to)`` for each card of the pack, by ``card.index`` (empty without a
        pack)."""
        made = self._give_lists.get(to)
        if made is None:
            made = self._give_lists[to] = [self.give(c, to) for c in self._pack]
        return made

    def discards_by_index(self) -> list[Discard]:
        """``Discard(card)`` for each card of the pack, by ``card.index`` (empty without a pack)."""
        if self._discard_list is None:
            self._discard_list = [self.discard(c) for c in self._pack]
        return self._discard_list

    def discard(self, card: Card) -> Discard:
        """``Discard(card)``."""
        action = self._discards.get(id(card))
        if action is None:
            action = self._discards[id(card)] = Discard(card)
        return action

    def bid(self, amount: int) -> Bid:
        """``Bid(amount)``."""
        action = self.bids.get(amount)
        if action is None:
            action = self.bids[amount] = Bid(amount)
        return action

    def contract(self, amount: int) -> DeclareContract:
        """``DeclareContract(amount)``."""
        action = self._contracts.get(amount)
        if action is None:
            action = self._contracts[amount] = DeclareContract(amount)
        return action


def _bad(text: str, expected: str) -> NotationError:
    return NotationError(
        Diagnostic("notation.action", f"`{shorten(text)}` is not an action: expected {expected}")
    )


_FORMS = (
    "`bid N`, `pass`, `talon N`, `give CARD to N`, `discard CARD`, `contract N`, "
    "`play CARD`, `play CARD marriage`, `play CARD aces`, `forfeit`, `dark`, `cancel dark`, "
    "`redeal` or `claim`"
)


_WORDS: dict[str, Action] = {
    "pass": Pass(),
    "forfeit": Forfeit(),
    "dark": Dark(),
    "redeal": Redeal(),
    "claim": Claim(),
}


def _int(text: str, word: str, whole: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise _bad(whole, f"a whole number, got `{shorten(word)}`") from None


def parse_action(text: str, deck: Deck) -> Action:
    """Parse the compact text form of an action (case-insensitive words).

    Raises:
        NotationError: ``notation.action`` for an unknown form, or ``notation.card``
            for a card the deck does not have.
    """
    words = text.split()
    if not words:
        raise _bad(text, _FORMS)
    head, rest = words[0].lower(), words[1:]
    if not rest and head in _WORDS:
        return _WORDS[head]
    if head == "cancel" and len(rest) == 1 and rest[0].lower() == "dark":
        return CancelDark()
    if head in ("bid", "contract", "talon") and len(rest) == 1:
        n = _int(text, rest[0], text)
        return Bid(n) if head == "bid" else DeclareContract(n) if head == "contract" else ChooseTalon(n)
    if head == "discard" and len(rest) == 1:
        return Discard(deck.parse(rest[0]))
    if head == "give" and len(rest) == 3 and rest[1].lower() == "to":
        return GiveCard(deck.parse(rest[0]), _int(text, rest[2], text))
    if head == "play" and len(rest) == 1:
        return PlayCard(deck.parse(rest[0]))
    if head == "play" and len(rest) == 2 and rest[1].lower() == "marriage":
        return PlayCard(deck.parse(rest[0]), True)
    if head == "play" and len(rest) == 2 and rest[1].lower() == "aces":
        return PlayCard(deck.parse(rest[0]), aces=True)
    raise _bad(text, _FORMS)
