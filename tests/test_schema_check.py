"""The quick yes/no schema check (ruleset/_schema_check.py) answers exactly as jsonschema does:
on every shipped, example, invalid and hostile ruleset, section by section, and on generated
mutations of the shipped sections."""

from __future__ import annotations

import copy
import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from _quick import sample
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tysiac_spec.errors import TysiacError
from tysiac_spec.ruleset import ruleset_schema
from tysiac_spec.ruleset._load import resolve_document
from tysiac_spec.ruleset._schema_check import Checker, UnsupportedSchema, compile_schema, equal
from tysiac_spec.ruleset._yaml import load_yaml_file, to_plain

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ruleset_schema()
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
CHECKER = Checker(SCHEMA)


def _jsonschema_says(instance: Any, subschema: Any = None) -> bool:
    validator = VALIDATOR if subschema is None else VALIDATOR.evolve(schema=subschema)
    return bool(validator.is_valid(instance))


FILES = [
    *sorted((ROOT / "rulesets").glob("*.yaml")),
    *sorted((ROOT / "examples").rglob("*.yaml")),
    *sorted((ROOT / "tests" / "invalid").rglob("*.yaml")),
    *sorted((ROOT / "tests" / "hostile" / "rulesets").rglob("*.yaml")),
]


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


@functools.cache
def _documents(path: Path) -> list[tuple[str, dict[str, Any]]]:
    """The file's document, and the same with its parents merged (as the loader checks it);
    none when the file is no YAML mapping."""
    try:
        doc = load_yaml_file(path)
    except (TysiacError, OSError):
        return []
    if not isinstance(doc, dict):
        return []
    name = _name(path)
    out = [(name, to_plain(doc))]
    try:
        out.append((f"{name} (resolved)", to_plain(resolve_document(doc, file=str(path)))))
    except TysiacError:
        pass
    return out


@pytest.mark.slow  # about 1 s of CPU (quick-loop budget, issue 25)
def test_the_corpus_is_large() -> None:
    assert len(FILES) > 200
    assert sum(len(_documents(path)) for path in FILES[::8]) > 30


def test_the_generated_schema_is_understood_whole() -> None:
    compile_schema(SCHEMA, lazy=False)  # would raise UnsupportedSchema on an unknown keyword


@pytest.mark.parametrize(
    "schema",
    [
        {"oneOf": [{"type": "string"}]},
        {"not": {"type": "string"}},
        {"type": "object", "patternProperties": {"^a": {}}},
        {"type": "array", "prefixItems": [{}], "items": {}},
        {"type": "decimal"},
        {"$ref": "#/$defs/missing"},
        {"format": "email"},
        {"multipleOf": 0.5},
        {"then": {}},
    ],
)
def test_an_unknown_keyword_is_refused(schema: dict[str, Any]) -> None:
    with pytest.raises(UnsupportedSchema):
        compile_schema({"$defs": {}, **schema}, lazy=False)


def test_equal_is_jsonschemas() -> None:
    assert not equal(True, 1)
    assert not equal(0, False)
    assert equal(1, 1.0)
    assert not equal([True], [1])
    assert equal({"a": [1, "x"]}, {"a": [1, "x"]})
    assert not equal({"a": 1}, {"a": 1, "b": 2})
    assert not equal("1", 1)


# the same check on each file: the quick loop takes every 8th file and the shipped rulesets
@pytest.mark.parametrize(
    "path", sample(FILES, every=8, keep=[f"rulesets/{n}.yaml" for n in ("pl-standard", "ru-classic")], ids=_name)
)
def test_agrees_with_jsonschema_on_the_corpus(path: Path) -> None:
    for name, doc in _documents(path):
        assert compile_schema(SCHEMA)(doc) == _jsonschema_says(doc), name
        for key, value in doc.items():
            subschema = SCHEMA["properties"].get(key)
            if subschema is not None:
                assert CHECKER.compile(subschema)(value) == _jsonschema_says(value, subschema), (name, key)


@pytest.mark.slow
def test_the_corpus_has_both_answers() -> None:
    answers = {compile_schema(SCHEMA)(doc) for path in FILES for _, doc in _documents(path)}
    assert answers == {True, False}


# ------------------------------------------------------------------ generated mutations

@functools.cache
def _sections() -> list[tuple[str, Any]]:
    """The sections of the shipped rulesets, as written and resolved."""
    return [
        (key, value)
        for path in FILES
        if _name(path).startswith("rulesets/")
        for _, doc in _documents(path)
        for key, value in doc.items()
        if key in SCHEMA["properties"] and isinstance(value, dict | list)
    ]

_FIELD_NAMES = sorted(
    {name for d in SCHEMA["$defs"].values() for name in (d.get("properties") or {})}
)

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**13), max_value=10**13),
    st.sampled_from([0, 1, 5, 10, 20, 40, 60, 100, 120, 300, 1000, -1, 9, 11]),
    st.text(max_size=6),
    st.sampled_from(["", "9", "J", "Q", "K", "A", "H", "S", "value", "any", "exactly_step",
                     "points + 10", "verified", "assumed", "declarer", "en", "x-y", "A_b"]),
)
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.one_of(st.sampled_from(_FIELD_NAMES), st.text(max_size=4)), inner,
                        max_size=3),
    ),
    max_leaves=6,
)


def _paths(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _paths(value, (*path, i))


@st.composite
def _mutated(draw: st.DrawFn) -> tuple[str, Any]:
    key, section = draw(st.sampled_from(_sections()))
    section = copy.deepcopy(section)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(list(_paths(section))))
        if not path:
            continue
        parent = section
        for part in path[:-1]:
            parent = parent[part]
        how = draw(st.sampled_from(["replace", "delete", "add"]))
        if how == "replace":
            parent[path[-1]] = draw(_values)
        elif how == "delete":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(_FIELD_NAMES))] = draw(_values)
    return key, section


@pytest.mark.slow
@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_mutated())
def test_agrees_with_jsonschema_on_mutations(case: tuple[str, Any]) -> None:
    key, section = case
    subschema = SCHEMA["properties"][key]
    answer = CHECKER.compile(subschema)(section)
    event("valid" if answer else "invalid")
    assert answer == _jsonschema_says(section, subschema)
