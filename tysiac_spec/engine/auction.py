"""The auction: who opens, which bids are legal, when it ends (driven by ``form.auction``).

Not supported yet: ``auction.reentries`` (a player who passed coming back a limited
number of times; with ``pass_is_final: false`` a passed player may always speak again).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..ruleset.model import Form
from .actions import Action, Bid, Pass
from .state import DealState

__all__ = ["apply", "explain", "legal", "start"]

Env = Callable[[int], dict[str, Any]]
"""Builds the formula environment for one player (``player``, ``players``, ``options``)."""


def seat_player(deal: DealState, players: int, seat: int, direction: int) -> int:
    """The active player at ``seat`` (counted from the dealer); the next active one if sitting out."""
    p = (deal.dealer + direction * seat) % players
    while p not in deal.order:
        p = (p + direction) % players
    return p


def ceiling(form: Form, deck_points: int) -> int:
    """The most a deal can be worth: every card point plus every marriage (points).

    Bounds bids and contracts when the ruleset sets neither a cap nor a formula.
    """
    return deck_points + sum(form.marriages.values.values())


def start(form: Form, deal: DealState, env: Env, direction: int) -> None:
    """Open the auction: the forced player's standing bid and the first speaker.

    Rule: ``auction.forced_seat``, ``forced_bid``, ``first_to_speak``; each player's
    highest bid from ``auction.cap`` and ``auction.max_bid`` (else :func:`ceiling`).
    """
    a = form.auction
    for p in deal.order:
        cap = a.cap
        if a.max_bid is not None:
            e = env(p)
            e["hand"] = tuple(deal.hands[p])
            limit = int(a.max_bid(e))
            cap = limit if cap is None else min(cap, limit)
        deal.max_bids[p] = cap if cap is not None else ceiling(form, deal.deck_points)
    if a.forced_seat is None:
        deal.forced = None
        deal.current = deal.order[0]
        return
    forced = seat_player(deal, form.players, a.forced_seat, direction)
    deal.forced = forced
    if a.first_to_speak == "forced":
        deal.current = forced
        deal.opening = True
    else:
        deal.high_bid, deal.high_bidder = a.forced_bid, forced
        deal.bids.append((forced, f"bid {a.forced_bid}"))
        deal.current = deal.next_active(forced)


def _amounts(form: Form, deal: DealState, player: int, env: Env) -> list[int]:
    a = form.auction
    step = a.step
    if deal.opening:
        lo = a.forced_bid
    elif deal.high_bidder is None:
        lo = a.min_bid
    else:
        lo = deal.high_bid + step
    if not deal.opening:
        lo = max(lo, a.min_bid)
    lo = -(-lo // step) * step
    hi = deal.max_bids[player]
    if deal.high_bidder is not None and not deal.opening:
        if a.raise_by == "exactly_step":
            hi = min(hi, lo)
        elif a.raise_by == "at_most" and a.max_raise is not None:
            hi = min(hi, deal.high_bid + a.max_raise)
    elif a.raise_by == "exactly_step":
        hi = min(hi, lo)
    out = list(range(lo, hi + 1, step))
    if a.may_bid is not None and out:
        e = env(player)
        e.update(hand=tuple(deal.hands[player]), forced=player == deal.forced, high_bid=deal.high_bid)
        kept = []
        for b in out:
            e["bid"] = b
            if a.may_bid(e):
                kept.append(b)
        out = kept
    if deal.opening and not out:
        out = [a.forced_bid]
    return out


def legal(form: Form, deal: DealState, env: Env) -> list[Action]:
    """Legal auction actions of the player to speak: bids ascending, then pass.

    The forced player opening at the compulsory bid may not pass.
    """
    bids: list[Action] = [Bid(b) for b in _amounts(form, deal, deal.current, env)]
    return bids if deal.opening else [*bids, Pass()]


def explain(form: Form, deal: DealState, action: Action, env: Env) -> str:
    """Why ``action`` is not legal now (one phrase)."""
    if isinstance(action, Pass):
        return "the forced player must open with a bid"
    if not isinstance(action, Bid):
        return "only bids and passes are allowed in the auction"
    amounts = _amounts(form, deal, deal.current, env)
    if not amounts:
        return "no bid is possible; pass"
    if action.amount % form.auction.step:
        return f"bids are multiples of {form.auction.step}"
    if action.amount < amounts[0]:
        return f"the lowest bid now is {amounts[0]}"
    if action.amount > amounts[-1]:
        return f"the highest bid allowed now is {amounts[-1]}"
    return "the ruleset does not allow this bid"


def _finish(form: Form, deal: DealState) -> None:
    a = form.auction
    if deal.high_bidder is None:
        if a.all_pass == "redeal":
            deal.phase = "redeal"
            return
        if a.all_pass == "dealer_plays" and deal.dealer in deal.order:
            deal.declarer, deal.high_bid = deal.dealer, a.min_bid
        else:
            deal.declarer = deal.forced if deal.forced is not None else deal.order[0]
            deal.high_bid = a.forced_bid if deal.forced is not None else a.min_bid
    else:
        deal.declarer = deal.high_bidder
    deal.phase = "talon"


def apply(form: Form, deal: DealState, action: Action) -> None:
    """Record a legal auction action; ends the auction (``deal.phase`` → ``talon`` or
    ``redeal``) when one bidder is left or everyone has passed."""
    p = deal.current
    deal.bids.append((p, str(action)))
    if isinstance(action, Bid):
        if p != deal.forced:
            deal.contested = True
        deal.high_bid, deal.high_bidder = action.amount, p
        deal.passes_since_bid = 0
        deal.opening = False
    else:
        deal.passed.add(p)
        deal.passes_since_bid += 1
    n = len(deal.order)
    if form.auction.pass_is_final:
        remaining = [q for q in deal.order if q not in deal.passed]
        if not remaining or remaining == [deal.high_bidder]:
            _finish(form, deal)
            return
        q = deal.next_active(p)
        while q in deal.passed:
            q = deal.next_active(q)
        deal.current = q
        return
    needed = n - 1 if deal.high_bidder is not None else n
    if deal.passes_since_bid >= needed:
        _finish(form, deal)
        return
    deal.current = deal.next_active(p)
