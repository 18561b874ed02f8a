"""Generate the ruleset JSON Schemas (2020-12) from the model dataclasses.

The model in :mod:`tysiac_spec.ruleset.model` is the single source of truth; the
checked-in ``schemas/ruleset.schema.json`` (a complete ruleset, and the document after
``extends`` is merged) and ``schemas/ruleset-extends.schema.json`` (a file that extends
another: nothing required that a parent gives, ``{$delete: true}`` where a key may be
removed) are this module's output (a test keeps them equal; regenerate with
``tysiac schema -o schemas/ruleset.schema.json`` and
``tysiac schema --extends -o schemas/ruleset-extends.schema.json``).  Both mean the same
under draft 2020-12 and draft-07, as editors read them (no keyword beside ``$ref`` but
annotations; ``tests/test_editor_schema.py`` runs both drafts' validators).

Every scalar rule field accepts either its plain value or an annotated form
``{value: …, source: […], status: assumed, reason: …, doc: {en: …}}``; every
section mapping accepts the same ``source``/``status``/``reason``/``doc`` keys.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from functools import cache
from typing import Any, Literal, Union, get_args, get_origin

from ..dsl.contexts import CONTEXTS
from . import model
from .model import LANGS, SECTIONS, Formula

SCHEMA_ID = "https://tysiac-spec.example/schemas/ruleset.schema.json"
EXTENDS_SCHEMA_ID = "https://tysiac-spec.example/schemas/ruleset-extends.schema.json"

SCHEMA_FILES = {"complete": "ruleset.schema.json", "extends": "ruleset-extends.schema.json"}
"""The file name in ``schemas/`` of each ruleset schema: ``complete`` for a file without
``extends`` (and the merged document), ``extends`` for a file that extends another."""

META_KEYS = ("source", "status", "reason", "doc")
"""Provenance keys allowed on any rule element."""


def _lang_text(description: str) -> dict[str, Any]:
    return {
        "type": "object",
        "description": description,
        "propertyNames": {"enum": list(LANGS)},
        "additionalProperties": {"type": "string"},
    }


def _meta_properties() -> dict[str, Any]:
    return {key: {"$ref": f"#/$defs/meta.{key}"} for key in META_KEYS}


def _meta_defs() -> dict[str, Any]:
    defs = {
        "source": {
            "description": "Ids of the ruleset's `sources` this rule element is taken from.",
            "anyOf": [
                {"type": "string"},
                {"type": "array", "items": {"type": "string"}},
            ],
        },
        "status": {
            "description": "`verified` when a cited source states the rule; `assumed` when the "
            "sources are silent or ambiguous (say why in `reason`).",
            "enum": ["verified", "assumed"],
        },
        "reason": {
            "type": "string",
            "description": "Why this value was chosen where the sources are silent or disagree.",
        },
        "doc": _lang_text("Explanation of the rule per language, for rule books."),
    }
    out = {f"meta.{k}": v for k, v in defs.items()}
    out["annotated"] = {
        "type": "object",
        "description": "A rule value with its provenance: `{value: …, source: […], status: …}`.",
        "properties": {"value": {}, **_meta_properties()},
        "required": ["value"],
        "additionalProperties": False,
    }
    return out


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls, vars(model))


def _is_dataclass_type(tp: Any) -> bool:
    return isinstance(tp, type) and dataclasses.is_dataclass(tp)


def _strip_optional(tp: Any) -> tuple[Any, bool]:
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        if len(args) < len(get_args(tp)):
            return (args[0] if len(args) == 1 else Union[tuple(args)]), True  # noqa: UP007
    return tp, False


class _Builder:
    def __init__(self) -> None:
        self.defs: dict[str, Any] = {}

    def ref(self, cls: type, partial: bool) -> dict[str, Any]:
        name = cls.__name__ + ("Partial" if partial else "")
        if name not in self.defs:
            self.defs[name] = {}  # placeholder against recursion
            self.defs[name] = self.object_schema(cls, partial)
        return {"$ref": f"#/$defs/{name}"}

    def object_schema(self, cls: type, partial: bool, *, meta: bool = True) -> dict[str, Any]:
        props: dict[str, Any] = {}
        required: list[str] = []
        hints = _hints(cls)
        for f in dataclasses.fields(cls):
            meta_data = f.metadata
            props[f.name] = self.field_schema(hints[f.name], meta_data, partial)
            if meta_data.get("required") and not partial:
                required.append(f.name)
        if meta:
            props.update(_meta_properties())
        doc = (cls.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")
        out: dict[str, Any] = {
            "type": "object",
            "description": doc,
            "properties": props,
            "additionalProperties": False,
        }
        if required:
            out["required"] = required
        return out

    def field_schema(self, tp: Any, meta: Mapping[str, Any], partial: bool) -> dict[str, Any]:
        description = meta.get("description", "")
        inner, optional = _strip_optional(tp)
        schema = self.type_schema(inner, meta, partial)
        if _is_dataclass_type(inner) and inner is not Formula:
            out = {"description": description, **schema}
            if optional:
                out = {"description": description, "anyOf": [schema, {"type": "null"}]}
            return out
        if optional:
            schema = {"anyOf": [schema, {"type": "null"}]}
        annotated = {
            "allOf": [{"$ref": "#/$defs/annotated"}, {"properties": {"value": schema}}],
        }
        return {"description": description, "anyOf": [schema, annotated]}

    def type_schema(self, tp: Any, meta: Mapping[str, Any], partial: bool) -> dict[str, Any]:
        origin = get_origin(tp)
        if tp is Formula:
            site = meta.get("formula")
            formula: dict[str, Any] = {
                "type": "string",
                "minLength": 1,
                "x-formula": site,
                "description": f"A formula of the rules DSL (context `{site}`).",
            }
            example = _formula_example(site)
            if example:
                formula["examples"] = [example]
            return formula
        if tp is bool:
            return {"type": "boolean"}
        if tp is int:
            s: dict[str, Any] = {"type": "integer"}
            for key in ("minimum", "maximum"):
                if meta.get(key) is not None:
                    s[key] = meta[key]
            if meta.get("multiple_of"):
                s["multipleOf"] = meta["multiple_of"]
            return s
        if tp is str:
            return {"type": "string", "minLength": 1}
        if tp is Any:
            return {}
        if origin is Literal:
            return {"enum": list(get_args(tp))}
        if origin in (Union, types.UnionType):
            kinds = {bool: "boolean", int: "integer", str: "string"}
            return {"type": [kinds[a] for a in get_args(tp)]}
        if origin is tuple:
            args = get_args(tp)
            bounds = {k: meta[k] for k in ("minimum", "maximum") if meta.get(k) is not None}
            out: dict[str, Any] = {
                "type": "array", "items": self.type_schema(args[0], bounds, partial)
            }
            if Ellipsis not in args:  # tuple[str, str]: exactly that many items
                out.update(minItems=len(args), maxItems=len(args))
            return out
        if origin in (Mapping, dict, typing.Mapping):
            _key_tp, val_tp = get_args(tp)
            if val_tp is str:
                return _lang_text(meta.get("description", ""))
            return {
                "type": "object",
                "propertyNames": {"pattern": "^[A-Za-z_][A-Za-z0-9_-]*$"},
                "additionalProperties": self.type_schema(
                    val_tp,
                    {k: meta[k] for k in ("minimum", "maximum") if meta.get(k) is not None},
                    partial,
                ),
            }
        if _is_dataclass_type(tp):
            return self.ref(tp, partial)
        raise TypeError(f"no schema for {tp!r}")


def _formula_example(site: str | None) -> str:
    """The example formula (or statements, at an ``…:effects`` site) of a formula context
    (:data:`~tysiac_spec.dsl.contexts.CONTEXTS`), shown by editors as a completion."""
    if not site:
        return ""
    name, _, effects = site.partition(":")
    context = CONTEXTS.get(name)
    if context is None:
        return ""
    return context.effects_example if effects else context.example


def _player_form_schema(builder: _Builder) -> dict[str, Any]:
    table = builder.object_schema(model.TablePlan, partial=False)
    props = dict(table["properties"])
    for name, cls in SECTIONS.items():
        props[name] = {
            "description": f"Overrides of `{name}` for this number of players.",
            **builder.ref(cls, partial=True),
        }
    return {
        "type": "object",
        "description": "The rules for one number of players: the deal layout, and any "
        "section overriding the common rules for that number.",
        "properties": props,
        "required": table.get("required", []),
        "additionalProperties": False,
    }


@cache
def ruleset_schema() -> dict[str, Any]:
    """The JSON Schema of a resolved ruleset document (after ``extends`` is merged).

    Shape: a JSON-compatible dict, draft 2020-12.  Cached; do not mutate.
    """
    b = _Builder()
    meta_text = {
        "id": {
            "type": "string",
            "pattern": "^[a-z0-9][a-z0-9-]*$",
            "description": "Identifier of the ruleset (`pl-standard`): lower case, digits, "
            "hyphens; equal to the file name without `.yaml` for shipped rulesets.",
        },
        "kind": {
            "enum": ["variant", "house", "base"],
            "description": "`variant`: a regional or site variant; `house`: house rules "
            "extending another ruleset; `base`: shared core, not playable on its own.",
        },
        "name": _lang_text("Name of the ruleset per language (at least `en`)."),
        "description": _lang_text("Summary of the ruleset per language."),
        "aliases": {
            "type": "array",
            "items": {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]*$"},
            "description": "Other names the registry finds this ruleset by.",
        },
        "extends": {
            "description": "Parent ruleset(s): an id or a path, or a list of them, merged left "
            "to right; mappings merge key by key, lists and scalars are replaced, "
            "`{$delete: true}` removes a key (its default comes back), `null` is the value none "
            "(for the fields that allow it, e.g. `auction.forced_seat: null`: nobody opens).",
            "anyOf": [
                {"type": "string"},
                {"type": "array", "items": {"type": "string"}, "minItems": 1},
            ],
        },
        "sources": {
            "type": "array",
            "description": "Documents this ruleset is based on; cited by id in `source:`.",
            "items": b.ref(model.Source, partial=False),
        },
        "deck": {"description": "The pack.", **b.ref(model.DeckSpec, partial=False)},
        "players": {
            "type": "object",
            "description": "The numbers of players this ruleset defines (`2`, `3`, `4`), each "
            "with its deal layout and overrides.",
            # the numbers too: the YAML language server checks a key `3:` as the number 3
            "propertyNames": {"enum": ["2", "3", "4", 2, 3, 4]},
            "additionalProperties": _player_form_schema(b),
            "minProperties": 1,
        },
        "options": {
            "type": "object",
            "description": "Table settings a game chooses, by name.",
            "propertyNames": {"pattern": "^[a-z][a-z0-9_]*$"},
            "additionalProperties": b.ref(model.Option, partial=False),
        },
    }
    props = dict(meta_text)
    for name, cls in SECTIONS.items():
        props[name] = {"description": (cls.__doc__ or "").split("\n")[0], **b.ref(cls, False)}
    props.update(_meta_properties())
    playable = ["id", "name", "sources", "deck", "players", "marriages", "scoring"]
    schema: dict[str, Any] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "tysiac-spec ruleset",
        "description": "A ruleset of the card game Tysiąc / Тысяча / 1000, as data.",
        "type": "object",
        "properties": props,
        "required": ["id"],
        "additionalProperties": False,
        "if": {"properties": {"kind": {"const": "base"}}, "required": ["kind"]},
        "else": {"required": playable},
        "$defs": {**_meta_defs(), **b.defs},
    }
    _fill_defaults(schema)
    named: dict[str, Any] = _keys_named(schema)
    return named


def _fill_defaults(schema: dict[str, Any]) -> None:
    """Copy dataclass field defaults into the schema (`default`), for editors and docs."""
    for cls in _all_dataclasses():
        for suffix in ("", "Partial"):
            d = schema["$defs"].get(cls.__name__ + suffix)
            if not d:
                continue
            for f in dataclasses.fields(cls):
                prop = d["properties"].get(f.name)
                if prop is None:
                    continue
                if f.default is not dataclasses.MISSING and f.default is not None:
                    value = f.default
                    if isinstance(value, tuple):
                        value = list(value)
                    if isinstance(value, (int, str, bool, list)):
                        prop["default"] = value


def _all_dataclasses() -> list[type]:
    return [
        obj
        for obj in vars(model).values()
        if isinstance(obj, type) and dataclasses.is_dataclass(obj) and obj.__module__ == model.__name__
    ]


def formula_sites() -> dict[str, str]:
    """Every schema field that holds a formula: ``{"Auction.max_bid": "auction.max_bid", …}``."""
    out: dict[str, str] = {}
    for cls in _all_dataclasses():
        for f in dataclasses.fields(cls):
            if f.metadata.get("formula"):
                out[f"{cls.__name__}.{f.name}"] = f.metadata["formula"]
    return out


# --------------------------------------------------------------------------- extends

_ANNOTATION_KEYS = ("description", "default", "examples", "title", "x-formula")
"""Keywords that only describe a subschema (kept beside a ``$ref`` or an ``anyOf`` they wrap,
where draft-07 would ignore anything else)."""

_DELETE_DEF = "delete"
_DELETE_REF = {"$ref": f"#/$defs/{_DELETE_DEF}"}


def _deletable(schema: dict[str, Any], defs: Mapping[str, Any]) -> dict[str, Any]:
    """``schema``, or the deletion marker ``{$delete: true}``; the annotations stay on top
    (a lone ``$ref``'s description is brought up, for the editor's hover text)."""
    notes = {k: v for k, v in schema.items() if k in _ANNOTATION_KEYS}
    ref = schema.get("$ref")
    if "description" not in notes and isinstance(ref, str):
        described = defs.get(ref.removeprefix("#/$defs/"), {}).get("description")
        if described:
            notes["description"] = described
    rest = {k: v for k, v in schema.items() if k not in _ANNOTATION_KEYS}
    if not rest:  # any value: the marker is one too
        return schema
    if list(rest) == ["anyOf"]:
        return {**notes, "anyOf": [*rest["anyOf"], _DELETE_REF]}
    return {**notes, "anyOf": [rest, _DELETE_REF]}


class _Over:
    """The extends schema's view of the complete one: what a file writes *over* its parents.

    Mappings merge key by key (:func:`._merge.merge`), so in every mapping reached from the
    top through mappings nothing is required (a parent may give it) and each key may be the
    marker ``{$delete: true}``; lists replace the parent's whole list, so a list's items keep
    the complete schema (their ``$defs`` are shared), as do the keys' names
    (``propertyNames``).  The ``Partial`` definitions (a player count's sections) become the
    sections' own: over a parent, both are partial.
    """

    def __init__(self, complete: Mapping[str, Any]) -> None:
        self.defs: dict[str, Any] = dict(complete["$defs"])
        self.names: dict[str, str] = {}  # a complete definition's name -> its view's

    def ref(self, ref: str) -> str:
        name = ref.removeprefix("#/$defs/")
        full = name.removesuffix("Partial")
        if full not in self.names:
            over = f"{full}.over"
            self.names[full] = over  # against recursion
            made = self.schema(self.defs[full])
            if made == self.defs[full] and self.names[full] == over:  # nothing to change
                self.names[full] = full
            else:
                self.defs[over] = made
        return f"#/$defs/{self.names[full]}"

    def deletable(self, node: dict[str, Any]) -> dict[str, Any]:
        return _deletable(self.schema(node), self.defs)

    def schema(self, node: Any) -> Any:
        if not isinstance(node, dict):
            return node
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key == "required":
                continue
            if key == "$ref":
                out[key] = self.ref(value)
            elif key == "properties":
                out[key] = {k: self.deletable(v) for k, v in value.items()}
            elif key == "additionalProperties" and isinstance(value, dict):
                out[key] = self.deletable(value)
            elif key in ("anyOf", "allOf", "oneOf"):
                out[key] = [self.schema(v) for v in value]
            else:  # items, propertyNames, enum, …: as in the complete schema
                out[key] = value
        return out


@cache
def extends_schema() -> dict[str, Any]:
    """The JSON Schema of a ruleset file that ``extends`` another (a house rule, a variant
    of a base), as written: the complete schema (:func:`ruleset_schema`) with nothing
    required that a parent may give (only ``id``, ``extends``, and ``name`` in a file of kind
    ``variant`` or ``house``: a file's identity is its own), ``{$delete: true}``
    accepted as the value of any key of a mapping (not inside a list, which replaces the
    parent's), the same descriptions, defaults, enums and examples; an option's patches
    (``options.<name>.set.<value>``, any mapping to the complete schema, checked when the value
    is applied) are written like such a file's rules, and checked so; every mapping of known
    keys names them in ``propertyNames`` too (:func:`_keys_named`).

    Looser than the merged document's check, never stricter: what it refuses,
    ``tysiac validate`` refuses too.  Shape: a JSON-compatible dict, draft 2020-12 (and
    draft-07 alike).  Cached; do not mutate.
    """
    complete = ruleset_schema()
    over = _Over(complete)
    props = {
        k: v if k in ("id", "extends") else over.deletable(v)
        for k, v in complete["properties"].items()
    }
    over.defs[_DELETE_DEF] = {
        "type": "object",
        "description": "The deletion marker: removes this key from what the parent ruleset "
        "wrote (its default comes back); a key the parent lacks is refused "
        "(`merge.nothing-to-delete`).",
        "properties": {"$delete": {"const": True, "description": "Always `true`."}},
        "required": ["$delete"],
        "additionalProperties": False,
    }
    over.defs["patch"] = {
        "type": "object",
        "description": "The rules one value of an option writes over the ruleset, as a file "
        "extending it would (merged key by key, `{$delete: true}` removes a key).",
        "properties": {k: v for k, v in props.items() if k != "extends"},
        "additionalProperties": False,
    }
    patches = over.defs[over.ref("#/$defs/Option")[len("#/$defs/"):]]["properties"]["set"]
    patches["anyOf"][0]["additionalProperties"] = _deletable({"$ref": "#/$defs/patch"}, over.defs)
    used = _reachable(props, over.defs)
    schema: dict[str, Any] = _keys_named({
        "$schema": complete["$schema"],
        "$id": EXTENDS_SCHEMA_ID,
        "title": "tysiac-spec ruleset extending another",
        "description": "A ruleset file that extends another (`extends`), as written: it changes "
        "a few rules of its parents; mappings merge key by key, lists and scalars replace "
        "the parent's, `{$delete: true}` removes a key, `null` is the value none. The merged "
        "result must be a complete ruleset (`ruleset.schema.json`).",
        "type": "object",
        "properties": props,
        "required": ["id", "extends"],
        "additionalProperties": False,
        # a file's identity is never inherited (_merge.NOT_INHERITED): a playable one names itself
        "if": {"properties": {"kind": {"enum": ["variant", "house"]}}, "required": ["kind"]},
        "then": {"required": ["name"]},
        "$defs": {name: over.defs[name] for name in sorted(used)},
    })
    return schema


def _keys_named(schema: Any) -> Any:
    """A copy of ``schema`` where every mapping of known keys only (``properties`` with
    ``additionalProperties: false``) also names them in ``propertyNames``: the same to a
    JSON Schema validator, but the YAML language server reports an unknown key written
    without a value (``{reason: Ours (A, B).}`` makes the key ``B).``) only so."""
    if isinstance(schema, list):
        return [_keys_named(v) for v in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: v if k in ("enum", "const", "default", "examples") else _keys_named(v)
           for k, v in schema.items()}
    if (
        isinstance(out.get("properties"), dict) and out.get("additionalProperties") is False
        and "propertyNames" not in out
    ):
        out["propertyNames"] = {"enum": list(out["properties"])}
    return out


def _reachable(root: Any, defs: Mapping[str, Any]) -> set[str]:
    """The names of the definitions ``root`` refers to, directly or through others."""
    seen: set[str] = set()
    todo = [root]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                name = ref.removeprefix("#/$defs/")
                if name not in seen:
                    seen.add(name)
                    todo.append(defs[name])
            todo.extend(node.values())
        elif isinstance(node, list):
            todo.extend(node)
    return seen
