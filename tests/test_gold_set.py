"""Pagat's gold set (ru-classic's option ``gold_set``, ua-standard's ``golden_round: gold_set``):
a golden round that keeps its auction, from a compulsory and lowest bid of 120
(``special.golden_round.auction``).

Source: PAGx1 (pagat's sentence: a gold set of three deals, one dealt by each player, in which
the minimum bid is 120); the deal-level rules are the scenarios ``gold-set-*`` of
rulesets/scenarios/ru-classic.yaml.
"""

from __future__ import annotations

import random

from tysiac_spec import load_ruleset
from tysiac_spec.engine import Game
from tysiac_spec.engine.match import DealOutcome, MatchState, settle_deal
from tysiac_spec.engine.outcome import fixed_bid, iter_mode_errors


def _openings(options: dict[str, object], deals: int) -> list[tuple[int, bool, str]]:
    """(deal number, golden deal, first legal bid) of the first ``deals`` auctions of a
    seeded game on ru-classic, random legal actions."""
    game = Game(load_ruleset("ru-classic"), players=3, seed=5, options=options)
    rng, seen = random.Random(1), []
    while not game.is_over and len(game.deal_scores) < deals:
        n = len(game.deal_scores)
        if game.phase == "auction" and (not seen or seen[-1][0] != n):
            seen.append((n, game.golden_deal, str(game.legal_actions()[0])))
        game.apply(rng.choice(game.legal_actions()))
    return seen


def test_gold_set_auctions_open_at_120_then_at_100() -> None:
    assert _openings({"gold_set": True}, 5) == [
        (0, True, "bid 120"), (1, True, "bid 120"), (2, True, "bid 120"),
        (3, False, "bid 100"), (4, False, "bid 100"),
    ]
    assert [o[1:] for o in _openings({"gold_set": False}, 2)] == [(False, "bid 100"), (False, "bid 100")]


def test_gold_set_deal_is_won_by_the_highest_bidder_and_scored_undoubled() -> None:
    rules = load_ruleset("ru-classic").with_options({"gold_set": True})
    form = rules.form(3)
    state = MatchState.new(form, options=rules.selected)
    assert state.golden_left == 3 and fixed_bid(form, "golden") is None  # the bid is won
    # dealer 0: the first hand is player 1, but player 2 won the auction at 125
    assert list(iter_mode_errors(form, state, mode="golden", declarer=2, dealer=0)) == []
    made = DealOutcome(declarer=2, bid=125, contract=125, mode="golden",
                       card_points={1: 20, 2: 90, 0: 10}, marriages={2: 80},
                       tricks={1: 1, 2: 6, 0: 1})
    state, _ = settle_deal(form, state, made)
    # nothing doubled (multiplier 1): +125, the defenders' 20 and 10 as they are
    assert state.scores == (10, 20, 125) and state.golden_left == 2
    # ru-online's golden round (no auction) still names its first hand
    online = load_ruleset("ru-online").form(3)
    problems = list(iter_mode_errors(online, MatchState.new(online), mode="golden", declarer=2, dealer=0))
    assert [str(p).split(": ", 1)[1] for p in problems] == [
        "in a golden deal the first hand (player 1) is the declarer, not player 2"
    ]
