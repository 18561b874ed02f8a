"""Rulesets as data: loading (YAML with positions), ``extends`` and options, validation
(JSON Schema + semantic checks), the immutable model, and the registry of shipped rulesets.
:func:`core_deck` is the pack of the shipped ``core`` ruleset (card notation without a
loaded ruleset)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._load import (
        check_every_option,
        core_deck,
        load_ruleset,
        parse_option_value,
        resolve_document,
    )
    from ._schema import extends_schema, ruleset_schema
    from .model import Form, Formula, Option, Provenance, Ruleset, Source

_LAZY = {
    **dict.fromkeys(("check_every_option", "core_deck", "load_ruleset", "parse_option_value",
                     "resolve_document"), "_load"),
    **dict.fromkeys(("extends_schema", "ruleset_schema"), "_schema"),
    **dict.fromkeys(("Form", "Formula", "Option", "Provenance", "Ruleset", "Source"), "model"),
}
"""Names imported on first use (their module in this package), so that the registry
(:mod:`.registry`: the shipped ids, for shell completion) loads without the model and the DSL."""


def __getattr__(name: str) -> Any:
    """The names of :data:`_LAZY`, imported on first use."""
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "Form",
    "Formula",
    "Option",
    "Provenance",
    "Ruleset",
    "Source",
    "check_every_option",
    "core_deck",
    "extends_schema",
    "load_ruleset",
    "parse_option_value",
    "resolve_document",
    "ruleset_schema",
]
