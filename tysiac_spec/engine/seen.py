"""Which cards of a hand a formula can see, so that its value is kept per what it sees.

A formula of the auction or the contract (``auction.max_bid``, ``contract.max``, …) reads the
hand; evaluated by the engine's evaluator (``formula.evaluator()``: one home of the DSL), its
value is a function of its inputs, so the fast path and the engine (the bids ``auction.may_bid``
allows, :func:`~tysiac_spec.engine.auction.compile_amounts`) keep it per input.  Keyed on the whole
hand, the kept values would seldom be met again (a seven-card hand is one of 346,104); keyed
on the part of the hand the formula can see, almost always.  :func:`seen_cards` finds that
part from the formula's syntax tree, conservatively: when every use of ``name`` is an argument
of ``marriages(...)`` the formula sees only the cards of the marriage ranks
(``marriages.ranks``) in the suits that have a marriage value; when every use is
``count(name, <rank or suit literal>)`` or a marriage, only those cards; any other use (or
a parse that fails) sees the whole hand.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..cards import Card
from ..dsl import nodes
from ..dsl.parse import parse_expression
from ..ruleset.model import Formula, Marriages

__all__ = ["seen_cards"]


def _children(node: nodes.Node) -> Iterator[nodes.Node]:
    for name in getattr(node, "__dataclass_fields__", {}):
        if name == "span":
            continue
        value = getattr(node, name)
        if isinstance(value, nodes.Node):
            yield value
        elif isinstance(value, tuple):
            yield from (v for v in value if isinstance(v, nodes.Node))


def seen_cards(formula: Formula, name: str, pack: Sequence[Card], marriages: Marriages) -> int:
    """The bit set (``card.bit``) of the cards of ``name`` (a card-set input such as ``hand``)
    that ``formula`` can see; all of ``pack`` when it may see any."""
    everything = 0
    for c in pack:
        everything |= c.bit
    try:
        tree = parse_expression(formula.text)
    except Exception:
        return everything
    seen = 0
    marriage_cards = 0
    for c in pack:
        if c.suit_id in marriages.values and c.rank.id in marriages.ranks:
            marriage_cards |= c.bit

    def visit(node: nodes.Node) -> bool:
        """Whether ``node`` uses ``name`` only in the understood ways (adding to ``seen``)."""
        nonlocal seen
        if isinstance(node, nodes.Name):
            return node.name != name
        if isinstance(node, nodes.Call) and node.args and isinstance(node.args[0], nodes.Name) \
                and node.args[0].name == name:
            if node.func == "marriages" and len(node.args) == 1 and not node.keywords:
                seen |= marriage_cards
                return True
            if node.func == "count" and len(node.args) == 2 and not node.keywords \
                    and isinstance(node.args[1], nodes.Name):
                word = node.args[1].name
                cards = [c for c in pack if c.rank.id == word or c.suit_id == word]
                if not cards:
                    return False
                for c in cards:
                    seen |= c.bit
                return True
            return False
        return all(visit(child) for child in _children(node))

    return seen if visit(tree) else everything
