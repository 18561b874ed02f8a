"""A match of Tysiąc under any ruleset: deals from shuffle to score until the target.

The engine reads only the resolved :class:`~tysiac_spec.ruleset.model.Form`; it
never looks at the ruleset's id or name.  All randomness (first dealer, shuffles)
comes from one ``random.Random(seed)`` per game.

Not supported yet (a later issue): the match-level special mechanisms — barrel,
bolts, the dark game, the golden round, forfeits, the 800 threshold, finishing
restrictions (``match.finishing``), deal-end match rules and counters' updates,
redeal conditions (``deal.redeals``) and the dealing restrictions
(``talon_not_first`` …; a uniform shuffle is dealt hand by hand), the first
dealer by ``first_ace`` (chosen at random like ``random``), records and replay.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card
from ..errors import Diagnostic, IllegalActionError
from ..ruleset import Ruleset, load_ruleset
from . import auction, play, scoring, talon
from .actions import Action, ChooseTalon, DeclareContract, PlayCard
from .events import MatchEvent
from .state import DealState, cards_text

__all__ = ["Game", "View"]


@dataclass(frozen=True, slots=True)
class View:
    """What one player sees at the table: own hand, public cards, no hidden card of others.

    ``talon`` holds the taken talon's cards only when they were shown (or to the
    declarer who took them); ``hand_sizes`` and ``tricks`` are ``(player, n)`` pairs.
    """

    player: int
    phase: str
    current_player: int
    dealer: int
    sitter: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[tuple[int, int], ...]
    talon: tuple[Card, ...]
    bids: tuple[tuple[int, str], ...]
    declarer: int | None
    contract: int
    trump: str | None
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[tuple[int, int], ...]
    declared: tuple[tuple[int, str], ...]
    scores: tuple[int, ...]


class Game:
    """A match: ``Game(rules, players=3, seed=7)``; drive it with :meth:`legal_actions` and
    :meth:`apply` until :attr:`is_over`.

    Args:
        ruleset: a loaded ruleset.
        players: players at the table (one of ``ruleset.player_counts``).
        seed: seed of the game's random generator (shuffles, first dealer).
        options: option values; when given, the ruleset is reloaded with them.

    Raises:
        OptionError: no form for ``players``, or an unknown option value.
    """

    def __init__(
        self,
        ruleset: Ruleset,
        *,
        players: int,
        seed: int,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        if options:
            ruleset = load_ruleset(ruleset.file or ruleset.id, options={**ruleset.selected, **options})
        self.ruleset = ruleset
        self.form = ruleset.form(players)
        self.players = players
        self.seed = seed
        self._rng = random.Random(seed)
        self._options = dict(ruleset.selected)
        self._direction = 1 if self.form.deal.direction == "clockwise" else -1
        self._counters = [{c.id: c.initial for c in self.form.match.counters} for _ in range(players)]
        self.scores: list[int] = [0] * players
        """Match scores by player (points)."""
        self.deal_scores: list[tuple[int, ...]] = []
        """Each finished deal's score changes, by player."""
        self.history: list[str] = []
        """Every applied action, in compact text (``bid 110``)."""
        self.events: list[MatchEvent] = []
        """What happened beyond the actions (contracts, barrel, bolts, forfeits, …), in order."""
        self.last_deal: DealState | None = None
        """The most recently finished deal (for inspection after it was scored)."""
        self._over = False
        self._dealer = self._rng.randrange(players)
        self.deal = self._new_deal()

    # ------------------------------------------------------------------ setup

    def _env(self, player: int) -> dict[str, Any]:
        return {
            "player": {"score": self.scores[player], **self._counters[player]},
            "players": self.form.active,
            "options": self._options,
        }

    def _seating(self, dealer: int) -> tuple[list[int], int | None]:
        n, d = self.players, self._direction
        sitter = None
        if self.form.active < n and self.form.table.sitter is not None:
            seat = self.form.table.sitter.seat
            # `last_bidder`: the player after the three who bid from the dealer's left,
            # i.e. the dealer's right (assumed; see the report).
            k = {"dealer": 0, "dealer_right": n - 1, "opposite_dealer": 2, "last_bidder": n - 1}[seat]
            sitter = (dealer + d * k) % n
        elif self.form.active < n:
            sitter = dealer
        order = [(dealer + d * k) % n for k in range(1, n + 1)]
        return [p for p in order if p != sitter], sitter

    def _new_deal(
        self,
        hands: Mapping[int, Sequence[Card]] | None = None,
        talons: Sequence[Sequence[Card]] | None = None,
    ) -> DealState:
        order, sitter = self._seating(self._dealer)
        size = self.form.table.hand_size
        if hands is None or talons is None:
            cards = list(self.ruleset.deck.cards)
            self._rng.shuffle(cards)
            hands = {p: cards[i * size : (i + 1) * size] for i, p in enumerate(order)}
            rest = cards[len(order) * size :]
            talons = []
            for t in self.form.table.talons:
                talons.append(rest[:t])
                rest = rest[t:]
        deal = DealState(
            dealer=self._dealer,
            order=order,
            sitter=sitter,
            hands={p: sorted(hands[p], key=lambda c: c.index) for p in order},
            talons=[list(t) for t in talons],
            dealt_talon=tuple(c for t in talons for c in t),
            deck_points=self.ruleset.deck.total_points,
        )
        auction.start(self.form, deal, self._env, self._direction)
        return deal

    def start_deal(
        self,
        *,
        hands: Mapping[int, str | Sequence[str]],
        talons: Sequence[str | Sequence[str]],
        dealer: int = 0,
    ) -> None:
        """Replace the current deal by a stacked one (tests, scenarios): ``hands`` by player,
        ``talons`` in order, cards in notation (``"QH KH 9S"``).

        Raises:
            NotationError: a card that is not in the deck.
            IllegalActionError: ``deal.stack`` — wrong hand or talon sizes, a repeated or
                missing card, or a hand for a player who does not take part.
        """
        deck = self.ruleset.deck
        self._dealer = dealer % self.players
        order, _ = self._seating(self._dealer)
        parsed = {p: list(deck.parse_many(h)) for p, h in hands.items()}
        tparsed = [list(deck.parse_many(t)) for t in talons]
        every = [c for h in parsed.values() for c in h] + [c for t in tparsed for c in t]
        problem = ""
        if sorted(parsed) != sorted(order):
            problem = f"hands must be given for players {sorted(order)} (got {sorted(parsed)})"
        elif any(len(h) != self.form.table.hand_size for h in parsed.values()):
            problem = f"each hand must hold {self.form.table.hand_size} cards"
        elif [len(t) for t in tparsed] != list(self.form.table.talons):
            problem = f"talon sizes must be {list(self.form.table.talons)}"
        elif len(set(every)) != len(deck.cards):
            problem = f"the deal must hold each of the {len(deck.cards)} cards once"
        if problem:
            raise IllegalActionError(Diagnostic("deal.stack", f"stacked deal: {problem}"))
        self._over = False
        self.deal = self._new_deal(parsed, tparsed)

    # ------------------------------------------------------------------ queries

    @property
    def is_over(self) -> bool:
        """Whether the match has ended (someone reached ``match.target``)."""
        return self._over

    @property
    def phase(self) -> str:
        """``auction``, ``talon``, ``exchange``, ``contract``, ``play``; ``over`` after the match."""
        return "over" if self._over else self.deal.phase

    @property
    def current_player(self) -> int:
        """The player to act (0-based)."""
        return self.deal.current

    def legal_actions(self) -> list[Action]:
        """Every legal action of the current player, in a fixed order (deck order for cards,
        ascending amounts, pass last)."""
        deal, form = self.deal, self.form
        if self._over:
            return []
        phase = deal.phase
        if phase == "auction":
            return auction.legal(form, deal, self._env)
        if phase == "talon":
            return talon.legal_choice(deal)
        if phase == "exchange":
            return talon.legal_exchange(form, deal)
        if phase == "contract":
            return [DeclareContract(a) for a in talon.contract_amounts(form, deal, self._env)]
        if phase == "play":
            return play.legal(form, deal)
        return []

    def state_text(self) -> str:
        """A compact one-line text of the whole state (scores, then the deal)."""
        scores = ",".join(map(str, self.scores))
        return f"scores={scores} deals={len(self.deal_scores)} {self.deal.text()}"

    def snapshot(self) -> tuple[Any, ...]:
        """A value equal for equal states (state text, generator state, history)."""
        return (self.state_text(), self._rng.getstate(), tuple(self.history), tuple(self.deal_scores))

    def view(self, player: int) -> View:
        """What ``player`` sees: own hand, public cards; other hands and hidden talons hidden."""
        d = self.deal
        visible_talon: tuple[Card, ...] = ()
        if d.taken and (d.talon_shown or player == d.declarer):
            visible_talon = tuple(d.taken)
        return View(
            player=player,
            phase=self.phase,
            current_player=d.current,
            dealer=d.dealer,
            sitter=d.sitter,
            hand=tuple(d.hands.get(player, ())),
            hand_sizes=tuple((p, len(d.hands[p])) for p in d.order),
            talon=visible_talon,
            bids=tuple(d.bids),
            declarer=d.declarer,
            contract=d.contract,
            trump=d.trump,
            trick=tuple(d.trick),
            tricks=tuple((p, d.tricks.get(p, 0)) for p in d.order),
            declared=tuple(d.declared),
            scores=tuple(self.scores),
        )

    # ------------------------------------------------------------------ acting

    def _reason(self, action: Action) -> str:
        deal, phase = self.deal, self.deal.phase
        if phase == "auction":
            return auction.explain(self.form, deal, action, self._env)
        if phase in ("talon", "exchange", "contract"):
            return talon.explain(self.form, deal, action, self._env)
        return play.explain(self.form, deal, action)

    def apply(self, action: Action) -> None:
        """Apply a legal action of the current player.

        Raises:
            IllegalActionError: ``action.illegal`` naming the action, the phase, the reason
                (``must follow hearts``) and the state text; the game is left unchanged.
        """
        if self._over:
            raise IllegalActionError(Diagnostic("action.illegal", f"`{action}`: the match is over"))
        if action not in self.legal_actions():
            raise IllegalActionError(
                Diagnostic(
                    "action.illegal",
                    f"`{action}` is not legal for player {self.deal.current} in the "
                    f"{self.deal.phase} phase: {self._reason(action)}",
                    hint=self.state_text(),
                )
            )
        deal, form = self.deal, self.form
        before = deal.phase
        self.history.append(str(action))
        if before == "auction":
            auction.apply(form, deal, action)
            if deal.phase == "talon":
                talon.start(form, deal, self._env)
        elif before == "talon":
            assert isinstance(action, ChooseTalon)
            talon.apply_choice(form, deal, action, self._env)
        elif before == "exchange":
            talon.apply_exchange(form, deal, action, self._env)
        elif before == "contract":
            assert isinstance(action, DeclareContract)
            talon.apply_contract(deal, action)
        else:
            assert isinstance(action, PlayCard)
            play.apply(form, deal, action)
        if deal.phase == "play" and before != "play":
            self._start_play()
        elif deal.phase == "redeal":
            self.deal = self._new_deal()
        elif deal.phase == "over":
            self._end_deal()

    def _start_play(self) -> None:
        deal, leader = self.deal, self.form.play.leader
        if leader == "forced" and deal.forced is not None:
            deal.current = deal.forced
        elif leader == "dealer_left":
            deal.current = deal.order[0]
        else:
            assert deal.declarer is not None
            deal.current = deal.declarer

    def _event(self, kind: str, player: int | None = None, value: int | None = None, text: str = "") -> None:
        self.events.append(MatchEvent(len(self.deal_scores), kind, player, value, text))

    def _end_deal(self) -> None:
        deal = self.deal
        delta = scoring.score_deal(self.form, deal, self._env)
        row = tuple(delta.get(p, 0) for p in range(self.players))
        self.scores = [s + d for s, d in zip(self.scores, row, strict=True)]
        assert deal.declarer is not None
        self._event("contract.made" if deal.made else "contract.failed", deal.declarer, deal.contract)
        self.deal_scores.append(row)
        self.last_deal = deal
        if max(self.scores) >= self.form.match.target:
            self._over = True
            return
        self._dealer = (self._dealer + self._direction) % self.players
        self.deal = self._new_deal()

    def __repr__(self) -> str:
        return (
            f"<Game {self.ruleset.id} players={self.players} seed={self.seed} "
            f"phase={self.phase} hand={cards_text(self.deal.hands.get(self.deal.current, []))}>"
        )
