"""The compiled form (:mod:`tysiac_spec.engine.compiled`): made once per form, shared by its
games, kept on the form and gone with it (the engine keeps no table of forms)."""

from __future__ import annotations

import copy as copy_module
import gc
import weakref
from collections.abc import Callable
from dataclasses import fields, replace
from pathlib import Path

import pytest

from tysiac_spec import load_ruleset
from tysiac_spec.engine import Game, PlayCard, compile_form, play
from tysiac_spec.engine.state import DealState
from tysiac_spec.ruleset import Form, Ruleset

RULES = Path(__file__).parent.parent / "rulesets" / "pl-standard.yaml"


def _fresh() -> Ruleset:
    """pl-standard loaded from its text: a ruleset (and forms) not cached by the loader."""
    return load_ruleset("pl-standard-copy.yaml", text=RULES.read_text(encoding="utf-8"))


def test_games_of_one_form_compile_it_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Many games of one form compile it once and share the one immutable result."""
    calls = []
    compile_apply = play.compile_apply

    def counting(form: Form) -> Callable[[DealState, PlayCard], None]:
        calls.append(form)
        return compile_apply(form)

    monkeypatch.setattr(play, "compile_apply", counting)
    rules = _fresh()
    assert rules.form(3).compiled is None
    games = [Game(rules, players=3, seed=s) for s in range(20)]
    assert len(calls) == 1
    assert all(g.compiled is games[0].compiled is rules.form(3).compiled for g in games)
    assert all(g._table is games[0]._table and g._play_apply is games[0]._play_apply for g in games)
    with pytest.raises(AttributeError):
        games[0].compiled.table = None  # type: ignore[misc, assignment]


def test_compile_form_is_the_games_compilation_and_not_a_rule() -> None:
    """``compile_form`` returns the object the games use; the cache is no field of the form
    and changes no comparison or copy of it (``replace`` makes a new form, compiled anew)."""
    rules = _fresh()
    form = rules.form(3)
    game = Game(rules, players=3, seed=1)
    assert compile_form(form, rules.deck.cards) is game.compiled
    copy = replace(form)
    assert copy == form and copy.compiled is None and copy_module.copy(form).compiled is None
    assert "compiled" not in repr(form) and "compiled" not in {f.name for f in fields(form)}
    assert compile_form(copy, rules.deck.cards) is not game.compiled


def test_a_form_no_game_or_ruleset_holds_is_freed_with_its_compilation() -> None:
    """The compiled form is kept on the form only: when no game or ruleset holds the form,
    both go.  (``Form`` takes no weak reference; the compiled play function does, and the
    form holds it through ``form.compiled``, so while it lives the form may; once it is gone
    the form is.)"""
    rules = _fresh()
    first, second = Game(rules, players=3, seed=1), Game(rules, players=3, seed=2)
    assert first.compiled is second.compiled
    play_apply = weakref.ref(first.compiled.play_apply)
    form_id = id(rules.form(3))
    del first, second, rules
    gc.collect()
    assert play_apply() is None
    assert not any(id(o) == form_id and type(o).__name__ == "Form" for o in gc.get_objects())


@pytest.mark.slow
def test_may_bid_kept_bids_are_shared_by_the_forms_games_and_equal_a_fresh_evaluation() -> None:
    """ru-classic's ``may_bid`` (``bid <= 120 or marriages(hand) > 0``) reads no player base:
    its allowed bids are kept on the compiled form, shared by every game of it, and ranges
    that meet are merged; the bids offered at every auction turn of 15 random matches equal
    those of a fresh evaluation (no keeping: ``auction._amounts`` compiles anew)."""
    from tysiac_spec.bots import RandomBot
    from tysiac_spec.engine import auction
    from tysiac_spec.engine.actions import Bid

    rules = load_ruleset("ru-classic")
    form = rules.form(4)
    turns = offered_high = 0
    for seed in range(15):
        game = Game(rules, players=4, seed=seed)
        bot = RandomBot(seed)
        while not game.is_over and len(game.deal_scores) < 2:
            legal = game.legal_actions()
            deal = game.deal
            if deal.phase == "auction":
                fresh = auction._amounts(form, deal, deal.current, game._env)
                assert [a.amount for a in legal if type(a) is Bid] == fresh
                turns += 1
                offered_high += any(a.amount > 120 for a in legal if type(a) is Bid)
            game.apply(bot.choose(game.view(game.current_player), legal))
    kept = form.compiled.may_bid_kept
    assert kept is not None and kept[1]  # shared on the form, not per game
    assert turns > 80 and offered_high > 0  # (bids over 120: a marriage held)


SEED_WITH_MARRIAGE = 4
"""A ru-classic 4-player game whose first bidder holds a marriage (may bid over 120)."""


def test_may_bid_kept_range_widens_below_and_above() -> None:
    """A range asked that meets the kept one evaluates only the bids not kept, below it, above
    it or both, and the answers equal a fresh evaluation (ru-classic's ``may_bid``)."""
    from tysiac_spec.engine import auction

    rules = load_ruleset("ru-classic")
    form = rules.form(4)
    game = Game(rules, players=4, seed=SEED_WITH_MARRIAGE)
    deal, compiled = game.deal, form.compiled
    player, other = deal.order[0], deal.order[1]
    held = {(c.suit_id, c.rank.id) for c in deal.hands[player]}
    assert any((s, "king") in held and (s, "queen") in held for s, _ in held)  # (bids over 120 allowed)
    kept = compiled.may_bid_kept[1]
    kept.clear()
    amounts = auction.compile_amounts(form, compiled.pack)
    deal.opening, deal.high_bidder = False, other
    step = form.auction.step
    ranges = []
    for high, most in [(150, 200), (120, 160), (120, 240), (100, 300), (200, 250)]:
        deal.high_bid, deal.max_bids[player] = high, most
        got = amounts(deal, player, game._env)
        assert got == auction._amounts(form, deal, player, game._env)
        assert got == list(range(high + step, most + 1, step))
        ranges.append(next(iter(kept.values()))[:2])
    assert len(kept) == 1  # one hand: one key, its range widened
    low = [150 + step, 120 + step, 120 + step, 100 + step, 100 + step]
    assert ranges == list(zip(low, [200, 200, 240, 300, 300], strict=True))
