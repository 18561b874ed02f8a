"""Formulas checked by range, on a compiled form (issue 26, item 18): an interval analysis
over the DSL's syntax tree with the bounds the contexts' names are known to keep.

What it refuses, each only when the bounds prove the fault can happen in play:

- ``formula.range``: a division or remainder by a value that can be 0 (``100 // tricks``:
  a side may win no trick), or an arithmetic value that can leave the DSL's range of numbers
  (:mod:`tysiac_spec.dsl.bounds`; a revoke penalty of ``bid * 10000000``);
- ``marriages.ceiling``: a marriage value (``marriages.value``) that can be worth more than
  ``marriages.values`` says, while no ``auction.cap`` nor ``auction.max_bid`` bounds bids,
  so they stop at the engine's ceiling (:func:`tysiac_spec.engine.auction.ceiling`: the card
  points plus ``marriages.values``), below what a deal can be worth;
- ``talon.rebuy-price``: a re-buy price that can never exceed the winning bid, so the
  contract is never offered for sale; or one always above the highest contract (``auction.cap``
  or the ceiling), which no re-buy bid can reach and no buyer make.

The bounds (:func:`name_bounds`): card and marriage points from 0 to the pack's points plus
every marriage; tricks, counts and cards from 0 to the pack's size; bids and contracts from 0
(the lowest bid for ``bid``) to ``auction.cap``, or the schema's largest number
(:data:`~tysiac_spec.ruleset.model.MAX_POINTS`) without one; the number of players, the
target, a marriage's value and a defender's seat as the form states them.  Scores, score
changes and counters have no bound the ruleset states: a formula reading them is not refused
for what they might hold (the engine checks its range at run time).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from ...dsl.bounds import LIMIT, in_range, number_text
from ...dsl.nodes import Attr, Binary, Call, Expr, If, InList, IntLit, Name, Unary
from ...errors import Diagnostic
from .._convert import made_once
from ..model import MAX_POINTS
from .base import check

__all__ = ["Interval", "bound", "ceiling_errors", "name_bounds", "range_errors", "rebuy_errors"]

Interval = tuple[int, int]
"""The least and the greatest value a number can take (both included)."""

Problem = Callable[[Expr, str], None]

_EARLY = ("deal.incident", "deal.redeal")
"""The contexts whose ``bid`` is 0 before the auction has ended."""


def name_bounds(form: Any, deck_points: int, pack: int) -> dict[str, Interval]:
    """The bounds of the numbers a formula reads in ``form`` (a compiled
    :class:`~tysiac_spec.ruleset.model.Form`), by name (``player.bolts`` and the like are
    left out: no bound is known).  ``deck_points``: the pack's card points; ``pack``: its
    number of cards."""
    values = list(form.marriages.values.values()) or [0]
    ace = form.marriages.ace_marriage
    marriages = sum(values) + (ace.value if ace.enabled else 0)
    points = (0, deck_points + marriages)
    a = form.auction
    top = a.cap if a.cap is not None else MAX_POINTS
    lowest = min(a.min_bid, a.forced_bid) if a.forced_seat is not None else a.min_bid
    active = form.table.active or form.players
    count = (0, pack)
    return {
        "points": points, "card_points": (0, deck_points), "marriages": (0, marriages),
        "declarer_points": points, "others_points": points, "drowned": (0, marriages),
        "tricks": count, "others_tricks": count, "most_tricks": count, "fewest_tricks": count,
        "declared": count, "number": count,
        "bid": (min(lowest, top), top), "high_bid": (0, top), "contract": (0, top),
        "players": (active, active), "target": (form.match.target, form.match.target),
        "value": (min(values), max(values)), "seat": (1, max(1, active - 1)),
    }


def _span(a: Interval, b: Interval, op: Callable[[int, int], int]) -> Interval:
    corners = [op(x, y) for x in a for y in b]
    return min(corners), max(corners)


def bound(expr: Expr, names: Mapping[str, Interval], problem: Problem) -> Interval | None:
    """The interval of ``expr``'s value with the names bound by ``names``; ``None`` for a
    value that is not a number or whose bound is not known.  Calls ``problem(node, text)``
    for each fault the bounds prove possible: a division or remainder by an interval holding
    0, an arithmetic value beyond the DSL's range."""

    def walk(node: Expr) -> Interval | None:
        if isinstance(node, IntLit):
            return node.value, node.value
        if isinstance(node, Name):
            return names.get(node.name)
        if isinstance(node, Attr):
            if isinstance(node.value, Name):
                return names.get(f"{node.value.name}.{node.attr}")
            walk(node.value)
            return None
        if isinstance(node, Unary):
            inner = walk(node.operand)
            return (-inner[1], -inner[0]) if node.op == "-" and inner is not None else None
        if isinstance(node, If):
            walk(node.cond)
            then, other = walk(node.then), walk(node.else_)
            if then is None or other is None:
                return None
            return min(then[0], other[0]), max(then[1], other[1])
        if isinstance(node, InList):
            walk(node.value)
            for item in node.items:
                walk(item)
            return None
        if isinstance(node, Binary):
            return binary(node)
        if isinstance(node, Call):
            return call(node)
        return None

    def checked(node: Expr, result: Interval) -> Interval:
        if not (in_range(result[0]) and in_range(result[1])):
            worst = result[1] if abs(result[1]) >= abs(result[0]) else result[0]
            problem(node, f"can reach {number_text(worst)}, outside the range of numbers "
                    f"(-{LIMIT:,} to {LIMIT:,})")
        return result

    def binary(node: Binary) -> Interval | None:
        left, right = walk(node.left), walk(node.right)
        op = node.op
        if op in ("//", "%") and right is not None and right[0] <= 0 <= right[1]:
            problem(node, f"divides by a value that can be 0 (from {right[0]} to {right[1]})")
            return None
        if left is None or right is None:
            return None
        if op == "+":
            return checked(node, (left[0] + right[0], left[1] + right[1]))
        if op == "-":
            return checked(node, (left[0] - right[1], left[1] - right[0]))
        if op == "*":
            return checked(node, _span(left, right, lambda x, y: x * y))
        if op == "//":
            return _span(left, right, lambda x, y: x // y)
        if op == "%":
            m = max(abs(right[0]), abs(right[1])) - 1
            return (0, m) if right[0] > 0 else (-m, 0)
        return None

    def call(node: Call) -> Interval | None:
        args = [walk(arg) for arg in node.args]
        for kw in node.keywords:
            walk(kw.value)
        known = [a for a in args if a is not None]
        if node.func in ("min", "max") and len(known) == len(args) and known:
            pick = min if node.func == "min" else max
            return pick(a[0] for a in known), pick(a[1] for a in known)
        if node.func == "abs" and known and len(args) == 1:
            lo, hi = known[0]
            return (0 if lo <= 0 <= hi else min(abs(lo), abs(hi))), max(abs(lo), abs(hi))
        if node.func in ("round_to", "round_up", "round_down") and len(args) >= 2:
            x, unit = args[0], args[1]
            if unit is not None and unit[0] <= 0:
                problem(node, f"rounds to a unit that can be {unit[0]} (it must be above 0)")
                return None
            if x is None or unit is None:
                return None
            return checked(node, (x[0] - unit[1], x[1] + unit[1]))
        if node.func in ("count", "len"):
            return names.get("tricks")  # (0 .. the pack's size)
        if node.func == "points":
            return names.get("card_points")
        if node.func == "marriages":
            return names.get("marriages")
        return None

    return walk(expr)


_UNDER: dict[int, tuple[Any, tuple[Any, ...]]] = {}
"""The formulas found under a model object (a section, a table), by the object's identity
(the object is kept with them, so that an identity is never taken for another's): the
sections left as they are are shared by the forms of a ruleset and of each of its option
values, and walked once.  Emptied when it grows past :data:`_UNDER_MOST` (the shipped rulesets
with every option value hold about 1,100)."""
_UNDER_MOST = 4096
_LEAVES = (str, int, float, type(None))


def _formulas(form: Any) -> list[Any]:
    """Every compiled formula (with a syntax tree) in a compiled form, depth first, each once.
    (The form itself is not kept in :data:`_UNDER`, only its parts: a form that no ruleset or
    game holds is freed, with its compilation.)"""
    fields = getattr(form, "__dataclass_fields__", None) or ()
    found = tuple(f for name in fields for f in _under(getattr(form, name, None)))
    return list({id(f): f for f in found}.values()) if len(found) > 1 else list(found)


def _under(node: Any) -> tuple[Any, ...]:
    """The formulas under ``node``, depth first (a formula reached twice is listed twice)."""
    from ..model import Formula

    if isinstance(node, _LEAVES):
        return ()
    if isinstance(node, Formula):
        return (node,) if getattr(node.compiled, "ast", None) is not None else ()
    if isinstance(node, (tuple, list)):
        items: Any = node
    elif isinstance(node, Mapping):
        items = node.values()
    else:
        fields = getattr(node, "__dataclass_fields__", None)
        if not fields:
            return ()
        known = _UNDER.get(id(node))
        if known is not None and known[0] is node:
            return known[1]
        _UNDER[id(node)] = (node, ())  # (an object that holds itself is walked once)
        out = tuple(f for name in fields for f in _under(getattr(node, name, None)))
        if len(_UNDER) >= _UNDER_MOST:
            _UNDER.clear()
        _UNDER[id(node)] = (node, out)
        return out
    return tuple(f for item in items for f in _under(item))


def _diag(formula: Any, node: Expr, code: str, message: str, hint: str | None = None) -> Diagnostic:
    compiled = formula.compiled
    where = ".".join(str(p) for p in formula.path) or formula.context
    made: Diagnostic = compiled.origin.diagnostic(code, f"`{where}`: {message}", node.span, hint=hint)
    return made


@check("formula.range", "compiled")
def range_errors(form: Any, deck_points: int, pack: int) -> list[Diagnostic]:
    """``formula.range`` for every formula of the compiled ``form`` whose bounds prove a
    division by 0 or a value beyond the range of numbers possible (:func:`bound`)."""
    names = name_bounds(form, deck_points, pack)
    # before the auction has ended (a redeal, a table incident) the bid may still be 0
    early = {**names, "bid": (0, names["bid"][1])}
    keys = {False: ("formula.range", *names.items()), True: ("formula.range", *early.items())}
    out: list[Diagnostic] = []
    for formula in _formulas(form):
        at_start = formula.context in _EARLY
        found = made_once(keys[at_start], (formula,), partial(
            _range_problems, formula, early if at_start else names
        ))
        out.extend(d for d in found if d not in out)
    return out


def _range_problems(formula: Any, names: Mapping[str, Interval]) -> tuple[Diagnostic, ...]:
    """The ``formula.range`` problems of one formula with the names bound by ``names``, once
    each (made once per formula and bounds: :func:`range_errors`)."""
    found: list[tuple[Expr, str]] = []
    bound(formula.compiled.ast, names, lambda node, text: found.append((node, text)))
    out: list[Diagnostic] = []
    for node, text in found:
        d = _diag(formula, node, "formula.range", f"`{_text(formula, node)}` {text}")
        if d not in out:
            out.append(d)
    return tuple(out)


def _text(formula: Any, node: Expr) -> str:
    span = node.span
    text: str = formula.compiled.text
    return text[span.start:span.end] if span.end > span.start else text


@check("marriages.ceiling", "compiled")
def ceiling_errors(form: Any, deck_points: int, pack: int) -> list[Diagnostic]:
    """``marriages.ceiling``: ``marriages.value`` can make a marriage worth more than its
    ``marriages.values`` entry while bids have neither ``auction.cap`` nor ``auction.max_bid``:
    the engine's ceiling (card points plus ``marriages.values``) then stops bids and
    contracts below what a deal can be worth."""
    value = form.marriages.value
    a = form.auction
    if value is None or a.cap is not None or a.max_bid is not None or not form.marriages.values:
        return []
    top = bound(value.compiled.ast, name_bounds(form, deck_points, pack), lambda node, text: None)
    most = max(form.marriages.values.values())
    if top is None or top[1] <= most:
        return []
    ceiling = deck_points + sum(form.marriages.values.values())
    return [_diag(
        value, value.compiled.ast, "marriages.ceiling",
        f"a marriage can be worth up to {top[1]}, more than the {most} of `marriages.values`, "
        f"but bids and contracts stop at the ceiling {ceiling} (card points plus "
        "`marriages.values`), as neither `auction.cap` nor `auction.max_bid` is set",
        hint="set `auction.cap` (or `auction.max_bid`) to what a deal can be worth",
    )]


@check("talon.rebuy-price", "compiled")
def rebuy_errors(form: Any, deck_points: int, pack: int) -> list[Diagnostic]:
    """``talon.rebuy-price``: the re-buy price (``talon.rebuy.price``) is offered only above
    the winning bid; a price that is at most the bid for every bid the auction can end on
    (the lowest bid to ``auction.cap``, or to the ceiling, in steps) is never offered; a price
    above that top for every bid is never bid in a second auction, nor made by a buyer."""
    rebuy = form.talon.rebuy
    if not rebuy.enabled or rebuy.price is None:
        return []
    names = name_bounds(form, deck_points, pack)
    a = form.auction
    lowest = names["bid"][0]
    top = a.cap if a.cap is not None else deck_points + sum(form.marriages.values.values())
    bids = range(lowest, max(lowest, top) + 1, max(1, a.step))
    prices = [bound(rebuy.price.compiled.ast, {**names, "bid": (b, b)}, lambda node, text: None)
              for b in bids]
    if prices and all(p is not None and p[0] > top for p in prices):
        lowest_price = min(p[0] for p in prices if p is not None)
        return [_diag(
            rebuy.price, rebuy.price.compiled.ast, "talon.rebuy-price",
            f"the price is at least {lowest_price}, above the highest contract a deal can make "
            f"({top}), so "
            + ("no re-buy bid can ever be made (`talon.rebuy.bidding: auction`)"
               if rebuy.bidding == "auction" else "a buyer could never make the contract"),
            hint=f"a price from the bid up to {top} (e.g. `bid + 10`), or switch the re-buy off",
        )]
    for b, price in zip(bids, prices, strict=True):
        if price is None or price[1] > b:
            return []
    return [_diag(
        rebuy.price, rebuy.price.compiled.ast, "talon.rebuy-price",
        f"the price is never above the winning bid (bids {lowest} to {top}), so the contract "
        "is never offered for sale (`talon.rebuy.enabled`)",
        hint="a price above the bid (e.g. `bid + 10`), or switch the re-buy off",
    )]
