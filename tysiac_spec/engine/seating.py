"""Seating: who deals, who sits out, who plays and in which order, stated once for the
engine's :class:`~tysiac_spec.engine.game.Game`, the match settlement
(:mod:`tysiac_spec.engine.match`) and the real-table scoresheet (:mod:`tysiac_spec.scoresheet`).

Seats are numbered ``0`` to ``N-1`` clockwise.  Play, bidding and the deal move in
``deal.direction``: with ``clockwise`` from seat ``d`` to ``d + 1``, else to ``d - 1``
(modulo ``N``).  When fewer players are active than seated (``table.active``), one player
sits out each deal: the seat ``table.sitter.seat`` counted from the dealer in the direction
of play (the dealer when no sitter is described).  With fixed partnerships
(``table.partnerships: across``, four players, all active) the players sitting across the
table form a side: :func:`sides`.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..ruleset.model import Form, sitter_steps

__all__ = [
    "active_players",
    "bidding_order",
    "defenders",
    "direction",
    "first_hand",
    "next_dealer",
    "next_seat",
    "opponents_after",
    "redeal_dealer",
    "seat_from",
    "seating",
    "seats_text",
    "side_of",
    "sides",
    "sitter_of",
    "standing_for",
    "turn_after",
]

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
    k = sitter_steps(sitter.seat if sitter is not None else None, n)
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


def next_seat(seat: int, step: int, players: int) -> int:
    """The seat after ``seat`` in the direction of play (``step``: :func:`direction`) at a
    table of ``players`` seats.  The one statement (the next dealer, a seat counted from the
    dealer; inlined by the fast path, ``tysiac_spec.fast.generate.INLINED``)."""
    return (seat + step) % players


def next_dealer(form: Form, dealer: int) -> int:
    """The dealer of the deal after ``dealer``'s: the next seat in the direction of play."""
    return next_seat(dealer, direction(form), form.players)


def seat_from(dealer: int, seat: int, step: int, players: int, order: Sequence[int]) -> int:
    """The active player (one of ``order``) at ``seat`` places from ``dealer`` in the
    direction of play (``step``), or the first active one after that seat (a sitter's seat
    is passed over): the forced opener of ``auction.forced_seat``.  The one statement
    (:func:`~.auction.seat_player`; inlined by the fast path)."""
    p = (dealer + step * seat) % players
    while p not in order:
        p = next_seat(p, step, players)
    return p


def turn_after(order: Sequence[int], player: int) -> int:
    """The active player after ``player`` in turn order (``order``, the deal's active
    players in bidding order)."""
    return order[(order.index(player) + 1) % len(order)]


def opponents_after(order: list[int], player: int) -> list[int]:
    """The active players other than ``player`` (``order``, the deal's active players in
    bidding order), in turn order after him: the declarer's opponents."""
    i = order.index(player) + 1
    return order[i:] + order[: i - 1]


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


def sides(form: Form) -> tuple[int, ...] | None:
    """The side of each seat ``0..N-1`` with fixed partnerships, or ``None`` when every player
    plays for himself (``table.partnerships: none``).  ``across``: the players sitting across
    the table, seats ``p`` and ``p + N/2``, are one side, numbered ``p mod N/2`` (0+2 against
    1+3 at four; ``ruleset/validate.py`` refuses partnerships at any other table,
    ``table.partnerships``).  Source: mekedron/thousand, ``players.partnership_mode:
    fixed_across_table``.  The one home of who plays with whom: the match settlement
    (:mod:`.match`) reads it for the side's score, the barrel and the target."""
    if form.table.partnerships == "none":
        return None
    half = form.players // 2
    return tuple(p % half for p in range(form.players))


def side_of(form: Form, player: int) -> tuple[int, ...]:
    """The seats of ``player``'s side, in seat order: with fixed partnerships (:func:`sides`)
    ``player`` and his partners (``(1, 3)`` for seat 3 at four, ``across``), else
    ``(player,)``.  Who pays a per-seat payment (:func:`.match.charge_seat`) and who wins
    with the match's winner (:func:`.match.winners`)."""
    team = sides(form)
    if team is None:
        return (player,)
    return tuple(p for p, side in enumerate(team) if side == team[player])


def defenders(form: Form, declarer: int, opponents: Sequence[int]) -> tuple[int, ...]:
    """The seats of ``opponents`` (in their order) not on ``declarer``'s side (:func:`side_of`):
    with fixed partnerships his partner is no defender, so he neither buys the contract from
    him (``talon.rebuy``) nor doubles it (``contract.contra``); else ``opponents`` as given."""
    own = side_of(form, declarer)
    return tuple(p for p in opponents if p not in own)


def seats_text(seats: Sequence[int]) -> str:
    """Seats as words for a message: ``P0``; ``P1 and P3``; ``P0, P1 and P2``."""
    names = [f"P{p}" for p in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def standing_for(team: tuple[int, ...], declarer: int) -> tuple[int, ...]:
    """For each seat, the seat that stands for its side in the settlement of ``declarer``'s
    deal (``team`` from :func:`sides`): the declarer for his side, else the side's lowest
    seat.  A seat that stands for itself has its own value; the others copy it."""
    first: dict[int, int] = {team[declarer]: declarer}
    for p, side in enumerate(team):
        first.setdefault(side, p)
    return tuple(first[side] for side in team)
