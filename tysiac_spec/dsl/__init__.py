"""The rules DSL: a small, checked, compiled expression language for ruleset formulas.

Pipeline: ``grammar.lark`` -> :mod:`.parse` (syntax tree with spans) -> :mod:`.check`
(names and types per :mod:`.contexts`, constant faults) -> :mod:`.compile` (closures, with
range checks where a value could leave :mod:`.bounds`' range) ->
:mod:`.render` (canonical text, natural language) and :mod:`.reference` (docs/dsl.md).

Typical use by a host::

    deck = DeckInfo.of(ruleset.deck, marriage_values={"hearts": 100, ...},
                       marriage_ranks=("king", "queen"))   # the view of a cards.Deck
    cap = compile_formula("120 + marriages(hand)", "auction.max_bid", deck=deck,
                          origin=Origin("pl.yaml", 12, 14, ("auction", "max_bid")))
    cap({"hand": cards, "player": {"score": 0}, "players": 3, "options": {}})
"""

from typing import TYPE_CHECKING, Any

from .check import Checked, check_effects, check_expression
from .compile import CompiledEffects, CompiledFormula, compile_effects, compile_formula
from .contexts import CONTEXTS, Context, ContextExtension, NameSpec, get_context
from .library import FUNCTIONS, NO_TRUMP, DeckInfo, FunctionSpec, MarriageValue, marriage_env
from .nodes import Expr, Origin, Span, Stmt
from .parse import MAX_DEPTH, MAX_LENGTH, parse_effects, parse_expression
from .types import (
    BOOL,
    CARDS,
    INT,
    RANK,
    SUIT,
    BoolType,
    CardsType,
    ChoiceType,
    FieldSpec,
    IntType,
    RankType,
    RecordType,
    SuitType,
    Type,
)

if TYPE_CHECKING:
    from .render import LANGUAGES, effects_to_text, effects_to_words, to_text, to_words

_RENDER = ("LANGUAGES", "effects_to_text", "effects_to_words", "to_text", "to_words")


def __getattr__(name: str) -> Any:
    """The names of :mod:`.render`, imported on first use (loading a ruleset needs none)."""
    if name in _RENDER:
        from . import render

        return getattr(render, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "BOOL",
    "CARDS",
    "CONTEXTS",
    "FUNCTIONS",
    "INT",
    "LANGUAGES",
    "MAX_DEPTH",
    "MAX_LENGTH",
    "NO_TRUMP",
    "RANK",
    "SUIT",
    "BoolType",
    "CardsType",
    "Checked",
    "ChoiceType",
    "CompiledEffects",
    "CompiledFormula",
    "Context",
    "ContextExtension",
    "DeckInfo",
    "Expr",
    "FieldSpec",
    "FunctionSpec",
    "IntType",
    "MarriageValue",
    "NameSpec",
    "Origin",
    "RankType",
    "RecordType",
    "Span",
    "Stmt",
    "SuitType",
    "Type",
    "check_effects",
    "check_expression",
    "compile_effects",
    "compile_formula",
    "effects_to_text",
    "effects_to_words",
    "get_context",
    "marriage_env",
    "parse_effects",
    "parse_expression",
    "to_text",
    "to_words",
]
