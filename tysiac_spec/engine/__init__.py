"""The generic trick-taking engine: one :class:`Game` plays any ruleset.

First slice: a deal from shuffle to score and a plain match loop; see
:mod:`tysiac_spec.engine.game` for what is not supported yet.
"""

from __future__ import annotations

from .actions import (
    Action,
    Bid,
    CancelDark,
    ChooseTalon,
    Claim,
    Dark,
    DeclareContract,
    Discard,
    Forfeit,
    GiveCard,
    Pass,
    PlayCard,
    Redeal,
    parse_action,
)
from .events import MatchEvent
from .game import Game, View
from .state import DealState

__all__ = [
    "Action",
    "Bid",
    "CancelDark",
    "ChooseTalon",
    "Claim",
    "Dark",
    "DealState",
    "DeclareContract",
    "Discard",
    "Forfeit",
    "Game",
    "GiveCard",
    "MatchEvent",
    "Pass",
    "PlayCard",
    "Redeal",
    "View",
    "parse_action",
]
