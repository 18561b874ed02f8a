"""Playing the tricks: legal cards, marriages, trump, trick winners (``form.play``,
``form.marriages``).

The duties are applied in this order (catalogue P23–P26): follow the suit led;
within it beat the led card or the trick's best card of that suit (``must_beat``),
unless the trick has been trumped and ``beat_when_trumped`` is false; when void,
play a trump (``must_trump``), above the best trump on the trick when able
(``must_overtrump``), otherwise any trump or any card (``cannot_overtrump``).

Not supported yet: the ace marriage (``marriages.ace_marriage``).
"""

from __future__ import annotations

from ..cards import Card
from ..ruleset.model import Form
from .actions import Action, PlayCard
from .state import DealState

__all__ = ["apply", "explain", "legal", "legal_cards", "may_declare", "trick_winner"]

MARRIAGE_RANKS = ("king", "queen")
"""Rank ids of a marriage, as in the DSL's ``marriages()`` (``DeckInfo.marriage_ranks``)."""


def legal_cards(form: Form, deal: DealState, player: int) -> tuple[list[Card], str]:
    """The cards ``player`` may play now, and the duty that restricts them (or ``""``)."""
    hand = deal.hands[player]
    if not deal.trick:
        return list(hand), ""
    p = form.play
    led = deal.trick[0][1].suit
    trump = deal.trump
    follow = [c for c in hand if c.suit == led]
    if follow and p.must_follow:
        if p.must_beat != "no":
            trumped = trump is not None and trump != led.id and any(c.suit == trump for _, c in deal.trick)
            if not trumped or p.beat_when_trumped:
                if p.must_beat == "led_card":
                    target = deal.trick[0][1]
                else:
                    target = max((c for _, c in deal.trick if c.suit == led), key=_strength)
                higher = [c for c in follow if c.rank.strength > target.rank.strength]
                if higher:
                    return higher, f"must beat {target} with a higher {led.id} card"
        return follow, f"must follow {led.id}"
    if p.must_trump and trump is not None and not follow:
        trumps = [c for c in hand if c.suit == trump]
        if trumps:
            on_trick = [c for _, c in deal.trick if c.suit == trump]
            if p.must_overtrump and on_trick:
                best = max(on_trick, key=_strength)
                higher = [c for c in trumps if c.rank.strength > best.rank.strength]
                if higher:
                    return higher, f"must overtrump {best}"
                if p.cannot_overtrump == "any_card":
                    return list(hand), ""
            return trumps, f"must play a trump ({trump})"
    return list(hand), ""


def _strength(card: Card) -> int:
    return card.rank.strength


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


def legal(form: Form, deal: DealState) -> list[Action]:
    """Legal plays of the player to move, in deck order; a lead that may declare a marriage
    is offered with the declaration (and, when spoken, also without it)."""
    cards, _ = legal_cards(form, deal, deal.current)
    out: list[Action] = []
    automatic = form.marriages.announcement == "automatic"
    for c in sorted(cards, key=lambda c: c.index):
        if may_declare(form, deal, deal.current, c):
            if not automatic:
                out.append(PlayCard(c))
            out.append(PlayCard(c, True))
        else:
            out.append(PlayCard(c))
    return out


def explain(form: Form, deal: DealState, action: Action) -> str:
    """Why ``action`` is not a legal play now (``must follow hearts``)."""
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
    if action.marriage:
        if deal.trick:
            return "a marriage is declared only when leading"
        return f"{action.card} cannot declare a marriage now"
    return "leading this card declares its marriage (announcement is automatic)"


def trick_winner(deal: DealState) -> int:
    """The player whose card wins the trick: the best trump, else the best card of the suit led."""
    led = deal.trick[0][1].suit
    trump = deal.trump

    def key(item: tuple[int, Card]) -> tuple[bool, bool, int]:
        c = item[1]
        return (trump is not None and c.suit == trump, c.suit == led, c.rank.strength)

    return max(deal.trick, key=key)[0]


def apply(form: Form, deal: DealState, action: PlayCard) -> None:
    """PlayCard a legal card; declare its marriage; close the trick when everyone has played.

    After the last trick ``deal.phase`` becomes ``over`` (the game scores it).
    """
    p = deal.current
    deal.hands[p].remove(action.card)
    if action.marriage:
        m = form.marriages
        suit = action.card.suit.id
        deal.marriages[p] = deal.marriages.get(p, 0) + m.values[suit]
        deal.declared.append((p, suit))
        if m.sets_trump and (m.trump_change == "every" or len(deal.declared) == 1):
            if m.trump_from == "this_trick":
                deal.trump = suit
            else:
                deal.pending_trump = suit
    deal.trick.append((p, action.card))
    if len(deal.trick) < len(deal.order):
        deal.current = deal.next_active(p)
        return
    winner = trick_winner(deal)
    deal.won.setdefault(winner, []).extend(c for _, c in deal.trick)
    deal.tricks[winner] = deal.tricks.get(winner, 0) + 1
    deal.trick = []
    deal.trick_number += 1
    deal.last_trick_winner = winner
    if deal.pending_trump is not None:
        deal.trump, deal.pending_trump = deal.pending_trump, None
    deal.current = winner
    if not deal.hands[winner]:
        _award_leftover(form, deal)
        deal.phase = "over"


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
