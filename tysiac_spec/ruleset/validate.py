"""Validation of a merged ruleset document: JSON Schema, then semantic checks.

Both stages *collect* every problem (generators of :class:`Diagnostic`), each with
a stable code, a message naming the field / what was expected / what was found,
the file position (from the loader's marks) and the path inside the ruleset.

Codes: ``schema.<keyword>`` (``schema.type``, ``schema.enum``, ``schema.unknown-key``,
``schema.required`` …) and the semantic ones listed in :data:`SEMANTIC_CODES`.

This module is the entry point; the stages live in :mod:`.schema_errors` (JSON Schema →
diagnostics) and :mod:`.checks` (one registered function per semantic code).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import Diagnostic
from .checks import SEMANTIC_CODES, form_sections, semantic_errors
from .checks.auction import never_played
from .checks.ranges import ceiling_errors, range_errors, rebuy_errors
from .schema_errors import changed_schema_errors, schema_errors

__all__ = [
    "SEMANTIC_CODES",
    "changed_schema_errors",
    "compiled_errors",
    "form_sections",
    "never_played",
    "schema_errors",
    "semantic_errors",
    "sorted_diagnostics",
]


def compiled_errors(form: Any, deck_points: int, pack: int) -> list[Diagnostic]:
    """The range checks of a compiled form (:mod:`.checks.ranges`: ``formula.range``,
    ``marriages.ceiling``, ``talon.rebuy-price``), with the pack's card points and its number
    of cards."""
    return [
        *range_errors(form, deck_points, pack),
        *ceiling_errors(form, deck_points, pack),
        *rebuy_errors(form, deck_points, pack),
    ]


def sorted_diagnostics(items: Sequence[Diagnostic]) -> list[Diagnostic]:
    """Diagnostics in file / line / column order."""
    return sorted(items, key=lambda d: (d.file or "", d.line or 0, d.column or 0, d.code))
