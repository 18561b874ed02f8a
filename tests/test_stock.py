"""A stock drawn from after each trick (``players.<n>.stock``, ``stock_trump``,
``stock_duties``; issue 14, table layouts).

mekedron/thousand's two-player layout A (``players.two_player_config:
closed_talon_draw_stock``): nine cards each and a six-card stock whose face-up bottom card
shows trump; after each trick the winner and then the other draw; no duty to follow, beat or
trump until the stock is empty; twelve tricks.  The house example is
``examples/house/two-stock.yaml``; its scenarios play deal S
(``examples/house/scenarios/two-stock.yaml``).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from tysiac_spec import load_ruleset
from tysiac_spec.engine import Game, parse_action
from tysiac_spec.errors import IllegalActionError
from tysiac_spec.simulate import simulate
from tysiac_spec.table import view_lines

HOUSE = str(Path(__file__).parent.parent / "examples" / "house" / "two-stock.yaml")
OPTIONS = {"golden_round": False, "dark_game": False}
HANDS = {1: "AH TH KH QH AD TD AC TC 9C", 0: "9H KD QD KC QC AS TS KS JS"}
STOCK = "JH JD JC QS 9D 9S"


def _game(**table: Any) -> Game:
    """Deal S of the house example, with the 2-player form's ``table`` fields changed."""
    rules = load_ruleset(HOUSE, options=OPTIONS)
    if table:  # the same house rule with a table field changed
        form = rules.form(2)
        form = dataclasses.replace(form, table=dataclasses.replace(form.table, **table))
        rules = dataclasses.replace(rules, forms={**rules.forms, 2: form})
    game = Game(rules, players=2, seed=0)
    game.start_deal(hands=HANDS, talons=[], dealer=0, stock=STOCK)
    return game


def _do(game: Game, *actions: str) -> None:
    for text in actions:
        game.apply(next(a for a in game.legal_actions() if str(a) == text))


def _legal(game: Game) -> list[str]:
    return [str(a) for a in game.legal_actions()]


def test_views_show_the_bottom_card_to_both_and_nothing_else() -> None:
    game = _game()
    for player in (0, 1):
        view = game.view(player)
        assert view.stock == 6 and str(view.stock_card) == "9S"
        assert view.trump == "spades"
        seen = {str(c) for c in view.hand} | {str(view.stock_card)}
        # of the stock, only its bottom card is seen
        assert seen & set(STOCK.split()) == {"9S"}
        assert "stock: 6 card(s), the bottom one face up: 9S" in view_lines(
            view, game.ruleset.deck, game.legal_actions()
        )


def test_the_winner_draws_first_and_the_bottom_card_last() -> None:
    game = _game()
    _do(game, "pass", "contract 100", "play AH", "play KD")
    assert [str(c) for c in game.deal.hands[1]] == "AH TH KH QH JH AD TD AC TC 9C".split()[1:]
    assert "JD" in {str(c) for c in game.deal.hands[0]}
    assert game.view(0).stock == 4
    _do(game, "play KH marriage", "play JS", "play 9C", "play KC")  # player 0 wins the third
    assert "9D" in {str(c) for c in game.deal.hands[0]}  # the winner draws the top card
    assert "9S" in {str(c) for c in game.deal.hands[1]}  # the face-up card goes last
    view = game.view(1)
    assert view.stock == 0 and view.stock_card is None
    assert [len(game.deal.hands[p]) for p in (0, 1)] == [9, 9]


def test_no_duty_while_the_stock_lasts_then_the_duties_apply() -> None:
    game = _game()
    _do(game, "pass", "contract 100", "play AH")
    assert len(_legal(game)) == 9  # the whole hand, not only the nine of hearts
    _do(game, "play KD", "play KH marriage", "play JS", "play 9C", "play KC", "play QD")
    assert _legal(game) == ["play AD", "play TD"]
    with pytest.raises(IllegalActionError, match="for player 1 in the play phase: must follow diamonds"):
        game.apply(parse_action("play TH", game.ruleset.deck))


def test_stock_duties_apply_binds_from_the_first_trick() -> None:
    game = _game(stock_duties="apply")
    _do(game, "pass", "contract 100", "play AH")
    assert _legal(game) == ["play 9H"]


def test_without_stock_trump_no_trump_before_a_marriage() -> None:
    game = _game(stock_trump=False)
    assert game.view(0).trump is None
    # the ace of spades on the ace of clubs now loses: no trump
    _do(game, "pass", "contract 100", "play AC", "play AS")
    assert game.deal.won.get(1) and {str(c) for c in game.deal.won[1]} == {"AC", "AS"}
    game = _game()
    _do(game, "pass", "contract 100", "play AC", "play AS")  # spades are trump: player 0 wins
    assert {str(c) for c in game.deal.won[0]} == {"AC", "AS"}


def test_a_stacked_deal_needs_the_stock() -> None:
    rules = load_ruleset(HOUSE, options=OPTIONS)
    game = Game(rules, players=2, seed=0)
    with pytest.raises(IllegalActionError, match="the stock must hold 6 cards"):
        game.start_deal(hands=HANDS, talons=[], dealer=0)


def test_a_seeded_deal_puts_the_last_cards_in_the_stock() -> None:
    rules = load_ruleset(HOUSE, options=OPTIONS)
    game = Game(rules, players=2, seed=5)
    deal = game.deal
    assert len(deal.stock) == 6 and [len(deal.hands[p]) for p in (0, 1)] == [9, 9]
    assert deal.trump == deal.stock[-1].suit_id
    assert len({*deal.all_cards()}) == 24


@pytest.mark.slow
def test_200_matches_of_the_house_example() -> None:
    data = simulate(HOUSE, players=2, games=200, seed=2024).as_dict()
    assert data["matches"] == data["finished"] == 200
    assert sum(data["wins"]) == 200
