"""Drawing the hidden cards of a deal consistently with what one player has seen.

A :class:`Memory` follows one player through a deal, view by view
(:class:`~tysiac_spec.engine.view.View`): the cards he has held, the cards he saw played, the
suits a player showed he has none of (he did not follow the suit led; he did not trump either
where the duties would have made him), the cards he knows where they lie (a declarer's hand
played face up, cards given in the exchange that he saw, the other card of a marriage
declared by a lead).  :meth:`Memory.draw` deals the cards he has not seen to the other
players, as many as each holds, respecting those facts; the cards left over are the ones
out of play for him (played out of his sight, in a hidden talon, discarded).

The view shows the trick on the table and the last finished one
(:attr:`~tysiac_spec.engine.view.View.last_trick`), so a player who acts in every trick sees
every card played.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..cards import Card
from ..engine.view import View
from ..ruleset.model import Form

__all__ = ["Memory"]


class Memory:
    """What one player has seen of the current deal (see the module).

    Args:
        form: the form played (its duties say which voids a play shows; its marriages which
            card a declaration places).
        pack: the ruleset's cards (``ruleset.deck.cards``).
    """

    def __init__(self, form: Form, pack: Sequence[Card]) -> None:
        self.form = form
        self.pack = tuple(pack)
        rules = form.play
        self._shows_trump_void = (
            rules.must_follow and rules.must_trump and rules.cannot_overtrump != "any_card"
            and not rules.defenders_may_discard
        )
        self._shows_void = rules.must_follow
        m = form.marriages
        self._pair_of: dict[tuple[str, str], int] = {}
        if m.declared_by == "lead":
            for suit in m.values:
                cards = [c for c in self.pack if c.suit_id == suit and c.rank.id in m.ranks]
                if len(cards) == 2:
                    self._pair_of[(suit, cards[0].rank.id)] = cards[1].bit
                    self._pair_of[(suit, cards[1].rank.id)] = cards[0].bit
        self._key: tuple[object, ...] | None = None
        self._left = 0
        self.reset()

    def reset(self) -> None:
        """Forget the deal (a new deal begins)."""
        self.held = 0
        """Every card the player has held this deal (bit set)."""
        self.played = 0
        """Cards seen played to a trick (bit set)."""
        self.voids: dict[int, set[str]] = {}
        """The suits each player showed he has none of."""
        self.placed: dict[int, int] = {}
        """Cards known to lie in a player's hand unless seen played since (bit set by player)."""
        self.marriage_trick: int | None = None
        """The trick (from 0) in which the last marriage was seen declared."""
        self._declared = 0
        self.points: dict[int, int] = {}
        """Card points each player has taken, counted from the finished tricks seen (the last
        trick's winner is the player whose trick count grew since the last view)."""
        self._tricks: dict[int, int] = {}
        self._counted: tuple[tuple[int, Card], ...] = ()

    def observe(self, view: View) -> None:
        """Take in ``view`` (the player's, at his turn); a new deal is detected by the dealer,
        the scores, or hands that grew."""
        left = sum(n for _, n in view.hand_sizes)
        key = (view.dealer, view.scores, view.player)
        if key != self._key or left > self._left:
            self.reset()
        self._key, self._left = key, left
        for c in view.hand:
            self.held |= c.bit
        for c in view.talon:
            self.held |= c.bit if view.declarer == view.player else 0
        trick = view.trick
        tricks = dict(view.tricks)
        if view.last_trick and view.last_trick != self._counted:
            grew = [p for p, n in tricks.items() if n > self._tricks.get(p, 0)]
            if len(grew) == 1:
                self.points[grew[0]] = self.points.get(grew[0], 0) + sum(c.points for _, c in view.last_trick)
            self._counted = view.last_trick
        self._tricks = tricks
        for seen in (view.last_trick, trick):  # (the last trick: the cards after his own too)
            for _, c in seen:
                self.played |= c.bit
            if seen:
                led = seen[0][1].suit_id
                for p, c in seen[1:]:
                    if c.suit_id != led and self._shows_void:
                        self.voids.setdefault(p, set()).add(led)
                        trump = view.trump  # (the trump now: read only on the trick on the table)
                        if seen is trick and self._shows_trump_void and trump not in (None, led, c.suit_id):
                            self.voids[p].add(trump)
        for to, c in view.given:
            if to != view.player:
                self.placed[to] = self.placed.get(to, 0) | c.bit
        if view.open_hand and view.declarer is not None and view.declarer != view.player:
            shown = sum(c.bit for c in view.open_hand)
            self.placed[view.declarer] = self.placed.get(view.declarer, 0) | shown
        declared = view.declared
        if len(declared) > self._declared:
            number = sum(n for _, n in view.tricks)
            leader = trick[0] if trick else None
            for p, suit in declared[self._declared:]:
                if leader is not None and leader[0] == p and leader[1].suit_id == suit:
                    other = self._pair_of.get((suit, leader[1].rank.id), 0)
                    self.marriage_trick = number
                else:  # (his own, declared on his last lead: the trick before this one)
                    other = 0
                    self.marriage_trick = number - 1
                if other and p != view.player:
                    self.placed[p] = self.placed.get(p, 0) | other
            self._declared = len(declared)

    def draw(self, view: View, rng: random.Random) -> dict[int, int]:
        """The hands of every active player (bit sets by seat) in one world consistent with
        what was seen: the player's own hand as it is, each other hand of its size
        (``view.hand_sizes``) with the cards known to lie there and cards drawn at random from
        the unseen ones, none of a suit the player showed he has none of (relaxed for a hand
        that cannot be filled otherwise)."""
        me = view.player
        mine = 0
        for c in view.hand:
            mine |= c.bit
        gone = self.played | mine
        for _, c in view.trick:
            gone |= c.bit
        known_out = gone | self.held
        for bits in self.placed.values():
            known_out |= bits
        hands: dict[int, int] = {me: mine}
        need: dict[int, int] = {}
        taken = 0
        for p, n in view.hand_sizes:
            if p == me:
                continue
            fixed = self.placed.get(p, 0) & ~gone & ~taken
            while fixed.bit_count() > n:  # (more placed than held: drop the highest bits)
                fixed &= ~(1 << (fixed.bit_length() - 1))
            hands[p] = fixed
            taken |= fixed
            need[p] = n - fixed.bit_count()
        pool = [c for c in self.pack if not c.bit & (known_out | taken)]
        rng.shuffle(pool)
        others = sorted(need, key=lambda p: (-len(self.voids.get(p, ())), p))
        used = [False] * len(pool)
        for p in others:
            voids = self.voids.get(p, set())
            want = need[p]
            for strict in (True, False):
                for k, c in enumerate(pool):
                    if want == 0:
                        break
                    if used[k] or (strict and c.suit_id in voids):
                        continue
                    used[k] = True
                    hands[p] |= c.bit
                    want -= 1
            need[p] = want
        return hands
