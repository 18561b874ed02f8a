"""Compile a checked formula to Python closures, and the objects hosts call.

:func:`compile_formula` gives a :class:`CompiledFormula`, :func:`compile_effects` a
:class:`CompiledEffects`: the DSL's side of a formula.  A ruleset's formulas are
:class:`tysiac_spec.ruleset.model.Formula` values (the one formula type a user meets), which
carry one of these as ``Formula.compiled``.  Either object is evaluated one way: call it
with an environment, or call its :attr:`~CompiledFormula.evaluate` closure (the same
function without the method call, for hot loops); both raise
:class:`~tysiac_spec.errors.DslError` (``dsl.runtime``, at file:line:col) for a run-time
fault or a name missing from the environment.

Each node becomes a small closure specialised to its shape (a name lookup, an
operation with a constant side, a call of a known arity); constant
sub-expressions are folded at compile time.  An operation whose value could leave the
range of DSL numbers (:mod:`.bounds`), judged from the largest magnitudes of its
operands, is wrapped in a range check; the others run unchecked.  Nothing here uses
``eval``/``exec``,
reads attributes of run-time values (only the card functions in
:mod:`.library` read ``.suit``/``.rank``), or loops over formula input.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from operator import itemgetter
from typing import Any

from ..errors import DslError
from ..text import shorten
from .bounds import LIMIT, RANGE_TEXT, number_text
from .check import Checked, check_effects, check_expression
from .contexts import Context, ContextExtension, get_context
from .library import FUNCTIONS, DeckInfo, Fault
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
    Name,
    Node,
    Origin,
    Stmt,
    StrLit,
    Unary,
    dsl_error,
)
from .parse import parse_effects, parse_expression
from .types import IntType, Type

__all__ = ["CompiledEffects", "CompiledFormula", "Env", "compile_effects", "compile_formula", "names_read"]

Env = Mapping[str, Any]
Fn = Callable[[Env], Any]


@dataclass(frozen=True, slots=True)
class _Piece:
    """A compiled node: its closure, and its value when it is a constant."""

    fn: Fn
    const: bool = False
    value: Any = None


def _const(value: Any) -> _Piece:
    return _Piece(lambda env: value, True, value)


_VV: dict[str, Callable[[Fn, Fn], Fn]] = {
    "+": lambda a, b: lambda env: a(env) + b(env),
    "-": lambda a, b: lambda env: a(env) - b(env),
    "*": lambda a, b: lambda env: a(env) * b(env),
    "<": lambda a, b: lambda env: a(env) < b(env),
    "<=": lambda a, b: lambda env: a(env) <= b(env),
    ">": lambda a, b: lambda env: a(env) > b(env),
    ">=": lambda a, b: lambda env: a(env) >= b(env),
    "==": lambda a, b: lambda env: a(env) == b(env),
    "!=": lambda a, b: lambda env: a(env) != b(env),
    "and": lambda a, b: lambda env: a(env) and b(env),
    "or": lambda a, b: lambda env: a(env) or b(env),
}
_VC: dict[str, Callable[[Fn, Any], Fn]] = {
    "+": lambda a, c: lambda env: a(env) + c,
    "-": lambda a, c: lambda env: a(env) - c,
    "*": lambda a, c: lambda env: a(env) * c,
    "//": lambda a, c: lambda env: a(env) // c,
    "%": lambda a, c: lambda env: a(env) % c,
    "<": lambda a, c: lambda env: a(env) < c,
    "<=": lambda a, c: lambda env: a(env) <= c,
    ">": lambda a, c: lambda env: a(env) > c,
    ">=": lambda a, c: lambda env: a(env) >= c,
    "==": lambda a, c: lambda env: a(env) == c,
    "!=": lambda a, c: lambda env: a(env) != c,
}
_PC: dict[str, Callable[[str, str, Any], Fn]] = {
    "+": lambda n, f, c: lambda env: env[n][f] + c,
    "-": lambda n, f, c: lambda env: env[n][f] - c,
    "*": lambda n, f, c: lambda env: env[n][f] * c,
    "//": lambda n, f, c: lambda env: env[n][f] // c,
    "%": lambda n, f, c: lambda env: env[n][f] % c,
    "<": lambda n, f, c: lambda env: env[n][f] < c,
    "<=": lambda n, f, c: lambda env: env[n][f] <= c,
    ">": lambda n, f, c: lambda env: env[n][f] > c,
    ">=": lambda n, f, c: lambda env: env[n][f] >= c,
    "==": lambda n, f, c: lambda env: env[n][f] == c,
    "!=": lambda n, f, c: lambda env: env[n][f] != c,
}
_CV: dict[str, Callable[[Any, Fn], Fn]] = {
    "+": lambda c, b: lambda env: c + b(env),
    "-": lambda c, b: lambda env: c - b(env),
    "*": lambda c, b: lambda env: c * b(env),
    "<": lambda c, b: lambda env: c < b(env),
    "<=": lambda c, b: lambda env: c <= b(env),
    ">": lambda c, b: lambda env: c > b(env),
    ">=": lambda c, b: lambda env: c >= b(env),
    "==": lambda c, b: lambda env: c == b(env),
    "!=": lambda c, b: lambda env: c != b(env),
}


class _Compiler:
    def __init__(self, text: str, checked: Checked, deck: DeckInfo, origin: Origin) -> None:
        self.text = text
        self.checked = checked
        self.deck = deck
        self.origin = origin
        self.bounds: dict[int, int] = {}  # id(node) -> largest magnitude of its int value

    def snippet(self, node: Node) -> str:
        return self.text[node.span.start : node.span.end]

    def fault(self, node: Node, message: str) -> DslError:
        return dsl_error(self.origin, "dsl.runtime", message, node.span)

    def expr(self, node: Expr) -> _Piece:
        piece = self._expr(node)
        if not (piece.const or isinstance(node, Name | Attr)):
            piece = self.fold(node, piece)
        if piece.const:
            value = piece.value
            self.bounds[id(node)] = abs(value) if type(value) is int else 0
            return piece
        bound = self.raw_bound(node)
        if bound > LIMIT:
            piece = self.guard(node, piece)
            bound = LIMIT
        self.bounds[id(node)] = bound
        return piece

    def bound(self, node: Node) -> int:
        """The largest magnitude of an (already compiled) int ``node``'s value."""
        return self.bounds.get(id(node), LIMIT)

    def raw_bound(self, node: Expr) -> int:
        """The largest magnitude ``node``'s int value can have, given its operands' bounds
        (host values are in range); 0 for a value that is not an int."""
        if not isinstance(self.checked.types.get(id(node)), IntType):
            return 0
        if isinstance(node, Binary):
            left, right = self.bound(node.left), self.bound(node.right)
            if node.op in ("+", "-"):
                return left + right
            if node.op == "*":
                return left * right
            return left if node.op == "//" else right  # |a // b| <= |a|; |a % b| < |b|
        if isinstance(node, Unary):
            return self.bound(node.operand)
        if isinstance(node, If):
            return max(self.bound(node.then), self.bound(node.else_))
        if isinstance(node, Call):
            spec = FUNCTIONS[node.func]
            args = [self.bound(a) for a in node.args]
            return spec.bound(self.deck, args)
        return LIMIT  # a name or a record field: a host value

    def guard(self, node: Expr, piece: _Piece) -> _Piece:
        """``piece`` checked to give a value within the range of DSL numbers."""
        fn = piece.fn
        low, high = -LIMIT, LIMIT
        snippet = shorten(self.snippet(node), 80)

        def out_of_range(value: int) -> DslError:
            return self.fault(
                node,
                f"`{snippet}` gave {number_text(value)}, outside the range of formula numbers "
                f"({RANGE_TEXT})",
            )

        def checked(env: Env) -> Any:
            value = fn(env)
            if low <= value <= high:
                return value
            raise out_of_range(value)

        return _Piece(checked)

    def fold(self, node: Expr, piece: _Piece) -> _Piece:
        """Evaluate ``piece`` now when every leaf under ``node`` is a constant."""
        if not _all_constant(node, self.checked):
            return piece
        try:
            return _const(piece.fn({}))
        except DslError:
            return piece  # fails at run time, if that branch is ever taken

    def _expr(self, node: Expr) -> _Piece:
        if isinstance(node, IntLit | BoolLit | StrLit):
            return _const(node.value)
        if isinstance(node, Name):
            constant = self.checked.constants.get(id(node))
            if constant is not None:
                return _const(constant)
            return _Piece(itemgetter(node.name))
        if isinstance(node, Attr):
            return self.attr(node)
        if isinstance(node, Unary):
            operand = self.expr(node.operand).fn
            if node.op == "-":
                return _Piece(lambda env: -operand(env))
            return _Piece(lambda env: not operand(env))
        if isinstance(node, Binary):
            return self.binary(node)
        if isinstance(node, InList):
            return self.in_list(node)
        if isinstance(node, If):
            return self.if_(node)
        if isinstance(node, Call):
            return self.call(node)
        raise TypeError(f"not an expression node: {node!r}")  # pragma: no cover

    def attr(self, node: Attr) -> _Piece:
        key = node.attr
        if isinstance(node.value, Name):
            name = node.value.name
            return _Piece(lambda env: env[name][key])
        inner = self.expr(node.value).fn
        return _Piece(lambda env: inner(env)[key])

    def binary(self, node: Binary) -> _Piece:
        left = self.expr(node.left)
        right = self.expr(node.right)
        op = node.op
        path = _record_field(node.left)
        if path is not None and right.const and op in _PC and (op in _VV or right.value != 0):
            return _Piece(_PC[op](path[0], path[1], right.value))
        if op in ("//", "%"):
            if right.const and right.value != 0:
                return _Piece(_VC[op](left.fn, right.value))
            return self.division(node, left.fn, right.fn)
        if op in ("and", "or"):
            if left.const:
                if (op == "and") != bool(left.value):
                    return _const(left.value)
                return right
            return _Piece(_VV[op](left.fn, right.fn))
        if right.const:
            return _Piece(_VC[op](left.fn, right.value))
        if left.const:
            return _Piece(_CV[op](left.value, right.fn))
        return _Piece(_VV[op](left.fn, right.fn))

    def division(self, node: Binary, left: Fn, right: Fn) -> _Piece:
        what = "division" if node.op == "//" else "remainder"
        error = self.fault(node, f"{what} by zero in `{self.snippet(node)}`")
        if node.op == "//":

            def div(env: Env) -> Any:
                try:
                    return left(env) // right(env)
                except ZeroDivisionError:
                    raise error from None

            return _Piece(div)

        def mod(env: Env) -> Any:
            try:
                return left(env) % right(env)
            except ZeroDivisionError:
                raise error from None

        return _Piece(mod)

    def in_list(self, node: InList) -> _Piece:
        value = self.expr(node.value).fn
        items = [self.expr(item) for item in node.items]
        negated = node.negated
        if all(item.const for item in items):
            pool = frozenset(item.value for item in items)
            if negated:
                return _Piece(lambda env: value(env) not in pool)
            return _Piece(lambda env: value(env) in pool)
        fns = tuple(item.fn for item in items)

        def member(env: Env) -> bool:
            found = value(env)
            return any(found == f(env) for f in fns) != negated

        return _Piece(member)

    def if_(self, node: If) -> _Piece:
        cond = self.expr(node.cond)
        then = self.expr(node.then)
        else_ = self.expr(node.else_)
        if cond.const:
            return then if cond.value else else_
        c = cond.fn
        if then.const and else_.const:
            tv, ev = then.value, else_.value
            return _Piece(lambda env: tv if c(env) else ev)
        t, e = then.fn, else_.fn
        return _Piece(lambda env: t(env) if c(env) else e(env))

    def call(self, node: Call) -> _Piece:
        spec = FUNCTIONS[node.func]
        arg_types = tuple(self.checked.types[id(a)] for a in node.args)
        impl = spec.build(self.deck, arg_types)
        given = {kw.name: self.expr(kw.value) for kw in node.keywords}
        pieces = [self.expr(a) for a in node.args]
        for kspec in spec.keywords:
            pieces.append(given.get(kspec.name) or _const(kspec.default))
        span_error = self.fault

        def failing(exc: Fault) -> DslError:
            return span_error(node, f"{exc} in `{self.snippet(node)}`")

        if len(pieces) >= 2 and not pieces[0].const and all(p.const for p in pieces[1:]):
            first = pieces[0].fn
            rest = tuple(p.value for p in pieces[1:])
            if len(rest) == 1:
                (r1,) = rest

                def call_vc(env: Env) -> Any:
                    try:
                        return impl(first(env), r1)
                    except Fault as exc:
                        raise failing(exc) from None

                return _Piece(call_vc)

            def call_vcs(env: Env) -> Any:
                try:
                    return impl(first(env), *rest)
                except Fault as exc:
                    raise failing(exc) from None

            return _Piece(call_vcs)
        fns = [p.fn for p in pieces]
        if len(fns) == 1:
            (a,) = fns

            def call1(env: Env) -> Any:
                try:
                    return impl(a(env))
                except Fault as exc:
                    raise failing(exc) from None

            return _Piece(call1)
        if len(fns) == 2:
            a, b = fns

            def call2(env: Env) -> Any:
                try:
                    return impl(a(env), b(env))
                except Fault as exc:
                    raise failing(exc) from None

            return _Piece(call2)
        if len(fns) == 3:
            a, b, c = fns

            def call3(env: Env) -> Any:
                try:
                    return impl(a(env), b(env), c(env))
                except Fault as exc:
                    raise failing(exc) from None

            return _Piece(call3)
        fixed = tuple(fns)

        def call_n(env: Env) -> Any:
            try:
                return impl(*[f(env) for f in fixed])
            except Fault as exc:
                raise failing(exc) from None

        return _Piece(call_n)


def _record_field(node: Expr) -> tuple[str, str] | None:
    """``("player", "score")`` for ``player.score``; ``None`` for anything else."""
    if isinstance(node, Attr) and isinstance(node.value, Name):
        return node.value.name, node.attr
    return None


def _all_constant(node: Expr, checked: Checked) -> bool:
    """Whether every leaf under ``node`` is a literal or a suit/rank name."""
    if isinstance(node, IntLit | BoolLit | StrLit):
        return True
    if isinstance(node, Name):
        return id(node) in checked.constants
    if isinstance(node, Attr):
        return False
    if isinstance(node, Unary):
        return _all_constant(node.operand, checked)
    if isinstance(node, Binary):
        return _all_constant(node.left, checked) and _all_constant(node.right, checked)
    if isinstance(node, InList):
        return _all_constant(node.value, checked) and all(
            _all_constant(i, checked) for i in node.items
        )
    if isinstance(node, If):
        return all(_all_constant(n, checked) for n in (node.cond, node.then, node.else_))
    if isinstance(node, Call):
        return all(_all_constant(a, checked) for a in node.args) and all(
            _all_constant(k.value, checked) for k in node.keywords
        )
    return False  # pragma: no cover


def names_read(node: Node) -> Iterator[str]:
    """Every context name read in ``node``'s tree (a record's name for its fields)."""
    if isinstance(node, Name):
        yield node.name
        return
    for f in fields(node):
        value = getattr(node, f.name)
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, Node):
                yield from names_read(item)


def _missing(origin: Origin, exc: KeyError) -> DslError:
    key = exc.args[0] if exc.args else "?"
    return dsl_error(
        origin, "dsl.runtime", f"the environment has no value for `{key}`", None
    )


def _evaluator(fn: Fn, origin: Origin) -> Fn:
    """``fn`` (a compiled closure) with a name missing from the environment reported as a
    :class:`DslError` at ``origin`` (``KeyError`` otherwise): the one evaluation of a formula."""

    def evaluate(env: Env) -> Any:
        try:
            return fn(env)
        except KeyError as exc:
            raise _missing(origin, exc) from None

    return evaluate


@dataclass(frozen=True, slots=True)
class CompiledFormula:
    """A compiled formula (the DSL's side of :class:`tysiac_spec.ruleset.model.Formula`): call
    it with an environment mapping to get its value.

    Attributes:
        text: the formula as written.
        ast: its syntax tree.
        context: the (extended) context it was checked in.
        result_type: the type of its value.
        origin: where its text sits in its file.
        evaluate: the evaluation as a plain function of the environment (what calling the
            object does, without the method call): for a host's hot loop.
        reads: the context names the formula reads (``player`` for ``player.score``), so
            a host may build only those names of a costly environment.

    Evaluating (a call, or :attr:`evaluate`) raises :class:`~tysiac_spec.errors.DslError`
    (code ``dsl.runtime``) at the fault's position on a run-time fault: a division by zero,
    a rounding unit ``<= 0``, or a value outside the range of DSL numbers (:mod:`.bounds`;
    each operation that could leave it is checked); and at the formula's start for a name
    missing from the environment.
    """

    text: str
    ast: Expr
    context: Context
    result_type: Type
    origin: Origin = field(default_factory=Origin)
    evaluate: Fn = field(default=lambda env: None, repr=False, compare=False)
    reads: frozenset[str] = field(default=frozenset(), compare=False)

    def __call__(self, env: Env) -> Any:
        return self.evaluate(env)

    def canonical(self) -> str:
        """The formula in canonical spacing and parentheses."""
        from .render import to_text

        return to_text(self.ast)

    def render(self, lang: str = "en", *, option_names: Mapping[str, str] | None = None) -> str:
        """The formula in words, in ``lang`` (``en``, ``pl``, ``ru`` or ``cs``); ``option_names``:
        table options' names in words, said instead of their ids (:func:`~.render.to_words`)."""
        from .render import to_words

        return to_words(self.ast, lang, option_names=option_names)


@dataclass(frozen=True, slots=True)
class CompiledEffects:
    """Compiled effects (the DSL's side of a :class:`tysiac_spec.ruleset.model.Formula` of an
    effects site): call with an environment; returns the assigned values.

    The result maps each assigned dotted name (``delta``, ``player.bolts``) to its
    new value; the environment itself is not changed (the host applies them).
    Statements run in order, and later ones see earlier assignments.

    Calling raises :class:`~tysiac_spec.errors.DslError` (code ``dsl.runtime``) on a
    run-time fault, such as a value assigned by ``+=``/``-=`` outside the range of DSL
    numbers (:mod:`.bounds`), at the statement's position, or a name missing from the
    environment.  :attr:`evaluate` is the same call as a plain function (as
    :attr:`CompiledFormula.evaluate`).
    """

    text: str
    statements: tuple[Stmt, ...]
    context: Context
    origin: Origin = field(default_factory=Origin)
    _steps: tuple[tuple[tuple[str, ...], str, Fn, Stmt], ...] = field(
        default=(), repr=False, compare=False
    )

    @property
    def evaluate(self) -> Callable[[Env], dict[str, Any]]:
        """The evaluation as a plain function of the environment (the bound call)."""
        return self.__call__

    def __call__(self, env: Env) -> dict[str, Any]:
        work: dict[str, Any] = dict(env)
        out: dict[str, Any] = {}
        try:
            for parts, op, fn, stmt in self._steps:
                value = fn(work)
                if op != "=":
                    current = work[parts[0]] if len(parts) == 1 else work[parts[0]][parts[1]]
                    value = current + value if op == "+=" else current - value
                    if not -LIMIT <= value <= LIMIT:
                        raise self._out_of_range(stmt, value)
                if len(parts) == 1:
                    work[parts[0]] = value
                else:
                    record = dict(work[parts[0]])
                    record[parts[1]] = value
                    work[parts[0]] = record
                out[".".join(parts)] = value
        except KeyError as exc:
            raise _missing(self.origin, exc) from None
        return out

    def _out_of_range(self, stmt: Stmt, value: int) -> DslError:
        snippet = shorten(self.text[stmt.span.start : stmt.span.end], 80)
        return dsl_error(
            self.origin,
            "dsl.runtime",
            f"`{snippet}` gave {number_text(value)}, outside the range of formula numbers "
            f"({RANGE_TEXT})",
            stmt.span,
        )

    def canonical(self) -> str:
        """The statements in canonical form, separated by ``; ``."""
        from .render import effects_to_text

        return effects_to_text(self.statements)

    def render(self, lang: str = "en", *, option_names: Mapping[str, str] | None = None) -> str:
        """The statements in words, in ``lang`` (``option_names``: as :meth:`Formula.render`)."""
        from .render import effects_to_words

        return effects_to_words(self.statements, lang, option_names=option_names)


def compile_formula(
    text: str,
    context: str | Context,
    *,
    deck: DeckInfo,
    origin: Origin | None = None,
    extra: ContextExtension | None = None,
) -> CompiledFormula:
    """Parse, check and compile a formula.

    Args:
        text: the formula.
        context: a context id (``auction.max_bid``) or a :class:`Context`.
        deck: the deck facts for the card functions and the suit/rank names.
        origin: where ``text`` starts in its file, for error positions.
        extra: the ruleset's options and counters, added to the context.

    Raises:
        DslError: on any syntax, name or type problem (every one found).
    """
    origin = origin or Origin()
    ctx = get_context(context).extend(extra)
    ast = parse_expression(text, origin)
    checked = check_expression(ast, ctx, deck, origin)
    assert checked.result is not None
    fn = _Compiler(text, checked, deck, origin).expr(ast).fn
    return CompiledFormula(
        text, ast, ctx, checked.result, origin, _evaluator(fn, origin), frozenset(names_read(ast))
    )


def compile_effects(
    text: str,
    context: str | Context,
    *,
    deck: DeckInfo,
    origin: Origin | None = None,
    extra: ContextExtension | None = None,
) -> CompiledEffects:
    """Parse, check and compile effects (``player.score = 0; player.bolts += 1``).

    Raises:
        DslError: on any syntax, name, type or assignability problem.
    """
    origin = origin or Origin()
    ctx = get_context(context).extend(extra)
    stmts = parse_effects(text, origin)
    checked = check_effects(stmts, ctx, deck, origin)
    compiler = _Compiler(text, checked, deck, origin)
    steps = []
    for stmt in stmts:
        assert isinstance(stmt, Assign)
        steps.append((stmt.target.parts, stmt.op, compiler.expr(stmt.value).fn, stmt))
    return CompiledEffects(text, stmts, ctx, origin, tuple(steps))
