"""Engine invariants as properties: a Hypothesis state machine over every shipped ruleset
and player count, and 1,000 seeded random deals per form.

Invariants:
- every card of the deck is in exactly one place at every step;
- the card points of a finished deal (won, set aside, discarded) sum to the deck total;
- only legal actions are accepted, and a rejected one changes nothing;
- the same seed and the same actions give the same game (history, scores, state);
- a player's view never shows a card of another hand or of a hidden talon.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from tysiac_spec import IllegalActionError, load_ruleset
from tysiac_spec.bots import RandomBot
from tysiac_spec.cards import Card
from tysiac_spec.engine import Bid, DeclareContract, Discard, Game, GiveCard, Pass, PlayCard, parse_action
from tysiac_spec.engine.state import DealState
from tysiac_spec.ruleset.registry import entries

CASES = [(e.id, n) for e in entries() if e.kind != "base" for n in load_ruleset(e.id).player_counts]

DEALS_PER_FORM = 1000


def _deal_points(deal: DealState) -> int:
    """Card points of a finished deal: won in tricks, plus cards set aside or discarded (a
    forfeited deal is not played: its cards stay in the hands, and count there)."""
    won = sum(c.rank.points for p in deal.order for c in deal.won.get(p, []))
    if deal.forfeited:
        assert won == 0
        won = sum(c.rank.points for p in deal.order for c in deal.hands[p])
    return won + sum(c.rank.points for c in deal.leftover + deal.discards)


def _cards_in(value: Any) -> Iterator[Card]:
    """Every card anywhere inside a view (fields, tuples, pairs)."""
    if isinstance(value, Card):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _cards_in(getattr(value, f.name))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _cards_in(item)


def _may_see(game: Game, player: int) -> set[Card]:
    """The cards ``player`` may know of: own hand, cards on the table or already played,
    a talon shown to everyone (taken, or turned up before), what the declarer took, gave and discarded, and the given
    cards shown to everyone (``talon.give_face_up``) or received."""
    deal = game.deal
    seen = set(deal.hands.get(player, ()))
    seen |= {c for _, c in deal.trick}
    seen |= {c for p in deal.order for c in deal.won.get(p, [])}
    if deal.talon_shown:
        seen |= set(deal.taken)
    if deal.talon_public:  # turned face up before it was taken (talon.shown_from)
        seen |= set(deal.dealt_talon)
    if player == deal.declarer:
        seen |= set(deal.taken) | set(deal.discards) | set(deal.dealt_talon)
    face_up = game.form.talon.give_face_up
    seen |= {c for to, c in deal.gifts if face_up or player in (to, deal.declarer)}
    return seen


def _check_views(game: Game) -> None:
    for player in range(game.players):
        shown = set(_cards_in(game.view(player)))
        leaked = shown - _may_see(game, player)
        assert not leaked, f"player {player} sees {sorted(map(str, leaked))}: {game.state_text()}"


def _illegal_candidates(game: Game) -> list[Any]:
    deck = game.ruleset.deck
    legal = game.playable_actions()  # the legal actions, and any revoke a ruleset lets stand
    cands: list[Any] = [Pass(), Bid(5), Bid(10_000), DeclareContract(5)]
    cands += [PlayCard(c) for c in deck.cards] + [PlayCard(c, True) for c in deck.cards]
    cands += [Discard(c) for c in deck.cards] + [GiveCard(c, 0) for c in deck.cards[:6]]
    return [a for a in cands if a not in legal]


class EngineMachine(RuleBasedStateMachine):
    """Random legal and illegal actions on a random (ruleset, players, seed)."""

    game: Game

    @initialize(case=st.sampled_from(CASES), seed=st.integers(0, 10_000))
    def start(self, case: tuple[str, int], seed: int) -> None:
        ruleset_id, players = case
        self.game = Game(load_ruleset(ruleset_id), players=players, seed=seed)
        self.total = len(self.game.ruleset.deck.cards)
        self.total_points = self.game.ruleset.deck.total_points
        self.deal = self.game.deal

    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data())
    def legal_action(self, data: st.DataObject) -> None:
        game = self.game
        legal = game.legal_actions()
        assert legal, game.state_text()
        assert len(set(legal)) == len(legal), "legal actions repeat"
        action = data.draw(st.sampled_from(legal))
        assert parse_action(str(action), game.ruleset.deck) == action
        game.apply(action)
        if game.deal is not self.deal or game.is_over:
            if game.last_deal is self.deal:
                assert _deal_points(self.deal) == self.total_points, game.state_text()
                assert self.deal.forfeited or all(not self.deal.hands[p] for p in self.deal.order)
            self.deal = game.deal

    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data())
    def illegal_action(self, data: st.DataObject) -> None:
        game = self.game
        action = data.draw(st.sampled_from(_illegal_candidates(game)))
        before = game.snapshot()
        with pytest.raises(IllegalActionError) as info:
            game.apply(action)
        assert f"`{action}`" in str(info.value)
        assert game.snapshot() == before

    @invariant()
    def every_card_once(self) -> None:
        cards = self.game.deal.all_cards()
        assert len(cards) == self.total and len(set(cards)) == self.total, self.game.state_text()

    @invariant()
    def views_hide_hidden_cards(self) -> None:
        _check_views(self.game)

    def teardown(self) -> None:
        game = getattr(self, "game", None)
        if game is None:
            return
        again = Game(game.ruleset, players=game.players, seed=game.seed)
        for text in game.history:
            again.apply(parse_action(text, game.ruleset.deck))
        assert again.state_text() == game.state_text()
        assert again.deal_scores == game.deal_scores and again.scores == game.scores
        assert again.record == game.record and again.record.to_json() == game.record.to_json()


EngineMachine.TestCase.settings = settings(
    max_examples=40,
    stateful_step_count=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
TestEngineMachine = pytest.mark.slow(EngineMachine.TestCase)


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset_id", "players"), CASES)
def test_thousand_deals(ruleset_id: str, players: int) -> None:
    """1,000 seeded random deals per form: each ends with every card played or set aside
    and the deck's card points (120) accounted for."""
    rules = load_ruleset(ruleset_id)
    total, total_points = len(rules.deck.cards), rules.deck.total_points
    deals, seed = 0, 0
    while deals < DEALS_PER_FORM:
        game, bot = Game(rules, players=players, seed=seed), RandomBot(seed)
        seed += 1
        deal = game.deal
        while not game.is_over and deals < DEALS_PER_FORM:
            game.apply(bot.choose(game.view(game.current_player), game.legal_actions()))
            if game.deal is not deal or game.is_over:
                if game.last_deal is deal:
                    assert _deal_points(deal) == total_points, game.state_text()
                    assert sorted(c.index for c in deal.all_cards()) == sorted(c.index for c in rules.deck.cards)
                    deals += 1
                deal = game.deal
                assert len(set(deal.all_cards())) == total
    assert deals == DEALS_PER_FORM
