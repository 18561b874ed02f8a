"""The document's checks: its sources (``source.*``) and its options (``option.*``)."""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping
from functools import partial
from typing import Any

from ...errors import Diagnostic, format_path
from .._convert import built_once, is_annotated, kept
from .._yaml import is_mapping, mark_at
from ..model import int_option_range
from ..schema_errors import Path, describe
from .base import Document, check, diag, get


def _source_ids(doc: Any) -> Iterator[tuple[int, str]]:
    """The index and id of every source with an id."""
    for i, src in enumerate(get(doc, "sources", default=[]) or []):
        sid = src.get("id") if isinstance(src, Mapping) else None
        if isinstance(sid, str):
            yield i, sid


@check("source.duplicate", "document")
def duplicate_source(document: Document) -> Iterator[Diagnostic]:
    """Two sources share an id: the second is reported, with the first's line."""
    doc = document.doc
    ids: dict[str, int] = {}
    for i, sid in _source_ids(doc):
        if sid in ids:
            first = mark_at(doc, ("sources", ids[sid], "id"))
            where = f" (first at line {first.line})" if first else ""
            yield diag(
                "source.duplicate",
                f"source id `{sid}` is listed twice{where}",
                doc,
                ("sources", i, "id"),
            )
        ids.setdefault(sid, i)


@check("source.unknown", "document")
def unknown_source(document: Document) -> Iterator[Diagnostic]:
    """A ``source:`` citation anywhere in the document naming no source of ``sources``."""
    doc = document.doc
    ids = {sid for _, sid in _source_ids(doc)}
    known = sorted(ids)
    for path, sid in _all_cited(doc):
        if sid not in ids:
            close = difflib.get_close_matches(sid, known, n=1)
            hint = f"did you mean `{close[0]}`?" if close else None
            yield diag(
                "source.unknown",
                f"`{format_path(path[:-1] if isinstance(path[-1], int) else path)}` cites "
                f"unknown source `{sid}`; the ruleset's sources are: {', '.join(known) or 'none'}",
                doc,
                path,
                hint,
            )


def _all_cited(doc: Any) -> Iterator[tuple[Path, str]]:
    """Every ``source:`` citation of the document with its path, section by section (each
    section's list made once per section document: :func:`.._convert.built_once`)."""
    if not is_mapping(doc):
        return
    for key, value in doc.items():
        if key == "source":  # the ruleset's own citation
            yield from _cited({key: value}, ())
        elif isinstance(value, list) or is_mapping(value):
            yield from built_once("cited", value, partial(kept, _cited_list, value, (key,)))


def _cited_list(node: Any, path: Path) -> list[tuple[Path, str]]:
    return list(_cited(node, path))


def _cited(node: Any, path: Path) -> Iterator[tuple[Path, str]]:
    if is_mapping(node):
        for key, value in node.items():
            if key == "source" and path[:1] != ("sources",):
                ids = value if isinstance(value, list) else [value]
                for i, sid in enumerate(ids):
                    if isinstance(sid, str):
                        sub = (*path, key, i) if isinstance(value, list) else (*path, key)
                        yield sub, sid
            else:
                yield from _cited(value, (*path, key))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _cited(item, (*path, i))


@check("option.choices", "document")
def option_choices(document: Document) -> Iterator[Diagnostic]:
    """A choice option without ``choices``, or ``choices`` on a bool or int option."""
    doc = document.doc
    for name, opt, base in document.options:
        kind = get(opt, "type")
        choices = get(opt, "choices", default=[]) or []
        if kind == "choice" and not choices:
            yield diag(
                "option.choices",
                f"option `{name}` is a choice but lists no `choices`",
                doc,
                base,
            )
        if kind != "choice" and choices:
            yield diag(
                "option.choices",
                f"option `{name}` is {'a' if kind == 'bool' else 'an'} {kind}; `choices` "
                "belong to choice options",
                doc,
                (*base, "choices"),
            )


@check("option.default", "document")
def option_default(document: Document) -> Iterator[Diagnostic]:
    """An option's default that is not one of its values (a choice, a bool, an int in its
    range)."""
    doc = document.doc
    for name, opt, base in document.options:
        kind = get(opt, "type")
        default = get(opt, "default")
        choices = get(opt, "choices", default=[]) or []
        message = None
        if kind == "choice":
            if choices and default not in choices:
                message = (f"option `{name}` has default {describe(default)}, which is not one of "
                           f"its choices: {', '.join(choices)}")
        elif kind == "bool":
            if not isinstance(default, bool):
                message = f"option `{name}` is a bool, but its default is {describe(default)}"
        else:
            lo, hi = int_option_range(get(opt, "minimum"), get(opt, "maximum"))
            if not isinstance(default, int) or isinstance(default, bool):
                message = f"option `{name}` is an int, but its default is {describe(default)}"
            elif not lo <= default <= hi:
                message = f"option `{name}` has default {default}, outside its range {lo}..{hi}"
        if message is not None:
            yield diag("option.default", message, doc, (*base, "default"))


@check("option.set-shape", "document")
def option_set_shape(document: Document) -> Iterator[Diagnostic]:
    """An option's patch written as an annotated value (``value:``) instead of rules."""
    doc = document.doc
    for name, opt, base in document.options:
        patches = get(opt, "set", default={}) or {}
        for key in patches:
            if is_annotated(patches[key]):
                yield diag(
                    "option.set-shape",
                    f"option `{name}`'s patch for `{key}` is written as an annotated value "
                    "(`value:`); a patch is a mapping of the rules it changes, "
                    "e.g. `auction: {step: 5}`",
                    doc,
                    (*base, "set", key),
                )


@check("option.set-key", "document")
def option_set_key(document: Document) -> Iterator[Diagnostic]:
    """An option's patch keyed by a value the option cannot take (an int option patches
    nothing)."""
    doc = document.doc
    for name, opt, base in document.options:
        kind = get(opt, "type")
        if kind == "choice":
            valid_keys = [str(c) for c in get(opt, "choices", default=[]) or []]
        elif kind == "bool":
            valid_keys = ["true", "false"]
        else:
            valid_keys = []
        patches = get(opt, "set", default={}) or {}
        for key in patches:
            if str(key) not in valid_keys:
                allowed = ", ".join(valid_keys) or "none (an int option cannot patch)"
                yield diag(
                    "option.set-key",
                    f"option `{name}` has a patch for `{key}`, which is not one of its values: "
                    f"{allowed}",
                    doc,
                    (*base, "set", key),
                    key=True,
                )
