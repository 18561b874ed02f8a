"""The registry of shipped rulesets: find one by id, alias or path.

Shipped rulesets are the ``*.yaml`` files in ``rulesets/`` (installed inside the
package as ``tysiac_spec/_rulesets``).  A shipped ruleset's ``id`` equals its
file name without ``.yaml``.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .._paths import RULESETS_DIR
from ..errors import Diagnostic, RulesetError
from ._yaml import load_yaml_file

__all__ = ["Entry", "entries", "find", "looks_like_path"]


@dataclass(frozen=True, slots=True)
class Entry:
    """A shipped ruleset as listed by the registry (read without resolving it)."""

    id: str
    path: Path
    kind: str
    aliases: tuple[str, ...]
    name: str
    extends: tuple[str, ...]


def looks_like_path(ref: str) -> bool:
    """Whether ``ref`` is a file path rather than an id (it has a slash or a YAML suffix)."""
    return "/" in ref or "\\" in ref or ref.endswith((".yaml", ".yml"))


@cache
def _entries(directory: Path) -> tuple[Entry, ...]:
    out = []
    for path in sorted(directory.glob("*.yaml")):
        try:
            doc = load_yaml_file(path)
        except RulesetError:
            doc = None
        doc = doc if isinstance(doc, dict) else {}
        name = doc.get("name")
        ext = doc.get("extends") or ()
        out.append(
            Entry(
                id=path.stem,
                path=path,
                kind=str(doc.get("kind", "variant")),
                aliases=tuple(a for a in doc.get("aliases", ()) or () if isinstance(a, str)),
                name=str(name.get("en", path.stem)) if isinstance(name, dict) else path.stem,
                extends=(ext,) if isinstance(ext, str) else tuple(ext),
            )
        )
    return tuple(out)


def entries(directory: Path | None = None) -> tuple[Entry, ...]:
    """Every shipped ruleset, sorted by id."""
    return _entries(directory or RULESETS_DIR)


def find(ref: str, *, relative_to: str | Path | None = None) -> Path:
    """The file of the ruleset ``ref``: a shipped id or alias, or a path to a YAML file.

    Args:
        ref: ``pl-standard``, an alias such as ``tysiac``, or ``house/mine.yaml``.
        relative_to: a file whose directory a relative path is taken from (for ``extends``);
            the current directory when ``None``.

    Raises:
        RulesetError: ``registry.unknown`` (the message lists the known ids and suggests the
            closest) or ``registry.no-file`` for a path that does not exist.
    """
    if looks_like_path(ref):
        path = Path(ref)
        if not path.is_absolute() and relative_to is not None:
            path = Path(relative_to).parent / path
        if path.is_dir():
            raise RulesetError(
                Diagnostic(
                    "registry.no-file",
                    f"`{ref}` is a directory; give a ruleset file (.yaml) in it",
                )
            )
        if not path.is_file():
            raise RulesetError(
                Diagnostic("registry.no-file", f"ruleset file `{ref}` does not exist")
            )
        if path.suffix not in (".yaml", ".yml"):
            raise RulesetError(
                Diagnostic(
                    "registry.not-yaml",
                    f"`{ref}` is not a ruleset file: ruleset files end in .yaml or .yml",
                )
            )
        return path
    for entry in entries():
        if ref == entry.id or ref in entry.aliases:
            return entry.path
    known = [e.id for e in entries()]
    close = difflib.get_close_matches(ref, known + [a for e in entries() for a in e.aliases], n=1)
    raise RulesetError(
        Diagnostic(
            "registry.unknown",
            f"unknown ruleset `{ref}`; known: {', '.join(known)}",
            hint=f"did you mean `{close[0]}`?" if close else "give an id or a path to a .yaml file",
        )
    )
