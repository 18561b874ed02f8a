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
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..ruleset.model import Form
from . import env as envs
from .actions import Action, Buy, Pass
from .seating import defenders
from .state import DealState

__all__ = ["apply", "explain", "legal", "opens", "start"]

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


def _next(form: Form, deal: DealState, turns: tuple[int, ...], env: Env) -> bool:
    """Offer the contract to the first of ``turns`` whose price is above the bid; False when
    none is left."""
    a = deal.around
    assert a is not None
    while turns:
        price = _price(form, deal, turns[0], env)
        if price > deal.high_bid:
            a.rebuy_turns, a.rebuy_price = turns, price
            deal.phase, deal.current = "rebuy", turns[0]
            return True
        turns = turns[1:]
    a.rebuy_turns, a.rebuy_price = (), 0
    return False


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
    """``buy`` or ``pass`` (a list not to be changed)."""
    return _OFFER


def apply(form: Form, deal: DealState, action: Action, env: Env) -> bool:
    """Apply ``buy`` or ``pass``; True when the phase is over (the caller goes on to the
    talon with the declarer then in ``deal.declarer``)."""
    p, a = deal.current, deal.around
    assert a is not None
    if type(action) is Buy:
        a.sold_by = deal.declarer
        deal.declarer = deal.high_bidder = p
        deal.high_bid = a.rebuy_price
        deal.bids.append((p, f"buy {a.rebuy_price}"))
        deal.contested, deal.unopposed = True, False
        a.rebuy_turns, a.rebuy_price = (), 0
        deal.phase = "talon"
        return True
    if _next(form, deal, a.rebuy_turns[1:], env):
        return False
    deal.phase = "talon"
    return True


def explain(deal: DealState) -> str:
    """Why an action is not legal in the phase ``rebuy``."""
    price = deal.around.rebuy_price if deal.around is not None else 0
    return f"buy the contract at {price} (`buy`) or `pass`"
