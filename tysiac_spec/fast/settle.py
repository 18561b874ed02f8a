"""The fast path's settlement: the engine's own, bound for the generated code.

A form whose match has nothing beyond the target and ``match.finishing``
(:func:`~tysiac_spec.engine.simple_settle.simple_settlement`) is settled in a list of scores
by :func:`~tysiac_spec.engine.simple_settle.compile_simple_settle`, the function ``Game``
settles it with; every other form by :func:`~tysiac_spec.engine.match.settle_valid_deal`, one
call per deal.  No step of the settlement is stated here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import Card
from ..engine.events import MatchEvent
from ..engine.match import MatchState, settle_valid_deal
from ..engine.scoring import DealOutcome, PlayedScores
from ..engine.simple_settle import compile_simple_settle, settled_state, simple_settlement
from ..ruleset.model import Form

__all__ = ["bound"]


def bound(form: Form, options: Mapping[str, Any], pack: Sequence[Card], played: PlayedScores,
          initial: MatchState) -> dict[str, Any]:
    """The generated code's names for the settlement of ``form`` (its ``options`` fixed,
    ``pack`` the ruleset's cards, ``played`` its compiled scores, ``initial`` the match state
    a match starts from): ``H_settle_simple`` (``None`` unless the form is simple),
    ``H_final`` (the match state at the end of a match settled in a list of scores) and
    ``H_settle`` (one deal by the whole pipeline: the new match state and its events)."""

    def settle(state: MatchState, o: DealOutcome) -> tuple[MatchState, list[MatchEvent]]:
        new, events, _ = settle_valid_deal(form, state, o, played=played, team=None)
        return new, events

    def final(scores: list[int], dealer: int, deals: int, winner: int) -> MatchState:
        return settled_state(initial, scores, dealer, deals, winner)

    simple = simple_settlement(form) is None
    return {
        "H_settle_simple": compile_simple_settle(form, options, pack) if simple else None,
        "H_final": final,
        "H_settle": settle,
    }
