"""A phase of a deal as a game runs it: one :class:`Phase` per phase name
(:data:`~tysiac_spec.engine.state.PHASES`) in the game's table, so that
:meth:`~tysiac_spec.engine.game.Game.legal_actions`, :meth:`~tysiac_spec.engine.game.Game.apply`
and the reason of a refused action are each one lookup and one call.

The rules of each phase live in its module (:mod:`.auction`, :mod:`.talon`, :mod:`.play`,
:mod:`.contra`, :mod:`.rebuy`, …: ``legal``, ``apply``, ``explain``, the shape ``contra.py`` and
``rebuy.py`` export); a :class:`Phase` holds them bound to one game (its formula
environments, its events), made once per game.  A new phase is a module and one entry of
the table (``Game._phase_table``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .actions import Action
from .state import DealState

__all__ = ["Phase", "PhaseApply", "no_actions"]

PhaseApply = Callable[[DealState, Action], "bool | None"]
"""A phase's application of a legal action (see :attr:`Phase.apply`)."""


@dataclass(frozen=True, slots=True, eq=False)
class Phase:
    """One phase of a deal, bound to a game."""

    legal: Callable[[DealState], list[Action]]
    """The legal actions of the player to act (a list not to be changed)."""
    apply: PhaseApply
    """Apply a legal action (counted and recorded by the game already); True when the phase
    itself opened what comes next (the game then does nothing more), else the game opens the
    play, a redeal or the settlement the deal's new phase asks for."""
    explain: Callable[[DealState, Action], str]
    """Why an action is not legal now (the reason of ``action.illegal``)."""


def no_actions(deal: DealState) -> list[Action]:
    """No action: the deal is over (or abandoned for a redeal)."""
    return []
