"""The syntax tree of the rules DSL, and where a formula sits in its file.

Nodes are frozen, slotted dataclasses.  Each carries a :class:`Span` (its place
inside the formula text); spans never take part in equality, so two trees
compare equal when they mean the same formula, however it was spaced.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import Diagnostic, DslError

__all__ = [
    "Assign",
    "Attr",
    "Binary",
    "BoolLit",
    "Call",
    "Expr",
    "If",
    "InList",
    "IntLit",
    "Keyword",
    "Name",
    "Node",
    "Origin",
    "Span",
    "Stmt",
    "StrLit",
    "Target",
    "Unary",
    "dsl_error",
]


@dataclass(frozen=True, slots=True)
class Span:
    """A stretch of formula text: 1-based line and column of the first and the last
    character (end is exclusive), and 0-based character offsets ``start``/``end``."""

    line: int = 1
    column: int = 1
    end_line: int = 1
    end_column: int = 1
    start: int = 0
    end: int = 0


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a formula's text starts in its file, so errors point into the YAML scalar.

    Attributes:
        file: the file name, or ``None`` for a formula given through the API.
        line: 1-based line of the formula's first character.
        column: 1-based column of the formula's first character.
        path: the place in the ruleset holding the formula, e.g. ``("auction", "max_bid")``.
    """

    file: str | None = None
    line: int = 1
    column: int = 1
    path: tuple[str | int, ...] = ()

    def locate(self, line: int, column: int) -> tuple[int, int]:
        """File line and column of the formula's ``line``:``column`` (both 1-based).

        Exact for single-line plain or quoted scalars and for block scalars
        (whose lines share one indentation); best effort for folded plain scalars.
        """
        return self.line + line - 1, self.column + column - 1

    def diagnostic(
        self, code: str, message: str, span: Span | None, *, hint: str | None = None
    ) -> Diagnostic:
        """A :class:`Diagnostic` for ``span`` (the formula start when ``None``)."""
        line, column = self.locate(span.line, span.column) if span else (self.line, self.column)
        return Diagnostic(
            code=code,
            message=message,
            file=self.file,
            line=line,
            column=column,
            path=self.path,
            hint=hint,
        )


def dsl_error(
    origin: Origin | None, code: str, message: str, span: Span | None, *, hint: str | None = None
) -> DslError:
    """A :class:`DslError` with one diagnostic at ``span`` of a formula starting at ``origin``."""
    return DslError((origin or Origin()).diagnostic(code, message, span, hint=hint))


_NOSPAN = Span()


@dataclass(frozen=True, slots=True)
class Node:
    """Base of every syntax-tree node; ``span`` is ignored by ``==``."""

    span: Span = field(default=_NOSPAN, compare=False, repr=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class Expr(Node):
    """Base of the expression nodes."""


@dataclass(frozen=True, slots=True)
class IntLit(Expr):
    """An integer literal (non-negative; ``-5`` is :class:`Unary` minus of ``5``)."""

    value: int


@dataclass(frozen=True, slots=True)
class BoolLit(Expr):
    """``true`` or ``false``."""

    value: bool


@dataclass(frozen=True, slots=True)
class StrLit(Expr):
    """A string literal such as ``"down"`` (an option's choice or a keyword value)."""

    value: str


@dataclass(frozen=True, slots=True)
class Name(Expr):
    """A name: a value of the context (``hand``) or a suit or rank (``hearts``, ``ace``)."""

    name: str


@dataclass(frozen=True, slots=True)
class Attr(Expr):
    """A field of a record: ``player.score``."""

    value: Expr
    attr: str


@dataclass(frozen=True, slots=True)
class Unary(Expr):
    """``-x`` (op ``"-"``) or ``not x`` (op ``"not"``)."""

    op: str
    operand: Expr


@dataclass(frozen=True, slots=True)
class Binary(Expr):
    """A binary operation: ``+ - * // %``, comparisons, ``and``, ``or``."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class InList(Expr):
    """``x in [a, b]`` (or ``x not in [a, b]`` when ``negated``)."""

    value: Expr
    items: tuple[Expr, ...]
    negated: bool = False


@dataclass(frozen=True, slots=True)
class If(Expr):
    """``if cond then then_ else else_``."""

    cond: Expr
    then: Expr
    else_: Expr


@dataclass(frozen=True, slots=True)
class Keyword(Node):
    """A keyword argument in a call: ``half="down"``."""

    name: str
    value: Expr


@dataclass(frozen=True, slots=True)
class Call(Expr):
    """A call to a library function: ``round_to(x, 10, half="down")``."""

    func: str
    args: tuple[Expr, ...] = ()
    keywords: tuple[Keyword, ...] = ()


@dataclass(frozen=True, slots=True)
class Target(Node):
    """The left side of an assignment: ``delta`` or ``player.bolts``."""

    parts: tuple[str, ...]

    @property
    def dotted(self) -> str:
        """The target as text: ``player.bolts``."""
        return ".".join(self.parts)


@dataclass(frozen=True, slots=True)
class Stmt(Node):
    """Base of the statement nodes (effects)."""


@dataclass(frozen=True, slots=True)
class Assign(Stmt):
    """``target = value``, ``target += value`` or ``target -= value`` (op ``=``/``+=``/``-=``)."""

    target: Target
    op: str
    value: Expr
