"""One settlement pipeline for every deal (issue 25, item 2): a deal everyone passed and
played out (``auction.all_pass: play``) is settled by the same steps as a played deal, with
those that need a declarer switched off, so the barrel, the target raised by a tie
(``finishing.tie_raise``) and the golden round see it.

``tests/data/house/all-pass-scores.yaml``: ru-online (barrel at 880, target 1001) with raspasy
scored positively (``round_to(card_points, 5)``), ``finishing: {who: anyone, tie: continue,
tie_raise: 100}``.  The card points 13/84/23 are those of ru-online's deal in the raspasy
scenario (``examples/house/scenarios/``), played out the same way below."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tysiac_spec import Game, load_ruleset
from tysiac_spec.bots import HeuristicBot
from tysiac_spec.engine import parse_action
from tysiac_spec.engine.all_pass import AllPassOutcome
from tysiac_spec.engine.events import MatchEvent
from tysiac_spec.engine.match import BarrelSeat, MatchState, settle_all_pass, settle_deal
from tysiac_spec.engine.scoring import DealOutcome
from tysiac_spec.ruleset.model import Form
from tysiac_spec.scoresheet import DealEntry, Sheet, settle_sheet

SCORED = str(Path(__file__).parent / "data" / "house" / "all-pass-scores.yaml")

OUTCOME = AllPassOutcome(card_points={0: 13, 1: 84, 2: 23}, tricks={0: 1, 1: 6, 2: 1})
"""Rounded to 5: +15, +85, +25."""


def _start(scores: list[int]) -> tuple[Form, MatchState]:
    form = load_ruleset(SCORED, options={"golden_round": False}).form(3)
    return form, MatchState.new(form, dealer=0).with_values(form, scores=scores)


def _kinds(events: Sequence[MatchEvent]) -> list[tuple[str, int | None, int | None]]:
    return [(e.kind, e.player, e.value) for e in events]


def test_an_all_pass_deal_that_reaches_the_threshold_puts_the_player_on_the_barrel() -> None:
    form, state = _start([870, 500, 0])
    new, events = settle_all_pass(form, state, OUTCOME)
    assert new.scores == (885, 585, 25)
    assert new.barrel == (BarrelSeat(True, 0), BarrelSeat(), BarrelSeat())
    assert _kinds(events) == [("all_pass", None, None), ("barrel.enter", 0, 885)]
    assert events[1].text == "on the barrel at 885"


def test_a_played_deal_and_an_all_pass_deal_enter_the_barrel_alike() -> None:
    form, state = _start([870, 500, 0])
    played = DealOutcome(declarer=2, bid=100, contract=100, card_points={0: 15, 1: 20, 2: 85},
                         tricks={0: 1, 1: 2, 2: 5})
    new, events = settle_deal(form, state, played)
    assert new.scores == (885, 520, -100)
    assert new.barrel[0] == BarrelSeat(True, 0)
    assert ("barrel.enter", 0, 885) in _kinds(events)


def test_two_players_reaching_the_target_in_an_all_pass_deal_raise_it() -> None:
    form, state = _start([950, 920, 0])
    # 950 + 55 and 920 + 85: both at 1005, over the target 1001 (a tie that play goes on from)
    outcome = AllPassOutcome(card_points={0: 55, 1: 85, 2: 0})  # rounded: +55, +85, 0
    new, events = settle_all_pass(form, state, outcome)
    assert new.scores == (1005, 1005, 0)
    assert new.winner is None
    assert new.raised == 100 and new.target(form) == 1101
    assert _kinds(events) == [("all_pass", None, None), ("match.target", None, 1101)]
    assert events[-1].text == "a tie at the target: play goes on to 1101"


def test_the_golden_round_settles_an_all_pass_deal_as_any_deal_that_is_not_golden() -> None:
    # (the engine and a scoresheet never settle one there: a golden deal has no auction)
    form = load_ruleset(SCORED).form(3)
    state = MatchState.new(form, dealer=0).with_values(form, golden=2)
    assert state.golden_left == 2
    new, events = settle_all_pass(form, state, OUTCOME)
    assert new.golden_left == 0 and new.golden_made is False
    assert _kinds(events) == [("all_pass", None, None), ("golden.end", None, None)]
    assert events[-1].text == "golden round abandoned: a normal deal was played"


def test_the_engine_settles_an_all_pass_deal_through_the_pipeline() -> None:
    rules = load_ruleset(SCORED)
    g = Game(rules, players=3, seed=1)
    g.set_match_state(golden=0, scores=[860, 860, 860])
    g.start_deal(hands={1: "AH KH QH TC AS KS QS", 2: "TH 9H AC KD QD 9D 9S", 0: "AD TD JD KC QC JC TS"},
                 talons=["JH 9C JS"], dealer=0)
    for _ in range(4):  # no dark game, then everyone passes
        g.apply(parse_action("pass", rules.deck))
    bots = {p: HeuristicBot(p, g.form) for p in range(3)}
    while not g.deal_scores:
        g.apply(bots[g.current_player].choose(g.view(g.current_player), g.legal_actions()))
    assert g.deal_scores == [(15, 85, 25)]
    assert g.scores == [875, 945, 885]
    assert [s.on for s in g.match.barrel] == [False, True, True]
    assert _kinds(g.events) == [("all_pass", None, None), ("barrel.enter", 1, 945), ("barrel.enter", 2, 885)]


def test_the_scoresheet_settles_an_all_pass_deal_through_the_pipeline() -> None:
    rules = load_ruleset(SCORED, options={"golden_round": False})
    form = rules.form(3)
    sheet = Sheet(ruleset=SCORED, players=3, options={"golden_round": False})
    # eleven deals everyone passed, player 1 taking 84 (+85) in each
    for dealer in range(11):
        sheet.deals.append(DealEntry(dealer % 3, -1, 0, 0, (13, 84, 23), all_pass=True))
    rows = settle_sheet(rules, form, sheet)
    assert [r.scores for r in rows][-1] == (165, 935, 275)
    on = [row.state.barrel[1].on for row in rows]
    assert on.index(True) == 10  # 11 × 85 = 935: on the barrel at the eleventh deal (10 × 85 = 850)
    assert rows[10].notes[-1].endswith("on the barrel at 935")
