"""The mutable state of one deal, and the table geometry (seats, turn order).

Players are numbered 0..N-1 around the table.  Seats in the ruleset are counted
from the dealer in the direction of play (0 the dealer, 1 the next player).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..cards import Card
from .seating import opponents_after, turn_after

__all__ = ["PHASES", "Around", "DealState", "cards_text", "remove_card"]

PHASES = (
    "redeal", "dark", "auction", "rebuy", "contra", "talon", "exchange", "contract", "marriages", "play",
    "over", "trump",
)
"""Phases of a deal, in order (but ``trump``, listed last so that the others keep their index in
the adapters' observations: it comes after the auction, before the talon); ``over`` also marks
a finished match.

``redeal``: a player may call a redeal (``deal.redeals``), offered after the deal, after
the talon or after the exchange; ``dark``: the dark game may be declared or cancelled
(``special.dark``); ``marriages``: the players announce their marriages before the first
trick (``marriages.declared_by: before_play``); ``rebuy``: the defenders may buy the contract
(``talon.rebuy``); ``contra``: the defenders may double it, the declarer redouble
(``contract.contra``; after the auction or before the play); ``trump``: the declarer names
trump (``contract.names_trump``, :mod:`.naming`).  A deal abandoned for a redeal
ends in the internal phase ``redealt`` and is replaced at once by a new deal.
"""


def cards_text(cards: Iterable[Card]) -> str:
    """Cards in canonical notation, blank-separated, in the given order (``-`` if none)."""
    return " ".join(str(c) for c in cards) or "-"


def remove_card(cards: list[Card], card: Card) -> None:
    """``cards.remove(card)``, looking for the very object first (the cards of a deck are
    shared objects, and comparing by identity is much cheaper than by value).

    Raises:
        ValueError: ``card`` is not in ``cards``.
    """
    for i, c in enumerate(cards):
        if c is card:
            del cards[i]
            return
    cards.remove(card)


@dataclass(slots=True)
class Around:
    """The state of the mechanisms acting around the contract in one deal
    (``DealState.around``): the named contract bid and played (``contract.kinds``,
    :mod:`.contracts`), contra and redouble (``contract.contra``, :mod:`.contra`) and selling
    the contract (``talon.rebuy``, :mod:`.rebuy`).  Made by the game for each deal of a form
    that switches one of them on, and only then: a form without them makes none, copies
    none and reads none (gathered here so that the deal of every other form stays as narrow
    as before they existed)."""

    kind: str | None = None
    """The named contract (``contract.kinds``) bid highest in the auction, then the one the
    deal is played as (its id); ``None``: the numeric contract (:mod:`.contracts`)."""
    top_bid: int = 0
    """The highest numeric bid made before the named bid that leads (points; 0: none), which
    the scoring formulas read as ``top_bid`` (:func:`.contracts.apply_bid`)."""
    contra: int = 1
    """The factor of contra and redouble (``contract.contra``): 1 while nobody doubled."""
    contra_by: int | None = None
    """The defender who doubled the contract (``None``: nobody)."""
    redoubled: bool = False
    """The declarer redoubled the contract."""
    contra_turns: tuple[int, ...] = ()
    """The players still to answer in the phase ``contra``, the one to act first."""
    contra_done: bool = False
    """The contra phase of this deal is over (it opens once)."""
    rebuy_turns: tuple[int, ...] = ()
    """The defenders still to answer in the phase ``rebuy``, the one to act first."""
    rebuy_price: int = 0
    """The contract the defender to act may buy (``talon.rebuy.price``); in a second auction
    (``rebuy.bidding: auction``) the lowest bid he may make."""
    rebuy_high: int = 0
    """In a second auction (``talon.rebuy.bidding: auction``): the highest re-buy bid so far
    (0: none), held by ``rebuy_holder``."""
    rebuy_holder: int | None = None
    """The defender holding ``rebuy_high`` (``None``: nobody has bid)."""
    rebuy_bids: tuple[int, ...] = ()
    """In a second auction: the bids the defender to act may make, ascending."""
    sold_by: int | None = None
    """The declarer who sold the contract to the present declarer (``None``: not sold)."""


@dataclass(slots=True)
class DealState:
    """Everything that changes during one deal.

    ``order`` lists the active players in bidding order (starting after the dealer);
    ``sitter`` is the player sitting out, if any.  Card piles are lists in play order.
    """

    dealer: int
    order: list[int]
    sitter: int | None
    hands: dict[int, list[Card]]
    talons: list[list[Card]]
    dealt_talon: tuple[Card, ...]
    deck_points: int
    dealt: tuple[tuple[tuple[Card, ...], ...], tuple[tuple[Card, ...], ...], tuple[Card, ...]] = ((), (), ())
    """The deal as dealt, before any card moved: the hands by seat (seat 0 first; empty for a
    seat dealt none), the talons in order, the stock (what :meth:`Game.dealt
    <tysiac_spec.engine.game.Game.dealt>` writes in deal notation)."""
    aces: int = 4
    """Aces in the pack (all of them make the ace marriage)."""
    phase: str = "auction"
    current: int = 0
    actions: int = 0
    """Player actions applied in this deal so far."""
    forced: int | None = None
    # auction
    high_bid: int = 0
    high_bidder: int | None = None
    passed: set[int] = field(default_factory=set)
    passes_since_bid: int = 0
    contested: bool = False
    opening: bool = False
    bids: list[tuple[int, str]] = field(default_factory=list)
    max_bids: dict[int, int] = field(default_factory=dict)
    reentries_used: dict[int, int] = field(default_factory=dict)
    passed_since_bid: set[int] = field(default_factory=set)
    dealer_exempt: bool = False
    """The dealer may not be made to play a deal everyone passes (``auction.dealer_exempt``)."""
    # talon and exchange
    declarer: int | None = None
    taken: list[Card] = field(default_factory=list)
    talon_shown: bool = False
    """The taken talon is shown to everyone."""
    talon_public: bool = False
    """The talons on the table were turned face up before being taken (``talon.shown_from``)."""
    leftover: list[Card] = field(default_factory=list)
    discards: list[Card] = field(default_factory=list)
    given: dict[int, int] = field(default_factory=dict)
    gifts: list[tuple[int, Card]] = field(default_factory=list)
    """The cards given in the exchange, as ``(receiver, card)`` in the order given."""
    buried: int = 0
    """Cards buried so far in a ``give_and_bury`` exchange (they are in ``won``)."""
    contract: int = 0
    contract_offer: tuple[int, int, tuple[int, ...]] | None = None
    """When the contract phase opened: the declarer's hand (a bit set of ``card.bit``), the
    bid and the contracts he may announce — reused while the hand and the bid are those."""
    may_forfeit: bool = False
    stock: list[Card] = field(default_factory=list)
    """The stock (``table.stock``): drawn from the front after each trick; the last card is
    the face-up bottom card, seen by everyone."""
    # play
    trump: str | None = None
    pending_trump: str | None = None
    trump_named: bool = False
    """The declarer has named trump (``contract.names_trump``, :mod:`.naming`)."""
    trick: list[tuple[int, Card]] = field(default_factory=list)
    trick_number: int = 0
    won: dict[int, list[Card]] = field(default_factory=dict)
    tricks: dict[int, int] = field(default_factory=dict)
    marriages: dict[int, int] = field(default_factory=dict)
    declared: list[tuple[int, str]] = field(default_factory=list)
    marriage_trick: int | None = None
    """The number of the trick (from 0) in which the last marriage or ace marriage was
    declared; ``None`` before any (read by ``play.lead_after_marriage``)."""
    last_trick_winner: int | None = None
    last_trick: Sequence[tuple[int, Card]] = ()
    """The last finished trick of the deal as ``(player, card)`` in the order played (empty
    before the first): on the table for everyone to see until the next trick is led, as
    :attr:`View.last_trick <tysiac_spec.engine.view.View.last_trick>` shows it."""
    # redeals offered: (player, redeal index) still to answer, and where play resumes
    redeal_offers: list[tuple[int, int]] = field(default_factory=list)
    resume_phase: str = ""
    resume_current: int = 0
    redeal_caller: int | None = None
    redeal_id: str = ""
    # the dark game: players still to decide, the declared dark player, who may cancel
    dark_undecided: list[int] = field(default_factory=list)
    dark_player: int | None = None
    dark_cancellers: list[int] = field(default_factory=list)
    # kind of deal and its outcome
    mode: str = "normal"
    """``normal``, ``dark`` (declared blind) or ``golden`` (a golden-round deal)."""
    multiplier: int = 1
    """The deal's points are multiplied by this (dark game, golden round)."""
    bid_floor: int = 0
    """The compulsory and lowest bid of this deal's auction when raised above the ruleset's
    (a golden deal that keeps its auction, ``golden_round.auction``: its ``contract``); 0: the
    ruleset's own."""
    forfeited: bool = False
    """The declarer conceded after seeing the talon (rospis / bomb)."""
    barrel_deal: bool = False
    """A player on the barrel took the talon without an auction (contract fixed at the goal)."""
    unopposed: bool = False
    """The declarer is the forced player stuck with the compulsory bid (nobody bid over it)."""
    announcers: tuple[int, ...] = ()
    """The players still to announce their marriages before the first trick (phase
    ``marriages``, ``marriages.declared_by: before_play``), the one to act first."""
    revokes: tuple[tuple[int, Card, int], ...] = ()
    """The revokes played (``play.revoke.handling: penalise``): ``(player, card, penalty)``,
    the penalty paid at the deal's end."""
    around: Around | None = None
    """What the mechanisms acting around the contract keep in this deal (:class:`Around`:
    the named contract, contra, selling the contract); ``None`` in a form that switches none
    of them on (``contract.kinds``, ``contract.contra``, ``talon.rebuy``: the game makes one per
    deal only then, so a form without them carries one empty slot and nothing more)."""
    # result
    scores: dict[int, int] | None = None
    made: bool | None = None

    @property
    def kind(self) -> str | None:
        """The named contract of the deal (``around.kind``, :class:`Around`); ``None``: the
        numeric contract, or a form without named contracts."""
        a = self.around
        return None if a is None else a.kind

    def next_active(self, player: int) -> int:
        """The active player after ``player`` in turn order."""
        return turn_after(self.order, player)

    def opponents(self) -> list[int]:
        """The active players other than the declarer, in turn order after the declarer."""
        assert self.declarer is not None
        return opponents_after(self.order, self.declarer)

    def all_cards(self) -> list[Card]:
        """Every card of the deal wherever it lies (hands, talons, trick, won piles, set aside)."""
        out: list[Card] = []
        for p in self.order:
            out += self.hands[p]
            out += self.won.get(p, [])
        for t in self.talons:
            out += t
        out += [c for _, c in self.trick]
        out += self.leftover
        out += self.discards
        out += self.stock
        return out

    def text(self) -> str:
        """A compact one-line text of the deal state (used in errors and tests)."""
        hands = "/".join(f"{p}:{cards_text(self.hands[p])}" for p in self.order)
        talons = "/".join(cards_text(t) for t in self.talons)
        trick = cards_text(c for _, c in self.trick)
        won = "/".join(f"{p}:{cards_text(self.won.get(p, []))}" for p in self.order)
        return (
            f"{self.phase} dealer={self.dealer} turn={self.current} hands={hands} "
            f"talons={talons} bid={self.high_bid}@{self.high_bidder} passed="
            f"{''.join(str(p) for p in sorted(self.passed)) or '-'} declarer={self.declarer} "
            f"contract={self.contract} trump={self.trump or '-'} trick={trick} won={won} "
            f"leftover={cards_text(self.leftover)} discards={cards_text(self.discards)} "
            f"marriages={self.marriages} given={self.given}"
            + (f" stock={cards_text(self.stock)}" if self.stock else "")
        )
