"""The rulesets a web table may be played with: a shipped id, or a house-rule file a client
uploaded or pasted, loaded as the CLI loads it, within the same limits, and contained:
an uploaded file may ``extends`` shipped ruleset ids only, and the ids of the house files
saved on the server (the workbench's links: :class:`.workbench.HouseFiles`, found through
:func:`tysiac_spec.ruleset.registry.add_finder`), so no path a client writes is ever opened."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import limits
from ...errors import Diagnostic, RulesetError
from ...ruleset import Ruleset, load_ruleset, registry
from ...ruleset._yaml import YMap, load_yaml, mark_at

__all__ = ["UPLOAD_FILE", "load_table_ruleset", "shipped"]

UPLOAD_FILE = "house.yaml"
"""The file name an uploaded text is known by in diagnostics (``house.yaml:3:9: error…``)."""


def shipped() -> list[Ruleset]:
    """The shipped rulesets a table can play (those with a player count), in the registry's order."""
    out = []
    for entry in registry.entries():
        rules = load_ruleset(entry.id)
        if rules.player_counts:
            out.append(rules)
    return out


def _check_extends(text: str) -> None:
    """Refuse an ``extends`` that names anything but a shipped id (``upload.extends-path``),
    before the loader would look it up."""
    limits.check("ruleset_bytes", len(text.encode("utf-8", "surrogatepass")), file=UPLOAD_FILE)
    doc = load_yaml(text, file=UPLOAD_FILE)
    if not isinstance(doc, YMap) or "extends" not in doc:
        return
    parents = doc["extends"]
    items: list[tuple[tuple[str | int, ...], Any]] = (
        [(("extends", i), p) for i, p in enumerate(parents)]
        if isinstance(parents, list)
        else [(("extends",), parents)]
    )
    for path, parent in items:
        if parent is None:
            continue
        if not isinstance(parent, str) or registry.looks_like_path(parent):
            mark = mark_at(doc, path)
            raise RulesetError(
                Diagnostic(
                    "upload.extends-path",
                    "an uploaded ruleset may extend shipped rulesets only (by id, e.g. `pl-standard`) "
                    "and house files saved on this server (by the id of their link), not a file",
                    file=UPLOAD_FILE,
                    line=mark.line if mark else None,
                    column=mark.column if mark else None,
                    path=tuple(path),
                )
            )


def load_table_ruleset(ref: str | None, text: str | None, options: Mapping[str, Any] | None) -> Ruleset:
    """The ruleset of a table: the shipped ``ref`` (an id, never a path), or the uploaded
    ``text``, with ``options``.

    Raises:
        RulesetError: the text's problems (line:col in :data:`UPLOAD_FILE`); an ``extends``
            naming a file (``upload.extends-path``); ``ref`` that is a path
            (``upload.path``) or an unknown id.
        LimitError: the text or the document is over the project's limits.
        OptionError: an unknown option or value.
    """
    if text is not None:
        _check_extends(text)
        return load_ruleset(UPLOAD_FILE, text=text, options=dict(options or {}))
    if ref is None or registry.looks_like_path(ref):
        raise RulesetError(Diagnostic("upload.path", "name a shipped ruleset by its id (see /api/rulesets)"))
    return load_ruleset(ref, options=dict(options or {}) or None)
