"""The match level (engine/match.py): settling deal outcomes with every match mechanism.

Each test cites its source (ids as in the rulesets' `sources`; S000–S004 are the seed
files) and the place in it.  House-rule examples (examples/house/) change one mechanism
by data alone; each has a test showing the changed outcome against its parent.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from tysiac_spec import load_ruleset
from tysiac_spec.engine import Game
from tysiac_spec.engine.match import DealOutcome, MatchState, compile_settlement, settle_deal
from tysiac_spec.engine.scoring import forfeit_cost, scores_and_made
from tysiac_spec.errors import MatchError
from tysiac_spec.ruleset.model import Form

HOUSE = Path(__file__).parent.parent / "examples" / "house"


def _setup(ruleset: str, players: int = 3) -> tuple[Form, MatchState]:
    rules = load_ruleset(ruleset)
    form = rules.form(players)
    return form, MatchState.new(form, options=rules.selected, deck_points=rules.deck.total_points)


def _house(name: str) -> str:
    return str(HOUSE / f"{name}.yaml")


def settle(
    ruleset: str,
    *,
    players: int = 3,
    options: dict[str, Any] | None = None,
    golden: int = 0,
    state: dict[str, Any] | None = None,
    **outcome: Any,
) -> tuple[MatchState, list[str], list[str]]:
    """Settle one outcome; returns the new state, the event kinds and the event texts."""
    rules = load_ruleset(ruleset, options=options or {})
    form = rules.form(players)
    start = MatchState.new(form, options=rules.selected, deck_points=rules.deck.total_points)
    start = start.with_values(form, golden=golden, **(state or {}))
    outcome.setdefault("contract", 100)
    outcome.setdefault("bid", outcome["contract"])
    outcome.setdefault("declarer", 1)
    if form.active == 3 and "sitter" not in outcome:
        outcome.setdefault("card_points", {1: 100, 2: 20, 0: 0})
        outcome.setdefault("tricks", {1: 5, 2: 3, 0: 0})
    elif form.active == 2:
        outcome.setdefault("card_points", {1: 80, 0: 40})
        outcome.setdefault("tricks", {1: 6, 0: 4})
    new, events = settle_deal(form, start, DealOutcome(**outcome))
    return new, [e.kind for e in events], [e.text for e in events]


# --------------------------------------------------------------------------- deal scoring


def test_declarer_147_of_150_fails() -> None:
    # S000 (scoring): no rounding before the check — 147 against a contract of 150 fails;
    # a defender's 13 rounds down to 10 (units up to 5 round down).
    new, kinds, texts = settle(
        "pl-standard",
        contract=150,
        card_points={1: 107, 2: 13, 0: 0},
        marriages={1: 40},
        tricks={1: 6, 2: 2, 0: 0},
    )
    assert new.scores == (0, -150, 10)
    assert kinds == ["contract.failed"] and texts == ["contract 150 failed"]
    made, _, _ = settle("pl-standard", contract=140, card_points={1: 107, 2: 13, 0: 0}, marriages={1: 40})
    assert made.scores == (0, 140, 10)


@pytest.mark.parametrize(
    ("outcome", "path", "message"),
    [
        ({"bid": 120, "contract": 110}, ("contract",), "the contract 110 is below the bid 120"),
        ({"bid": 105}, ("bid",), "bids are multiples of 10 (got 105)"),
        ({"bid": 370, "contract": 370}, ("bid",), "no bid above 360 in this game (got 370)"),
        ({"bid": 120, "contract": 125}, ("contract",), "a raised contract is a multiple of 10 (got 125)"),
        (
            {"card_points": {1: 80, 2: 29, 0: 10}},
            ("card_points",),
            "card points must add up to the deck total 120 (got 119)",
        ),
        (
            {"card_points": {1: 80, 2: 30, 0: 10}, "marriages": {1: 50}},
            ("marriages", 1),
            "marriage points of player 1 must be a sum of marriages: "
            "0, 40, 60, 80, 100, 120, 140, 160, 180, 200, 220, 240, 280 (got 50)",
        ),
        (
            {"card_points": {1: 90, 2: 30, 0: 0}, "tricks": {1: 4, 2: 0, 0: 4}},
            ("tricks", 2),
            "player 2 has 30 card points, so took a trick",
        ),
        ({"declarer": 5}, ("declarer",), "the declarer 5 is not at the table (players 0..2)"),
        ({"sitter": 0}, ("sitter",), "with 3 players nobody sits out (got sitter 0)"),
        (
            {"forfeited": True},
            ("forfeited",),
            "the deal was forfeited, but the ruleset (with these options) allows no forfeit",
        ),
    ],
)
def test_impossible_outcomes_are_rejected(outcome: dict[str, Any], path: tuple[Any, ...], message: str) -> None:
    with pytest.raises(MatchError) as info:
        settle("pl-standard", **outcome)
    assert info.value.diagnostic.code == "match.outcome"
    assert info.value.diagnostic.path == path
    assert info.value.diagnostic.message == message


def test_two_player_discards_may_score_for_nobody() -> None:
    # ru-online 2 players: the declarer's two discards score for nobody (assumed), so the
    # card points may sum below 120; pl-standard gives them to the last trick (S000).
    new, _, _ = settle("ru-online", players=2, contract=100, card_points={1: 100, 0: 10}, tricks={1: 6, 0: 4})
    assert new.scores == (10, 100)
    with pytest.raises(MatchError, match=r"^error\[match.outcome\]: card points must add up to the deck total 120 \(got 110\)$"):
        settle("pl-standard", players=2, contract=100, card_points={1: 100, 0: 10}, tricks={1: 6, 0: 4})


def test_sitter_scores_the_prikup() -> None:
    # S002 (4 players): the dealer sits on the prikup and scores its cards plus a marriage in it:
    # AH KH QH = 11 + 4 + 3 + 100 = 118.
    deck = load_ruleset("ru-online").deck
    talon = tuple(deck.parse_many("AH KH QH"))
    new, _, _ = settle(
        "ru-online",
        players=4,
        sitter=0,
        sitter_talon=talon,
        card_points={1: 100, 2: 15, 3: 5},
        tricks={1: 5, 2: 2, 3: 1},
    )
    assert new.scores == (118, 100, 15, 5)


def test_no_player_record_for_formulas_that_read_none() -> None:
    # ru-online's scoring, forfeit and sitter formulas read no `player` record: the deal's
    # scores are found without building one (the record is made only for a formula that
    # reads it), with the same values as with records.
    rules = load_ruleset("ru-online")
    form = rules.form(4)
    talon = tuple(rules.deck.parse_many("AH KH QH"))

    def no_record(player: int) -> dict[str, Any]:
        raise AssertionError(f"the record of player {player} was built")

    played = DealOutcome(declarer=1, bid=100, contract=100, card_points={1: 100, 2: 15, 3: 5},
                         tricks={1: 5, 2: 2, 3: 1}, sitter=0, sitter_talon=talon)
    assert scores_and_made(form, played, no_record, rules.selected) == ({1: 100, 2: 15, 3: 5, 0: 118}, True)
    forfeited = DealOutcome(declarer=1, bid=110, contract=110, forfeited=True, sitter=0, sitter_talon=talon)
    out, made = scores_and_made(form, forfeited, no_record, rules.selected)
    assert (out, made) == ({1: -110, 2: 60, 3: 60, 0: 118}, False)  # (S002: 60 to each defender)


def test_settlement_switches_decided_once_per_form() -> None:
    # compile_settlement reads each match mechanism of a form once: the steps a settlement
    # runs, the next dealer of each dealer, the match rules.
    pl = compile_settlement(load_ruleset("pl-standard").form(3))
    assert (pl.threshold, pl.barrel, pl.bolts, pl.finishing, pl.rules, pl.team) == (False, False, False, True, (), None)
    assert pl.next_dealer == (1, 2, 0)
    ru = compile_settlement(load_ruleset("ru-online").form(4))
    assert (ru.barrel, ru.bolts, ru.finishing, [r.id for r, _, _, _ in ru.rules]) == (True, True, False, ["samosval"])
    assert compile_settlement(load_ruleset(_house("partners-four")).form(4)).team == (0, 1, 0, 1)
    # a form with counters keeps no answer of a rule (its record holds the counters too)
    zero = compile_settlement(load_ruleset(_house("zero-deals")).form(3))
    assert zero.rules and all(kept is None for _, _, _, kept in zero.rules)


# --------------------------------------------------------------------------- samosval, rules


def test_samosval_555_drops_to_zero() -> None:
    # S002 ("Самосвал"): a score of exactly 555 or −555 after a deal becomes 0.
    new, kinds, texts = settle("ru-online", state={"scores": [0, 435, 0]}, contract=120, marriages={1: 40})
    assert new.scores == (0, 0, 20)
    assert "rule.samosval" in kinds and "555 → 0 (samosval)" in texts
    neg, _, texts = settle("ru-online", state={"scores": [0, -435, 0]}, contract=120)
    assert neg.scores[1] == 0 and "-555 → 0 (samosval)" in texts


def test_samosval_off_by_option_and_house_rule() -> None:
    # S002 lists samosval as a rule; house-no-555 switches it off by data alone.
    for ruleset, options in (("ru-online", {"samosval": False}), (_house("no-555"), {})):
        new, kinds, _ = settle(
            ruleset, options=options, state={"scores": [0, 435, 0]}, contract=120, marriages={1: 40}
        )
        assert new.scores[1] == 555 and "rule.samosval" not in kinds


# --------------------------------------------------------------------------- bolts


def test_third_bolt_costs_120() -> None:
    # S002 (scoring): no trick in a deal is a bolt; every third bolt costs 120.
    new, kinds, texts = settle(
        "ru-online", state={"bolts": [2, 0, 0]}, card_points={1: 100, 2: 20, 0: 0}, tricks={1: 5, 2: 3, 0: 0}
    )
    assert new.bolts == (3, 0, 0)
    assert new.scores == (-120, 100, 20)
    assert "third bolt −120" in texts and kinds.count("bolt.penalty") == 1


def test_dark_game_doubles_points_and_bolts() -> None:
    # S002 ("Втемную"): every point of the deal doubles, bolts too (read as a dark bolt
    # counting two, `special.dark.bolt_count`): 120 made → +240; a defender's 30 → 60;
    # one bolt before plus a dark bolt (2) is the third → −120.
    new, _kinds, texts = settle(
        "ru-online",
        state={"bolts": [1, 0, 0]},
        mode="dark",
        bid=120,
        contract=120,
        card_points={1: 90, 2: 30, 0: 0},
        marriages={1: 40},
        tricks={1: 5, 2: 3, 0: 0},
    )
    assert new.scores == (-120, 240, 60)
    assert new.bolts == (3, 0, 0)
    assert "dark deal: points ×2" in texts and "third bolt −120" in texts


def test_house_golden_bolts_double_counts_a_golden_bolt_twice() -> None:
    # house-golden-bolts-double (MEKH rule 65, the peer's penalties.zero_tricks_golden_deal_doubled):
    # a bolt in a golden deal counts two; under ru-online (S002) it counts one.  The golden
    # deal's first hand (player 1 after dealer 0) makes 120 x 2 = +240.
    kw: dict[str, Any] = {
        "golden": 1,
        "state": {"bolts": [1, 0, 0]},
        "mode": "golden",
        "bid": 120,
        "contract": 120,
        "multiplier": 2,
        "card_points": {1: 120, 2: 0, 0: 0},
        "tricks": {1: 8, 2: 0, 0: 0},
    }
    parent, _, parent_texts = settle("ru-online", **kw)
    house, kinds, texts = settle(_house("golden-bolts-double"), **kw)
    assert parent.bolts == (2, 0, 1) and parent.scores == (0, 240, 0)
    assert house.bolts == (3, 0, 2) and house.scores == (-120, 240, 0)
    assert "bolt (no trick, counts 2): 3 in all" in texts and "third bolt −120" in texts
    assert kinds.count("bolt.penalty") == 1 and "third bolt −120" not in parent_texts
    # a dark bolt counts two in both (ru-online's `dark.bolt_count: 2`), a normal one once
    dark = {**kw, "golden": 0, "mode": "dark", "multiplier": None}
    assert settle("ru-online", **dark)[0].bolts == settle(_house("golden-bolts-double"), **dark)[0].bolts == (3, 0, 2)
    normal = {**kw, "golden": 0, "mode": "normal", "multiplier": None, "bid": 100, "contract": 100}
    assert settle(_house("golden-bolts-double"), **normal)[0].bolts == (2, 0, 1)


def test_house_bolts_every_second() -> None:
    # house-bolts-every-2: every 2nd bolt −100; under ru-online (S002) the 2nd bolt is free.
    kw: dict[str, Any] = {
        "state": {"bolts": [1, 0, 0]},
        "card_points": {1: 90, 2: 30, 0: 0},
        "tricks": {1: 5, 2: 3, 0: 0},
    }
    parent, _, _ = settle("ru-online", **kw)
    house, _, texts = settle(_house("bolts-every-2"), **kw)
    assert parent.scores[0] == 0 and house.scores[0] == -100 and "second bolt −100" in texts


def test_bolts_count_zero_points_in_ru_classic() -> None:
    # PAGx2/PAGx3 (ru-classic): scoring zero counts (not taking no trick); the third costs 120.
    new, _, texts = settle(
        "ru-classic", state={"bolts": [2, 0, 0]}, card_points={1: 100, 2: 20, 0: 0}, tricks={1: 5, 2: 2, 0: 1}
    )
    assert new.bolts == (3, 0, 0) and new.scores[0] == -120 and "third bolt −120" in texts


def test_no_bolt_for_a_deal_begun_on_the_barrel_even_when_he_falls_off() -> None:
    # PAGx3 (ru-classic, `bolts.on_barrel: false`): a deal played on the barrel gives no bolt;
    # that holds for the deal in which the third failed attempt throws him off (he was on
    # the barrel when it began): 900 − 120 = 780, bolts stay at 2.
    new, kinds, texts = settle(
        "ru-classic",
        state={"scores": [900, 0, 0], "barrel": [2, False, False], "bolts": [2, 0, 0]},
        card_points={1: 100, 2: 20, 0: 0},
        tricks={1: 5, 2: 3, 0: 0},
    )
    assert new.scores[0] == 780 and "fell off the barrel −120" in texts
    assert new.bolts == (2, 0, 0) and "bolt" not in kinds


# --------------------------------------------------------------------------- forfeits


@pytest.mark.parametrize(
    ("mode", "used", "declarer"),
    [
        # S002 ("Роспись") table modes: unlimited — the contract each time;
        ("unlimited", 7, -120),
        # penalised after the third — three free, then each −120;
        ("penalty_after_3", 2, 0),
        ("penalty_after_3", 3, -120),
        # only 3 — at most three, free;
        ("only_3", 2, 0),
        # 3 with penalty — at most three, each costs the contract.
        ("three_with_penalty", 2, -120),
    ],
)
def test_rospis_modes(mode: str, used: int, declarer: int) -> None:
    # Each opponent scores 60 in every mode (S002, "Торговля": a rospis gives each 60).
    new, kinds, _ = settle(
        "ru-online", options={"rospis": mode}, state={"forfeits": [0, used, 0]}, contract=120, forfeited=True
    )
    assert new.scores == (60, declarer, 60)
    assert new.forfeits == (0, used + 1, 0) and kinds[0] == "forfeit"


@pytest.mark.parametrize("mode", ["only_3", "three_with_penalty"])
def test_rospis_beyond_the_limit(mode: str) -> None:
    # S002: "no more than three times" in these two modes.
    with pytest.raises(MatchError, match="player 1 has used all 3 forfeit"):
        settle(
            "ru-online", options={"rospis": mode}, state={"forfeits": [0, 3, 0]}, contract=120, forfeited=True
        )


@pytest.mark.parametrize("mode", ["dark", "golden"])
def test_rospis_in_dark_and_golden_deals(mode: str) -> None:
    # S002: a rospis in the dark gives each opponent 120; in the golden round it counts 120, not 60.
    new, _, _ = settle(
        "ru-online", mode=mode, golden=3 if mode == "golden" else 0, bid=120, contract=120, forfeited=True
    )
    assert new.scores == (120, -240, 120)


def test_penalty_replaces_the_formula() -> None:
    # The decision recorded in ru-online.yaml (`contract.forfeit.mode`): a penalised
    # rospis costs `penalty` instead of the declarer formula.
    form = load_ruleset("ru-classic").form(3)
    assert [forfeit_cost(form, k).kind for k in (1, 2, 3, 6)] == ["formula", "formula", "penalty", "penalty"]
    # PAGx3 (Rospisat'): the first two free, the third penalised (amount 120 assumed).
    new, _, _ = settle("ru-classic", state={"forfeits": [0, 2, 0]}, contract=120, forfeited=True)
    assert new.scores == (60, -120, 60)


def test_bomb_once_and_the_800_rule_freezes_its_bonus() -> None:
    # S003 (bombs): the forced declarer may refuse: 0 for him, 60 to each opponent, one bomb
    # each; the 800 rule also withholds the 60 from a player at 800 or more (assumed).
    new, kinds, _ = settle("cz-standard", state={"scores": [850, 0, 100]}, contract=100, forfeited=True)
    assert new.scores == (850, 0, 160) and "threshold.frozen" in kinds
    with pytest.raises(MatchError, match="used all 1 forfeit"):
        settle("cz-standard", state={"forfeits": [0, 1, 0]}, contract=100, forfeited=True)
    house, _, _ = settle(_house("bomb-twice"), state={"forfeits": [0, 1, 0]}, contract=100, forfeited=True)
    assert house.scores == (60, 0, 60)


# --------------------------------------------------------------------------- 800 rule


def test_800_rule_boundaries() -> None:
    # S004: only "after exceeding 800" — a defender at 800 still scores, at 810 not;
    # S001: from 800 on (800 included).
    kw: dict[str, Any] = {
        "card_points": {1: 80, 2: 40, 0: 0},
        "marriages": {1: 40},
        "tricks": {1: 5, 2: 3, 0: 0},
    }
    at_800, _, _ = settle("pl-online", state={"scores": [0, 0, 800]}, **kw)
    at_810, _kinds, texts = settle("pl-online", state={"scores": [0, 0, 810]}, **kw)
    hd, _, _ = settle("pl-tysiac-hd", state={"scores": [0, 0, 800]}, **kw)
    assert at_800.scores[2] == 840 and at_810.scores[2] == 810 and hd.scores[2] == 800
    assert "at 810 (the 800 rule): +40 not scored" in texts
    # The declarer above 800 scores as usual.
    declarer, _, _ = settle("pl-online", state={"scores": [0, 850, 0]}, **kw)
    assert declarer.scores[1] == 950


def test_house_without_800_rule() -> None:
    kw: dict[str, Any] = {
        "state": {"scores": [0, 0, 810]},
        "card_points": {1: 80, 2: 40, 0: 0},
        "tricks": {1: 5, 2: 3, 0: 0},
    }
    assert settle(_house("no-800"), **kw)[0].scores[2] == 850
    assert settle("pl-online", **kw)[0].scores[2] == 810


# --------------------------------------------------------------------------- finishing, winner


def test_only_the_declarer_finishes() -> None:
    # S000 (end of game): a non-declarer who would pass 1000 is written 990, or (option
    # `finish_others: no_score`) gets nothing; the declarer who makes it wins.
    kw: dict[str, Any] = {"state": {"scores": [0, 0, 980]}, "contract": 100}
    capped, kinds, texts = settle("pl-standard", **kw)
    assert capped.scores == (0, 100, 990) and capped.winner is None
    assert "only the declarer may finish: 1000 → 990" in texts
    nothing, _, _ = settle("pl-standard", options={"finish_others": "no_score"}, **kw)
    assert nothing.scores[2] == 980
    won, kinds, _ = settle("pl-standard", state={"scores": [0, 900, 980]}, contract=100)
    assert won.scores == (0, 1000, 990) and won.winner == 1 and kinds[-1] == "match.won"
    house, _, _ = settle(_house("finish-anyone"), **kw)
    assert house.scores[2] == 1000 and house.winner == 2


def test_two_crossing_the_target_declarer_wins() -> None:
    # finishing.tie: declarer (assumed; no source): the declarer wins even with the lower score
    # and the higher seat — never the lowest seat by accident.
    new, _, _ = settle(
        _house("no-800"),
        state={"scores": [990, 910, 0]},
        contract=100,
        card_points={1: 80, 2: 0, 0: 40},
        marriages={1: 40},
        tricks={1: 5, 2: 0, 0: 3},
    )
    assert new.scores == (1030, 1010, 0) and new.winner == 1


def test_tie_highest_and_continue() -> None:
    form, state = _setup(_house("no-800"))
    start = state.with_values(form, scores=[990, 910, 0])
    outcome = DealOutcome(
        declarer=1,
        bid=100,
        contract=100,
        card_points={1: 80, 2: 0, 0: 40},
        marriages={1: 40},
        tricks={1: 5, 2: 0, 0: 3},
    )
    for tie, winner in (("highest", 0), ("continue", None), ("declarer", 1)):
        finishing = dataclasses.replace(form.match.finishing, tie=tie)
        f = dataclasses.replace(form, match=dataclasses.replace(form.match, finishing=finishing))
        assert settle_deal(f, start, outcome)[0].winner == winner


def test_tie_raises_the_target() -> None:
    # examples/house/tie-raises-target.yaml (MEK house rule 57, "continuation"): two
    # defenders reach 1000 in one deal -> nobody wins, the target rises to 1500.
    form, state = _setup(_house("tie-raises-target"))
    assert form.match.finishing.tie_raise == 500 and state.target(form) == 1000
    start = state.with_values(form, scores=[900, 0, 900])
    failed = DealOutcome(
        declarer=1, bid=100, contract=100, card_points={1: 13, 2: 44, 0: 63},
        marriages={1: 40, 2: 80, 0: 60}, tricks={1: 1, 2: 3, 0: 4},
    )
    tied, events = settle_deal(form, start, failed)
    assert tied.scores == (1025, -100, 1025) and tied.winner is None
    assert tied.raised == 500 and tied.target(form) == 1500
    assert [(e.kind, e.value, e.text) for e in events][-1] == (
        "match.target", 1500, "a tie at the target: play goes on to 1500"
    )
    # The next deal: 1025 + 125 = 1150 is no win any more; 1400 + 125 = 1525 is.
    again, events = settle_deal(form, tied, failed)
    assert again.scores == (1150, -200, 1150) and again.winner is None and again.raised == 500
    assert "match.target" not in [e.kind for e in events]
    won, _ = settle_deal(form, tied.with_values(form, scores=[1400, -100, 1025]), failed)
    assert won.scores == (1525, -200, 1150) and won.winner == 0
    # Off (cz-standard's own `tie: declarer` with no declarer among them): the match goes on
    # at 1000 and the tie decides nothing.
    off = dataclasses.replace(form.match.finishing, tie_raise=0)
    f = dataclasses.replace(form, match=dataclasses.replace(form.match, finishing=off))
    kept, events = settle_deal(f, start, failed)
    assert kept.scores == (1025, -100, 1025) and kept.winner is None and kept.raised == 0
    assert "match.target" not in [e.kind for e in events]


def test_raised_target_moves_the_cap_and_the_barrel() -> None:
    # `finishing.cap` and `barrel.threshold` rise with the target: on pl-standard a
    # defender is capped at 990 + 500 = 1490; on ru-online the barrel starts at 880 + 500.
    form, state = _setup("pl-standard")
    start = dataclasses.replace(state.with_values(form, scores=[1450, 900, 0]), raised=500)
    new, _ = settle_deal(form, start, DealOutcome(
        declarer=1, bid=100, contract=100, card_points={1: 100, 2: 0, 0: 20}, tricks={1: 5, 2: 0, 0: 3},
    ))
    assert new.scores == (1470, 1000, 0) and new.winner is None
    capped, _ = settle_deal(form, dataclasses.replace(start, scores=(1480, 900, 0)), DealOutcome(
        declarer=1, bid=100, contract=100, card_points={1: 100, 2: 0, 0: 20}, tricks={1: 5, 2: 0, 0: 3},
    ))
    assert capped.scores == (1490, 1000, 0)
    form, state = _setup("ru-online")
    start = dataclasses.replace(state.with_values(form, scores=[0, 1300, 0]), raised=500)
    up, events = settle_deal(form, start, DealOutcome(
        declarer=1, bid=100, contract=100, card_points={1: 100, 2: 20, 0: 0}, tricks={1: 5, 2: 3, 0: 0},
    ))
    assert up.scores[1] == 1400 and up.barrel[1].on is True
    assert [e.value for e in events if e.kind == "barrel.enter"] == [1400]


# --------------------------------------------------------------------------- barrel


def test_barrel_three_attempts_then_fall() -> None:
    # S002 ("Бочка"): at 880 a player is on the barrel and must make 121; the first two
    # failures cost nothing; the third throws him off and costs 121.  (No auction on the
    # barrel: the deal is his, at 121.)
    kw: dict[str, Any] = {"contract": 121, "card_points": {1: 70, 2: 40, 0: 10}, "tricks": {1: 4, 2: 3, 0: 1}}
    first, _, texts = settle("ru-online", state={"scores": [0, 880, 0], "barrel": [False, True, False]}, **kw)
    assert first.scores[1] == 880 and first.barrel[1].on and first.barrel[1].attempts == 1
    assert "on the barrel: attempt 1 of 3 failed (−121 not scored)" in texts
    second, _, texts = settle("ru-online", state={"scores": [0, 880, 0], "barrel": [False, 1, False]}, **kw)
    assert second.scores[1] == 880 and "on the barrel: attempt 2 of 3 failed (−121 not scored)" in texts
    third, _kinds, texts = settle(
        "ru-online", state={"scores": [0, 880, 0], "barrel": [False, 2, False]}, **kw
    )
    assert third.scores[1] == 759 and not third.barrel[1].on
    assert "fell off the barrel −121" in texts


def test_barrel_made_wins() -> None:
    # S002: making 121 from the barrel at 880 reaches 1001, the target.
    new, _kinds, texts = settle(
        "ru-online",
        state={"scores": [0, 880, 0], "barrel": [False, True, False]},
        contract=121,
        marriages={1: 60},
    )
    assert new.scores[1] == 1001 and new.winner == 1 and "on the barrel: made 121 of 121" in texts


def test_barrel_defender_scores_nothing() -> None:
    # ru-online, barrel.defender_scores false (S002, MEK: the score on the barrel is frozen;
    # only his own contract takes him off).  Player 2, on the barrel at 880, defends and
    # takes 40 + 100 = 140 >= 121: not scored, his first failed attempt; declarer 1 makes 100
    # with 80 + 40.
    kw: dict[str, Any] = {"contract": 100, "card_points": {1: 80, 2: 40, 0: 0}, "marriages": {1: 40, 2: 100}}
    kw["tricks"] = {1: 5, 2: 3, 0: 0}
    state = {"scores": [0, 0, 880], "barrel": [False, False, True]}
    new, kinds, texts = settle("ru-online", options={"barrel_bidding": True}, state=state, **kw)
    assert new.scores == (0, 100, 880) and new.winner is None
    assert new.barrel[2].on and new.barrel[2].attempts == 1
    assert "on the barrel: attempt 1 of 3 failed (+140 as a defender not scored)" in texts
    assert "barrel.made" not in kinds
    # The third defence throws him off like any third failure: 880 - 121.
    state["barrel"] = [False, False, 2]
    third, _, texts = settle("ru-online", options={"barrel_bidding": True}, state=state, **kw)
    assert third.scores == (0, 100, 759) and not third.barrel[2].on
    assert "fell off the barrel as a defender −121" in texts
    # The default (true, as in the rulesets that do not set it): the defence makes the barrel.
    rules = load_ruleset("ru-online", options={"barrel_bidding": True})
    form = rules.form(3)
    start = MatchState.new(form, options=rules.selected, deck_points=rules.deck.total_points)
    barrel = dataclasses.replace(form.special.barrel, defender_scores=True)
    form = dataclasses.replace(form, special=dataclasses.replace(form.special, barrel=barrel))
    start = start.with_values(form, scores=[0, 0, 880], barrel=[False, False, True])
    made, events = settle_deal(form, start, DealOutcome(declarer=1, bid=100, **kw))
    assert made.scores == (0, 100, 1020) and made.winner == 2
    assert [e.text for e in events if e.kind == "barrel.made"] == ["on the barrel: made 140 of 121"]
    assert load_ruleset("pl-standard").form(3).special.barrel.defender_scores is True


def test_getting_on_the_barrel() -> None:
    # S002: at 880 or more a player sits on the barrel.
    new, _kinds, texts = settle("ru-online", state={"scores": [0, 800, 0]}, contract=100)
    assert new.scores[1] == 900 and new.barrel[1].on and "on the barrel at 900" in texts
    off, _, _ = settle("ru-online", options={"barrel": False}, state={"scores": [0, 800, 0]}, contract=100)
    assert not off.barrel[1].on


def test_barrel_bidding_own_failure_falls_at_once() -> None:
    # S002 (variation "Торговля на бочке"): failing his own contract throws him off at once;
    # he loses the contract as usual (PAGx2), 880 − 125.
    new, _, texts = settle(
        "ru-online",
        options={"barrel_bidding": True},
        state={"scores": [0, 880, 0], "barrel": [False, True, False]},
        contract=125,
        card_points={1: 70, 2: 40, 0: 10},
        tricks={1: 4, 2: 3, 0: 1},
    )
    assert new.scores[1] == 755 and "fell off the barrel (own contract failed) −125" in texts


def test_barrel_collision_all_fall() -> None:
    # S002 (variation "Слёт с бочки"): two reaching the barrel together both fall, −120 each.
    kw: dict[str, Any] = {
        "state": {"scores": [0, 800, 820]},
        "contract": 100,
        "card_points": {1: 60, 2: 60, 0: 0},
        "marriages": {1: 40},
        "tricks": {1: 4, 2: 4, 0: 0},
    }
    both, kinds, _ = settle("ru-online", options={"barrel_collision": True}, **kw)
    assert both.scores == (0, 780, 760) and kinds.count("barrel.collision") == 2
    assert not both.barrel[1].on and not both.barrel[2].on
    stay, _, _ = settle("ru-online", **kw)
    assert stay.scores == (0, 900, 880) and stay.barrel[1].on and stay.barrel[2].on


def test_house_barrel_at_900_two_attempts() -> None:
    # house-barrel-900: the second failure is the last (fall −121); under ru-online it is free.
    kw: dict[str, Any] = {
        "state": {"scores": [0, 900, 0], "barrel": [False, 1, False]},
        "contract": 121,
        "card_points": {1: 70, 2: 40, 0: 10},
        "tricks": {1: 4, 2: 3, 0: 1},
    }
    parent, _, _ = settle("ru-online", **kw)
    house, _, texts = settle(_house("barrel-900"), **kw)
    assert parent.scores[1] == 900 and house.scores[1] == 779 and "fell off the barrel −121" in texts
    entered, _, _ = settle(_house("barrel-900"), state={"scores": [0, 780, 0]}, contract=100)
    assert entered.scores[1] == 880 and not entered.barrel[1].on


def test_sitter_on_the_barrel() -> None:
    # ru-online: a sitter on the barrel still scores the prikup (assumed); PAGx3's reading
    # (house-sitter-off-barrel): he does not.
    deck = load_ruleset("ru-online").deck
    kw: dict[str, Any] = {
        "players": 4,
        "sitter": 0,
        "sitter_talon": tuple(deck.parse_many("AH TH 9H")),
        "state": {"scores": [880, 0, 0, 0], "barrel": [True, False, False, False]},
        "card_points": {1: 80, 2: 30, 3: 10},
        "tricks": {1: 4, 2: 3, 3: 1},
    }
    assert settle("ru-online", **kw)[0].scores[0] == 901
    house, kinds, _ = settle(_house("sitter-off-barrel"), **kw)
    assert house.scores[0] == 880 and "barrel.sitter" in kinds


# --------------------------------------------------------------------------- golden round


def test_golden_round_nobody_makes_it_resets() -> None:
    # S002 ("Золотой кон"): each player in turn must make 120, points doubled; if nobody
    # does in the round, the scores are reset and the golden round starts again.
    rules = load_ruleset("ru-online")
    form = rules.form(3)
    state = MatchState.new(form, options=rules.selected)
    assert state.golden_left == 3
    fail = {
        "bid": 120,
        "contract": 120,
        "mode": "golden",
        "card_points": {0: 40, 1: 40, 2: 40},
        "tricks": {0: 3, 1: 3, 2: 2},
    }
    texts: list[str] = []
    for declarer in (1, 2, 0):
        state, events = settle_deal(form, state, DealOutcome(declarer=declarer, **fail))
        texts += [e.text for e in events]
    assert state.scores == (0, 0, 0) and state.golden_left == 3
    assert "nobody made 120 in the golden round: scores reset; the golden round starts again" in texts
    # house-golden-once (MET's reading): after the reset the normal game starts.
    house = load_ruleset(_house("golden-once"))
    hform = house.form(3)
    hstate = MatchState.new(hform, options=house.selected)
    for declarer in (1, 2, 0):
        hstate, _ = settle_deal(hform, hstate, DealOutcome(declarer=declarer, **fail))
    assert hstate.scores == (0, 0, 0) and hstate.golden_left == 0


def test_golden_round_length_and_kept_scores() -> None:
    # examples/house/golden-kept.yaml (MEKH house rule 46): six golden deals; nobody makes
    # 120 in them -> the scores stand and the normal game starts.
    house = load_ruleset(_house("golden-kept"))
    form = house.form(3)
    state = MatchState.new(form, options=house.selected)
    assert state.golden_left == 6 and MatchState.new(load_ruleset("ru-online").form(3)).golden_left == 3
    fail = {"bid": 120, "contract": 120, "mode": "golden", "card_points": {0: 40, 1: 40, 2: 40},
            "tricks": {0: 3, 1: 3, 2: 2}}
    for k, declarer in enumerate((1, 2, 0, 1, 2, 0)):
        state, events = settle_deal(form, state, DealOutcome(declarer=declarer, **fail))
        assert state.golden_left == 5 - k
    # each player failed twice (-240) and defended four times (+80)
    assert state.scores == (-160, -160, -160)
    assert [(e.kind, e.text) for e in events][-1] == (
        "golden.end", "nobody made 120 in the golden round: scores kept"
    )
    # `replay`: the scores stand and the golden round starts again.
    g = dataclasses.replace(form.special.golden_round, if_nobody_makes_it="replay", deals=1)
    f = dataclasses.replace(form, special=dataclasses.replace(form.special, golden_round=g))
    again, events = settle_deal(f, MatchState.new(f, options=house.selected), DealOutcome(declarer=1, **fail))
    assert again.scores == (80, -240, 80) and again.golden_left == 1
    assert events[-1].text == "nobody made 120 in the golden round: scores kept; the golden round starts again"


def test_golden_round_made_doubles_and_ends() -> None:
    # S002: all points doubled: 120 made → +240, a defender's 40 → 80.
    rules = load_ruleset("ru-online")
    form = rules.form(3)
    state = MatchState.new(form, options=rules.selected)
    made = DealOutcome(
        declarer=1,
        bid=120,
        contract=120,
        mode="golden",
        card_points={1: 80, 2: 40, 0: 0},
        marriages={1: 40},
        tricks={1: 5, 2: 3, 0: 0},
    )
    state, _ = settle_deal(form, state, made)
    assert state.scores == (0, 240, 80) and state.golden_left == 2
    fail = DealOutcome(
        declarer=2,
        bid=120,
        contract=120,
        mode="golden",
        card_points={1: 40, 2: 40, 0: 40},
        tricks={1: 3, 2: 3, 0: 2},
    )
    state, _ = settle_deal(form, state, fail)
    state, events = settle_deal(form, state, dataclasses.replace(fail, declarer=0))
    assert state.golden_left == 0 and [e.kind for e in events][-1] == "golden.end"
    assert state.scores == (-240 + 80, 240 + 80 + 80, 80 - 240 + 80)


# --------------------------------------------------------------------------- the Game


def test_set_match_state_validates() -> None:
    game = Game(load_ruleset("ru-online"), players=3, seed=1)
    game.set_match_state(scores=[0, 870, 0], bolts=[0, 2, 0], barrel=[False, False, False], golden=0)
    assert game.scores == [0, 870, 0] and game.match.bolts == (0, 2, 0)
    assert game._env(1)["player"] == {"score": 870, "forfeits": 0, "bolts": 2, "on_barrel": False}
    with pytest.raises(MatchError, match=r"`scores` must give one value per player: 3 \(got 2\)"):
        game.set_match_state(scores=[0, 1])
    with pytest.raises(MatchError, match="unknown counter `x`; the ruleset declares: none"):
        game.set_match_state(counters={"x": [0, 0, 0]})
    with pytest.raises(MatchError, match="plays no barrel"):
        Game(load_ruleset("pl-standard"), players=3, seed=1).set_match_state(barrel=[True, False, False])
    with pytest.raises(MatchError, match=r"`dealer` must be a player 0\.\.2"):
        game.set_match_state(dealer=3)


def test_game_settles_each_deal_through_the_match() -> None:
    # A plain pl-standard match played by the rule-of-thumb bot: the deal rows add up to the
    # scores, events are recorded, and the winner has reached 1000.
    from tysiac_spec.bots import HeuristicBot

    game = Game(load_ruleset("pl-standard"), players=3, seed=4)
    bot = HeuristicBot(4, game.form)
    while not game.is_over:
        game.apply(bot.choose(game.view(game.current_player), game.legal_actions()))
    assert [sum(col) for col in zip(*game.deal_scores, strict=True)] == game.scores
    assert game.match.winner is not None and game.scores[game.match.winner] >= 1000
    assert game.match.deals == len(game.deal_scores)
    assert game.events[-1].kind == "match.won"


# --------------------------------------------------------------------------- counters, variations


def test_house_counter_and_rules() -> None:
    # house-zero-deals: a counter and two match rules, data only; pl-standard (S000) has neither.
    kw: dict[str, Any] = {"contract": 100, "card_points": {1: 100, 2: 20, 0: 0}, "tricks": {1: 5, 2: 3, 0: 0}}
    house, kinds, texts = settle(
        _house("zero-deals"), state={"scores": [300, 0, 0], "counters": {"zeros": [2, 0, 0]}}, **kw
    )
    assert house.scores == (200, 100, 20) and house.counters == {"zeros": (0, 0, 0)}
    assert kinds.count("rule.zero-deal") == 1 and "300 → 200; zeros 3 → 0 (third-zero)" in texts
    parent, _, _ = settle("pl-standard", state={"scores": [300, 0, 0]}, **kw)
    assert parent.scores == (300, 100, 20)
    with pytest.raises(MatchError, match="unknown counter `zeros`"):
        settle("pl-standard", state={"counters": {"zeros": [0, 0, 0]}}, **kw)


def _with(form: Form, section: str, part: str, **values: Any) -> Form:
    """``form`` with ``form.<section>.<part>`` fields replaced (engine paths not shipped in data)."""
    outer = getattr(form, section)
    inner = dataclasses.replace(getattr(outer, part), **values)
    return dataclasses.replace(form, **{section: dataclasses.replace(outer, **{part: inner})})


def test_exact_landing_off_lets_a_defender_land_on_1000() -> None:
    # S000 speaks only of exceeding 1000 (landing on exactly 1000 is left open): with `exact_landing: false`
    # a defender may land on exactly 1000, and wins.
    form, state = _setup("pl-standard")
    start = state.with_values(form, scores=[0, 0, 980])
    outcome = DealOutcome(
        declarer=1, bid=100, contract=100, card_points={1: 100, 2: 20, 0: 0}, tricks={1: 5, 2: 3, 0: 0}
    )
    assert settle_deal(form, start, outcome)[0].scores[2] == 990
    landed = settle_deal(_with(form, "match", "finishing", exact_landing=False), start, outcome)[0]
    assert landed.scores[2] == 1000 and landed.winner == 2


def test_lviv_barrel_has_no_attempt_limit() -> None:
    # PAGx1 (Lviv variation, ru-classic option `barrel_variant: lviv`): barrel at 900, no
    # limit on the time spent on it — the sixth failure is still free.
    new, _, texts = settle(
        "ru-classic",
        options={"barrel_variant": "lviv"},
        declarer=2,
        state={"scores": [0, 900, 0], "barrel": [False, 5, False]},
        card_points={2: 100, 1: 20, 0: 0},
        tricks={2: 5, 1: 3, 0: 0},
    )
    assert (
        new.scores[1] == 900
        and new.barrel[1].on
        and "on the barrel: attempt 6 failed (+20 not scored)" in texts
    )


def test_forfeit_on_the_barrel_falls() -> None:
    # 1XG: a forfeit on the barrel throws the player off (`barrel.forfeit_falls`).
    form, state = _setup("ru-online")
    start = state.with_values(form, scores=[0, 880, 0], barrel=[False, True, False], golden=0)
    outcome = DealOutcome(declarer=1, bid=121, contract=121, forfeited=True, players=(0, 1, 2))
    stays = settle_deal(form, start, outcome)[0]
    assert stays.scores == (60, 880, 60) and stays.barrel[1] == start.barrel[1].__class__(True, 1)
    falls = settle_deal(_with(form, "special", "barrel", forfeit_falls=True), start, outcome)[0]
    assert falls.scores == (60, 759, 60) and not falls.barrel[1].on


@pytest.mark.parametrize(
    ("collision", "expected"),
    [
        ("last_stays", (0, 760, 900)),
        ("first_stays", (0, 880, 780)),
        ("everyone_falls", (0, 760, 780)),
        ("all_fall", (0, 880, 900)),
    ],
)
def test_barrel_collision_modes(collision: str, expected: tuple[int, ...]) -> None:
    # Player 1 already on the barrel; player 2 gets on: the earlier one falls (last_stays) or
    # the newcomer (first_stays), −120 (S002's collision penalty); both (everyone_falls, MEKH
    # house rule 48); nobody under `all_fall`, which takes players reaching it together.
    form, state = _setup("ru-online")
    start = state.with_values(form, scores=[0, 880, 800], barrel=[False, True, False], golden=0)
    outcome = DealOutcome(
        declarer=2, bid=100, contract=100, card_points={2: 100, 1: 20, 0: 0}, tricks={2: 5, 1: 3, 0: 0}
    )
    # (the barrel bid for: player 2 may declare while player 1 sits on it)
    new = settle_deal(_with(form, "special", "barrel", collision=collision, bidding="allowed"), start, outcome)[0]
    assert new.scores == expected


def test_every_third_fall_resets_the_score() -> None:
    # examples/house/barrel-falls.yaml (`barrel.falls_reset: 3`, MEKH house rule 50): falls are
    # counted over the match; the third sets the score to 0 and the count starts again.
    form, state = _setup(_house("barrel-falls"))
    failed = DealOutcome(
        declarer=1, bid=121, contract=121, card_points={1: 6, 2: 49, 0: 65},
        marriages={1: 40, 2: 80}, tricks={1: 1, 2: 3, 0: 4},
    )
    start = state.with_values(form, scores=[0, 900, 0], barrel=[False, 2, False], golden=0)
    first, events = settle_deal(form, start, failed)
    assert first.scores == (65, 779, 129) and first.falls == (0, 1, 0)
    assert [e.kind for e in events] == ["contract.failed", "barrel.fall"]
    third, events = settle_deal(form, start.with_values(form, falls=[0, 2, 0]), failed)
    assert third.scores == (65, 0, 129) and third.falls == (0, 0, 0) and not third.barrel[1].on
    assert (events[-1].kind, events[-1].player, events[-1].value, events[-1].text) == (
        "barrel.reset", 1, 0, "fell off the barrel: fall 3 of 3, score reset to 0"
    )
    # A collision counts as a fall too: player 2's third fall is a reset, player 1's first
    # costs the collision penalty.
    meet = start.with_values(form, scores=[0, 880, 800], barrel=[False, True, False], falls=[0, 0, 2])
    bid_for = _with(form, "special", "barrel", bidding="allowed")  # (player 2 declares)
    both, events = settle_deal(bid_for, meet, DealOutcome(
        declarer=2, bid=100, contract=100, card_points={2: 100, 1: 20, 0: 0}, tricks={2: 5, 1: 3, 0: 0}
    ))
    assert both.scores == (0, 760, 0) and both.falls == (0, 1, 0)
    assert [(e.kind, e.player) for e in events][-2:] == [("barrel.collision", 1), ("barrel.reset", 2)]
    # Off (ru-online): no count is kept, and a count cannot be set.
    plain, state = _setup("ru-online")
    assert settle_deal(plain, state.with_values(plain, scores=[0, 900, 0], barrel=[False, 2, False],
                                                golden=0), failed)[0].falls == ()
    with pytest.raises(MatchError, match="counts no falls from the barrel"):
        state.with_values(plain, falls=[0, 0, 0])
    with pytest.raises(MatchError, match=r"`falls` values must be 0\.\.2 \(got 3\)"):
        start.with_values(form, falls=[0, 3, 0])


def test_settle_deal_is_pure_and_stops_after_the_winner() -> None:
    form, state = _setup("pl-standard")
    start = state.with_values(form, scores=[0, 900, 0])
    outcome = DealOutcome(
        declarer=1, bid=100, contract=100, card_points={1: 100, 2: 20, 0: 0}, tricks={1: 5, 2: 3, 0: 0}
    )
    won, _ = settle_deal(form, start, outcome)
    assert start.scores == (0, 900, 0) and start.deals == 0 and start.winner is None
    assert won.winner == 1 and won.deals == 1 and won.dealer == 1
    with pytest.raises(MatchError, match=r"the match is over \(player 1 won\)"):
        settle_deal(form, won, outcome)


def test_set_match_state_only_before_the_first_action() -> None:
    game = Game(load_ruleset("pl-standard"), players=3, seed=3)
    game.apply(game.legal_actions()[0])
    with pytest.raises(MatchError, match="only be set before the deal's first action"):
        game.set_match_state(scores=[0, 0, 0])


def test_a_loss_at_minus_the_target_ends_the_match() -> None:
    # examples/house/reverse-barrel.yaml (MEK house rule 54): player 1, held at -880, fails 120
    # and reaches -1000: he loses, the match ends and the highest score (player 0) wins.
    form, state = _setup(_house("reverse-barrel"))
    assert form.match.finishing.loss == -1000
    failed = DealOutcome(
        declarer=1, bid=120, contract=120, card_points={1: 13, 2: 44, 0: 63},
        marriages={1: 40, 2: 80, 0: 60}, tricks={1: 1, 2: 3, 0: 4},
    )
    start = state.with_values(form, scores=[300, -880, 200], counters={"reverse": [0, 1, 0]})
    lost, events = settle_deal(form, start, failed)
    assert lost.scores == (425, -1000, 325) and lost.winner == 0 and lost.is_over
    assert [(e.kind, e.player, e.value) for e in events][-2:] == [("match.lost", 1, -1000), ("match.won", 0, 425)]
    # equal highest scores, the declarer not among them: the first seat (0)
    tied, _ = settle_deal(form, start.with_values(form, scores=[300, -880, 300]), failed)
    assert tied.scores == (425, -1000, 425) and tied.winner == 0
    # off: the same deal leaves the match going at -1000
    off = _with(form, "match", "finishing", loss=None)
    kept, events = settle_deal(off, start, failed)
    assert kept.scores == (425, -1000, 325) and kept.winner is None
    assert "match.lost" not in [e.kind for e in events]


@pytest.mark.parametrize(("multiplier", "bolts"), [(4, 2), (2, 1)])
def test_golden_deal_played_dark_bolt_counts_the_larger(multiplier: int, bolts: int) -> None:
    # examples/house/golden-dark.yaml: a golden deal (bolt_count 1) declared dark (ru-online's
    # dark bolt_count 2, x2 on the golden x2): a bolt counts the larger, 2 (MEKH rule 65, "never
    # more than 2 if both doublings apply"); the golden deal not declared dark (x2) counts 1
    new, _, texts = settle(
        str(HOUSE / "golden-dark.yaml"), options={"golden_round": True, "dark_game": True, "bolts": True},
        golden=1, mode="golden", multiplier=multiplier, contract=120, card_points={1: 120, 2: 0, 0: 0},
        tricks={1: 6, 2: 2, 0: 0},
    )
    assert new.bolts == (bolts, 0, 0)  # player 0: no point; player 2 won 2 tricks
    extra = ", counts 2" if bolts == 2 else ""
    assert f"bolt (no trick{extra}): {bolts} in all" in texts


def test_match_state_fields_in_the_order_settlement_gives_them() -> None:
    # settle_valid_deal builds the new MatchState with its fields by position (cheaper than by
    # name): a field added or moved must be added there in its place too.
    assert [f.name for f in dataclasses.fields(MatchState) if f.init] == [
        "scores", "counters", "barrel", "forfeits", "bolts", "dealer", "deals", "winner",
        "golden_left", "golden_made", "raised", "falls", "options", "deck_points",
    ]


def test_match_rule_answers_kept_by_the_record() -> None:
    # A rule's `when` that reads only the player record (samosval: `player.score in [555,
    # -555]`) answers again from the answer kept for the same record values; the rule fires
    # each time it should.
    from tysiac_spec.engine.compiled import compile_form

    rules = load_ruleset("ru-online")
    form = rules.form(3)
    kept = compile_form(form, rules.deck.cards).settlement.rules[0][3]
    kept.clear()  # (the form is shared with other tests: their answers are kept too)
    start = MatchState.new(form, options=rules.selected).with_values(form, scores=[0, 435, 0])
    outcome = DealOutcome(declarer=1, bid=120, contract=120, card_points={1: 100, 2: 20, 0: 0},
                          marriages={1: 40}, tricks={1: 5, 2: 3, 0: 0})
    for _ in range(2):
        new, events = settle_deal(form, start, outcome)
        assert new.scores == (0, 0, 20) and [e.text for e in events if e.kind == "rule.samosval"] == ["555 → 0 (samosval)"]
    assert kept == {(0, 0, 1, False): False, (555, 0, 0, False): True, (20, 0, 0, False): False}
