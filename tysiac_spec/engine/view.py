"""What one player sees at the table (:class:`View`, :func:`view_of`): his own hand and the
public cards, never a hidden card of another player.  :meth:`.game.Game.view` is
``view_of`` of the game's deal; bots and tables read only this."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..cards import Card
from ..ruleset.model import Form
from . import contracts, talon
from .state import DealState

__all__ = ["View", "view_of"]


@dataclass(frozen=True, slots=True)
class View:
    """What one player sees at the table: own hand, public cards, no hidden card of others.

    ``talon`` holds the taken talon's cards only when they were shown (or to the
    declarer who took them), and before it is taken the talons on the table once turned
    face up (``talon.shown_from``, :func:`.talon.visible_talon`); ``given`` the exchange's
    given cards as ``(receiver, card)`` pairs in the order given, all of them when
    ``talon.give_face_up`` (and to the declarer), else only those this player received
    (:func:`.talon.gifts_seen`);
    ``hand_sizes`` and ``tricks`` are ``(player, n)`` pairs.
    """

    player: int
    phase: str
    current_player: int
    dealer: int
    sitter: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[tuple[int, int], ...]
    talon: tuple[Card, ...]
    given: tuple[tuple[int, Card], ...]
    bids: tuple[tuple[int, str], ...]
    declarer: int | None
    contract: int
    trump: str | None
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[tuple[int, int], ...]
    declared: tuple[tuple[int, str], ...]
    scores: tuple[int, ...]
    stock: int = field(default=0, repr=False)
    """Cards left in the stock (``table.stock``; 0: none)."""
    stock_card: Card | None = field(default=None, repr=False)
    """The stock's face-up bottom card while it lies there, seen by everyone (``None``: no
    stock, or drawn); the other cards of the stock are seen by nobody."""
    kind: str | None = field(default=None, repr=False)
    """The named contract (``contract.kinds``) bid highest in the auction, then the one the
    deal is played as (its id, public as the bids are); ``None``: the numeric contract."""
    open_hand: tuple[Card, ...] = field(default=(), repr=False)
    """The declarer's hand, played face up, seen by everyone: in a deal of a named contract
    kind with ``open_hand`` (``contract.kinds``, :func:`.contracts.open_hand`), from the first
    trick to the end; else empty."""
    contra: int = field(default=1, repr=False)
    """The factor of contra and redouble on the contract (``contract.contra``; 1: none), known
    to everyone."""
    price: int = field(default=0, repr=False)
    """In the phase ``rebuy``, the contract the player to act may buy (``talon.rebuy``)."""
    last_trick: tuple[tuple[int, Card], ...] = field(default=(), repr=False)
    """The last finished trick of the deal as ``(player, card)`` pairs in the order played,
    seen by everyone (empty before the first trick ends): a player who watched the table saw
    every card of it, also those played after his own."""


def view_of(form: Form, deal: DealState, scores: Sequence[int], player: int, *, over: bool = False) -> View:
    """What ``player`` sees of ``deal`` under ``form`` with the match ``scores`` (``over``:
    the match has ended, the phase shown is ``over``): own hand (none while he is still to
    decide on a dark game declared before seeing it, ``special.dark.sees_own_hand`` false),
    public cards (a shown talon, cards given face up); other hands, hidden talons and cards
    given face down to others hidden."""
    d = deal
    hands, tricks, order = d.hands, d.tricks, d.order
    unseen = d.phase == "dark" and player in d.dark_undecided and not form.special.dark.sees_own_hand
    view = View(
        player=player,
        phase="over" if over else d.phase,
        current_player=d.current,
        dealer=d.dealer,
        sitter=d.sitter,
        hand=() if unseen else tuple(hands.get(player, ())),
        hand_sizes=tuple([(p, len(hands[p])) for p in order]),
        talon=talon.visible_talon(d, player),
        given=talon.gifts_seen(form, d, player),
        bids=tuple(d.bids),
        declarer=d.declarer,
        contract=d.contract,
        trump=d.trump,
        trick=tuple(d.trick),
        tricks=tuple([(p, tricks.get(p, 0)) for p in order]),
        declared=tuple(d.declared),
        scores=tuple(scores),
        last_trick=tuple(d.last_trick),
    )
    if d.stock:  # (table.stock) the stock's size and its face-up bottom card
        view = replace(view, stock=len(d.stock), stock_card=d.stock[-1])
    a = d.around
    if a is not None:  # (contract.kinds, contract.contra, talon.rebuy) known to everyone
        if a.kind is not None:  # the kind bid, a hand face up
            view = replace(view, kind=a.kind, open_hand=contracts.open_hand(form, d))
        if a.contra != 1 or a.rebuy_price:
            view = replace(view, contra=a.contra, price=a.rebuy_price)
    return view
