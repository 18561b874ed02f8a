"""Property tests for the rules DSL, with inputs generated from its own grammar."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark
from test_dsl_cases import DECK, EXTENSION, cards

from tysiac_spec.dsl import (
    BOOL,
    INT,
    LANGUAGES,
    Context,
    DeckInfo,
    Expr,
    NameSpec,
    compile_effects,
    compile_formula,
    effects_to_text,
    parse_effects,
    parse_expression,
    to_text,
    to_words,
)
from tysiac_spec.dsl.bounds import LIMIT
from tysiac_spec.dsl.nodes import Binary, BoolLit, Call, If, InList, IntLit, Name, StrLit, Unary
from tysiac_spec.dsl.parse import grammar_text
from tysiac_spec.errors import DslError

GRAMMAR = Lark(grammar_text(), parser="lalr", start=["expression", "effects"])
NAMES = [
    "bid", "high_bid", "players", "forced", "hand", "player", "score", "bolts", "options",
    "five_rounds", "barrel", "hearts", "spades", "ace", "king", "min", "max", "abs",
    "round_to", "round_up", "count", "points", "marriages", "has_marriage", "len", "half", "x",
]  # fmt: skip
KEYWORDS = ["if", "then", "else", "or", "and", "not", "in", "true", "false"]
EXPLICIT = {
    "NAME": st.sampled_from(NAMES).map(lambda n: f" {n} "),
    "INT": st.integers(0, 200).map(lambda n: f" {n} "),
    "STRING": st.sampled_from(['"down"', '"up"', "'even'", '"x"']),
    **{k.upper(): st.just(f" {k} ") for k in KEYWORDS},
}
EXPRESSIONS = from_lark(GRAMMAR, start="expression", explicit=EXPLICIT)
EFFECTS = from_lark(GRAMMAR, start="effects", explicit=EXPLICIT)
# Drawing from the grammar is slow (~0.3 s an example), so each grammar-driven test
# checks several properties of the same inputs.
SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck))

ENV: dict[str, Any] = {
    "bid": 120,
    "high_bid": 110,
    "players": 3,
    "forced": False,
    "hand": cards("KH QH AS TS 9C JD QD"),
    "player": {"score": 240, "bolts": 1, "barrels": 0},
    "options": {"five_rounds": "down", "barrel": True, "barrel_limit": 880},
}


@pytest.mark.slow
@SETTINGS
@given(EXPRESSIONS)
def test_grammar_inputs_raise_only_dsl_errors_and_round_trip(text: str) -> None:
    try:
        tree = parse_expression(text)
    except DslError:
        return
    printed = to_text(tree)
    assert parse_expression(printed) == tree
    assert to_text(parse_expression(printed)) == printed
    for lang in LANGUAGES:
        assert to_words(tree, lang)
    for context in ("auction.may_bid", "auction.max_bid"):
        try:
            formula = compile_formula(text, context, deck=DECK, extra=EXTENSION)
        except DslError:
            continue
        try:
            value = formula(ENV)
        except DslError as exc:
            assert exc.diagnostic.code == "dsl.runtime"
            continue
        assert type(value) is (bool if context == "auction.may_bid" else int)


@SETTINGS
@given(st.text(max_size=60))
def test_any_text_raises_only_dsl_errors(text: str) -> None:
    try:
        compile_formula(text, "auction.may_bid", deck=DECK, extra=EXTENSION)
    except DslError as exc:
        assert exc.diagnostic.line is not None and exc.diagnostic.column is not None


@pytest.mark.slow
@SETTINGS
@given(EFFECTS)
def test_effects_raise_only_dsl_errors_and_round_trip(text: str) -> None:
    try:
        stmts = parse_effects(text)
    except DslError:
        return
    assert parse_effects(effects_to_text(stmts)) == stmts
    try:
        effects = compile_effects(text, "match.rule", deck=DECK, extra=EXTENSION)
    except DslError:
        return
    env = {"player": dict(ENV["player"]), "delta": 10, "made": True, "declarer": False}
    env |= {"contract": 120, "tricks": 3, "forfeited": False, "target": 1000, "players": 3}
    env["options"] = ENV["options"]
    try:
        result = effects(env)
    except DslError as exc:
        assert exc.diagnostic.code == "dsl.runtime"
        return
    assert all(type(v) is int for v in result.values())


# --- compiled closures agree with a plain reference interpreter ----------------------

_ARITH = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "//": lambda a, b: a // b,
    "%": lambda a, b: a % b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
}


class OutOfRange(Exception):
    """The reference interpreter computed an int outside the DSL's range."""


def in_range(value: Any) -> Any:
    if type(value) is int and not -LIMIT <= value <= LIMIT:
        raise OutOfRange(value)
    return value


def reference(node: Expr, env: dict[str, Any]) -> Any:
    """Evaluate ``node`` naively (ints, bools and names only); every int it computes must
    be within the DSL's range (:data:`tysiac_spec.dsl.bounds.LIMIT`), else ``OutOfRange``."""
    if isinstance(node, IntLit | BoolLit | StrLit):
        return in_range(node.value)
    if isinstance(node, Name):
        return env[node.name]
    if isinstance(node, Unary):
        value = reference(node.operand, env)
        return -value if node.op == "-" else not value
    if isinstance(node, Binary):
        left = reference(node.left, env)
        if node.op == "and":
            return left and reference(node.right, env)
        if node.op == "or":
            return left or reference(node.right, env)
        return in_range(_ARITH[node.op](left, reference(node.right, env)))
    if isinstance(node, If):
        branch = node.then if reference(node.cond, env) else node.else_
        return reference(branch, env)
    if isinstance(node, InList):
        found = reference(node.value, env) in [reference(i, env) for i in node.items]
        return found != node.negated
    if isinstance(node, Call) and node.func in ("min", "max", "abs"):
        fn = {"min": min, "max": max, "abs": abs}[node.func]
        return fn(*[reference(a, env) for a in node.args])
    raise NotImplementedError(node)


ARITHMETIC = Context(
    id="test.arithmetic",
    description="A test context with a few int and bool names.",
    result=INT,
    names=tuple(
        NameSpec(name, typ, name)
        for name, typ in (("bid", INT), ("players", INT), ("high_bid", INT), ("forced", BOOL))
    ),
)
INT_ATOMS = st.one_of(st.integers(0, 30).map(str), st.sampled_from(["bid", "players", "high_bid"]))
BOOL_ATOMS = st.sampled_from(["true", "false", "forced"])


def int_exprs() -> st.SearchStrategy[str]:
    return st.recursive(
        INT_ATOMS,
        lambda inner: st.one_of(
            st.tuples(inner, st.sampled_from(["+", "-", "*", "//", "%"]), inner).map(
                lambda t: f"({t[0]} {t[1]} {t[2]})"
            ),
            inner.map(lambda e: f"-{e}"),
            st.tuples(bool_exprs(inner), inner, inner).map(
                lambda t: f"(if {t[0]} then {t[1]} else {t[2]})"
            ),
            st.lists(inner, min_size=2, max_size=3).map(lambda xs: f"max({', '.join(xs)})"),
            st.lists(inner, min_size=2, max_size=3).map(lambda xs: f"min({', '.join(xs)})"),
            inner.map(lambda e: f"abs({e})"),
        ),
        max_leaves=12,
    )


def bool_exprs(ints: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    compare = st.tuples(ints, st.sampled_from(["<", "<=", ">", ">=", "==", "!="]), ints).map(
        lambda t: f"({t[0]} {t[1]} {t[2]})"
    )
    member = st.tuples(ints, st.lists(ints, min_size=1, max_size=3), st.booleans()).map(
        lambda t: f"({t[0]} {'not in' if t[2] else 'in'} [{', '.join(t[1])}])"
    )
    base = st.one_of(BOOL_ATOMS, compare, member)
    return st.recursive(
        base,
        lambda inner: st.one_of(
            st.tuples(inner, st.sampled_from(["and", "or"]), inner).map(
                lambda t: f"({t[0]} {t[1]} {t[2]})"
            ),
            inner.map(lambda e: f"(not {e})"),
        ),
        max_leaves=4,
    )


@settings(max_examples=300, deadline=None)
@given(int_exprs(), st.integers(-50, 300), st.integers(-3, 5), st.booleans())
def test_compiled_matches_reference(text: str, bid: int, players: int, forced: bool) -> None:
    """The compiled formula gives the reference value, or a ``dsl.runtime`` error exactly when
    the reference divides by zero or computes an int out of range; a formula refused when
    compiled has a constant fault (``1 // 0``, ``0 % (3 - 3)``), which the reference meets
    only when that branch is taken."""
    env = {"bid": bid, "players": players, "high_bid": 100, "forced": forced}
    tree = parse_expression(text)
    try:
        expected: Any = reference(tree, env)
    except (ZeroDivisionError, OutOfRange) as exc:
        expected = type(exc)
    try:
        cap = compile_formula(text, ARITHMETIC, deck=DECK)
    except DslError as exc:
        assert exc.diagnostic.code in ("dsl.division-by-zero", "dsl.out-of-range")
        return
    if expected in (ZeroDivisionError, OutOfRange):
        with pytest.raises(DslError) as caught:
            cap(env)
        assert caught.value.diagnostic.code == "dsl.runtime"
        word = "by zero" if expected is ZeroDivisionError else "outside the range"
        assert word in caught.value.diagnostic.message
        return
    assert cap(env) == expected
    assert cap.evaluate(env) == expected


@settings(max_examples=100, deadline=None)
@given(int_exprs())
def test_refused_constants_are_constant_faults(text: str) -> None:
    """A formula the checker refuses for its values holds a constant sub-expression that
    divides by zero or leaves the range, whatever the environment."""
    try:
        compile_formula(text, ARITHMETIC, deck=DECK)
    except DslError as exc:
        assert exc.diagnostic.code in ("dsl.division-by-zero", "dsl.out-of-range")
        tree = parse_expression(text)
        assert any(_constant_fault(node) for node in _walk(tree))


def _walk(node: Expr) -> list[Expr]:
    children: list[Expr] = []
    if isinstance(node, Unary):
        children = [node.operand]
    elif isinstance(node, Binary):
        children = [node.left, node.right]
    elif isinstance(node, If):
        children = [node.cond, node.then, node.else_]
    elif isinstance(node, InList):
        children = [node.value, *node.items]
    elif isinstance(node, Call):
        children = list(node.args)
    return [node, *(n for c in children for n in _walk(c))]


def _constant_fault(node: Expr) -> bool:
    """Whether ``node`` divides by a constant 0, or faults when evaluated without any name
    (a name makes it not constant)."""
    try:
        if isinstance(node, Binary) and node.op in ("//", "%") and reference(node.right, {}) == 0:
            return True
    except (ZeroDivisionError, OutOfRange, KeyError):
        pass
    try:
        reference(node, {})
    except (ZeroDivisionError, OutOfRange):
        return True
    except KeyError:
        return False
    return False


@given(picks=st.lists(st.integers(min_value=0, max_value=23), unique=True, max_size=12))
def test_marriages_on_the_packs_bits_match_the_card_by_card_count(picks: list[int]) -> None:
    """With the pack's cards (``DeckInfo.of(deck)``) the marriages of a hand of them are
    counted on bit sets; the value is the one counted card by card (a hand from outside the
    pack)."""
    from tysiac_spec import load_ruleset
    from tysiac_spec.cards import Deck

    deck = load_ruleset("pl-standard").deck
    pack = deck.cards
    bits_deck = DeckInfo.of(deck, marriage_values=DECK.marriage_values, marriage_ranks=DECK.marriage_ranks)
    hand = tuple(pack[i] for i in picks)
    by_bits = compile_formula("marriages(hand)", "auction.max_bid", deck=bits_deck, extra=EXTENSION)
    by_cards = compile_formula("marriages(hand)", "auction.max_bid", deck=DECK, extra=EXTENSION)
    env = {"hand": hand, "player": {"score": 0}, "players": 3, "options": {}}
    expected = sum(
        DECK.marriage_values[s]
        for s in DECK.marriage_values
        if any(c.rank.id == "king" and c.suit.id == s for c in hand)
        and any(c.rank.id == "queen" and c.suit.id == s for c in hand)
    )
    assert by_bits(env) == by_cards(env) == expected
    outside = tuple(cards(" ".join(str(c) for c in hand)))  # cards without bits: counted card by card
    assert by_bits({**env, "hand": outside}) == expected
    # a pack laid out otherwise (suits in another order): its bits are not this pack's
    other = Deck(tuple(reversed(deck.suits)), deck.ranks)
    moved = tuple(other.parse(str(c)) for c in hand)
    assert by_bits({**env, "hand": moved}) == expected
