"""Ruleset formulas are compiled with the DSL at load time, in their declared contexts."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tysiac_spec import RulesetError, load_ruleset
from tysiac_spec.cards import Deck
from tysiac_spec.dsl import CONTEXTS
from tysiac_spec.ruleset import Formula
from tysiac_spec.ruleset._schema import formula_sites
from tysiac_spec.ruleset.registry import entries

TABLE = Path(__file__).parent / "data" / "table.yaml"


def test_every_formula_site_has_a_dsl_context() -> None:
    for site, context in formula_sites().items():
        assert context.split(":")[0] in CONTEXTS, site


def _formulas(obj: object) -> list[Formula]:
    found: list[Formula] = []
    if isinstance(obj, Formula):
        return [obj]
    if dataclasses.is_dataclass(obj):
        for f in dataclasses.fields(obj):
            found += _formulas(getattr(obj, f.name))
    elif isinstance(obj, tuple):
        for item in obj:
            found += _formulas(item)
    return found


@pytest.mark.parametrize("ruleset_id", [e.id for e in entries()])
def test_every_shipped_formula_is_compiled(ruleset_id: str) -> None:
    rules = load_ruleset(ruleset_id)
    for form in rules.forms.values():
        for formula in _formulas(form):
            assert formula.compiled is not None, formula


def test_bid_cap_from_pl_standard_in_points() -> None:
    # S000: the usual limit is 120 plus the marriages held; e.g. 180 with the clubs marriage
    rules = load_ruleset("pl-standard")
    cap = rules.form(3).auction.max_bid
    assert cap is not None
    hand = rules.deck.parse_many("KC QC AS TS 9H JH 9D")
    env = {"hand": hand, "player": {"score": 0}, "players": 3, "options": dict(rules.selected)}
    assert cap(env) == 180
    hearts_and_diamonds = rules.deck.parse_many("KH QH KD QD AS TS 9C")
    assert cap({**env, "hand": hearts_and_diamonds}) == 300
    assert cap.render("en") == "120 plus the value of the marriages in the hand"


def test_declarer_fails_147_against_150_in_pl_standard() -> None:
    # S000: no rounding before the check — 147 points against a contract of 150 fails
    form = load_ruleset("pl-standard").form(3)
    env = {"points": 147, "card_points": 147, "marriages": 0, "contract": 150, "tricks": 5,
           "players": 3, "options": {"five_rounds": "down"}, "player": {"score": 0}}
    made = form.scoring.made(env)
    assert made is False
    assert form.scoring.declarer({**env, "made": made}) == -150


@pytest.mark.parametrize(("points", "rounded"), [(24, 20), (25, 20), (26, 30)])
def test_defenders_round_to_tens_five_down_in_pl_standard(points: int, rounded: int) -> None:
    # S000: 24 and 25 -> 20, 26 -> 30 (a 5 rounds down by default)
    form = load_ruleset("pl-standard").form(3)
    env = {"points": points, "card_points": points, "marriages": 0, "tricks": 2, "contract": 100,
           "players": 3, "options": {"five_rounds": "down"}, "player": {"score": 0}}
    assert form.scoring.defender(env) == rounded


def test_formula_errors_point_into_the_yaml(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        TABLE.read_text(encoding="utf-8")
        .replace("extends: core", f"extends: {Path('rulesets/core.yaml').resolve()}")
        .replace("max_bid: 120 + marriages(hand)", "max_bid: 120 + marriage(hand)")
        .replace("made: points >= contract", "made: points >= contrakt"),
        encoding="utf-8",
    )
    with pytest.raises(RulesetError) as info:
        load_ruleset(bad)
    assert [d.headline() for d in info.value.diagnostics] == [
        f"{bad}:17:18: error[dsl.unknown-function]: unknown function `marriage`; did you mean `marriages`?",
        f"{bad}:20:19: error[dsl.unknown-name]: unknown name `contrakt`; did you mean `contract`?",
    ]


def test_forms_with_equal_deck_facts_share_one_compile_scope() -> None:
    from tysiac_spec import dsl
    from tysiac_spec.ruleset._convert import FormulaCompiler

    rules = load_ruleset("pl-standard")

    def facts() -> dsl.DeckInfo:
        return dsl.DeckInfo.of(rules.deck, marriage_values={}, marriage_ranks=("king", "queen"))
    extra = dsl.ContextExtension(options={"o": dsl.ChoiceType(("a", "b"))})
    first = FormulaCompiler(facts(), extra)._scope
    again = FormulaCompiler(facts(), dsl.ContextExtension(options={"o": dsl.ChoiceType(("a", "b"))}))
    assert again._scope is first  # the compiled formulas and section models are found by identity
    other = FormulaCompiler(facts(), dsl.ContextExtension(options={"o": dsl.ChoiceType(("a", "c"))}))
    assert other._scope != first
    other_pack = dataclasses.replace(facts(), pack=Deck(rules.deck.suits, rules.deck.ranks).cards)
    assert FormulaCompiler(other_pack, extra)._scope != first
