"""tysiac-spec: the card game Tysiąc / Тысяча / 1000 and its variants, with the rules as data.

Load a ruleset by id or path with :func:`load_ruleset`; errors caused by input are
:class:`TysiacError` subclasses carrying :class:`Diagnostic` records.
"""

from __future__ import annotations

from .cards import Card, Deck, Rank, Suit
from .engine import Game
from .errors import (
    Diagnostic,
    DslError,
    IllegalActionError,
    MatchError,
    NotationError,
    OptionError,
    RulesetError,
    TysiacError,
)
from .ruleset import Form, Ruleset, load_ruleset

__version__ = "0.1.0"

__all__ = [
    "Card",
    "Deck",
    "Diagnostic",
    "DslError",
    "Form",
    "Game",
    "IllegalActionError",
    "MatchError",
    "NotationError",
    "OptionError",
    "Rank",
    "Ruleset",
    "RulesetError",
    "Suit",
    "TysiacError",
    "__version__",
    "load_ruleset",
]
