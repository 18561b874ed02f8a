"""A ruleset's table options, for the loader (:mod:`._load`).

- a value for an option, checked and converted from text (:func:`parse_option_value`), and
  the value of every declared option (:func:`_select_options`: unknown names refused);
- the patches of the chosen values merged over the document (:func:`_apply_options`);
- a rule the file writes itself that an option's *default* patch would silently replace,
  refused (:func:`_overridden_by_defaults`);
- the number of options and of their values, bounded (:func:`_check_option_counts`).
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping
from functools import partial
from typing import Any

from .. import limits
from ..errors import Diagnostic, OptionError, format_path
from . import model
from ._convert import deep_unwrap, is_annotated, made_once, unwrap
from ._merge import SECTION_NAMES, merge, shadow_player_values
from ._yaml import YMap, is_mapping, mark_at, to_plain

__all__ = ["parse_option_value"]

OptionValue = str | int | bool


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
            merged = merge(doc, patch, share=True, once=True)  # (made once per doc and patch)
            shadowed = made_once(  # a new mapping, if any; so made once too
                "shadowed", (merged, doc, patch), partial(shadow_player_values, merged, doc, patch)
            )
            if shadowed is not merged:
                touched.add("players")
            doc = shadowed
            touched.update(str(key) for key in patch)
    return doc, touched


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
        if name not in chosen:  # (worked out once per document and option value)
            problems.extend(made_once(
                ("overridden", name, type(value), value), (doc, own),
                partial(_overridden_by, doc, own, name, value),
            ))
    return problems


def _overridden_by(
    doc: YMap, own: Mapping[str, Any], name: str, value: OptionValue
) -> tuple[Diagnostic, ...]:
    """The rules ``own`` writes that the patch of ``name`` with ``value`` replaces
    (:func:`_overridden_by_defaults`)."""
    problems: list[Diagnostic] = []
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
    return tuple(problems)


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


def _leaves(node: Any, path: tuple[str | int, ...] = ()) -> Any:
    if is_mapping(node) and not is_annotated(node):
        for key, value in node.items():
            yield from _leaves(value, (*path, key))
    else:
        yield path, unwrap(node)


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
