"""Seeded random deals on every shipped ruleset and player count: invariants at every step."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from _quick import sample
from hypothesis import given
from hypothesis import strategies as st

from tysiac_spec import IllegalActionError, load_ruleset
from tysiac_spec.bots import RandomBot
from tysiac_spec.engine import Bid, DeclareContract, Discard, Game, GiveCard, Pass, PlayCard, parse_action
from tysiac_spec.engine.actions import CancelDark, Dark, Forfeit, Redeal
from tysiac_spec.engine.dealing import shuffle
from tysiac_spec.engine.state import DealState
from tysiac_spec.ruleset.registry import entries

DEALS = 200

CASES = [(e.id, n) for e in entries() if e.kind != "base" for n in load_ruleset(e.id).player_counts]

HOUSE = sorted(str(p) for p in (Path(__file__).parent.parent / "examples" / "house").glob("*.yaml"))


def _option_values(ruleset_id: str) -> list[dict[str, Any]]:
    """One option setting per non-default value of every option of the ruleset."""
    rules = load_ruleset(ruleset_id)
    out: list[dict[str, Any]] = []
    for name, opt in rules.options.items():
        if opt.type == "choice":
            values: list[Any] = list(opt.choices)
        elif opt.type == "bool":
            values = [True, False]
        else:
            values = sorted({v for v in (opt.minimum, opt.maximum) if v is not None})
        out += [{name: v} for v in values if v != rules.selected[name]]
    return out


def _option_cases() -> list[tuple[str, int, dict[str, Any]]]:
    """Every non-default option value of every shipped ruleset, and every house example, at
    each of its player counts (loads them all: made only for a run that selects the test)."""
    return [
        (e.id, n, opts)
        for e in entries()
        if e.kind != "base"
        for opts in _option_values(e.id)
        for n in load_ruleset(e.id, options=opts).player_counts
    ] + [(path, n, {}) for path in HOUSE for n in load_ruleset(path).player_counts]


def _check_cards(deal: DealState, total: int) -> None:
    cards = deal.all_cards()
    assert len(cards) == total
    assert len(set(cards)) == total


def _check_points(deal: DealState, total_points: int) -> None:
    won = sum(c.rank.points for p in deal.order for c in deal.won.get(p, []))
    aside = sum(c.rank.points for c in deal.leftover + deal.discards + deal.stock)  # an undrawn stock too
    if deal.forfeited:
        # Not played: no trick, every card still in a hand or set aside.
        held = sum(c.rank.points for p in deal.order for c in deal.hands[p])
        assert won == 0 and held + aside == total_points
        return
    assert won + aside == total_points
    assert all(not deal.hands[p] for p in deal.order)


def _case_id(case: tuple[str, int]) -> str:
    return f"{Path(case[0]).stem}-{case[1]}"


# the same invariants on each form: the quick loop takes a sample, CI every case
@pytest.mark.parametrize(("ruleset_id", "players"), sample(CASES, every=3, ids=_case_id))
def test_random_deals(ruleset_id: str, players: int) -> None:
    _random_deals(ruleset_id, players, {}, DEALS)


@pytest.mark.slow
@pytest.mark.cases(("ruleset_id", "players", "options"), _option_cases)
def test_random_deals_with_options(ruleset_id: str, players: int, options: dict[str, Any]) -> None:
    _random_deals(ruleset_id, players, options, 30)


def _random_deals(ruleset_id: str, players: int, options: dict[str, Any], count: int) -> None:
    rules = load_ruleset(ruleset_id, options=options)
    deck = rules.deck
    left_out = rules.forms[players].table.left_out  # cards not dealt (players.N.left_out)
    total = len(deck.cards) - left_out
    seed = 0
    deals = 0
    while deals < count:
        game = Game(rules, players=players, seed=seed)
        bot = RandomBot(seed)
        seed += 1
        deal = game.deal
        dealt = sum(c.rank.points for c in deal.all_cards())  # the left-out cards' points are nobody's
        assert dealt == deck.total_points or (left_out and dealt < deck.total_points)
        while not game.is_over and deals < count:
            legal = game.legal_actions()
            assert legal, game.state_text()
            action = bot.choose(game.view(game.current_player), legal)
            assert parse_action(str(action), deck) == action
            game.apply(action)
            if game.deal is not deal or game.is_over:  # a deal was scored, or dealt again
                if game.last_deal is deal:
                    _check_points(deal, dealt)
                    deals += 1
                deal = game.deal
                dealt = sum(c.rank.points for c in deal.all_cards())
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
    # the actions the game accepts: the legal ones and, where a revoke stands (play.revoke,
    # examples/house/revoke-penalty.yaml), the revokes
    legal = game.playable_actions()
    cands = [Pass(), Bid(5), Bid(10_000), DeclareContract(5), Forfeit(), Dark(), CancelDark(), Redeal()]
    cands += [PlayCard(c, aces=True) for c in deck.cards]
    cands += [PlayCard(c) for c in deck.cards] + [PlayCard(c, True) for c in deck.cards]
    cands += [Discard(c) for c in deck.cards[:6]] + [GiveCard(c, 0) for c in deck.cards[:6]]
    return [a for a in cands if a not in legal]


@pytest.mark.parametrize(
    ("ruleset_id", "players"),
    sample(CASES, every=4, ids=_case_id) + sample([(path, 3) for path in HOUSE], every=12, ids=_case_id),
)
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


@given(seed=st.integers(min_value=0, max_value=2**64), size=st.integers(min_value=0, max_value=60))
def test_the_deal_shuffle_is_the_standard_librarys_permutation(seed: int, size: int) -> None:
    """dealing.shuffle writes out CPython 3.11's random.shuffle: same cards, same generator state."""
    mine, theirs = list(range(size)), list(range(size))
    rng_mine, rng_theirs = random.Random(seed), random.Random(seed)
    shuffle(mine, rng_mine)
    rng_theirs.shuffle(theirs)
    assert mine == theirs
    assert rng_mine.getstate() == rng_theirs.getstate()


def test_a_seed_deals_these_cards() -> None:
    """The first deal of seed 7 (pl-standard, 3 players), fixed: a change to the shuffle shows."""
    game = Game(load_ruleset("pl-standard"), players=3, seed=7)
    hands = {p: " ".join(map(str, h)) for p, h in sorted(game.deal.hands.items())}
    assert hands == {0: "KH KD JD 9D QC TS 9S", 1: "AH TH QH 9H QD KC JC", 2: "AD TD TC 9C AS QS JS"}
