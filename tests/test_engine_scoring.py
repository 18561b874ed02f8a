"""Deal scoring through the ruleset's formulas, the 4-player sitter and the match loop."""

from __future__ import annotations

import pytest

from tysiac_spec import load_ruleset
from tysiac_spec.bots import HeuristicBot
from tysiac_spec.engine import Game, parse_action
from tysiac_spec.engine.scoring import outcome_of, scores_and_made
from tysiac_spec.engine.state import DealState

HANDS = {1: "AH KH QH 9H AS KS QS", 2: "TH JH TS JS 9S AD TD", 0: "KD QD JD 9D AC TC KC"}


def _scored(
    ruleset_id: str, *, contract: int, won: dict[int, str], marriages: dict[int, int]
) -> dict[int, int]:
    game = Game(load_ruleset(ruleset_id), players=3, seed=0)
    game.start_deal(hands=HANDS, talons=["QC JC 9C"], dealer=0)
    deal, deck = game.deal, game.ruleset.deck
    deal.declarer, deal.contract, deal.marriages = 1, contract, marriages
    deal.won = {p: list(deck.parse_many(cards)) for p, cards in won.items()}
    return _score(game, deal)


def _score(game: Game, deal: DealState) -> dict[int, int]:
    """Each player's base score for ``deal`` (:func:`scores_and_made` on the deal's outcome,
    with the game's ``player`` records and options)."""
    outcome = outcome_of(deal)
    options = game._env(outcome.declarer)["options"]
    scores, _ = scores_and_made(game.form, outcome, lambda p: game._env(p)["player"], options)
    return scores


@pytest.mark.parametrize(
    ("contract", "declarer_cards", "marriage", "expected"),
    [
        # S000: no rounding before the check — 147 against 150 fails.
        (150, "AH TH AS TS AD TD AC TC KC KS KD QD JD QS QC", 40, -150),
        (140, "AH TH AS TS AD TD AC TC KC KS KD QD JD QS QC", 40, 140),
    ],
)
def test_declarer_made_or_failed(contract: int, declarer_cards: str, marriage: int, expected: int) -> None:
    deck = load_ruleset("pl-standard").deck
    rest = [c for c in deck.cards if c not in deck.parse_many(declarer_cards)]
    points = sum(c.points for c in deck.parse_many(declarer_cards))
    assert points + marriage == 147
    won = {1: declarer_cards, 2: " ".join(map(str, rest)), 0: ""}
    assert _scored("pl-standard", contract=contract, won=won, marriages={1: marriage})[1] == expected


def test_defenders_rounded_by_option() -> None:
    # 65 card points: rounded down by default in pl-standard (`five_rounds: down`), up in house-five-up.
    deck = load_ruleset("pl-standard").deck
    cards = deck.parse_many("AH TH AS TS JS KS QS QH QD JH JD")  # 11+10+11+10+2+4+3+3+3+2+2 = 61
    cards += deck.parse_many("KH")  # 65
    assert sum(c.points for c in cards) == 65
    rest = " ".join(str(c) for c in deck.cards if c not in cards)
    won = {2: " ".join(map(str, cards)), 1: rest, 0: ""}
    assert _scored("pl-standard", contract=100, won=won, marriages={})[2] == 60
    assert _scored("house-five-up", contract=100, won=won, marriages={})[2] == 70


def test_sitter_scores_the_talon() -> None:
    # pl-standard, 4 players: the dealer sits out and scores 50 per ace plus a marriage in the musik.
    game = Game(load_ruleset("pl-standard"), players=4, seed=0)
    hands = {1: "JH TH 9H AS KS QS JS", 2: "TS 9S AD TD KD QD JD", 3: "9D AC TC KC QC JC 9C"}
    game.start_deal(hands=hands, talons=["AH KH QH"], dealer=0)
    assert game.deal.sitter == 0 and game.deal.order == [1, 2, 3]
    game.deal.declarer, game.deal.contract = 1, 100
    assert _score(game, game.deal)[0] == 50 + 100


def test_match_ends_at_target_and_scores_add_up() -> None:
    # Only a declarer who makes the contract may finish in pl-standard (S000), which random
    # bids almost never do: the rule-of-thumb bot bids what its hand can make.
    game = Game(load_ruleset("pl-standard"), players=3, seed=2)
    bot = HeuristicBot(2, game.form)
    game.scores = [995, 995, 995]
    while not game.is_over:
        game.apply(bot.choose(game.view(game.current_player), game.legal_actions()))
    assert max(game.scores) >= 1000
    assert game.legal_actions() == []
    assert [995 + sum(col) for col in zip(*game.deal_scores, strict=True)] == game.scores


def test_options_reload_the_ruleset() -> None:
    game = Game(load_ruleset("pl-standard"), players=3, seed=1, options={"five_rounds": "up"})
    assert game.ruleset.selected["five_rounds"] == "up"


def test_talon_shown_after_a_contested_auction() -> None:
    game = Game(load_ruleset("pl-standard"), players=3, seed=0)
    game.start_deal(hands=HANDS, talons=["QC JC 9C"], dealer=0)
    deck = game.ruleset.deck
    talon = tuple(deck.parse_many("QC JC 9C"))
    assert all(game.view(p).talon == () for p in range(3))
    for text in ("bid 100", "bid 110", "pass", "pass"):
        game.apply(parse_action(text, deck))
    assert game.deal.declarer == 2
    assert all(set(game.view(p).talon) == set(talon) for p in range(3))
    assert set(talon) <= set(game.view(2).hand)
    assert not set(talon) & set(game.view(0).hand)
