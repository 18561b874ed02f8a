"""The auction: who opens, which bids are legal, when it ends (driven by ``form.auction``),
and the deals that replace it: the dark game (``special.dark``) and the golden round
(``special.golden_round``).

``auction.reentries``: with a final pass, a player who passed may still bid that many
times in the deal (each comeback uses one); the auction ends when every other player
has passed since the last bid or has no comeback left.  ``auction.all_pass`` applies
when nobody bid over the forced bid (or nobody bid at all).  ``auction.may_bid``
filters every bid, the forced opener's included; a forced opener left without a bid
may still make the compulsory one (PAGx2: a silenced player bids only his compulsory
100).  Source ids (``PAGx2``, ``S002``) are keys of a ruleset's ``sources:`` list.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from .. import limits
from ..cards import Card
from ..ruleset.model import Form
from . import env as envs
from .actions import Action, ActionTable, Bid, CancelDark, Dark, Pass
from .seating import seat_from
from .seen import seen_cards
from .state import DealState

__all__ = [
    "MODES",
    "MODE_DARK",
    "MODE_GOLDEN",
    "MODE_NORMAL",
    "PASSED_OUT_MAX",
    "BidSteps",
    "allowed_bids",
    "apply",
    "apply_dark",
    "auction_over",
    "barrel_taker",
    "bid_range",
    "bid_steps",
    "ceiling",
    "compile_amounts",
    "compile_legal",
    "dark_allowed",
    "dark_cancellers",
    "dark_candidates",
    "dark_declared",
    "dealer_exempt",
    "declare_opening",
    "explain",
    "explain_dark",
    "golden_floor",
    "highest_bid",
    "legal_dark",
    "opening_of",
    "passed_out",
    "passed_out_count",
    "passed_out_declarer",
    "passed_out_redealt",
    "passed_out_text",
    "round_up",
    "seat_player",
    "start",
    "start_dark",
    "unopposed",
]

Env = Callable[[int], dict[str, Any]]
"""Builds the formula environment for one player (``player``, ``players``, ``options``)."""


def seat_player(deal: DealState, players: int, seat: int, direction: int) -> int:
    """The active player at ``seat`` (counted from the dealer); the next active one if sitting out."""
    return seat_from(deal.dealer, seat, direction, players, deal.order)


def ceiling(form: Form, deck_points: int) -> int:
    """The most a deal can be worth: every card point plus every marriage (points).

    Bounds bids and contracts when the ruleset sets neither a cap nor a formula.
    """
    return deck_points + sum(form.marriages.values.values())


def round_up(amount: int, step: int) -> int:
    """The lowest multiple of ``step`` at or above ``amount`` (points): bids move in
    ``auction.step``, raised contracts in ``contract.step``."""
    return -(-amount // step) * step


class BidSteps(NamedTuple):
    """How bids and contracts move, stated once (``form.auction``, ``form.contract``): read by
    the auction (:func:`compile_amounts`, :func:`explain`) and the check of a deal's outcome
    (:func:`~tysiac_spec.engine.outcome.iter_bid_errors`,
    :func:`~tysiac_spec.engine.outcome.iter_contract_errors`); the steps themselves are
    :func:`round_up`'s, which the auction and the contract
    (:func:`~tysiac_spec.engine.talon.contract_amounts`) call.  Amounts are points.

    Attributes:
        step: ``auction.step``: every bid is a multiple of it.
        min_bid: ``auction.min_bid``: the lowest bid but a forced opening.
        forced_bid: ``auction.forced_bid`` when a seat must open (``forced_seat``), else ``None``.
        cap: ``auction.cap``: no bid (nor contract) above it; ``None``: no fixed cap.
        contract_step: ``contract.step``: a contract raised above the bid is a multiple of it.
    """

    step: int
    min_bid: int
    forced_bid: int | None
    cap: int | None
    contract_step: int

    @property
    def lowest(self) -> int:
        """The lowest bid a normal deal can be won at: ``min_bid``, or the forced opening when
        it is lower."""
        return self.min_bid if self.forced_bid is None else min(self.min_bid, self.forced_bid)

    def on_step(self, bid: int) -> bool:
        """Whether ``bid`` is a multiple of :attr:`step`."""
        return round_up(bid, self.step) == bid

    def over_cap(self, amount: int) -> bool:
        """Whether ``amount`` is above :attr:`cap`."""
        return self.cap is not None and amount > self.cap

    def contract_on_step(self, bid: int, contract: int) -> bool:
        """Whether ``contract`` is the bid, or a raise by :attr:`contract_step` (a multiple of it)."""
        return contract == bid or round_up(contract, self.contract_step) == contract


PASSED_OUT_MAX = limits.limit("passed_out")
"""Deals everyone passes and that are dealt again (``all_pass: redeal``), in a row, after
which a match stops without a winner: nobody may be able to bid (``may_bid``), and the
auction would otherwise go on for ever.  The limit ``passed_out`` of :mod:`tysiac_spec.limits`
(100; ``TYSIAC_MAX_PASSED_OUT``), read once when the engine is imported."""


def passed_out_count(run: int, total: int, most: int) -> tuple[int, int, bool]:
    """A deal everyone passed and dealt again, counted: the deals passed out in a row
    (``run``) and in the match (``total``), each one more, and whether the match stops now,
    ``most`` (:data:`PASSED_OUT_MAX`) in a row (nobody may be expected to bid).  The one
    statement (``Game``'s redeal of a passed-out deal calls it; inlined by the fast path)."""
    return run + 1, total + 1, run + 1 >= most


def passed_out_text(run: int) -> str:
    """The text of event ``all-pass.stopped``: why the match stopped after ``run`` deals."""
    return (f"{run} deals in a row passed out and dealt again: nobody could bid, "
            "the match is stopped (auction.may_bid, auction.all_pass)")


def bid_steps(form: Form) -> BidSteps:
    """The :class:`BidSteps` of ``form``."""
    a = form.auction
    forced = a.forced_bid if a.forced_seat is not None else None
    return BidSteps(a.step, a.min_bid, forced, a.cap, form.contract.step)


def start(form: Form, deal: DealState, env: Env, direction: int) -> None:
    """Open the auction: the forced player's standing bid and the first speaker.

    Rule: ``auction.forced_seat``, ``forced_bid``, ``first_to_speak``, ``forced_opening``; each player's
    highest bid from ``auction.cap`` and ``auction.max_bid`` (else :func:`ceiling`); whether the
    dealer is exempt from playing a deal everyone passes (``auction.dealer_exempt``: ``may_bid``
    refuses him ``min_bid`` as the forced player; ``deal.dealer_exempt``).
    """
    a = form.auction
    # the bidder's base only for a formula that reads it (`120 + marriages(hand)` does not)
    reads_base = a.max_bid is not None and not a.max_bid.reads.isdisjoint(envs.BASE_NAMES)
    for p in deal.order:
        deal.max_bids[p] = highest_bid(form, deal.hands[p], env(p) if reads_base else envs.UNREAD_BASE,
                                       deal.deck_points)
    if a.dealer_exempt and a.may_bid is not None and deal.dealer in deal.order:
        deal.dealer_exempt = dealer_exempt(form, deal.hands[deal.dealer], env(deal.dealer))
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
        bid = max(a.forced_bid, deal.bid_floor)  # a golden deal's auction: its contract
        deal.high_bid, deal.high_bidder = bid, forced
        deal.bids.append((forced, f"bid {bid}"))
        deal.current = deal.next_active(forced)


def highest_bid(form: Form, hand: Sequence[Card], base: Mapping[str, Any], deck_points: int,
                kept: bool = True) -> int:
    """The highest bid (points) of a player holding ``hand``: ``auction.cap``, lowered to
    ``auction.max_bid`` of the hand (``base``: his formula base, :func:`.env.base`, or
    ``env.UNREAD_BASE`` when the formula reads none of it), else :func:`ceiling`.
    ``kept=False``: the formula evaluated, not looked up in the form's kept values (a caller
    that keeps its own: the fast path's ``H_max_bid``); the same value."""
    a = form.auction
    cap = a.cap
    if a.max_bid is not None:
        compiled = form.compiled  # (its value kept by the cards it sees: CompiledForm.max_bid_kept)
        values = compiled.max_bid_kept if compiled is not None and kept else None
        if values is None:
            limit = int(a.max_bid.evaluator()(envs.auction_max_bid(base, tuple(hand))))
        else:
            bits = 0
            for c in hand:
                bits |= c.bit
            seen, known_values = values
            known = known_values.get(bits & seen)
            if known is None:
                known = int(a.max_bid.evaluator()(envs.auction_max_bid(base, tuple(hand))))
                if len(known_values) > 50_000:
                    known_values.clear()
                known_values[bits & seen] = known
            limit = known
        cap = limit if cap is None else min(cap, limit)
    return cap if cap is not None else ceiling(form, deck_points)


def dealer_exempt(form: Form, hand: Sequence[Card], base: Mapping[str, Any]) -> bool:
    """Whether a dealer holding ``hand`` is exempt from playing a deal everyone passes
    (``auction.dealer_exempt``, with ``all_pass: dealer_plays``): ``auction.may_bid`` refuses
    him ``min_bid`` as the forced player.  ``base``: his formula base (:func:`.env.base`)."""
    a = form.auction
    assert a.may_bid is not None
    return not a.may_bid(envs.auction_may_bid(base, tuple(hand), a.min_bid, 0, True))


def bid_range(
    opening: bool, high_bid: int, bid_made: bool, most: int, forced_bid: int, min_bid: int, step: int,
    exactly_step: bool, max_raise: int | None, exact_opening: bool,
) -> tuple[int, int]:
    """The lowest and highest bid a player may make now (points; ``may_bid`` not applied),
    before the rules' bounds on the range: from the forced bid (``opening``), the minimum bid
    or the high bid plus a step (``bid_made``: someone has bid ``high_bid``), on a step, up to
    the player's highest bid ``most``; raised by exactly a step (``exactly_step``) or at most
    ``max_raise`` (``None``: no bound); a bid made without a bid before it is exactly the
    lowest when ``exactly_step``, and the forced opening is exact when ``exact_opening``.  The
    range is empty when ``hi`` is below ``lo``.

    The one statement of the range: :func:`compile_amounts` calls it, and the fast path's
    generator writes it inline with the form's rules folded
    (``tysiac_spec.fast.generate.INLINED``)."""
    if opening:
        lo = forced_bid
    else:
        lo = high_bid + step if bid_made else min_bid
        if lo < min_bid:
            lo = min_bid
    if lo % step:  # (off a step only after an opening or minimum bid that is)
        lo = round_up(lo, step)
    hi = most
    if bid_made and not opening:
        if exactly_step:
            if lo < hi:
                hi = lo
        elif max_raise is not None:
            if high_bid + max_raise < hi:
                hi = high_bid + max_raise
    elif exactly_step or (opening and exact_opening):
        if lo < hi:
            hi = lo
    return lo, hi


Amounts = Callable[[DealState, int, Env], list[int]]
"""``amounts(deal, player, env)``: the bids ``player`` may make now, ascending (points)."""


def compile_amounts(form: Form, pack: Sequence[Card] = ()) -> Amounts:
    """The bids a player may make (``form.auction``), as one function with the rules read once:
    the range of :func:`bid_range` up to the player's highest bid (``deal.max_bids``), in
    steps, each allowed by ``may_bid``; a forced opener left without a bid may still make the
    compulsory one.  A deal's ``bid_floor`` (a golden deal keeping its auction) raises the
    compulsory and the lowest bid to it.  ``pack`` (the deck's cards) lets ``may_bid``'s
    answers be kept by the cards of the hand it can see (:func:`.seen.seen_cards`); without
    it, by the whole hand."""
    a = form.auction
    step, forced_bid, min_bid = a.step, a.forced_bid, a.min_bid
    exactly_step = a.raise_by == "exactly_step"
    max_raise = a.max_raise if a.raise_by == "at_most" else None
    exact_opening = a.forced_opening == "exact"
    may_bid = a.may_bid.evaluator() if a.may_bid is not None else None
    most = limits.limit("bids") * step  # the widest range of bids offered at once
    # may_bid's answers kept by what it reads (a formula is a function of them): the hand
    # (its cards' bits), the high bid, whether the bidder is forced and his record when it
    # reads them (``players`` and ``options`` are the game's: this closure is made per game,
    # compile_legal); per key the allowed bids of the last range evaluated
    reads = a.may_bid.reads if a.may_bid is not None else frozenset()
    by_high, by_forced, by_record = "high_bid" in reads, "forced" in reads, "player" in reads
    by_base = not reads.isdisjoint(envs.BASE_NAMES)
    seen = seen_cards(a.may_bid, "hand", pack, form.marriages) if a.may_bid is not None and pack else -1
    # shared by the games of the form when may_bid reads none of the player's base (the key is
    # then all it reads: CompiledForm.may_bid_kept), else this game's own
    compiled = form.compiled
    shared = compiled.may_bid_kept if compiled is not None and pack and compiled.pack is pack else None
    kept: dict[tuple[Any, ...], tuple[int, int, list[int]]] = (
        shared[1] if shared is not None and not by_base else {})

    def amounts(deal: DealState, player: int, env: Env) -> list[int]:
        opening, floor = deal.opening, deal.bid_floor
        forced = forced_bid if floor <= forced_bid else floor
        lo, hi = bid_range(opening, deal.high_bid, deal.high_bidder is not None, deal.max_bids[player],
                           forced, min_bid if floor <= min_bid else floor, step, exactly_step, max_raise,
                           exact_opening)
        if hi - lo > most:
            raise limits.exceeded("bids", (hi - lo) // step + 1,
                                  subject=f"the bids player {player} may make, {lo} to {hi}")
        if may_bid is not None and lo <= hi:
            out = kept_bids(deal, player, lo, hi, env)
        else:
            out = list(range(lo, hi + 1, step))
        if opening and not out:
            out = [forced]
        return out

    def kept_bids(deal: DealState, player: int, lo: int, hi: int, env: Env) -> list[int]:
        """The bids ``lo`` to ``hi`` that ``may_bid`` allows, a slice of the kept ones when a
        range kept for the same hand (and high bid, forced bidder, player's record: when
        read) covers it; else the bids asked and not kept evaluated (never a bid outside
        ``lo`` to ``hi``) and kept, the kept range widened when the two ranges meet on one
        grid of steps, else replaced."""
        assert may_bid is not None
        hand = deal.hands[player]
        bits = 0
        for c in hand:
            bits |= c.bit
        forced = player == deal.forced
        base = env(player) if by_base else envs.UNREAD_BASE
        key = (bits & seen, deal.high_bid if by_high else 0, forced if by_forced else False,
               tuple(base["player"].values()) if by_record else ())
        known = kept.get(key)
        if known is not None:
            low, high, allowed = known
            if not (lo - low) % step:  # (the same grid of bids)
                if low <= lo and hi <= high:
                    return allowed[bisect_left(allowed, lo):bisect_right(allowed, hi)]
                last = low + (high - low) // step * step  # the highest bid kept
                if lo <= last + step and low <= hi + step:  # the ranges meet: evaluate the rest
                    e = envs.auction_may_bid(base, tuple(hand), lo, deal.high_bid, forced)
                    allowed = (allowed_bids(may_bid, e, range(lo, low, step)) + allowed
                               + allowed_bids(may_bid, e, range(last + step, hi + 1, step)))
                    kept[key] = (min(lo, low), max(hi, high), allowed)
                    return allowed[bisect_left(allowed, lo):bisect_right(allowed, hi)]
        e = envs.auction_may_bid(base, tuple(hand), lo, deal.high_bid, forced)
        out = allowed_bids(may_bid, e, range(lo, hi + 1, step))
        if len(kept) > 4096:
            kept.clear()
        kept[key] = (lo, hi, out)
        return out[:]

    return amounts


def allowed_bids(
    may_bid: Callable[[dict[str, Any]], Any], e: dict[str, Any], bids: Iterable[int]
) -> list[int]:
    """The ``bids`` (amounts, ascending) that ``auction.may_bid`` allows (``may_bid``: its
    evaluator), each evaluated in the environment ``e`` (:func:`~.env.auction_may_bid`) with
    its ``bid`` set to the amount.  The one statement (:func:`compile_amounts` and the fast
    path's bids call it)."""
    kept = []
    for b in bids:
        e["bid"] = b
        if may_bid(e):
            kept.append(b)
    return kept


def _amounts(form: Form, deal: DealState, player: int, env: Env) -> list[int]:
    return compile_amounts(form)(deal, player, env)


def compile_legal(form: Form, table: ActionTable, env: Env) -> Callable[[DealState], list[Action]]:
    """The legal auction actions of ``form`` as a function of the deal: the bids the player to
    speak may make, ascending (:func:`compile_amounts`), then pass; the forced player opening
    at the compulsory bid may not pass.  Actions are ``table``'s shared objects (a game's
    :class:`~tysiac_spec.engine.actions.ActionTable`), formula environments from ``env``."""
    amounts = compile_amounts(form, table.pack)
    bid, made, pass_ = table.bid, table.bids.get, table.pass_
    # the bids' actions kept per tuple of amounts (a few ranges recur: a new list each call,
    # copied from the kept one, instead of a look-up per amount)
    lists: dict[tuple[int, ...], list[Action]] = {}

    def legal_now(deal: DealState) -> list[Action]:
        offered = tuple(amounts(deal, deal.current, env))
        bids = lists.get(offered)
        if bids is None:
            if len(lists) > 10_000:
                lists.clear()
            bids = lists[offered] = [made(b) or bid(b) for b in offered]
        return bids[:] if deal.opening else [*bids, pass_]

    return legal_now


def explain(form: Form, deal: DealState, action: Action, env: Env) -> str:
    """Why ``action`` is not legal now (one phrase)."""
    if isinstance(action, Pass):
        return "the forced player must open with a bid"
    if not isinstance(action, Bid):
        return "only bids and passes are allowed in the auction"
    amounts = _amounts(form, deal, deal.current, env)
    if not amounts:
        return "no bid is possible; pass"
    steps = bid_steps(form)
    if not steps.on_step(action.amount):
        return f"bids are multiples of {steps.step}"
    if action.amount < amounts[0]:
        return f"the lowest bid now is {amounts[0]}"
    if action.amount > amounts[-1]:
        return f"the highest bid allowed now is {amounts[-1]}"
    return "the ruleset does not allow this bid"


def auction_over(npassed: int, n: int, passed: int, high_bidder: int, order: Sequence[int]) -> bool:
    """Whether an auction in which a pass is final is over: at most one of the ``n`` players
    (``order``) has not passed (``npassed`` have; ``passed`` their seats as a bit set), and he,
    if any, holds the high bid (``high_bidder``, -1 for none).

    The one statement of the end (:func:`apply` calls it; the fast path's generator writes
    it inline, ``tysiac_spec.fast.generate.INLINED``)."""
    over = False
    if npassed >= n - 1:
        over = True
        for q in order:
            if not passed >> q & 1 and q != high_bidder:
                over = False
    return over


def unopposed(bidder: int, forced: int, contested: bool, bid: int, forced_bid: int) -> bool:
    """Whether ``bidder`` (a seat, -1 for none) holds the bid unopposed: he is the forced
    opener (``forced``), nobody else bid (``contested``) and the bid is the forced one.
    The one statement (:func:`_finish`; inlined by the fast path)."""
    return bidder >= 0 and bidder == forced and not contested and bid == forced_bid


def passed_out(high_bidder: int, stuck: bool, forced_plays: bool) -> bool:
    """Whether an auction ends with nobody to play the contract as bid: nobody bid
    (``high_bidder`` -1), or only the forced opener at the forced bid (``stuck``) unless he
    must play it (``forced_plays``: ``all_pass: forced_plays``).  The one statement
    (:func:`_finish`; inlined by the fast path)."""
    return high_bidder < 0 or (stuck and not forced_plays)


def passed_out_redealt(redeal: bool, dealer_plays: bool, dealer_in: bool, exempt: bool) -> bool:
    """Whether a deal passed out (:func:`passed_out`) is dealt again: ``all_pass: redeal``
    (``redeal``), or the dealer would play it (``dealer_plays``: ``all_pass: dealer_plays``,
    when he is dealt in, ``dealer_in``) and is exempt (``exempt``: ``auction.dealer_exempt``).
    The one statement (:func:`_finish`; inlined by the fast path)."""
    return redeal or (dealer_plays and dealer_in and exempt)


def passed_out_declarer(
    dealer_plays: bool, dealer: int, dealer_in: bool, forced: int, first: int, min_bid: int, forced_bid: int,
) -> tuple[int, int]:
    """The declarer and the bid of a deal passed out and played all the same: the dealer at
    the minimum bid (``dealer_plays``: ``all_pass: dealer_plays``, when he is dealt in,
    ``dealer_in``), else the forced opener at the forced bid (``forced``, -1 for none), else
    the first hand (``first``) at the minimum bid.  The one statement (:func:`_finish`;
    inlined by the fast path)."""
    if dealer_plays and dealer_in:
        declarer, bid = dealer, min_bid
    elif forced >= 0:
        declarer, bid = forced, forced_bid
    else:
        declarer, bid = first, min_bid
    return declarer, bid


def _finish(form: Form, deal: DealState) -> None:
    a = form.auction
    forced = -1 if deal.forced is None else deal.forced
    forced_bid, min_bid = max(a.forced_bid, deal.bid_floor), max(a.min_bid, deal.bid_floor)
    stuck = unopposed(-1 if deal.high_bidder is None else deal.high_bidder, forced, deal.contested,
                      deal.high_bid, forced_bid)
    if passed_out(-1 if deal.high_bidder is None else deal.high_bidder, stuck, a.all_pass == "forced_plays"):
        if a.all_pass == "play":  # all-pass play: no declarer (engine.all_pass)
            _all_pass_play(deal)
            return
        dealer_plays, dealer_in = a.all_pass == "dealer_plays", deal.dealer in deal.order
        if passed_out_redealt(a.all_pass == "redeal", dealer_plays, dealer_in, deal.dealer_exempt):
            deal.phase = "redealt"
            deal.redeal_id = "all-pass"
            return
        deal.declarer, deal.high_bid = passed_out_declarer(
            dealer_plays, deal.dealer, dealer_in, forced, deal.order[0], min_bid, forced_bid)
    else:
        deal.declarer = deal.high_bidder
    assert deal.declarer is not None
    deal.unopposed = unopposed(deal.declarer, forced, deal.contested, deal.high_bid, forced_bid)
    deal.phase = "talon"


def _all_pass_play(deal: DealState) -> None:
    """Everyone passed under ``auction.all_pass: play``: the deal is played out without a
    declarer (phase ``play``, ``deal.declarer`` ``None``; the game opens it,
    :func:`.all_pass.start`)."""
    deal.declarer = deal.high_bidder = None
    deal.high_bid = 0
    deal.phase = "play"


def _out(form: Form, deal: DealState, q: int) -> bool:
    """Whether ``q`` has passed and may not come back."""
    return q in deal.passed and deal.reentries_used.get(q, 0) >= form.auction.reentries


def _apply_reentries(form: Form, deal: DealState, action: Action) -> None:
    p = deal.current
    if isinstance(action, Bid):
        if p in deal.passed:
            deal.passed.discard(p)
            deal.reentries_used[p] = deal.reentries_used.get(p, 0) + 1
        deal.passed_since_bid = set()
    else:
        deal.passed.add(p)
        deal.passed_since_bid.add(p)
    if deal.high_bidder is None:
        done = len(deal.passed_since_bid) == len(deal.order)
    else:
        others = [q for q in deal.order if q != deal.high_bidder]
        done = all(q in deal.passed and (q in deal.passed_since_bid or _out(form, deal, q)) for q in others)
    if done:
        _finish(form, deal)
        return
    q = deal.next_active(p)
    while _out(form, deal, q):
        q = deal.next_active(q)
    deal.current = q


def apply(form: Form, deal: DealState, action: Action, text: str | None = None) -> None:
    """Record a legal auction action; ends the auction (``deal.phase`` → ``talon``, or
    ``redealt`` under ``all_pass: redeal``) when one bidder is left or everyone has passed.

    ``text`` is ``str(action)`` when the caller has it."""
    p = deal.current
    deal.bids.append((p, str(action) if text is None else text))
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
    if form.auction.pass_is_final and form.auction.reentries:
        _apply_reentries(form, deal, action)
        return
    if form.auction.pass_is_final:
        order, passed = deal.order, deal.passed
        if len(passed) >= n - 1:  # (the bit set made only when the auction may be over)
            bits = 0
            for q in passed:
                bits |= 1 << q
            high = -1 if deal.high_bidder is None else deal.high_bidder
            if auction_over(len(passed), n, bits, high, order):
                _finish(form, deal)
                return
        q = order[(order.index(p) + 1) % n]
        while q in passed:
            q = order[(order.index(q) + 1) % n]
        deal.current = q
        return
    needed = n - 1 if deal.high_bidder is not None else n
    if deal.passes_since_bid >= needed:
        _finish(form, deal)
        return
    deal.current = deal.next_active(p)


# ---------------------------------------------------------------------------- dark game


def start_dark(form: Form, deal: DealState, env: Env) -> bool:
    """Offer the dark game before the auction (``special.dark.when``), if ``special.dark``
    allows anyone to declare it; returns whether the deal is now in the ``dark`` phase.

    Rule (S002): the first hand — the dealer on his right (``who: first_hand``), or every
    active player in turn (``anyone``) — may declare it; not with a negative score
    (``forbidden_when_negative``).  In a golden deal (``golden_round.dark_allowed``, called
    after :func:`start_golden`) only its declarer is asked, and declining goes on to the talon.
    """
    dk = form.special.dark
    if not dk.enabled:
        return False
    declarer = -1 if deal.declarer is None else deal.declarer
    candidates = dark_candidates(deal.order, deal.mode == "golden", declarer, dk.who == "first_hand")
    if dk.forbidden_when_negative:
        candidates = [p for p in candidates if dark_allowed(env(p)["player"]["score"], True)]
    if not candidates:
        return False
    deal.dark_undecided = candidates
    deal.resume_current = deal.current
    deal.current = candidates[0]
    deal.phase = "dark"
    return True


def dark_candidates(order: list[int], golden: bool, declarer: int, first_hand: bool) -> list[int]:
    """The players asked in turn whether they declare the dark game (``special.dark``), before
    their scores are looked at: the first hand (``first_hand``: ``who: first_hand``) or every
    active player of ``order``; in a golden deal (``golden``, ``golden_round.dark_allowed``)
    its ``declarer`` alone, if he is one of those.  The one statement (:func:`start_dark`;
    inlined by the fast path)."""
    if golden:
        allowed = order[:1] if first_hand else order
        out = [declarer] if declarer in allowed else []
    else:
        out = order[:1] if first_hand else list(order)
    return out


def dark_allowed(score: int, not_negative: bool) -> bool:
    """Whether a player with match ``score`` may declare the dark game: not with a negative
    score when ``not_negative`` (``special.dark.forbidden_when_negative``).  The one
    statement (:func:`start_dark`; inlined by the fast path)."""
    return score >= 0 or not not_negative


def dark_cancellers(order: list[int], dark_player: int, golden: bool, with_marriage: bool,
                    holders: int) -> list[int]:
    """The opponents asked in turn whether they cancel ``dark_player``'s dark game: with
    ``with_marriage`` (``special.dark.cancel_with_marriage``) and not in a golden deal
    (``golden``), every player of ``order`` holding a marriage (``holders``: a bit per
    player), in turn from the dark player; else nobody.  The one statement
    (:func:`apply_dark`; inlined by the fast path)."""
    out: list[int] = []
    if with_marriage and not golden:
        i = order.index(dark_player)
        n = len(order)
        for k in range(1, n):
            q = order[(i + k) % n]
            if holders >> q & 1:
                out.append(q)
    return out


def marriage_masks(form: Form, pack: Sequence[Card]) -> tuple[int, ...]:
    """Each suit's marriage (``marriages.ranks`` of a suit in ``marriages.values``) as the bit
    set (``card.bit``) of its cards in ``pack``; a suit the pack lacks a rank of has none."""
    ranks = form.marriages.ranks
    out: list[int] = []
    for suit in form.marriages.values:
        bits = [c.bit for c in pack if c.suit_id == suit and c.rank.id in ranks]
        if len(bits) == len(ranks):
            out.append(sum(bits))
    return tuple(out)


def marriage_holders(hands: Sequence[int], order: Sequence[int], pairs: Sequence[int]) -> int:
    """The players of ``order`` whose hand (``hands``: a bit set per seat) holds both cards of
    a marriage (``pairs``: :func:`marriage_masks`), a bit per seat.  The one statement
    (:func:`apply_dark`; inlined by the fast path)."""
    holders = 0
    for q in order:
        for pair in pairs:
            if hands[q] & pair == pair:
                holders |= 1 << q
    return holders


def legal_dark(deal: DealState) -> list[Action]:
    """``dark`` or ``pass`` while the dark game may be declared; ``cancel dark`` or ``pass``
    for an opponent who may cancel it."""
    if deal.dark_player is None:
        return [Dark(), Pass()]
    return [CancelDark(), Pass()]


def explain_dark(deal: DealState, action: Action) -> str:
    """Why ``action`` is not legal in the ``dark`` phase."""
    if deal.dark_player is None:
        return "declare the dark game (`dark`) or decline (`pass`)"
    return f"cancel player {deal.dark_player}'s dark game (`cancel dark`) or let it stand (`pass`)"


def _declare_without_auction(deal: DealState, player: int, contract: int) -> None:
    """Make ``player`` declarer at ``contract`` points with no auction (dark game, golden
    round, barrel without bidding): he takes the talon next (``deal.phase`` → ``talon``)."""
    deal.declarer = deal.high_bidder = player
    deal.high_bid = contract
    deal.bids = []
    deal.opening = False
    deal.contested = True
    deal.phase = "talon"


def _begin_dark(form: Form, deal: DealState) -> None:
    dk = form.special.dark
    p = deal.dark_player
    assert p is not None
    declarer = -1 if deal.declarer is None else deal.declarer
    mode, declarer, contract, multiplier = dark_declared(
        MODES.index(deal.mode), declarer, deal.high_bid, deal.multiplier, p, dk.contract, dk.multiplier)
    declare_opening(deal, mode, declarer, contract, multiplier, deal.barrel_deal)


MODE_NORMAL, MODE_DARK, MODE_GOLDEN = 0, 1, 2
"""A deal's mode as a number: its index in :data:`MODES` (the fast path's ``mode``)."""

MODES = ("normal", "dark", "golden")
"""The deal's modes (``DealState.mode``, ``DealOutcome.mode``) by number."""


def opening_of(
    golden: bool, golden_dark: bool, golden_contract: int, golden_multiplier: int,
    taker: int, barrel_goal: int, dark: bool, first_hand: int,
) -> tuple[int, int, int, int, bool, bool]:
    """The deal's opening, before any bid (S002): a golden-round deal (``golden``: the
    match's golden round is on, ``special.golden_round``, and not bid for), its
    ``first_hand`` (the player after the dealer) declarer at ``golden_contract``, the deal's
    points multiplied by ``golden_multiplier``, the dark game then offered only with
    ``golden_dark`` (``dark_allowed``); else a barrel deal without an auction (``taker``: the
    player :func:`barrel_taker` names, -1 for none), he declarer at ``barrel_goal``, no dark
    game offered; else the dark game offered (``dark``: ``special.dark.enabled``) before the
    auction as started.

    Returns ``(mode, declarer, contract, multiplier, barrel deal, dark offered)``: ``mode``
    an index of :data:`MODES`, ``declarer`` -1 when the deal goes to its auction (contract 0,
    multiplier 1).  The one statement of the rule: ``Game``'s opening of a deal
    (:func:`declare_opening`) and the fast path (inlined)."""
    mode = MODE_NORMAL
    declarer = -1
    contract = 0
    multiplier = 1
    barrel = False
    offered = dark
    if golden:
        mode = MODE_GOLDEN
        declarer = first_hand
        contract = golden_contract
        multiplier = golden_multiplier
        offered = dark and golden_dark
    elif taker >= 0:
        declarer = taker
        contract = barrel_goal
        barrel = True
        offered = False
    return mode, declarer, contract, multiplier, barrel, offered


def dark_declared(
    mode: int, declarer: int, contract: int, multiplier: int, dark_player: int, dark_contract: int,
    dark_multiplier: int,
) -> tuple[int, int, int, int]:
    """The deal once ``dark_player`` declared the dark game and nobody cancelled it
    (``special.dark``): in a golden deal (``mode``: :data:`MODES`' index) its declarer and
    contract stay and the multipliers multiply; otherwise ``dark_player`` is declarer at
    ``dark_contract`` in the mode ``dark``, the points multiplied by ``dark_multiplier``.
    Returns ``(mode, declarer, contract, multiplier)``.  The one statement of the rule
    (:func:`apply_dark`; inlined by the fast path)."""
    out_mode = MODE_DARK
    out_declarer = dark_player
    out_contract = dark_contract
    out_multiplier = dark_multiplier
    if mode == MODE_GOLDEN:
        out_mode = mode
        out_declarer = declarer
        out_contract = contract
        out_multiplier = multiplier * dark_multiplier
    return out_mode, out_declarer, out_contract, out_multiplier


def declare_opening(deal: DealState, mode: int, declarer: int, contract: int, multiplier: int,
                    barrel: bool) -> None:
    """A deal opened without an auction, as :func:`opening_of` or :func:`dark_declared`
    decided: its mode (a :data:`MODES` index), ``multiplier`` and barrel deal set, and
    ``declarer`` at ``contract`` taking the talon next (``deal.phase`` → ``talon``)."""
    deal.mode, deal.multiplier, deal.barrel_deal = MODES[mode], multiplier, barrel
    _declare_without_auction(deal, declarer, contract)


def apply_dark(form: Form, deal: DealState, action: Action) -> None:
    """Declare, decline or cancel the dark game.

    After ``dark``, the opponents holding a marriage (``cancel_with_marriage``) are asked in
    turn; a cancel leads to the ordinary auction or a redeal (``cancel_effect``).  An
    uncancelled dark game skips the auction: the dark player is declarer at
    ``special.dark.contract`` (``deal.phase`` → ``talon``).
    """
    dk = form.special.dark
    p = deal.current
    if deal.dark_player is None:
        deal.dark_undecided.remove(p)
        if isinstance(action, Dark):
            deal.dark_player = p
            deal.dark_undecided = []
            holders = 0
            if dk.cancel_with_marriage:
                hands = [0] * (max(deal.order) + 1)
                pack: Sequence[Card] = ()
                for q in deal.order:
                    for c in deal.hands[q]:
                        hands[q] |= c.bit
                        pack = c.pack
                holders = marriage_holders(hands, deal.order, marriage_masks(form, pack))
            deal.dark_cancellers = dark_cancellers(
                deal.order, p, deal.mode == "golden", dk.cancel_with_marriage, holders)
            if deal.dark_cancellers:
                deal.current = deal.dark_cancellers[0]
            else:
                _begin_dark(form, deal)
        elif deal.dark_undecided:
            deal.current = deal.dark_undecided[0]
        else:
            deal.phase, deal.current = "talon" if deal.mode == "golden" else "auction", deal.resume_current
        return
    deal.dark_cancellers.remove(p)
    if isinstance(action, CancelDark):
        deal.dark_cancellers = []
        deal.dark_player = None
        if dk.cancel_effect == "redeal":
            deal.phase, deal.redeal_id = "redealt", "dark-cancelled"
        else:
            deal.phase, deal.current = "auction", deal.resume_current
    elif deal.dark_cancellers:
        deal.current = deal.dark_cancellers[0]
    else:
        _begin_dark(form, deal)


# ---------------------------------------------------------------------------- golden round


def golden_floor(form: Form, deal: DealState) -> None:
    """A golden-round deal that keeps its auction (``golden_round.auction``; PAGx1's gold
    set, "the minimum bid is 120"): the deal is golden (``mode``, ``golden_round.multiplier``)
    and its auction's compulsory and lowest bid are ``golden_round.contract``
    (``deal.bid_floor``); called before :func:`start`."""
    g = form.special.golden_round
    deal.mode, deal.multiplier, deal.bid_floor = "golden", g.multiplier, g.contract


def barrel_taker(form: Form, on_barrel: Sequence[bool], order: Sequence[int]) -> int | None:
    """The player who takes a deal on the barrel without an auction: with the barrel played
    without bidding (``special.barrel.enabled``, ``bidding: none``), the first player of
    ``order`` (the deal's active players in bidding order) who is on the barrel
    (``on_barrel``, by player); ``None`` when the barrel is bid for as usual or no active
    player is on it.  A golden-round deal comes before it (the caller's check).  The one
    statement of the rule for the game (:meth:`~.game.Game`'s opening of a deal) and the
    check of an outcome (:func:`~.outcome.barrel_deal_taker`)."""
    b = form.special.barrel
    if not (b.enabled and b.bidding == "none"):
        return None
    return next((p for p in order if p < len(on_barrel) and on_barrel[p]), None)
