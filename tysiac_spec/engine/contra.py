"""Contra and redouble (``contract.contra``): the phase ``contra``.

Once the declarer is known — as the auction ends, before the talon (``when: after_auction``),
or when the contract is fixed, before the first trick (``before_play``) — the defenders in
turn from the declarer's next seat (``who: defenders``; only that seat's defender with
``first_defender``) may double the contract (``contra``) or decline (``pass``); the first
contra ends their turn.  With ``redouble`` the declarer may then redouble (``redouble``) or
decline (``pass``).  The factor (``multiplier``, times ``redouble_multiplier`` after a
redouble) is kept in ``deal.around.contra`` (:class:`~.state.Around`) and multiplies the
declarer's deal score, or everyone's (``applies_to``), in the settlement
(:func:`.match.settle_valid_deal`; a scoresheet records it as the outcome's ``contra``).
Only after an auction: a golden-round, barrel or dark deal has none.

Source: mekedron/thousand ``core/auction.lua`` (``contra``, ``redouble``, ``skip_contra``: the
defenders asked in clockwise order from the declarer, the first contra closes the queue, the
redouble by the declarer only; ``bidding.contra_multiplier`` 2 in 1..4,
``bidding.redouble_multiplier`` 2 in 1..8, composed by multiplication) and
``docs/variations/house-rules.md`` "Contra (defender doubling)": "the bid value at stake is
multiplied accordingly" (so by default the declarer's score only).
"""

from __future__ import annotations

from ..ruleset.model import Form
from .actions import Action, Contra, Pass, Redouble
from .seating import defenders
from .state import DealState

__all__ = ["apply", "explain", "legal", "opened", "opens", "start"]

_CONTRA, _REDOUBLE, _PASS = Contra(), Redouble(), Pass()
_DOUBLING: list[Action] = [_CONTRA, _PASS]
_REDOUBLING: list[Action] = [_REDOUBLE, _PASS]


def opens(form: Form, deal: DealState) -> bool:
    """Whether the phase ``contra`` is to open for ``deal`` now: the rule on, a declarer
    after an auction (a normal deal, not a barrel deal), not opened before in this deal."""
    a = deal.around
    return (
        form.contract.contra.enabled
        and a is not None
        and not a.contra_done
        and deal.declarer is not None
        and deal.mode == "normal"
        and not deal.barrel_deal
    )


def opened(form: Form, deal: DealState) -> bool:
    """The step ``contra.after_auction`` of :mod:`.flow`: the phase ``contra`` opened when it
    opens for ``deal`` now (:func:`opens`, :func:`start`); whether it did."""
    if opens(form, deal):
        start(form, deal)
        return True
    return False


def start(form: Form, deal: DealState) -> None:
    """Open the phase ``contra``: the defenders who may double, in turn from the declarer's
    next seat; the first of them to act."""
    assert deal.declarer is not None
    turns = defenders(form, deal.declarer, deal.opponents())  # a partner is no defender
    if form.contract.contra.who == "first_defender":
        turns = turns[:1]
    assert deal.around is not None
    deal.around.contra_turns = turns
    deal.phase, deal.current = "contra", turns[0]


def legal(deal: DealState) -> list[Action]:
    """``contra`` or ``pass`` for a defender; ``redouble`` or ``pass`` for the declarer after a
    contra (a list not to be changed)."""
    return _REDOUBLING if deal.current == deal.declarer else _DOUBLING


def apply(form: Form, deal: DealState, action: Action) -> bool:
    """Apply a legal action of the phase ``contra``; True when the phase is over (the caller
    goes on: the talon, or the play)."""
    c, p, a = form.contract.contra, deal.current, deal.around
    assert a is not None
    if type(action) is Contra:
        a.contra, a.contra_by = c.multiplier, p
        if c.redouble:
            assert deal.declarer is not None
            a.contra_turns, deal.current = (deal.declarer,), deal.declarer
            return False
    elif type(action) is Redouble:
        a.contra *= c.redouble_multiplier
        a.redoubled = True
    elif p != deal.declarer:  # a defender declines: the next one, if any
        rest = a.contra_turns[1:]
        a.contra_turns = rest
        if rest:
            deal.current = rest[0]
            return False
    a.contra_turns, a.contra_done = (), True
    return True


def explain(form: Form, deal: DealState, action: Action) -> str:
    """Why ``action`` is not legal in the phase ``contra``."""
    c = form.contract.contra
    if deal.current == deal.declarer:
        if type(action) is Contra:
            return "the declarer does not double his own contract: `redouble` or `pass`"
        return "the contract is doubled: the declarer may `redouble` or `pass`"
    if type(action) is Redouble:
        if not c.redouble:
            return "the ruleset allows no redouble (`contract.contra.redouble` is false)"
        return "only the declarer may redouble, after a contra"
    return "a defender may double the contract (`contra`) or `pass`"
