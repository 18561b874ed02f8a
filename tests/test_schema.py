"""The JSON Schema is generated from the model and checked in; every field is documented."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tysiac_spec.ruleset import ruleset_schema

ROOT = Path(__file__).resolve().parents[1]


def test_checked_in_schema_is_current() -> None:
    from tysiac_spec.docs.editor_schema import editor_schema

    on_disk = json.loads((ROOT / "schemas" / "ruleset.schema.json").read_text(encoding="utf-8"))
    assert on_disk == editor_schema("complete"), "run: tysiac schema -o schemas/ruleset.schema.json"


@pytest.mark.slow  # about 1 s of CPU (quick-loop budget, issue 25)
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


# --------------------------------------------------------------------------- ranges

#: Integer fields without a range in the schema, and why.
UNBOUNDED_INTS: dict[str, str] = {}
"""Int fields without a range, with the reason (none: ``Marriages.values``, a mapping, has
its values' range since the schema passes a mapping's bounds to its values)."""


def _int_fields() -> Iterator[tuple[str, Any]]:
    """Every dataclass field of the model holding an int (``int``, ``int | None``,
    ``tuple[int, ...]``, ``Mapping[str, int]``), as ``("Class.field", field)``."""
    import dataclasses
    import typing

    from tysiac_spec.ruleset import model

    for cls in vars(model).values():
        if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
            continue
        hints = typing.get_type_hints(cls, vars(model))
        for f in dataclasses.fields(cls):
            if "description" not in f.metadata:  # not a rule field (Form, Formula, Ruleset)
                continue
            tp = hints[f.name]
            args = set(typing.get_args(tp)) | {tp}
            if typing.get_origin(tp) is Mapping:
                args = {typing.get_args(tp)[1]}
            if int in args and bool not in args and str not in args:
                yield f"{cls.__name__}.{f.name}", f


def test_every_int_field_has_a_range() -> None:
    """Every number a ruleset writes has a minimum and a maximum (targets, steps, penalties,
    counts), so no ruleset can ask the engine for huge values."""
    unbounded = sorted(
        name
        for name, f in _int_fields()
        if f.metadata.get("minimum") is None or f.metadata.get("maximum") is None
    )
    assert unbounded == sorted(UNBOUNDED_INTS)


def test_ranges_in_the_schema() -> None:
    defs = ruleset_schema()["$defs"]

    def plain(cls: str, name: str) -> Any:
        return defs[cls]["properties"][name]["anyOf"][0]

    assert plain("MatchRules", "target") == {"type": "integer", "minimum": 1, "maximum": 1_000_000}
    assert plain("Auction", "step") == {"type": "integer", "minimum": 1, "maximum": 1_000_000}
    assert plain("Bolts", "penalty") == {
        "type": "integer",
        "minimum": -1_000_000,
        "maximum": 1_000_000,
    }
    assert plain("DarkGame", "multiplier") == {"type": "integer", "minimum": 1, "maximum": 1000}
    assert plain("Marriages", "values")["additionalProperties"] == {
        "type": "integer",
        "minimum": 0,
        "maximum": 1_000_000,
    }
