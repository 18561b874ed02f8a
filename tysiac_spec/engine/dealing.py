"""Dealing the cards and redeal conditions (``form.deal``).

The shuffled pack is dealt in seat order from the player after the dealer,
``deal.packet`` cards at a time; the talon cards fall at positions of the dealing
sequence drawn from the game's seeded generator under the restrictions
``talon_not_first``, ``talon_not_last``, ``talon_not_consecutive`` and
``talon_within_first`` (S002: none of the first or last three cards goes to the
prikup; LOD: the prikup is dealt within the first rounds; a house rule: never two in a
row; source ids such as ``S002`` are keys of a ruleset's ``sources:`` list), with the
positions ``talon_at`` forcing (WIK: the top card, the bottom card and one more).  Without a
restriction the talon cards are the last ones dealt and no random number is drawn for
them.  Since the pack is shuffled uniformly, every deal has the same chance under any of
these procedures; they matter for faithful replays.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any, cast

from ..cards import Card
from ..ruleset.model import Form
from ..text import signed
from . import env as envs
from .events import MatchEvent
from .match import MatchState, charge_seat
from .seating import direction
from .state import DealState

__all__ = [
    "MAX_REDEALS",
    "REDEAL_ASK",
    "REDEAL_DEALT",
    "REDEAL_PLAY",
    "TIMINGS",
    "DealCards",
    "DealingPlan",
    "bad_cut",
    "compile_deal_cards",
    "compile_redeal_checks",
    "cut",
    "cut_skips",
    "deal_cards",
    "dealing_plan",
    "drawn_at_random",
    "first_ace_dealer",
    "first_dealer",
    "played_on",
    "redeal_check",
    "redeal_decided",
    "redeal_point",
    "redeals_capped",
    "redealt",
    "sample",
    "sample_drawn",
    "sampler",
    "shuffle",
    "shuffled",
    "talon_positions",
]

Env = Callable[[int], dict[str, Any]]

_DRAWS: dict[int, tuple[tuple[int, int, int], ...]] = {}
"""Per pack size: each step of :func:`shuffle` as (position, positions to draw from, bits)."""


def shuffle(cards: list[Any], rng: random.Random) -> None:
    """Shuffle ``cards`` in place with ``rng``: the Fisher–Yates shuffle from the last card
    down, each card swapped with one at a position drawn uniformly below or at its own, by
    rejection on ``rng.getrandbits`` (as many bits as the number of positions has).

    This is the permutation ``rng.shuffle(cards)`` makes in CPython 3.11, written out so
    that a seed deals the same cards whatever the standard library does in future (game
    records replay from their seed), and without a method call per card.
    """
    draws = _DRAWS.get(len(cards))
    if draws is None:
        steps = range(len(cards) - 1, 0, -1)
        draws = _DRAWS[len(cards)] = tuple((i, i + 1, (i + 1).bit_length()) for i in steps)
    shuffled(cards, rng.getrandbits, draws)


def shuffled(
    cards: list[Any], getrandbits: Callable[[int], int], draws: Sequence[tuple[int, int, int]],
) -> list[Any]:
    """``cards`` shuffled in place (and returned) by :func:`shuffle`'s steps ``draws`` (each
    step's position, the number of positions to draw from, their bits) with ``getrandbits``
    (``random.Random.getrandbits``).  The one statement of the shuffle: :func:`shuffle` calls
    it, and the fast path's generator writes it inline (``tysiac_spec.fast.generate.INLINED``)."""
    for i, n, bits in draws:
        j = getrandbits(bits)
        while j >= n:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def talon_positions(form: Form, total: int, rng: random.Random) -> list[int]:
    """Positions (0-based, ascending) in a dealing sequence of ``total`` cards that go to the
    talons, drawn uniformly among those the restrictions allow.

    Raises:
        ValueError: the restrictions leave too few positions (a ruleset contradiction).
    """
    return _talon_draw(form, total)(rng)


def _talon_draw(form: Form, total: int) -> Callable[[random.Random], list[int]]:
    """:func:`talon_positions` for ``total`` cards with the form's restrictions read once:
    ``draw(rng)``, the positions (a new list)."""
    d = form.deal
    k = sum(form.table.talons)
    if not drawn_at_random(form):
        last = list(range(total - k, total))
        return lambda rng: last[:]
    lo = d.talon_not_first
    hi = total - d.talon_not_last
    if d.talon_within_first:
        hi = min(hi, d.talon_within_first)
    if d.talon_at:
        return _forced_draw(d.talon_at, total, k, range(lo, hi), d.talon_not_consecutive)
    room = hi - lo
    if d.talon_not_consecutive:
        # Choose k of room - (k - 1) slots, then spread them apart: uniform over the
        # non-consecutive choices.
        slots = room - (k - 1)
        if slots < k:
            return _refused(f"deal: no room for {k} non-consecutive talon cards in positions {lo}..{hi - 1}")
        apart = range(lo, lo + k)  # the i-th chosen slot moves i places on

        def spread(rng: random.Random) -> list[int]:
            return [s + i for i, s in zip(apart, sorted(pick(rng)), strict=True)]

        pick = sampler(slots, k)
        return spread
    if room < k:
        return _refused(f"deal: no room for {k} talon cards in positions {lo}..{hi - 1}")
    at = sampler(room, k, lo)

    def drawn(rng: random.Random) -> list[int]:
        picked = at(rng)
        picked.sort()
        return picked

    return drawn


def drawn_at_random(form: Form) -> bool:
    """Whether the talon positions are drawn (a restriction or a forced position of
    ``form.deal``), not simply the last cards dealt."""
    d = form.deal
    return bool(d.talon_not_first or d.talon_not_last or d.talon_not_consecutive
                or d.talon_within_first or d.talon_at)


def _forced_draw(
    at: Sequence[int], total: int, k: int, allowed: range, apart: bool
) -> Callable[[random.Random], list[int]]:
    """The talon positions with ``deal.talon_at`` (``at``: 1-based from the top of the
    sequence, negative from its end): those, and the other ``k - len(at)`` drawn uniformly
    (:func:`sampler`) among the ``allowed`` positions not forced.  The validation refuses a
    forced position outside ``allowed`` or the sequence, too many of them, and
    ``talon_not_consecutive`` beside them (``apart``, ``deal.talon-at``); here a draw raises
    ``ValueError`` for all but the first."""
    forced = sorted({p - 1 if p > 0 else total + p for p in at})
    free = [i for i in allowed if i not in forced]
    rest = k - len(forced)
    if apart or rest < 0 or len(free) < rest or any(not 0 <= p < total for p in forced):
        return _refused(f"deal: talon positions {list(at)} do not fit {k} talon card(s) in {total}")
    pick = sampler(len(free), rest)

    def drawn(rng: random.Random) -> list[int]:
        return sorted(forced + [free[i] for i in pick(rng)])

    return drawn


def _refused(message: str) -> Callable[[random.Random], list[int]]:
    def refuse(rng: random.Random) -> list[int]:
        raise ValueError(message)

    return refuse


def sample(rng: random.Random, n: int, k: int) -> list[int]:
    """``k`` distinct numbers of ``range(n)`` in the order drawn: what ``rng.sample(range(n),
    k)`` returns in CPython 3.11 (a pool for a small ``n``, else a set of rejected draws; each
    number drawn below a bound by rejection on ``rng.getrandbits``), written out as
    :func:`shuffle` is, so that a seed deals the same talon whatever the standard library does
    in future, and without the library's checks on each call (:func:`sampler`, the same
    drawing made once for ``n`` and ``k``).

    Raises:
        ValueError: ``k`` is not in ``0..n``.
    """
    return sampler(n, k)(rng)


def sampler(n: int, k: int, offset: int = 0) -> Callable[[random.Random], list[int]]:
    """:func:`sample` of ``k`` numbers of ``range(n)`` prepared once: ``draw(rng)``, each
    number plus ``offset`` (a new list).

    Raises:
        ValueError: ``k`` is not in ``0..n``.
    """
    if not 0 <= k <= n:
        raise ValueError("Sample larger than population or is negative")
    setsize = 21  # (random.sample: the size of a small set minus that of an empty list)
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3, 4))
    from_pool = n <= setsize
    return lambda rng: sample_drawn(rng.getrandbits, n, k, from_pool, offset)


def sample_drawn(
    getrandbits: Callable[[int], int], n: int, k: int, from_pool: bool, offset: int,
) -> list[int]:
    """:func:`sample`'s draws with ``getrandbits`` (``random.Random.getrandbits``): ``k``
    numbers of ``range(n)`` plus ``offset``, in the order drawn, each drawn below a bound by
    rejection; from a pool that the drawn number leaves (``from_pool``, a small ``n``), else
    drawn again while already drawn.  The one statement of the draw: :func:`sampler` calls
    it, and the fast path's generator writes it inline (``tysiac_spec.fast.generate.INLINED``)."""
    result = []
    if from_pool:
        pool = list(range(offset, offset + n))
        for i in range(k):
            left = n - i
            bits = left.bit_length()
            j = getrandbits(bits)
            while j >= left:
                j = getrandbits(bits)
            result.append(pool[j])
            pool[j] = pool[left - 1]
    else:
        bits = n.bit_length()
        taken = 0
        for _ in range(k):
            j = getrandbits(bits)
            while j >= n or taken >> j & 1:
                j = getrandbits(bits)
            taken |= 1 << j
            result.append(j + offset)
    return result


Dealt = tuple[dict[int, list[Card]], list[list[Card]]]
DealCards = Callable[[Sequence[Card], Sequence[int], random.Random], Dealt]
"""``deal(cards, order, rng)``: :func:`deal_cards` of one form (:func:`compile_deal_cards`)."""


def deal_cards(form: Form, cards: Sequence[Card], order: Sequence[int], rng: random.Random) -> Dealt:
    """Deal ``cards`` (already shuffled) to ``order`` (players from the dealer's next) and
    the talons: hands by player, talons in order.

    Players receive ``deal.packet`` cards at a time in turn (fewer when the hand is
    nearly full); talon cards are taken at :func:`talon_positions`, filling the first
    talon first.  The form's rules are read once (:func:`compile_deal_cards`, kept in the
    engine's ``CompiledForm.deal_cards``).
    """
    compiled = form.compiled
    deal = compiled.deal_cards if compiled is not None else compile_deal_cards(form)
    return deal(cards, order, rng)


def compile_deal_cards(form: Form) -> DealCards:
    """:func:`deal_cards` of ``form`` with its rules read once: for each number of players
    dealt to, which dealt card goes to which of them (by packets) and how the talon
    positions are drawn (:func:`talon_positions`)."""
    size, packet, sizes = form.table.hand_size, form.deal.packet, tuple(form.table.talons)
    k = sum(sizes)
    cuts: list[tuple[int, int]] = []  # each talon's slice of the talon cards
    for t in sizes:
        at = cuts[-1][1] if cuts else 0
        cuts.append((at, at + t))
    plans: dict[int, tuple[int, Callable[[random.Random], list[int]], list[Pick]]] = {}
    one_talon = len(sizes) == 1

    def plan(players: int) -> tuple[int, Callable[[random.Random], list[int]], list[Pick]]:
        total = size * players + k
        turn: list[int] = []  # the hand (index in order) each card dealt to a hand goes to
        for start in range(0, size, packet):
            for j in range(players):
                turn += [j] * min(packet, size - start)
        by_hand: list[list[int]] = [[] for _ in range(players)]
        for i, j in enumerate(turn):
            by_hand[j].append(i)
        made = plans[players] = (total, _talon_draw(form, total), [_picker(ix) for ix in by_hand])
        return made

    def deal(cards: Sequence[Card], order: Sequence[int], rng: random.Random) -> Dealt:
        made = plans.get(len(order))
        total, draw, picks = made if made is not None else plan(len(order))
        positions = draw(rng)
        rest: list[Card] = []
        at = 0
        for i in positions:  # the cards between the talon's positions go to the hands
            rest += cards[at:i]
            at = i + 1
        rest += cards[at:total]
        hands = {p: list(pick(rest)) for p, pick in zip(order, picks, strict=True)}
        talon_cards = [cards[i] for i in positions]
        if one_talon:
            return hands, [talon_cards]
        return hands, [talon_cards[a:b] for a, b in cuts]

    return deal


Pick = Callable[[Sequence[Card]], Sequence[Card]]
"""Picks some cards of the shuffled pack, by position."""


class DealingPlan:
    """Where each card of the shuffled pack goes when no random number is drawn for the
    talon (no talon restriction): the same as :func:`deal_cards`, computed once per form.

    ``deal(cards, order)`` returns the hands by player and the talons, like
    :func:`deal_cards`.
    """

    __slots__ = ("_hands", "_talons")

    def __init__(self, form: Form) -> None:
        positions = list(range(form.table.hand_size * form.active + sum(form.table.talons)))
        # deal the positions themselves (no random number is drawn without a restriction)
        dealt = cast(Sequence[Card], positions)
        hands, talons = deal_cards(form, dealt, list(range(form.active)), random.Random(0))
        self._hands = [_picker(cast(list[int], hands[k])) for k in range(form.active)]
        self._talons = [_picker(cast(list[int], t)) for t in talons]

    def deal(
        self, cards: Sequence[Card], order: Sequence[int]
    ) -> tuple[dict[int, Sequence[Card]], list[Sequence[Card]]]:
        """Hands by player (``order`` from the dealer's next) and talons, of the shuffled pack
        (sequences in dealing order, not to be changed)."""
        hands = {p: pick(cards) for p, pick in zip(order, self._hands, strict=True)}
        return hands, [pick(cards) for pick in self._talons]


def _picker(indices: Sequence[int]) -> Pick:
    if len(indices) >= 2:
        return itemgetter(*indices)
    return lambda cards: [cards[i] for i in indices]


def dealing_plan(form: Form) -> DealingPlan | None:
    """The :class:`DealingPlan` of ``form``, or ``None`` when the talon positions are drawn
    at random (``talon_not_first`` and the other restrictions)."""
    if drawn_at_random(form):
        return None
    return DealingPlan(form)


def first_ace_dealer(cards: Sequence[Card], players: int, direction: int, ace: str) -> int:
    """The first dealer by ``first_ace`` (S002): cards of the shuffled pack are turned one at
    a time to the players in turn, starting with player 0; whoever receives the first
    card of rank ``ace`` deals."""
    for i, card in enumerate(cards):
        if card.rank.id == ace:
            return (direction * i) % players
    return 0


def first_dealer(form: Form, pack: Sequence[Card], rng: random.Random) -> int:
    """The first dealer (``deal.first_dealer``): by lot (``rng.randrange(players)``), or
    whoever gets the first ace (``deal.first_dealer_rank``) of ``pack`` shuffled with ``rng``
    and turned card by card (:func:`first_ace_dealer`, S002)."""
    if form.deal.first_dealer == "first_ace":
        cards = list(pack)
        shuffle(cards, rng)
        return first_ace_dealer(cards, form.players, direction(form), form.deal.first_dealer_rank)
    return rng.randrange(form.players)


def cut(
    form: Form, state: MatchState, cards: list[Card], rng: random.Random, dealer: int, deal: int
) -> tuple[MatchState, list[MatchEvent]]:
    """Cut the shuffled pack of deal number ``deal`` (:func:`cut_pack`, ``cards`` changed in
    place): the match state with the penalty charged to ``deal.cut.payer`` for a penalised
    cut (:func:`~.match.charge_seat`), and the events: ``cut.bad`` per bad cut, then
    ``cut.penalty`` (value: minus the penalty), then ``cut.skip`` (player: the dealer) when
    ``deal.cut.then`` is ``skip`` (:func:`cut_skips`: the caller passes the deal on)."""
    spec = form.deal.cut
    bad, penalised = cut_pack(form, cards, rng, dealer)
    events = [MatchEvent(deal, "cut.bad", cutter, None, f"bad cut by player {cutter}: {card} at the bottom")
              for cutter, card in bad]
    if penalised:
        payer = bad[-1][0] if spec.payer == "cutter" else dealer
        events.append(MatchEvent(deal, "cut.penalty", payer, -spec.penalty,
                                 f"bad cut {len(bad)} in a row: player {payer} {signed(-spec.penalty)}"))
        state = charge_seat(form, state, payer, spec.penalty)
        if spec.then == "skip":
            events.append(MatchEvent(deal, "cut.skip", dealer, None,
                                     f"the deal of player {dealer} is skipped: the cards pass on"))
    return state, events


def cut_skips(events: Sequence[MatchEvent]) -> bool:
    """Whether the cut whose events :func:`cut` returned skips the deal (``deal.cut.then:
    skip`` after the penalised bad cut): no one is dealt from the pack, and the next dealer
    (:func:`~.seating.next_dealer`) shuffles, has it cut and deals (WIK)."""
    return bool(events) and events[-1].kind == "cut.skip"


def bad_cut(bottom: int, bad: int) -> bool:
    """Whether a cut is bad (``deal.cut``): the bottom card of the pack (its bit ``bottom``,
    the last card dealt) has a rank of ``bad_ranks`` (``bad``: the bits of the pack's cards of
    those ranks).  The one statement (:func:`cut_pack` calls it; inlined by the fast path)."""
    return bottom & bad != 0


def cut_pack(
    form: Form, cards: list[Card], rng: random.Random, dealer: int
) -> tuple[list[tuple[int, Card]], bool]:
    """Cut the shuffled ``cards`` (``deal.cut``): while the bottom card (``cards[-1]``, the
    last dealt) has a rank of ``bad_ranks``, the cut is bad and the pack is shuffled again
    (in place, with ``rng``) and cut by ``recut_by``'s player, up to the ``penalised``-th
    bad cut in a row, after which the pack is dealt as it lies.  With ``swap`` a bad bottom
    card is swapped with the first card from the top whose rank is not bad, and no cut is bad
    (mekedron/thousand ``core/deck.lua`` ``apply_bottom_safe``).

    Returns the bad cuts in order as ``(cutter, bottom card)`` and whether the last one was
    the penalised one.  Seats are counted from ``dealer`` in ``deal.direction``
    (AYT, CHP, WIK: a nine at the bottom means cutting again; MEKH: the third bad cut costs 120).
    """
    cut, n, d = form.deal.cut, form.players, direction(form)
    step = -d if cut.cutter == "before_dealer" else d
    cutter = (dealer + step) % n
    bad = sum(c.bit for c in cards if c.rank.id in cut.bad_ranks)
    cuts: list[tuple[int, Card]] = []
    if cut.swap and bad_cut(cards[-1].bit, bad):  # the bottom-card guard: swapped, no bad cut
        good = next((i for i, c in enumerate(cards) if not bad_cut(c.bit, bad)), None)
        if good is not None:
            cards[good], cards[-1] = cards[-1], cards[good]
        return cuts, False
    while bad_cut(cards[-1].bit, bad):
        cuts.append((cutter, cards[-1]))
        if len(cuts) >= cut.penalised:
            return cuts, True
        shuffle(cards, rng)
        if cut.recut_by == "next":
            cutter = (cutter + step) % n
    return cuts, False


Redealt = tuple[tuple[int | None, int] | None, list[tuple[int, int]]]
RedealCheck = Callable[[DealState, Env], Redealt]
"""``check(deal, env)``: :func:`redeal_check` of one form at one timing
(:func:`compile_redeal_checks`)."""

TIMINGS = ("after_deal", "after_talon", "after_exchange")
"""The points of a deal where redeal conditions are checked (``deal.redeals[].timing``)."""


def redeal_check(form: Form, deal: DealState, env: Env, timing: str) -> Redealt:
    """The redeal conditions of ``timing`` (``after_deal``, ``after_talon``,
    ``after_exchange``) that hold now.

    Returns the first mandatory one as ``(caller, index)`` (the caller loses its
    ``penalty``), else ``None``, and the optional ones as ``(player, index)`` offers in
    turn order.  Each condition is evaluated per active player with ``hand`` his hand
    and ``talon`` the dealt talon.  ``who``: ``holder`` — the players it holds for;
    ``declarer`` — the declarer only (not before the auction); ``anyone`` — every
    active player, if it holds for one of them.  ``env(p)`` gives a player's base (called
    only for a condition that reads one of its names).  The form's conditions are read once
    (:func:`compile_redeal_checks`, kept in the engine's ``CompiledForm.redeal_checks``).
    """
    compiled = form.compiled
    checks = compiled.redeal_checks if compiled is not None else compile_redeal_checks(form)
    return checks[timing](deal, env)


def _no_redeal(deal: DealState, env: Env) -> Redealt:
    return None, []


def compile_redeal_checks(form: Form) -> dict[str, RedealCheck]:
    """:func:`redeal_check` of ``form`` for each timing (:data:`TIMINGS`), its conditions
    read once: a timing without any returns at once; a condition's formula is fetched once
    (``evaluator()``), and a player's base is built only for a formula that reads a name
    of it (:data:`~tysiac_spec.engine.env.BASE_NAMES`)."""
    out: dict[str, RedealCheck] = {}
    for timing in TIMINGS:
        conditions = tuple(
            (index, r.who, r.mandatory, r.when.evaluator(), not r.when.reads.isdisjoint(envs.BASE_NAMES))
            for index, r in enumerate(form.deal.redeals)
            if r.timing == timing
        )
        out[timing] = _compile_check(conditions) if conditions else _no_redeal
    return out


def _compile_check(conditions: tuple[tuple[int, str, bool, Callable[[Any], Any], bool], ...]) -> RedealCheck:
    unread = envs.UNREAD_BASE
    redeal_env = envs.deal_redeal

    def check(deal: DealState, env: Env) -> Redealt:
        offers: list[tuple[int, int]] = []
        declarer, hands, talon, contract = deal.declarer, deal.hands, deal.dealt_talon, deal.contract
        bid = deal.high_bid if declarer is not None else 0
        for index, who, mandatory, fn, reads_base in conditions:
            if who == "declarer":
                if declarer is None:
                    continue
                candidates: Sequence[int] = (declarer,)
            else:
                candidates = deal.order
            holders = []
            if reads_base:
                for p in candidates:
                    if fn(redeal_env(env(p), tuple(hands[p]), talon, bid, contract)):
                        holders.append(p)
            else:  # one environment, each player's hand set in it in turn
                e = redeal_env(unread, (), talon, bid, contract)
                for p in candidates:
                    e["hand"] = tuple(hands[p])
                    if fn(e):
                        holders.append(p)
            if not holders:
                continue
            callers = list(deal.order) if who == "anyone" else holders
            if mandatory:
                return (holders[0], index), []
            offers += [(p, index) for p in callers if (p, index) not in offers]
        return None, offers

    return check


MAX_REDEALS = 100
"""Automatic redeals in a row after which a deal is played anyway (a ruleset whose mandatory
condition always holds would otherwise never deal a playable hand)."""


def redeals_capped(redeals: int) -> bool:
    """Whether a deal after ``redeals`` automatic redeals in a row (mandatory conditions
    after the deal) is played anyway, unchecked (:data:`MAX_REDEALS`).  The one statement of
    the cap: ``Game``'s new deal and the fast path."""
    return redeals >= MAX_REDEALS


REDEAL_PLAY, REDEAL_DEALT, REDEAL_ASK = 0, 1, 2
"""What a redeal point comes to (:func:`redeal_decided`): the deal plays on, it is dealt
again, or it waits for an offered player's answer."""


def redeal_decided(
    form: Form,
    mandatory: tuple[int | None, int] | None,
    offers: list[tuple[int, int]],
    ask: Callable[[int, int], bool | None],
    called_on: Callable[[int, int], None],
) -> tuple[int, int | None, int]:
    """What the redeal conditions that hold at a redeal point come to (``mandatory`` and
    ``offers`` as :func:`redeal_check` returns them): the one statement of the redeal flow,
    which ``Game`` drives by its ``redeal`` phase and the fast path by its policies.

    A mandatory condition ``(caller, index)`` deals again (:data:`REDEAL_DEALT`); one with
    ``effect: play_on`` is called on instead (``called_on(caller, index)`` charges its
    penalty, :func:`played_on`) and the deal plays on (:data:`REDEAL_PLAY`).  Otherwise each
    offer ``(player, index)`` is asked in turn, ``ask(player, index)`` answering ``True``
    (call the condition), ``False`` (pass) or ``None`` (not answered yet: :data:`REDEAL_ASK`
    with that offer, which stays first in ``offers``); an answered offer leaves ``offers``.
    A called condition deals again, or with ``effect: play_on`` is called on and the next
    offer asked; after the last offer the deal plays on.

    Returns ``(what, player, index)``: the caller and the condition of a redeal, the player
    and the condition asked, or ``(REDEAL_PLAY, None, -1)``.
    """
    redeals = form.deal.redeals
    if mandatory is not None:
        caller, index = mandatory
        if redeals[index].effect != "play_on":
            return REDEAL_DEALT, caller, index
        assert caller is not None
        called_on(caller, index)
        return REDEAL_PLAY, None, -1
    while offers:
        player, index = offers[0]
        answer = ask(player, index)
        if answer is None:
            return REDEAL_ASK, player, index
        del offers[0]
        if answer:
            if redeals[index].effect != "play_on":
                return REDEAL_DEALT, player, index
            called_on(player, index)
    return REDEAL_PLAY, None, -1


def redealt(
    form: Form, state: MatchState, deal: int, caller: int | None, redeal_id: str, penalty: int | None = None
) -> tuple[MatchState, MatchEvent]:
    """Deal number ``deal`` abandoned by the redeal condition ``redeal_id``: the match state
    with ``caller``'s penalty charged (the condition's ``penalty``, unless ``penalty`` is
    given; nothing without a caller or a penalty) and the event ``redeal`` (value: minus
    the penalty charged, else ``None``).  Who deals next is
    :func:`~.seating.redeal_dealer`'s."""
    if penalty is None:
        penalty = 0
        for r in form.deal.redeals:
            if r.id == redeal_id:
                penalty = r.penalty
    charged = bool(penalty) and caller is not None
    text = f"{redeal_id}: dealt again"
    if charged:
        text += f", player {caller} {signed(-penalty)}"
    event = MatchEvent(deal, "redeal", caller, -penalty if charged else None, text)
    if charged:
        assert caller is not None
        state = charge_seat(form, state, caller, penalty)
    return state, event


def played_on(
    form: Form, state: MatchState, deal: int, player: int, index: int
) -> tuple[MatchState, MatchEvent]:
    """``player`` called the ``effect: play_on`` condition ``index`` of ``deal.redeals`` in
    deal number ``deal``: the match state with its penalty charged and the event
    ``redeal.play_on`` (value: the points he gains, negative for a loss; ``None`` without
    a penalty)."""
    r = form.deal.redeals[index]
    text = f"{r.id}: played on" + (f", player {player} {signed(-r.penalty)}" if r.penalty else "")
    event = MatchEvent(deal, "redeal.play_on", player, -r.penalty if r.penalty else None, text)
    if r.penalty:
        state = charge_seat(form, state, player, r.penalty)
    return state, event


def redeal_point(form: Form, deal: DealState, env: Env, timing: str) -> bool:
    """Check the redeal conditions of ``timing``; returns whether the deal stops here.

    A mandatory condition ends the deal (``deal.phase`` → ``redealt``, the caller, the
    condition's id and where to resume recorded; the game plays on instead for an
    ``effect: play_on`` condition); optional ones put the deal in the ``redeal`` phase, each
    offered player answering ``redeal`` or ``pass`` in turn, after which play resumes at
    ``timing`` (``deal.resume_phase``) with the player who was to act.
    """
    if not form.deal.redeals:
        return False
    mandatory, offers = redeal_check(form, deal, env, timing)
    if mandatory is not None:
        deal.redeal_caller, index = mandatory
        deal.redeal_id = form.deal.redeals[index].id
        deal.resume_phase, deal.resume_current = timing, deal.current
        deal.phase = "redealt"
        return True
    if offers:
        deal.redeal_offers = offers
        deal.resume_phase, deal.resume_current = timing, deal.current
        deal.phase = "redeal"
        deal.current = offers[0][0]
        return True
    return False
