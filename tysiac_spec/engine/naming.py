"""The declarer names trump (``contract.names_trump``): the phase ``trump``.

As soon as a deal has its declarer and before the talon (the step ``trump`` of
:mod:`.flow`, just before the step ``talon``), the declarer names one suit of
``marriages.values`` (``trump hearts``); it is trump from the first trick
(``deal.trump``).  Marriages are still declared and scored as ``marriages`` says; their
value formula reads the named trump (context ``marriage.value``: ``trump``), so that a
table's "the trump marriage is worth 100, any other 80" is written
``marriages.value: if suit == trump then 100 else value`` over values of 80.

Source: a table practice the issue names (issue 26, item 7: "the contract's winner names trump
at once"); no source of the catalogue states it (``examples/house/named-trump.yaml`` marks it
``assumed``).
"""

from __future__ import annotations

from functools import cache

from ..ruleset.model import Form
from .actions import Action, NameTrump
from .state import DealState

__all__ = ["apply", "explain", "legal", "opened", "opens", "start"]


def opens(form: Form, deal: DealState) -> bool:
    """Whether the phase ``trump`` is to open for ``deal`` now: the rule on, a declarer, no
    trump named yet in this deal."""
    return form.contract.names_trump and deal.declarer is not None and not deal.trump_named


def opened(form: Form, deal: DealState) -> bool:
    """The step ``trump`` of :mod:`.flow`: the phase ``trump`` opened when it opens for
    ``deal`` now (:func:`opens`, :func:`start`); whether it did."""
    if opens(form, deal):
        start(deal)
        return True
    return False


def start(deal: DealState) -> None:
    """Open the phase ``trump``: the declarer to act."""
    assert deal.declarer is not None
    deal.phase, deal.current = "trump", deal.declarer


@cache
def _choices(suits: tuple[str, ...]) -> list[Action]:
    return [NameTrump(s) for s in suits]


def legal(form: Form, deal: DealState) -> list[Action]:
    """``trump SUIT`` for each suit of ``marriages.values``, in their order (a list not to be
    changed)."""
    return _choices(tuple(form.marriages.values))


def apply(deal: DealState, action: Action) -> None:
    """Apply a legal ``trump SUIT``: the suit is trump from the first trick; the phase is over
    (the game opens the steps after it, the talon first)."""
    assert type(action) is NameTrump
    deal.trump, deal.pending_trump, deal.trump_named = action.suit, None, True


def explain(form: Form, deal: DealState, action: Action) -> str:
    """Why ``action`` is not legal in the phase ``trump``."""
    suits = ", ".join(f"`trump {s}`" for s in form.marriages.values)
    if type(action) is NameTrump:
        return f"`{action}` names no suit of `marriages.values` (name one of {suits})"
    return f"the declarer names trump first: {suits}"
