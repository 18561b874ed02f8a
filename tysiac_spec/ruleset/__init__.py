"""Rulesets as data: loading (YAML with positions), ``extends`` and options, validation
(JSON Schema + semantic checks), the immutable model, and the registry of shipped rulesets.
:func:`core_deck` is the pack of the shipped ``core`` ruleset (card notation without a
loaded ruleset)."""

from __future__ import annotations

from ._load import check_every_option, core_deck, load_ruleset, parse_option_value, resolve_document
from ._schema import extends_schema, ruleset_schema
from .model import Form, Formula, Option, Provenance, Ruleset, Source

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
