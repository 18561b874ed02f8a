"""The generic trick-taking engine: one :class:`Game` plays any ruleset, deal by deal from
shuffle to score, to the end of the match (:mod:`.match`); see :mod:`tysiac_spec.engine.game`
for what is not supported yet.

A form is compiled once (:func:`compile_form`, a :class:`CompiledForm` kept on the form and
shared by every game of that form): the play's duties as one function of the hand's bit set
(``card.bit``), tables of the legal plays of each suit, the action objects;
``benchmarks/README.md`` gives the speed and how it was reached.
"""

from __future__ import annotations

from .actions import (
    Action,
    Bid,
    Buy,
    CancelDark,
    ChooseTalon,
    Claim,
    Contra,
    Dark,
    DeclareContract,
    DeclareMarriage,
    Discard,
    Forfeit,
    GiveCard,
    Incident,
    NamedBid,
    Pass,
    PlayCard,
    Redeal,
    Redouble,
    parse_action,
)
from .compiled import CompiledForm, compile_form
from .events import MatchEvent
from .game import Game, View
from .position import Position
from .state import DealState

__all__ = [
    "Action",
    "Bid",
    "Buy",
    "CancelDark",
    "ChooseTalon",
    "Claim",
    "CompiledForm",
    "Contra",
    "Dark",
    "DealState",
    "DeclareContract",
    "DeclareMarriage",
    "Discard",
    "Forfeit",
    "Game",
    "GiveCard",
    "Incident",
    "MatchEvent",
    "NamedBid",
    "Pass",
    "PlayCard",
    "Position",
    "Redeal",
    "Redouble",
    "View",
    "compile_form",
    "parse_action",
]
