"""Taking the talon, the exchange and the contract (``form.talon``, ``form.contract``) and
forfeits (``contract.forfeit``): the steps ``talon``, ``exchange`` and ``contract`` of a deal,
each opened by the game in the order :mod:`.flow` states (:func:`start`,
:func:`open_exchange`, :func:`open_contract`), the redeal checks after the talon and after
the exchange between them.

A forfeit (rospis / bomb) is legal for the declarer from the moment he holds the talon:
until the contract is fixed — during the exchange and in the contract phase — or, with
``contract.forfeit.when: before_exchange``, only until the first card of the exchange.
The contract phase is not skipped while a forfeit is possible, even when only one
contract can be announced.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from operator import attrgetter
from typing import Any

from .. import limits
from ..cards import Card
from ..ruleset.model import Form
from . import env as envs
from .actions import Action, ActionTable, ChooseTalon, DeclareContract, Discard, Forfeit, GiveCard
from .auction import ceiling, round_up
from .state import DealState, remove_card

_INDEX = attrgetter("index")

__all__ = [
    "apply_choice",
    "apply_contract",
    "apply_exchange",
    "apply_forfeit",
    "compile_legal_exchange",
    "contract_amounts",
    "contract_asked",
    "explain",
    "forfeit_contract",
    "gifts_known",
    "gifts_seen",
    "legal_choice",
    "legal_contract",
    "legal_exchange",
    "may_forfeit",
    "next_receiver",
    "open_contract",
    "open_exchange",
    "receivers",
    "reveal_in_auction",
    "shown_when_taken",
    "start",
    "talon_asked",
    "talon_seen",
    "visible_talon",
]

Env = Callable[[int], dict[str, Any]]


def _take(form: Form, deal: DealState, cards: list[Any], env: Env) -> None:
    assert deal.declarer is not None
    deal.taken = list(cards)
    deal.hands[deal.declarer] += cards
    deal.hands[deal.declarer].sort(key=_INDEX)
    deal.talon_shown = shown_when_taken(form, deal.talon_public, deal.dark_player is not None, deal.contested)
    deal.may_forfeit = may_forfeit(form, deal, env) and form.contract.forfeit.when != "before_talon"


def shown_when_taken(form: Form, public: bool, dark: bool, contested: bool) -> bool:
    """Whether the talon the declarer takes is shown to everyone: it lay face up already
    (``public``), or ``talon.shown`` in a deal that is not a dark game (``dark``: one was
    declared, also a golden deal declared dark) and was bid for (``contested``) or is shown
    even when unopposed (``talon.shown_when_unopposed``)."""
    t = form.talon
    return public or (t.shown and not dark and (contested or t.shown_when_unopposed))


def reveal_in_auction(deal: DealState) -> None:
    """With ``talon.shown_from: second_round``: turn the talons face up once the auction,
    still going on, comes round to a player who has already bid or passed in it (the forced
    player's standing bid counts).  Call after each auction action."""
    if deal.talon_public or deal.phase != "auction":
        return
    current = deal.current
    for p, _ in deal.bids:
        if p == current:
            deal.talon_public = True
            return


def visible_talon(deal: DealState, player: int) -> tuple[Card, ...]:
    """The talon cards ``player`` sees: the taken talon when it is shown (or to the declarer
    who took it); before it is taken, every talon on the table once turned face up
    (``talon.shown_from``); else nothing."""
    return talon_seen(deal.taken, deal.talon_shown, deal.talon_public, deal.talons, deal.declarer, player)


def talon_seen(taken: Sequence[Card], shown: bool, public: bool, talons: Sequence[Sequence[Card]],
               declarer: int | None, player: int) -> tuple[Card, ...]:
    """:func:`visible_talon` of plain values: the ``taken`` talon's cards when ``shown`` or to
    the ``declarer``; before any is taken, the ``talons`` when ``public``; else none."""
    if taken:
        if shown or player == declarer:
            return tuple(taken)
        return ()
    if public:
        return tuple([c for t in talons for c in t])
    return ()


def may_forfeit(form: Form, deal: DealState, env: Env) -> bool:
    """Whether the declarer may forfeit this deal (``contract.forfeit``): enabled; only when
    stuck with the compulsory bid if ``only_when_forced``; fewer than ``mode.limit``
    forfeits used in the match (``player.forfeits`` of the formula environment, 0 if
    absent)."""
    f = form.contract.forfeit
    if not f.enabled or deal.declarer is None:
        return False
    if f.only_when_forced and not deal.unopposed:
        return False
    if f.mode.limit is not None:
        used = int(env(deal.declarer)["player"].get("forfeits", 0))
        if used >= f.mode.limit:
            return False
    return True


def start(form: Form, deal: DealState, env: Env) -> bool:
    """Open the step ``talon`` (:mod:`.flow`): the declarer takes every talon, or is asked to
    choose one — or, with ``contract.forfeit.when: before_talon`` and a forfeit allowed
    (:func:`may_forfeit`), to take the talon or forfeit before seeing it (phase ``talon``:
    True, the deal waits for him; False when the talon is taken without a question)."""
    assert deal.declarer is not None
    deal.current = deal.declarer
    f = form.contract.forfeit
    before = f.enabled and f.when == "before_talon" and may_forfeit(form, deal, env)
    deal.may_forfeit = before
    if talon_asked(before, form.talon.take == "choose_one", len(deal.talons)):
        deal.phase = "talon"
        return True
    if form.talon.hand_out:
        _take_all(form, deal, env)
    else:  # (:func:`_take_all` without ``hand_out``, inline: once per deal)
        cards = [c for t in deal.talons for c in t]
        deal.talons = []
        _take(form, deal, cards, env)
    return False


def _take_all(form: Form, deal: DealState, env: Env) -> None:
    """Take every talon; with ``talon.hand_out`` only the first, the others (the reserved
    card) staying on the table until the exchange is done (:func:`apply_exchange`)."""
    if form.talon.hand_out:
        cards = deal.talons[0]
        deal.talons = deal.talons[1:]
    else:
        cards = [c for t in deal.talons for c in t]
        deal.talons = []
    _take(form, deal, cards, env)


def legal_choice(deal: DealState, table: ActionTable | None = None) -> list[Action]:
    """``talon 0``, ``talon 1``, …: one per talon still on the table (only ``talon 0``, take
    the talon, when every talon is taken and the phase is there for a forfeit before the
    talon); then ``forfeit`` when allowed (``deal.may_forfeit``).

    ``table`` supplies the shared forfeit action (a game's :class:`ActionTable`)."""
    if deal.may_forfeit:
        forfeit = (table or ActionTable()).forfeit
        return [*[ChooseTalon(i) for i in range(len(deal.talons))], forfeit]
    return [ChooseTalon(i) for i in range(len(deal.talons))]


def apply_choice(form: Form, deal: DealState, action: ChooseTalon, env: Env) -> None:
    """Take the chosen talon; the others are set aside as the leftover (with ``talon.take:
    all``, ``talon 0`` takes every talon).  The game then opens the steps after the talon."""
    if form.talon.take == "all":
        _take_all(form, deal, env)
        return
    chosen = deal.talons[action.index]
    for i, t in enumerate(deal.talons):
        if i != action.index:
            deal.leftover += t
    deal.talons = []
    _take(form, deal, chosen, env)


def open_exchange(form: Form, deal: DealState) -> bool:
    """Open the step ``exchange`` (:mod:`.flow`, a form whose exchange moves cards): phase
    ``exchange``, the declarer to give or discard; always True (the deal waits for him)."""
    deal.phase = "exchange"
    deal.given = exchange_counts(form, deal)
    return True


def exchange_counts(form: Form, deal: DealState) -> dict[int, int]:
    """The cards given so far to each opponent of the declarer as the exchange opens (``0``
    each; none when the declarer only discards, ``talon.exchange: discard``): the start of
    ``deal.given``."""
    return {p: 0 for p in deal.opponents()} if form.talon.exchange != "discard" else {}


def next_receiver(deal: DealState) -> int:
    """With ``talon.give_order: clockwise``, the opponent the next given card goes to: the
    cards go round the opponents in turn order from the declarer's next seat (in the
    direction of play, :func:`~.seating.seating`), one card each per round, until each has
    ``give_count``; the first opponent in that order who has received fewest so far."""
    given = deal.given
    fewest = min(given.values())
    for p, n in given.items():
        if n == fewest:
            return p
    raise AssertionError("no opponent to give to")  # pragma: no cover - given is never empty here


def receivers(opponents: Sequence[int], given: Mapping[int, int] | Sequence[int], give_count: int,
              clockwise: bool) -> list[int]:
    """The opponents the declarer may give his next card to (``talon.exchange: give_each``):
    those of ``opponents`` (in turn order from his next seat) who have received fewer than
    ``give_count`` cards (``given[p]``); with ``clockwise`` (``talon.give_order``) only the
    first of them who has received fewest (:func:`next_receiver`).  The one statement of the
    order: :func:`compile_legal_exchange` calls it, and the fast path's generator writes it
    inline (``tysiac_spec.fast.generate.INLINED``)."""
    out: list[int] = []
    fewest = give_count
    if clockwise:
        for q in opponents:
            if given[q] < fewest:
                fewest = given[q]
    for q in opponents:
        if given[q] < give_count and (not clockwise or given[q] == fewest):
            out.append(q)
            if clockwise:
                break
    return out


def gifts_seen(form: Form, deal: DealState, player: int) -> tuple[tuple[int, Card], ...]:
    """The given cards ``player`` knows of, as ``(receiver, card)`` in the order given: all of
    them with ``talon.give_face_up`` (shown to everyone) or to the declarer, who gave them;
    otherwise only the ones ``player`` received.  Empty before the exchange."""
    return gifts_known(form, deal.gifts, deal.declarer, player)


def gifts_known(form: Form, gifts: Sequence[tuple[int, Card]], declarer: int | None,
                player: int) -> tuple[tuple[int, Card], ...]:
    """:func:`gifts_seen` of plain values: ``gifts`` as ``(receiver, card)`` in the order
    given, the ``declarer`` who gave them."""
    if not gifts:
        return ()
    if form.talon.give_face_up or player == declarer:
        return tuple(gifts)
    return tuple([g for g in gifts if g[0] == player])


def compile_legal_exchange(form: Form, table: ActionTable) -> Callable[[DealState], list[Action]]:
    """The cards the declarer may give (opponent by opponent; with ``talon.give_order:
    clockwise`` only to :func:`next_receiver`; with ``talon.hand_out`` only the talon's cards)
    or discard (with ``give_and_bury``, bury once every opponent has his cards), in deck order,
    then ``forfeit`` when allowed, as a function of the deal, with ``form.talon`` read once; the
    actions are ``table``'s shared objects (a game's :class:`ActionTable`)."""
    t = form.talon
    discard = t.exchange == "discard"
    bury = t.exchange == "give_and_bury"
    hand_out = t.hand_out
    give_count = t.give_count
    clockwise = t.give_order == "clockwise"
    forfeit = table.forfeit

    def offers(deal: DealState, hand: Sequence[Card], discarding: bool) -> list[Action]:
        """The discards of ``hand`` (``discarding``), else its gifts to the opponents who still
        wait for cards; then ``forfeit`` when allowed."""
        out: list[Action]
        if discarding:
            discards = table.discards_by_index()
            out = [discards[c.index] for c in hand] if discards else [table.discard(c) for c in hand]
        else:
            out = []
            given = deal.given
            for p in receivers(list(given), given, give_count, clockwise):
                gives = table.gives_by_index(p)
                out += [gives[c.index] for c in hand] if gives else [table.give(c, p) for c in hand]
        if deal.may_forfeit:
            out.append(forfeit)
        return out

    def legal_now(deal: DealState) -> list[Action]:
        assert deal.declarer is not None
        hand = deal.hands[deal.declarer]
        if hand_out:  # only the talon's cards are handed out
            hand = [c for c in hand if c in deal.taken]
        # (give_and_bury: the burial once every opponent has his cards)
        return offers(deal, hand, discard or (bury and all(n >= give_count for n in deal.given.values())))

    def legal_plain(deal: DealState) -> list[Action]:
        """``legal_now`` without ``hand_out`` and ``give_and_bury`` (decided once per form)."""
        assert deal.declarer is not None
        return offers(deal, deal.hands[deal.declarer], discard)

    return legal_now if hand_out or bury else legal_plain


def legal_exchange(form: Form, deal: DealState, table: ActionTable | None = None) -> list[Action]:
    """:func:`compile_legal_exchange`'s list for ``deal`` (``table``: a game's
    :class:`ActionTable`, else a new one)."""
    return compile_legal_exchange(form, ActionTable() if table is None else table)(deal)


def apply_exchange(form: Form, deal: DealState, action: Action, env: Env) -> bool:
    """Move one card out of the declarer's hand; True when the exchange is done (with
    ``talon.hand_out`` the talons left on the table, the reserved card, then go to his hand),
    and the game opens the steps after it."""
    assert deal.declarer is not None
    hand = deal.hands[deal.declarer]
    if deal.may_forfeit and form.contract.forfeit.when == "before_exchange":
        deal.may_forfeit = False  # the exchange has begun
    if isinstance(action, Discard):
        remove_card(hand, action.card)
        if form.talon.exchange == "give_and_bury":  # buried: counts for the declarer
            deal.won.setdefault(deal.declarer, []).append(action.card)
            deal.buried += 1
            if deal.buried < form.talon.discard_count:
                return False
        else:
            deal.discards.append(action.card)
            if len(deal.discards) < form.talon.discard_count:
                return False
    else:
        assert isinstance(action, GiveCard)
        remove_card(hand, action.card)
        receiver = deal.hands[action.to]
        receiver.append(action.card)
        deal.gifts.append((action.to, action.card))
        receiver.sort(key=_INDEX)
        deal.given[action.to] += 1
        give_count = form.talon.give_count
        for n in deal.given.values():
            if n < give_count:
                return False  # more to give
        if form.talon.discard_count and form.talon.exchange == "give_and_bury":
            return False  # the burial comes next
    # the exchange is done
    if deal.talons and form.talon.hand_out:  # the reserved card, unseen by the others
        hand += [c for t in deal.talons for c in t]
        hand.sort(key=_INDEX)
        deal.talons = []
    return True


def contract_amounts(form: Form, deal: DealState, env: Env, kept: bool = True) -> list[int]:
    """The contracts the declarer may announce: the bid, then multiples of ``contract.step``
    above it (:func:`~.auction.round_up`) up to ``contract.max`` and the auction cap,
    filtered by ``contract.allowed``; only the bid for a named kind won in the auction (its
    fixed ``value``, set by :func:`~.contracts.apply_bid`).  ``kept=False``: the formulas
    evaluated, not looked up in the form's kept values (a caller that keeps its own: the fast
    path's ``H_contract_amounts``); the same list."""
    c, bid = form.contract, deal.high_bid
    raise_allowed = c.raise_allowed
    if deal.mode == "dark":
        raise_allowed = form.special.dark.raise_allowed
    elif deal.mode == "golden":
        raise_allowed = form.special.golden_round.raise_allowed
    if not raise_allowed or deal.barrel_deal or (deal.around is not None and deal.around.kind is not None):
        # (a named kind, contract.kinds: its fixed value)
        return [bid]
    compiled = form.compiled  # (kept by the cards the formulas see: CompiledForm.contract_kept)
    values = compiled.contract_kept if compiled is not None and kept else None
    if values is None:
        return _contract_amounts(form, deal, env, bid)
    return list(_kept_amounts(form, deal, env, bid, values))


def _kept_amounts(
    form: Form, deal: DealState, env: Env, bid: int, kept: tuple[int, dict[Any, Any]]
) -> tuple[int, ...]:
    """:func:`_contract_amounts` kept by the cards of the declarer's hand the formulas see and
    the bid (``kept``: :attr:`.compiled.CompiledForm.contract_kept`), one shared tuple."""
    assert deal.declarer is not None
    bits = 0
    for card in deal.hands[deal.declarer]:
        bits |= card.bit
    seen, values = kept
    key = (bits & seen, bid)
    known: tuple[int, ...] | None = values.get(key)
    if known is None:
        known = tuple(_contract_amounts(form, deal, env, bid))
        if len(values) > 50_000:
            values.clear()
        values[key] = known
    return known


def _contract_amounts(form: Form, deal: DealState, env: Env, bid: int) -> list[int]:
    """:func:`contract_amounts` of a deal whose contract may be raised (``bid``: the high bid),
    the formulas evaluated."""
    assert deal.declarer is not None
    c = form.contract
    hand = tuple(deal.hands[deal.declarer])
    b = env(deal.declarer) if c.max is not None or c.allowed is not None else envs.UNREAD_BASE
    tops = [] if form.auction.cap is None else [form.auction.cap]
    if c.max is not None:
        tops.append(int(c.max.evaluator()(envs.contract_max(b, hand, bid))))
    hi = max(bid, min(tops) if tops else ceiling(form, deal.deck_points))
    step = c.step
    first = round_up(bid + 1, step)  # the lowest raise
    compiled = form.compiled  # (the limit read once per form, as the auction's amounts read it)
    most = compiled.bids_limit if compiled is not None else limits.limit("bids")
    if (hi - first) // step + 1 > most:
        raise limits.exceeded("bids", (hi - first) // step + 1,
                              subject=f"the contracts the declarer may declare, {first} to {hi}")
    out = [bid, *range(first, hi + 1, step)]
    if c.allowed is not None:
        fn = c.allowed.evaluator()
        e = envs.contract_allowed(b, hand, bid, bid)
        kept = []
        for amount in out:
            e["contract"] = amount
            if fn(e):
                kept.append(amount)
        out = kept or [bid]
    return out


def legal_contract(
    form: Form, deal: DealState, env: Env, table: ActionTable | None = None
) -> list[Action]:
    """``contract N`` for each contract allowed (ascending), then ``forfeit`` if allowed.

    ``table`` supplies shared action objects (a game's :class:`ActionTable`)."""
    if table is None:
        table = ActionTable()
    contracts = table.contracts(_offered(form, deal, env))
    return [*contracts, table.forfeit] if deal.may_forfeit else contracts[:]


def apply_forfeit(deal: DealState) -> None:
    """The declarer forfeits: the deal is not played (``deal.forfeited``; ``deal.phase`` →
    ``over``); the contract is the bid unless already fixed.  The match scores it."""
    deal.forfeited = True
    deal.contract = forfeit_contract(deal.contract, deal.high_bid)
    deal.phase = "over"


def forfeit_contract(contract: int, bid: int) -> int:
    """The contract of a forfeited deal: the one fixed (``contract``, 0 for none), else the
    bid.  The one statement (:func:`apply_forfeit`; inlined by the fast path)."""
    return contract or bid


def contract_asked(offered: int, may_forfeit: bool) -> bool:
    """Whether the declarer is asked for his contract: more (or fewer) than one amount is
    ``offered``, or he may forfeit instead.  The one statement (:func:`open_contract`;
    inlined by the fast path)."""
    return offered != 1 or may_forfeit


def talon_asked(before: bool, choose_one: bool, talons: int) -> bool:
    """Whether the declarer is asked about the talon after the auction: he may forfeit before
    seeing it (``before``), or chooses one of several (``choose_one``, ``talons`` on the
    table).  The one statement (:func:`start`; inlined by the fast path)."""
    return before or (choose_one and talons > 1)


def open_contract(form: Form, deal: DealState, env: Env) -> bool:
    """Open the step ``contract`` (:mod:`.flow`): phase ``contract`` when the declarer is
    asked (:func:`contract_asked`: True, the deal waits for him), else the one contract
    offered fixed and the phase ``play`` (False)."""
    amounts = _offered(form, deal, env)
    if not contract_asked(len(amounts), deal.may_forfeit):
        deal.contract = amounts[0]
        deal.phase = "play"
        return False
    deal.phase = "contract"
    return True


def _offered(form: Form, deal: DealState, env: Env) -> tuple[int, ...]:
    """:func:`contract_amounts`, kept in ``deal.contract_offer`` for the same hand and bid."""
    assert deal.declarer is not None
    bits = 0
    for c in deal.hands[deal.declarer]:
        bits |= c.bit
    offer = deal.contract_offer
    if offer is not None and offer[0] == bits and offer[1] == deal.high_bid:
        return offer[2]
    amounts = tuple(contract_amounts(form, deal, env))
    deal.contract_offer = (bits, deal.high_bid, amounts)
    return amounts


def apply_contract(deal: DealState, action: DeclareContract) -> None:
    """Fix the contract; play starts."""
    deal.contract = action.amount
    deal.phase = "play"


def explain(form: Form, deal: DealState, action: Action, env: Env) -> str:
    """Why ``action`` is not legal in the talon, exchange or contract phase."""
    before_talon = form.contract.forfeit.when == "before_talon"
    if deal.phase == "talon" and not (before_talon and isinstance(action, Forfeit)):
        if form.talon.take == "all":
            return "take the talon (`talon 0`) or forfeit"
        return f"choose a talon from 0 to {len(deal.talons) - 1}"
    if isinstance(action, Forfeit):
        f = form.contract.forfeit
        if not f.enabled:
            return "the ruleset has no forfeit"
        if f.only_when_forced and not deal.unopposed:
            return "only a declarer stuck with the compulsory bid may forfeit"
        exchanged = any(deal.given.values()) or bool(deal.discards) or deal.phase == "contract"
        if f.when == "before_exchange" and exchanged:
            return "a forfeit is allowed only on seeing the talon, before the exchange"
        if before_talon and deal.phase != "talon":
            return "a forfeit is allowed only before taking the talon"
        return f"player {deal.declarer} has used all {f.mode.limit} forfeit(s) allowed in the match"
    if deal.phase == "contract":
        amounts = contract_amounts(form, deal, env)
        if isinstance(action, DeclareContract):
            return f"the contract must be one of {', '.join(map(str, amounts))}"
        return "declare the contract"
    burying = form.talon.exchange == "give_and_bury" and all(
        n >= form.talon.give_count for n in deal.given.values()
    )
    if form.talon.exchange == "discard" or burying:
        if isinstance(action, Discard):
            return f"{action.card} is not in the declarer's hand"
        return "bury a card" if burying else "discard a card"
    if isinstance(action, GiveCard):
        if action.to not in deal.given:
            return f"player {action.to} is not an opponent of the declarer"
        if deal.given[action.to] >= form.talon.give_count:
            return f"player {action.to} has already been given {form.talon.give_count} card(s)"
        if form.talon.give_order == "clockwise" and action.to != next_receiver(deal):
            return f"the cards go round in turn: the next one goes to player {next_receiver(deal)}"
        if form.talon.hand_out and deal.declarer is not None and action.card in deal.hands[deal.declarer]:
            return f"{action.card} is not a talon card: only the talon's cards are handed out"
        return f"{action.card} is not in the declarer's hand"
    return "give a card to each opponent"
