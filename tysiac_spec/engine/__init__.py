"""The generic trick-taking engine: one :class:`Game` plays any ruleset.

First slice: a deal from shuffle to score and a plain match loop; see
:mod:`tysiac_spec.engine.game` for what is not supported yet.
"""

from __future__ import annotations

from .actions import (
    Action,
    Bid,
    ChooseTalon,
    DeclareContract,
    Discard,
    GiveCard,
    Pass,
    PlayCard,
    parse_action,
)
from .events import MatchEvent
from .game import Game, View
from .state import DealState

__all__ = [
    "Action",
    "Bid",
    "ChooseTalon",
    "DealState",
    "DeclareContract",
    "Discard",
    "Game",
    "GiveCard",
    "MatchEvent",
    "Pass",
    "PlayCard",
    "View",
    "parse_action",
]
