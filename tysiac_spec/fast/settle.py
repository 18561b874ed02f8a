"""The settlement of a played deal for a form whose match has no mechanism beyond the
target: :func:`~tysiac_spec.engine.match.settle_valid_deal`'s steps for that case, kept in a
list of scores instead of a ``MatchState``.

:func:`simple_settlement` says whether a form is such a form (no barrel, bolts, threshold,
counters, match rules, golden round, forfeit, tie raise or loss; scoring formulas that do
not read the ``player`` record).  For it, :func:`compile_settle` returns ``settle(scores,
deals, declarer, contract, order, sitter, points, married, tricks, talon, events)``: the
deal's scores by the ruleset's formulas (the engine's evaluators, each result kept by its
inputs: a formula of these contexts is a function of them), then the engine's own
statements of the events, ``match.finishing`` and the winner
(:func:`~tysiac_spec.engine.match.contract_event`, ``declarer_finishes``, ``winner_of``,
``won_event``).  Every other form is settled by the engine itself,
one call per deal.  ``tests/test_fast_path.py`` compares the two on every shipped form.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from ..cards import Card
from ..engine import env as envs
from ..engine.events import MatchEvent
from ..engine.match import contract_event, declarer_finishes, winner_of, won_event
from ..engine.scoring import compile_formula_scores, sitter_talon_score
from ..ruleset.model import Form, Formula

__all__ = ["compile_settle", "simple_settlement"]


def simple_settlement(form: Form) -> str | None:
    """Why ``form``'s deals need the engine's full settlement, or ``None`` when
    :func:`compile_settle` settles them."""
    m, s = form.match, form.special
    checks = (
        (m.threshold.enabled, "match.threshold"),
        (bool(m.counters), "match.counters"),
        (bool(m.rules), "match.rules"),
        (m.finishing.tie_raise != 0, "match.finishing.tie_raise"),
        (m.finishing.loss is not None, "match.finishing.loss"),
        (s.barrel.enabled, "special.barrel"),
        (s.bolts.enabled, "special.bolts"),
        (s.golden_round.enabled, "special.golden_round"),
        (s.dark.enabled, "special.dark"),
        (form.contract.forfeit.enabled, "contract.forfeit"),
        (form.table.partnerships != "none", "table.partnerships"),
        (bool(form.deal.redeals), "deal.redeals"),
        (form.deal.cut.enabled, "deal.cut"),
        (form.auction.all_pass == "redeal", "auction.all_pass"),
        (form.auction.dealer_exempt, "auction.dealer_exempt"),
    )
    for on, name in checks:
        if on:
            return name
    # the simple settlement keeps the scores in a list, not in a MatchState: no formula of the
    # form may read the player record (auction.may_bid, max_bid, contract.max, redeal
    # conditions, scoring, the sitter's score…)
    for f in _formulas(form):
        if "player" in f.reads:
            return f"{'.'.join(map(str, f.path)) or f.context} reads the player record"
    return None


def _formulas(obj: Any) -> list[Formula]:
    """Every formula under ``obj`` (a model dataclass, tuples of them included)."""
    out: list[Formula] = []
    if isinstance(obj, Formula):
        return [obj]
    if isinstance(obj, tuple):
        for item in obj:
            out += _formulas(item)
        return out
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            if f.name != "provenance":
                out += _formulas(getattr(obj, f.name))
    return out


def compile_settle(form: Form, pack: Sequence[Card], options: dict[str, Any]) -> Callable[..., int]:
    """The settlement of a played deal of ``form`` (see the module's docstring); returns the
    winner's seat or ``-1``, having added the deal's changes to ``scores`` (a list by seat) and
    its events to ``events``."""
    made_of, declarer_of, defender_of = compile_formula_scores(form, options)  # (the form's options, fixed)
    record = envs.UNREAD_BASE["player"]  # (no formula here reads it: simple_settlement)
    no_facts = envs.NO_FACTS  # (nor a deal fact)
    sitter_cache: dict[tuple[int, ...], int] = {}
    only_declarer = form.match.finishing.who != "anyone"

    def settle(scores: list[int], deals: int, declarer: int, contract: int, order: list[int],
               sitter: int | None, points: list[int], married: list[int], tricks: list[int],
               talon: list[int], events: list[MatchEvent]) -> int:
        # the engine's statements of the formulas (scoring.compile_formula_scores)
        made = made_of(points[declarer], married[declarer], tricks[declarer], contract, options, no_facts)
        delta: dict[int, int] = {}
        for p in sorted(order):  # (the engine's outcome.active order: by seat)
            score_of = declarer_of if p == declarer else defender_of
            delta[p] = score_of(points[p], married[p], tricks[p], contract, made, options, no_facts, record)
        if sitter is not None:
            tkey = tuple(talon)  # (the engine's sitter_talon_score, kept by the talon)
            got = sitter_cache.get(tkey)
            if got is None:
                got = sitter_cache[tkey] = sitter_talon_score(form, tuple([pack[c] for c in talon]), record,
                                                              options)
            delta[sitter] = got
        events.append(contract_event(deals, declarer, contract, made))
        if only_declarer:
            events += declarer_finishes(form, scores, 0, delta, declarer, made, deals)
        for p, d in delta.items():
            scores[p] += d
        winner = winner_of(form, scores, 0, declarer)
        if winner is None:
            return -1
        events.append(won_event(form, deals, winner, scores[winner]))
        return winner

    return settle
