"""The semantic checks of a ruleset document, one small function per diagnostic code.

Each check is registered under its code with :func:`check`, as jsonschema registers its
validators by keyword: :data:`CHECKS` maps every code of :data:`SEMANTIC_CODES` to the one
function that reports it, and :func:`semantic_errors` runs them in registration order.  A
check's scope says what it receives:

- ``document``: a :class:`Document` (the merged document), once (sources, the deck,
  the options);
- ``form``: a :class:`Form`, once for each player count in ``players`` (the common sections
  merged with that count's overrides);
- ``compiled``: a compiled form (:func:`.auction.never_played`; the range checks of
  :mod:`.ranges`, which also receive the pack's card points and size), run by the loader
  after compiling, not by :func:`semantic_errors`.

The sections' checks live in this package's modules (:mod:`.document`, :mod:`.table`,
:mod:`.deck`, :mod:`.auction`, :mod:`.contract`, :mod:`.play`, :mod:`.match`); a new check
is a function in one of them with its code added to :data:`SEMANTIC_CODES`.
"""

from __future__ import annotations

from .base import (
    CHECKS,
    SEMANTIC_CODES,
    Check,
    Document,
    Form,
    check,
    defaults,
    diag,
    form_sections,
    get,
    semantic_errors,
)

# the sections register their checks on import, in this order (the order they run in)
# isort: off
from . import document, table, deck, auction, contract, play, match, ranges
# isort: on

__all__ = [
    "CHECKS",
    "SEMANTIC_CODES",
    "Check",
    "Document",
    "Form",
    "auction",
    "check",
    "contract",
    "deck",
    "defaults",
    "diag",
    "document",
    "form_sections",
    "get",
    "match",
    "play",
    "ranges",
    "semantic_errors",
    "table",
]
