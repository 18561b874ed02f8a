"""The engine's API on positions edited by hand (as tests and scenario tools do): the
shortcuts taken for speed must never change what a game accepts, answers or records."""

from __future__ import annotations

import pytest
from test_engine_play import _game as _stacked

from tysiac_spec import IllegalActionError, load_ruleset
from tysiac_spec.engine import Game, parse_action, play
from tysiac_spec.engine.actions import ActionTable
from tysiac_spec.engine.state import DealState


def _game() -> Game:
    """pl-standard, 3 players, the stacked deal of ``test_engine_play`` (dealer 0)."""
    return _stacked("pl-standard")


def test_history_is_one_list_that_grows_with_the_game() -> None:
    game = _game()
    history = game.history
    game.apply(parse_action("bid 100", game.ruleset.deck))
    game.apply(parse_action("pass", game.ruleset.deck))
    assert history is game.history and history == ["bid 100", "pass"]
    assert game.record.actions == ("bid 100", "pass")


def test_an_old_list_is_no_licence_after_the_deal_was_changed_by_hand() -> None:
    # Player 1 opens the auction (S000: with 100, no pass); after the deal is put in the play
    # phase by hand, his `bid 100` from the old list is checked again, refused with the
    # reason, and the game is left as it was.
    game = _game()
    legal = game.legal_actions()
    assert [str(a) for a in legal][:1] == ["bid 100"] and "pass" not in [str(a) for a in legal]
    game.deal.phase = "play"  # changed by hand, without asking for the legal actions again
    game.deal.current = 1
    before = game.snapshot()
    with pytest.raises(IllegalActionError, match="not legal for player 1 in the play phase"):
        game.apply(legal[0])
    assert game.snapshot() == before


def test_legal_plays_of_a_position_built_by_hand_with_few_cards() -> None:
    # the compiled legal plays work on a deal that does not hold the whole pack (`must_beat`:
    # beat the queen led).
    deck = load_ruleset("pl-standard").deck
    form = load_ruleset("pl-standard").form(3)
    deal = DealState(dealer=0, order=[1, 2, 0], sitter=None, hands={}, talons=[], dealt_talon=(), deck_points=120)
    deal.hands = {0: list(deck.parse_many("AH JH 9C")), 1: [], 2: []}
    deal.phase, deal.current, deal.declarer, deal.trick_number = "play", 0, 1, 3
    deal.trick = [(1, deck.parse("QH"))]
    assert [str(a) for a in play.compile_legal(form, ActionTable(), deck.cards)(deal)] == ["play AH"]


def test_a_given_card_goes_into_order_even_if_the_hand_was_not() -> None:
    game = _game()
    deck = game.ruleset.deck
    for text in ("bid 100", "pass", "pass"):
        game.apply(parse_action(text, deck))
    assert game.phase == "exchange" and game.deal.declarer == 1
    game.deal.hands[2] = list(reversed(game.deal.hands[2]))  # out of order, by hand
    game.apply(parse_action("give 9C to 2", deck))
    indices = [c.index for c in game.deal.hands[2]]
    assert indices == sorted(indices)


def test_an_unknown_phase_set_by_hand_has_no_legal_action() -> None:
    game = _game()
    game.deal.phase = "thinking"
    assert game.legal_actions() == []


def test_contracts_follow_a_hand_changed_by_hand_in_the_contract_phase() -> None:
    # pl-standard: the contract goes up to 120 plus the marriages held (S000's usual limit,
    # applied after the exchange: contract.max).  Player 1 keeps hearts and spades marriages
    # (100 + 40): up to 260; with his KS swapped by hand for 9D, only hearts: up to 220.
    game = _game()
    deck = game.ruleset.deck
    for text in ("bid 100", "pass", "pass", "give 9C to 2", "give JC to 0"):
        game.apply(parse_action(text, deck))
    assert game.phase == "contract"
    assert str(game.legal_actions()[-1]) == "contract 260"
    hand, other = game.deal.hands[1], game.deal.hands[0]
    ks, nine = deck.parse("KS"), deck.parse("9D")
    hand[hand.index(ks)], other[other.index(nine)] = nine, ks
    hand.sort(key=lambda c: c.index)
    assert str(game.legal_actions()[-1]) == "contract 220"


def test_actions_are_immutable_values_with_their_text() -> None:
    import copy
    import pickle
    from dataclasses import FrozenInstanceError

    from tysiac_spec.engine.actions import Bid, DeclareContract, Pass, PlayCard

    deck = load_ruleset("pl-standard").deck
    play_qh = PlayCard(deck.parse("QH"), marriage=True)
    assert (play_qh.text, str(play_qh)) == ("play QH marriage", "play QH marriage")
    assert repr(play_qh) == "PlayCard(card=Card.parse('QH'), marriage=True, aces=False)"
    assert play_qh == parse_action("play qh marriage", deck) and play_qh != PlayCard(deck.parse("QH"))
    assert Bid(120) == Bid(120) and Bid(120) != DeclareContract(120) and Pass() == Pass()
    assert hash(Bid(120)) == hash((120,)) and hash(Pass()) == hash(())
    with pytest.raises(FrozenInstanceError, match="cannot assign to field 'amount'"):
        Bid(120).amount = 130  # type: ignore[misc]
    for clone in (copy.copy(play_qh), pickle.loads(pickle.dumps(play_qh))):
        assert clone == play_qh and clone.text == "play QH marriage"
