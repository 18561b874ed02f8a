"""The settlement of a played deal for a form whose match has nothing beyond the target and
``match.finishing``: the one statement the engine's games and the fast path both run.

:func:`simple_settlement` says whether a form is such a form (no barrel, bolts, threshold,
counters, match rules, golden round, dark game, forfeit, tie raise or loss, partnerships,
redeals, cut, named contracts, contra, selling the contract or all-pass play; scoring
formulas that read neither the ``player`` record nor a deal fact).  Its deals change the
match state's scores, dealer, deal count and winner only, so they are settled in a list of
scores: :func:`compile_simple_settle` returns ``settle(scores, deals, declarer, contract,
order, sitter, points, married, tricks, talon, events)``: the deal's scores by the ruleset's
formulas (:func:`.scoring.compile_formula_scores`, each result kept by its inputs; the sitter's
:func:`.scoring.sitter_talon_score`), then the steps of the one pipeline
(:data:`.match.STEPS`) the form selects, all :class:`.match.Deal` steps
(:attr:`.match.Settlement.deal_steps`: the contract's event, ``match.finishing``, the scores
added, the winner), in the table's order, on a :class:`.match.Deal` of the deal: no order of
its own.  ``Game`` settles such a form's deals
with it (:attr:`.compiled.Switches.simple_settle`), and so does the generated code of the fast
path (``tysiac_spec.fast``); every other deal goes through ``settle_valid_deal``.
``tests/test_simple_settle.py`` holds it to ``settle_valid_deal`` on every shipped simple form.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..cards import Card
from ..ruleset.model import Form, Formula
from . import env as envs
from .events import MatchEvent
from .match import Deal, MatchState, settlement_of
from .scoring import compile_formula_scores, facts_read, sitter_talon_score
from .state import DealState

__all__ = ["SimpleSettle", "compile_simple_settle", "settle_played", "settled_state", "simple_settlement"]

SimpleSettle = Callable[
    [list[int], int, int, int, Sequence[int], "int | None", Sequence[int], Sequence[int], Sequence[int],
     "Sequence[int] | None", list[MatchEvent]],
    tuple[int, bool],
]
"""``settle(scores, deals, declarer, contract, order, sitter, points, married, tricks, talon,
events) -> (winner, made)`` (:func:`compile_simple_settle`)."""


def simple_settlement(form: Form) -> str | None:
    """Why ``form``'s deals need :func:`~.match.settle_valid_deal`'s whole pipeline (the
    field that asks for it), or ``None`` when :func:`compile_simple_settle` settles them."""
    m, s, a, c = form.match, form.special, form.auction, form.contract
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
        (c.forfeit.enabled, "contract.forfeit"),
        (bool(c.kinds), "contract.kinds"),
        (c.contra.enabled, "contract.contra"),
        (form.talon.rebuy.enabled, "talon.rebuy"),
        (form.table.partnerships != "none", "table.partnerships"),
        (bool(form.deal.redeals), "deal.redeals"),
        (form.deal.cut.enabled, "deal.cut"),
        (a.all_pass in ("redeal", "play"), "auction.all_pass"),
        (a.dealer_exempt, "auction.dealer_exempt"),
        (bool(facts_read(form)), "scoring reads the deal facts"),
    )
    for on, name in checks:
        if on:
            return name
    # the scores are kept in a list, not in a MatchState: no formula of the form may read the
    # player record (auction.may_bid, max_bid, contract.max, scoring, the sitter's score…)
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


def compile_simple_settle(form: Form, options: Mapping[str, Any], pack: Sequence[Card]) -> SimpleSettle:
    """The settlement of a played deal of ``form`` (one :func:`simple_settlement` passes),
    its ``options`` fixed: ``settle(scores, deals, declarer, contract, order, sitter,
    points, married, tricks, talon, events)`` adds the deal's changes to ``scores`` (a list
    by seat) and its events to ``events``, and returns the winner's seat (``-1``: none) and
    whether the declarer made the contract.  ``deals``: the deals settled before this one
    (the events' deal number); ``order``: the active players; ``points``, ``married``,
    ``tricks``: by seat, the card points won (leftover cards included), the marriages
    declared and the tricks taken; ``talon``: the dealt talon as indexes into ``pack``, read
    only when ``sitter`` is a seat."""
    made_of, declarer_of, defender_of = compile_formula_scores(form, options)  # (the options fixed)
    record = envs.UNREAD_BASE["player"]  # (no formula here reads it: simple_settlement)
    no_facts = envs.NO_FACTS  # (nor a deal fact)
    sitter_cache: dict[tuple[int, ...], int] = {}
    steps = settlement_of(form).deal_steps
    spare: list[Deal] = []
    if steps is None:
        raise ValueError(f"not a simple form: {simple_settlement(form)}")

    def settle(scores: list[int], deals: int, declarer: int, contract: int, order: Sequence[int],
               sitter: int | None, points: Sequence[int], married: Sequence[int], tricks: Sequence[int],
               talon: Sequence[int] | None, events: list[MatchEvent]) -> tuple[int, bool]:
        made = made_of(points[declarer], married[declarer], tricks[declarer], contract, options, no_facts)
        delta: dict[int, int] = {}
        for p in sorted(order):  # (the engine's outcome.active order: by seat)
            score_of = declarer_of if p == declarer else defender_of
            delta[p] = score_of(points[p], married[p], tricks[p], contract, made, options, no_facts, record)
        if sitter is not None:
            assert talon is not None
            tkey = tuple(talon)  # (sitter_talon_score, kept by the talon)
            got = sitter_cache.get(tkey)
            if got is None:
                got = sitter_cache[tkey] = sitter_talon_score(form, tuple([pack[c] for c in talon]), record,
                                                              options)
            delta[sitter] = got
        # the deal's scratch: one kept from an earlier deal (a class call costs more than the
        # fields set again), or a new one when every kept one is in use (settlements at once)
        if spare:
            w = spare.pop()
            w.deals = deals
            w.declarer = declarer
            w.contract = contract
            w.made = made
            w.scores = scores
            w.delta = delta
            w.events = events
            w.winner = None
        else:
            w = Deal(form, deals, declarer, contract, made, False, scores, delta, events, 0, None, None)
        for step in steps:  # (the pipeline's own steps, in its order: match.STEPS)
            step(w)
        winner = w.winner
        spare.append(w)
        return (-1 if winner is None else winner), made

    return settle


def settled_state(
    state: MatchState, scores: Sequence[int], dealer: int, deals: int, winner: int
) -> MatchState:
    """``state`` after deals settled by :func:`compile_simple_settle`: its ``scores``, the
    next ``dealer``, the ``deals`` settled and the ``winner`` (-1: none); nothing else of a
    simple form's match state changes."""
    return MatchState(  # (by position, in the order of the fields: cheaper than replace)
        tuple(scores),
        state.counters,
        state.barrel,
        state.forfeits,
        state.bolts,
        dealer,
        deals,
        None if winner < 0 else winner,
        state.golden_left,
        state.golden_made,
        state.raised,
        state.falls,
        state.options,
        state.deck_points,
    )


def settle_played(
    settle: SimpleSettle, next_dealer: Sequence[int], deal: DealState, state: MatchState
) -> tuple[MatchState, list[MatchEvent]]:
    """The engine's finished ``deal`` (played, with a declarer) settled by ``settle`` (the
    form's :func:`compile_simple_settle`) into ``state``: the new match state and the events.
    ``next_dealer``: the dealer of the next deal by the dealer of this one
    (:attr:`.match.Settlement.next_dealer`).  Sets ``deal.made``.  ``Game`` binds the first
    two once per game."""
    n = len(state.scores)
    points, married, tricks = [0] * n, [0] * n, [0] * n
    won, marriages, taken = deal.won, deal.marriages, deal.tricks
    for p in deal.order:
        total = 0
        for c in won.get(p, ()):
            total += c.points
        points[p] = total
        married[p] = marriages.get(p, 0)
        tricks[p] = taken.get(p, 0)
    sitter = deal.sitter
    talon = [c.index for c in deal.dealt_talon] if sitter is not None else None
    declarer = deal.declarer
    assert declarer is not None
    scores = list(state.scores)
    events: list[MatchEvent] = []
    deals = state.deals
    winner, deal.made = settle(scores, deals, declarer, deal.contract, deal.order, sitter, points, married,
                               tricks, talon, events)
    return settled_state(state, scores, next_dealer[state.dealer], deals + 1, winner), events
