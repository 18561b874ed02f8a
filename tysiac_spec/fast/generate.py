"""The generator: a form's constants put into the template's syntax tree, folded, compiled.

:func:`constants` reads every value the generated code needs from the form (the same
fields the engine's ``compile_*`` functions read) and the pack; :func:`generate` parses
``_template.py`` with :mod:`ast`, replaces each ``K_*`` name by an ``ast.Constant`` of its
value (never text: a ruleset's words never reach the source), folds the operations and
``if`` statements whose operands became constants (a switched-off mechanism's branch is
removed), and returns the tree; :func:`build` compiles it into a namespace with the helpers
(``H_*``) bound.  :func:`source_key` is the content hash the code is cached under
(:mod:`tysiac_spec.fast`), in memory and on disk.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import inspect
import math
import operator
import random
import textwrap
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Any

from ..cards import Card
from ..engine import announcing, auction, dealing, flow, play, seating, talon
from ..engine import env as envs
from ..engine.outcome import discards_to
from ..engine.play import compile_marriage_bar, never_barred
from ..engine.seating import direction
from ..engine.seen import seen_cards
from ..engine.simple_settle import simple_settlement
from ..limits import limit
from ..ruleset.model import Form

__all__ = ["CODES", "constants", "fold", "generate", "source_key", "template_source"]

CODES = {
    "K_MARRIAGE": 64,
    "K_PASS": 128,
    "K_CLAIM_CODE": 129,
    "K_FORFEIT": 130,
    "K_REDEAL": 131,
    "K_DARK": 132,
    "K_CANCEL_DARK": 133,
    "K_ANNOUNCE": 140,
    "K_ACES": 192,
    "K_DISCARD": 256,
    "K_GIVE": 512,
    "K_TALON": 1 << 14,
    "K_BID": 1 << 20,
    "K_CONTRACT": 1 << 22,
}
"""The action codes: a card ``c`` (its index in the pack) is played as ``c``, led declaring its
marriage as ``K_MARRIAGE + c``, the ace marriage as ``K_ACES + c``; ``K_PASS``,
``K_CLAIM_CODE``, ``K_FORFEIT``, ``K_REDEAL``, ``K_DARK``, ``K_CANCEL_DARK``; a marriage
announced from the hand ``K_ANNOUNCE + s`` (``s`` the suit's place in the pack); a discard
``K_DISCARD + c``; a card given to player ``p`` ``K_GIVE + (p << 6) + c``; talon ``i`` chosen
``K_TALON + i``; a bid ``K_BID + amount``, a contract ``K_CONTRACT + amount`` (amounts below ``1 << 20``)."""

_LEFT_TO = {"nobody": 0, "last_trick": 1, "declarer": 2}


def template_source() -> str:
    """The template's text (``tysiac_spec/fast/_template.py``, package data)."""
    return resources.files(__package__).joinpath("_template.py").read_text(encoding="utf-8")


def constants(form: Form, pack: tuple[Card, ...], views: bool = False) -> dict[str, Any]:
    """The ``K_*`` values of ``form`` played with ``pack`` (ints, bools, ``None`` and tuples of
    them), read once here as the engine's ``compile_*`` functions read them; ``K_VIEWS`` is
    ``views``: the code records what bots that read their view see (:mod:`.views`)."""
    a, t, p, m = form.auction, form.talon, form.play, form.marriages
    n = len(pack)
    suit_ids = sorted({c.suit_id for c in pack}, key=lambda s: min(c.index for c in pack if c.suit_id == s))
    partner = [0] * n
    first_rank, second_rank = m.ranks
    for c in pack:
        if c.suit_id in m.values and c.rank.id in m.ranks:
            other = second_rank if c.rank.id == first_rank else first_rank
            mates = [d for d in pack if d.suit_id == c.suit_id and d.rank.id == other]
            both = {d.rank.id for d in pack if d.suit_id == c.suit_id and d.rank.id in m.ranks}
            if mates and len(both) == len(m.ranks):
                partner[c.index] = mates[0].bit
    steps = range(n - 1, 0, -1)
    bar = compile_marriage_bar(m)
    gr, br, dk = form.special.golden_round, form.special.barrel, form.special.dark
    out: dict[str, Any] = {
        "K_N": form.players,
        "K_NPACK": n,
        "K_DIR": direction(form),
        "K_DRAWS": tuple((i, i + 1, (i + 1).bit_length()) for i in steps),
        # auction
        "K_FORCED_SEAT": -1 if a.forced_seat is None else a.forced_seat,
        "K_FORCED_BID": a.forced_bid,
        "K_FIRST_FORCED": a.first_to_speak == "forced",
        "K_MIN_BID": a.min_bid,
        "K_STEP": a.step,
        "K_MOST": limit("bids") * a.step,
        "K_EXACTLY_STEP": a.raise_by == "exactly_step",
        "K_MAX_RAISE": a.max_raise if a.raise_by == "at_most" else None,
        "K_EXACT_OPENING": a.forced_opening == "exact",
        "K_ALL_PASS_FORCED": a.all_pass == "forced_plays",
        "K_ALL_PASS_DEALER": a.all_pass == "dealer_plays",
        # talon and exchange
        "K_CHOOSE_ONE": t.take == "choose_one",
        "K_EXCHANGE_GIVE": t.exchange == "give_each" and t.give_count > 0,
        "K_EXCHANGE_DISCARD": t.exchange == "discard" and t.discard_count > 0,
        "K_CLOCKWISE": t.give_order == "clockwise",
        "K_GIVE_COUNT": t.give_count,
        "K_DISCARD_COUNT": t.discard_count,
        "K_LEFTOVER_TO": _LEFT_TO[t.leftover.to],
        "K_DISCARDS_TO": _LEFT_TO[discards_to(form)],
        "K_LEFTOVER_LAST": t.leftover.to == "last_trick",
        "K_DISCARDS_LAST": discards_to(form) == "last_trick",
        # play
        "K_LEADER_FORCED": p.leader == "forced",
        "K_LEADER_DEALER_LEFT": p.leader == "dealer_left",
        "K_MUST_FOLLOW": p.must_follow,
        "K_MUST_BEAT": p.must_beat != "no",
        "K_BEAT_BEST": p.must_beat != "led_card",
        "K_BEAT_WHEN_TRUMPED": p.beat_when_trumped,
        "K_MUST_TRUMP": p.must_trump,
        "K_MUST_OVERTRUMP": p.must_overtrump,
        "K_ANY_CARD": p.cannot_overtrump == "any_card",
        "K_HIGHEST_BEAT": p.beat_with_highest,
        "K_HIGHEST_TRUMP": p.trump_with_highest,
        "K_LEAD_RULE": p.lead_after_marriage != "any",
        "K_LEAD_TRUMP": p.lead_after_marriage == "trump",
        # marriages (the timing: engine/play.py compile_marriage_bar)
        "K_ANY_TIME": bar is never_barred,
        "K_BAR_WON": m.requires_won_trick,
        "K_BAR_FIRST": not m.declarer_first_lead,
        "K_FROM_TRICK": m.from_trick - 1,
        "K_MIN_CARDS": m.min_cards,
        "K_AUTOMATIC": m.announcement == "automatic",
        "K_SETS_TRUMP": m.sets_trump,
        "K_FIRST_ONLY": m.trump_change == "first_only",
        "K_NEXT_TRICK": m.trump_from == "next_trick",
        "K_CLAIM": form.contract.claim_allowed,
        "K_SIMPLE_SETTLE": simple_settlement(form) is None,
        # a forfeit (engine/talon.py may_forfeit, apply_forfeit)
        "K_FORFEIT_ON": form.contract.forfeit.enabled,
        "K_FORFEIT_BEFORE_TALON": form.contract.forfeit.when == "before_talon",
        "K_FORFEIT_BEFORE_EXCHANGE": form.contract.forfeit.when == "before_exchange",
        "K_FORFEIT_CODE": CODES["K_FORFEIT"],
        # the deal's opening (auction.opening_of, dark_declared): a golden-round deal, a
        # barrel deal without an auction, the dark game
        "K_OPENINGS": flow.has(form, "opening"),
        "K_GOLDEN": gr.enabled,
        "K_GOLDEN_DARK": gr.dark_allowed,
        "K_GOLDEN_CONTRACT": gr.contract,
        "K_GOLDEN_MULTIPLIER": gr.multiplier,
        "K_BARREL_NONE": br.enabled and br.bidding == "none",
        "K_BARREL_GOAL": br.goal,
        "K_DARK_ON": dk.enabled,
        "K_DARK_FIRST_HAND": dk.who == "first_hand",
        "K_DARK_NOT_NEGATIVE": dk.forbidden_when_negative,
        "K_CANCEL_WITH_MARRIAGE": dk.cancel_with_marriage,
        "K_DARK_CONTRACT": dk.contract,
        "K_DARK_MULTIPLIER": dk.multiplier,
        "K_DARK_CODE": CODES["K_DARK"],
        "K_CANCEL_DARK_CODE": CODES["K_CANCEL_DARK"],
        "K_PAIRS": auction.marriage_masks(form, pack),
        # redeals (engine/dealing.py redeal_point at each timing; an auction everyone passes
        # dealt again, auction.all_pass: redeal, or the dealer exempt); auction.may_bid
        "K_REDEALS_AFTER_DEAL": flow.has(form, "redeal.after_deal"),
        "K_ALL_PASS_REDEAL": a.all_pass == "redeal",
        "K_PASSED_OUT_MAX": auction.PASSED_OUT_MAX,
        "K_DEALER_EXEMPT": a.dealer_exempt and a.may_bid is not None and a.all_pass == "dealer_plays",
        "K_REDEALS_ANY": bool(form.deal.redeals) or a.all_pass == "redeal" or (
            a.dealer_exempt and a.may_bid is not None and a.all_pass == "dealer_plays"),
        "K_MAY_BID": a.may_bid is not None,
        # may_bid's values kept by the hand alone (fast/__init__.py may_bids): the cards it sees
        "K_MAY_BY_HAND": a.may_bid is not None
        and a.may_bid.reads.isdisjoint({*envs.BASE_NAMES, "high_bid", "forced"}),
        "K_MAY_SEEN": seen_cards(a.may_bid, "hand", pack, m) if a.may_bid is not None else 0,
        # auction.max_bid's values kept by the hand alone (fast/__init__.py highest_bid)
        "K_BID_KEPT": a.max_bid is not None and a.max_bid.reads.isdisjoint(envs.BASE_NAMES),
        "K_BID_SEEN": seen_cards(a.max_bid, "hand", pack, m) if a.max_bid is not None else 0,
        "K_CUT": form.deal.cut.enabled,
        "K_CUT_BAD": sum(c.bit for c in pack if c.rank.id in form.deal.cut.bad_ranks),
        "K_PRELUDE": form.deal.cut.enabled or flow.has(form, "redeal.after_deal"),
        # the ace marriage (engine/play.py compile_legal, _with_aces, compile_apply)
        "K_ACE_MARRIAGE": m.ace_marriage.enabled,
        "K_ACES_WON": m.ace_marriage.requires_won_trick,
        "K_ACES_TRUMP": m.ace_marriage.sets_trump and m.sets_trump,
        "K_ACES_BITS": sum(c.bit for c in pack if c.rank.id == m.ace_marriage.rank),
        "K_ACES_N": sum(1 for c in pack if c.rank.id == m.ace_marriage.rank),
        "K_ACES_CODE": CODES["K_ACES"],
        "K_ACES_VALUE": m.ace_marriage.value,
        # the pack
        "K_SUIT_MASK": tuple(c.suit_bits for c in pack),
        "K_SUIT_OF": tuple(suit_ids.index(c.suit_id) for c in pack),
        "K_POINTS": tuple(c.points for c in pack),
        "K_PARTNER": tuple(partner),
        "K_MVAL": tuple(m.values.get(s, 0) for s in suit_ids),
        # the codes of the bids 0, step, 2 step, … up to the most a deal is worth (or the cap)
        "K_BID_CODES": tuple(CODES["K_BID"] + k * a.step for k in range(
            max(a.cap or 0, a.forced_bid, a.min_bid, sum(c.points for c in pack) + sum(m.values.values()))
            // a.step + 1)),
    }
    # engine/dealing.py DealingPlan: where each card of the shuffled pack goes (no talon
    # restriction draws a random number): dealt positions, read once here
    plan = dealing.dealing_plan(form)
    out["K_PLANNED"] = plan is not None
    out["K_ACTIVE"] = form.active
    if plan is not None:
        positions = list(range(n))
        hands, talons = plan.deal(positions, list(range(form.active)))  # type: ignore[arg-type]
        out["K_HAND_POS"] = tuple(tuple(hands[k]) for k in range(form.active))
        out["K_TALON_POS"] = tuple(tuple(t) for t in talons)
    else:
        out["K_HAND_POS"] = out["K_TALON_POS"] = ()
    out.update(_drawn_talon(form, plan is None))
    out["K_VIEWS"] = views
    out["K_STEPS"] = flow.steps(form)  # (the blocks written, in order: generate, _in_flow_order)
    clash = set(out) & set(CODES)
    if clash:  # (a constant and an action code of one name: one would hide the other)
        raise AssertionError(f"constants named as action codes: {sorted(clash)}")
    out.update(CODES)
    return out


def _drawn_talon(form: Form, drawn: bool) -> dict[str, Any]:
    """The ``K_TP_*`` values of a dealing whose talon positions are drawn (the twin of
    :func:`~tysiac_spec.engine.dealing.talon_positions`: the positions ``lo + s`` of a
    ``random.sample`` of ``range(room)``, or ``lo + s + i`` of the ``i``-th smallest of
    ``range(room - k + 1)`` when no two may be consecutive; CPython's ``sample`` draws from a
    pool when ``n`` is at most its ``setsize``, else by rejection from a set), and who receives
    the other positions in turn (from the engine's :func:`~tysiac_spec.engine.dealing.deal_cards`
    of the positions themselves: the turn does not depend on where the talon falls).
    ``K_TP_INLINE`` is false (the engine deals) when the positions are not drawn or the
    restrictions leave no room (the engine's error)."""
    d, k = form.deal, sum(form.table.talons)
    total = form.table.hand_size * form.active + k
    out: dict[str, Any] = {"K_TP_INLINE": False, "K_TP_N": 0, "K_TP_K": 0, "K_TP_POOL": True,
                           "K_TP_OFF": (), "K_TP_TOTAL": 0, "K_TP_TURN": (), "K_TP_SIZES": ()}
    if not drawn:
        return out
    lo, hi = d.talon_not_first, total - d.talon_not_last
    if d.talon_within_first:
        hi = min(hi, d.talon_within_first)
    room = hi - lo
    n = room - (k - 1) if d.talon_not_consecutive else room
    if n < k or k < 1:
        return out
    setsize = 21  # (CPython's random.sample)
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3, 4))
    hands, _ = dealing.deal_cards(form, list(range(total)), list(range(form.active)),  # type: ignore[arg-type]
                                  random.Random(0))
    owner = {int(pos): who for who, held in hands.items() for pos in held}  # type: ignore[call-overload]
    out.update({
        "K_TP_INLINE": True, "K_TP_N": n, "K_TP_K": k, "K_TP_POOL": n <= setsize,
        "K_TP_OFF": tuple(lo + (i if d.talon_not_consecutive else 0) for i in range(k)),
        "K_TP_TOTAL": total, "K_TP_TURN": tuple(owner[pos] for pos in sorted(owner)),
        "K_TP_SIZES": tuple(form.table.talons),
    })
    return out


_BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.LShift: operator.lshift,
    ast.RShift: operator.rshift, ast.BitOr: operator.or_, ast.BitAnd: operator.and_,
}
_COMPARE: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
}


def _const(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant)


def _as_truth(test: ast.expr) -> ast.expr:
    """``test`` read only for its truth (an ``if``'s): the constants that do not decide an
    ``and`` or an ``or`` dropped (``x and True`` is ``x`` there)."""
    if not isinstance(test, ast.BoolOp):
        return test
    neutral = isinstance(test.op, ast.And)
    test.values = [_as_truth(v) for v in test.values]  # (an operand is read for its truth too)
    if not any(isinstance(n, ast.Call | ast.NamedExpr) for n in ast.walk(test)) and any(
            _const(v) and bool(v.value) is not neutral for v in test.values):  # type: ignore[attr-defined]
        return ast.copy_location(ast.Constant(not neutral), test)  # (decided by a constant)
    kept = [v for v in test.values if not (_const(v) and bool(v.value) is neutral)]  # type: ignore[attr-defined]
    if not kept:
        return ast.copy_location(ast.Constant(neutral), test)
    if len(kept) == 1:
        return kept[0]
    test.values = kept
    return test


class _Folder(ast.NodeTransformer):
    """Replaces the ``K_*`` names by constants and folds what became constant."""

    def __init__(self, values: Mapping[str, Any]) -> None:
        self.values = values

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if isinstance(node.ctx, ast.Load) and node.id in self.values:
            return ast.copy_location(ast.Constant(self.values[node.id]), node)
        return node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            node.operand = _as_truth(node.operand)
        if _const(node.operand):
            value = node.operand.value  # type: ignore[attr-defined]
            if isinstance(node.op, ast.Not):
                return ast.copy_location(ast.Constant(not value), node)
            if isinstance(node.op, ast.USub) and isinstance(value, int):
                return ast.copy_location(ast.Constant(-value), node)
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        fn = _BINARY.get(type(node.op))
        if fn is not None and _const(node.left) and _const(node.right):
            left, right = node.left.value, node.right.value  # type: ignore[attr-defined]
            if isinstance(left, int) and isinstance(right, int) and not isinstance(left, bool):
                return ast.copy_location(ast.Constant(fn(left, right)), node)
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        if len(node.ops) == 1 and _const(node.left) and _const(node.comparators[0]):
            fn = _COMPARE.get(type(node.ops[0]))
            if fn is not None:
                value = fn(node.left.value, node.comparators[0].value)  # type: ignore[attr-defined]
                return ast.copy_location(ast.Constant(bool(value)), node)
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.generic_visit(node)
        is_and = isinstance(node.op, ast.And)
        kept: list[ast.expr] = []
        for v in node.values:
            if _const(v):
                truth = bool(v.value)  # type: ignore[attr-defined]
                if is_and and not truth:
                    if not kept:
                        return v  # the whole `and` is this falsy constant
                    kept.append(v)
                    break
                if not is_and and truth:
                    if not kept:
                        return v
                    kept.append(v)
                    break
                continue  # a neutral constant (true in `and`, false in `or`): dropped
            kept.append(v)
        if not kept:
            return ast.copy_location(ast.Constant(is_and), node)
        # a neutral constant is dropped but at the end: `True and x` is x, `x and True` is x
        # only as a truth value (kept as written when x is not a test)
        last = node.values[-1]
        trailing = _const(last) and bool(last.value) is is_and and kept[-1] is not last  # type: ignore[attr-defined]
        if len(kept) == 1:
            only = kept[0]
            if not trailing or isinstance(only, ast.Compare | ast.BoolOp | ast.UnaryOp):
                return only
            node.values = [only, last]
            return node
        boolean = isinstance(kept[-1], ast.Compare) or (
            isinstance(kept[-1], ast.UnaryOp) and isinstance(kept[-1].op, ast.Not))
        node.values = [*kept, last] if trailing and not boolean else kept
        return node

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        self.generic_visit(node)
        if _const(node.test):
            return node.body if node.test.value else node.orelse  # type: ignore[attr-defined]
        return node

    def visit_If(self, node: ast.If) -> Any:
        self.generic_visit(node)
        node.test = _as_truth(node.test)
        if _const(node.test):
            kept = node.body if node.test.value else node.orelse  # type: ignore[attr-defined]
            return kept or [ast.Pass()]
        if all(isinstance(x, ast.Pass) for x in node.body + node.orelse) and not any(
                isinstance(n, ast.Call | ast.NamedExpr) for n in ast.walk(node.test)):
            return ast.Pass()  # (nothing left to do on either side)
        return node


INLINED: dict[str, Callable[..., Any]] = {
    "I_takes": play.takes,
    "I_leads": play.leads,
    "I_duty_cards": play.duty_cards,
    "I_bid_range": auction.bid_range,
    "I_marriage_barred": play.marriage_barred,
    "I_trump_after": play.trump_after,
    "I_sure_to_win": play.sure_to_win,
    "I_aces_declarable": play.aces_declarable,
    "I_ace_marriage_declared": play.ace_marriage_declared,
    "I_declared_leads": play.declared_leads,
    "I_auction_over": auction.auction_over,
    "I_unopposed": auction.unopposed,
    "I_passed_out": auction.passed_out,
    "I_passed_out_declarer": auction.passed_out_declarer,
    "I_passed_out_count": auction.passed_out_count,
    "I_dark_candidates": auction.dark_candidates,
    "I_opening_of": auction.opening_of,
    "I_dark_declared": auction.dark_declared,
    "I_dark_allowed": auction.dark_allowed,
    "I_dark_cancellers": auction.dark_cancellers,
    "I_marriage_holders": auction.marriage_holders,
    "I_passed_out_redealt": auction.passed_out_redealt,
    "I_shuffled": dealing.shuffled,
    "I_bad_cut": dealing.bad_cut,
    "I_sample_drawn": dealing.sample_drawn,
    "I_receivers": talon.receivers,
    "I_set_aside_taker": play.set_aside_taker,
    "I_talon_asked": talon.talon_asked,
    "I_contract_asked": talon.contract_asked,
    "I_forfeit_contract": talon.forfeit_contract,
    "I_leader_of": announcing.leader_of,
    "I_seat_from": seating.seat_from,
    "I_next_seat": seating.next_seat,
}
"""The engine's rules the template writes inline, by the template's name for each.  A rule
stated as one ``return`` expression is inlined wherever it is called: ``I_name(a, b, …)``
becomes the expression with its parameters replaced by the arguments.  A rule stated as
statements ending in its only ``return`` is inlined where it is assigned,
``x, y = I_name(a, b, …)``: its statements with the parameters replaced by the arguments and
its locals renamed apart (``_i_<name>_<local>``, or the targets themselves when it returns
its locals), then the targets assigned.  The arguments are names or constants (so nothing is
evaluated twice); the rule reads nothing but its parameters, its locals and its module's
constants (ints, bools, ``None``).  A form's ``K_*`` constant passed as an argument is then
folded like the template's own, so each form keeps only the branches its rules switch on.
The rule is stated once, in the engine, and its text is part of :func:`source_key`."""


_BUILTINS = frozenset({"range", "list", "len", "min", "max", "sorted"})
"""The built-in functions an inlined rule may call (the generated code calls the same)."""


class _Inlinable:
    """An :data:`INLINED` function read from its source: ``params``, the statements before its
    ``return`` (``body``, empty for a one-expression rule), the returned expression
    (``result``), its ``locals`` and the module constants it reads (``constants``)."""

    def __init__(self, function: Callable[..., Any]) -> None:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
        fn = tree.body[0]
        assert isinstance(fn, ast.FunctionDef), function
        body = fn.body[1:] if ast.get_docstring(fn) is not None else fn.body
        name = function.__qualname__
        self.name = function.__name__
        self.params = [a.arg for a in fn.args.args]
        if fn.args.vararg or fn.args.kwarg or fn.args.kwonlyargs or fn.args.defaults:
            raise AssertionError(f"{name}: only plain parameters can be inlined")
        returns = [n for stmt in body for n in ast.walk(stmt) if isinstance(n, ast.Return)]
        if not body or not isinstance(body[-1], ast.Return) or len(returns) != 1 or body[-1].value is None:
            raise AssertionError(f"{name}: not one return expression at its end, cannot be inlined")
        nested = _Nested(function.__globals__)
        body = [x for stmt in body for x in _statements(nested.visit(_Unannotated().visit(stmt)))]
        self.body: list[ast.stmt] = body[:-1]
        self.result: ast.expr = body[-1].value  # type: ignore[attr-defined]
        stored = {n.id for stmt in self.body for n in ast.walk(stmt)
                  if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        if stored & set(self.params):
            raise AssertionError(f"{name} assigns its parameters {sorted(stored & set(self.params))}")
        if any(isinstance(n, ast.FunctionDef | ast.Lambda | ast.ClassDef | ast.Global | ast.Nonlocal
                          | ast.comprehension | ast.NamedExpr)
               for stmt in body for n in ast.walk(stmt)):
            raise AssertionError(f"{name}: nested scopes cannot be inlined")
        self.locals = stored
        read = {n.id for stmt in body for n in ast.walk(stmt) if isinstance(n, ast.Name)}
        outside = read - set(self.params) - stored
        self.constants: dict[str, Any] = {}
        for other in sorted(outside):
            value = function.__globals__.get(other, _Inlinable)
            if value is None or type(value) in (int, bool):
                self.constants[other] = value
        builtin = {x for x in outside if x in _BUILTINS and x not in function.__globals__}
        unknown = sorted(outside - set(self.constants) - builtin)
        if unknown:
            raise AssertionError(f"{name} reads {unknown}: cannot be inlined")


def _statements(node: ast.stmt | list[ast.stmt]) -> list[ast.stmt]:
    """A transformed statement as a list (a statement inlined becomes several)."""
    return node if isinstance(node, list) else [node]


class _Unannotated(ast.NodeTransformer):
    """A rule's ``x: T = v`` as ``x = v`` (the template declares the types it needs)."""

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        if node.value is None or not isinstance(node.target, ast.Name):
            raise AssertionError("an inlined rule declares a local without a value")
        return ast.copy_location(ast.Assign([node.target], node.value), node)


class _Nested(ast.NodeTransformer):
    """Inlines, in a rule's body, its calls of the module's other rules: a one-expression rule
    (``round_up`` in ``auction.bid_range``) becomes its expression, a rule of statements
    assigned (``now, later = trump_after(...)`` in ``play.ace_marriage_declared``) its
    statements, as :class:`_Inliner` does; called with names or constants."""

    def __init__(self, module: Mapping[str, Any]) -> None:
        self.module = module

    def _rule(self, node: ast.expr) -> tuple[str, _Inlinable] | None:
        """The module's rule ``node`` calls with names or constants, read from its source."""
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            return None
        fn = self.module.get(node.func.id)
        if not inspect.isfunction(fn) or node.keywords or not all(
                isinstance(a, ast.Name | ast.Constant) for a in node.args):
            return None
        return node.func.id, _Inlinable(fn)

    def visit_Assign(self, node: ast.Assign) -> Any:
        found = self._rule(node.value)
        if found is None or not found[1].body:
            return self.generic_visit(node)
        return _Inliner({found[0]: found[1]}).visit_Assign(node)

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        found = self._rule(node)
        if found is None:
            return node
        rule = found[1]
        if rule.body or rule.constants or len(node.args) != len(rule.params):
            return node
        names = dict(zip(rule.params, node.args, strict=True))
        inlined: ast.AST = _Renamer(names).visit(copy.deepcopy(rule.result))
        return ast.copy_location(inlined, node)


def _inline_body(function: Callable[..., Any]) -> tuple[list[str], ast.expr]:
    """The parameters of ``function`` and the expression its body returns (its only statement
    after the docstring, reading nothing but its parameters and its module's constants)."""
    rule = _Inlinable(function)
    if rule.body:
        raise AssertionError(f"{function.__qualname__}: not one return expression, cannot be inlined")
    return rule.params, rule.result


class _Renamer(ast.NodeTransformer):
    """Each name of ``names`` replaced by a copy of its node (an argument, a constant or a
    renamed local)."""

    def __init__(self, names: Mapping[str, ast.expr]) -> None:
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.AST:
        new = self.names.get(node.id)
        if new is None:
            return node
        out = copy.deepcopy(new)
        if isinstance(out, ast.Name):
            out.ctx = node.ctx
        return ast.copy_location(out, node)


class _Inliner(ast.NodeTransformer):
    """Replaces each call of an :data:`INLINED` name by the engine function's statements and
    expression."""

    def __init__(self, rules: Mapping[str, _Inlinable] | None = None) -> None:
        self.rules = dict(rules) if rules is not None else {
            name: _Inlinable(f) for name, f in INLINED.items()}

    def _call(self, node: ast.expr) -> tuple[_Inlinable, dict[str, ast.expr]] | None:
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in self.rules):
            return None
        rule = self.rules[node.func.id]
        if node.keywords or len(node.args) != len(rule.params) or not all(
                isinstance(a, ast.Name | ast.Constant) for a in node.args):
            raise AssertionError(f"{node.func.id}: call it with {len(rule.params)} names or constants")
        names: dict[str, ast.expr] = dict(zip(rule.params, node.args, strict=True))
        names.update({k: ast.Constant(v) for k, v in rule.constants.items()})
        return rule, names

    def visit_Assign(self, node: ast.Assign) -> Any:
        found = self._call(node.value)
        if found is None or not found[0].body:
            return self.generic_visit(node)
        rule, names = found
        if len(node.targets) != 1:
            raise AssertionError(f"I_{rule.name}: assign it to one target")
        target = node.targets[0]
        given = {a.id for a in node.value.args if isinstance(a, ast.Name)}  # type: ignore[attr-defined]
        targets = [target] if isinstance(target, ast.Name) else (
            list(target.elts) if isinstance(target, ast.Tuple) else [])
        results = [rule.result] if isinstance(rule.result, ast.Name) else (
            list(rule.result.elts) if isinstance(rule.result, ast.Tuple) else [])
        # a target `_`: the result is not wanted (its local is renamed apart, and its stores
        # dropped after folding when nothing reads it: _DeadLocals)
        if len(targets) == len(results):
            targets = [ast.Name(f"_i_{rule.name}_{r.id}", ast.Store())
                       if isinstance(t, ast.Name) and t.id == "_" and isinstance(r, ast.Name) else t
                       for t, r in zip(targets, results, strict=True)]
        direct = (len(targets) == len(results) and targets
                  and all(isinstance(t, ast.Name) and t.id not in given for t in targets)
                  and all(isinstance(r, ast.Name) and r.id in rule.locals for r in results)
                  and len({r.id for r in results}) == len(results))  # type: ignore[attr-defined]
        local_names = {x: ast.Name(f"_i_{rule.name}_{x}", ast.Load()) for x in rule.locals}
        if direct:
            for t, r in zip(targets, results, strict=True):
                local_names[r.id] = ast.Name(t.id, ast.Load())  # type: ignore[attr-defined]
        names.update(local_names)
        renamer = _Renamer(names)
        out: list[ast.stmt] = [renamer.visit(copy.deepcopy(stmt)) for stmt in rule.body]
        if not direct:
            out.append(ast.Assign([target], renamer.visit(copy.deepcopy(rule.result))))
        return [ast.copy_location(stmt, node) for stmt in out]

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        found = self._call(node)
        if found is None:
            return node
        rule, names = found
        if rule.body:
            raise AssertionError(f"I_{rule.name}: a rule of statements is inlined only assigned, "
                                 f"`x = I_{rule.name}(...)`")
        inlined: ast.AST = _Renamer(names).visit(copy.deepcopy(rule.result))
        return ast.copy_location(inlined, node)


_PURE = (ast.Constant, ast.Name, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.cmpop, ast.boolop)


class _DeadLocals(ast.NodeTransformer):
    """Drops the stores to a function's local that nothing reads once the form's constants are
    folded (an inlined rule's result the template does not want, the bookkeeping of a branch
    the form switches off); only stores of names, constants and their arithmetic."""

    def __init__(self, tree: ast.AST) -> None:
        self.read = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        self.inside = False

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        self.inside = True
        self.generic_visit(node)
        self.inside = False
        return node

    def _dead(self, target: ast.expr, value: ast.expr) -> bool:
        return (self.inside and isinstance(target, ast.Name) and target.id not in self.read
                and all(isinstance(n, (*_PURE, ast.operator, ast.unaryop, ast.expr_context))
                        or (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "len")
                        or (isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load))
                        for n in ast.walk(value)))

    def visit_Assign(self, node: ast.Assign) -> Any:
        if len(node.targets) == 1 and self._dead(node.targets[0], node.value):
            return None
        target = node.targets[0]
        if isinstance(target, ast.Name) and isinstance(node.value, ast.Name) and target.id == node.value.id:
            return None  # (`x = x`: an inlined rule that returns the list it was given)
        return node

    def visit_AugAssign(self, node: ast.AugAssign) -> Any:
        return None if self._dead(node.target, node.value) else node

    def generic_visit(self, node: ast.AST) -> ast.AST:
        super().generic_visit(node)
        for field in ("body", "orelse"):  # (a `pass` only where a block would be empty)
            block = getattr(node, field, None)
            if isinstance(block, list) and all(isinstance(x, ast.stmt) for x in block):
                block[:] = [x for x in block if not isinstance(x, ast.Pass)]
                if not block and field == "body" and not isinstance(node, ast.Module):
                    block.append(ast.Pass())
        return node


def _inlined_source() -> str:
    """The source of the :data:`INLINED` engine functions (part of :func:`source_key`)."""
    modules = {f.__module__: inspect.getmodule(f) for f in INLINED.values()}  # (with the rules they call)
    return "".join(inspect.getsource(m) for _, m in sorted(modules.items()) if m is not None)


def _strip_placeholders(tree: ast.Module) -> None:
    """Drop the template's placeholder assignments (``K_* = ...``, ``H_* = ...``)."""
    body: list[ast.stmt] = [ast.Expr(ast.Constant(
        "A form's fast path, generated by tysiac_spec.fast from its template (do not edit)."
    ))]
    for stmt in tree.body[1:] if ast.get_docstring(tree) is not None else tree.body:
        if isinstance(stmt, ast.Assign):
            names = [n.id for t in stmt.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
            if names and all(x.startswith(("K_", "H_", "I_")) or x == "STEP" for x in names):
                continue
        body.append(stmt)
    tree.body = body


def fold(tree: ast.Module, values: Mapping[str, Any]) -> ast.Module:
    """``tree`` with every ``I_*`` call inlined (:data:`INLINED`), every ``K_*`` name replaced
    by its value and the constant parts folded."""
    _strip_placeholders(tree)
    tree = _Inliner().visit(tree)
    tree = _Folder(values).visit(tree)
    for _ in range(3):  # (a local fixed to a constant can fold another test, and so on)
        fixed = _fixed_locals(tree)
        if not fixed:
            break
        tree = _Folder(fixed).visit(_Unfixed(fixed).visit(tree))
    tree = _DeadLocals(tree).visit(tree)
    ast.fix_missing_locations(tree)
    return tree


def _fixed_locals(tree: ast.Module) -> dict[str, Any]:
    """The locals of the template's functions stored once, by ``x = <constant>`` (an inlined
    rule's flag once the form's constants are folded), by name: read as that constant."""
    out: dict[str, Any] = {}
    for fn in tree.body:
        if not isinstance(fn, ast.FunctionDef):
            continue
        stores: dict[str, int] = {}
        constant: dict[str, Any] = {}
        params = {a.arg for a in fn.args.args}
        declared = {id(n.target) for n in ast.walk(fn) if isinstance(n, ast.AnnAssign) and n.value is None}
        for n in ast.walk(fn):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store | ast.Del) and id(n) not in declared:
                stores[n.id] = stores.get(n.id, 0) + 1
            if (isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)
                    and isinstance(n.value, ast.Constant) and type(n.value.value) in (bool, int)):
                constant[n.targets[0].id] = n.value.value
        out.update({x: v for x, v in constant.items() if stores.get(x) == 1 and x not in params})
    return out


class _Unfixed(ast.NodeTransformer):
    """Drops the one store of each fixed local (:func:`_fixed_locals`)."""

    def __init__(self, fixed: Mapping[str, Any]) -> None:
        self.fixed = fixed

    def visit_Assign(self, node: ast.Assign) -> Any:
        target = node.targets[0]
        if len(node.targets) == 1 and isinstance(target, ast.Name) and target.id in self.fixed:
            return ast.copy_location(ast.Pass(), node)
        return node


def _is_step(stmt: ast.stmt) -> str | None:
    """The step name of a template statement ``STEP("name")`` (the start of a step's block),
    else ``None``."""
    if (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Name) and stmt.value.func.id == "STEP"):
        arg = stmt.value.args[0]
        assert isinstance(arg, ast.Constant) and isinstance(arg.value, str)
        return arg.value
    return None


def _in_flow_order(tree: ast.Module, steps: tuple[str, ...]) -> ast.Module:
    """``tree`` with the deal loop of ``play_match`` written as the blocks of ``steps`` (a
    form's steps, :func:`~tysiac_spec.engine.flow.steps`), in that order: the template's loop
    is cut at each ``STEP("name")``, and the block of a step the form does not have is
    dropped.  The order of a deal is :data:`~tysiac_spec.engine.flow.STEPS`', never the
    template's.

    Raises:
        AssertionError: a step of the form without a block in the template (a form the fast
            path does not cover, :mod:`.coverage`), a block named twice, or a block of no
            step of :data:`~tysiac_spec.engine.flow.STEPS`.
    """
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "play_match")
    loop = next(n for n in fn.body if isinstance(n, ast.While) and any(_is_step(s) for s in n.body))
    blocks: dict[str, list[ast.stmt]] = {}
    block: list[ast.stmt] | None = None
    for stmt in loop.body:
        name = _is_step(stmt)
        if name is not None:
            if name in blocks or name not in {s.name for s in flow.STEPS}:
                raise AssertionError(f"template: the block STEP({name!r}) twice, or of no step of "
                                     "engine/flow.py")
            block = blocks[name] = []
        elif block is None:
            raise AssertionError("template: a statement of the deal loop before its first STEP(...)")
        else:
            block.append(stmt)
    missing = [name for name in steps if name not in blocks]
    if missing:
        raise AssertionError(f"template: no block for the steps {missing} (a form the fast path "
                             "does not cover)")
    loop.body = [stmt for name in steps for stmt in blocks[name]]
    return tree


def generate(form: Form, pack: tuple[Card, ...], views: bool = False) -> ast.Module:
    """The syntax tree of ``form``'s generated module: the template's deal loop written as
    the form's steps in the engine's order (:func:`_in_flow_order`,
    :mod:`~tysiac_spec.engine.flow`), folded with its :func:`constants` (``views``:
    recording the views, :mod:`.views`)."""
    values = constants(form, pack, views)
    tree = _in_flow_order(ast.parse(template_source(), filename="<tysiac fast template>"), values["K_STEPS"])
    return fold(tree, values)


def source_key(form: Form, pack: tuple[Card, ...], views: bool = False) -> str:
    """The content hash the generated code is cached under: the hash of what it is generated
    from, the form's :func:`constants` (every value of the rules the code holds; formulas are
    evaluated by the engine's evaluators, bound at run time, not held in the code) and the
    template's text.  Two forms with the same constants share one module."""
    h = hashlib.sha256()
    h.update(repr(sorted(constants(form, pack, views).items())).encode())
    h.update(template_source().encode())
    h.update(_inlined_source().encode())
    return h.hexdigest()[:20]


def deal_function(form: Form) -> Callable[..., Any]:
    """``deal(cards, order, rng)``: the hands (sequences of card indexes, in ``order``) and
    talons of a shuffled pack of card indexes, as the engine deals them (its
    :class:`~tysiac_spec.engine.dealing.DealingPlan`, or :func:`~tysiac_spec.engine.dealing.deal_cards`
    when talon positions are drawn)."""
    plan = dealing.dealing_plan(form)
    active = form.active
    if plan is not None:
        deal = plan.deal

        def planned(cards: list[int], order: list[int], rng: Any) -> tuple[list[Any], list[Any]]:
            if len(order) == active:
                hands, talons = deal(cards, order)  # type: ignore[arg-type]
                return [hands[p] for p in order], talons
            return drawn(cards, order, rng)

        def drawn(cards: list[int], order: list[int], rng: Any) -> tuple[list[Any], list[Any]]:
            hands, talons = dealing.deal_cards(form, cards, order, rng)  # type: ignore[arg-type]
            return [hands[p] for p in order], talons

        return planned

    def drawn_only(cards: list[int], order: list[int], rng: Any) -> tuple[list[Any], list[Any]]:
        hands, talons = dealing.deal_cards(form, cards, order, rng)  # type: ignore[arg-type]
        return [hands[p] for p in order], talons

    return drawn_only
