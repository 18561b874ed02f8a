"""Seeded random deals on every shipped ruleset and player count: invariants at every step."""

from __future__ import annotations

import random

import pytest

from tysiac_spec import IllegalActionError, load_ruleset
from tysiac_spec.bots import RandomBot
from tysiac_spec.engine import Bid, DeclareContract, Discard, Game, GiveCard, Pass, PlayCard, parse_action
from tysiac_spec.engine.state import DealState
from tysiac_spec.ruleset.registry import entries

DEALS = 200

CASES = [(e.id, n) for e in entries() if e.kind != "base" for n in load_ruleset(e.id).player_counts]


def _check_cards(deal: DealState, total: int) -> None:
    cards = deal.all_cards()
    assert len(cards) == total
    assert len(set(cards)) == total


def _check_points(deal: DealState, total_points: int) -> None:
    won = sum(c.rank.points for p in deal.order for c in deal.won.get(p, []))
    aside = sum(c.rank.points for c in deal.leftover + deal.discards)
    assert won + aside == total_points
    assert all(not deal.hands[p] for p in deal.order)


@pytest.mark.parametrize(("ruleset_id", "players"), CASES)
def test_random_deals(ruleset_id: str, players: int) -> None:
    rules = load_ruleset(ruleset_id)
    deck = rules.deck
    total, total_points = len(deck.cards), deck.total_points
    seed = 0
    deals = 0
    while deals < DEALS:
        game = Game(rules, players=players, seed=seed)
        bot = RandomBot(seed)
        seed += 1
        deal = game.deal
        while not game.is_over and deals < DEALS:
            legal = game.legal_actions()
            assert legal, game.state_text()
            action = bot.choose(game.view(game.current_player), legal)
            assert parse_action(str(action), deck) == action
            game.apply(action)
            if game.deal is not deal or game.is_over:
                assert game.last_deal is not None
                if game.last_deal is deal:
                    _check_points(deal, total_points)
                    deals += 1
                deal = game.deal
            _check_cards(game.deal, total)


def test_same_seed_same_game() -> None:
    rules = load_ruleset("pl-standard")
    runs = []
    for _ in range(2):
        game, bot = Game(rules, players=3, seed=5), RandomBot(5)
        for _ in range(300):
            game.apply(bot.choose(game.view(game.current_player), game.legal_actions()))
        runs.append((game.history, game.deal_scores, game.state_text()))
    assert runs[0] == runs[1]


def _illegal_candidates(game: Game) -> list[object]:
    deck = game.ruleset.deck
    legal = game.legal_actions()
    cands = [Pass(), Bid(5), Bid(10_000), DeclareContract(5)]
    cands += [PlayCard(c) for c in deck.cards] + [PlayCard(c, True) for c in deck.cards]
    cands += [Discard(c) for c in deck.cards[:6]] + [GiveCard(c, 0) for c in deck.cards[:6]]
    return [a for a in cands if a not in legal]


@pytest.mark.parametrize(("ruleset_id", "players"), CASES)
def test_rejected_action_changes_nothing(ruleset_id: str, players: int) -> None:
    rules = load_ruleset(ruleset_id)
    game, bot, rng = Game(rules, players=players, seed=3), RandomBot(3), random.Random(3)
    for _ in range(150):
        if game.is_over:
            break
        before = game.snapshot()
        for action in rng.sample(_illegal_candidates(game), 3):
            with pytest.raises(IllegalActionError) as info:
                game.apply(action)  # type: ignore[arg-type]
            message = str(info.value)
            assert f"`{action}`" in message and game.phase in message
            assert game.snapshot() == before
        game.apply(bot.choose(game.view(game.current_player), game.legal_actions()))


def test_view_hides_other_hands() -> None:
    game = Game(load_ruleset("pl-standard"), players=3, seed=11)
    for p in game.deal.order:
        view = game.view(p)
        assert view.hand == tuple(game.deal.hands[p])
        assert view.talon == ()
        others = {c for q in game.deal.order if q != p for c in game.deal.hands[q]}
        assert not others & set(view.hand)
