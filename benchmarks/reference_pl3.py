"""A hand-written Polish 3-player Tysiąc random-play simulator: the speed reference.

Plain Python, no import of the project: what a competent programmer would write for
this one variant (the rules of ``pl-standard`` with 3 players and default options):

- 24 cards (9 J Q K 10 A in four suits); 7 cards to each player, 3 to the musik;
- auction: the dealer's left must open (100 or more), bids in tens, a pass is final,
  no bid above 120 plus the marriages held; the highest bidder takes the musik
  (shown), gives one card to each opponent and may raise the contract up to 120 plus
  the marriages then held;
- play: the declarer leads; follow suit and beat the trick's best card of the suit led
  (unless the trick is trumped), else trump (over a trump on the trick if possible);
  a king or queen led with its partner in hand may declare the marriage (hearts 100,
  diamonds 80, clubs 60, spades 40), which makes its suit trump from this trick on;
- scoring: the declarer scores ± the contract (made with points ≥ contract), each
  defender his points rounded to the nearest ten (a 5 rounds down).

Every decision is a uniformly random choice among the legal ones, as in
``engine_speed.py``.  Prints one JSON line: ``deals``, ``seconds``,
``deals_per_second``, ``actions``, ``actions_per_second``, ``cpu_seconds``,
``deals_per_cpu_second``.

    python benchmarks/reference_pl3.py --deals 20000 --seed 1
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import TypeVar

T = TypeVar("T")
Card = tuple[str, str]  # (rank, suit)

SUITS = ("S", "C", "D", "H")
RANKS = ("9", "J", "Q", "K", "T", "A")  # trick order, weakest first
POINTS = {"9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}
MARRIAGE = {"S": 40, "C": 60, "D": 80, "H": 100}
STRENGTH = {r: i for i, r in enumerate(RANKS)}
DECK = [(r, s) for s in SUITS for r in RANKS]


def marriages_in(hand: list[Card]) -> int:
    """Points of the marriages (king and queen of a suit) in ``hand``."""
    return sum(v for s, v in MARRIAGE.items() if ("K", s) in hand and ("Q", s) in hand)


def round_to_ten(points: int) -> int:
    """Nearest multiple of 10; a 5 rounds down (25 -> 20)."""
    return (points + 4) // 10 * 10


class Deal:
    """One deal of the 3-player game, played by a random policy."""

    def __init__(self, rng: random.Random, dealer: int) -> None:
        self.rng = rng
        self.dealer = dealer
        self.actions = 0
        cards = DECK[:]
        rng.shuffle(cards)
        order = [(dealer + k) % 3 for k in (1, 2, 3)]
        self.hands = {p: cards[i * 7 : (i + 1) * 7] for i, p in enumerate(order)}
        self.musik = cards[21:]
        self.order = order

    def choose(self, options: list[T]) -> T:
        """One option, uniformly at random (every decision of every player)."""
        self.actions += 1
        return options[self.rng.randrange(len(options))]

    def auction(self) -> tuple[int, int]:
        """Returns (declarer, bid)."""
        limits = {p: 120 + marriages_in(self.hands[p]) for p in self.order}
        forced = self.order[0]
        bid = self.choose(list(range(100, limits[forced] + 1, 10)))
        high, passed = forced, set[int]()
        player = self.order[1]
        while len(passed) < 2:
            if player not in passed and player != high:
                options = [*range(bid + 10, limits[player] + 1, 10), None]
                choice = self.choose(options)
                if choice is None:
                    passed.add(player)
                else:
                    bid, high = choice, player
            player = (player + 1) % 3
        return high, bid

    def exchange(self, declarer: int, bid: int) -> int:
        """Take the musik, give one card to each opponent, fix the contract; returns it."""
        hand = self.hands[declarer]
        hand += self.musik
        opponents = [(declarer + 1) % 3, (declarer + 2) % 3]
        waiting = opponents[:]
        while waiting:
            card, to = self.choose([(c, p) for p in waiting for c in hand])
            hand.remove(card)
            self.hands[to].append(card)
            waiting.remove(to)
        top = max(bid, 120 + marriages_in(hand))
        amounts: list[int] = [bid, *range(bid // 10 * 10 + 10, top + 1, 10)]
        return amounts[0] if len(amounts) == 1 else self.choose(amounts)

    def legal(self, hand: list[Card], trick: list[tuple[int, Card]], trump: str | None) -> list[Card]:
        """Cards ``hand`` may play to ``trick`` (list of (player, card))."""
        if not trick:
            return hand
        led = trick[0][1][1]
        follow = [c for c in hand if c[1] == led]
        if follow:
            trumped = trump is not None and trump != led and any(c[1] == trump for _, c in trick)
            if not trumped:
                best = max(STRENGTH[c[0]] for _, c in trick if c[1] == led)
                higher = [c for c in follow if STRENGTH[c[0]] > best]
                if higher:
                    return higher
            return follow
        if trump is not None:
            trumps = [c for c in hand if c[1] == trump]
            if trumps:
                on_trick = [STRENGTH[c[0]] for _, c in trick if c[1] == trump]
                if on_trick:
                    higher = [c for c in trumps if STRENGTH[c[0]] > max(on_trick)]
                    return higher if higher else hand
                return trumps
        return hand

    def play(self, declarer: int) -> dict[int, int]:
        """Play the 8 tricks; returns card points plus marriages per player."""
        points = {p: 0 for p in self.order}
        trump: str | None = None
        leader = declarer
        for _ in range(8):
            trick: list[tuple[int, Card]] = []
            player = leader
            for _ in range(3):
                hand = self.hands[player]
                options: list[tuple[Card, bool]] = []
                for card in self.legal(hand, trick, trump):
                    options.append((card, False))
                    if not trick and card[0] in "KQ":
                        partner = ("Q" if card[0] == "K" else "K", card[1])
                        if partner in hand:
                            options.append((card, True))
                card, marriage = self.choose(options)
                if marriage:
                    points[player] += MARRIAGE[card[1]]
                    trump = card[1]
                hand.remove(card)
                trick.append((player, card))
                player = (player + 1) % 3
            led = trick[0][1][1]
            winner = max(
                trick, key=lambda pc: (pc[1][1] == trump, pc[1][1] == led, STRENGTH[pc[1][0]])
            )[0]
            points[winner] += sum(POINTS[c[0]] for _, c in trick)
            leader = winner
        return points

    def run(self) -> tuple[int, ...]:
        """Play the deal; returns each player's score change."""
        declarer, bid = self.auction()
        contract = self.exchange(declarer, bid)
        points = self.play(declarer)
        scores = [0, 0, 0]
        for p in self.order:
            if p == declarer:
                scores[p] = contract if points[p] >= contract else -contract
            else:
                scores[p] = round_to_ten(points[p])
        return tuple(scores)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    dealer = rng.randrange(3)
    actions = 0
    started, cpu_started = time.perf_counter(), time.process_time()
    for _ in range(args.deals):
        deal = Deal(rng, dealer)
        deal.run()
        actions += deal.actions
        dealer = (dealer + 1) % 3
    seconds = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    print(json.dumps({
        "simulator": "reference_pl3",
        "deals": args.deals,
        "seconds": round(seconds, 3),
        "deals_per_second": round(args.deals / seconds, 1),
        "actions": actions,
        "actions_per_second": round(actions / seconds, 1),
        "cpu_seconds": round(cpu, 3),
        "deals_per_cpu_second": round(args.deals / cpu, 1),
    }))


if __name__ == "__main__":
    main()
