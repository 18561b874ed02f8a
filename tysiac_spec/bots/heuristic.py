"""A seeded rule-of-thumb bot: bids from a hand estimate, keeps marriages, wins cheaply.

The bot sees only its player's :class:`~tysiac_spec.engine.game.View` and the legal
actions; it remembers the cards it has seen in the current deal (its hand, a shown
talon, cards on the table when it is its turn to play).  It knows no variant: the
card points, trick order (rank strength) and the pack come from the cards (``Card.pack``
is the ruleset's deck), and the marriages from the form it plays (``form.marriages``:
the two ``ranks`` that make one, and the ``values``: only those suits have a marriage).

Action types it does not know (added by later engine versions) are never chosen while a
known one is legal; when only unknown ones are legal it takes the first.  Actions whose
text is ``forfeit`` are taken when the hand falls well short of the contract, and
``redeal`` when the hand is very weak; ``dark`` and ``cancel dark`` are never chosen
while another action is legal.  Of the named bids (``contract.kinds``) it makes only one
whose goal is met by taking no trick (misère,
:func:`~tysiac_spec.engine.contracts.avoids_tricks`), holding only low cards; declarer of
such a contract, it gives its highest cards away in the exchange, never forfeits and ducks
every trick it can.  An ace marriage (``play AH aces``) is declared first.

Around the contract: ``buy`` (``talon.rebuy``) when the hand with the face-up talon is
estimated well above the price (in a second auction, ``rebuy.bidding: auction``, its lowest
bid when so estimated); ``contra`` when the defender's own hand would nearly make the
contract itself, ``redouble`` when the declarer's hand is well above it; else ``pass``.  In
a deal played without a declarer (all-pass play, raspasy: ``view.declarer`` is ``None``) it
avoids taking points: it plays under the trick's best card, its highest-point card first,
and when it must win, wins low unless it plays last; it leads its lowest card.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from ..cards import Card
from ..engine.actions import (
    Action,
    Bid,
    ChooseTalon,
    DeclareContract,
    DeclareMarriage,
    Discard,
    GiveCard,
    NamedBid,
    NameTrump,
    Pass,
    PlayCard,
)
from ..engine.contracts import avoids_tricks
from ..engine.game import View
from ..ruleset.model import Form, Marriages

__all__ = ["HeuristicBot", "estimate_hand"]

_KNOWN = (Bid, Pass, ChooseTalon, GiveCard, Discard, DeclareContract, PlayCard)
_CAPTURE = 3
"""Points a sure trick is expected to collect from each other player's card."""

_REDEAL_BELOW = 60
"""A redeal the bot may call is called when its hand is estimated below this (points)."""


def _word(action: Action) -> str:
    """The first word of an action's text (``forfeit``, ``redeal``, ``bid``)."""
    return str(action).split(" ", 1)[0].lower()


def _declares(action: PlayCard) -> bool:
    """Whether leading this card declares something (a marriage or the ace marriage)."""
    return action.marriage or bool(getattr(action, "aces", False))


def _marriage_suits(hand: Sequence[Card], marriages: Marriages) -> set[str]:
    """Suits of the marriages in ``hand``: both ``marriages.ranks`` held, in a suit of
    ``marriages.values``."""
    first, second = marriages.ranks
    suits = {c.suit.id for c in hand if c.rank.id == first}
    suits &= {c.suit.id for c in hand if c.rank.id == second}
    return suits & marriages.values.keys()


def _pack_size(cards: Sequence[Card]) -> int:
    """Cards in the pack of ``cards`` (their deck, ``Card.pack``); 0 for cards outside a deck
    or none."""
    return len(cards[0].pack) if cards else 0


def estimate_hand(
    hand: Sequence[Card],
    *,
    active: int,
    marriages: Marriages,
    talon_cards: int = 0,
    top_strength: int | None = None,
) -> int:
    """A rough estimate of the points ``hand`` will take as declarer (points).

    Sure tricks (a suit's top cards held without a gap: ace, ace-ten, …) count their
    card points plus :data:`_CAPTURE` for each other active player's card; marriages held
    (``marriages``: a form's ``marriages`` section, its ``ranks`` and ``values``) count 90 %
    of their value; other cards a third of their points; a longer suit adds a little;
    ``talon_cards`` still to be taken add 4 points each plus the chance of completing a
    half-marriage (one marriage card held, its partner among the cards of the pack ``hand``
    does not hold; not counted for cards outside a deck).
    """
    top = top_strength if top_strength is not None else max((c.rank.strength for c in hand), default=0)
    values, ranks = marriages.values, marriages.ranks
    total = 0.0
    by_suit: dict[str, list[Card]] = {}
    for c in hand:
        by_suit.setdefault(c.suit.id, []).append(c)
    married = _marriage_suits(hand, marriages)
    for suit, cards in by_suit.items():
        cards.sort(key=lambda c: -c.rank.strength)
        expected = top
        sure = 0
        for c in cards:
            if c.rank.strength != expected:
                break
            sure += 1
            expected -= 1
            total += c.rank.points + _CAPTURE * (active - 1)
        for c in cards[sure:]:
            if suit not in married or c.rank.id not in ranks:
                total += c.rank.points / 3
        if len(cards) >= 4:
            total += 5 * (len(cards) - 3)
        if suit in married:
            total += 0.9 * values[suit]
    if talon_cards:
        total += 4 * talon_cards
        unseen = _pack_size(hand) - len(hand)
        for c in hand:
            if unseen > 0 and c.rank.id in ranks and c.suit.id not in married and c.suit.id in values:
                total += talon_cards / unseen * values[c.suit.id]
    return int(total)


class HeuristicBot:
    """A deterministic, seeded rule-of-thumb player for any ruleset and player count.

    Args:
        seed: seed of its own generator (used only to break ties such as which of two
            hidden talons to take).
        form: the rules it plays (``game.form``); it reads the marriages
            (``form.marriages``: which two ranks make one, and their values by suit).
        margin: points the bid limit stays below the hand estimate (a higher value bids
            more cautiously).
    """

    def __init__(self, seed: int, form: Form, *, margin: int = 30) -> None:
        self._rng = random.Random(seed)
        self._marriages = form.marriages
        self._values = form.marriages.values
        self._ranks = form.marriages.ranks
        self._margin = margin
        self._all_pass_play = form.auction.all_pass == "play"
        """A deal everyone passes is played out (all-pass play): passing then costs about the
        pack's points shared by the active players, which a bid saves (added to the limit)."""
        self._seen: dict[str, set[int]] = {}
        """Strengths of the cards seen this deal (held, shown or played), by suit id."""
        self._married: set[str] = set()
        """Suits of the marriages in the hand at the current decision."""
        self._deal_key: tuple[int, tuple[int, ...]] | None = None
        self._cards_left = 0
        self._top = 0
        self._ducks = frozenset(k.id for k in form.contract.kinds if avoids_tricks(form, k))
        """The named kinds whose declarer wants no trick (misère): bid with low cards, ducked."""

    # ---------------------------------------------------------------- memory

    def _observe(self, view: View) -> None:
        key = (view.dealer, view.scores)
        left = sum(n for _, n in view.hand_sizes)
        if view.phase != "play" or key != self._deal_key or left > self._cards_left:
            self._seen = {}
        self._deal_key = key
        self._cards_left = left
        seen, top = self._seen, self._top
        for cards in (view.hand, view.talon, [c for _, c in view.trick]):
            for c in cards:
                strength = c.rank.strength
                seen.setdefault(c.suit.id, set()).add(strength)
                if strength > top:
                    top = strength
        self._top = top
        self._married = _marriage_suits(view.hand, self._marriages)

    def _master(self, card: Card) -> bool:
        """No higher card of its suit can be in another hand (all higher ones held or seen)."""
        seen = self._seen.get(card.suit.id, set())
        return all(s in seen for s in range(card.rank.strength + 1, self._top + 1))

    def _value(self, suit: str) -> int:
        """The marriage value of ``suit`` (0 for a suit without a marriage)."""
        return self._values.get(suit, 0)

    def _keep(self, card: Card, trump: str | None) -> float:
        """How much the bot wants to keep ``card`` (higher = keep)."""
        v = card.rank.points + card.rank.strength * 0.1
        if card.rank.id in self._ranks and card.suit.id in self._married:
            v += 20 + self._value(card.suit.id) / 10
        if trump is not None and card.suit.id == trump:
            v += 6
        return v

    def _estimate(self, view: View, hand: Sequence[Card], talon_cards: int = 0) -> int:
        return estimate_hand(
            hand,
            active=len(view.hand_sizes),
            marriages=self._marriages,
            talon_cards=talon_cards,
            top_strength=self._top or None,
        )

    # ---------------------------------------------------------------- choosing

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """One element of ``legal`` (never empty), chosen by the phase's rule of thumb."""
        self._observe(view)
        if view.phase == "rebuy" and isinstance(legal[0], Bid):  # a second auction (rebuy.bidding)
            worth = self._estimate(view, [*view.hand, *view.talon]) - self._margin
            return legal[0] if worth >= legal[0].amount else legal[-1]  # its lowest bid, else pass
        known = [a for a in legal if isinstance(a, _KNOWN)]
        if len(known) < len(legal):
            words = {_word(a): a for a in reversed(legal) if not isinstance(a, _KNOWN)}
            if "forfeit" in words and self._should_forfeit(view, known):
                return words["forfeit"]
            ducking = view.kind in self._ducks and view.declarer == view.player  # (misère: low is good)
            if "redeal" in words and not ducking and self._estimate(view, view.hand) < _REDEAL_BELOW:
                return words["redeal"]
            choice = self._around_contract(view, words)
            if choice is not None:
                return choice
            trumps = [a for a in legal if isinstance(a, NameTrump)]
            if trumps:  # (contract.names_trump) the longest suit, the more valuable on a tie
                return max(trumps, key=lambda a: (sum(c.suit.id == a.suit for c in view.hand),
                                                  self._values.get(a.suit, 0)))
            marriages = [a for a in legal if isinstance(a, DeclareMarriage)]
            if marriages:  # declared from the hand: the most valuable first
                return max(marriages, key=lambda a: self._values.get(a.suit, 0))
            named = [a for a in legal if isinstance(a, NamedBid) and a.kind in self._ducks]
            if named and self._low_hand(view):
                return named[0]
        if not known:
            return legal[0]
        first = known[0]
        if isinstance(first, Bid | Pass):
            return self._auction(view, known)
        if isinstance(first, ChooseTalon):
            talons = [a for a in known if isinstance(a, ChooseTalon)]
            return talons[self._rng.randrange(len(talons))] if talons else first
        if isinstance(first, GiveCard | Discard):
            return self._exchange(view, known)
        if isinstance(first, DeclareContract):
            return self._contract(view, known)
        plays = [a for a in known if isinstance(a, PlayCard)]
        return self._play(view, plays) if plays else first

    def _around_contract(self, view: View, words: Mapping[str, Action]) -> Action | None:
        """``buy``, ``contra`` or ``redouble`` when the hand calls for it (see the module
        docstring), else ``None`` (the caller passes)."""
        if "buy" in words and view.price:
            if self._estimate(view, [*view.hand, *view.talon]) - self._margin >= view.price:
                return words["buy"]
            return None
        contract = view.contract or max(
            (int(w[1]) for w in (t.split() for _, t in view.bids)
             if w[0] in ("bid", "buy") and w[1].isdigit()),  # (not a named bid: `bid misere`)
            default=0,
        )
        if "contra" in words and contract:
            if self._estimate(view, view.hand) >= contract:
                return words["contra"]
        if "redouble" in words and contract:
            held = sum(n for _, n in view.hand_sizes)
            talon = 0 if view.talon else max(0, _pack_size(view.hand) - held)
            if self._estimate(view, view.hand, talon_cards=talon) - 2 * self._margin >= contract:
                return words["redouble"]
        return None

    def _should_forfeit(self, view: View, known: Sequence[Action]) -> bool:
        if view.declarer != view.player or view.kind in self._ducks:  # (misère: low cards are good)
            return False
        contract = view.contract
        amounts = [a.amount for a in known if isinstance(a, DeclareContract)]
        if amounts:
            contract = min(amounts)
        if not contract:
            bids = [t.split()[1] for _, t in view.bids if t.startswith("bid ")]
            contract = max((int(b) for b in bids if b.isdigit()), default=0)  # (not a named bid)
        return self._estimate(view, view.hand) + 30 < contract

    def _auction(self, view: View, legal: Sequence[Action]) -> Action:
        bids = [a for a in legal if isinstance(a, Bid)]
        passes = [a for a in legal if isinstance(a, Pass)]
        # the view does not show the talon sizes: the cards of the pack no hand holds
        held = sum(n for _, n in view.hand_sizes)
        talon = 0 if view.declarer is not None else max(0, _pack_size(view.hand) - held)
        limit = self._estimate(view, view.hand, talon_cards=talon) - self._margin
        if self._all_pass_play and view.hand:  # passing risks the all-pass play's loss
            limit += sum(c.rank.points for c in view.hand[0].pack) // max(len(view.hand_sizes), 1)
        if bids and (bids[0].amount <= limit or not passes):
            return bids[0]
        return passes[0] if passes else legal[0]

    def _exchange(self, view: View, legal: Sequence[Action]) -> Action:
        if view.kind in self._ducks:  # (misère) the highest cards go: they would take tricks
            cards = [a for a in legal if isinstance(a, GiveCard | Discard)]
            if cards:
                return max(cards, key=lambda a: (a.card.rank.strength, -a.card.index))

        def cost(a: Action) -> tuple[float, int]:
            card = a.card if isinstance(a, GiveCard | Discard) else None
            if card is None:
                return (1e9, 0)
            to = a.to if isinstance(a, GiveCard) else 0
            return (self._keep(card, None) + (3 if self._master(card) else 0), to)

        return min(legal, key=cost)

    def _contract(self, view: View, legal: Sequence[Action]) -> Action:
        amounts = [a for a in legal if isinstance(a, DeclareContract)]
        if not amounts:
            return legal[0]
        est = self._estimate(view, view.hand) - self._margin
        best = amounts[0]
        for a in amounts:
            if a.amount <= est and a.amount > best.amount:
                best = a
        return best

    # ---------------------------------------------------------------- play

    def _low_hand(self, view: View) -> bool:
        """Whether every card of the hand is in the lower half of its suit's ranks (by
        strength), so that a contract taking no trick may be bid."""
        if not view.hand:
            return False
        top = max(c.rank.strength for c in view.hand[0].pack or view.hand)  # (the pack's highest rank)
        return all(2 * c.rank.strength < top for c in view.hand)

    def _duck(self, view: View, legal: Sequence[PlayCard]) -> PlayCard:
        """Declarer of a contract taking no trick: the highest card that does not win the trick
        so far, else the lowest card (leading: the lowest card)."""
        plain = [a for a in legal if not _declares(a)] or list(legal)
        if not view.trick:
            return min(plain, key=lambda a: (a.card.rank.strength, a.card.index))
        trump, led = view.trump, view.trick[0][1].suit.id

        def key(c: Card) -> tuple[bool, bool, int]:
            return (trump is not None and c.suit.id == trump, c.suit.id == led, c.rank.strength)

        best = max(key(c) for _, c in view.trick)
        under = [a for a in plain if key(a.card) < best]
        if under:
            return max(under, key=lambda a: (a.card.rank.strength, -a.card.index))
        return min(plain, key=lambda a: (a.card.rank.strength, a.card.index))

    def _play(self, view: View, legal: Sequence[PlayCard]) -> PlayCard:
        if view.declarer is None:  # all-pass play: take as few points as possible
            return self._shed_points(view, legal)
        if view.kind is not None and view.kind in self._ducks and view.declarer == view.player:
            return self._duck(view, legal)
        trump = view.trump
        if not view.trick:
            return self._lead(view, legal)
        led = view.trick[0][1].suit.id

        def key(c: Card) -> tuple[bool, bool, int]:
            return (trump is not None and c.suit.id == trump, c.suit.id == led, c.rank.strength)

        best_player, best = max(view.trick, key=lambda pc: key(pc[1]))
        to_play = len(view.hand_sizes) - len(view.trick) - 1
        points = sum(c.rank.points for _, c in view.trick)
        cheapest = min(legal, key=lambda a: self._keep(a.card, trump))
        partner_winning = self._partner(view, best_player) and (to_play == 0 or self._master(best))
        if partner_winning:
            smear = [a for a in legal if key(a.card) < key(best) and not self._master(a.card)]
            smear = [a for a in smear if not (a.card.rank.id in self._ranks
                                               and a.card.suit.id in self._married)]
            if smear:
                return max(smear, key=lambda a: (a.card.rank.points, -a.card.rank.strength))
            return cheapest
        winners = sorted(
            (a for a in legal if key(a.card) > key(best)), key=lambda a: self._keep(a.card, trump)
        )
        if not winners:
            return cheapest
        if to_play == 0:
            return winners[0]
        safe = [
            a for a in winners
            if (trump is not None and a.card.suit.id == trump and led != trump)
            or self._master(a.card)
        ]
        if safe:
            ruff = trump is not None and safe[0].card.suit.id == trump
            if points >= 10 or safe[0].card.rank.points >= 10 or not ruff:
                return safe[0]
        return cheapest

    def _shed_points(self, view: View, legal: Sequence[PlayCard]) -> PlayCard:
        """All-pass play (no declarer, no trump): lead the lowest card; follow under the
        trick's best card with the highest-point card that stays under it; when every card
        wins, the lowest one, or the highest-point one when playing last (the trick is his)."""
        if not view.trick:
            return min(legal, key=lambda a: (a.card.rank.strength, a.card.rank.points, a.card.index))
        led = view.trick[0][1].suit.id
        best = max((c.rank.strength for _, c in view.trick if c.suit.id == led), default=0)
        under = [a for a in legal if a.card.suit.id != led or a.card.rank.strength < best]
        if under:
            return max(under, key=lambda a: (a.card.rank.points, a.card.rank.strength, -a.card.index))
        if len(view.trick) == len(view.hand_sizes) - 1:
            return max(legal, key=lambda a: (a.card.rank.points, a.card.rank.strength))
        return min(legal, key=lambda a: (a.card.rank.strength, a.card.index))

    def _partner(self, view: View, player: int) -> bool:
        if player == view.player or view.declarer is None:
            return False
        return view.player != view.declarer and player != view.declarer

    def _lead(self, view: View, legal: Sequence[PlayCard]) -> PlayCard:
        trump = view.trump
        declarations = [a for a in legal if _declares(a)]
        if declarations:
            second = self._ranks[1]  # of a marriage's two cards, the bot leads this one
            return max(
                declarations,
                key=lambda a: (not a.marriage, self._value(a.card.suit.id), a.card.rank.id == second),
            )
        plain = [a for a in legal if not _declares(a)] or list(legal)
        masters = [a for a in plain if self._master(a.card) and a.card.rank.points >= 10]
        if masters:
            side = [a for a in masters if a.card.suit.id != trump]
            return max(side or masters, key=lambda a: (a.card.rank.points, -a.card.index))
        if trump is not None and view.declarer == view.player:
            trumps = [a for a in plain if a.card.suit.id == trump and self._master(a.card)]
            if trumps:
                return trumps[0]
        return min(plain, key=lambda a: (self._keep(a.card, trump), a.card.index))
