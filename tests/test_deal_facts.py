"""The played deal's facts in the scoring contexts (issue 14, group 1): ``won``,
``last_trick``, ``declared``, ``others_points``, ``declarer_points``, ``mode`` and the
defender's ``made``.  Built only when a scoring formula of the form reads them
(:attr:`Formula.reads <tysiac_spec.ruleset.model.Formula.reads>`); the house examples
``examples/house/last-trick-ten.yaml`` and ``deal-mode-scoring.yaml`` use them, and their
scenario files (``examples/house/scenarios/``) hold the deals with the sources' values."""

from __future__ import annotations

from pathlib import Path

import pytest
from _quick import sample

from tysiac_spec import load_ruleset
from tysiac_spec.dsl.contexts import DEAL_FACTS
from tysiac_spec.dsl.parse import parse_expression
from tysiac_spec.dsl.render import to_words
from tysiac_spec.engine import Game, parse_action
from tysiac_spec.engine import env as envs
from tysiac_spec.engine.scoring import (
    DealOutcome,
    deal_facts,
    facts_read,
    outcome_of,
    scores_and_made,
    seat_after,
)
from tysiac_spec.errors import MatchError
from tysiac_spec.ruleset.model import Form
from tysiac_spec.scenarios import load_scenarios, run_file

HOUSE = Path(__file__).parent.parent / "examples" / "house"
LAST_TRICK = HOUSE / "last-trick-ten.yaml"
MODE = HOUSE / "deal-mode-scoring.yaml"


def _form(ref: str | Path) -> tuple[Form, dict[str, object]]:
    game = Game(load_ruleset(ref), players=3, seed=0)
    return game.form, dict(game.ruleset.selected)


def _scores(ref: str | Path, outcome: DealOutcome) -> tuple[dict[int, int], bool]:
    form, options = _form(ref)
    return scores_and_made(form, outcome, lambda p: envs.player_record(0, 0, 0, False), options)


# S000's deal (rulesets/scenarios/house-five-up.yaml): player 1 plays 150 with 67 card
# points and the diamond marriage (80) = 147; player 0 has 25, player 2 has 28.
S000_DEAL = DealOutcome(
    declarer=1, bid=100, contract=150,
    card_points={0: 25, 1: 67, 2: 28}, marriages={1: 80}, tricks={0: 2, 1: 4, 2: 2},
    won={0: (), 1: (), 2: ()}, last_trick=1, declarations=((1, "diamonds"),), players=(0, 1, 2),
)


def test_a_formula_knows_the_names_it_reads() -> None:
    form, _ = _form(LAST_TRICK)
    assert form.scoring.made.reads == {"points", "last_trick", "contract"}
    assert form.scoring.defender.reads == {"points", "last_trick", "options"}
    assert form.scoring.declarer.reads == {"made", "contract"}


@pytest.mark.parametrize(
    ("ref", "facts"),
    [("pl-standard", set()), ("ru-online", set()), (LAST_TRICK, {"last_trick"}), (MODE, {"mode"})],
)
def test_only_the_facts_a_form_reads_are_built(ref: str | Path, facts: set[str]) -> None:
    form, _ = _form(ref)
    assert facts_read(form) == facts


def test_the_last_trick_makes_the_contract_only_in_the_house() -> None:
    assert _scores("pl-standard", S000_DEAL) == ({0: 20, 1: -150, 2: 30}, False)
    assert _scores(LAST_TRICK, S000_DEAL) == ({0: 20, 1: 150, 2: 30}, True)


def test_a_defender_with_the_last_trick_adds_ten_before_rounding() -> None:
    outcome = DealOutcome(
        declarer=2, bid=110, contract=110, card_points={0: 45, 1: 24, 2: 51}, marriages={2: 80},
        won={0: (), 1: (), 2: ()}, last_trick=0, declarations=((2, "diamonds"),),
        players=(0, 1, 2),
    )
    assert _scores("pl-standard", outcome)[0] == {0: 40, 1: 20, 2: 110}
    assert _scores(LAST_TRICK, outcome)[0] == {0: 50, 1: 20, 2: 110}


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        # golden: card points and the contract double, marriages do not (M1)
        ("golden", {0: 130, 1: -240, 2: 178}),
        # dark: only the declarer's result doubles
        ("dark", {0: 65, 1: -240, 2: 129}),
        ("normal", {0: 65, 1: -120, 2: 129}),
    ],
)
def test_the_deal_mode_in_the_formulas(mode: str, expected: dict[int, int]) -> None:
    outcome = DealOutcome(
        declarer=1, bid=120, contract=120, card_points={0: 65, 1: 6, 2: 49},
        marriages={1: 40, 2: 80}, mode=mode,  # type: ignore[arg-type]
        multiplier=1, players=(0, 1, 2),
    )
    assert _scores(MODE, outcome) == (expected, False)


def test_deal_facts_values() -> None:
    form, _ = _form("pl-standard")
    deck = load_ruleset("pl-standard").deck
    # player 0 declared hearts (100) and spades (40); player 1 won the queen of hearts
    won = {0: deck.parse_many("AH TH KH"), 1: deck.parse_many("9S JS QH"), 2: deck.parse_many("AC")}
    outcome = DealOutcome(
        declarer=1, bid=100, contract=100, card_points={0: 25, 1: 5, 2: 11},
        marriages={0: 140}, won=won, last_trick=0,
        declarations=((0, "hearts"), (0, "spades")), mode="golden", players=(0, 1, 2),
        tricks={0: 1, 1: 1, 2: 1}, dealer=2,
    )
    assert deal_facts(form, outcome, 0, (0, 1, 2), frozenset(DEAL_FACTS)) == {
        "won": won[0], "last_trick": True, "declared": 2, "drowned": 100, "others_points": 16,
        "declarer_points": 5, "seat": 2, "mode": "golden", "others_tricks": 2,
        "top_bid": 100, "player_seat": 0, "dealer_seat": 2, "declarer_seat": 1,
    }
    assert deal_facts(form, outcome, 2, (0, 1, 2), frozenset({"others_points", "last_trick", "seat"})) == {
        "others_points": 170, "last_trick": False, "seat": 1,
    }
    # the ace marriage is never drowned
    aces = DealOutcome(
        declarer=0, bid=100, contract=100, card_points={0: 25}, marriages={0: 200},
        won={0: (), 1: deck.parse_many("AH AD")}, declarations=((0, "ace"),), players=(0, 1, 2),
    )
    assert deal_facts(form, aces, 0, (0, 1, 2), frozenset({"drowned", "declared"})) == {
        "drowned": 0, "declared": 1,
    }


def test_a_record_without_the_fact_a_formula_reads_is_refused() -> None:
    outcome = DealOutcome(
        declarer=1, bid=100, contract=150, card_points={0: 25, 1: 67, 2: 28}, marriages={1: 80},
    )
    with pytest.raises(MatchError) as caught:
        _scores(LAST_TRICK, outcome)
    assert caught.value.diagnostic.code == "match.outcome"
    assert caught.value.diagnostic.message == (
        "the ruleset's scoring formulas read `last_trick`, which this deal's record does not give"
    )
    # a form that reads no fact needs none of them
    assert _scores("pl-standard", outcome) == ({0: 20, 1: -150, 2: 30}, False)


def test_a_played_deal_records_the_facts() -> None:
    game = Game(load_ruleset(LAST_TRICK), players=3, seed=0)
    game.start_deal(
        hands={1: "AH KH AD KD QD 9C QS", 2: "TH QH 9H TD JD AC AS", 0: "9D KC QC JC TS JS 9S"},
        talons=["JH TC KS"], dealer=0,
    )
    for text in ["bid 100", "pass", "pass", "give 9C to 2", "give JH to 0", "contract 150",
                 "play KD marriage", "play TD", "play 9D", "play AS", "play 9S", "play QS"]:
        game.apply(parse_action(text, game.ruleset.deck))
    deal = game.deal
    outcome = outcome_of(deal)
    assert outcome.declarations == ((1, "diamonds"),)
    assert outcome.last_trick == 2
    assert game.ruleset.deck.format(outcome.won[2] if outcome.won else ()) == "KD TD 9D AS 9S QS"


@pytest.mark.parametrize("path", sample(sorted((HOUSE / "scenarios").glob("*.yaml")), every=6, ids=lambda p: p.stem))
def test_house_example_scenarios_pass(path: Path) -> None:
    # as `tysiac check examples/house/<x>.yaml` runs examples/house/scenarios/<x>.yaml
    results = list(run_file(load_scenarios(path, ruleset=load_ruleset(HOUSE / path.name))))
    assert results and all(r.passed for r in results), [r.explain() for r in results if not r.passed]


DROWNED = HOUSE / "drowned-marriage.yaml"


def test_a_defender_scores_twenty_per_king_and_queen_won() -> None:
    deck = load_ruleset("pl-standard").deck
    # player 1 declares hearts (100) and keeps it; player 0 wins KD QD and KC QC (20 + 20);
    # player 2 wins only the queen of spades
    won = {
        0: deck.parse_many("KD QD 9D KC QC 9C JD"),  # 4 + 3 + 4 + 3 + 2 = 16
        1: deck.parse_many("AH TH KH QH AD TD AC TC AS KS JH"),
        2: deck.parse_many("QS 9S JS JC TS 9H"),
    }
    outcome = DealOutcome(
        declarer=1, bid=100, contract=120, card_points={0: 16, 1: 87, 2: 17}, marriages={1: 100},
        won=won, last_trick=1, declarations=((1, "hearts"),), players=(0, 1, 2),
    )
    assert _scores("pl-standard", outcome) == ({0: 20, 1: 120, 2: 20}, True)
    assert _scores(DROWNED, outcome) == ({0: 60, 1: 120, 2: 20}, True)


def test_a_marriage_loses_its_value_when_its_king_is_won_by_another() -> None:
    deck = load_ruleset("pl-standard").deck
    won = {
        0: deck.parse_many("KH AH 9H"),  # player 0 took the led king of hearts with the ace
        1: deck.parse_many("QH TH JH AD TD AC TC AS TS"),
        2: deck.parse_many("KD QD"),
    }
    outcome = DealOutcome(
        declarer=1, bid=100, contract=160, card_points={0: 15, 1: 78, 2: 7}, marriages={1: 100},
        won=won, last_trick=1, declarations=((1, "hearts"),), players=(0, 1, 2),
    )
    # 78 + 100 = 178 makes 160 in the standard game; drowned, 78 does not
    assert _scores("pl-standard", outcome) == ({0: 10, 1: 160, 2: 10}, True)
    # player 2 won the king and the queen of diamonds: 7 → 10, and 20
    assert _scores(DROWNED, outcome) == ({0: 10, 1: -160, 2: 30}, False)


@pytest.mark.parametrize(
    ("direction", "players", "declarer", "sitter", "seats"),
    [
        ("clockwise", 3, 1, None, {1: 0, 2: 1, 0: 2}),
        ("clockwise", 4, 3, 0, {3: 0, 1: 1, 2: 2}),  # the sitter 0 is skipped
        ("counterclockwise", 3, 1, None, {1: 0, 0: 1, 2: 2}),
    ],
)
def test_a_defender_seat_counts_from_the_declarer(
    tmp_path: Path, direction: str, players: int, declarer: int, sitter: int | None,
    seats: dict[int, int],
) -> None:
    house = tmp_path / "turned.yaml"
    house.write_text(
        f"id: turned\nkind: house\nextends: pl-standard\nname: {{en: turned}}\n"
        f"deal:\n  direction: {direction}\n",
        encoding="utf-8",
    )
    form = Game(load_ruleset(house), players=players, seed=0).form
    active = tuple(p for p in range(players) if p != sitter)
    outcome = DealOutcome(declarer=declarer, bid=100, contract=100, sitter=sitter, players=active)
    assert {p: seat_after(form, outcome, p) for p in active} == seats


def test_a_redeal_condition_reads_the_winning_bid() -> None:
    ruleset = load_ruleset(HOUSE / "redeal-bad-talon-at-100.yaml")
    (redeal,) = Game(ruleset, players=3, seed=0).form.deal.redeals
    assert redeal.when.reads == {"talon", "bid"}
    base = envs.base(envs.player_record(0, 0, 0, False), 3, ruleset.selected)
    talon = ruleset.deck.parse_many("JH 9C 9H")
    assert redeal.when(envs.deal_redeal(base, (), talon, 100, 0)) is True
    assert redeal.when(envs.deal_redeal(base, (), talon, 110, 0)) is False
    assert redeal.when(envs.deal_redeal(base, (), ruleset.deck.parse_many("JH 9C KH"), 100, 0)) is False


@pytest.mark.parametrize("lang", ["en", "pl", "ru", "cs"])
def test_the_deal_facts_have_words_in_every_language(lang: str) -> None:
    for name in DEAL_FACTS:
        words = to_words(parse_expression(name), lang)
        assert "`" not in words and words != name, (name, words)
    assert to_words(parse_expression("not last_trick"), "en") == "the side did not take the last trick"
    assert to_words(parse_expression("count(won, king)"), "pl") == "liczba króli we wziętych kartach"
