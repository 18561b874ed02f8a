"""Ruleset inheritance: deep merge and resolution of ``extends``.

``extends: <id>`` (or a list) takes another ruleset and
overrides it -- mappings merge key by key, lists and scalars are replaced,
``{$delete: true}`` removes a key (the field's default comes back), and ``null`` is
the value *none*, kept like any other value (``auction: {forced_seat: null}``: nobody
is forced to open).  Merged documents keep the source marks of whichever
file wrote each key and value, so a later diagnostic still points at the line
that set the value.

A rule a file writes in a top-level section (``talon: {discard_count: 3}``) is the rule
for every player count of that file: it also replaces what the rulesets it extends wrote
for that rule in a player count's section (``players.2.talon.discard_count: 2`` of
``pl-standard``), which would otherwise win over it (:func:`shadow_player_values`).  Within
one file, its ``players.<n>`` section still wins over its top level; a file that wants a
different value for one player count writes it there.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from tysiac_spec import limits
from tysiac_spec.errors import Diagnostic, DiagnosticSink, LimitError, RulesetError
from tysiac_spec.ruleset._yaml import Mark, YList, YMap, is_mapping, mark_at

__all__ = [
    "DELETE",
    "MAX_EXTENDS_DEPTH",
    "NOT_INHERITED",
    "Lookup",
    "merge",
    "parents_of",
    "resolve_extends",
    "shadow_player_values",
]

MAX_EXTENDS_DEPTH = limits.LIMITS["extends_depth"].default
"""Longest ``extends`` chain (a ruleset, its parent, its grandparent, ...) that is resolved by
default (limit ``extends_depth`` in :mod:`tysiac_spec.limits`)."""

DELETE = "$delete"
"""The key of the deletion marker: ``{$delete: true}`` written as a value removes that key
from what the parents (or, in an option's patch, the ruleset) wrote.  ``null`` is no
deletion: it is the value none, for the fields whose schema allows it."""

SECTION_NAMES = (
    "deal", "auction", "talon", "contract", "play", "marriages", "scoring", "match", "special",
)
"""The rule sections a player count's entry (``players.<n>``) may also write (the keys of
``model.SECTIONS``; ``tests/test_ruleset_hardening.py`` checks that they agree)."""

_META = frozenset({"source", "status", "reason", "doc"})
"""The provenance keys (``_schema.META_KEYS``): they describe an element, they are no rule."""

NOT_INHERITED = frozenset({"id", "name", "aliases"})
"""Top-level keys a ruleset never takes from its parents: they identify the ruleset itself."""

Lookup = Callable[[str, str | None], tuple[YMap, str | None]]
"""``lookup(ref, from_file) -> (document, file)``: load the ruleset ``ref`` names, as written in
the ``extends`` of ``from_file``; raises :class:`RulesetError` when there is no such ruleset."""


# --------------------------------------------------------------------------- merge


def merge(base: Any, over: Any, *, share: bool = False, once: bool = False) -> Any:
    """Deep merge of ``over`` onto ``base``; neither input is changed.

    Mappings merge key by key, recursively; lists and scalars in ``over`` replace those in
    ``base``; the deletion marker ``{$delete: true}`` (:func:`is_deletion`) as a value in
    ``over`` removes the key (inside a mapping that is new in ``over`` too, so a marker never
    reaches the result through a mapping of ``over``; :func:`resolve_extends` refuses a marker
    whose key the parent lacks, ``merge.nothing-to-delete``).  ``None`` is a value like any other
    and is kept.  A mapping replacing a scalar, or the other way round, simply replaces it.

    The patches of an option (``options.<name>.set``) are data applied later, when the
    option's value is chosen: inside them a marker is kept (it will remove a key then).

    Args:
        base: a document (``YMap``/``dict``, ``YList``/``list`` or a scalar).
        over: the document written over it.

    Args:
        share: keep the parts of ``base`` that ``over`` does not change as they are, instead
            of copying them (for documents nobody changes afterwards, such as an option's
            patches applied to a loaded ruleset).
        once: with ``share``, give the very object made before when the same ``base`` and
            ``over`` (the same objects) are merged again, and so for each of their top-level
            keys: the option values of a ruleset apply the same default patches to the same
            sections, and what is made once per section document (the section's model, its
            schema check: :func:`._convert.built_once`) is then not made again.

    Returns:
        A new document, sharing nothing with the inputs (with ``share``, the unchanged parts
        of ``base``).  Keys keep the base's order, then
        the keys new in ``over``.  Mappings are :class:`YMap` when either side was one, and
        each key and value keeps the mark of the side it came from (``over`` for keys present
        in both).
    """
    if once and share:
        return _merge_once(base, over, (), 2)
    return _merge(base, over, (), share)


def is_deletion(value: Any) -> bool:
    """Whether ``value`` is the deletion marker ``{$delete: true}`` (that key alone)."""
    return is_mapping(value) and len(value) == 1 and value.get(DELETE) is True


def _holds_deletion(doc: Any) -> bool:
    """Whether a deletion marker is anywhere in ``doc``."""
    if is_mapping(doc):
        return is_deletion(doc) or any(_holds_deletion(v) for v in doc.values())
    if isinstance(doc, list):
        return any(_holds_deletion(v) for v in doc)
    return False


def _merge(base: Any, over: Any, path: tuple[str, ...], share: bool) -> Any:
    if is_mapping(over):
        return _merge_maps(base if is_mapping(base) else None, over, path, share)
    return _copy(over)


_ONCE: dict[tuple[int, int, tuple[str, ...]], tuple[Any, Any, Any]] = {}
"""What :func:`merge` made with ``once``: by the identities of the two parts and the path,
with the parts (kept alive, so that their identities are not reused) and the result."""

_MOST_ONCE = 1024


def _merge_once(base: Any, over: Any, path: tuple[str, ...], levels: int) -> Any:
    """``_merge(base, over, path, share=True)``, made once per pair of parts; the parts'
    keys are merged the same way ``levels - 1`` levels further down."""
    key = (id(base), id(over), path)
    kept = _ONCE.get(key)
    if kept is not None and kept[0] is base and kept[1] is over:
        return kept[2]
    if levels > 1 and is_mapping(over):
        merged = _merge_maps(
            base if is_mapping(base) else None, over, path, True,
            lambda b, o, p: _merge_once(b, o, p, levels - 1),
        )
    else:
        merged = _merge(base, over, path, True)
    if len(_ONCE) >= _MOST_ONCE:
        _ONCE.clear()
    _ONCE[key] = (base, over, merged)
    return merged


def _in_option_patch(path: tuple[str, ...]) -> bool:
    """Whether ``path`` lies inside an option's patch (``options.<name>.set.<value>.…``)."""
    return len(path) >= 4 and path[0] == "options" and path[2] == "set"


def _merge_maps(
    base: Mapping[str, Any] | None,
    over: Mapping[str, Any],
    path: tuple[str, ...],
    share: bool,
    merge_key: Callable[[Any, Any, tuple[str, ...]], Any] | None = None,
) -> dict[str, Any]:
    """The merge of two mappings; ``merge_key(base, over, path)`` merges the values of a key
    (by default :func:`_merge` with ``share``)."""
    template = over if isinstance(over, YMap) else base
    result: dict[str, Any] = YMap(mark=template.mark) if isinstance(template, YMap) else {}
    base = base or {}
    for key, value in base.items():  # the base's key order first
        if key not in over:
            result[key] = value if share else _copy(value)
            _copy_marks(base, key, result)
        elif not is_deletion(over[key]) or _in_option_patch((*path, str(key))):
            sub = (*path, str(key))
            result[key] = (
                _merge(value, over[key], sub, share) if merge_key is None
                else merge_key(value, over[key], sub)
            )
            _copy_marks(over, key, result)
    for key, value in over.items():
        if key not in base and (not is_deletion(value) or _in_option_patch((*path, str(key)))):
            sub = (*path, str(key))
            result[key] = (
                _merge(None, value, sub, share) if merge_key is None else merge_key(None, value, sub)
            )
            _copy_marks(over, key, result)
    return result


def _copy_marks(source: Mapping[str, Any], key: str, target: Mapping[str, Any]) -> None:
    if isinstance(source, YMap) and isinstance(target, YMap):
        if key in source.key_marks:
            target.key_marks[key] = source.key_marks[key]
        if key in source.value_marks:
            target.value_marks[key] = source.value_marks[key]


def _copy(value: Any) -> Any:
    """Deep copy that keeps YMap/YList marks."""
    if isinstance(value, YMap):
        return YMap(
            {k: _copy(v) for k, v in value.items()},
            mark=value.mark,
            key_marks=value.key_marks,
            value_marks=value.value_marks,
        )
    if isinstance(value, YList):
        return YList([_copy(v) for v in value], mark=value.mark, item_marks=value.item_marks)
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


# --------------------------------------------------------------------------- extends


def parents_of(doc: Any) -> list[str]:
    """The rulesets ``doc`` extends, as written: ``[]``, ``["pl-standard"]``, ``["a", "b.yaml"]``.

    Raises:
        RulesetError: ``merge.bad-extends`` when ``extends`` is neither a string nor a list
            of strings.
    """
    if not isinstance(doc, Mapping):
        return []
    refs = doc.get("extends")
    if refs is None:
        return []
    if isinstance(refs, str):
        return [refs]
    if isinstance(refs, list) and all(isinstance(r, str) for r in refs):
        return list(refs)
    bad: tuple[str | int, ...] = ("extends",)
    shown = refs
    if isinstance(refs, list):
        index = next(i for i, r in enumerate(refs) if not isinstance(r, str))
        bad, shown = ("extends", index), refs[index]
    message = (
        f"`extends` must be a ruleset id or file name, or a list of them (got {_describe(shown)})"
    )
    raise RulesetError(_diag("merge.bad-extends", message, mark_at(doc, bad), bad))


def resolve_extends(doc: YMap, *, file: str | None, lookup: Lookup, share: bool = False) -> YMap:
    """Apply ``doc``'s ``extends``: merge its parents (left to right, each resolved first), then
    ``doc`` over them (see :func:`merge`).

    The result has no ``extends`` key, and the keys in :data:`NOT_INHERITED` (``id``, ``name``,
    ``aliases``) come from ``doc`` only.  A document without ``extends`` comes back as a copy
    (with ``share``, its top-level mapping only), without its deletion markers: deleting from
    nothing leaves nothing.

    Each distinct file is read and resolved once, however often the tree names it (a parent
    named twice in one list is merged once, at its first place), so the work is linear in
    the distinct files; their number, the parents of one list and the chain's length are
    bounded (limits ``extends_files``, ``extends_parents``, ``extends_depth``).

    Args:
        doc: the loaded document (see :func:`~tysiac_spec.ruleset._yaml.load_yaml`).
        file: the file ``doc`` was read from (``None`` for API input); passed to ``lookup`` so
            relative paths resolve next to it.
        lookup: ``lookup(ref, from_file) -> (parent document, parent file)``.
        share: keep the parts of the documents that no merge changes as they are, instead of
            copying them (see :func:`merge`): for documents nobody changes afterwards, such as
            the loader's (its files are loaded once and shared); only the result's top-level
            mapping is its own.

    Raises:
        RulesetError: every problem found: ``merge.unknown-parent`` at the ``extends`` item
            when ``lookup`` fails with a diagnostic that has no position (its message is
            kept); diagnostics with a position (say, YAML errors in a parent) pass through
            unchanged; ``merge.cycle``; ``merge.too-deep`` (a chain longer than
            limit ``extends_depth``); ``merge.bad-extends``; ``merge.bad-parent`` (the
            parent is not a mapping); ``limit.extends_files`` / ``limit.extends_parents``.
    """
    own_id = doc.get("id")
    label = own_id if isinstance(own_id, str) else (file or "<input>")
    identity = _identity(file, doc)
    return _resolve(doc, file, _Walk(lookup, {identity[0]}, share), [(identity, label)])


class _Walk:
    """What one resolution has seen: the lookup, the files read, each file's result."""

    __slots__ = ("done", "files", "lookup", "max_depth", "share")

    def __init__(self, lookup: Lookup, files: set[str | None], share: bool) -> None:
        self.lookup = lookup
        self.files = files
        self.share = share
        self.done: dict[_Identity, YMap | RulesetError] = {}
        self.max_depth = limits.limit("extends_depth")


_Identity = tuple[str | None, str | None]


def _identity(file: str | None, doc: Mapping[str, Any]) -> _Identity:
    """``(real path, id)`` of a document, for cycle detection."""
    real = os.path.normcase(os.path.realpath(file)) if file is not None else None
    ruleset_id = doc.get("id")
    return real, ruleset_id if isinstance(ruleset_id, str) else None


def _same(a: _Identity, b: _Identity) -> bool:
    """Same file, or -- when either has no file -- the same id."""
    if a[0] is not None and b[0] is not None:
        return a[0] == b[0]
    return a[1] is not None and a[1] == b[1]


def _resolve(doc: YMap, file: str | None, walk: _Walk, chain: list[tuple[_Identity, str]]) -> YMap:
    refs = parents_of(doc)
    distinct = list(dict.fromkeys(refs))
    if len(distinct) > limits.limit("extends_parents"):
        mark = mark_at(doc, ("extends",))
        raise limits.exceeded(
            "extends_parents",
            len(distinct),
            file=mark.file if mark else file,
            line=mark.line if mark else None,
            column=mark.column if mark else None,
            path=("extends",),
        )
    sink = DiagnosticSink()
    inherited: Any = None
    merged: set[_Identity] = set()
    for ref in distinct:
        i = refs.index(ref)
        path: tuple[str | int, ...] = (
            ("extends", i) if isinstance(doc["extends"], list) else ("extends",)
        )
        try:
            identity, parent = _load_parent(ref, file, walk, chain, mark_at(doc, path), path)
        except LimitError:
            raise  # the work stops at a limit
        except RulesetError as exc:
            for diagnostic in exc.diagnostics:
                if diagnostic not in sink.items:  # a parent reached twice reports once
                    sink.add(diagnostic)
            continue
        if identity in merged:  # the same file under another name: merged once
            continue
        merged.add(identity)
        inherited = parent if inherited is None else shadow_player_values(
            merge(inherited, parent, share=walk.share), inherited, parent
        )
    sink.raise_if_any()
    own: YMap = (
        YMap(doc, mark=doc.mark, key_marks=doc.key_marks, value_marks=doc.value_marks)
        if walk.share else _copy(doc)
    )
    _drop(own, "extends")
    if inherited is None:
        if not _holds_deletion(own):
            return own
        stripped: YMap = merge({}, own, share=walk.share)  # markers outside options' patches go
        return stripped
    stray = [_diag("merge.nothing-to-delete", message, mark, where, hint=hint)
             for where, message, mark, hint in _stray_deletions(inherited, own, ())]
    if stray:
        raise RulesetError(stray)
    result: YMap = shadow_player_values(merge(inherited, own, share=walk.share), inherited, own)
    for key in NOT_INHERITED:  # the ruleset's own identity, never merged with a parent's
        if key in own:
            result[key] = own[key]
            _copy_marks(own, key, result)
        else:
            _drop(result, key)
    return result


def shadow_player_values(result: YMap, base: Mapping[str, Any], over: Mapping[str, Any]) -> YMap:
    """``result`` (the merge of ``over`` onto ``base``) without the player-count values of
    ``base`` that ``over`` replaced at its top level.

    For each rule ``over`` writes in a top-level section (a path such as ``talon.discard_count``
    -- a plain or annotated value, a list, or a deletion marker), the value ``base`` wrote at
    ``players.<n>.talon.discard_count`` is removed from ``result`` unless ``over`` wrote that
    player count's value itself: the file's line then holds for every player count, as the
    rule book prints it, instead of being silently outweighed by a parent's per-player value.
    Provenance keys (``source``, ``doc``, …) of a section are no rule and replace nothing.

    ``result`` is not changed: when something is removed, a copy of it comes back, the
    parts on the way copied (the others shared) with their marks.  The loader applies the
    same rule to an option's patch (``_options._apply_options``).
    """
    players: Any = base.get("players")
    if not is_mapping(players) or not is_mapping(result.get("players")):
        return result
    own_players: Any = over.get("players")
    gone: list[tuple[str, ...]] = []
    for name in SECTION_NAMES:
        section: Any = over.get(name)
        if is_mapping(section) and not is_deletion(section):
            gone.extend((name, *leaf) for leaf in _rule_paths(section))
        elif name in over:
            gone.append((name,))
    if not gone:
        return result
    merged_players = result["players"]
    for n, entry in players.items():
        own_entry = own_players.get(n) if is_mapping(own_players) else None
        drop = [p for p in gone if _has(entry, p) and not _has(own_entry, p)]
        if drop and is_mapping(merged_players.get(n)):
            merged_players = _replaced(merged_players, n, _without(merged_players[n], drop))
    if merged_players is result["players"]:
        return result
    out: YMap = _replaced(result, "players", merged_players)
    return out


def _rule_paths(node: Mapping[str, Any], path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """The paths of the rules written in the mapping ``node``: its keys (not the provenance
    keys), and below those whose value is a plain mapping (no annotated value, no marker)."""
    for key, value in node.items():
        if key in _META:
            continue
        sub = (*path, str(key))
        if is_mapping(value) and not is_deletion(value) and not _annotated(value):
            yield sub  # a mapping written here also replaces a parent's plain value
            yield from _rule_paths(value, sub)
        else:
            yield sub


def _annotated(value: Mapping[str, Any]) -> bool:
    return "value" in value and all(k == "value" or k in _META for k in value)


def _has(node: Any, path: tuple[str, ...]) -> bool:
    for key in path:
        if not is_mapping(node) or key not in node:
            return False
        node = node[key]
    return True


def _without(node: Mapping[str, Any], paths: list[tuple[str, ...]]) -> Any:
    """A copy of the mapping ``node`` without the values at ``paths``, each mapping on the
    way copied with its marks.  A plain mapping with paths below it loses those rules one by
    one (its other keys and its provenance stay); any other value at a path goes whole."""
    out = _shallow(node)
    below: dict[str, list[tuple[str, ...]]] = {}
    for path in paths:
        below.setdefault(path[0], []).append(path[1:])
    for head, rests in below.items():
        if head not in out:
            continue
        value = out[head]
        deeper = [rest for rest in rests if rest]
        if deeper and is_mapping(value) and not _annotated(value):
            out[head] = _without(value, deeper)
        elif len(deeper) < len(rests):
            if isinstance(out, YMap):
                _drop(out, head)
            else:
                del out[head]
    return out


def _shallow(node: Mapping[str, Any]) -> Any:
    if isinstance(node, YMap):
        return YMap(node, mark=node.mark, key_marks=node.key_marks, value_marks=node.value_marks)
    return dict(node)


def _replaced(node: Mapping[str, Any], key: Any, value: Any) -> Any:
    """A copy of the mapping ``node`` with ``key`` set to ``value`` (marks kept)."""
    out = _shallow(node)
    out[key] = value
    return out


def _stray_deletions(
    base: Any, over: Mapping[str, Any], path: tuple[str, ...]
) -> Iterator[tuple[tuple[str, ...], str, Mark | None, str | None]]:
    """The deletion markers of ``over`` (outside options' patches) whose key ``base`` does not
    have -- a misspelled key, most often: ``(path, message, mark of the key, hint)`` each."""
    for key, value in over.items():
        sub = (*path, str(key))
        if _in_option_patch(sub):
            continue
        there = is_mapping(base) and key in base
        if is_deletion(value) and not there:
            known = sorted(str(k) for k in base) if is_mapping(base) else []
            close = difflib.get_close_matches(str(key), known, n=1)
            mark = over.key_marks.get(key) if isinstance(over, YMap) else None
            yield (
                sub,
                f"`{'.'.join(sub)}` is not in the ruleset this file extends: nothing to delete",
                mark,
                f"did you mean `{close[0]}`?" if close else None,
            )
        elif is_mapping(value):
            yield from _stray_deletions(base[key] if there else None, value, sub)


def _drop(doc: YMap, key: str) -> None:
    doc.pop(key, None)
    doc.key_marks.pop(key, None)
    doc.value_marks.pop(key, None)


def _load_parent(
    ref: str,
    file: str | None,
    walk: _Walk,
    chain: list[tuple[_Identity, str]],
    mark: Mark | None,
    path: tuple[str | int, ...],
) -> tuple[_Identity, YMap]:
    """Look ``ref`` up and resolve its own ``extends`` (once per file and resolution)."""
    try:
        parent, parent_file = walk.lookup(ref, file)
    except LimitError:
        raise
    except RulesetError as exc:
        raise RulesetError(
            [
                d
                if d.line is not None
                else _diag("merge.unknown-parent", d.message, mark, path, hint=d.hint)
                for d in exc.diagnostics
            ]
        ) from None
    if not isinstance(parent, Mapping):
        message = f"`extends` names `{ref}`, which is not a ruleset (got {_describe(parent)})"
        raise RulesetError(_diag("merge.bad-parent", message, mark, path))
    identity = _identity(parent_file, parent)
    if any(_same(identity, seen) for seen, _ in chain):
        names = " -> ".join([*(label for _, label in chain), ref])
        raise RulesetError(_diag("merge.cycle", f"`extends` cycle: {names}", mark, path))
    if len(chain) > walk.max_depth:
        names = " -> ".join([*(label for _, label in chain[:3]), "…", ref])
        message = f"`extends` chain is longer than {walk.max_depth} levels: {names}"
        raise RulesetError(
            _diag(
                "merge.too-deep",
                message,
                mark,
                path,
                hint="if it is meant to be this deep, raise the limit: "
                f"{limits.LIMITS['extends_depth'].variable}=N",
            )
        )
    done = walk.done.get(identity)
    if isinstance(done, RulesetError):
        raise done
    if done is not None:
        return identity, done
    walk.files.add(identity[0])
    if len(walk.files) > limits.limit("extends_files"):
        raise limits.exceeded(
            "extends_files",
            len(walk.files),
            file=mark.file if mark else file,
            line=mark.line if mark else None,
            column=mark.column if mark else None,
            path=path,
            subject="the files this `extends` tree reads",
        )
    if not isinstance(parent, YMap):
        parent = YMap(parent, mark=Mark(parent_file, 1, 1))
    try:
        resolved = _resolve(parent, parent_file, walk, [*chain, (identity, ref)])
    except LimitError:
        raise
    except RulesetError as exc:
        walk.done[identity] = exc
        raise
    walk.done[identity] = resolved
    return identity, resolved


def _describe(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    text = str(value)
    if len(text) > 60 or "\n" in text:
        return "a text that is not a ruleset"
    return f"`{text}`"


def _diag(
    code: str,
    message: str,
    mark: Mark | None,
    path: tuple[str | int, ...],
    *,
    hint: str | None = None,
) -> Diagnostic:
    return Diagnostic(
        code,
        message,
        file=mark.file if mark else None,
        line=mark.line if mark else None,
        column=mark.column if mark else None,
        path=path,
        hint=hint,
    )
