"""Check a parsed formula against its context: names, types and the result type.

The checker reports every problem it finds (not just the first) as diagnostics
with stable codes: ``dsl.unknown-name``, ``dsl.unknown-function``, ``dsl.arity``,
``dsl.type``, ``dsl.result-type`` and ``dsl.not-assignable``.  A sub-expression
with an error gets no type, which silences follow-on errors about it.

It also works out the value of every constant sub-expression (literals, suit and rank
names, and operations on them) and refuses what is wrong whatever the game:
``dsl.division-by-zero`` (``//`` or ``%`` by a constant 0, also one that folds to 0:
``points // (5 - 5)``, or by an expression that is 0 whatever the game: ``points //
(points - points)``), ``dsl.bad-step`` (a rounding unit that is a constant ``<= 0``:
``round_to(points, 0)``) and ``dsl.out-of-range`` (a literal or a constant outside the
range of DSL numbers, :data:`.bounds.LIMIT`).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import Diagnostic, DslError
from .bounds import RANGE_TEXT, in_range, number_text
from .contexts import CONTEXTS, Context
from .library import FUNCTIONS, DeckInfo, Fault, FunctionSpec, keyword_accepts
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
)
from .types import (
    BOOL,
    INT,
    RANK,
    SUIT,
    TEXT,
    CardsType,
    ChoiceType,
    IntType,
    RecordType,
    TextType,
    Type,
)

__all__ = ["Checked", "check_effects", "check_expression"]


def to_text(node: Expr) -> str:
    """:func:`.render.to_text`, imported when a problem is reported (rarely: loading a valid
    ruleset does not need the renderer)."""
    from .render import to_text as render

    return render(node)


ARITHMETIC = frozenset({"+", "-", "*", "//", "%"})
ORDERING = frozenset({"<", "<=", ">", ">="})
EQUALITY = frozenset({"==", "!="})
LOGIC = frozenset({"and", "or"})

_FOLD: dict[str, Any] = {
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
"""How the checker folds a binary operation on two constants (``and``/``or`` apart)."""

_NO_VALUE = object()
"""The value of a sub-expression that is not a constant."""


@dataclass(frozen=True, slots=True)
class Checked:
    """What the checker learned, for the compiler.

    Attributes:
        types: the type of every checked expression node, keyed by ``id(node)``.
        constants: suit and rank names, keyed by ``id(node)``, with their id string.
        result: the type of the whole formula (``None`` for effects).
    """

    types: Mapping[int, Type]
    constants: Mapping[int, str]
    result: Type | None


def _suggest(name: str, candidates: Iterable[str]) -> str | None:
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return close[0] if close else None


def _one_of(items: Sequence[str]) -> str:
    quoted = [f"`{i}`" for i in items]
    if len(quoted) <= 1:
        return "".join(quoted)
    return ", ".join(quoted[:-1]) + " or " + quoted[-1]


class _Checker:
    def __init__(self, context: Context, deck: DeckInfo, origin: Origin) -> None:
        self.context = context
        self.deck = deck
        self.origin = origin
        self.diagnostics: list[Diagnostic] = []
        self.types: dict[int, Type] = {}
        self.constants: dict[int, str] = {}
        self.values: dict[int, Any] = {}

    def error(self, code: str, message: str, node: Node, hint: str | None = None) -> None:
        self.diagnostics.append(self.origin.diagnostic(code, message, node.span, hint=hint))

    def need(self, node: Expr, found: Type | None, want: Type, what: str) -> bool:
        """Report unless ``found`` is ``want``; ``what`` names the place (``the left side of `+```)."""
        if found is None:
            return False
        if want.accepts(found):
            return True
        self.error("dsl.type", f"{what} must be {want}; found {found}", node)
        return False

    # --- expressions ---------------------------------------------------------------

    def expr(self, node: Expr) -> Type | None:
        typ = self._expr(node)
        if typ is not None:
            self.types[id(node)] = typ
            self.fold(node)
        return typ

    def _expr(self, node: Expr) -> Type | None:
        if isinstance(node, IntLit):
            return INT
        if isinstance(node, BoolLit):
            return BOOL
        if isinstance(node, StrLit):
            return TEXT
        if isinstance(node, Name):
            return self.name(node)
        if isinstance(node, Attr):
            return self.attr(node)
        if isinstance(node, Unary):
            return self.unary(node)
        if isinstance(node, Binary):
            return self.binary(node)
        if isinstance(node, InList):
            return self.in_list(node)
        if isinstance(node, If):
            return self.if_(node)
        if isinstance(node, Call):
            return self.call(node)
        raise TypeError(f"not an expression node: {node!r}")  # pragma: no cover

    def name(self, node: Name) -> Type | None:
        spec = self.context.lookup(node.name)
        if spec is not None:
            return spec.type
        if node.name in self.deck.suits:
            self.constants[id(node)] = node.name
            return SUIT
        if node.name in self.deck.ranks:
            self.constants[id(node)] = node.name
            return RANK
        known = [n.name for n in self.context.names]
        if node.name in FUNCTIONS:
            self.error(
                "dsl.unknown-name",
                f"`{node.name}` is a function; call it as `{node.name}(...)`",
                node,
            )
            return None
        guess = _suggest(node.name, [*known, *self.deck.suits, *self.deck.ranks])
        if guess is not None:
            message = f"unknown name `{node.name}`; did you mean `{guess}`?"
        else:
            message = (
                f"unknown name `{node.name}`; expected {_one_of(known)} "
                f"(or a suit or rank) in {self.context.id}"
            )
        self.error("dsl.unknown-name", message, node)
        return None

    def attr(self, node: Attr) -> Type | None:
        base = self.expr(node.value)
        if base is None:
            return None
        label = node.value.name if isinstance(node.value, Name) else "this value"
        if not isinstance(base, RecordType):
            self.error(
                "dsl.type",
                f"`{label}` is {base}, not a record; it has no field `{node.attr}`",
                node,
            )
            return None
        spec = base.get_field(node.attr)
        if spec is not None:
            return spec.type
        names = [f.name for f in base.fields]
        guess = _suggest(node.attr, names)
        if guess is not None:
            message = f"`{label}` has no field `{node.attr}`; did you mean `{guess}`?"
        elif names:
            message = f"`{label}` has no field `{node.attr}`; expected {_one_of(names)}"
        else:
            message = f"`{label}` has no field `{node.attr}`; it has no fields in this ruleset"
        self.error("dsl.unknown-name", message, node)
        return None

    def unary(self, node: Unary) -> Type | None:
        operand = self.expr(node.operand)
        want: Type = INT if node.op == "-" else BOOL
        if not self.need(node.operand, operand, want, f"the operand of `{node.op}`"):
            return None
        return operand if node.op == "-" else BOOL

    def binary(self, node: Binary) -> Type | None:
        left = self.expr(node.left)
        right = self.expr(node.right)
        op = node.op
        if op in ARITHMETIC or op in ORDERING or op in LOGIC:
            want: Type = BOOL if op in LOGIC else INT
            ok_left = self.need(node.left, left, want, f"the left side of `{op}`")
            ok_right = self.need(node.right, right, want, f"the right side of `{op}`")
            if not (ok_left and ok_right):
                return None
            if op in ARITHMETIC:
                return _merge_int(left, right)
            return BOOL
        if left is None or right is None:
            return None
        return BOOL if self.comparable(node.left, left, node.right, right, op) else None

    def comparable(self, left: Expr, lt: Type, right: Expr, rt: Type, op: str) -> bool:
        """Whether ``left op right`` may be compared for equality; reports if not."""
        for a, at, b, bt in ((left, lt, right, rt), (right, rt, left, lt)):
            if isinstance(at, ChoiceType) and isinstance(bt, TextType):
                if isinstance(b, StrLit) and b.value not in at.values:
                    choices = ", ".join(f'"{v}"' for v in at.values)
                    self.error(
                        "dsl.type",
                        f'"{b.value}" is not a choice of {_describe_node(a)}; '
                        f"expected one of {choices}",
                        b,
                    )
                    return False
                return True
        if isinstance(lt, CardsType | RecordType) or isinstance(rt, CardsType | RecordType):
            bad = lt if isinstance(lt, CardsType | RecordType) else rt
            self.error("dsl.type", f"cannot compare {bad} values with `{op}`", left)
            return False
        if isinstance(lt, ChoiceType) and isinstance(rt, ChoiceType):
            if set(lt.values) & set(rt.values):
                return True
        elif type(lt) is type(rt):
            return True
        self.error("dsl.type", f"cannot compare {lt} with {rt} using `{op}`", right)
        return False

    def in_list(self, node: InList) -> Type | None:
        value = self.expr(node.value)
        if not node.items:
            self.error("dsl.type", "the list after `in` is empty; give at least one item", node)
            return None
        ok = value is not None
        op = "not in" if node.negated else "in"
        for item in node.items:
            item_type = self.expr(item)
            if item_type is None or value is None:
                ok = False
                continue
            ok = self.comparable(node.value, value, item, item_type, op) and ok
        return BOOL if ok else None

    def if_(self, node: If) -> Type | None:
        cond = self.expr(node.cond)
        then = self.expr(node.then)
        else_ = self.expr(node.else_)
        ok = self.need(node.cond, cond, BOOL, "the condition of `if`")
        if then is None or else_ is None:
            return None
        if isinstance(then, IntType) and isinstance(else_, IntType):
            return _merge_int(then, else_) if ok else None
        if isinstance(then, ChoiceType) and isinstance(else_, ChoiceType):
            merged = tuple(dict.fromkeys(then.values + else_.values))
            return ChoiceType(merged) if ok else None
        if type(then) is not type(else_) or isinstance(then, RecordType):
            self.error(
                "dsl.type",
                f"both branches of `if` must have the same type; found {then} after `then` "
                f"and {else_} after `else`",
                node.else_,
            )
            return None
        return then if ok else None

    def call(self, node: Call) -> Type | None:
        spec = FUNCTIONS.get(node.func)
        if spec is None:
            guess = _suggest(node.func, FUNCTIONS)
            if guess is not None:
                message = f"unknown function `{node.func}`; did you mean `{guess}`?"
            else:
                message = f"unknown function `{node.func}`; expected {_one_of(sorted(FUNCTIONS))}"
            self.error("dsl.unknown-function", message, node)
            for arg in node.args:
                self.expr(arg)
            return None
        arg_types = [self.expr(arg) for arg in node.args]
        ok = self.arity(node, spec)
        for index, (arg, found) in enumerate(zip(node.args, arg_types, strict=True)):
            if found is None:
                ok = False
                continue
            if index >= len(spec.params) and not spec.variadic:
                continue
            param = spec.params[min(index, len(spec.params) - 1)]
            if not any(t.accepts(found) for t in param.types):
                self.error(
                    "dsl.type",
                    f"argument {index + 1} (`{param.name}`) of `{node.func}` must be "
                    f"{param.describe()}; found {found}",
                    arg,
                )
                ok = False
        ok = self.keywords(node, spec) and ok
        if not ok:
            return None
        if spec.result == INT and all(isinstance(t, IntType) for t in arg_types):
            units = {t.unit for t in arg_types if isinstance(t, IntType)}
            if len(units) == 1 and node.func in {"min", "max", "abs"}:
                return IntType(units.pop())
        return spec.result

    def arity(self, node: Call, spec: FunctionSpec) -> bool:
        got = len(node.args)
        least = spec.least
        if spec.variadic and got >= least:
            return True
        if not spec.variadic and got == len(spec.params):
            return True
        if spec.variadic:
            expected = f"at least {least} argument{'s' if least != 1 else ''}"
        else:
            n = len(spec.params)
            expected = f"{n} argument{'s' if n != 1 else ''}"
        kw = ""
        if spec.keywords:
            kw = " and the keyword " + ", ".join(f"`{k.name}`" for k in spec.keywords)
        self.error("dsl.arity", f"`{spec.name}` takes {expected}{kw} (got {got})", node)
        return False

    def keywords(self, node: Call, spec: FunctionSpec) -> bool:
        ok = True
        seen: set[str] = set()
        for kw in node.keywords:
            found = self.expr(kw.value)
            known = {k.name: k for k in spec.keywords}
            kspec = known.get(kw.name)
            if kspec is None:
                if known:
                    guess = _suggest(kw.name, known)
                    extra = f"did you mean `{guess}`?" if guess else f"expected {_one_of(sorted(known))}"
                    message = f"`{spec.name}` has no keyword argument `{kw.name}`; {extra}"
                else:
                    message = f"`{spec.name}` takes no keyword arguments (got `{kw.name}`)"
                self.error("dsl.arity", message, kw)
                ok = False
                continue
            if kw.name in seen:
                self.error("dsl.arity", f"the keyword argument `{kw.name}` is given twice", kw)
                ok = False
            seen.add(kw.name)
            if found is None:
                ok = False
                continue
            values = ", ".join(f'"{v}"' for v in kspec.values)
            if isinstance(kw.value, StrLit) and kw.value.value not in kspec.values:
                shown: str = f'"{kw.value.value}"'
            elif keyword_accepts(kspec, found):
                continue
            else:
                shown = str(found)
            self.error(
                "dsl.type",
                f"`{kw.name}` of `{spec.name}` must be one of {values}; found {shown}",
                kw.value,
            )
            ok = False
        return ok

    # --- constants ------------------------------------------------------------------

    def value(self, node: Expr) -> Any:
        """The constant value of a checked ``node``, or :data:`_NO_VALUE`."""
        return self.values.get(id(node), _NO_VALUE)

    def fold(self, node: Expr) -> None:
        """Record the value of a well-typed ``node`` when it is a constant, and report a
        constant division by zero, rounding unit ``<= 0`` or value out of range."""
        value: Any = _NO_VALUE
        if isinstance(node, IntLit):
            value = self.in_range(node, node.value)
        elif isinstance(node, BoolLit | StrLit):
            value = node.value
        elif isinstance(node, Name):
            value = self.constants.get(id(node), _NO_VALUE)
        elif isinstance(node, Unary):
            operand = self.value(node.operand)
            if operand is not _NO_VALUE:
                value = -operand if node.op == "-" else not operand
        elif isinstance(node, Binary):
            value = self.fold_binary(node)
        elif isinstance(node, If):
            cond = self.value(node.cond)
            if cond is not _NO_VALUE:
                value = self.value(node.then if cond else node.else_)
        elif isinstance(node, Call):
            value = self.fold_call(node)
        if value is not _NO_VALUE:
            self.values[id(node)] = value

    def in_range(self, node: Expr, value: Any) -> Any:
        """``value``, or :data:`_NO_VALUE` after reporting it when it is an int out of range."""
        if type(value) is not int or in_range(value):
            return value
        shown = to_text(node)
        if isinstance(node, IntLit):
            message = f"`{shown}` is outside the range of formula numbers ({RANGE_TEXT})"
        else:
            message = (
                f"`{shown}` is {number_text(value)}, outside the range of formula numbers "
                f"({RANGE_TEXT})"
            )
        self.error("dsl.out-of-range", message, node)
        return _NO_VALUE

    def fold_binary(self, node: Binary) -> Any:
        left, right, op = self.value(node.left), self.value(node.right), node.op
        if op in ("//", "%") and (right == 0 if right is not _NO_VALUE else self.always_zero(node.right)):
            what = "division" if op == "//" else "remainder"
            message = f"{what} by zero in `{to_text(node)}`"
            if not isinstance(node.right, IntLit):
                message += f": `{to_text(node.right)}` is always 0"
            self.error("dsl.division-by-zero", message, node.right)
            return _NO_VALUE
        if op in LOGIC:
            if left is not _NO_VALUE and bool(left) == (op == "or"):
                return left  # decided by the left side
            return right if left is not _NO_VALUE else _NO_VALUE
        if left is _NO_VALUE or right is _NO_VALUE:
            return _NO_VALUE
        return self.in_range(node, _FOLD[op](left, right))

    def always_zero(self, node: Expr) -> bool:
        """Whether the int ``node`` is 0 whatever the game, though no constant: an expression
        minus itself (``points - points``; formulas have no side effects, so both sides
        are equal), a product with such a factor or a constant 0 (``0 * points``), its
        negation, or a choice between two of them."""
        value = self.value(node)
        if value is not _NO_VALUE:
            return type(value) is int and value == 0
        if isinstance(node, Binary):
            if node.op == "-":
                return node.left == node.right
            if node.op == "*":
                return self.always_zero(node.left) or self.always_zero(node.right)
        if isinstance(node, Unary) and node.op == "-":
            return self.always_zero(node.operand)
        if isinstance(node, If):
            return self.always_zero(node.then) and self.always_zero(node.else_)
        return False

    def fold_call(self, node: Call) -> Any:
        spec = FUNCTIONS[node.func]
        args = [self.value(a) for a in node.args]
        for index, (arg, value) in enumerate(zip(node.args, args, strict=True)):
            param = spec.params[min(index, len(spec.params) - 1)]
            if param.positive and value is not _NO_VALUE and value <= 0:
                message = f"the {param.name} of `{spec.name}` must be positive (got {value})"
                if not _is_literal(arg):
                    message += f" in `{to_text(node)}`"
                self.error("dsl.bad-step", message, arg)
                return _NO_VALUE
            if param.positive and value is _NO_VALUE and self.always_zero(arg):
                message = (
                    f"the {param.name} of `{spec.name}` must be positive: `{to_text(arg)}` is "
                    f"always 0 in `{to_text(node)}`"
                )
                self.error("dsl.bad-step", message, arg)
                return _NO_VALUE
        if spec.result != INT or any(v is _NO_VALUE for v in args):
            return _NO_VALUE
        keywords = {kw.name: self.value(kw.value) for kw in node.keywords}
        if any(v is _NO_VALUE for v in keywords.values()):
            return _NO_VALUE
        defaults = [keywords.get(k.name, k.default) for k in spec.keywords]
        try:
            result = spec.build(self.deck, ())(*args, *defaults)
        except Fault:  # pragma: no cover - every fault of a constant call is reported above
            return _NO_VALUE
        return self.in_range(node, result)

    # --- results and effects -------------------------------------------------------

    def result(self, node: Expr, found: Type | None) -> None:
        want = self.context.result
        if found is None or want.accepts(found):
            return
        unit = f" ({want.unit})" if isinstance(want, IntType) and want.unit else ""
        self.error(
            "dsl.result-type",
            f"a formula for {self.context.id} must give {want}{unit}; found {found}",
            node,
        )

    def assign(self, stmt: Assign) -> None:
        value = self.expr(stmt.value)
        target = stmt.target
        dotted = target.dotted
        allowed = self.context.assignable_targets()
        if dotted not in allowed:
            if not allowed:
                where = ", ".join(sorted(c.id for c in CONTEXTS.values() if c.assignable))
                message = f"{self.context.id} has no effects; nothing can be assigned (only in {where})"
            else:
                guess = next((a for a in allowed if a.split(".")[-1] == dotted), None)
                guess = guess or _suggest(dotted, allowed)
                if guess is not None:
                    message = f"`{dotted}` cannot be assigned here; did you mean `{guess}`?"
                else:
                    message = f"`{dotted}` cannot be assigned here; expected {_one_of(allowed)}"
            self.error("dsl.not-assignable", message, target)
            return
        self.need(stmt.value, value, INT, f"the value assigned to `{dotted}`")


def _merge_int(a: Type | None, b: Type | None) -> IntType:
    ua = a.unit if isinstance(a, IntType) else ""
    ub = b.unit if isinstance(b, IntType) else ""
    return IntType(ua if ua == ub else "")


def _is_literal(node: Expr) -> bool:
    """Whether ``node`` is an integer written out: ``5`` or ``-5``."""
    if isinstance(node, Unary) and node.op == "-":
        node = node.operand
    return isinstance(node, IntLit)


def _describe_node(node: Expr) -> str:
    if isinstance(node, Name):
        return f"`{node.name}`"
    if isinstance(node, Attr) and isinstance(node.value, Name):
        return f"`{node.value.name}.{node.attr}`"
    return "this value"


def check_expression(
    expr: Expr, context: Context, deck: DeckInfo, origin: Origin | None = None
) -> Checked:
    """Check ``expr`` in ``context`` (names, types, the result type).

    Raises:
        DslError: holding every problem found.
    """
    checker = _Checker(context, deck, origin or Origin())
    found = checker.expr(expr)
    checker.result(expr, found)
    if checker.diagnostics:
        raise DslError(checker.diagnostics)
    return Checked(checker.types, checker.constants, found)


def check_effects(
    stmts: Sequence[Stmt], context: Context, deck: DeckInfo, origin: Origin | None = None
) -> Checked:
    """Check effects in ``context``: each target assignable, each value an int.

    Raises:
        DslError: holding every problem found.
    """
    checker = _Checker(context, deck, origin or Origin())
    for stmt in stmts:
        assert isinstance(stmt, Assign)
        checker.assign(stmt)
    if checker.diagnostics:
        raise DslError(checker.diagnostics)
    return Checked(checker.types, checker.constants, None)


