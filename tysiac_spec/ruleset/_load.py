"""Load a ruleset: YAML -> ``extends`` -> options -> schema -> semantic checks -> model.

This module drives the data flow drawn in ARCHITECTURE.md (section 1); each step is one module
(:mod:`._yaml`, :mod:`._merge`, :mod:`.validate`, :mod:`._convert`).
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import json
import os
import types
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, lru_cache, partial
from pathlib import Path
from typing import Any

from .. import dsl, limits
from ..cards import Deck
from ..errors import Diagnostic, DslError, OptionError, RulesetError, TysiacError, format_path
from . import model, registry
from ._convert import (
    Converter,
    FormulaCompiler,
    _text_start,
    build_form,
    built_once,
    collect_provenance,
    deep_unwrap,
    is_annotated,
    kept,
    plain_document,
    provenance_of,
    unwrap,
)
from ._merge import (
    SECTION_NAMES,
    Lookup,
    is_deletion,
    merge,
    parents_of,
    resolve_extends,
    shadow_player_values,
)
from ._yaml import Mark, YamlProblems, YList, YMap, is_mapping, load_yaml, load_yaml_file, mark_at, to_plain
from .validate import (
    changed_schema_errors,
    compiled_errors,
    form_sections,
    never_played,
    semantic_errors,
    sorted_diagnostics,
)

__all__ = ["check_every_option", "core_deck", "load_ruleset", "parse_option_value", "resolve_document"]

OptionValue = str | int | bool

#: Keys describing the ruleset itself; a child never takes them from a parent.
_OWN_KEYS = ("kind", "description")


def _lookup_in(root: str | None) -> Lookup:
    """The lookup of ``extends`` for a ruleset whose file is in the folder ``root``: a parent
    is a shipped id, or a file inside the allowed folders (:mod:`.registry`)."""

    def lookup(ref: str, from_file: str | None) -> tuple[YMap, str | None]:
        path = registry.find(ref, relative_to=from_file or _NO_FILE, root=root)
        return _parsed(path), str(path)

    return lookup


_NO_FILE = "<input>"
"""Stands for the file of a ruleset given as text: relative paths are taken from the current
directory, which is also the only folder it may name besides the allowed ones."""


def _root_of(file: str | None) -> str:
    return str(Path(file or _NO_FILE).parent)


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


def _seq_mark(doc: YMap) -> Mark:
    return doc.value_marks.get("sources", doc.mark)


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


def parse_option_value(ruleset_id: str, name: str, option: Mapping[str, Any], raw: Any) -> Any:
    """Check (and, for text from a command line, convert) a value for one option.

    ``raw`` may be typed already (``True``, ``5``) or text (``"true"``, ``"5"``, ``"down"``).

    Raises:
        OptionError: the value is not valid for the option; the message lists the valid ones.
    """
    kind = unwrap(option.get("type"))
    choices = [str(c) for c in unwrap(option.get("choices")) or []]
    if kind == "bool":
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in ("true", "yes", "on", "1"):
            return True
        if text in ("false", "no", "off", "0"):
            return False
        valid = "true, false"
    elif kind == "int":
        lo, hi = model.int_option_range(unwrap(option.get("minimum")), unwrap(option.get("maximum")))
        value: Any = raw
        if isinstance(raw, str):
            try:
                value = int(raw.strip())
            except ValueError:
                value = None
        if isinstance(value, int) and not isinstance(value, bool):
            if lo <= value <= hi:
                return value
        valid = f"an integer from {lo} to {hi}"
    else:
        if str(raw) in choices:
            return str(raw)
        valid = ", ".join(choices)
    raise OptionError(
        Diagnostic(
            "option.value",
            f"option `{name}` of `{ruleset_id}` cannot be {json.dumps(raw, ensure_ascii=False)}; "
            f"valid: {valid}",
        )
    )


def _select_options(
    ruleset_id: str, declared: Mapping[str, Any], chosen: Mapping[str, Any]
) -> dict[str, OptionValue]:
    problems: list[Diagnostic] = []
    for name in chosen:
        if name not in declared:
            known = ", ".join(sorted(declared)) or "none"
            close = difflib.get_close_matches(name, list(declared), n=1)
            problems.append(
                Diagnostic(
                    "option.unknown",
                    f"ruleset `{ruleset_id}` has no option `{name}`; its options: {known}",
                    hint=f"did you mean `{close[0]}`?" if close else None,
                )
            )
    if problems:
        raise OptionError(problems)
    selected: dict[str, OptionValue] = {}
    for name, opt in declared.items():
        if name in chosen:
            selected[name] = parse_option_value(ruleset_id, name, opt, chosen[name])
        else:
            selected[name] = unwrap(opt.get("default"))
    return selected


def _patch_of(doc: Mapping[str, Any], name: str, value: OptionValue) -> Any:
    patches = unwrap((doc.get("options") or {})[name].get("set")) or {}
    key = ("true" if value else "false") if isinstance(value, bool) else str(value)
    return patches.get(key)


def _apply_options(doc: YMap, selected: Mapping[str, OptionValue]) -> tuple[YMap, set[str]]:
    """``doc`` with the patch of each selected option value merged over it (sharing the parts
    no patch changes), and the top-level sections the patches change.  A rule a patch writes
    at the top level holds for every player count, as one a file writes
    (:func:`._merge.shadow_player_values`)."""
    touched: set[str] = set()
    for name, value in selected.items():
        patch = _patch_of(doc, name, value)
        if patch:
            merged = merge(doc, patch, share=True, once=True)
            shadowed = shadow_player_values(merged, doc, patch)  # a new mapping, if any
            if shadowed is not merged:
                touched.add("players")
            doc = shadowed
            touched.update(str(key) for key in patch)
    return doc, touched


def _leaves(node: Any, path: tuple[str | int, ...] = ()) -> Any:
    if is_mapping(node) and not is_annotated(node):
        for key, value in node.items():
            yield from _leaves(value, (*path, key))
    else:
        yield path, unwrap(node)


def _overridden_by_defaults(
    doc: YMap, own: Any, chosen: Mapping[str, Any], selected: Mapping[str, OptionValue]
) -> list[Diagnostic]:
    """Rules the loaded file writes itself that an option's *default* patch would silently
    replace: an error telling the user to choose the option instead.

    Example: a house rule writes ``auction.raise_by: exactly_step``
    while option ``graduated_auction`` (default false) patches ``raise_by: any``.  A rule the
    file writes at its top level holds for every player count
    (:func:`._merge.shadow_player_values`), so a default patch of the same rule for one
    player count (``players.2.talon.leftover.to``) replaces it too.
    """
    problems: list[Diagnostic] = []
    if not isinstance(own, Mapping):
        return problems
    for name, value in selected.items():
        if name in chosen:
            continue
        patch = _patch_of(doc, name, value)
        for path, patched_value in _leaves(patch or {}):
            for written_at in _written_paths(own, path):
                node = _written(own, written_at)
                if node is _NOT_WRITTEN:
                    continue
                written = unwrap(node)
                if deep_unwrap(to_plain(written)) == deep_unwrap(to_plain(patched_value)):
                    continue
                shown = json.dumps(to_plain(patched_value), ensure_ascii=False)
                mark = mark_at(own, written_at)
                what = " it" if written_at == path else f" `{format_path(path)}`"
                problems.append(
                    Diagnostic(
                        "option.overridden",
                        f"`{format_path(written_at)}` is set here, but option `{name}` "
                        f"(default {json.dumps(value)}) sets{what} to {shown}",
                        file=mark.file if mark else None,
                        line=mark.line if mark else None,
                        column=mark.column if mark else None,
                        path=written_at,
                        hint=f"choose the option instead: set `options.{name}.default`, "
                        f"or pass -O {name}=VALUE",
                    )
                )
    return problems


_NOT_WRITTEN = object()


def _written(own: Any, path: tuple[str | int, ...]) -> Any:
    """The value ``own`` writes at ``path``, or :data:`_NOT_WRITTEN`."""
    node: Any = own
    for part in path:
        node = unwrap(node)
        if not (is_mapping(node) and part in node):
            return _NOT_WRITTEN
        node = node[part]
    return node


def _written_paths(own: Any, path: tuple[str | int, ...]) -> list[tuple[str | int, ...]]:
    """Where a value the file writes would be replaced by a patch of ``path``: ``path``
    itself, and for a player count's rule (``players.<n>.<section>.…``) the same rule at
    the top level when the file does not write that player count's value itself."""
    paths = [path]
    if len(path) > 3 and path[0] == "players" and str(path[2]) in SECTION_NAMES:
        if _written(own, path) is _NOT_WRITTEN:
            paths.append(path[2:])
    return paths


def _content_hash(doc: Any) -> str:
    text = json.dumps(to_plain(doc), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def load_ruleset(
    ref: str | Path,
    *,
    options: Mapping[str, Any] | None = None,
    text: str | None = None,
) -> model.Ruleset:
    """Load, resolve and validate a ruleset.

    Args:
        ref: a shipped ruleset id or alias (``pl-standard``), or a path to a YAML file.
        options: values for the ruleset's declared options (typed, or text as given on a
            command line); the others keep their defaults.
        text: the YAML text itself (``ref`` is then only used as its file name).

    Returns:
        The immutable :class:`~tysiac_spec.ruleset.model.Ruleset`.

    Raises:
        RulesetError: with every problem found (YAML, ``extends``, schema, semantics), each a
            diagnostic with file, line, column and the path inside the ruleset.
        LimitError: a file, a document or the fan-out of ``extends`` or of the options is
            larger than the limits of :mod:`tysiac_spec.limits` allow.
        OptionError: an unknown option or a value outside its choices (lists the valid ones).
    """
    if text is not None:
        file = str(ref)
        raw = load_yaml(text, file=file)
        with _causes_noted(raw, file):
            return _with_options(_checked(file, raw), options)
    file, mtime = _file_of(ref)
    chosen = tuple(sorted((options or {}).items()))
    with _causes_noted(None, file):
        return _load_file(file, mtime, chosen, registry.extra_folders())


def _reload(ref: str, options: Mapping[str, Any]) -> model.Ruleset:
    """``load_ruleset(ref, options=options)``: :meth:`~.model.Ruleset.with_options` of a
    ruleset copied or unpickled (its way back to its checked document is not kept)."""
    return load_ruleset(ref, options=options)


model._reload = _reload


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


def _file_of(ref: str | Path) -> tuple[str, int]:
    """The file of the ruleset ``ref`` (:func:`registry.find`) and its modification time."""
    path = Path(ref) if isinstance(ref, Path) else registry.find(ref)
    try:
        mtime = path.stat().st_mtime_ns
    except OSError:
        mtime = 0
    return str(path), mtime


def check_every_option(ruleset: model.Ruleset, *, text: str | None = None) -> None:
    """Check that ``ruleset`` (loaded from its file, or from ``text`` as
    ``load_ruleset(ruleset.file, text=text)`` loaded it) is also valid with each other value
    of each choice and yes/no option, one option changed at a time.

    The document is resolved and checked once; each value costs its patches, the schema of
    the sections they change, the semantic checks and the forms -- what
    ``load_ruleset(ruleset.file, options={name: value})`` checks, without making the rest of
    the :class:`~tysiac_spec.ruleset.model.Ruleset`; the sections a value's patches leave
    as they are, and their models, are shared with the other values: linear in the number
    of option values.

    Raises:
        RulesetError: the first option value that makes the ruleset invalid, with its problems.
        OptionError: as :func:`load_ruleset`.
    """
    if text is not None:
        file = str(ruleset.file or ruleset.id)
        raw = load_yaml(text, file=file)
        with _causes_noted(raw, file):
            _every_option(ruleset, _checked(file, raw))
        return
    file, mtime = _file_of(ruleset.file or ruleset.id)
    with _causes_noted(None, file):
        _every_option(ruleset, _checked_file(file, mtime, registry.extra_folders()))


def _every_option(ruleset: model.Ruleset, checked: _Checked) -> None:
    for name, option in ruleset.options.items():
        if option.type == "choice":
            values: list[Any] = list(option.choices)
        elif option.type == "bool":
            values = [True, False]
        else:
            values = []
        for value in values:
            if value != option.default:
                _forms(_chosen(checked, {name: value})[0])


@dataclass(frozen=True, slots=True)
class _Checked:
    """A ruleset document resolved and checked, before options are applied."""

    file: str
    raw: Any
    doc: YMap
    content_hash: str
    ancestors: Mapping[str | None, frozenset[str | None]]
    """Each file of the ``extends`` tree (the loaded one included) -> the files it extends,
    directly or not (:func:`_ancestry`)."""
    built: dict[tuple[tuple[str, OptionValue], ...], model.Ruleset] = dataclasses.field(
        default_factory=dict, compare=False, repr=False
    )
    """The rulesets built from it, by the options chosen (:func:`_with_options`; at most
    :data:`_MAX_BUILT`), so that the same options give the same ruleset object."""


_MAX_BUILT = 64


_READ_ON = frozenset({"yaml.float", "yaml.ambiguous-bool", "yaml.ambiguous-number", "yaml.too-large"})
"""The YAML problems after which a file is checked on (each value kept as its text is
harmless); after any other (a control character, a tag, a limit) the file is not read on."""
_READ_ON_MOST = 20
"""Most YAML problems after which a file is checked on (more fill the screen already)."""
_READ_ON_VALUES = 10_000
"""Most values of a document checked on after its YAML problems (the largest shipped
ruleset holds about 1,300; a generated file of thousands of entries is not checked on)."""


@lru_cache(maxsize=32)
def _checked_file(file: str, mtime: int, folders: tuple[Path, ...]) -> _Checked:
    """:func:`_checked` of a file, cached by file, modification time and allowed folders.

    A file with YAML problems that was read all the same (:class:`YamlProblems`) is checked
    on, so that its schema and formula problems are reported in the same run."""
    try:
        raw = _parsed(file)
    except YamlProblems as exc:
        found = list(exc.diagnostics)
        harmless = all(d.code in _READ_ON for d in found)
        if not harmless or len(found) > _READ_ON_MOST or exc.values > _READ_ON_VALUES:
            raise
        try:
            _checked(file, exc.document)
        except TysiacError as more:
            at = {d.path for d in found}  # (a value kept as its text is not reported again)
            found += [d for d in more.diagnostics if d.path not in at and d not in found]
        raise RulesetError(sorted_diagnostics(found)) from None
    return _checked(file, raw)


@lru_cache(maxsize=64)
def _load_file(
    file: str, mtime: int, options: tuple[tuple[str, Any], ...], folders: tuple[Path, ...]
) -> model.Ruleset:
    """Cached by file, modification time, options and the allowed folders (rulesets are
    immutable)."""
    return _with_options(_checked_file(file, mtime, folders), dict(options))


def _check_option_counts(doc: YMap) -> None:
    """Refuse more table options, or option values, than the limits allow -- before any
    option is validated or applied.

    Raises:
        LimitError: ``limit.options`` / ``limit.option_values`` at ``options``.
    """
    declared = doc.get("options")
    if not isinstance(declared, Mapping):
        return
    mark = mark_at(doc, ("options",)) or doc.mark
    where = {"file": mark.file, "line": mark.line, "column": mark.column, "path": ("options",)}
    limits.check("options", len(declared), **where)
    values = 0
    for option in declared.values():
        option = unwrap(option)
        if isinstance(option, Mapping):
            choices = unwrap(option.get("choices"))
            values += len(choices) if isinstance(choices, list) else 2
    limits.check("option_values", values, **where)


def _check_sizes(doc: YMap) -> None:
    """Refuse a pack or an auction whose size would make the engine's work explode, before
    anything is built: the ranks and suits of the pack (the engine tabulates every subset of
    a suit: 2 to the power of its ranks), and the bids the auction can offer at one turn
    when its cap is a number (from the lowest opening to the cap, in steps).

    Raises:
        LimitError: ``limit.deck_ranks``, ``limit.deck_suits``, ``limit.bids``.
    """
    deck = unwrap(doc.get("deck"))
    if isinstance(deck, Mapping):
        for key, name in (("ranks", "deck_ranks"), ("suits", "deck_suits")):
            items = unwrap(deck.get(key))
            if isinstance(items, list):
                mark = mark_at(doc, ("deck", key)) or doc.mark
                limits.check(name, len(items), file=mark.file, line=mark.line,
                             column=mark.column, path=("deck", key))
    for n in unwrap(doc.get("players")) or {}:
        auction = unwrap(form_sections(doc, str(n)).get("auction")) or {}
        cap, step = unwrap(auction.get("cap")), unwrap(auction.get("step", 10))
        lowest = min(unwrap(auction.get("min_bid", 100)), unwrap(auction.get("forced_bid", 100)))
        if isinstance(cap, int) and isinstance(step, int) and isinstance(lowest, int) and step > 0:
            offered = max(0, (cap - lowest) // step + 1)
            path: tuple[str | int, ...] = ("auction", "cap")
            mark = mark_at(doc, path) or doc.mark
            limits.check("bids", offered, file=mark.file, line=mark.line, column=mark.column,
                         path=path, subject=f"the bids of the {n}-player auction, "
                         f"from {lowest} to the cap {cap} in steps of {step}")


def _checked(file: str, raw: Any) -> _Checked:
    """Resolve ``extends``, bound the options, check the schema, the sizes and the semantics."""
    doc = resolve_document(raw, file=file, share=True)  # loaded files are shared, never changed
    _check_option_counts(doc)
    diags = changed_schema_errors(doc, doc.keys())  # each section checked once per content
    if not diags:
        _check_sizes(doc)
        diags = list(semantic_errors(doc, leaf=file))
    elif len(diags) < _READ_ON_MOST:  # the formulas of the sections that can be read, in the same run
        diags += [d for d in _formula_problems(doc) if d not in diags]
    if diags:
        raise RulesetError(sorted_diagnostics(diags))
    ancestors = _ancestry(raw, file, _lookup_in(_root_of(file)), {})
    return _Checked(file, raw, doc, _content_hash(doc), types.MappingProxyType(ancestors))


def _formula_problems(doc: YMap) -> list[Diagnostic]:
    """The formula problems (``dsl.*``) of a document the schema refused, section by section:
    a section that cannot be built is skipped (its schema problems are reported)."""
    problems: list[Diagnostic] = []
    try:
        deck = _deck(json.dumps(to_plain(doc["deck"]))) if "deck" in doc else core_deck()
        extension_options = _option_types(doc.get("options") or {})
        counts = list((unwrap(doc.get("players")) or {}).items())
    except Exception:  # a pack or options the schema refused: no formula can be compiled
        return problems
    for n, entry in counts:
        try:
            sections = form_sections(doc, str(n))
            active = unwrap((unwrap(entry) or {}).get("active")) or int(n)
            compiler = _form_compiler(deck, sections, extension_options, int(active))
        except Exception:
            continue
        conv = Converter(compiler)
        for name, cls in model.SECTIONS.items():
            try:
                conv.build(cls, sections.get(name), (name,))
            except Exception:  # (the schema problems of this section say why)
                pass
        problems.extend(p for p in compiler.problems if p not in problems)
    return problems


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


def _with_options(checked: _Checked, options: Mapping[str, Any] | None) -> model.Ruleset:
    """The model of a checked document with its options chosen: the options' patches
    applied, the sections they change checked again, the forms compiled.  Made once per
    document and options (``checked.built``); the ruleset can choose others
    (:meth:`~.model.Ruleset.with_options`, through :func:`_rechosen`)."""
    chosen = dict(options or {})
    doc = checked.doc
    typed = _select_options(str(doc["id"]), doc.get("options") or {}, chosen)
    key = tuple(sorted((name, typed[name]) for name in chosen))  # (text and typed values alike)
    made = checked.built.get(key)
    if made is not None:
        return made
    patched, selected = _chosen(checked, chosen)
    made = _build(patched, checked, selected, set(chosen))
    object.__setattr__(made, "_rechoose", partial(_rechosen, checked, chosen))
    if len(checked.built) >= _MAX_BUILT:
        del checked.built[next(iter(checked.built))]
    checked.built[key] = made
    return made


def _rechosen(checked: _Checked, chosen: Mapping[str, Any], options: Mapping[str, Any]) -> model.Ruleset:
    """:meth:`~.model.Ruleset.with_options` of a ruleset built from ``checked`` with the
    options ``chosen``: ``options`` over them, on the same document."""
    return _with_options(checked, {**chosen, **options})


def _chosen(
    checked: _Checked, options: Mapping[str, Any] | None
) -> tuple[YMap, dict[str, OptionValue]]:
    """A checked document with its options chosen (the patches applied, the sections they
    change checked again) and the value of each option.

    Raises:
        OptionError: an unknown option or value.
        RulesetError: a default patch overriding the file's own rules, or the patched
            document's schema or semantic problems.
    """
    doc, raw, file = checked.doc, checked.raw, checked.file
    ruleset_id = str(doc["id"])
    declared = {name: opt for name, opt in (doc.get("options") or {}).items()}
    selected = _select_options(ruleset_id, declared, options or {})
    overridden = _overridden_by_defaults(doc, raw, options or {}, selected)
    if overridden:
        raise RulesetError(sorted_diagnostics(overridden))
    patched, touched = _apply_options(doc, selected)
    if touched:
        diags = changed_schema_errors(patched, touched) or list(
            semantic_errors(patched, leaf=file)
        )
        if diags:
            raise RulesetError(sorted_diagnostics(diags))
    return patched, selected


def _build(
    doc: YMap, checked: _Checked, selected: Mapping[str, OptionValue], chosen: set[str]
) -> model.Ruleset:
    """The model of ``doc`` (``checked.doc`` with the ``selected`` option values applied;
    ``chosen`` are the options the caller chose, the others keep their defaults)."""
    file, content_hash, raw = checked.file, checked.content_hash, checked.raw
    deck, forms = _forms(doc)
    conv = Converter()
    options = built_once("options", doc.get("options"), lambda: ({
        name: conv.build(model.Option, opt, ("options", name))
        for name, opt in (doc.get("options") or {}).items()
    }, True))
    sources = built_once("sources", doc.get("sources"), lambda: (tuple(
        conv.build(model.Source, s, ("sources", i)) for i, s in enumerate(doc.get("sources") or [])
    ), True))
    parents = raw.get("extends") if isinstance(raw, Mapping) else None
    parent_ids = (parents,) if isinstance(parents, str) else tuple(parents or ())
    return model.Ruleset(
        id=str(doc["id"]),
        kind=doc.get("kind", "variant"),
        name=types.MappingProxyType(dict(doc.get("name") or {})),
        description=types.MappingProxyType(dict(doc.get("description") or {})),
        aliases=tuple(doc.get("aliases") or ()),
        sources=sources,
        deck=deck,
        forms=types.MappingProxyType(forms),
        options=types.MappingProxyType(options),
        selected=types.MappingProxyType(dict(selected)),
        provenance=types.MappingProxyType(_provenance(doc, checked, selected, chosen)),
        file=file,
        content_hash=content_hash,
        parents=parent_ids,
        document=types.MappingProxyType(plain_document(doc)),
    )


def _forms(doc: YMap) -> tuple[Deck, dict[int, model.Form]]:
    """The pack and the form of each player count of a checked document with its options
    chosen, every formula compiled.

    Raises:
        RulesetError: every formula problem (``dsl.*``) of every form.
    """
    deck = built_once(
        "cards", doc["deck"], lambda: (_deck(json.dumps(to_plain(doc["deck"]))), True)
    ) if "deck" in doc else core_deck()
    forms: dict[int, model.Form] = {}
    problems: list[Diagnostic] = []
    extension_options = _option_types(doc.get("options") or {})
    for n, entry in (unwrap(doc.get("players")) or {}).items():
        sections = form_sections(doc, str(n))
        active = unwrap((unwrap(entry) or {}).get("active")) or int(n)
        compiler = _form_compiler(deck, sections, extension_options, int(active))
        forms[int(n)] = build_form(int(n), sections, _table_part(entry), compiler)
        problems.extend(p for p in compiler.problems if p not in problems)
        if not compiler.problems and (stuck := never_played(forms[int(n)])) and stuck not in problems:
            problems.append(stuck)
        if not compiler.problems:
            problems.extend(
                p for p in compiled_errors(forms[int(n)], deck.total_points, len(deck.cards))
                if p not in problems
            )
    if problems:
        raise RulesetError(sorted_diagnostics(problems))
    return deck, forms


def _provenance(
    doc: YMap, checked: _Checked, selected: Mapping[str, OptionValue], chosen: set[str]
) -> dict[tuple[str | int, ...], model.Provenance]:
    """:func:`collect_provenance` of the document, section by section (each made once per
    section document: :func:`built_once`), each written value knowing the file that wrote it
    and the files that extend that file (:attr:`model.Provenance.heirs`).

    A value an option's patch sets is written where the patch is, unless a file extending
    the one that declares the option changed its default (and the table did not choose the
    value, ``chosen``): that file chose the value, which then carries the provenance the file
    gives the default (an annotated ``default``), or none.
    """
    ancestors = checked.ancestors
    heirs = _heirs_of(ancestors)
    out: dict[tuple[str | int, ...], model.Provenance] = {}
    for key, value in doc.items():
        if key not in ("options", "sources"):
            mark = doc.value_marks.get(key)
            made = partial(
                kept, collect_provenance, value, (key,), heirs, mark.file if mark else None
            )
            out.update(built_once(("provenance", checked.file, checked.content_hash), value, made))
    for name, value in selected.items():
        patch = _patch_of(doc, name, value)
        if not patch:
            continue
        declared = mark_at(doc, ("options", name, "set"))
        default = mark_at(doc, ("options", name, "default"))
        if name in chosen or default is None or declared is None or default.file == declared.file:
            continue  # the declaring file's patch, its marks and provenance as collected
        written = (unwrap(doc["options"][name]) or {}).get("default")
        own = provenance_of(written, default.file, heirs) if isinstance(written, Mapping) else None
        prov = own or model.Provenance(file=default.file, heirs=heirs(default.file))
        for path, _ in _leaves(patch):
            found = out.get(path)
            if found is None or not (found.source or found.status or found.reason or found.doc):
                out[path] = prov  # a patched value citing its own provenance keeps it
    _keep_annotations(out, doc, checked.doc, selected, heirs)
    return out


def _keep_annotations(
    out: dict[tuple[str | int, ...], model.Provenance],
    doc: YMap,
    unpatched: YMap,
    selected: Mapping[str, OptionValue],
    heirs: Callable[[str | None], frozenset[str | None]],
) -> None:
    """A value an option's patch writes plainly (``auction: {raise_by: any}``) over the same
    value written with its provenance (``raise_by: {value: any, source: …, doc: …}``) keeps
    that provenance: the patch changes nothing but would otherwise lose the value's sources
    and words.  A patch writing another value does not (the words were about the old one);
    the rule book says which option set it."""
    for name, value in selected.items():
        for path, patched in _leaves(_patch_of(doc, name, value) or {}):
            found = out.get(path)
            if found is not None and (found.source or found.status or found.reason or found.doc):
                continue  # the patch (or a house default) cites its own provenance
            before = _written(unpatched, path)
            if before is _NOT_WRITTEN or not is_annotated(before):
                continue
            if deep_unwrap(to_plain(before)) != deep_unwrap(to_plain(patched)):
                continue
            mark = mark_at(unpatched, path)
            kept_prov = provenance_of(before, mark.file if mark else None, heirs)
            if kept_prov is not None:
                out[path] = kept_prov


def _heirs_of(
    ancestors: Mapping[str | None, frozenset[str | None]],
) -> Callable[[str | None], frozenset[str | None]]:
    """``heirs(file)``: ``file`` and the files of the tree that extend it."""

    @cache
    def heirs(file: str | None) -> frozenset[str | None]:
        return frozenset({file, *(f for f, above in ancestors.items() if file in above)})

    return heirs



@lru_cache(maxsize=32)
def _deck(text: str) -> Deck:
    """The pack written as the JSON ``text`` (one object per content: a ruleset's option
    values share it, and so do the formulas compiled for it)."""
    return Deck.from_data(deep_unwrap(json.loads(text)))


def _option_types(options: Mapping[str, Any]) -> dict[str, dsl.Type]:
    out: dict[str, dsl.Type] = {}
    for name, opt in options.items():
        kind = unwrap(opt.get("type"))
        if kind == "bool":
            out[name] = dsl.BOOL
        elif kind == "int":
            out[name] = dsl.INT
        else:
            out[name] = dsl.ChoiceType(tuple(str(c) for c in unwrap(opt.get("choices")) or ()))
    return out


def _form_compiler(
    deck: Deck, sections: Mapping[str, Any], options: Mapping[str, dsl.Type], active: int
) -> FormulaCompiler:
    """A DSL compiler for one player form (``active`` players in a deal): its marriage
    values, ranks and value formula, and counters."""
    marriages = unwrap(sections.get("marriages")) or {}
    read = Converter().field  # (the model's reading of the two fields, before it is built)
    values = read(model.Marriages, "values", marriages, ("marriages",))
    ranks = read(model.Marriages, "ranks", marriages, ("marriages",))
    counters = unwrap((unwrap(sections.get("match")) or {}).get("counters")) or []
    deck_info = dsl.DeckInfo.of(
        deck,
        marriage_values=dict(values),
        marriage_ranks=(str(ranks[0]), str(ranks[1])),
    )
    deck_info = dataclasses.replace(
        deck_info, marriage_value=_marriage_value(marriages, active, deck_info)
    )
    extra = dsl.ContextExtension(
        options=dict(options),
        counters={str(unwrap(c.get("id"))): dsl.INT for c in counters},
    )
    return FormulaCompiler(deck_info, extra)


def _marriage_value(
    marriages: Mapping[str, Any], active: int, deck: dsl.DeckInfo
) -> dsl.MarriageValue | None:
    """The ``marriages.value`` formula of a form's ``marriages`` section with what it reads
    besides a suit's points, for ``marriages(cards)`` (:class:`dsl.MarriageValue`); ``None``
    when the section writes none."""
    node = marriages.get("value") if is_mapping(marriages) else None
    text = unwrap(node)
    if not isinstance(text, str):
        return None
    fields = model.Marriages.__dataclass_fields__
    at: Any = node if is_annotated(node) else marriages
    mark = _text_start(at.value_marks.get("value")) if isinstance(at, YMap) else None
    origin = dsl.Origin(
        file=mark.file if mark else None,
        line=mark.line if mark else 1,
        column=mark.column if mark else 1,
        path=("marriages", "value"),
    )
    plain = dsl.DeckInfo(
        rank_points=deck.rank_points,
        marriage_values=deck.marriage_values,
        suits=deck.suits,
        ranks=deck.ranks,
        marriage_ranks=deck.marriage_ranks,
    )
    try:
        compiled = dsl.compile_formula(text, "marriage.value", deck=plain, origin=origin)
    except DslError:
        return None  # its problems are reported where it is written
    sets_trump = unwrap(marriages.get("sets_trump"))
    change = unwrap(marriages.get("trump_change"))
    return dsl.MarriageValue(
        text=text,
        origin=origin,
        compiled=compiled,
        sets_trump=bool(fields["sets_trump"].default if sets_trump is None else sets_trump),
        first_only=(change or fields["trump_change"].default) == "first_only",
        players=active,
    )


def _table_part(entry: Any) -> dict[str, Any]:
    if not isinstance(entry, Mapping):
        return {}
    table_fields = {f for f in model.TablePlan.__dataclass_fields__}
    out = YMap({k: v for k, v in entry.items() if k in table_fields}, mark=_mark(entry))
    if isinstance(entry, YMap):
        for k in out:
            out.value_marks[k] = entry.value_marks[k]
            out.key_marks[k] = entry.key_marks[k]
    return out


def _mark(node: Any) -> Mark:
    return node.mark if isinstance(node, YMap) else Mark(None, 1, 1)


def core_deck() -> Deck:
    """The pack of the shipped ``core`` ruleset (``rulesets/core.yaml``: 24 cards, 9 to ace in
    four suits, 120 card points), for reading card notation outside a loaded ruleset:
    ``core_deck().parse("QH")``.

    Reads the file on the first call, then again only when the loader's cache (64 rulesets)
    no longer holds it or the file changed; cards of two reads compare equal (``==``).

    Raises:
        RulesetError: the shipped ``core`` ruleset cannot be read or is invalid (a broken
            installation).
    """
    return load_ruleset("core").deck

