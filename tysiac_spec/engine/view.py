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

__all__ = ["View", "view_from", "view_of"]


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
    given face down to others hidden (:func:`view_from` of the deal's values)."""
    d = deal
    hands, tricks, order = d.hands, d.tricks, d.order
    view = view_from(
        form, player, "over" if over else d.phase, d.current, d.dealer, d.sitter, order,
        hands.get(player, ()), [len(hands[p]) for p in order], d.taken, d.talon_shown, d.talon_public,
        d.talons, d.gifts, d.bids, d.declarer, d.contract, d.trump, d.trick,
        [tricks.get(p, 0) for p in order], d.declared, scores, d.last_trick,
        d.phase == "dark" and player in d.dark_undecided,
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


def view_from(
    form: Form, player: int, phase: str, current: int, dealer: int, sitter: int | None, order: Sequence[int],
    hand: Sequence[Card], sizes: Sequence[int], taken: Sequence[Card], talon_shown: bool, talon_public: bool,
    talons: Sequence[Sequence[Card]], gifts: Sequence[tuple[int, Card]], bids: Sequence[tuple[int, str]],
    declarer: int | None, contract: int, trump: str | None, trick: Sequence[tuple[int, Card]],
    tricks: Sequence[int], declared: Sequence[tuple[int, str]], scores: Sequence[int],
    last_trick: Sequence[tuple[int, Card]], undecided: bool,
) -> View:
    """The :class:`View` of ``player`` from plain values, the one statement of what a view
    shows of a deal without a stock or a named contract (:func:`view_of` of the engine's
    deal; the fast path's matches of bots that read their view, :mod:`tysiac_spec.fast`).

    ``hand`` is the player's cards in pack order, ``sizes`` and ``tricks`` the cards held and
    tricks taken by each player of ``order``; ``taken`` the talon the declarer took,
    ``talon_shown`` whether it is shown (:func:`.talon.shown_when_taken`), ``talon_public``
    whether the talons lay face up before (``talon.shown_from``); ``gifts`` the exchange's
    given cards as ``(receiver, card)``; ``undecided``: the player is still to decide on a
    dark game (his hand is hidden from him unless ``special.dark.sees_own_hand``)."""
    unseen = undecided and not form.special.dark.sees_own_hand
    return View(
        player=player,
        phase=phase,
        current_player=current,
        dealer=dealer,
        sitter=sitter,
        hand=() if unseen else tuple(hand),
        hand_sizes=tuple(zip(order, sizes, strict=True)),
        talon=talon.talon_seen(taken, talon_shown, talon_public, talons, declarer, player),
        given=talon.gifts_known(form, gifts, declarer, player),
        bids=tuple(bids),
        declarer=declarer,
        contract=contract,
        trump=trump,
        trick=tuple(trick),
        tricks=tuple(zip(order, tricks, strict=True)),
        declared=tuple(declared),
        scores=tuple(scores),
        last_trick=tuple(last_trick),
    )
