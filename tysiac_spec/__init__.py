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

if TYPE_CHECKING:
    from .engine import Game
    from .engine.deal_notation import Deal
    from .engine.position import Position
    from .ruleset import Form, Ruleset, load_ruleset

__version__ = "0.1.0"

_LAZY = {
    "Form": "ruleset", "Ruleset": "ruleset", "load_ruleset": "ruleset",
    "Game": "engine", "Deal": "engine.deal_notation",
    "Position": "engine.position",
}
"""Names imported when first asked for (their module, under this package): a command that
only completes a word on the command line loads no ruleset code, one that only reads
rulesets (``tysiac validate``) does not load the engine."""


def __getattr__(name: str) -> Any:
    """The names of :data:`_LAZY`, imported on first use."""
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
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
    "Position",
    "Rank",
    "Ruleset",
    "RulesetError",
    "Suit",
    "TysiacError",
    "__version__",
    "load_ruleset",
]
