"""Run the data cases of tests/cases/dsl.yaml against the rules DSL."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from tysiac_spec.dsl import (
    BOOL,
    INT,
    ChoiceType,
    ContextExtension,
    DeckInfo,
    Origin,
    Type,
    compile_effects,
    compile_formula,
)
from tysiac_spec.errors import DslError

CASES_FILE = Path(__file__).parent / "cases" / "dsl.yaml"
DATA = yaml.load(CASES_FILE.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))

RANKS = {"9": "nine", "J": "jack", "Q": "queen", "K": "king", "T": "ten", "A": "ace"}
SUITS = {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts"}


@dataclass(frozen=True, slots=True)
class Card:
    """A stand-in card: the DSL reads only ``.rank`` and ``.suit`` (ids)."""

    rank: str
    suit: str


def cards(text: str) -> list[Card]:
    return [Card(RANKS[c[0]], SUITS[c[1]]) for c in text.split()]


def deck() -> DeckInfo:
    d = DATA["deck"]
    return DeckInfo(
        d["rank_points"], d["marriage_values"], tuple(d["suits"]), tuple(d["ranks"]),
        tuple(d["marriage_ranks"]),
    )


def extension() -> ContextExtension:
    options: dict[str, Type] = {}
    for name, spec in DATA["extension"]["options"].items():
        options[name] = {"bool": BOOL, "int": INT}.get(spec) if isinstance(spec, str) else None
        if isinstance(spec, list):
            options[name] = ChoiceType(tuple(spec))
    counters: dict[str, Type] = {name: INT for name in DATA["extension"]["counters"]}
    return ContextExtension(options=options, counters=counters)


DECK = deck()
EXTENSION = extension()
CARD_NAMES = {"hand", "talon"}


def env_of(raw: dict[str, Any] | None) -> dict[str, Any]:
    env = dict(raw or {})
    for name in CARD_NAMES & env.keys():
        env[name] = cards(env[name])
    return env


def case_id(case: dict[str, Any]) -> str:
    text = case.get("expr") or case.get("effects") or "repeat"
    return f"{case.get('context', DATA['default_context'])}: {text}"[:80]


def formula_text(case: dict[str, Any]) -> str:
    if "expr_repeat" in case:
        rep = case["expr_repeat"]
        return str(rep["text"] * rep["times"] + rep["then"])
    return str(case.get("expr", case.get("effects")))


def assert_diagnostic(error: DslError, want: dict[str, Any]) -> None:
    diag = error.diagnostic
    assert (diag.code, diag.message, diag.column) == (want["code"], want["message"], want["column"])
    assert diag.line == want.get("line", 1)


@pytest.mark.parametrize("case", DATA["cases"], ids=case_id)
def test_case(case: dict[str, Any]) -> None:
    context = case.get("context", DATA["default_context"])
    origin = Origin("rules.yaml", **case["origin"]) if "origin" in case else None
    text = formula_text(case)
    compile_ = compile_effects if "effects" in case else compile_formula
    if "error" in case:
        with pytest.raises(DslError) as caught:
            compile_(text, context, deck=DECK, origin=origin, extra=EXTENSION)
        assert_diagnostic(caught.value, case["error"])
        return
    compiled = compile_(text, context, deck=DECK, origin=origin, extra=EXTENSION)
    env = env_of(case.get("env"))
    if "runtime" in case:
        with pytest.raises(DslError) as caught:
            compiled(env)
        assert_diagnostic(caught.value, case["runtime"])
        return
    result = compiled(env)
    assert result == case["value"]
    assert type(result) is type(case["value"])


def test_there_are_enough_cases() -> None:
    assert len(DATA["cases"]) >= 100
