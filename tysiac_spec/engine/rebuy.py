"""Selling the contract (перекупка, re-buy; ``talon.rebuy``): the phase ``rebuy``.

As the auction ends with a declarer, the talon is turned face up for everyone and the
defenders in turn from the declarer's next seat (``who: defenders``; only that seat's defender
with ``first_defender``) are each offered the contract at ``price`` (context ``talon.rebuy``,
evaluated for the defender offered it): ``buy`` or ``pass``.  A price not above the winning bid
is not offered (that defender is skipped).  The first who buys becomes the declarer at that
contract (``deal.around.sold_by`` names the seller, who defends; event ``rebuy``) and takes the talon
as any declarer; if nobody buys, the declarer keeps the contract.  Only after an auction: a
golden-round, barrel or dark deal is not sold.

Source: mekedron/thousand ``app/session.lua`` (``maybe_open_rebuy_offer``: offered only when
``talon.rebuy_contract_value`` exceeds the bid, each non-declarer seat in clockwise order, the
first claim wins, else the original declarer keeps it; the value 240 in 100..240) and
``docs/variations/house-rules.md`` "Talon re-buy" (a higher contract named after the reveal,
"typically 120, 240, or any value above the current bid").

A second auction (``bidding: auction``, that page's reading: the re-buy "forms a second
auction"): the defenders in turn bid for the contract (``bid N``) or pass (final); the lowest
bid is the bidder's ``price`` and above the highest bid so far (the winning bid, then the last
re-buy bid) by a multiple of ``auction.step``, the highest ``auction.cap`` or else every point
of the deal (:func:`.auction.ceiling`); when every other defender has passed, the last bidder
buys at his bid (nobody bidding: the declarer keeps the contract).  The declarer does not bid
in it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..ruleset.model import Form
from . import env as envs
from .actions import Action, Bid, Buy, Pass
from .auction import ceiling, round_up
from .seating import defenders
from .state import DealState

__all__ = ["apply", "explain", "legal", "opened", "opens", "start"]

Env = Callable[[int], dict[str, Any]]

_OFFER: list[Action] = [Buy(), Pass()]


def opens(form: Form, deal: DealState) -> bool:
    """Whether the phase ``rebuy`` is to open for ``deal`` now: the rule on, a declarer after
    an auction (a normal deal, not a barrel deal)."""
    a = deal.around
    return (
        form.talon.rebuy.enabled
        and a is not None
        and deal.declarer is not None
        and a.sold_by is None
        and not a.rebuy_turns
        and deal.mode == "normal"
        and not deal.barrel_deal
    )


def _price(form: Form, deal: DealState, player: int, env: Env) -> int:
    price = form.talon.rebuy.price
    assert price is not None
    talon = tuple(c for t in deal.talons for c in t)
    return int(price(envs.talon_rebuy(env(player), deal.high_bid, talon)))


def _bids(form: Form, deal: DealState, player: int, env: Env) -> tuple[int, ...]:
    """The bids ``player`` may make in a second auction (``bidding: auction``): from his
    ``price`` and above the highest bid so far, on ``auction.step``, up to ``auction.cap``
    (else :func:`.auction.ceiling`)."""
    a, step = deal.around, form.auction.step
    assert a is not None
    high = max(deal.high_bid, a.rebuy_high)
    lo = round_up(max(_price(form, deal, player, env), high + step), step)
    cap = form.auction.cap
    hi = ceiling(form, deal.deck_points) if cap is None else cap
    return tuple(range(lo, hi + 1, step))


def _next_bidder(form: Form, deal: DealState, turns: tuple[int, ...], env: Env) -> bool:
    """In a second auction: ask the first of ``turns`` (the defenders still in, in turn) who
    may bid, skipping (as passed) one who cannot; False when it is over (one bidder left
    holding the highest bid, or nobody left)."""
    a = deal.around
    assert a is not None
    while turns and not (a.rebuy_holder is not None and turns == (a.rebuy_holder,)):
        bids = _bids(form, deal, turns[0], env) if turns[0] != a.rebuy_holder else ()
        if bids:
            a.rebuy_turns, a.rebuy_bids, a.rebuy_price = turns, bids, bids[0]
            deal.phase, deal.current = "rebuy", turns[0]
            return True
        turns = turns[1:] if turns[0] != a.rebuy_holder else (*turns[1:], turns[0])
    a.rebuy_turns, a.rebuy_bids, a.rebuy_price = (), (), 0
    return False


def _sold(deal: DealState, buyer: int, price: int) -> None:
    """``buyer`` becomes the declarer at ``price``; the seller defends (phase ``talon``)."""
    a = deal.around
    assert a is not None
    a.sold_by = deal.declarer
    deal.declarer = deal.high_bidder = buyer
    deal.high_bid = price
    deal.contested, deal.unopposed = True, False
    a.rebuy_turns, a.rebuy_price, a.rebuy_bids = (), 0, ()
    deal.phase = "talon"


def _next(form: Form, deal: DealState, turns: tuple[int, ...], env: Env) -> bool:
    """Offer the contract to the first of ``turns`` whose price is above the bid; False when
    none is left."""
    a = deal.around
    assert a is not None
    if form.talon.rebuy.bidding == "auction":
        return _next_bidder(form, deal, turns, env)
    while turns:
        price = _price(form, deal, turns[0], env)
        if price > deal.high_bid:
            a.rebuy_turns, a.rebuy_price = turns, price
            deal.phase, deal.current = "rebuy", turns[0]
            return True
        turns = turns[1:]
    a.rebuy_turns, a.rebuy_price = (), 0
    return False


def opened(form: Form, deal: DealState, env: Env) -> bool:
    """The step ``rebuy`` of :mod:`.flow`: the phase ``rebuy`` opened when it opens for
    ``deal`` now (:func:`opens`) and someone is offered the contract (:func:`start`); whether
    it did."""
    return opens(form, deal) and start(form, deal, env)


def start(form: Form, deal: DealState, env: Env) -> bool:
    """Turn the talon face up and offer the contract to the first defender whose price is
    above the bid; False when nobody is offered it (the caller goes on to the talon)."""
    deal.talon_public = True
    assert deal.declarer is not None
    turns = defenders(form, deal.declarer, deal.opponents())  # a partner is no defender
    if form.talon.rebuy.who == "first_defender":
        turns = turns[:1]
    return _next(form, deal, turns, env)


def legal(deal: DealState) -> list[Action]:
    """``buy`` or ``pass`` (a list not to be changed); in a second auction the bids the
    defender may make, then ``pass``."""
    a = deal.around
    if a is not None and a.rebuy_bids:
        return [*(Bid(b) for b in a.rebuy_bids), _OFFER[1]]
    return _OFFER


def apply(form: Form, deal: DealState, action: Action, env: Env) -> bool:
    """Apply ``buy`` or ``pass``; True when the phase is over (the caller goes on to the
    talon with the declarer then in ``deal.declarer``)."""
    p, a = deal.current, deal.around
    assert a is not None
    if type(action) is Buy:
        deal.bids.append((p, f"buy {a.rebuy_price}"))
        _sold(deal, p, a.rebuy_price)
        return True
    if type(action) is Bid:  # a second auction: p holds the highest bid, the turn goes on
        deal.bids.append((p, f"buy {action.amount}"))
        a.rebuy_high, a.rebuy_holder = action.amount, p
        turns = (*a.rebuy_turns[1:], p)
    else:
        turns = a.rebuy_turns[1:]
    if _next(form, deal, turns, env):
        return False
    if a.rebuy_holder is not None:
        _sold(deal, a.rebuy_holder, a.rebuy_high)
        a.rebuy_high, a.rebuy_holder = 0, None
        return True
    deal.phase = "talon"
    return True


def explain(deal: DealState) -> str:
    """Why an action is not legal in the phase ``rebuy``."""
    a = deal.around
    if a is not None and a.rebuy_bids:
        return (f"bid for the contract, {a.rebuy_bids[0]} to {a.rebuy_bids[-1]} "
                "(`bid N`), or `pass`")
    price = a.rebuy_price if a is not None else 0
    return f"buy the contract at {price} (`buy`) or `pass`"
