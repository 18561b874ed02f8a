"""Scoring a played deal with the ruleset's formulas (``form.scoring``, ``table.sitter``).

Points are card points won in tricks (plus any leftover cards awarded at the end
of play) plus the marriages the player declared.  Cards discarded face down and
leftover cards that ``talon.leftover`` gives to nobody score for nobody.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..ruleset.model import Form
from .state import DealState

__all__ = ["score_deal"]

Env = Callable[[int], dict[str, Any]]


def score_deal(form: Form, deal: DealState, env: Env) -> dict[int, int]:
    """Each player's score change for the deal (points); sets ``deal.made``.

    The declarer is scored by ``scoring.made`` then ``scoring.declarer``; each defender by
    ``scoring.defender``; the sitter by ``table.sitter.score`` on the dealt talon.
    """
    assert deal.declarer is not None
    s = form.scoring
    out: dict[int, int] = {}
    for p in deal.order:
        card_points = sum(c.rank.points for c in deal.won.get(p, []))
        marriages = deal.marriages.get(p, 0)
        e = env(p)
        e.update(
            card_points=card_points,
            marriages=marriages,
            points=card_points + marriages,
            tricks=deal.tricks.get(p, 0),
            contract=deal.contract,
        )
        if p == deal.declarer:
            made = bool(s.made(e))
            deal.made = made
            e["made"] = made
            out[p] = int(s.declarer(e))
        else:
            out[p] = int(s.defender(e))
    sitter = form.table.sitter
    if deal.sitter is not None:
        score = 0
        if sitter is not None and sitter.score is not None:
            e = env(deal.sitter)
            e["talon"] = deal.dealt_talon
            score = int(sitter.score(e))
        out[deal.sitter] = score
    return out
