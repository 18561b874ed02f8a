"""The bid advisor: what a hand is worth at each bid, judged by play on sampled deals.

:func:`advise` deals the cards the player does not hold at random (``samples`` deals: the
other hands and the talons), and in each deal lets the player win the auction at the lowest
bid (the others pass), take the talon and make the exchange and contract as the heuristic bot
does (never forfeiting), and then plays the cards out double-dummy (every seat plays the
solver's best card, :mod:`tysiac_spec.bots.solver`; the heuristic's where the solver does not
solve the form).  The finished deal's outcome (:func:`~tysiac_spec.engine.scoring.outcome_of`)
is then settled by the engine (:func:`~tysiac_spec.engine.match.settle_valid_deal`) once for
each bid level, as if that level had been bid and announced: whether the contract is made,
and the player's change of score, with the match state the scores given make (barrel, the
800 rule and the rest of the ruleset's settlement).

Per level: the share of deals in which it is made, with a 95 % Wilson interval, and the mean
change of score; the recommended bid is the level with the highest mean change, or ``None``
(pass) when none is above 0 (passing is counted as 0: the defenders' own scores are not
weighed).  Double-dummy play knows every card, so the figures lean to the optimistic side.

Errors: a hand that does not fit the ruleset — a card not in the pack
(:class:`~tysiac_spec.errors.NotationError`), a card twice or the wrong number of cards
(``deal.stack``, :class:`~tysiac_spec.errors.IllegalActionError`, in the wording of stacked
deals) — and a form with a stock (``advise.form``); a budget over the limit
``bot_samples`` (:class:`~tysiac_spec.errors.LimitError`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from .. import limits
from ..cards import Card
from ..engine import Game
from ..engine.actions import Action, Bid, Claim, DeclareContract, Pass, PlayCard
from ..engine.match import MatchState, settle_valid_deal
from ..engine.scoring import DealOutcome, outcome_of
from ..engine.seating import seating
from ..errors import Diagnostic, IllegalActionError, LimitError, NotationError
from ..ruleset.model import Ruleset
from .heuristic import HeuristicBot
from .solver import Unsupported, played_form, solve_deal, unsupported

__all__ = ["Advice", "BidAdvice", "advise", "wilson"]


@dataclass(frozen=True, slots=True)
class BidAdvice:
    """One bid level: ``made`` of ``deals`` sampled deals made it (``probability``, its 95 %
    Wilson interval ``low``..``high``), and the mean change of the player's score
    (``expected``, points)."""

    bid: int
    made: int
    deals: int
    probability: float
    low: float
    high: float
    expected: float


@dataclass(frozen=True, slots=True)
class Advice:
    """The advice for a hand: the levels (:class:`BidAdvice`, ascending) and the
    ``recommended`` bid (``None``: pass)."""

    ruleset: str
    players: int
    seat: int
    hand: tuple[str, ...]
    samples: int
    deals: int
    levels: tuple[BidAdvice, ...]
    recommended: int | None
    auction: bool = True
    """False for a deal dealt with its declarer (a golden deal): the levels are the contracts
    he may play (the lowest one, unless raises are allowed), ``recommended`` the one to play."""
    mode: str = ""
    """The deal's mode when it has no auction (``golden``)."""

    def as_json(self) -> dict[str, object]:
        """The advice as JSON data."""
        return {
            "ruleset": self.ruleset, "players": self.players, "seat": self.seat, "hand": list(self.hand),
            "samples": self.samples, "deals": self.deals, "recommended": self.recommended,
            "auction": self.auction,
            "levels": [
                {"bid": x.bid, "made": x.made, "deals": x.deals, "probability": round(x.probability, 3),
                 "interval": [round(x.low, 3), round(x.high, 3)], "expected": round(x.expected, 1)}
                for x in self.levels
            ],
        }


def wilson(made: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of ``made`` successes in ``n`` trials (95 % by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = made / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _hand(rules: Ruleset, players: int, seat: int, hand: str) -> list[Card]:
    """The hand's cards (``advise --hand``): each card once, as many as a hand holds.

    Raises:
        NotationError: ``notation.hand`` — a card written twice, or not a hand's number of cards.
    """
    cards = list(rules.deck.parse_many(hand))
    twice = next((c for k, c in enumerate(cards) if c in cards[:k]), None)
    if twice is not None:
        raise NotationError(Diagnostic("notation.hand", f"--hand: {twice} is written twice"))
    size = rules.form(players).table.hand_size
    if len(cards) != size:
        raise NotationError(Diagnostic(
            "notation.hand", f"--hand: a hand holds {size} cards at {players} players (got {len(cards)})"))
    return cards


def advise(
    rules: Ruleset,
    players: int,
    hand: str,
    *,
    seat: int | None = None,
    dealer: int = 0,
    scores: Sequence[int] | None = None,
    samples: int = 12,
    seed: int = 1,
) -> Advice:
    """The advice for ``hand`` (cards in notation) held by ``seat`` (default: the first to
    bid after ``dealer``) at a table of ``players`` with match ``scores`` (default all 0),
    from ``samples`` sampled deals (see the module).

    Raises:
        NotationError: a card that is not in the pack; ``notation.hand``: a card twice, the
            wrong number of cards.
        IllegalActionError: ``advise.form``: a form with a stock; ``advise.seat``: a seat not
            at the table, or not the declarer of a deal without an auction (a golden deal).
        LimitError: ``limit.bot_samples``: ``samples`` below 1 or over the limit.
    """
    if not 1 <= samples <= limits.limit("bot_samples"):
        if samples < 1:
            raise LimitError(Diagnostic("limit.bot_samples", f"samples: {samples}, expected at least 1"))
        raise limits.exceeded("bot_samples", samples)
    form = rules.form(players)
    order, _ = seating(form, dealer % players)
    if seat is None:
        seat = order[0]
    if seat not in order:
        raise IllegalActionError(Diagnostic("advise.seat", f"seat {seat} does not play when {dealer} deals "
                                            f"(active seats: {', '.join(map(str, order))})"))
    cards = _hand(rules, players, seat, hand)
    if form.table.stock:
        raise IllegalActionError(Diagnostic("advise.form", "the advisor does not play forms with a stock "
                                            "(table.stock)"))
    pack = rules.deck.cards
    rest = [c for c in pack if c not in cards]
    rng = random.Random(seed)
    totals: dict[int, list[int]] = {}
    made: dict[int, int] = {}
    levels: list[int] = []
    deals = 0
    contract: int | None = None  # a deal without an auction: the contract its declarer plays
    finished: list[tuple[MatchState, DealOutcome]] = []
    for k in range(samples):
        rng.shuffle(rest)
        game = Game(rules, players=players, seed=seed * 1000 + k)
        if scores is not None:
            game.scores = list(scores)
        hands: dict[int, str] = {seat: " ".join(map(str, cards))}
        at = 0
        for p in order:
            if p != seat:
                hands[p] = " ".join(map(str, rest[at:at + form.table.hand_size]))
                at += form.table.hand_size
        talons = []
        for size in form.table.talons:
            talons.append(" ".join(map(str, rest[at:at + size])))
            at += size
        game.start_deal(hands=hands, talons=talons, dealer=dealer % players)
        opened = game.deal
        if opened.declarer is not None and not opened.bids:  # dealt with its declarer: no auction
            contract = opened.high_bid
            if seat != opened.declarer:
                raise IllegalActionError(Diagnostic(
                    "advise.seat", f"the deal has no auction (a {opened.mode} deal): seat {opened.declarer} "
                    f"plays the contract {contract}, so seat {seat} has no bid to make",
                    hint=f"advise the declarer's seat (--seat {opened.declarer})"))
        start = replace(game.match, dealer=dealer % players)
        bot = HeuristicBot(seed + k, form)
        levels = sorted(set(levels) | set(_play_deal(game, seat, bot, pack)))
        deal = game.last_deal
        if deal is None or deal.declarer != seat or deal.forfeited or not game.deal_scores:
            continue
        deals += 1
        finished.append((start, outcome_of(deal)))
    for start, outcome in finished:
        for level in levels:
            new, _, ok = settle_valid_deal(form, start, replace(outcome, bid=level, contract=level))
            totals.setdefault(level, []).append(new.scores[seat] - start.scores[seat])
            made[level] = made.get(level, 0) + int(ok)
    out = []
    for level in levels:
        changes = totals.get(level, [])
        n = len(changes)
        m = made.get(level, 0)
        low, high = wilson(m, n)
        out.append(BidAdvice(level, m, n, m / n if n else 0.0, low, high, sum(changes) / n if n else 0.0))
    best = max(out, key=lambda x: x.expected, default=None)
    if contract is not None:  # no auction: the contract is played whatever it is worth
        recommended = best.bid if best is not None else contract
        return Advice(rules.id, players, seat, tuple(map(str, cards)), samples, deals, tuple(out),
                      recommended, auction=False, mode=game.last_deal.mode if game.last_deal else "")
    bid = best.bid if best is not None and best.expected > 0 else None
    return Advice(rules.id, players, seat, tuple(map(str, cards)), samples, deals, tuple(out), bid)


def _play_deal(game: Game, seat: int, bot: HeuristicBot, pack: Sequence[Card]) -> list[int]:
    """Play the stacked deal of ``game`` to its end as the module says; the levels the
    player was offered (his first bids, the contracts he might announce)."""
    levels: list[int] = []
    deals = len(game.deal_scores)
    while len(game.deal_scores) == deals and not game.is_over:
        legal = game.legal_actions()
        p = game.current_player
        deal = game.deal
        action: Action | None = None
        if deal.phase == "play" and deal.declarer is not None:
            action = _solved(game, legal, pack)
        elif deal.phase == "auction":
            bids = [a for a in legal if type(a) is Bid]
            if p == seat and bids:
                if not levels:
                    levels = [b.amount for b in bids]
                action = bids[0]
            else:
                action = next((a for a in legal if type(a) is Pass), None)
        elif deal.phase == "contract" and p == seat:
            amounts = [a for a in legal if type(a) is DeclareContract]
            levels = sorted(set(levels) | {a.amount for a in amounts})
            action = min(amounts, key=lambda a: a.amount) if amounts else None
        elif p != seat or deal.phase in ("contra", "rebuy", "redeal", "dark"):
            action = next((a for a in legal if type(a) is Pass), None)
        if action is None:
            plain = [a for a in legal if str(a).split(" ", 1)[0] not in ("forfeit", "redeal", "dark")]
            action = bot.choose(game.view(p), plain or legal) if p == seat else (plain or legal)[0]
        game.apply(action)
    return levels


def _solved(game: Game, legal: Sequence[Action], pack: Sequence[Card]) -> Action | None:
    """The solver's best play for the player to act (every hand known), or ``None`` where the
    solver does not solve the position."""
    deal, form = game.deal, game.form
    if unsupported(played_form(form, deal), deal):
        return None
    try:
        solution, _ = solve_deal(form, deal, pack)
    except Unsupported:
        return None
    if solution.move == "claim":
        return next((a for a in legal if type(a) is Claim), None)
    assert isinstance(solution.move, tuple)
    index, declares = solution.move
    return next((a for a in legal if type(a) is PlayCard and a.card.index == index and a.marriage == declares
                 and not a.aces), None)
