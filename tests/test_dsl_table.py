"""The formula parser's checked-in LALR(1) table (``tysiac_spec/dsl/_table.py``) is the
grammar's: its key is the grammar's, and the parser read from it does what a parser built
from the grammar does, on every formula of the shipped rulesets and test data and on broken
ones (the same trees, the same error positions and expectations)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from lark import Lark, UnexpectedInput

from tysiac_spec.dsl import _table, parse

ROOT = Path(__file__).resolve().parents[1]


def _strings(node: object) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [s for value in node.values() for s in _strings(value)]
    if isinstance(node, list):
        return [s for value in node for s in _strings(value)]
    return []


def _formulas() -> list[tuple[str, str]]:
    """``(start, text)`` of every string in the rulesets and test data that the built parser
    takes as an expression or as effects."""
    built = parse.build_parser()
    found: set[tuple[str, str]] = set()
    for path in sorted([*ROOT.glob("rulesets/**/*.yaml"), *ROOT.glob("tests/data/**/*.yaml")]):
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (yaml.YAMLError, UnicodeDecodeError):
            continue
        for text in _strings(data):
            for start in ("expression", "effects"):
                try:
                    built.parse(text, start=start)
                except UnexpectedInput:
                    continue
                found.add((start, text))
    return sorted(found)


def test_the_checked_in_table_is_the_grammars() -> None:
    assert _table.KEY == parse.grammar_key(), (
        "grammar.lark, the parser's options or lark changed: write the table again with "
        "`python -c 'from tysiac_spec.dsl.parse import write_table; write_table()'`"
    )


def test_the_parser_is_read_from_the_table_not_built() -> None:
    parse._parser.cache_clear()
    try:
        assert parse._parser().source_path == "<deserialized>"
    finally:
        parse._parser.cache_clear()


@pytest.fixture(scope="module")
def parsers() -> tuple[Lark, Lark]:
    return Lark.__new__(Lark)._load(_table.TABLE), parse.build_parser()


@pytest.mark.slow  # about 2 s of CPU (quick-loop budget, issue 25)
def test_both_parsers_give_the_same_tree_for_every_shipped_formula(parsers: tuple[Lark, Lark]) -> None:
    table, built = parsers
    formulas = _formulas()
    assert len(formulas) > 300  # (every ruleset's formulas, conditions and effects)
    for start, text in formulas:
        assert table.parse(text, start=start) == built.parse(text, start=start), text


BROKEN = [
    ("expression", "1 +"),
    ("expression", "max(bid, "),
    ("expression", "bid >= 120 and"),
    ("expression", "if bid then 1"),
    ("expression", "round(points / 10) * 10 )"),
    ("expression", "player.score in [1, 2"),
    ("effects", "delta = 0;; player.bolts += 1"),
    ("effects", "player.bolts +="),
    ("expression", "@"),
    ("expression", '"unterminated'),
]


@pytest.mark.parametrize(("start", "text"), BROKEN)
def test_both_parsers_refuse_a_broken_formula_at_the_same_place(
    parsers: tuple[Lark, Lark], start: str, text: str
) -> None:
    answers = []
    for parser in parsers:
        with pytest.raises(UnexpectedInput) as caught:
            parser.parse(text, start=start)
        exc = caught.value
        answers.append((type(exc).__name__, exc.line, exc.column, sorted(getattr(exc, "expected", ()) or ())))
    assert answers[0] == answers[1]
