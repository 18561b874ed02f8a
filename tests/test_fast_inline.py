"""The engine's rules the fast path writes inline (``fast.generate.INLINED``): each is one
expression of its parameters, inlined into the generated code, and the engine's own
callers give the values it states."""

from __future__ import annotations

import ast

import pytest

from tysiac_spec import load_ruleset
from tysiac_spec.engine.play import takes, trick_winner
from tysiac_spec.engine.state import DealState
from tysiac_spec.fast import generate as gen


def _source(ruleset: str, players: int) -> str:
    rules = load_ruleset(ruleset)
    return ast.unparse(gen.generate(rules.form(players), tuple(rules.deck.cards)))


def test_every_inlined_rule_leaves_no_call_in_the_generated_code() -> None:
    src = _source("pl-standard", 3)
    assert "I_" not in src
    assert "if c < best if bit & best_suit else bit & trump != 0:" in src


def test_a_function_of_more_than_one_expression_is_refused() -> None:
    def two(a: int) -> int:
        b = a + 1
        return b

    def reads_global(a: int) -> int:
        return a + len("x")

    with pytest.raises(AssertionError, match="not one return expression"):
        gen._inline_body(two)
    with pytest.raises(AssertionError, match=r"reads \['len'\]"):
        gen._inline_body(reads_global)


def test_takes_states_the_trick_winner() -> None:
    # hearts at bits 0-5 (ace first), spades at 6-11: the stronger card has the lower index
    hearts, spades = 0b111111, 0b111111 << 6
    assert takes(0, 1, 2, hearts, 0) is True  # a higher card of the suit led
    assert takes(3, 1 << 3, 2, hearts, 0) is False  # a lower one
    assert takes(9, 1 << 9, 0, hearts, spades) is True  # a trump on the suit led
    assert takes(9, 1 << 9, 0, hearts, 0) is False  # another suit, no trump
    assert takes(9, 1 << 9, 7, spades, spades) is False  # a lower trump on a trump


def test_trick_winner_reads_takes_on_a_real_trick() -> None:
    rules = load_ruleset("pl-standard")
    by = {str(c): c for c in rules.deck.cards}
    deal = DealState(dealer=0, order=[1, 2, 0], sitter=None, hands={0: [], 1: [], 2: []}, talons=[],
                     dealt_talon=(), deck_points=120)
    deal.trick = [(1, by["KH"]), (2, by["AH"]), (0, by["9S"])]
    assert trick_winner(deal) == 2
    deal.trump = "spades"
    assert trick_winner(deal) == 0
    deal.trick = [(1, by["KH"]), (2, by["JS"]), (0, by["AS"])]
    assert trick_winner(deal) == 0
