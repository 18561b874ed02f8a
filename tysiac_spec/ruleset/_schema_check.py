"""Whether a document is valid against the generated ruleset schema: yes or no, quickly.

:mod:`jsonschema` explains what is wrong (:func:`.validate.schema_errors` turns its errors
into diagnostics); this module only answers *whether* anything is, about twenty times faster,
so that a valid ruleset -- the usual case -- needs neither jsonschema's work nor its import.
When the answer is no, the caller asks jsonschema for the diagnostics.

The schema is compiled once into closures, one per subschema.  Only the keywords that
:func:`._schema.ruleset_schema` writes are known, each with jsonschema's meaning (draft
2020-12: ``bool`` is no ``integer``, ``pattern`` searches, ``enum`` and ``const`` compare
with jsonschema's ``equal`` …); a schema using any other keyword is refused when compiled
(:class:`UnsupportedSchema`), and the caller then uses jsonschema alone, so the two answers
cannot silently differ.  ``tests/test_schema_check.py`` compares the two on every shipped,
invalid and hostile ruleset and on generated mutations of them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["Check", "Checker", "UnsupportedSchema", "compile_schema", "equal"]

Check = Callable[[Any], bool]
"""A compiled (sub)schema: ``check(instance)`` is whether ``instance`` is valid."""

_ANNOTATIONS = frozenset(
    {"description", "default", "title", "$schema", "$id", "$defs", "$comment", "x-formula",
     "examples", "then", "else"}  # then/else are read by `if`
)


class UnsupportedSchema(ValueError):
    """The schema uses a keyword (or a form of one) this module does not know."""


def equal(one: Any, two: Any) -> bool:
    """jsonschema's equality of JSON values: ``True`` is not ``1``, lists and mappings are
    compared item by item with the same rule."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return bool(one == two)
    if isinstance(one, Sequence) and isinstance(two, Sequence):
        return len(one) == len(two) and all(equal(a, b) for a, b in zip(one, two, strict=True))
    if isinstance(one, Mapping) and isinstance(two, Mapping):
        return len(one) == len(two) and all(k in two and equal(v, two[k]) for k, v in one.items())
    if isinstance(one, bool) or isinstance(two, bool):
        return isinstance(one, bool) and isinstance(two, bool) and one == two
    return bool(one == two)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


_TYPES: dict[str, Check] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": _is_number,
    "null": lambda v: v is None,
}


def _all_of(checks: tuple[Check, ...]) -> Check:
    def check(value: Any) -> bool:
        for one in checks:
            if not one(value):
                return False
        return True

    return check


def _any_of(checks: tuple[Check, ...]) -> Check:
    def check(value: Any) -> bool:
        for one in checks:
            if one(value):
                return True
        return False

    return check


def _always(_value: Any) -> bool:
    return True


def _never(_value: Any) -> bool:
    return False


class Checker:
    """Compiles the subschemas of one schema, sharing the compiled ``$defs`` between them.

    With ``lazy`` (the default) a definition, and a property's subschema, is compiled when
    an instance first needs it (a ruleset uses a fraction of the fields); otherwise
    everything is compiled at once, so that an unknown keyword anywhere is refused at once.
    """

    def __init__(self, root: Mapping[str, Any], *, lazy: bool = True) -> None:
        self.root = root
        self.lazy = lazy
        self.refs: dict[str, Check] = {}

    def ref(self, ref: Any) -> Check:
        if ref in self.refs:
            return self.refs[ref]
        name = ref[len("#/$defs/"):] if isinstance(ref, str) and ref.startswith("#/$defs/") else ""
        defs = self.root.get("$defs")
        if not name or "/" in name or "~" in name or not isinstance(defs, Mapping) or name not in defs:
            raise UnsupportedSchema(f"$ref {ref!r}")
        cell: list[Check] = []

        def check(value: Any) -> bool:
            if not cell:
                cell.append(self.compile(defs[name]))
            return cell[0](value)

        self.refs[ref] = check  # a recursive reference finds it while it is compiled
        if not self.lazy:
            cell.append(self.compile(defs[name]))
        return check

    def compile(self, schema: Any) -> Check:
        if schema is True:
            return _always
        if schema is False:
            return _never
        if not isinstance(schema, dict):
            raise UnsupportedSchema(f"schema {schema!r}")
        checks = [
            self.keyword(key, value, schema)
            for key, value in schema.items()
            if key not in _ANNOTATIONS and key not in ("properties", "additionalProperties")
        ]
        if "properties" in schema or "additionalProperties" in schema:
            checks.append(self.properties(schema))
        if ("then" in schema or "else" in schema) and "if" not in schema:
            raise UnsupportedSchema("then/else without if")
        if not checks:
            return _always
        if len(checks) == 1:
            return checks[0]
        return _all_of(tuple(checks))

    def keyword(self, key: str, value: Any, schema: Mapping[str, Any]) -> Check:
        if key == "type":
            names = [value] if isinstance(value, str) else value
            if not isinstance(names, list) or not all(n in _TYPES for n in names):
                raise UnsupportedSchema(f"type {value!r}")
            tests = tuple(_TYPES[n] for n in names)
            return tests[0] if len(tests) == 1 else _any_of(tests)
        if key == "enum":
            if not isinstance(value, list):
                raise UnsupportedSchema("enum")
            if all(isinstance(e, str) for e in value):
                texts = frozenset(value)
                return lambda v: isinstance(v, str) and v in texts
            choices = tuple(value)
            return lambda v: any(equal(e, v) for e in choices)
        if key == "const":
            return lambda v: equal(value, v)
        if key == "required":
            names = tuple(value)
            return lambda v: not isinstance(v, dict) or all(n in v for n in names)
        if key == "propertyNames":
            names_ok = self.compile(value)
            return lambda v: not isinstance(v, dict) or all(names_ok(k) for k in v)
        if key == "minProperties":
            return lambda v: not isinstance(v, dict) or len(v) >= value
        if key == "items":
            if "prefixItems" in schema:
                raise UnsupportedSchema("prefixItems")
            item_ok = self.compile(value)

            def items(v: Any) -> bool:
                if isinstance(v, list):
                    for item in v:
                        if not item_ok(item):
                            return False
                return True

            return items
        if key == "minItems":
            return lambda v: not isinstance(v, list) or len(v) >= value
        if key == "maxItems":
            return lambda v: not isinstance(v, list) or len(v) <= value
        if key == "minLength":
            return lambda v: not isinstance(v, str) or len(v) >= value
        if key == "pattern":
            search = re.compile(value).search
            return lambda v: not isinstance(v, str) or search(v) is not None
        if key == "minimum":
            return lambda v: not _is_number(v) or v >= value
        if key == "maximum":
            return lambda v: not _is_number(v) or v <= value
        if key == "multipleOf":
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise UnsupportedSchema(f"multipleOf {value!r}")
            return lambda v: not _is_number(v) or not v % value
        if key in ("anyOf", "allOf"):
            subs = tuple(self.compile(s) for s in value)
            return _any_of(subs) if key == "anyOf" else _all_of(subs)
        if key == "$ref":
            return self.ref(value)
        if key == "if":
            test = self.compile(value)
            then = self.compile(schema.get("then", True))
            other = self.compile(schema.get("else", True))
            return lambda v: then(v) if test(v) else other(v)
        raise UnsupportedSchema(f"keyword {key!r}")

    def properties(self, schema: Mapping[str, Any]) -> Check:
        """``properties`` and ``additionalProperties`` together: one pass over the keys."""
        if "patternProperties" in schema:
            raise UnsupportedSchema("patternProperties")
        raw: Mapping[str, Any] = schema.get("properties") or {}
        known: dict[Any, Check] = {} if self.lazy else {k: self.compile(v) for k, v in raw.items()}
        extra_schema = schema.get("additionalProperties", True)
        extra: Check | None = None if extra_schema is True else self.compile(extra_schema)

        def check(value: Any) -> bool:
            if not isinstance(value, dict):
                return True
            for key, item in value.items():
                sub = known.get(key)
                if sub is None:
                    if key in raw:
                        sub = known[key] = self.compile(raw[key])
                    elif extra is None:
                        continue
                    else:
                        sub = extra
                if not sub(item):
                    return False
            return True

        return check


def compile_schema(schema: Mapping[str, Any], subschema: Any = None, *, lazy: bool = True) -> Check:
    """The check of ``subschema`` (default: the whole ``schema``), whose ``$ref`` point into
    ``schema``'s ``$defs`` (:class:`Checker`, for several subschemas of one schema).

    Raises:
        UnsupportedSchema: a keyword other than those of the generated ruleset schema (when
            compiled: with ``lazy``, possibly only when a check needs that part).
    """
    return Checker(schema, lazy=lazy).compile(schema if subschema is None else subschema)
