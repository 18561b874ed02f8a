"""The registry of shipped rulesets: find one by id, alias or path, inside the allowed folders.

Shipped rulesets are the ``*.yaml`` files in ``rulesets/`` (installed inside the
package as ``tysiac_spec/_rulesets``).  A shipped ruleset's ``id`` equals its
file name without ``.yaml``.

**Containment.**  A file named by another file (a ruleset's ``extends``, a scenario's or a
game record's ruleset) is untrusted: it may name a shipped ruleset by id, or a file in the
naming file's folder or below, in the folder of the file the user gave (the *root*), in the
shipped rulesets' folder, or in a folder the user names explicitly
(:func:`allowed_folders`, the command line's ``--rules-dir``).  Anything else -- an absolute
path elsewhere, ``../`` out of those folders, a symbolic link pointing out -- is refused
with ``registry.outside`` before the file is opened.  A path the user gives directly (on
the command line, or to :func:`~tysiac_spec.ruleset.load_ruleset`) is always allowed.
"""

from __future__ import annotations

import difflib
import errno
import shlex
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .._paths import RULESETS_DIR
from ..errors import Diagnostic, RulesetError
from ..text import shorten
from ._yaml import load_yaml_file

__all__ = [
    "Entry",
    "add_finder",
    "allowed_folders",
    "entries",
    "extra_folders",
    "find",
    "found_elsewhere",
    "looks_like_path",
]

_EXTRA: ContextVar[tuple[Path, ...]] = ContextVar("tysiac_extra_folders", default=())

_FINDERS: list[Callable[[str], Path | None]] = []


def add_finder(finder: Callable[[str], Path | None]) -> Callable[[], None]:
    """Let :func:`find` also know the ids ``finder`` knows (``finder(id)`` -> its file, or
    ``None``), process-wide, after the shipped ids: the house files a web server keeps
    (``tysiac serve``'s workbench), which an upload may ``extends`` by id.  Returns the
    function that takes the finder away again."""
    _FINDERS.append(finder)

    def remove() -> None:
        if finder in _FINDERS:
            _FINDERS.remove(finder)

    return remove


def found_elsewhere(ref: str) -> Path | None:
    """The file of ``ref`` from the finders of :func:`add_finder` (``None``: none knows it)."""
    if looks_like_path(ref):
        return None
    for finder in list(_FINDERS):
        path = finder(ref)
        if path is not None:
            return path
    return None


@contextmanager
def allowed_folders(folders: Iterable[str | Path]) -> Iterator[None]:
    """Within the block, files named by other files may also come from ``folders`` (and
    below): the folders a user names on the command line (``tysiac --rules-dir DIR``)."""
    token = _EXTRA.set(_EXTRA.get() + tuple(Path(f).resolve() for f in folders))
    try:
        yield
    finally:
        _EXTRA.reset(token)


def extra_folders() -> tuple[Path, ...]:
    """The folders allowed by :func:`allowed_folders` where this is called (resolved paths)."""
    return _EXTRA.get()


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


@cache
def _ids(directory: Path) -> dict[str, Path]:
    """The shipped files by id (the file's name without ``.yaml``), from the folder's listing
    alone: finding a shipped id reads no file (a TAB answers fast)."""
    return {path.stem: path for path in directory.glob("*.yaml")}


def find(
    ref: str, *, relative_to: str | Path | None = None, root: str | Path | None = None
) -> Path:
    """The file of the ruleset ``ref``: a shipped id or alias, or a path to a YAML file.

    Args:
        ref: ``pl-standard``, an alias such as ``tysiac``, or ``house/mine.yaml``.
        relative_to: the file that names ``ref`` (an ``extends``, a scenario, a record): a
            relative path is taken from its folder, and the path must stay inside the allowed
            folders (see the module's text); ``None`` when the user gives ``ref`` directly
            (any path, relative to the current directory).
        root: the folder of the file the user gave, whose tree is allowed too (for a chain
            of ``extends``); ``relative_to``'s folder when ``None``.

    Raises:
        RulesetError: ``registry.unknown`` (the message lists the known ids and suggests the
            closest), ``registry.outside`` (a file named by another file lies outside the
            allowed folders; it is not opened), ``registry.no-file`` for a path that does not
            exist or is a directory, ``registry.not-yaml`` for another suffix.
    """
    if looks_like_path(ref):
        shown = shorten(ref, 120)
        path = Path(ref)
        if relative_to is not None:
            base = Path(relative_to).parent
            if not path.is_absolute():
                path = base / path
            _check_inside(path, shown, base, root)
        try:
            path.stat()
        except OSError as exc:
            if exc.errno != errno.ENOENT:  # a name too long, a loop of links, no permission
                raise RulesetError(
                    Diagnostic(
                        "registry.no-file",
                        f"ruleset file `{shown}` cannot be read: {exc.strerror or exc}",
                    )
                ) from None
        if path.is_dir():
            raise RulesetError(
                Diagnostic(
                    "registry.no-file",
                    f"`{shown}` is a directory; give a ruleset file (.yaml) in it",
                )
            )
        if not path.is_file():
            what = "is not a regular file" if path.exists() else "does not exist"
            raise RulesetError(Diagnostic("registry.no-file", f"ruleset file `{shown}` {what}"))
        if path.suffix not in (".yaml", ".yml"):
            raise RulesetError(
                Diagnostic(
                    "registry.not-yaml",
                    f"`{shown}` is not a ruleset file: ruleset files end in .yaml or .yml",
                )
            )
        return path
    shipped = _ids(RULESETS_DIR).get(ref)
    if shipped is not None:
        return shipped
    for entry in entries():
        if ref == entry.id or ref in entry.aliases:
            return entry.path
    elsewhere = found_elsewhere(ref)
    if elsewhere is not None:
        return elsewhere
    known = [e.id for e in entries()]
    close = difflib.get_close_matches(ref, known + [a for e in entries() for a in e.aliases], n=1)
    raise RulesetError(
        Diagnostic(
            "registry.unknown",
            f"unknown ruleset `{shorten(ref)}`; known: {', '.join(known)}",
            hint=f"did you mean `{close[0]}`?" if close else "give an id or a path to a .yaml file",
        )
    )


def _check_inside(path: Path, shown: str, base: Path, root: str | Path | None) -> None:
    """Refuse ``path`` unless, with symbolic links resolved, it lies in an allowed folder."""
    try:
        real = path.resolve()
        folders = [base.resolve(), RULESETS_DIR.resolve(), *extra_folders()]
        if root is not None:
            folders.append(Path(root).resolve())
    except (OSError, RuntimeError):  # a symbolic-link loop
        real, folders = path, []
    if any(real.is_relative_to(folder) for folder in folders):
        return
    given = ""  # the third place a file may name, when it is another folder (README)
    if root is not None and len(folders) > 2 and folders[-1] != folders[0]:
        given = f", or in the folder of the file you gave ({shorten(str(folders[-1]), 200)}) or below"
    raise RulesetError(
        Diagnostic(
            "registry.outside",
            f"`{shown}` is outside the folders a file may name: a shipped ruleset id, or a file "
            f"in the naming file's folder or below{given}",
            hint="copy the file beside the one that names it, or allow its folder on the "
            f"command line: tysiac --rules-dir {shlex.quote(shorten(str(real.parent), 200))} ...",
        )
    )
