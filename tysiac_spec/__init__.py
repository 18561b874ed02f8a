"""tysiac-spec: the card game Tysiąc / Тысяча / 1000 and its variants, with the rules as data.

Load a ruleset by id or path with :func:`load_ruleset`; errors caused by input are
:class:`TysiacError` subclasses carrying :class:`Diagnostic` records.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import Card, Deck, Rank, Suit
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

if TYPE_CHECKING:
    from .engine import Game
    from .engine.deal_notation import Deal

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    """``Game`` and ``Deal`` (a deal in deal notation, for ``Game.start_deal``) are imported
    when first asked for: a command that only reads rulesets (``tysiac validate``) does not
    load the engine."""
    if name == "Game":
        from .engine import Game

        return Game
    if name == "Deal":
        from .engine.deal_notation import Deal

        return Deal
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "Card",
    "Deal",
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
