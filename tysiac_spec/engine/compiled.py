"""What the engine compiles from a form once, for every game of that form: :class:`CompiledForm`.

Like OpenSpiel's game object (its compiled parameters) against its states, or the object
``lark.Lark`` returns, a :class:`CompiledForm` is made once by :func:`compile_form` and
then only read.  It is kept on the form itself (``form.compiled``: a slot, not a dataclass
field, so no rule file, comparison, copy or walk over the rules sees it), so every
:class:`~tysiac_spec.engine.game.Game` of a form shares it, and it goes when the form goes:
the engine keeps no table of forms.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..cards import Card
from ..ruleset.model import Form
from . import play, scoring
from .actions import Action, ActionTable, PlayCard
from .state import DealState

__all__ = ["CompiledForm", "compile_form"]


@dataclass(frozen=True, slots=True, eq=False)
class CompiledForm:
    """A form compiled with its pack: the action objects, the play phase's legal plays
    and play (:func:`.play.compile_legal`, :func:`.play.compile_apply`), and the deal facts
    its scoring formulas read.

    ``table`` hands out one object per action, which :meth:`Game.apply
    <tysiac_spec.engine.game.Game.apply>` recognises by identity.
    """

    pack: Sequence[Card]
    table: ActionTable
    play_legal: Callable[[DealState], list[Action]]
    play_apply: Callable[[DealState, PlayCard], None]
    scoring_facts: frozenset[str]
    """The deal facts the form's scoring formulas read (:func:`.scoring.facts_read`)."""


def compile_form(form: Form, pack: Sequence[Card]) -> CompiledForm:
    """The :class:`CompiledForm` of ``form`` played with ``pack`` (the ruleset's
    ``deck.cards``): made on the first call and kept as ``form.compiled``; later calls with
    the same pack return that same object."""
    made = form.compiled
    if isinstance(made, CompiledForm) and made.pack is pack:
        return made
    table = ActionTable(pack)
    made = CompiledForm(
        pack=pack,
        table=table,
        play_legal=play.compile_legal(form, table, pack),
        play_apply=play.compile_apply(form),
        scoring_facts=scoring.facts_read(form),
    )
    object.__setattr__(form, "_compiled", made)  # a cache on a frozen form, as cached_property would
    return made
