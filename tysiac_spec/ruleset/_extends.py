"""The ``extends`` tree of a ruleset file, for the loader (:mod:`._load`).

- reading a file of the tree (:func:`_parsed`: parsed once per modification time) and the
  lookup of a parent handed to :func:`._merge.resolve_extends` (:func:`_lookup_in`: a shipped
  id, or a file inside the allowed folders of :mod:`.registry`);
- :func:`resolve_document`: the merged document, with the ``sources`` of the ancestors
  (:func:`_chain_sources`) and the keys a child never inherits (:data:`_OWN_KEYS`);
- :func:`_ancestry`: each file of the tree -> the files it extends;
- :func:`_causes_noted`: a problem shown in a parent's file gets a note at the loaded file's
  line that caused it.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import Diagnostic, RulesetError, format_path
from . import registry
from ._convert import unwrap
from ._merge import Lookup, is_deletion, parents_of, resolve_extends
from ._yaml import Mark, YList, YMap, is_mapping, load_yaml_file, mark_at

__all__ = ["resolve_document"]


_NO_FILE = "<input>"
"""Stands for the file of a ruleset given as text: relative paths are taken from the current
directory, which is also the only folder it may name besides the allowed ones."""


def _root_of(file: str | None) -> str:
    return str(Path(file or _NO_FILE).parent)


def _lookup_in(root: str | None) -> Lookup:
    """The lookup of ``extends`` for a ruleset whose file is in the folder ``root``: a parent
    is a shipped id, or a file inside the allowed folders (:mod:`.registry`)."""

    def lookup(ref: str, from_file: str | None) -> tuple[YMap, str | None]:
        path = registry.find(ref, relative_to=from_file or _NO_FILE, root=root)
        return _parsed(path), str(path)

    return lookup


def _parsed(path: str | Path) -> Any:
    """The loaded YAML of a file, parsed once per modification time.

    Safe to share: the merge and the loader never change a loaded document.

    Raises:
        RulesetError: the file cannot be read or is not valid YAML.
    """
    try:
        mtime = Path(path).stat().st_mtime_ns
    except OSError:
        mtime = 0
    return _parsed_cached(str(path), mtime)


@lru_cache(maxsize=128)
def _parsed_cached(path: str, mtime: int) -> Any:
    return load_yaml_file(path)


def resolve_document(doc: Any, *, file: str | None, share: bool = False) -> YMap:
    """Resolve the ``extends`` chain of a loaded document (no options applied, not validated).

    With ``share``, the result shares the parts of the documents no merge changes (see
    :func:`~._merge.resolve_extends`): nobody may change it below its top level.

    Raises:
        RulesetError: the document is not a mapping, or ``extends`` fails (unknown parent,
            cycle, …).
    """
    if not isinstance(doc, YMap):
        got = "an empty file" if doc is None else ("a list" if isinstance(doc, list) else "a single value")
        raise RulesetError(
            Diagnostic(
                "ruleset.not-mapping",
                f"a ruleset must be a mapping of keys (`id`, `deck`, …), got {got}",
                file=file,
                line=1,
                column=1,
            )
        )
    lookup = _lookup_in(_root_of(file))
    merged = resolve_extends(doc, file=file, lookup=lookup, share=share)
    if isinstance(doc.get("sources", []), list):
        sources = _chain_sources(doc, file, lookup, {})
        if sources:
            merged["sources"] = YList(
                sources, mark=_seq_mark(doc), item_marks=[_mark(s) for s in sources]
            )
    for key in _OWN_KEYS:
        if key in doc:
            merged[key] = doc[key]
            merged.value_marks[key] = doc.value_marks.get(key, merged.mark)
            merged.key_marks[key] = doc.key_marks.get(key, merged.mark)
        elif key in merged:
            del merged[key]
    return merged


#: Keys describing the ruleset itself; a child never takes them from a parent.
_OWN_KEYS = ("kind", "description")


def _seq_mark(doc: YMap) -> Mark:
    return doc.value_marks.get("sources", doc.mark)


def _mark(node: Any) -> Mark:
    return node.mark if isinstance(node, YMap) else Mark(None, 1, 1)


def _chain_sources(
    doc: Any, file: str | None, lookup: Lookup, done: dict[str | None, list[Any]]
) -> list[Any]:
    """The ``sources`` of a ruleset's ancestors (by id) followed by its own list, as written.

    Unlike other lists, sources accumulate along ``extends``: a rule inherited from a
    parent keeps citing the parent's sources.  The ruleset's own list is kept as it is
    (so its duplicates are reported by validation); an ancestor's source that the
    ruleset lists again is replaced by the ruleset's entry.  Errors in the chain are
    reported by :func:`resolve_extends` (which has run first, so the tree is finite and
    within its limits); each file's list is made once (``done``, by file).
    """
    if not isinstance(doc, Mapping):
        return []
    inherited: dict[str, Any] = {}
    for ref in dict.fromkeys(parents_of(doc)):
        try:
            parent, parent_file = lookup(ref, file)
        except RulesetError:
            continue
        if parent_file not in done:
            done[parent_file] = []  # (a cycle was reported already; stop at it)
            done[parent_file] = _chain_sources(parent, parent_file, lookup, done)
        for src in done[parent_file]:
            if isinstance(src, Mapping) and isinstance(src.get("id"), str):
                inherited.setdefault(src["id"], src)
    own = doc.get("sources")
    own_list = list(own) if isinstance(own, list) else []
    own_ids = {s.get("id") for s in own_list if isinstance(s, Mapping) and isinstance(s.get("id"), str)}
    return [s for i, s in inherited.items() if i not in own_ids] + own_list


def _ancestry(
    doc: Any, file: str | None, lookup: Lookup, done: dict[str | None, frozenset[str | None]]
) -> dict[str | None, frozenset[str | None]]:
    """``done`` filled with each file of ``doc``'s ``extends`` tree -> the files it extends,
    directly or not (the tree was resolved before: it is finite and every parent exists)."""
    if file in done:
        return done
    done[file] = frozenset()  # (a cycle was reported already; stop at it)
    found: set[str | None] = set()
    for ref in dict.fromkeys(parents_of(doc)):
        try:
            parent, parent_file = lookup(ref, file)
        except RulesetError:
            continue
        _ancestry(parent, parent_file, lookup, done)
        found |= {parent_file, *done[parent_file]}
    done[file] = frozenset(found)
    return done


@contextmanager
def _causes_noted(raw: Any, file: str) -> Iterator[None]:
    """Re-raise a :class:`RulesetError` (not its subclasses) of the ruleset loaded from
    ``file`` (its document ``raw``, read again when ``None``) with :func:`_cause_notes`
    added to each diagnostic that points into another file of its ``extends`` tree."""
    try:
        yield
    except RulesetError as exc:
        if type(exc) is not RulesetError:
            raise
        if raw is None:
            try:
                raw = _parsed(file)
            except RulesetError:
                raise exc from None
        noted = [_with_cause_notes(d, raw, file) for d in exc.diagnostics]
        if noted == list(exc.diagnostics):
            raise
        raise RulesetError(noted) from None


def _with_cause_notes(diag: Diagnostic, raw: Any, file: str) -> Diagnostic:
    """``diag`` with a note pointing at the line of the loaded file (document ``raw``) that
    made an inherited value invalid, when ``diag`` points into a parent's file: the line
    writing (or deleting) the deepest part of ``diag.path`` the file writes itself, two keys
    deep at least (``options.five_rounds``, ``players.4.sitter``); for a formula problem
    (``dsl.*``) in a parent's formula, the file's pack (``deck``: the names of suits and
    ranks) and the options the message names (``options.<name>``)."""
    if (
        diag.file is None
        or diag.code.split(".")[0] in ("merge", "yaml", "limit")  # the files themselves
        or not isinstance(raw, YMap)
        or _same_file(diag.file, file)
    ):
        return diag
    notes: list[str] = []
    written = _deepest_written(raw, diag.path)
    if len(written) >= 2:
        notes.append(_cause_note(raw, written))
    elif diag.code.startswith("dsl."):
        if "deck" in raw and diag.code == "dsl.unknown-name":
            notes.append(_cause_note(raw, ("deck",), "the pack"))
        options: Any = raw.get("options")
        for name in options if is_mapping(options) else ():
            if f"options.{name}" in diag.message:
                notes.append(_cause_note(raw, ("options", name)))
    if not notes:
        return diag
    return dataclasses.replace(diag, notes=(*diag.notes, *notes))


def _same_file(a: str, b: str) -> bool:
    return os.path.normcase(os.path.realpath(a)) == os.path.normcase(os.path.realpath(b))


def _deepest_written(raw: Any, path: tuple[str | int, ...]) -> tuple[str | int, ...]:
    """The longest start of ``path`` that the document ``raw`` writes."""
    node, found = raw, 0
    for part in path:
        node = unwrap(node)
        key: Any = part
        if is_mapping(node) and key not in node and str(key) in node:
            key = str(key)
        if not (is_mapping(node) and key in node):
            break
        node, found = node[key], found + 1
    return path[:found]


def _cause_note(raw: YMap, path: tuple[str | int, ...], what: str | None = None) -> str:
    """``because of FILE:LINE:COL: `path` is written there`` (``deleted`` for a deletion
    marker), at the key the loaded file wrote."""
    parent: Any = raw
    for part in path[:-1]:
        parent = unwrap(parent)
        parent = parent[part] if part in parent else parent[str(part)]
    parent = unwrap(parent)
    key = str(path[-1]) if str(path[-1]) in parent else path[-1]
    marks: Mapping[Any, Mark] = parent.key_marks if isinstance(parent, YMap) else {}
    mark = marks.get(key)
    mark = mark or mark_at(raw, path)
    where = f"{mark.file}:{mark.line}:{mark.column}" if mark else "this file"
    done = "deleted" if is_deletion(parent[key]) else "written"
    shown = f"{what} (`{format_path(path)}`)" if what else f"`{format_path(path)}`"
    return f"because of {where}: {shown} is {done} there"
