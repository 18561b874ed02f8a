"""Marriages announced before the first trick (``marriages.declared_by: before_play``): the
phase ``marriages``, in the shape of :mod:`.contra` and :mod:`.rebuy` (``start``, ``legal``,
``apply``, ``explain``), and the first leader of the play (``play.leader``).

When the play opens, the players holding a marriage they may announce
(:func:`.play.announceable`) are asked in turn from the first leader; each announces his
marriages one at a time (:func:`.play.declare_marriage`) or passes, and the play then starts
from the first leader.  The marriage rules are the deal's (a named contract kind may have its
own: :func:`.contracts.played_form`).
"""

from __future__ import annotations

from ..ruleset.model import Marriages
from . import play
from .actions import Action, DeclareMarriage, Pass
from .state import DealState

__all__ = ["apply", "explain", "first_leader", "leader_of", "legal", "start"]

_PASS = Pass()
"""The ``pass`` of the phase (one shared object)."""


def first_leader(leader: str, deal: DealState) -> int:
    """The leader of the first trick by the rule ``leader`` (``play.leader``): the forced
    player (``forced``, when the deal has one), the first player after the dealer
    (``dealer_left``), else the declarer."""
    declarer = -1 if deal.declarer is None else deal.declarer
    forced = -1 if deal.forced is None else deal.forced
    p = leader_of(leader == "forced", leader == "dealer_left", forced, deal.order[0], declarer)
    assert p >= 0
    return p


def leader_of(leader_forced: bool, dealer_left: bool, forced: int, first: int, declarer: int) -> int:
    """The leader of the first trick: the forced player (``leader_forced``, when the deal has
    one: ``forced``, -1 for none), the first player after the dealer (``dealer_left``:
    ``first``), else the declarer.  The one statement (:func:`first_leader`; inlined by the
    fast path's generator, ``tysiac_spec.fast.generate.INLINED``)."""
    return forced if leader_forced and forced >= 0 else (first if dealer_left else declarer)


def start(m: Marriages, deal: DealState) -> None:
    """Open the phase ``marriages`` when a player holds a marriage to announce, in turn from
    the first leader (``deal.current``); else leave the play to start."""
    order = deal.order
    i = order.index(deal.current)
    turn = order[i:] + order[:i]
    announcers = tuple([p for p in turn if play.announceable(m, deal, p)])
    if announcers:
        deal.phase, deal.announcers, deal.current = "marriages", announcers, announcers[0]


def legal(m: Marriages, deal: DealState) -> list[Action]:
    """The marriages the player to act may announce, then ``pass``."""
    return [*(DeclareMarriage(s) for s in play.announceable(m, deal, deal.current)), _PASS]


def apply(m: Marriages, leader: str, deal: DealState, action: Action) -> None:
    """A marriage announced, or the player done (``pass``, or nothing left to announce): the
    next announcer, or the play from its first leader (``leader``: ``play.leader``)."""
    player = deal.current
    if isinstance(action, DeclareMarriage):
        play.declare_marriage(m, deal, player, action.suit)
        if play.announceable(m, deal, player):
            return
    rest = deal.announcers[1:]
    deal.announcers = rest
    if rest:
        deal.current = rest[0]
    else:
        deal.phase, deal.current = "play", first_leader(leader, deal)


def explain(deal: DealState, action: Action) -> str:
    """Why an action is refused in the phase."""
    return "announce a marriage held (`marriage SUIT`) or `pass`"
