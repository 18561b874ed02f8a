"""Peer rules made exact (issue 26 item 12): mekedron/thousand's bottom-card guard
(``deal.cut.swap``) and its continuation tie-breaker's 999 (``match.finishing.tie_score``).

Values from the peer's code: ``core/deck.lua`` L94-104 (``apply_bottom_safe``: the bottom 9
or J swapped with the first card from the top that is neither) and
``tests/spec/core/scoring_spec.lua`` (endgame toggles, L1568-2009: 950 + 60 for two seats, no
winner, both at 999, target 1500).
"""

from __future__ import annotations

import random
from pathlib import Path

from tysiac_spec import load_ruleset
from tysiac_spec.engine import Game
from tysiac_spec.engine.dealing import cut_pack
from tysiac_spec.engine.match import DealOutcome, MatchState, settle_deal

HOUSE = Path(__file__).parent.parent / "examples" / "house"


def test_a_bad_bottom_card_is_swapped_with_the_first_good_one_from_the_top() -> None:
    rules = load_ruleset(str(HOUSE / "cut-swap.yaml"))
    form = rules.form(3)
    cards = list(rules.deck.parse_many("9H JD 9S AS KH QH TC 9C"))
    cuts, penalised = cut_pack(form, cards, random.Random(0), 0)
    # the bottom 9C goes to the place of AS, the first card neither a nine nor a jack
    assert (cuts, penalised) == ([], False)
    assert " ".join(map(str, cards)) == "9H JD 9S 9C KH QH TC AS"
    good = list(rules.deck.parse_many("9H AS KH"))
    assert cut_pack(form, good, random.Random(0), 0) == ([], False) and str(good[-1]) == "KH"
    # no cut is ever bad, nobody pays: 40 seeded games open without a cut event
    for seed in range(40):
        game = Game(rules, players=3, seed=seed)
        assert not [e for e in game.events if e.kind.startswith("cut.")] and game.scores == [0, 0, 0]


def test_a_tie_at_the_target_sets_999_and_raises_it_to_1500() -> None:
    rules = load_ruleset(str(HOUSE / "tie-below-target.yaml"))
    form = rules.form(3)
    state = MatchState.new(form, options=rules.selected, deck_points=rules.deck.total_points)
    state = state.with_values(form, scores=[950, 0, 950])
    fail = DealOutcome(declarer=1, bid=100, contract=100, card_points={0: 60, 1: 0, 2: 60},
                       tricks={0: 4, 1: 0, 2: 3})
    state, events = settle_deal(form, state, fail)
    assert state.scores == (999, -100, 999) and state.winner is None
    assert [e.text for e in events if e.kind == "match.target"] == [
        "a tie at the target: play goes on to 1500"]


def test_a_total_between_threshold_and_target_mounts_the_barrel_at_once() -> None:
    # ru-classic's `barrel-floor` match rule (the peer's clamp, scoring_spec.lua L1152-1420:
    # 850 + 70 is clamped to 880 and mounts in the same deal)
    rules = load_ruleset("ru-classic")
    form = rules.form(3)
    state = MatchState.new(form, options=rules.selected, deck_points=rules.deck.total_points)
    state = state.with_values(form, scores=[850, 0, 0])
    state, events = settle_deal(form, state, DealOutcome(declarer=1, bid=100, contract=100,
                                                         card_points={0: 70, 1: 30, 2: 20}))
    assert state.scores == (880, -100, 20) and [b.on for b in state.barrel] == [True, False, False]
    assert [(e.kind, e.text) for e in events][-2:] == [
        ("rule.barrel-floor", "920 → 880 (barrel-floor)"), ("barrel.enter", "on the barrel at 880")]
