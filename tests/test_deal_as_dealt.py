"""A deal as dealt, in deal notation (issue 29 item 7): ``Game.dealt()`` and
:func:`tysiac_spec.engine.replay.deals_as_dealt` for a record; right for a golden-round deal,
whose declarer takes the talon before anyone acts (reading the hands then gave 10/7/7 cards
and no talon)."""

from __future__ import annotations

import random

from tysiac_spec import Game, load_ruleset
from tysiac_spec.engine.deal_notation import Deal
from tysiac_spec.engine.replay import deals_as_dealt


def test_a_golden_round_deal_is_written_as_dealt() -> None:
    game = Game(load_ruleset("ru-online"), players=3, seed=1)
    assert game.golden_deal and game.deal.mode == "golden" and game.deal.talons == []
    assert sorted(len(game.deal.hands[p]) for p in game.deal.order) == [7, 7, 10]  # talon taken
    dealt = game.dealt()
    assert str(dealt) == ("0:TH JH TD JD AC AS QS / QH QD 9D KC JC KS JS / AH 9H KD TC QC 9C 9S "
                          "| KH TS AD")
    assert Deal.parse(str(dealt)) == dealt
    again = Game(load_ruleset("ru-online"), players=3, seed=99)
    again.start_deal(str(dealt))
    assert again.dealt() == dealt


def test_the_deal_as_dealt_stays_while_the_cards_move() -> None:
    game = Game(load_ruleset("pl-standard"), players=3, seed=4)
    first, deal = game.dealt(), game.deal
    rng = random.Random(0)
    while game.deal is deal and game.deal.trick_number < 2:
        game.apply(rng.choice(game.legal_actions()))
    assert game.deal is deal and game.deal.trick_number == 2  # two tricks played of this deal
    assert sum(len(h) for h in game.deal.hands.values()) == 24 - 6
    assert game.dealt() == first
    assert sum(len(h) for h in first.hands) == 21 and len(first.talons[0]) == 3


def test_a_record_gives_every_deal_as_dealt() -> None:
    game = Game(load_ruleset("ru-online"), players=3, seed=7)
    rng = random.Random(3)
    seen = [game.dealt()]
    while len(seen) < 4 and not game.is_over:
        deal = game.deal
        game.apply(rng.choice(game.legal_actions()))
        if game.deal is not deal:
            seen.append(game.dealt())
    assert len(seen) == 4
    assert deals_as_dealt(game.record) == seen
    assert [len(d.talons[0]) for d in seen] == [3, 3, 3, 3]
