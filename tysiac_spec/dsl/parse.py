"""Parse formula text into the syntax tree of :mod:`.nodes`.

The grammar (``grammar.lark``) is LALR(1).  Syntax errors become a
:class:`~tysiac_spec.errors.DslError` with code ``dsl.syntax`` naming the
unexpected text and what was expected there, at the exact column; over-long
formulas (``dsl.too-large``) and over-deep nesting (``dsl.too-deep``) are
rejected before any recursive processing.
"""

from __future__ import annotations

from functools import cache, lru_cache
from importlib.resources import files
from typing import Any

from lark import Lark, Token, Transformer, Tree, UnexpectedInput, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedToken, VisitError

from ..errors import DslError
from .nodes import (
    Assign,
    Attr,
    Binary,
    BoolLit,
    Call,
    Expr,
    If,
    InList,
    IntLit,
    Keyword,
    Name,
    Origin,
    Span,
    Stmt,
    StrLit,
    Target,
    Unary,
    dsl_error,
)

__all__ = ["MAX_DEPTH", "MAX_LENGTH", "grammar_text", "parse_effects", "parse_expression"]

MAX_LENGTH = 2000
"""The longest formula accepted, in characters."""

MAX_DEPTH = 50
"""The deepest nesting of operations accepted."""

_STARTS = ("expression", "effects")


def grammar_text() -> str:
    """The grammar in lark's notation."""
    return files(__package__).joinpath("grammar.lark").read_text(encoding="utf-8")


_OPTIONS: dict[str, Any] = {
    "parser": "lalr",
    "start": list(_STARTS),
    "propagate_positions": True,
    "maybe_placeholders": True,
}
"""lark's options for the formula parser (part of :func:`grammar_key`)."""


def grammar_key() -> str:
    """SHA-256 of the grammar, the parser's options and lark's version: the parse table in
    :mod:`._table` is used only while its key is this one."""
    import hashlib

    import lark

    text = f"{grammar_text()}\n{sorted(_OPTIONS.items())!r}\n{lark.__version__}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def build_parser() -> Lark:
    """The formula parser built from the grammar (lark's LALR(1) analysis: about 0.1 s)."""
    return Lark(grammar_text(), **_OPTIONS)


def parse_table(parser: Lark) -> dict[str, Any]:
    """``parser``'s LALR(1) table as plain data (dicts, lists, tuples, strings, numbers),
    the form :mod:`._table` keeps and lark's ``Lark._load`` reads."""
    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    data, memo = parser.memo_serialize([TerminalDef, Rule])
    return {"data": data, "memo": memo}


@cache
def _parser() -> Lark:
    """The formula parser: from the checked-in table when its key matches (a few
    milliseconds), else built from the grammar (``tests/test_dsl_table.py`` fails until the
    table is written again: ``python -c 'from tysiac_spec.dsl.parse import write_table; write_table()'``)."""
    from . import _table

    if _table.KEY == grammar_key():
        parser: Lark = Lark.__new__(Lark)._load(_table.TABLE)
        return parser
    return build_parser()


def parse_expression(text: str, origin: Origin | None = None) -> Expr:
    """Parse one formula (an expression).

    Args:
        text: the formula, e.g. ``120 + marriages(hand)``.
        origin: where the text starts in its file, for error positions.

    Raises:
        DslError: ``dsl.syntax``, ``dsl.too-large`` or ``dsl.too-deep``.
    """
    result = _parse(text, "expression", origin or Origin())
    assert isinstance(result, Expr)
    return result


def parse_effects(text: str, origin: Origin | None = None) -> tuple[Stmt, ...]:
    """Parse effects: assignments separated by ``;`` (``delta = 0; player.bolts += 1``).

    Raises:
        DslError: ``dsl.syntax``, ``dsl.too-large`` or ``dsl.too-deep``.
    """
    result = _parse(text, "effects", origin or Origin())
    assert isinstance(result, tuple)
    return result


def _position(text: str, offset: int) -> Span:
    """The span of the single character at ``offset``."""
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return Span(line, column, line, column + 1, offset, offset + 1)


@lru_cache(maxsize=4096)
def _parse(text: str, start: str, origin: Origin) -> Expr | tuple[Stmt, ...]:
    """The syntax tree of ``text`` (cached: the tree is immutable, and a ruleset compiles the
    same formula, at the same place, for each player count and each option value)."""
    if len(text) > MAX_LENGTH:
        raise dsl_error(
            origin,
            "dsl.too-large",
            f"the formula is {len(text)} characters long; the limit is {MAX_LENGTH}",
            _position(text, MAX_LENGTH),
        )
    if not text.strip():
        what = "an expression" if start == "expression" else "a statement"
        raise dsl_error(
            origin, "dsl.syntax", f"the formula is empty; expected {what}", _position(text, 0)
        )
    try:
        tree = _parser().parse(text, start=start)
    except UnexpectedInput as exc:
        raise _syntax_error(text, start, origin, exc) from None
    _check_depth(tree, origin)
    try:
        result: Expr | tuple[Stmt, ...] = _ToAst(origin).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, DslError):
            raise exc.orig_exc from None
        raise
    return result


_NOT_NESTING = frozenset({"expression", "effects", "items", "args", "target"})


def _check_depth(tree: Tree[Any], origin: Origin) -> None:
    stack: list[tuple[Tree[Any], int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if node.data not in _NOT_NESTING:
            depth += 1
            if depth > MAX_DEPTH:
                raise dsl_error(
                    origin,
                    "dsl.too-deep",
                    f"the formula nests more than {MAX_DEPTH} operations deep; simplify it",
                    _span(node.meta),
                )
        for child in node.children:
            if isinstance(child, Tree):
                stack.append((child, depth))


# --- syntax errors -------------------------------------------------------------------

_STARTERS = frozenset({"INT", "NAME", "STRING", "LPAR", "MINUS", "NOT", "IF", "TRUE", "FALSE"})
_OPERATORS = frozenset({"PLUS", "MINUS", "TIMES", "COMPARE", "AND", "OR", "IN", "NOT", "DOT"})
_DESCRIBE = {
    "NAME": "a name",
    "INT": "a number",
    "STRING": "a string",
    "COMPARE": "a comparison",
    "AUG_ASSIGN": "`+=` or `-=`",
    "TIMES": "`*`, `//` or `%`",
    "$END": "the end of the formula",
}
_HINTS = {
    "/": "divide with `//` (whole numbers; the result is rounded down)",
    "&": "write `and`",
    "|": "write `or`",
    "!": "write `not`, or `!=` for 'differs from'",
    "=": "compare with `==`; `=` only assigns, in effects",
    "**": "there is no power operator; multiply with `*`",
    "^": "there is no power operator; multiply with `*`",
}


def _expected(accepts: set[str]) -> str:
    items: list[str] = []
    rest = set(accepts)
    after_operand = "PLUS" in rest and "TIMES" in rest
    if after_operand:
        rest -= _OPERATORS
        rest.discard("LPAR")
        items.append("an operator")
    elif {"INT", "NAME", "LPAR"} <= rest:
        rest -= _STARTERS
        items.append("an expression")
    end = "$END" in rest
    rest.discard("$END")
    for name in sorted(rest, key=_describe_terminal):
        items.append(_describe_terminal(name))
    if end:
        items.append(_DESCRIBE["$END"])
    if not items:
        return "nothing more"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " or " + items[-1]


def _describe_terminal(name: str) -> str:
    if name in _DESCRIBE:
        return _DESCRIBE[name]
    for term in _parser().terminals:
        if term.name == name and term.pattern.type == "str":
            return f"`{term.pattern.value}`"
    return name.lower()


def _accepts(text: str, start: str, offset: int) -> set[str]:
    try:
        interactive: Any = _parser().parse_interactive(text[:offset], start=start)
        interactive.exhaust_lexer()
        return set(interactive.accepts())
    except UnexpectedInput:
        return set()


def _syntax_error(text: str, start: str, origin: Origin, exc: UnexpectedInput) -> DslError:
    offset = exc.pos_in_stream if exc.pos_in_stream is not None else len(text)
    if isinstance(exc, UnexpectedToken) and exc.token.type == "$END":
        offset = len(text.rstrip())
        found = "end of formula"
        snippet = ""
    elif isinstance(exc, UnexpectedCharacters):
        snippet = text[offset]
        found = f"character `{snippet}`"
    else:
        assert isinstance(exc, UnexpectedToken)
        snippet = str(exc.token.value)
        found = f"`{snippet}`"
    accepts = _accepts(text, start, offset)
    message = f"unexpected {found}; expected {_expected(accepts)}"
    hint = _HINTS.get(text[offset : offset + 2]) or _HINTS.get(snippet[:1]) if snippet else None
    if hint is None and snippet.isdigit() and text[:offset].endswith("."):
        hint = "numbers are whole points; there are no decimals"
    if hint is None and text[offset - 1 : offset + 1] == "**":
        hint = _HINTS["**"]
    if hint is None and snippet in {"==", "!=", "<", "<=", ">", ">=", "in"}:
        hint = "comparisons do not chain: write `a < b and b < c`"
    return dsl_error(origin, "dsl.syntax", message, _position(text, offset), hint=hint)


# --- tree -> AST ---------------------------------------------------------------------


def _span(meta: Any) -> Span:
    if getattr(meta, "empty", True):
        return Span()
    return Span(
        meta.line, meta.column, meta.end_line, meta.end_column, meta.start_pos, meta.end_pos
    )


def _token_span(token: Token) -> Span:
    return Span(
        token.line or 1,
        token.column or 1,
        token.end_line or 1,
        token.end_column or 1,
        token.start_pos or 0,
        token.end_pos or 0,
    )


@v_args(meta=True)
class _ToAst(Transformer[Token, Any]):
    """Builds :mod:`.nodes` from lark's parse tree."""

    def __init__(self, origin: Origin) -> None:
        super().__init__()
        self.origin = origin

    def expression(self, meta: Any, children: list[Any]) -> Expr:
        result: Expr = children[0]
        return result

    def effects(self, meta: Any, children: list[Any]) -> tuple[Stmt, ...]:
        return tuple(c for c in children if c is not None)

    def assign(self, meta: Any, children: list[Any]) -> Assign:
        return Assign(children[0], "=", children[1], span=_span(meta))

    def aug_assign(self, meta: Any, children: list[Any]) -> Assign:
        return Assign(children[0], str(children[1]), children[2], span=_span(meta))

    def target(self, meta: Any, children: list[Any]) -> Target:
        return Target(tuple(str(c) for c in children), span=_span(meta))

    def if_expr(self, meta: Any, children: list[Any]) -> If:
        return If(children[0], children[1], children[2], span=_span(meta))

    def or_op(self, meta: Any, children: list[Any]) -> Binary:
        return Binary("or", children[0], children[1], span=_span(meta))

    def and_op(self, meta: Any, children: list[Any]) -> Binary:
        return Binary("and", children[0], children[1], span=_span(meta))

    def not_op(self, meta: Any, children: list[Any]) -> Unary:
        return Unary("not", children[0], span=_span(meta))

    def compare(self, meta: Any, children: list[Any]) -> Binary:
        return Binary(str(children[1]), children[0], children[2], span=_span(meta))

    binary = compare

    def in_list(self, meta: Any, children: list[Any]) -> InList:
        return InList(children[0], children[1], span=_span(meta))

    def not_in_list(self, meta: Any, children: list[Any]) -> InList:
        return InList(children[0], children[1], negated=True, span=_span(meta))

    def items(self, meta: Any, children: list[Any]) -> tuple[Expr, ...]:
        return tuple(c for c in children if c is not None)

    def neg(self, meta: Any, children: list[Any]) -> Unary:
        return Unary("-", children[1], span=_span(meta))

    def int_lit(self, meta: Any, children: list[Any]) -> IntLit:
        return IntLit(int(children[0]), span=_span(meta))

    def true_lit(self, meta: Any, children: list[Any]) -> BoolLit:
        return BoolLit(True, span=_span(meta))

    def false_lit(self, meta: Any, children: list[Any]) -> BoolLit:
        return BoolLit(False, span=_span(meta))

    def str_lit(self, meta: Any, children: list[Any]) -> StrLit:
        return StrLit(str(children[0])[1:-1], span=_span(meta))

    def name(self, meta: Any, children: list[Any]) -> Name:
        return Name(str(children[0]), span=_span(meta))

    def attr(self, meta: Any, children: list[Any]) -> Attr:
        return Attr(children[0], str(children[1]), span=_span(meta))

    def keyword(self, meta: Any, children: list[Any]) -> Keyword:
        return Keyword(str(children[0]), children[1], span=_span(meta))

    def args(self, meta: Any, children: list[Any]) -> list[Any]:
        return [c for c in children if c is not None]

    def call(self, meta: Any, children: list[Any]) -> Call:
        name: Token = children[0]
        items: list[Any] = children[1] or []
        args: list[Expr] = []
        keywords: list[Keyword] = []
        for item in items:
            if isinstance(item, Keyword):
                keywords.append(item)
            elif keywords:
                raise dsl_error(
                    self.origin,
                    "dsl.syntax",
                    f"a positional argument of `{name}` follows the keyword "
                    f"argument `{keywords[-1].name}`",
                    item.span,
                )
            else:
                args.append(item)
        return Call(str(name), tuple(args), tuple(keywords), span=_span(meta))


def write_table() -> str:
    """Write :mod:`._table` from the grammar; returns its path.  (The table's state numbers
    differ from one build to the next: ``tests/test_dsl_table.py`` compares what the two
    parsers do, not their tables.)"""
    import pprint
    from pathlib import Path

    path = Path(__file__).with_name("_table.py")
    body = pprint.pformat(parse_table(build_parser()), width=108, compact=True)
    text = (
        '"""The formula parser\'s LALR(1) table, generated from ``grammar.lark`` by\n'
        "``tysiac_spec.dsl.parse.write_table()``: do not edit.  :func:`.parse._parser` uses it\n"
        'while :data:`KEY` is the grammar\'s key, and builds the parser otherwise."""\n\n'
        "# ruff: noqa\n"
        "from typing import Any\n\n"
        f"KEY = {grammar_key()!r}\n\n"
        f"TABLE: dict[str, Any] = {body}\n"
    )
    temp = path.with_suffix(".tmp")
    temp.write_text(text, encoding="utf-8")
    temp.replace(path)
    return str(path)
