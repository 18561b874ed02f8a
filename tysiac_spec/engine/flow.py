"""The order of a deal's steps: the one statement of what follows what in a deal.

A deal runs the steps of :data:`STEPS` in order, from the deal to the settlement.  A step
exists in a form when its condition on the form holds (:func:`steps`: a form without a
redeal condition after the talon has no step ``redeal.after_talon``); whether an existing
step stops the deal (a phase waiting for an action) or is passed in a given deal (a contract
without a rebuy, a talon taken without a question) is the step's own rule, decided by its
module as the step opens.  Two readers run this table:

- :class:`~tysiac_spec.engine.game.Game` opens the steps after the one that has just ended
  (``Game._advance``), one after another, until one stops the deal: its phases take their
  next phase from here;
- the fast path's generator (:func:`tysiac_spec.fast.generate.generate`) writes the template's
  block of each step the form has, in this order, as straight-line code.

A step may end the deal early (a redeal, a forfeit: the deal goes to ``redealt`` or
``over``), or be passed in one deal because an earlier step decided it (a deal declared
without an auction passes the auction, the rebuy and contra: their modules' ``opens``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..ruleset.model import Form

__all__ = ["STEPS", "Step", "after", "has", "steps"]


def _always(form: Form) -> bool:
    return True


def _redeals_at(timing: str) -> Callable[[Form], bool]:
    def at(form: Form) -> bool:
        return any(r.timing == timing for r in form.deal.redeals)

    return at


def _opening(form: Form) -> bool:
    s = form.special
    return s.golden_round.enabled or (s.barrel.enabled and s.barrel.bidding == "none") or s.dark.enabled


def _exchange(form: Form) -> bool:
    t = form.talon
    return (
        (t.exchange == "give_each" and t.give_count > 0)
        or (t.exchange == "discard" and t.discard_count > 0)
        or (t.exchange == "give_and_bury" and (t.give_count > 0 or t.discard_count > 0))
    )


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a deal: its ``name``, the ``exists`` condition on the form (the step is
    part of the form's deals), and what it does (``doc``)."""

    name: str
    exists: Callable[[Form], bool]
    doc: str


STEPS: tuple[Step, ...] = (
    Step("deal", _always,
         "the shuffle, the cut, the hands and talons dealt, the auction set up (auction.start)"),
    Step("redeal.after_deal", _redeals_at("after_deal"),
         "the redeal conditions after the deal (dealing.redeal_point), skipped after "
         "dealing.MAX_REDEALS automatic redeals in a row (dealing.redeals_capped)"),
    Step("opening", _opening,
         "a golden-round deal, a barrel deal without bidding, the dark game offered (auction.opening_of)"),
    Step("auction", _always, "the auction, unless the opening declared the deal"),
    Step("rebuy", lambda form: form.talon.rebuy.enabled, "the contract offered for sale (rebuy.opens)"),
    Step("contra.after_auction",
         lambda form: form.contract.contra.enabled and form.contract.contra.when == "after_auction",
         "contra and redouble after the auction (contra.opens)"),
    Step("trump", lambda form: form.contract.names_trump, "the declarer names trump (naming.opens)"),
    Step("talon", _always, "the talon taken, chosen or forfeited before (talon.start)"),
    Step("redeal.after_talon", _redeals_at("after_talon"), "the redeal conditions after the talon"),
    Step("exchange", _exchange, "the cards given or discarded (talon.open_exchange)"),
    Step("redeal.after_exchange", _redeals_at("after_exchange"), "the redeal conditions after the exchange"),
    Step("contract", _always, "the contract announced, or fixed without a question (talon.open_contract)"),
    Step("play", _always,
         "the play opened (a named kind's play, all-pass play, contra before the play, the first "
         "leader, marriages announced before the first trick) and played"),
    Step("settlement", _always, "the deal settled into the match, and the next deal dealt"),
)
"""The steps of a deal, in order."""

_NAMES = tuple(s.name for s in STEPS)


def steps(form: Form) -> tuple[str, ...]:
    """The names of the steps ``form``'s deals have, in order (a subsequence of :data:`STEPS`)."""
    return tuple(s.name for s in STEPS if s.exists(form))


def has(form: Form, name: str) -> bool:
    """Whether ``form``'s deals have the step ``name``.

    Raises:
        KeyError: ``name`` is not a step of :data:`STEPS`.
    """
    if name not in _NAMES:
        raise KeyError(f"no step {name!r} in a deal (engine/flow.py STEPS)")
    return STEPS[_NAMES.index(name)].exists(form)


def after(form: Form) -> dict[str, tuple[str, ...]]:
    """For each step of :data:`STEPS` (whether ``form`` has it or not), the steps of ``form``
    that follow it, in order: what a game opens when that step ends."""
    present = set(steps(form))
    return {name: tuple(n for n in _NAMES[i + 1:] if n in present) for i, name in enumerate(_NAMES)}
