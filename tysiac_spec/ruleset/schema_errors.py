"""JSON Schema errors of a ruleset document, as diagnostics (the first stage of
:mod:`.validate`).

Whether a document (or one top-level section) is valid is answered by :mod:`._schema_check`;
jsonschema, imported only then, explains a document found invalid: each leaf error becomes a
:class:`..errors.Diagnostic` with the code ``schema.<keyword>`` (``schema.type``,
``schema.enum``, ``schema.unknown-key``, ``schema.required`` …), a message naming the field,
what was expected and what was found, the file position (the loader's marks) and the path.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Iterator, Mapping
from functools import cache, partial
from typing import TYPE_CHECKING, Any

from ..errors import Diagnostic, format_path
from ._convert import built_once, kept, plain_document
from ._merge import DELETE
from ._schema import ruleset_schema
from ._schema_check import Check, Checker, UnsupportedSchema
from ._yaml import Mark, YMap, mark_at, to_plain

if TYPE_CHECKING:
    import jsonschema

Path = tuple[str | int, ...]
"""A path inside the ruleset document (keys and list indexes)."""


def did_you_mean(word: str, candidates: Any) -> str | None:
    """The hint naming the candidate closest to ``word`` (difflib), or ``None``."""
    close = difflib.get_close_matches(word, sorted(candidates), n=1)
    return f"did you mean `{close[0]}`?" if close else None


@cache
def _validator() -> jsonschema.protocols.Validator:
    import jsonschema  # only to explain a document found invalid (_schema_check says whether)

    schema = ruleset_schema()
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema)


def _root_schema() -> dict[str, Any]:
    """The schema of a ruleset document's own keywords only (required keys, unknown keys,
    the base/house rule), taking every section as it is."""
    schema = ruleset_schema()
    return {**schema, "properties": {key: True for key in schema["properties"]}}


@cache
def _root_validator() -> jsonschema.protocols.Validator:
    import jsonschema

    schema = _root_schema()
    return jsonschema.validators.validator_for(schema)(schema)


@cache
def _checker() -> Checker:
    return Checker(ruleset_schema())


@cache
def _quick_check(key: str | None) -> Check | None:
    """The yes/no check of the section ``key`` (``None``: the document's own keywords), or
    ``None`` for a key the schema does not have."""
    if key is None:
        root = _root_schema()
        return Checker(root).compile(root)
    subschema = ruleset_schema()["properties"].get(key)
    return None if subschema is None else _checker().compile(subschema)


def _is_valid(key: str | None, plain: Any) -> bool:
    """Whether ``plain`` is valid for the section ``key`` (``None``: the document's own
    keywords), answered by :mod:`._schema_check`; by jsonschema for a schema it does not know.
    """
    check = _quick_check(key)
    if check is None:
        return False
    try:
        return check(plain)
    except UnsupportedSchema:
        if key is None:
            return bool(_root_validator().is_valid(plain))
        subschema = ruleset_schema()["properties"][key]
        return bool(_validator().evolve(schema=subschema).is_valid(plain))


def _section_is_valid(key: str, part: Any, plain: Any) -> bool:
    """Whether the section ``key`` (the document part ``part``, ``plain`` its plain copy) is
    valid, checked once per section document (:func:`built_once`: the option values of a
    ruleset share the sections their patches leave alone)."""
    return bool(built_once(("schema", key), part, partial(kept, _is_valid, key, plain)))


def changed_schema_errors(doc: Any, sections: Iterable[str]) -> list[Diagnostic]:
    """The JSON Schema problems of ``doc``, a document that differs from a valid one only in
    the top-level ``sections`` (an option's patches applied; every section for a document
    not checked before): the document's own keywords, then each of those sections that was
    not seen valid before (a section's schema does not depend on the others); when one is
    not valid, the whole document, for the diagnostics.  Whether a part is valid is answered
    by :mod:`._schema_check`; jsonschema (imported then) only explains a part that is not.

    Returns the diagnostics :func:`schema_errors` would give, at a fraction of the cost.
    """
    plain = plain_document(doc)
    found: list[Diagnostic] = []
    if not _is_valid(None, plain):
        found = list(schema_errors(doc, validator=_root_validator(), plain=plain))
    for key in sorted(sections):
        if key in plain and not _section_is_valid(key, doc[key], plain[key]):
            return list(schema_errors(doc))
    return found


def describe(value: Any) -> str:
    """``value`` as a message shows it: ``true``/``false``, ``null``, a mapping, a list, a
    JSON string, or the number."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


_TYPE_NAMES = {
    "integer": "an integer",
    "boolean": "true or false",
    "string": "a text",
    "object": "a mapping",
    "array": "a list",
    "null": "null",
}


def _leaf_errors(error: Any) -> Iterator[Any]:
    """Descend through ``anyOf`` to the errors of the branch the user meant."""
    if error.validator == "anyOf" and error.context:
        instance = error.instance
        plain_branch = 0
        if isinstance(instance, Mapping) and "value" in instance:
            plain_branch = 1  # meant as the annotated form {value: …, source: …}
        by_branch: dict[Any, list[Any]] = {}
        for sub in error.context:
            by_branch.setdefault(sub.schema_path[0] if sub.schema_path else 0, []).append(sub)
        branch = by_branch.get(plain_branch) or next(iter(by_branch.values()))
        # a pure type mismatch on every branch: report it once, listing the types accepted
        types = [s.validator_value for s in error.context if s.validator == "type"]
        if len(types) == len(error.context) and plain_branch == 0:
            yield error
            return
        for sub in branch:
            yield from _leaf_errors(sub)
        return
    if error.validator == "allOf" and error.context:
        for sub in error.context:
            yield from _leaf_errors(sub)
        return
    yield error


def _field_hint(error: Any) -> str | None:
    desc = error.schema.get("description") if isinstance(error.schema, Mapping) else None
    parent = error.parent
    while desc is None and parent is not None:
        desc = parent.schema.get("description") if isinstance(parent.schema, Mapping) else None
        parent = parent.parent
    return desc


def _diagnostic_for(error: Any, doc: Any, root: str = "the ruleset") -> Diagnostic:
    path: Path = tuple(error.absolute_path)
    shown_path = tuple(p for p in path if p != "value") if path else path
    where = f"`{format_path(shown_path)}`"
    kw = str(error.validator)
    hint: str | None = None
    key_mark = False
    instance = error.instance
    if len(error.schema_path) >= 2 and list(error.schema_path)[-2] == "propertyNames":
        bad_key = str(instance)
        path = (*path, bad_key)
        if kw == "enum":
            allowed = ", ".join(dict.fromkeys(str(v) for v in error.validator_value))
            message = f"unknown key `{bad_key}` in {where}; expected one of {allowed}"
        else:
            message = f"key `{bad_key}` in {where} must match `{error.validator_value}`"
        hint = _cut_hint(doc, path) or _field_hint(error)
        return diagnostic_at("schema.key", message, doc, path, hint, key=True)
    if kw == "additionalProperties":
        known = sorted(error.schema.get("properties", {}))
        extra = sorted(set(instance) - set(known)) if isinstance(instance, Mapping) else []
        bad = extra[0] if extra else "?"
        path = (*path, bad)
        key_mark = True
        container = root if not shown_path else where
        message = f"unknown key `{bad}` in {container}"
        close = difflib.get_close_matches(bad, known, n=1)
        hint = _cut_hint(doc, path)
        if hint is None and close:
            message += f"; did you mean `{close[0]}`?"
        elif hint is None:
            hint = "expected one of: " + ", ".join(known)
        return diagnostic_at("schema.unknown-key", message, doc, path, hint, key=key_mark)
    if kw == "required":
        missing = [k for k in error.validator_value if k not in (instance or {})]
        name = missing[0] if missing else "?"
        if len(path) == 2 and path[0] == "options" and name == "type":
            declared = [
                k for k, v in (doc.get("options") or {}).items()
                if isinstance(v, Mapping) and "type" in v
            ]
            message = (
                f"option `{path[1]}` is not declared by this ruleset or its parents "
                "(a new option needs `type` and `default`)"
            )
            return diagnostic_at(
                "option.undeclared", message, doc, path, did_you_mean(str(path[1]), declared),
                key=True,
            )
        container = root if not shown_path else where
        message = f"{container} is missing the required key `{name}`"
        return diagnostic_at("schema.required", message, doc, path, _field_hint(error), key=True)
    if kw == "type" or (kw == "anyOf" and error.context):
        if kw == "type":
            expected_types = error.validator_value
        else:
            branches = error.validator_value
            plain = [
                i for i, b in enumerate(branches)
                if not (isinstance(b, Mapping) and "allOf" in b)
            ]
            expected_types = [
                s.validator_value
                for s in error.context
                if s.validator == "type" and s.schema_path and s.schema_path[0] in plain
            ]
        if isinstance(expected_types, str):
            expected_types = [expected_types]
        flat: list[str] = []
        for t in expected_types:
            flat.extend([t] if isinstance(t, str) else t)
        names = [_TYPE_NAMES.get(t, t) for t in dict.fromkeys(flat) if t != "null"]
        expected = " or ".join(names) or "something else"
        message = f"{where} must be {expected} (got {describe(instance)})"
        if instance is None:
            hint = _cut_hint(doc, path) or (
                "`null` is the value none, which this field does not take; "
                "`{$delete: true}` removes a key a parent ruleset wrote"
            )
        elif isinstance(instance, Mapping) and DELETE in instance:
            hint = "the deletion marker is written alone: `{$delete: true}`"
        return diagnostic_at("schema.type", message, doc, path, hint or _field_hint(error))
    if kw == "enum":
        choices = ", ".join(describe(v).strip('"') for v in error.validator_value)
        message = f"{where} must be one of {choices} (got {describe(instance)})"
        if isinstance(instance, str):
            close = difflib.get_close_matches(
                instance, [str(v) for v in error.validator_value], n=1
            )
            if close:
                hint = f"did you mean `{close[0]}`?"
        return diagnostic_at("schema.enum", message, doc, path, hint or _field_hint(error))
    if kw in ("minimum", "maximum"):
        word = "at least" if kw == "minimum" else "at most"
        message = f"{where} must be {word} {error.validator_value} (got {describe(instance)})"
        return diagnostic_at(f"schema.{kw}", message, doc, path, _field_hint(error))
    if kw == "minLength":
        return diagnostic_at("schema.empty", f"{where} must not be empty", doc, path, _field_hint(error))
    if kw == "pattern":
        message = (
            f"{where} must match `{error.validator_value}` (got {describe(instance)})"
        )
        return diagnostic_at("schema.pattern", message, doc, path, _field_hint(error))
    if kw in ("minItems", "maxItems") and error.schema.get("minItems") == error.schema.get(
        "maxItems"
    ):
        count = error.validator_value
        message = f"{where} must list exactly {count} items (got {len(instance)})"
        return diagnostic_at("schema.items", message, doc, path, _field_hint(error))
    if kw == "maxItems":
        message = f"{where} must list at most {error.validator_value} items (got {len(instance)})"
        return diagnostic_at("schema.items", message, doc, path, _field_hint(error))
    if kw in ("minItems", "minProperties"):
        message = f"{where} must not be empty"
        return diagnostic_at("schema.empty", message, doc, path, _field_hint(error))
    if kw == "const":
        message = f"{where} must be {describe(error.validator_value)} (got {describe(instance)})"
        return diagnostic_at("schema.const", message, doc, path, None)
    return diagnostic_at(f"schema.{kw}", f"{where}: {error.message}", doc, path, None)


def _cut_hint(doc: Any, path: Path) -> str | None:
    """The hint for a key that is the rest of a text cut at a comma (:func:`_cut_text`)."""
    cut = _cut_text(doc, path)
    if cut is None:
        return None
    return (
        f"a comma ends a text that is not quoted inside `{{…}}`, so the rest of `{cut}` was "
        f"read as this key: quote the text (`{cut}: \"…, …\"`)"
    )


def _cut_text(doc: Any, path: Path) -> str | None:
    """The key whose unquoted text a comma cut, making the key at ``path`` (written without a
    value, on the line of that text, after it: ``{value: 1, reason: Ours (A, B).}`` reads
    ``reason`` as ``Ours (A`` and a key ``B).``); ``None`` when the key is not such a rest."""
    container: Any = doc
    for part in path[:-1]:
        try:
            container = container[part]
        except (KeyError, IndexError, TypeError):
            return None
    key = path[-1] if path else None
    if not (isinstance(container, YMap) and isinstance(key, str)) or key not in container:
        return None
    if container[key] is not None:
        return None
    here = container.key_marks.get(key)
    cut: str | None = None
    for other, value in container.items():
        there = container.value_marks.get(other)
        if (
            here is not None and there is not None and isinstance(value, str)
            and there.line == here.line and there.column < here.column
        ):
            cut = str(other)  # the last text before the key
    return cut


def diagnostic_at(
    code: str, message: str, doc: Any, path: Path, hint: str | None, *, key: bool = False
) -> Diagnostic:
    """The diagnostic ``code``/``message`` (``hint``) placed at the mark of ``path`` in ``doc``
    (its key's mark when ``key``); a ``value`` step of an annotated value is left out of the
    path."""
    mark: Mark | None = mark_at(doc, path, key=key)
    return Diagnostic(
        code=code,
        message=message,
        file=mark.file if mark else None,
        line=mark.line if mark else None,
        column=mark.column if mark else None,
        path=tuple(p for p in path if p != "value"),
        hint=hint,
    )


def schema_errors(
    doc: Any, *, validator: Any = None, root: str = "the ruleset", plain: Any = None
) -> Iterator[Diagnostic]:
    """Every JSON Schema violation of the merged document ``doc``, as diagnostics,
    in document order (by line).

    ``validator`` checks another schema (the scenario files'); ``root`` names the whole
    document in messages (``unknown key `x` in the scenario file``); ``plain`` is
    ``to_plain(doc)`` when the caller has it."""
    plain = to_plain(doc) if plain is None else plain
    found: list[Diagnostic] = []
    seen: set[tuple[str, Path]] = set()
    for error in (validator or _validator()).iter_errors(plain):
        for leaf in _leaf_errors(error):
            diag = _diagnostic_for(leaf, doc, root)
            key = (diag.message, diag.path)
            if key not in seen:
                seen.add(key)
                found.append(diag)
    # a closed mapping names its keys twice (additionalProperties, and propertyNames for the
    # YAML language server): an unknown key is reported once, as `schema.unknown-key`
    unknown = {d.path for d in found if d.code == "schema.unknown-key"}
    found = [d for d in found if not (d.code == "schema.key" and d.path in unknown)]
    found.sort(key=lambda d: (d.file or "", d.line or 0, d.column or 0))
    yield from found

