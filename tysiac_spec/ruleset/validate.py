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

from ..errors import Diagnostic
from .checks import SEMANTIC_CODES, form_sections, semantic_errors
from .checks.auction import never_played
from .schema_errors import changed_schema_errors, schema_errors

__all__ = [
    "SEMANTIC_CODES",
    "changed_schema_errors",
    "form_sections",
    "never_played",
    "schema_errors",
    "semantic_errors",
    "sorted_diagnostics",
]


def sorted_diagnostics(items: Sequence[Diagnostic]) -> list[Diagnostic]:
    """Diagnostics in file / line / column order."""
    return sorted(items, key=lambda d: (d.file or "", d.line or 0, d.column or 0, d.code))
