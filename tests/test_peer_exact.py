"""Peer rules made exact (issue 26 items 12-14): mekedron/thousand's bottom-card guard
(``deal.cut.swap``), its tie-breakers (continuation's 999, ``match.finishing.tie_score``;
high_score's lowest seat and declarer_wins's highest total, ``match.finishing.tie_equal``),
its golden deal and its two doubling switches (``golden_round.multiplier: 1`` and formulas
reading ``mode``), its pit lock (a counter and match rules), its pooled defenders (a
``scoring.defender`` formula) and its same-deal barrel tie (``special.barrel.collision_tie``).

Values from the peer's code: ``core/deck.lua`` L94-104 (``apply_bottom_safe``: the bottom 9
or J swapped with the first card from the top that is neither) and
``tests/spec/core/scoring_spec.lua`` (endgame toggles, L1568-2009: 950 + 60 for two seats, no
winner, both at 999, target 1500); ``core/scoring.lua`` ``M.advance_game``, the winner block's
``tiebreaker == "high_score"`` branch ("Highest total wins; ties broken by lowest unit index
(no declarer favouritism)": ``winning_unit = at_max[1]``).
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

from tysiac_spec import load_ruleset
from tysiac_spec.engine import Game
from tysiac_spec.engine.dealing import cut_pack
from tysiac_spec.engine.match import DealOutcome, MatchState, settle_deal
from tysiac_spec.ruleset.model import Form

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


def _finishing(form: Form, **values: object) -> Form:
    finishing = dataclasses.replace(form.match.finishing, **values)  # type: ignore[arg-type]
    return dataclasses.replace(form, match=dataclasses.replace(form.match, finishing=finishing))


def test_high_score_ties_go_to_the_lowest_seat_not_the_declarer() -> None:
    # the peer's tiebreaker high_score (scoring.lua, advance_game: at_max[1], the lowest unit)
    rules = load_ruleset(str(HOUSE / "no-800.yaml"))
    form = rules.form(3)
    start = MatchState.new(form, options=rules.selected, deck_points=rules.deck.total_points)
    # the declarer (seat 1) makes 100 from 910 and seat 0 takes 40 from 970: 1010 each
    made = DealOutcome(declarer=1, bid=100, contract=100, card_points={1: 80, 2: 0, 0: 40},
                       marriages={1: 40}, tricks={1: 5, 2: 0, 0: 3})
    tied = start.with_values(form, scores=[970, 910, 0])
    highest = _finishing(form, tie="highest")
    assert settle_deal(highest, tied, made)[0].winner == 1  # today: the declarer's
    lowest = _finishing(form, tie="highest", tie_equal="lowest_seat")
    state, events = settle_deal(lowest, tied, made)
    assert state.scores == (1010, 1010, 0) and state.winner == 0
    assert [e.text for e in events if e.kind == "match.won"] == ["player 0 wins with 1010"]
    # two defenders at 1020 after a failed 100 (124 and 123 rounded to 120), the declarer not among them: no one today,
    # the lowest seat (0) there
    failed = DealOutcome(declarer=1, bid=100, contract=100, card_points={1: 13, 2: 44, 0: 63},
                         marriages={1: 40, 2: 80, 0: 60}, tricks={1: 1, 2: 3, 0: 4})
    both = start.with_values(form, scores=[900, 0, 900])
    assert settle_deal(highest, both, failed)[0].winner is None
    state = settle_deal(lowest, both, failed)[0]
    assert state.scores == (1020, -100, 1020) and state.winner == 0


def test_declarer_wins_is_the_highest_score_then_the_declarer_then_the_lowest_seat() -> None:
    # the peer's tiebreaker declarer_wins (scoring.lua, advance_game: "highest total wins;
    # ties at the top break for the declarer's unit", else at_max[1], the lowest unit)
    rules = load_ruleset(str(HOUSE / "no-800.yaml"))
    form = rules.form(3)
    start = MatchState.new(form, options=rules.selected, deck_points=rules.deck.total_points)
    peer = _finishing(form, tie="highest", tie_equal="declarer_then_lowest_seat")
    # the declarer (seat 1) makes 100 from 910 (1010), seat 0 takes 40 from 990 (1030)
    made = DealOutcome(declarer=1, bid=100, contract=100, card_points={1: 80, 2: 0, 0: 40},
                       marriages={1: 40}, tricks={1: 5, 2: 0, 0: 3})
    ahead = start.with_values(form, scores=[990, 910, 0])
    assert settle_deal(_finishing(form, tie="declarer"), ahead, made)[0].winner == 1
    assert settle_deal(peer, ahead, made)[0].winner == 0  # the higher total, not the declarer
    # equal at the top with the declarer: his (1010 each)
    tied = start.with_values(form, scores=[970, 910, 0])
    assert settle_deal(peer, tied, made)[0].winner == 1
    # equal at the top without him: the lowest seat (1020 each), where tie_equal: declarer
    # names no one
    failed = DealOutcome(declarer=1, bid=100, contract=100, card_points={1: 13, 2: 44, 0: 63},
                         marriages={1: 40, 2: 80, 0: 60}, tricks={1: 1, 2: 3, 0: 4})
    both = start.with_values(form, scores=[900, 0, 900])
    assert settle_deal(peer, both, failed)[0].winner == 0
    assert settle_deal(_finishing(form, tie="highest"), both, failed)[0].winner is None


_GOLDEN = """id: peer-golden-{name}
kind: house
name: {{en: golden {name}}}
description: {{en: the peer's golden deal ({name})}}
extends: ru-online
special:
  golden_round: {{multiplier: 1}}
"""


def _golden(tmp_path: Path, name: str, scoring: str = "") -> Form:
    path = tmp_path / f"{name}.yaml"
    path.write_text(_GOLDEN.format(name=name) + scoring, encoding="utf-8")
    return load_ruleset(str(path)).form(3)


def _golden_deal(form: Form, **outcome: object) -> tuple[int, ...]:
    state = MatchState.new(form, options={}, deck_points=120)
    return settle_deal(form, state, DealOutcome(declarer=1, bid=120, contract=120, mode="golden",
                                                tricks={0: 2, 1: 4, 2: 2}, **outcome))[0].scores  # type: ignore[arg-type]


def test_the_peers_golden_deal_doubles_only_what_its_switches_name(tmp_path: Path) -> None:
    # the peer's golden deal (core/scoring.lua score_deal; rule_config.lua opening_game): the
    # forced 120 alone doubles nothing; golden_deal_marriages_doubled doubles the marriage
    # bonuses (also toward the contract check); golden_deal_penalty_doubled sets
    # bid_multiplier 2, which doubles the payout and the bar to make (effective_bid)
    cards = {1: 50, 0: 40, 2: 30}
    marriages = {1: 40, 0: 60}
    plain = _golden(tmp_path, "plain")
    assert plain.special.golden_round.multiplier == 1
    # 50 + 40 = 90 < 120: failed, -120; the defenders score 100 and 30, nothing doubled
    assert _golden_deal(plain, card_points=cards, marriages=marriages) == (100, -120, 30)
    shipped = load_ruleset("ru-online").form(3)  # multiplier 2: every point doubled
    assert _golden_deal(shipped, card_points=cards, marriages=marriages) == (200, -240, 60)
    doubled = _golden(tmp_path, "marriages", """scoring:
  made: 'points + (if mode == "golden" then marriages else 0) >= contract'
  defender: 'points + (if mode == "golden" then marriages else 0)'
""")
    # 50 + 2 × 40 = 130 >= 120: made, +120; defender 0: 40 + 2 × 60 = 160
    assert _golden_deal(doubled, card_points=cards, marriages=marriages) == (160, 120, 30)
    penalty = _golden(tmp_path, "penalty", """scoring:
  made: 'points >= contract * (if mode == "golden" then 2 else 1)'
  declarer: '(if made then contract else -contract) * (if mode == "golden" then 2 else 1)'
""")
    # 100 + 40 = 140 would make 120, but the doubled bar is 240: failed, -240
    assert _golden_deal(penalty, card_points={1: 100, 0: 10, 2: 10}, marriages={1: 40}) == (10, -240, 10)
    # every card point (120) and two marriages (80 + 40): 240 >= 240, made, +240
    assert _golden_deal(penalty, card_points={1: 120}, marriages={1: 120}) == (0, 240, 0)


PIT_LOCK = """id: peer-pit-lock
kind: house
name: {en: pit lock}
description: {en: the peer's pit lock at 700}
extends: pl-standard
match:
  threshold: {enabled: false}
  counters: [{id: pit}]
  rules:
    - {id: pit-hold, when: 'player.pit == 1 and not (declarer and made) and delta > 0', then: 'player.score = 700'}
    - {id: pit-release, when: 'player.pit == 1 and player.score != 700', then: 'player.pit = 0'}
    - {id: pit-lock, when: 'player.pit == 0 and player.score >= 700 and player.score - delta < 700',
       then: 'player.score = 700; player.pit = 1'}
"""


def test_the_pit_lock_holds_at_700_until_a_made_contract_or_a_loss(tmp_path: Path) -> None:
    # the peer's barrel.pit_lock_in (core/scoring.lua advance_game, "Off both barrels. Apply
    # pit-lock-in semantics"): a total crossing pit_score from below is held there and locked;
    # while locked, a made contract as declarer or a negative delta clears the lock and the
    # raw total applies, any other delta leaves the unit at pit_score; once cleared, defender
    # points count again (800 + 60 is 860)
    path = tmp_path / "pit-lock.yaml"
    path.write_text(PIT_LOCK, encoding="utf-8")
    rules = load_ruleset(str(path))
    form = rules.form(3)
    state = MatchState.new(form, options=rules.selected, deck_points=rules.deck.total_points)

    def deal(declarer: int, contract: int, points: dict[int, int], **extra: object) -> tuple[int, ...]:
        nonlocal state
        outcome = DealOutcome(declarer=declarer, bid=100, contract=contract, card_points=points,
                              tricks={p: 2 + (p == declarer) * 2 for p in range(3)}, **extra)  # type: ignore[arg-type]
        state = settle_deal(form, state, outcome)[0]
        return state.scores

    state = state.with_values(form, scores=[0, 600, 0])
    # seat 1 makes 200 from 600: held at 700 and locked
    assert deal(1, 200, {1: 100, 2: 20, 0: 0}, marriages={1: 100}) == (0, 700, 20)
    assert state.counters["pit"] == (0, 1, 0)
    # a defender's 60 leaves him at 700, still locked
    assert deal(0, 100, {0: 60, 1: 60, 2: 0}, marriages={0: 40}) == (100, 700, 20)
    assert state.counters["pit"] == (0, 1, 0)
    # a made 100 as declarer releases it: 800
    assert deal(1, 100, {1: 60, 2: 60, 0: 0}, marriages={1: 40}) == (100, 800, 80)
    assert state.counters["pit"] == (0, 0, 0)
    # released, a defender's 60 counts: 860
    assert deal(0, 100, {0: 60, 1: 60, 2: 0}, marriages={0: 40}) == (200, 860, 80)
    # seat 2 crosses from 640 as a defender (+60): held at 700 and locked; failing a 100
    # from there releases it below (600)
    state = state.with_values(form, scores=[200, 860, 640], counters={"pit": [0, 0, 0]})
    assert deal(0, 100, {0: 60, 1: 0, 2: 60}, marriages={0: 40}) == (300, 860, 700)
    assert state.counters["pit"] == (0, 0, 1)
    assert deal(2, 100, {2: 40, 0: 40, 1: 40}) == (340, 900, 600)
    assert state.counters["pit"] == (0, 0, 0)


POOL = """id: peer-pooled
kind: house
name: {en: pooled}
description: {en: the peer's pooled defenders}
extends: pl-standard
scoring:
  defender: >-
    (round_to(points, 5) + round_to(others_points - declarer_points, 5)) // 2
    + (if player_seat == (if declarer_seat == 0 then 1 else 0)
       then (round_to(points, 5) + round_to(others_points - declarer_points, 5)) % 2 else 0)
"""


def test_pooled_defenders_share_their_rounded_scores(tmp_path: Path) -> None:
    # the peer's scoring.defender_contributions = pooled (core/scoring.lua score_deal): each
    # deal score is rounded first (round_to_nearest, 5; marriages exact), the defenders' pool
    # is split floor(pool / n), the remainder to the first defender seat in ascending order
    path = tmp_path / "pooled.yaml"
    path.write_text(POOL, encoding="utf-8")
    rules = load_ruleset(str(path))
    form = rules.form(3)
    start = MatchState.new(form, options=rules.selected, deck_points=rules.deck.total_points)

    def deal(declarer: int, points: dict[int, int], marriages: dict[int, int] | None = None) -> tuple[int, ...]:
        outcome = DealOutcome(declarer=declarer, bid=100, contract=100, card_points=points,
                              marriages=marriages or {}, tricks={0: 3, 1: 3, 2: 2})
        return settle_deal(form, start, outcome)[0].scores

    # 33 and 36 round to 35 each: the pool 70 gives 35 each (halving 69 first gives 34 → 30)
    assert deal(1, {1: 51, 0: 33, 2: 36}) == (35, -100, 35)
    # 33 and 41 round to 35 and 40: 75 is 37 each and the odd point to seat 0
    assert deal(1, {1: 46, 0: 33, 2: 41}) == (38, -100, 37)
    # the declarer is seat 0: the odd point goes to seat 1
    assert deal(0, {0: 46, 1: 33, 2: 41}) == (-100, 38, 37)
    # a marriage stays exact: 24 + 40 is 65, 27 is 25, the pool 90 gives 45 each
    assert deal(1, {1: 69, 0: 24, 2: 27}, marriages={0: 40}) == (45, -100, 45)


def _barrel(form: Form, **values: object) -> Form:
    barrel = dataclasses.replace(form.special.barrel, **values)  # type: ignore[arg-type]
    return dataclasses.replace(form, special=dataclasses.replace(form.special, barrel=barrel))


def test_a_same_deal_barrel_tie_keeps_the_declarer_then_the_lowest_seat() -> None:
    # the peer's collision_rule last_mounter / first_mounter (core/scoring.lua advance_game,
    # "Same-deal mount ties break by declarer-wins, then lowest unit index"): of the units
    # mounting in the same deal one stays (the declarer's, else the lowest), the others fall
    rules = load_ruleset("ru-online", options={"golden_round": False})
    form = rules.form(3)
    start = MatchState.new(form, options=rules.selected, deck_points=rules.deck.total_points)
    both = start.with_values(form, scores=[800, 780, 790])
    # the declarer (seat 1) makes 100 (880), seat 0 takes 80 (880), seat 2 takes 0 (790)
    made = DealOutcome(declarer=1, bid=100, contract=100, card_points={1: 40, 0: 80, 2: 0},
                       marriages={1: 60}, tricks={1: 3, 0: 5, 2: 0})
    last = _barrel(form, collision="last_stays")
    state = settle_deal(last, both, made)[0]
    assert state.scores[:2] == (880, 880) and [b.on for b in state.barrel][:2] == [True, True]
    tie = _barrel(form, collision="last_stays", collision_tie="declarer_then_lowest_seat")
    state, events = settle_deal(tie, both, made)
    assert state.scores[:2] == (760, 880) and [b.on for b in state.barrel][:2] == [False, True]
    assert [(e.player, e.text) for e in events if e.kind == "barrel.collision"] == [
        (0, "fell off the barrel (with player 1) −120")]
    # the declarer not among them: two defenders mounting together at 880, the lowest seat
    # stays, the other falls to 760 (the peer's threshold + fall_off_penalty)
    failed = DealOutcome(declarer=1, bid=100, contract=100, card_points={1: 40, 0: 40, 2: 40},
                         marriages={0: 40, 2: 40}, tricks={1: 2, 0: 3, 2: 3})
    pair = start.with_values(form, scores=[800, 0, 800])
    for collision in ("last_stays", "first_stays"):
        state = settle_deal(_barrel(form, collision=collision), pair, failed)[0]
        assert [b.on for b in state.barrel] == [True, False, True]
        state = settle_deal(_barrel(form, collision=collision, collision_tie="declarer_then_lowest_seat"),
                            pair, failed)[0]
        assert [b.on for b in state.barrel] == [True, False, False] and state.scores[2] == 760
