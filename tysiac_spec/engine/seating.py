"""Seating: who deals, who sits out, who plays and in which order, stated once for the
engine's :class:`~tysiac_spec.engine.game.Game`, the match settlement
(:mod:`tysiac_spec.engine.match`) and the real-table scoresheet (:mod:`tysiac_spec.scoresheet`).

Seats are numbered ``0`` to ``N-1`` clockwise.  Play, bidding and the deal move in
``deal.direction``: with ``clockwise`` from seat ``d`` to ``d + 1``, else to ``d - 1``
(modulo ``N``).  When fewer players are active than seated (``table.active``), one player
sits out each deal: the seat ``table.sitter.seat`` counted from the dealer in the direction
of play (the dealer when no sitter is described).
"""

from __future__ import annotations

from ..ruleset.model import Form

__all__ = [
    "active_players",
    "bidding_order",
    "direction",
    "first_hand",
    "next_dealer",
    "redeal_dealer",
    "seating",
    "sitter_of",
]

_SITTER_STEPS = {"dealer": 0, "opposite_dealer": 2}
"""Steps from the dealer, in the direction of play, to the sitter's seat (``table.sitter.seat``);
``dealer_right`` and ``last_bidder`` are ``N - 1`` steps (the dealer's right: the player after
the three who bid from the dealer's left; an assumption where the sources are silent)."""


def direction(form: Form) -> int:
    """The step from one seat to the next in play: ``1`` for ``deal.direction: clockwise``,
    else ``-1``."""
    return 1 if form.deal.direction == "clockwise" else -1


def sitter_of(form: Form, dealer: int) -> int | None:
    """The seat that sits out the deal dealt by ``dealer`` (0..N-1), or ``None`` when every
    seated player plays (``table.active`` unset or equal to the players)."""
    n = form.players
    if form.active >= n:
        return None
    sitter = form.table.sitter
    if sitter is None:
        return dealer % n
    k = _SITTER_STEPS.get(sitter.seat, n - 1)
    return (dealer + direction(form) * k) % n


def seating(form: Form, dealer: int) -> tuple[list[int], int | None]:
    """The active players in bidding order (from the dealer's next seat in the direction of
    play; a new list) and the sitter (or ``None``) for the deal dealt by ``dealer``."""
    n, d = form.players, direction(form)
    sitter = sitter_of(form, dealer)
    return [p for p in ((dealer + d * k) % n for k in range(1, n + 1)) if p != sitter], sitter


def bidding_order(form: Form, dealer: int) -> list[int]:
    """The active players of ``dealer``'s deal in bidding order (see :func:`seating`)."""
    return seating(form, dealer)[0]


def first_hand(form: Form, dealer: int) -> int:
    """The first active player after the dealer in the direction of play (the first bidder,
    the golden round's declarer, the player offered a dark game with ``dark.who: first_hand``)."""
    return seating(form, dealer)[0][0]


def next_dealer(form: Form, dealer: int) -> int:
    """The dealer of the deal after ``dealer``'s: the next seat in the direction of play."""
    return (dealer + direction(form)) % form.players


def redeal_dealer(form: Form, dealer: int, rule: str | None = None) -> int:
    """The dealer of the deal that replaces an abandoned deal dealt by ``dealer``
    (``deal.redeal_dealer``, or ``rule`` when given: a table incident's ``dealer``):
    ``dealer`` again (``same``), or :func:`next_dealer` (``next``)."""
    rule = form.deal.redeal_dealer if rule is None else rule
    return next_dealer(form, dealer) if rule == "next" else dealer


def active_players(form: Form, dealer: int) -> list[int]:
    """The players who play ``dealer``'s deal, in seat order ``0..N-1`` (a new list)."""
    sitter = sitter_of(form, dealer)
    return [p for p in range(form.players) if p != sitter]
