"""The JSON Schema is generated from the model and checked in; every field is documented."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema

from tysiac_spec.ruleset import ruleset_schema

ROOT = Path(__file__).resolve().parents[1]


def test_checked_in_schema_is_current() -> None:
    on_disk = json.loads((ROOT / "schemas" / "ruleset.schema.json").read_text(encoding="utf-8"))
    assert on_disk == ruleset_schema(), "run: tysiac schema -o schemas/ruleset.schema.json"


def test_schema_is_valid_draft_2020_12() -> None:
    schema = ruleset_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


def _properties(node: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(node, dict):
        for name, sub in (node.get("properties") or {}).items():
            yield f"{path}.{name}", sub
        for key, sub in node.items():
            if key != "properties":
                yield from _properties(sub, f"{path}/{key}")
    elif isinstance(node, list):
        for i, sub in enumerate(node):
            yield from _properties(sub, f"{path}[{i}]")


def test_every_field_has_a_description() -> None:
    missing = []
    for where, prop in _properties(ruleset_schema()):
        if where.endswith(".value") or where.startswith("/if"):  # described by their field
            continue
        if not (isinstance(prop, dict) and (prop.get("description") or "$ref" in prop)):
            missing.append(where)
    assert missing == []


def test_every_def_has_a_description() -> None:
    defs = ruleset_schema()["$defs"]
    assert [name for name, d in defs.items() if not d.get("description")] == []
