"""The declarer names trump (``contract.names_trump``, issue 26 item 7) and marriage values
that read the trump (``marriages.value``: ``suit``, ``trump``): examples/house/named-trump.yaml,
a table practice marked ``assumed`` (the trump marriage 100, any other 80)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tysiac_spec import IllegalActionError, load_ruleset
from tysiac_spec.adapters._core import ActionIndex, Episode
from tysiac_spec.engine import Game, parse_action
from tysiac_spec.engine.actions import NameTrump
from tysiac_spec.fast.coverage import uncovered

HOUSE = Path(__file__).parent.parent / "examples" / "house" / "named-trump.yaml"
HANDS = {1: "KH QH KS QS AD TD AC", 0: "JH JD JC JS 9C 9S TS", 2: "AH TH QD KD KC QC AS"}


def _game(ruleset: str | Path = HOUSE) -> Game:
    game = Game(load_ruleset(str(ruleset)), players=3, seed=0)
    game.start_deal(hands=HANDS, talons=["9H 9D TC"], dealer=0)
    return game


def _do(game: Game, *texts: str) -> None:
    for text in texts:
        game.apply(parse_action(text, game.ruleset.deck))


def test_the_declarer_names_trump_before_the_talon() -> None:
    game = _game()
    _do(game, "bid 100", "pass", "pass")
    assert game.deal.phase == "trump" and game.current_player == 1 and game.deal.trump is None
    assert [str(a) for a in game.legal_actions()] == ["trump hearts", "trump diamonds", "trump clubs", "trump spades"]
    with pytest.raises(IllegalActionError, match="the declarer names trump first"):
        _do(game, "give 9H to 2")
    _do(game, "trump S")
    assert game.deal.trump == "spades" and game.deal.phase == "exchange"
    assert (game.events[-1].kind, game.events[-1].text) == ("trump", "player 1 names spades trump")
    # the trump stays (marriages.sets_trump false): the hearts marriage is 80, not trump
    _do(game, "give 9H to 2", "give 9D to 0", "contract 100", "play KH marriage")
    assert game.deal.trump == "spades" and game.deal.marriages == {1: 80}


@pytest.mark.parametrize(("trump", "points"), [("hearts", 100), ("clubs", 80)])
def test_the_trump_marriage_is_worth_100(trump: str, points: int) -> None:
    game = _game()
    _do(game, "bid 100", "pass", "pass", f"trump {trump}", "give 9H to 2", "give 9D to 0", "contract 100",
        "play KH marriage")
    assert game.deal.marriages == {1: points}


def test_the_action_prints_and_parses_in_pairs_and_the_default_names_nothing() -> None:
    deck = load_ruleset("pl-standard").deck
    assert parse_action("trump H", deck) == NameTrump("hearts") and str(NameTrump("hearts")) == "trump hearts"
    game = _game("pl-standard")
    _do(game, "bid 100", "pass", "pass")
    assert game.deal.phase == "exchange" and game.deal.trump is None
    # a form that sets it is played by the engine, not the fast path's generator
    form = load_ruleset(str(HOUSE)).form(3)
    assert uncovered(form, 24) == "contract.names_trump = True (not covered by the fast path's generator)"


def test_the_adapters_number_the_named_trumps_and_random_play_names_one() -> None:
    # the adapters' index lists `trump SUIT` last, only for a form that names trump
    rules = load_ruleset(str(HOUSE))
    index = ActionIndex(rules, 3)
    assert [str(a) for a in index.actions[-4:]] == ["trump hearts", "trump diamonds", "trump clubs", "trump spades"]
    assert not any(type(a) is NameTrump for a in ActionIndex(load_ruleset("pl-standard"), 3).actions)
    episode = Episode(rules, 3, 5, "deal", index)
    rng, named = random.Random(2), False
    while not episode.over:
        numbers = episode.legal_numbers()
        number = numbers[rng.randrange(len(numbers))]
        named |= type(index.actions[number]) is NameTrump
        episode.apply_number(number)
    assert named
