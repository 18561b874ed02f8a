"""Playing the tricks: legal cards, marriages, trump, trick winners (``form.play``,
``form.marriages``).

The duties are applied in this order (catalogue P23–P26): follow the suit led;
within it beat the led card or the trick's best card of that suit (``must_beat``),
unless the trick has been trumped and ``beat_when_trumped`` is false; when void,
play a trump (``must_trump``), above the best trump on the trick when able
(``must_overtrump``), otherwise any trump or any card (``cannot_overtrump``).

The ace marriage (``marriages.ace_marriage``, S002 variation): declared by leading an
ace while holding all four (talon cards included), ``play AH aces``; worth
``ace_marriage.value``; only after its holder has won a trick when
``requires_won_trick`` (S002: "not on the first move"); it makes the led ace's suit
trump only when ``sets_trump`` (1KC: no trump).  Announced like a marriage: with
``announcement: automatic`` the lead declares it, with ``spoken`` the player may stay
silent.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter

from ..cards import Card
from ..ruleset.model import Form
from .actions import Action, ActionTable, Claim, PlayCard
from .state import DealState

__all__ = [
    "apply",
    "apply_claim",
    "claim_marriages",
    "compile_apply",
    "compile_legal",
    "explain",
    "legal",
    "legal_cards",
    "may_claim",
    "may_declare",
    "may_declare_aces",
    "trick_winner",
]

MARRIAGE_RANKS = ("king", "queen")
"""Rank ids of a marriage, as in the DSL's ``marriages()`` (``DeckInfo.marriage_ranks``)."""

ACE = "ace"
"""Rank id of the cards of the ace marriage (as the DSL's ``count(hand, ace)``)."""


def legal_cards(form: Form, deal: DealState, player: int) -> tuple[list[Card], str]:
    """The cards ``player`` may play now, and the duty that restricts them (or ``""``)."""
    cards, duty, about = _legal_cards(form, deal, player)
    if duty == _BEAT:
        assert isinstance(about, Card)
        return cards, f"must beat {about} with a higher {about.suit.id} card"
    if duty == _FOLLOW:
        return cards, f"must follow {about}"
    if duty == _OVERTRUMP:
        return cards, f"must overtrump {about}"
    if duty == _TRUMP:
        return cards, f"must play a trump ({about})"
    return cards, ""


_FREE, _BEAT, _FOLLOW, _OVERTRUMP, _TRUMP = range(5)
"""The duty restricting the legal cards (see :func:`_legal_cards`)."""


def _legal_cards(form: Form, deal: DealState, player: int) -> tuple[list[Card], int, Card | str | None]:
    """The legal cards, the duty that restricts them and what it is about (the card to beat
    or overtrump, the suit to follow or to trump); the reason text is built only when
    needed (:func:`legal_cards`)."""
    hand = deal.hands[player]
    trick = deal.trick
    if not trick:
        return list(hand), _FREE, None
    p = form.play
    first = trick[0][1]
    led = first.suit_id
    trump = deal.trump
    follow = [c for c in hand if c.suit_id == led]
    if follow and p.must_follow:
        if p.must_beat != "no":
            trumped = False
            if trump is not None and trump != led:
                for _, c in trick:
                    if c.suit_id == trump:
                        trumped = True
                        break
            if not trumped or p.beat_when_trumped:
                target = first
                if p.must_beat != "led_card":
                    # the first strongest card of the suit led (as max() picks it)
                    for _, c in trick:
                        if c.suit_id == led and c.strength > target.strength:
                            target = c
                top = target.strength
                higher = [c for c in follow if c.strength > top]
                if higher:
                    return higher, _BEAT, target
        return follow, _FOLLOW, led
    if p.must_trump and trump is not None and not follow:
        trumps = [c for c in hand if c.suit_id == trump]
        if trumps:
            if p.must_overtrump:
                best: Card | None = None
                for _, c in trick:
                    if c.suit_id == trump and (best is None or c.strength > best.strength):
                        best = c
                if best is not None:
                    top = best.strength
                    higher = [c for c in trumps if c.strength > top]
                    if higher:
                        return higher, _OVERTRUMP, best
                    if p.cannot_overtrump == "any_card":
                        return list(hand), _FREE, None
            return trumps, _TRUMP, trump
    return list(hand), _FREE, None


def may_declare(form: Form, deal: DealState, player: int, card: Card) -> bool:
    """Whether leading ``card`` may declare the marriage of its suit.

    Rule: ``marriages.requires_won_trick``, ``marriages.declarer_first_lead``; the
    partner (king or queen of the same suit) must be in the hand.
    """
    m = form.marriages
    if deal.trick or card.rank.id not in MARRIAGE_RANKS or card.suit.id not in m.values:
        return False
    partner = MARRIAGE_RANKS[1] if card.rank.id == MARRIAGE_RANKS[0] else MARRIAGE_RANKS[0]
    if not any(c.suit == card.suit and c.rank.id == partner for c in deal.hands[player]):
        return False
    if m.requires_won_trick and not deal.tricks.get(player):
        return False
    return not (deal.trick_number == 0 and player == deal.declarer and not m.declarer_first_lead)


def may_declare_aces(form: Form, deal: DealState, player: int, card: Card) -> bool:
    """Whether leading ``card`` may declare the ace marriage: enabled, a lead of an ace, all
    four aces in the hand, a trick already won when ``requires_won_trick``."""
    am = form.marriages.ace_marriage
    if not am.enabled or deal.trick or card.rank.id != ACE:
        return False
    if am.requires_won_trick and not deal.tricks.get(player):
        return False
    return sum(1 for c in deal.hands[player] if c.rank.id == ACE) == deal.aces


def legal(form: Form, deal: DealState, table: ActionTable | None = None) -> list[Action]:
    """Legal plays of the player to move, in deck order; a lead that may declare a marriage
    is offered with the declaration (and, when spoken, also without it).

    ``table`` supplies shared action objects (a game's :class:`ActionTable`); without it
    new ones are made.  A game compiles this once (:func:`compile_legal`).
    """
    return compile_legal(form, ActionTable() if table is None else table)(deal)


def compile_legal(
    form: Form, table: ActionTable, deck: Sequence[Card] = ()
) -> Callable[[DealState], list[Action]]:
    """:func:`legal` specialised to ``form``, handing out the shared actions of ``table``: a
    function of the deal.  The duties are :func:`legal_cards`'s and the marriage conditions
    :func:`may_declare`'s (one statement of each rule).  ``deck`` (the pack's cards, ``card.index ==
    i``) lets the plain plays be looked up by index (any other card still works)."""
    m = form.marriages
    automatic, aces = m.announcement == "automatic", m.ace_marriage.enabled
    claim_allowed = form.contract.claim_allowed
    plains, plain, play_action, claim = table.plains, table.plain, table.play, table.claim
    pget = plains.get
    by_index = [plain(c) for c in deck]
    n_deck = len(by_index)
    """The plain play of each card of the pack, by ``card.index``."""
    king, queen = MARRIAGE_RANKS

    def legal_now(deal: DealState) -> list[Action]:
        player = deal.current
        hand = deal.hands[player]
        trick = deal.trick
        if trick:
            # no claim once a trick is under way (may_claim); the duties of legal_cards
            cards = _legal_cards(form, deal, player)[0]
            if len(cards) > 1:
                cards = sorted(cards, key=_INDEX)
            try:
                # the pack's own card at its index (any other card: looked up by identity)
                return [a if (a := by_index[c.index]).card is c else plain(c) for c in cards]
            except IndexError:
                return [pget(id(c)) or plain(c) for c in cards]
        out: list[Action] = []
        for c in sorted(hand, key=_INDEX):
            rid = c.rank.id
            if rid == king or rid == queen:
                if may_declare(form, deal, player, c):
                    if not automatic:
                        out.append(plains.get(id(c)) or plain(c))
                    out.append(play_action(c, True))
                    continue
            elif aces and rid == ACE and may_declare_aces(form, deal, player, c):
                if not automatic:
                    out.append(plains.get(id(c)) or plain(c))
                out.append(play_action(c, False, True))
                continue
            i = c.index
            if 0 <= i < n_deck and (a := by_index[i]).card is c:
                out.append(a)
            else:
                out.append(pget(id(c)) or plain(c))
        if claim_allowed and not deal.trick_number and may_claim(deal):
            out.append(claim)
        return out

    return legal_now


_INDEX = attrgetter("index")


def _opponent_cards(deal: DealState) -> list[Card]:
    assert deal.declarer is not None
    return [c for p in deal.order if p != deal.declarer for c in deal.hands[p]]


def may_claim(deal: DealState) -> bool:
    """Whether the declarer may claim: S000 — after the exchange, before the first trick,
    a declarer with a lay-down (e.g. four aces and four tens, or complete suits) shows his
    hand, sure to win every trick whatever the order: for each of his cards no opponent
    holds a higher card of its suit, nor — unless it is a trump — any trump.  Opponents
    never lead, so they cannot change trump."""
    if deal.trick or deal.trick_number or deal.current != deal.declarer or not deal.hands[deal.current]:
        return False
    others = _opponent_cards(deal)
    trump = deal.trump
    trumps_out = False
    if trump is not None:
        for c in others:
            if c.suit_id == trump:
                trumps_out = True
                break
    # the strongest opponent card of each suit
    top: dict[str, int] = {}
    for o in others:
        if o.strength > top.get(o.suit_id, -1):
            top[o.suit_id] = o.strength
    for card in deal.hands[deal.current]:
        if trumps_out and card.suit_id != trump:
            return False
        if top.get(card.suit_id, -1) > card.strength:
            return False
    return True


def claim_marriages(form: Form, deal: DealState) -> list[str]:
    """Suits of the marriages a claiming declarer is credited with: those in his hand whose
    suit no opponent holds (declaring them cannot give an opponent a trump), which he may
    still declare — after the first claimed trick when he may not on this lead
    (``requires_won_trick``, ``declarer_first_lead``), which costs the smallest one if every
    card he holds belongs to such a marriage.  The ace marriage is not credited."""
    player = deal.current
    hand = deal.hands[player]
    others = {c.suit.id for c in _opponent_cards(deal)}
    held = {(c.suit.id, c.rank.id) for c in hand}
    m = form.marriages
    suits = [
        s for s in m.values
        if (s, MARRIAGE_RANKS[0]) in held and (s, MARRIAGE_RANKS[1]) in held and s not in others
    ]
    now = not (m.requires_won_trick and not deal.tricks.get(player)) and not (
        deal.trick_number == 0 and player == deal.declarer and not m.declarer_first_lead
    )
    if suits and not now and len(hand) == 2 * len(suits):
        suits.remove(min(suits, key=lambda s: m.values[s]))
    return suits


def apply_claim(form: Form, deal: DealState) -> None:
    """The declarer takes every remaining card as won tricks, with the marriages of
    :func:`claim_marriages`; the deal is over (``deal.phase`` → ``over``)."""
    p = deal.current
    for suit in claim_marriages(form, deal):
        deal.marriages[p] = deal.marriages.get(p, 0) + form.marriages.values[suit]
        deal.declared.append((p, suit))
    remaining = len(deal.hands[p])
    won = deal.won.setdefault(p, [])
    for q in deal.order:
        won.extend(deal.hands[q])
        deal.hands[q] = []
    deal.tricks[p] = deal.tricks.get(p, 0) + remaining
    deal.trick_number += remaining
    deal.last_trick_winner = p
    _award_leftover(form, deal)
    deal.phase = "over"


def explain(form: Form, deal: DealState, action: Action) -> str:
    """Why ``action`` is not a legal play now (``must follow hearts``)."""
    if isinstance(action, Claim):
        if not form.contract.claim_allowed:
            return "the ruleset allows no claim"
        return "only the declarer, before the first trick and sure of every trick, may claim"
    if not isinstance(action, PlayCard):
        return "play a card"
    if action.card not in deal.hands[deal.current]:
        return f"{action.card} is not in player {deal.current}'s hand"
    cards, reason = legal_cards(form, deal, deal.current)
    if action.card not in cards:
        led = deal.trick[0][1].suit
        holds_led = any(c.suit == led for c in deal.hands[deal.current])
        if form.play.must_follow and holds_led and action.card.suit != led:
            return f"must follow {led.id}"
        return reason
    if action.marriage and action.aces:
        return "one card cannot declare a marriage and the ace marriage"
    if action.marriage:
        if deal.trick:
            return "a marriage is declared only when leading"
        return f"{action.card} cannot declare a marriage now"
    if action.aces:
        if deal.trick:
            return "the ace marriage is declared only when leading"
        if not form.marriages.ace_marriage.enabled:
            return "the ruleset has no ace marriage"
        return f"{action.card} cannot declare the ace marriage now (lead an ace holding all four)"
    return "leading this card declares its marriage (announcement is automatic)"


def trick_winner(deal: DealState) -> int:
    """The player whose card wins the trick: the best trump, else the best card of the suit led."""
    trick = deal.trick
    trump = deal.trump
    winner, first = trick[0]
    led = first.suit_id
    # a card's rank is (is a trump, is of the suit led, strength); the first best card wins
    bt, bl, bs = trump is not None and led == trump, True, first.strength
    for player, c in trick[1:]:
        sid = c.suit_id
        t = trump is not None and sid == trump
        ld = sid == led
        st = c.strength
        if t > bt or (t == bt and (ld > bl or (ld == bl and st > bs))):
            winner, bt, bl, bs = player, t, ld, st
    return winner


def apply(form: Form, deal: DealState, action: PlayCard) -> None:
    """Play a legal card; declare its marriage; close the trick when everyone has played.

    After the last trick ``deal.phase`` becomes ``over`` (the game scores it).  A game
    compiles this once per form (:func:`compile_apply`); this is the same, uncompiled.
    """
    compile_apply(form)(deal, action)


def compile_apply(form: Form) -> Callable[[DealState, PlayCard], None]:
    """:func:`apply` specialised to ``form``: a function of the deal and a legal play, with
    the same effects."""
    am = form.marriages.ace_marriage
    m = form.marriages
    award = form.talon.leftover.to != "nobody"

    def apply_card(deal: DealState, action: PlayCard) -> None:
        p = deal.current
        card = action.card
        hand = deal.hands[p]
        for i, c in enumerate(hand):
            if c is card:
                del hand[i]
                break
        else:
            hand.remove(card)
        if action.aces:
            deal.marriages[p] = deal.marriages.get(p, 0) + am.value
            deal.declared.append((p, ACE))
            if am.sets_trump:
                _set_trump(form, deal, card.suit.id)
        if action.marriage:
            suit = card.suit.id
            deal.marriages[p] = deal.marriages.get(p, 0) + m.values[suit]
            deal.declared.append((p, suit))
            if m.sets_trump:
                _set_trump(form, deal, suit)
        trick = deal.trick
        trick.append((p, card))
        order = deal.order
        n = len(order)
        if len(trick) < n:
            deal.current = order[(order.index(p) + 1) % n]
            return
        winner = trick_winner(deal)
        won = deal.won.get(winner)
        if won is None:
            deal.won[winner] = [c for _, c in trick]
        else:
            won.extend([c for _, c in trick])
        tricks = deal.tricks
        tricks[winner] = tricks.get(winner, 0) + 1
        deal.trick = []
        deal.trick_number += 1
        deal.last_trick_winner = winner
        if deal.pending_trump is not None:
            deal.trump, deal.pending_trump = deal.pending_trump, None
        deal.current = winner
        if not deal.hands[winner]:
            if award:
                _award_leftover(form, deal)
            deal.phase = "over"

    return apply_card


def _set_trump(form: Form, deal: DealState, suit: str) -> None:
    m = form.marriages
    if m.trump_change == "first_only" and (deal.trump is not None or deal.pending_trump is not None):
        return
    if m.trump_from == "this_trick":
        deal.trump = suit
    else:
        deal.pending_trump = suit


def _award_leftover(form: Form, deal: DealState) -> None:
    lo = form.talon.leftover
    if lo.to == "nobody":
        return
    to = deal.last_trick_winner if lo.to == "last_trick" else deal.declarer
    assert to is not None
    cards = deal.leftover
    deal.leftover = []
    if lo.cards == "unchosen_and_discards":
        cards += deal.discards
        deal.discards = []
    deal.won.setdefault(to, []).extend(cards)
