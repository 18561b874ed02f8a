"""Where the shipped data lives, installed or in a source checkout."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _data_dir(installed: str, checkout: str) -> Path:
    inside = _PACKAGE / installed
    if inside.is_dir():
        return inside
    return _PACKAGE.parent / checkout


RULESETS_DIR = _data_dir("_rulesets", "rulesets")
"""Directory holding the shipped ruleset files (``*.yaml``)."""

SCHEMAS_DIR = _data_dir("_schemas", "schemas")
"""Directory holding the JSON Schemas (``ruleset.schema.json``, ...)."""

STUDIES_DIR = _data_dir("_studies", "docs/studies")
"""Directory holding the committed study pages (``*.html`` with their data, ``*.json``),
written by ``tysiac compare --simulate`` and copied into the site by ``tysiac build``."""
