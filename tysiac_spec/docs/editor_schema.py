"""The schemas as editors show them: the generated ruleset schemas with the rule book's words.

:func:`tysiac_spec.ruleset.ruleset_schema` and :func:`~tysiac_spec.ruleset.extends_schema`
are what ``tysiac validate`` checks; this module writes the checked-in files
``schemas/ruleset.schema.json`` and ``schemas/ruleset-extends.schema.json`` (``tysiac schema``)
from them, adding only annotations, so that an editor (the YAML language server, VS Code's
JSON support) reads like the CLI:

- a ``title`` on every definition and every rule field: its label in the rule book
  (:data:`tysiac_spec.docs.terms.LABELS`, :data:`~tysiac_spec.docs.terms.SECTION_TITLES`), so
  that a message says ``Expected "integer | a value with its source | {$delete: true}"``,
  never an internal definition's name (``annotated.over``, ``delete``);
- a ``markdownDescription`` with the field's description, its label in the rule book's four
  languages and its default;
- ``enumDescriptions`` / ``markdownEnumDescriptions``: each choice's phrase in the rule book
  (:data:`~tysiac_spec.docs.terms.CHOICES`);
- ``defaultSnippets``: a new house-rule file (the extends schema's top), and, under
  ``options``, one per table option of the shipped rulesets (its other value as the table's
  default).

The words come from :mod:`tysiac_spec.docs.terms` (their one home); nothing here is written
twice.  A validator ignores every keyword added (all are annotations).
"""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Iterator
from functools import cache
from typing import Any, Literal, get_args, get_origin

from ..ruleset import extends_schema, ruleset_schema
from ..ruleset import model as rmodel
from ..ruleset._schema import _hints, _is_dataclass_type, _strip_optional
from . import terms
from .fields import SECTION_ORDER

__all__ = ["DEF_TITLES", "EDITOR_KEYWORDS", "HOUSE_SNIPPET", "editor_schema", "option_snippets"]

EDITOR_KEYWORDS = frozenset(
    {"title", "markdownDescription", "enumDescriptions", "markdownEnumDescriptions",
     "defaultSnippets"}
)
"""The annotations this module adds (validators ignore them)."""

DEF_TITLES: dict[str, str] = {
    "annotated": "a value with its source",
    "delete": "{$delete: true}",
    "patch": "the rules an option's value writes",
    "meta.source": "source ids",
    "meta.status": "verified or assumed",
    "meta.reason": "the reason for a value",
    "meta.doc": "an explanation per language",
}
"""Titles of the definitions that are no rule section (the others take their rule-book label)."""

_LANG_ORDER = ("en", "pl", "ru", "cs")


def _class_paths() -> dict[str, str]:
    """Each model dataclass's name -> its model path (``Auction`` -> ``auction``,
    ``Redeal`` -> ``deal.redeals``, ``TablePlan`` -> ``table``), the first one found."""
    out: dict[str, str] = {}
    todo: list[tuple[type, str]] = [(cls, name) for name, cls in rmodel.SECTIONS.items()]
    todo.append((rmodel.TablePlan, "table"))
    while todo:
        cls, path = todo.pop(0)
        if cls.__name__ in out:
            continue
        out[cls.__name__] = path
        hints = _hints(cls)
        for f in dataclasses.fields(cls):
            for inner in _dataclasses_in(hints[f.name]):
                todo.append((inner, f"{path}.{f.name}"))
    return out


def _dataclasses_in(tp: Any) -> Iterator[type]:
    tp, _ = _strip_optional(tp)
    if _is_dataclass_type(tp) and tp is not rmodel.Formula:
        yield tp
    for arg in get_args(tp) if get_origin(tp) is not Literal else ():
        if arg is not Ellipsis:
            yield from _dataclasses_in(arg)


def _texts(path: str) -> terms.T4 | None:
    """The rule book's label of a field, or title of a section (``deal``: the chapter it is in,
    :data:`~tysiac_spec.docs.fields.SECTION_ORDER`)."""
    found = terms.LABELS.get(path) or terms.SECTION_TITLES.get(path)
    if found is None and "." not in path:
        chapter = next((c for c, sections in SECTION_ORDER if path in sections), None)
        found = terms.SECTION_TITLES.get(chapter or "")
    return found


def _label(path: str) -> str | None:
    texts = _texts(path)
    return texts[0] if texts else None


def _rule_book_words(path: str) -> str:
    texts = _texts(path)
    if not texts:
        return ""
    words = " · ".join(f"{lang} *{text}*" for lang, text in zip(_LANG_ORDER, texts, strict=True))
    return f"Rule book: {words}."


def _def_title(name: str, paths: dict[str, str]) -> str:
    if name in DEF_TITLES:
        return DEF_TITLES[name]
    base = name.removesuffix(".over").removesuffix("Partial")
    if base in DEF_TITLES:
        return DEF_TITLES[base]
    path = paths.get(base)
    if path is None:  # Source, DeckSpec, Option, …: not a rule of the book
        doc = (getattr(rmodel, base, None).__doc__ or base) if hasattr(rmodel, base) else base
        return doc.strip().split("\n")[0].split(":")[0].rstrip(".").strip()
    label = _label(path)
    return f"{label} (`{path}`)" if label else f"`{path}`"


def _markdown(description: str, path: str | None, default: Any) -> str:
    parts = [description] if description else []
    if path:
        words = _rule_book_words(path)
        if words:
            parts.append(words)
    if default is not None and not isinstance(default, dict):
        shown = json.dumps(default, ensure_ascii=False) if not isinstance(default, str) else default
        parts.append(f"Default: `{shown}`.")
    return "\n\n".join(parts)


def _enum_nodes(node: Any) -> Iterator[dict[str, Any]]:
    """The subschemas holding a string ``enum`` inside a field's schema (not through ``$ref``)."""
    if isinstance(node, dict):
        if isinstance(node.get("enum"), list) and all(isinstance(v, str) for v in node["enum"]):
            yield node
        for key, value in node.items():
            if key not in ("enum", "const", "default", "examples", "defaultSnippets"):
                yield from _enum_nodes(value)
    elif isinstance(node, list):
        for value in node:
            yield from _enum_nodes(value)


def _describe_field(prop: dict[str, Any], path: str | None) -> None:
    if path:
        label = _label(path)
        if label and "$ref" not in prop:  # a $ref's own definition carries the title
            prop["title"] = label
        for node in _enum_nodes(prop):
            phrases = [terms.CHOICES.get(f"{path}={v}") for v in node["enum"]]
            if any(phrases):
                texts = [p[0] if p else "" for p in phrases]
                node["enumDescriptions"] = texts
                node["markdownEnumDescriptions"] = texts
    description = prop.get("description", "")
    markdown = _markdown(description, path, prop.get("default"))
    if markdown and markdown != description:
        prop["markdownDescription"] = markdown


def _decorate(schema: dict[str, Any]) -> dict[str, Any]:
    paths = _class_paths()
    out = copy.deepcopy(schema)
    for name, definition in out["$defs"].items():
        definition["title"] = _def_title(name, paths)
        base = name.removesuffix(".over").removesuffix("Partial")
        prefix = paths.get(base)
        for field, prop in (definition.get("properties") or {}).items():
            if isinstance(prop, dict) and field not in ("value", "$delete"):
                _describe_field(prop, f"{prefix}.{field}" if prefix else None)
    for field, prop in out["properties"].items():
        if isinstance(prop, dict):
            _describe_field(prop, field if field in rmodel.SECTIONS else None)
    table = out["properties"]["players"]
    table_schema = (table.get("additionalProperties") or table["anyOf"][0]["additionalProperties"])
    table_schema = table_schema.get("anyOf", [table_schema])[0]
    table_schema["title"] = _def_title("TablePlan", paths)
    for field, prop in table_schema["properties"].items():
        if isinstance(prop, dict):
            _describe_field(prop, f"table.{field}")
    return out


@cache
def option_snippets() -> tuple[dict[str, Any], ...]:
    """One ``defaultSnippets`` entry per table option of the shipped rulesets (first
    declaration of each name): it writes the option with its other value as the table's
    default, as a house rule does (``barrel: {default: true}``)."""
    from ..ruleset import load_ruleset, registry

    seen: dict[str, Any] = {}
    for entry in registry.entries():
        for name, option in load_ruleset(entry.id).options.items():
            seen.setdefault(name, option)
    out = []
    for name in sorted(seen):
        option = seen[name]
        if option.type == "bool":
            other: Any = not option.default
        elif option.type == "choice":
            other = next((c for c in option.choices if c != option.default), option.default)
        else:
            other = option.default
        doc = (option.doc or {}).get("en", "")
        out.append({
            "label": name,
            "description": f"{doc} (shipped default: {terms.option_text(option.default)})".strip(),
            "body": {name: {"default": other}},
        })
    return tuple(out)


HOUSE_SNIPPET = {
    "label": "New house-rule file",
    "description": "A house rule over a shipped ruleset: its id, kind, parent and name; then "
    "the few rules it changes.",
    "body": {
        "id": "${1:my-house}",
        "kind": "house",
        "extends": "${2:pl-standard}",
        "name": {"en": "${3:Our table}"},
        "description": {"en": "${4:What we play differently}"},
    },
}
"""The snippet of a new house-rule file (``defaultSnippets`` at the extends schema's top)."""


@cache
def editor_schema(kind: Literal["complete", "extends"]) -> dict[str, Any]:
    """The checked-in schema of ``kind`` (``complete``: ``ruleset.schema.json``,
    ``extends``: ``ruleset-extends.schema.json``): the validation schema with the rule book's
    words as annotations (see the module).  Shape: a JSON-compatible dict, draft 2020-12.
    Cached; do not mutate."""
    schema = _decorate(extends_schema() if kind == "extends" else ruleset_schema())
    snippets = [dict(s) for s in option_snippets()]
    options = schema["properties"]["options"]
    (options.get("anyOf") or [options])[0]["defaultSnippets"] = snippets
    if kind == "extends":
        schema["defaultSnippets"] = [HOUSE_SNIPPET]
    return schema
