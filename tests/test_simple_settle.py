"""The settlement of a match with nothing beyond the target and ``finishing``
(``engine/simple_settle.py``): the one statement the engine's games and the fast path run for
such a form, held to ``match.settle_valid_deal`` (the whole pipeline, which scoresheets use)
on every shipped simple form and house example, and checked on exact values."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tysiac_spec import Game, load_ruleset
from tysiac_spec.engine.events import MatchEvent
from tysiac_spec.engine.match import MatchState, dealt_by, settle_valid_deal
from tysiac_spec.engine.scoring import outcome_of
from tysiac_spec.engine.simple_settle import compile_simple_settle, settled_state, simple_settlement

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted(p.stem for p in (ROOT / "rulesets").glob("*.yaml"))
HOUSE = sorted(str(p) for p in (ROOT / "examples" / "house").glob("*.yaml"))


def _kinds(events: list[MatchEvent]) -> list[tuple[str, int | None, int | None]]:
    return [(e.kind, e.player, e.value) for e in events]


def test_which_forms_are_simple() -> None:
    assert simple_settlement(load_ruleset("pl-standard").form(3)) is None
    assert simple_settlement(load_ruleset("pl-standard").form(4)) is None
    assert simple_settlement(load_ruleset("ru-classic").form(4)) == "match.rules"
    assert simple_settlement(load_ruleset("cz-standard").form(3)) == "match.threshold"
    assert simple_settlement(load_ruleset("house-ru-no-barrel").form(3)) == "special.bolts"
    assert Game(load_ruleset("pl-standard"), players=3, seed=1).compiled.switches.simple_settle  # type: ignore[union-attr]
    assert not Game(load_ruleset("ru-classic"), players=3, seed=1).compiled.switches.simple_settle  # type: ignore[union-attr]


def _settle(players: int = 3, options: dict[str, object] | None = None):  # type: ignore[no-untyped-def]
    rules = load_ruleset("pl-standard", options=options)
    form = rules.form(players)
    return form, compile_simple_settle(form, dict(rules.selected), rules.deck.cards)


def test_a_made_contract_over_the_target_wins() -> None:
    _, settle = _settle()
    scores, events = [900, 985, 400], []  # type: ignore[var-annotated]
    # declarer 0 makes 120 with 100 + 40; player 1's 30 would take him over: capped at 990
    winner, made = settle(scores, 7, 0, 120, [0, 1, 2], None, [100, 10, 10], [40, 20, 0], [5, 2, 1], None,
                          events)
    assert (winner, made) == (0, True)
    assert scores == [1020, 990, 410]
    assert _kinds(events) == [("contract.made", 0, 120), ("finish.capped", 1, 990), ("match.won", 0, 1020)]
    assert all(e.deal == 7 for e in events)


def test_a_failed_contract_scores_minus_the_contract_and_nobody_wins() -> None:
    _, settle = _settle()
    scores, events = [0, 0, 0], []  # type: ignore[var-annotated]
    winner, made = settle(scores, 0, 2, 110, [0, 1, 2], None, [35, 44, 41], [0, 0, 0], [2, 3, 3], None, events)
    assert (winner, made) == (-1, False)
    assert scores == [30, 40, -110]  # (defenders' points to 10, a five down by default: 35 → 30, 44 → 40)
    assert _kinds(events) == [("contract.failed", 2, 110)]


def test_the_sitter_scores_the_dealt_talon() -> None:
    rules = load_ruleset("pl-standard")
    settle = compile_simple_settle(rules.form(4), dict(rules.selected), rules.deck.cards)
    pack = rules.deck.cards
    # the ace of hearts and the hearts marriage (king, queen)
    talon = [i for i, c in enumerate(pack) if c.suit.id == "hearts" and c.rank.id in ("ace", "king", "queen")]
    scores, events = [0, 0, 0, 0], []  # type: ignore[var-annotated]
    winner, _ = settle(scores, 0, 1, 100, [1, 2, 3], 0, [0, 60, 30, 30], [0, 40, 0, 0], [0, 4, 2, 2], talon,
                       events)
    assert winner == -1
    # the sitter (the dealer, seat 0): 50 for the ace and the hearts marriage's 100
    # (table.sitter.score); the declarer made 100 with 60 + 40
    assert len(talon) == 3
    assert scores == [150, 100, 30, 30]


def test_settled_state_changes_only_the_scores_dealer_deals_and_winner() -> None:
    form = load_ruleset("pl-standard").form(3)
    state = MatchState.new(form, options={"x": 1}, dealer=2, deck_points=120)
    new = settled_state(state, [10, 20, 30], 0, 4, 1)
    assert (new.scores, new.dealer, new.deals, new.winner) == ((10, 20, 30), 0, 4, 1)
    assert (new.barrel, new.forfeits, new.bolts, new.options) == (state.barrel, state.forfeits, state.bolts,
                                                                   state.options)
    assert settled_state(state, [0, 0, 0], 1, 1, -1).winner is None


def _simple_games() -> list[tuple[str, int]]:
    out = []
    for rid in [*SHIPPED, *HOUSE]:
        rules = load_ruleset(rid)
        for players in rules.player_counts:
            if simple_settlement(rules.form(players)) is None:
                out.append((rid, players))
    return out


@pytest.mark.slow
def test_games_settle_as_settle_valid_deal_on_every_simple_form() -> None:
    """Every deal a game settles by the simple settlement, settled again by the whole
    pipeline from the state before it: the same match state, events and ``made``.  The
    matches start near the target, so finishing and the winner are met."""
    cases = _simple_games()
    assert ("pl-standard", 3) in cases and len(cases) >= 6
    won = capped = 0
    for rid, players in cases:
        rules = load_ruleset(rid)
        target = rules.form(players).match.target
        deals = 0
        for seed in range(4):
            game = Game(rules, players=players, seed=seed)
            assert game.compiled.switches.simple_settle  # type: ignore[union-attr]
            game.set_match_state(scores=[target - 60 + 10 * p for p in range(players)])
            rng = random.Random(seed)
            while not game.is_over and deals < 40 * (seed + 1):
                before, count, seen = game.match, len(game.deal_scores), len(game.events)
                game.apply(rng.choice(game.legal_actions()))
                if len(game.deal_scores) == count:
                    continue
                deal = game.last_deal
                assert deal is not None
                state = dealt_by(before, deal.dealer)
                expected, events, made = settle_valid_deal(game.form, state, outcome_of(deal))
                assert game.match == expected, (rid, players, seed)
                assert game.events[seen:seen + len(events)] == events
                assert deal.made is made
                deals += 1
                won += expected.winner is not None
                capped += any(e.kind == "finish.capped" for e in events)
    # (random play in a two-player game seldom makes a contract: counted over every form)
    assert won >= 10 and capped >= 10, (won, capped)


def test_the_simple_settlement_runs_the_pipelines_own_steps() -> None:
    """The simple settlement has no order of its own: it runs the steps of ``match.STEPS`` a
    form selects, in the table's order, as the whole pipeline does (moving a step in the
    table moves it in both)."""
    from tysiac_spec.engine.match import STEPS, compile_settlement

    def names(steps: object) -> list[str]:
        return [f.__name__ for f in steps]  # type: ignore[attr-defined]

    pl = compile_settlement(load_ruleset("pl-standard").form(3))
    assert names(pl.deal_steps) == ["_step_contract", "_step_finishing", "_step_add", "_step_winner"]
    assert pl.steps == pl.deal_steps
    ru = compile_settlement(load_ruleset("ru-classic").form(4))
    assert ru.deal_steps is None  # (the barrel, bolts and rules need the whole match state)
    assert names(ru.steps) == ["_step_contract", "_step_barrel", "_step_add", "_step_bolts", "_step_rules",
                               "_step_barrel_seats", "_step_winner"]
    table = [s.deal or s.work for s in STEPS]
    for form in (pl, ru):
        at = [table.index(f) for f in form.steps]
        assert at == sorted(at)
    with pytest.raises(ValueError, match="not a simple form"):
        rules = load_ruleset("ru-classic")
        compile_simple_settle(rules.form(4), dict(rules.selected), rules.deck.cards)
