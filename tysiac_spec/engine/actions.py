"""Player actions: small frozen values that print and parse in pairs.

Each action has a compact text form (``bid 120``, ``bid misere``, ``pass``, ``talon 1``,
``give 9S to 2``, ``discard 9S``, ``contract 120``, ``play QH``,
``play QH marriage``, ``play AH aces``, ``forfeit``, ``dark``, ``cancel dark``,
``redeal``, ``claim``, ``marriage hearts``, ``contra``, ``redouble``, ``buy``; a table
incident ``incident misdeal 0``);
:func:`parse_action` reads it back, so
``parse_action(str(a), deck) == a`` for every action ``a``.
Players and talons are numbered from 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import FrozenInstanceError
from typing import ClassVar

from ..cards import Card, Deck
from ..errors import Diagnostic, NotationError
from ..text import shorten

__all__ = [
    "Action",
    "ActionTable",
    "Bid",
    "Buy",
    "CancelDark",
    "ChooseTalon",
    "Claim",
    "Contra",
    "Dark",
    "DeclareContract",
    "DeclareMarriage",
    "Discard",
    "Forfeit",
    "GiveCard",
    "Incident",
    "NameTrump",
    "NamedBid",
    "Pass",
    "PlayCard",
    "Redeal",
    "Redouble",
    "parse_action",
]


class _Action:
    """An immutable action value, built complete: its fields (``_fields``) and its compact text
    (``text``, the same as ``str(action)``), both set once by the constructor.

    Equal to an action of the same class with equal fields, hashed by its fields (as a frozen
    dataclass would be); actions have no order.
    """

    __slots__ = ("text",)
    _fields: ClassVar[tuple[str, ...]] = ()
    text: str
    """The compact text (``bid 120``, ``play QH marriage``)."""

    def _set(self, text: str, **values: object) -> None:
        """Set the fields and the text: called once, by the constructor."""
        for name, value in values.items():
            object.__setattr__(self, name, value)
        object.__setattr__(self, "text", text)

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def _values(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in self._fields])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self is other or self._values() == other._values()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({fields})"

    def __str__(self) -> str:
        return self.text

    def __getstate__(self) -> tuple[object, ...]:
        return self._values()

    def __setstate__(self, state: tuple[object, ...]) -> None:
        """A copy or an unpickled action (``copy.copy``, ``pickle``): the values of the original."""
        self.__init__(*state)  # type: ignore[misc]


class Bid(_Action):
    """A bid in the auction (points, a multiple of the auction step)."""

    __slots__ = ("amount",)
    _fields = ("amount",)
    amount: int

    def __init__(self, amount: int) -> None:
        self._set(f"bid {amount}", amount=amount)


class NamedBid(_Action):
    """A named bid in the auction (``contract.kinds``): the contract kind ``kind`` (its id),
    bid by name, ``bid misere``; where it ranks among the numeric bids is the kind's ``rank``
    (:mod:`.contracts`)."""

    __slots__ = ("kind",)
    _fields = ("kind",)
    kind: str

    def __init__(self, kind: str) -> None:
        self._set(f"bid {kind}", kind=kind)


class Pass(_Action):
    """Passing in the auction."""

    __slots__ = ()

    def __init__(self) -> None:
        self._set("pass")


class ChooseTalon(_Action):
    """The declarer takes talon ``index`` (0-based) of several (2-player game)."""

    __slots__ = ("index",)
    _fields = ("index",)
    index: int

    def __init__(self, index: int) -> None:
        self._set(f"talon {index}", index=index)


class GiveCard(_Action):
    """The declarer gives ``card`` face down to player ``to`` (a seat number, 0-based)."""

    __slots__ = ("card", "to")
    _fields = ("card", "to")
    card: Card
    to: int

    def __init__(self, card: Card, to: int) -> None:
        self._set(f"give {card} to {to}", card=card, to=to)


class Discard(_Action):
    """The declarer discards ``card`` face down."""

    __slots__ = ("card",)
    _fields = ("card",)
    card: Card

    def __init__(self, card: Card) -> None:
        self._set(f"discard {card}", card=card)


class DeclareContract(_Action):
    """The declarer fixes the contract after the exchange (points, never below the bid)."""

    __slots__ = ("amount",)
    _fields = ("amount",)
    amount: int

    def __init__(self, amount: int) -> None:
        self._set(f"contract {amount}", amount=amount)


class PlayCard(_Action):
    """Playing ``card`` to the trick; ``marriage`` declares the marriage of its suit (on a lead);
    ``aces`` declares the ace marriage (leading an ace while holding all four)."""

    __slots__ = ("aces", "card", "declares", "marriage")
    _fields = ("card", "marriage", "aces")
    card: Card
    marriage: bool
    aces: bool
    declares: bool
    """``marriage or aces`` (not a field: the play of a card tests it once)."""

    def __init__(self, card: Card, marriage: bool = False, aces: bool = False) -> None:
        text = f"play {card}" + (" marriage" if marriage else "") + (" aces" if aces else "")
        self._set(text, card=card, marriage=marriage, aces=aces, declares=marriage or aces)


class Forfeit(_Action):
    """The declarer gives up the deal after seeing the talon (rospis / bomb); it is not played."""

    __slots__ = ()

    def __init__(self) -> None:
        self._set("forfeit")


class Dark(_Action):
    """Declaring the dark (blind) game before the auction (``special.dark``)."""

    __slots__ = ()

    def __init__(self) -> None:
        self._set("dark")


class CancelDark(_Action):
    """An opponent holding a marriage cancels a declared dark game (``cancel_with_marriage``)."""

    __slots__ = ()

    def __init__(self) -> None:
        self._set("cancel dark")


class Claim(_Action):
    """The declarer, sure of every remaining trick, shows his hand instead of playing on."""

    __slots__ = ()

    def __init__(self) -> None:
        self._set("claim")


class Redeal(_Action):
    """Calling for the deal to be abandoned and dealt again (``deal.redeals``)."""

    __slots__ = ()

    def __init__(self) -> None:
        self._set("redeal")


class Contra(_Action):
    """A defender doubles the contract (``contract.contra``); ``pass`` declines."""

    __slots__ = ()

    def __init__(self) -> None:
        self._set("contra")


class Redouble(_Action):
    """The declarer redoubles a doubled contract (``contract.contra.redouble``); ``pass``
    declines."""

    __slots__ = ()

    def __init__(self) -> None:
        self._set("redouble")


class Buy(_Action):
    """A defender buys the contract from the declarer at the price offered (``talon.rebuy``);
    ``pass`` declines."""

    __slots__ = ()

    def __init__(self) -> None:
        self._set("buy")


class DeclareMarriage(_Action):
    """Declaring the marriage of ``suit`` (a suit id) from the hand before leading
    (``marriages.declared_by: hand``): ``marriage hearts``."""

    __slots__ = ("suit",)
    _fields = ("suit",)
    suit: str

    def __init__(self, suit: str) -> None:
        self._set(f"marriage {suit}", suit=suit)


class NameTrump(_Action):
    """The declarer names ``suit`` (a suit id) trump as he wins the contract
    (``contract.names_trump``): ``trump hearts``."""

    __slots__ = ("suit",)
    _fields = ("suit",)
    suit: str

    def __init__(self, suit: str) -> None:
        self._set(f"trump {suit}", suit=suit)


class Incident(_Action):
    """A table incident called against ``player`` (``incident misdeal 0``): a mistake the table
    punishes (``deal.incidents``), not a move of the game.  It is never among the legal
    actions; :meth:`~tysiac_spec.engine.game.Game.apply` hands it to
    :meth:`~tysiac_spec.engine.game.Game.incident`, so that a record replays it.  ``kind`` is
    any word here; the game refuses a kind its ruleset does not list.  ``player`` ``None``
    (``incident misdeal``) names nobody: the game accepts it only for a rule charging the
    dealer (``who: dealer``), as :meth:`~tysiac_spec.engine.game.Game.incident` does."""

    __slots__ = ("kind", "player")
    _fields = ("kind", "player")
    kind: str
    player: int | None

    def __init__(self, kind: str, player: int | None) -> None:
        text = f"incident {kind}" if player is None else f"incident {kind} {player}"
        self._set(text, kind=kind, player=player)


Action = (
    Bid | Pass | ChooseTalon | GiveCard | Discard | DeclareContract | PlayCard
    | Forfeit | Dark | CancelDark | Redeal | Claim | DeclareMarriage | Incident | NamedBid | NameTrump
    | Contra | Redouble | Buy
)
"""Any player action (and a table incident, :class:`Incident`)."""


class ActionTable:
    """Shared action objects of the games of one form (actions are immutable values, so a
    game hands out the same object for the same action instead of building a new one).

    Objects are kept for the table's lifetime, so their ``id`` stays unique (the look-ups by
    ``id(card)`` rely on it).  ``pack`` (the deck's cards, ``pack[i].index == i``) lets
    :meth:`gives_by_index` and :meth:`discards_by_index` list the exchange's actions by card
    index.
    """

    __slots__ = (
        "_contract_lists", "_contracts", "_discard_list", "_discards", "_give_lists", "_gives", "_pack",
        "_plays", "bids", "claim", "forfeit", "pass_", "plains",
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
        self._contract_lists: dict[tuple[int, ...], list[Action]] = {}
        self.pass_ = Pass()
        self.forfeit = Forfeit()
        self.claim = Claim()

    @property
    def pack(self) -> tuple[Card, ...]:
        """The deck's cards the table was made for (``pack[i].index == i``; empty: not given)."""
        return self._pack

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

    def contracts(self, amounts: tuple[int, ...]) -> list[Action]:
        """``DeclareContract(a)`` for each of ``amounts``, in order: one list kept per tuple of
        amounts (the caller copies it before changing it)."""
        actions = self._contract_lists.get(amounts)
        if actions is None:
            if len(self._contract_lists) > 10_000:
                self._contract_lists.clear()
            actions = self._contract_lists[amounts] = [self.contract(a) for a in amounts]
        return actions


def _bad(text: str, expected: str) -> NotationError:
    return NotationError(
        Diagnostic("notation.action", f"`{shorten(text)}` is not an action: expected {expected}")
    )


_FORMS = (
    "`bid N`, `bid NAME`, `pass`, `talon N`, `give CARD to N`, `discard CARD`, `contract N`, "
    "`play CARD`, `play CARD marriage`, `play CARD aces`, `forfeit`, `dark`, `cancel dark`, "
    "`redeal`, `claim`, `marriage SUIT`, `contra`, `redouble`, `buy` or `incident KIND N`"
)


_WORDS: dict[str, Action] = {
    "pass": Pass(),
    "forfeit": Forfeit(),
    "dark": Dark(),
    "redeal": Redeal(),
    "claim": Claim(),
    "contra": Contra(),
    "redouble": Redouble(),
    "buy": Buy(),
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
    if head == "bid" and len(rest) == 1 and rest[0][:1].isalpha():  # a named bid (contract.kinds)
        return NamedBid(rest[0].lower())
    if head in ("bid", "contract", "talon") and len(rest) == 1:
        n = _int(text, rest[0], text)
        return Bid(n) if head == "bid" else DeclareContract(n) if head == "contract" else ChooseTalon(n)
    if head == "discard" and len(rest) == 1:
        return Discard(deck.parse(rest[0]))
    if head == "give" and len(rest) == 3 and rest[1].lower() == "to":
        return GiveCard(deck.parse(rest[0]), _int(text, rest[2], text))
    if head in ("marriage", "trump") and len(rest) == 1:
        word = rest[0].lower()
        for suit in deck.suits:
            if word in (suit.id.lower(), suit.letter.lower()):
                return DeclareMarriage(suit.id) if head == "marriage" else NameTrump(suit.id)
        raise _bad(text, f"a suit of the pack (`{head} hearts`)")
    if head == "incident" and len(rest) == 2 and rest[0].isidentifier():
        return Incident(rest[0].lower(), _int(text, rest[1], text))
    if head == "incident" and len(rest) == 1 and rest[0].isidentifier():  # the dealer's (who: dealer)
        return Incident(rest[0].lower(), None)
    if head == "play" and len(rest) == 1:
        return PlayCard(deck.parse(rest[0]))
    if head == "play" and len(rest) == 2 and rest[1].lower() == "marriage":
        return PlayCard(deck.parse(rest[0]), True)
    if head == "play" and len(rest) == 2 and rest[1].lower() == "aces":
        return PlayCard(deck.parse(rest[0]), aces=True)
    raise _bad(text, _FORMS)
