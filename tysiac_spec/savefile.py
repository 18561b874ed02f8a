"""Saving a file the user keeps (a scoresheet, a game record) so that nothing typed is lost:
an atomic replace guarded by a version check, the one home of that guarantee.

A *version* is the SHA-256 of a file's bytes in hex (:func:`file_version`; ``""`` when there
is no file, :func:`text_version` for a text about to be written).  A writer remembers the
version of what it read (or last wrote) and passes it as ``expected`` to
:func:`write_versioned`, which, holding a lock on the file's folder, compares it with the
file's version now and writes only when they are equal; otherwise it raises
:class:`~tysiac_spec.errors.SaveConflictError` and writes nothing.  Two ``tysiac score``
sessions on one sheet, two ``tysiac play --resume`` of one record, or two requests of a web
service holding the same version thus never drop each other's deals or moves: the second
writer is told, and keeps its data to save elsewhere.

The lock is an advisory ``flock`` on the folder, held only for the compare and the rename
(milliseconds), where the platform has one; without it the compare alone still catches any
writer that finished before.  A save killed before its rename leaves a temporary file beside
the file, which the next save removes (:data:`STALE_TEMP`).  Only regular files are written:
a FIFO, a device or a folder at the path is refused before anything is written (writing to a
FIFO would block for ever).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import stat
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from .errors import Diagnostic, SaveConflictError, SaveError

__all__ = [
    "HASHED_BYTES", "LOCK_WAIT", "check_writable", "file_version", "refuse_special", "text_version",
    "write_versioned",
]

LOCK_WAIT = 10.0
"""Seconds a writer waits for another writer's lock on the folder before it gives up (the
lock is held for milliseconds; a writer stopped while holding it must not hang the rest)."""


HASHED_BYTES = 64 * 2**20
"""Bytes of a file hashed for its version; a larger file (never a sheet or a record: their
readers refuse it) is versioned by its size, inode and change times instead, so that a huge
or sparse file is not read through."""


STALE_TEMP = 600.0
"""Seconds after which a temporary file of an earlier save whose writer is not known
(``.NAME.*.tmp`` beside the file, with no process id) is removed by the next save of the
same file; one whose writer is known is removed once that process has ended."""


def _fail(path: Path, reason: str) -> SaveError:
    return SaveError(Diagnostic("save.write", f"cannot write {path}: {reason}"))


def _target(path: Path) -> Path:
    """The file a write of ``path`` replaces: a symbolic link is followed (the link stays)."""
    return path.resolve() if path.is_symlink() else path


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def refuse_special(path: str | Path) -> os.stat_result | None:
    """The status of the file a write of ``path`` replaces (a symbolic link followed),
    ``None`` when there is none: the one check, before any write of a file the user names
    (a save, an ``-o`` output), that it is a regular file.

    Raises:
        SaveError: the path is a FIFO (whose writing would block for ever), a device, a
            socket or a folder (``cannot write ff: it is a FIFO (named pipe), not a regular
            file``), or its status cannot be read.
    """
    path = Path(path)
    try:
        st = _target(path).stat()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _fail(path, exc.strerror or str(exc)) from None
    if not stat.S_ISREG(st.st_mode):
        raise _fail(path, f"it is {_kind(st.st_mode)}, not a regular file")
    return st


def _check_regular(path: Path, target: Path) -> os.stat_result | None:
    """The file's status, ``None`` when there is none.

    Raises:
        SaveError: the path is a FIFO, a device, a socket or a folder; its folder is missing
            or not a folder.
    """
    st = refuse_special(path)
    folder = target.parent
    if not folder.is_dir():
        raise _fail(path, f"the folder {folder} {'is not a folder' if folder.exists() else 'does not exist'}")
    return st


def text_version(text: str) -> str:
    """The version a file has once ``text`` is written to it (UTF-8): the SHA-256 in hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def file_version(path: str | Path) -> str:
    """The version of the file at ``path`` now: the SHA-256 of its bytes in hex (of a file
    over :data:`HASHED_BYTES`, its size, inode and times), or ``""`` when there is no file.
    Take it *before* reading the file, so that a change made between the two is seen as a
    conflict at the next write rather than lost.

    Raises:
        SaveError: the path is not a regular file, or it cannot be read.
    """
    path = Path(path)
    target = _target(path)
    st = _check_regular(path, target)
    if st is None:
        return ""
    if st.st_size > HASHED_BYTES:
        return f"stat:{st.st_size}:{st.st_ino}:{st.st_mtime_ns}:{st.st_ctime_ns}"
    digest = hashlib.sha256()
    try:
        with open(target, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 16), b""):
                digest.update(block)
    except FileNotFoundError:
        return ""
    except OSError as exc:
        raise SaveError(Diagnostic("save.write", f"cannot read {path}: {exc.strerror or exc}")) from None
    return digest.hexdigest()


@contextlib.contextmanager
def _folder_lock(path: Path, folder: Path) -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``folder`` (none where the platform or the file system
    has none)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: the version compare alone
        yield
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - a folder that cannot be opened: no lock
        yield
        return
    try:
        deadline = time.monotonic() + LOCK_WAIT
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise _fail(path, f"another program holds the lock on {folder} "
                                f"for more than {LOCK_WAIT:g} s") from None
                time.sleep(0.01)
            except OSError:  # pragma: no cover - a file system without flock: no lock
                break
        yield
    finally:
        os.close(fd)  # releases the lock


def _write_temp(path: Path, target: Path, text: str, mode: int) -> str:
    """Write ``text`` to a new temporary file beside ``target`` (``.NAME.*.tmp``), flushed to
    the disk; its name.

    Raises:
        SaveError: it cannot be written (a read-only folder, a full disk, a file size limit);
            no temporary file is left.
    """
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=temp_prefix(target), suffix=".tmp")
    except OSError as exc:
        raise _fail(path, exc.strerror or str(exc)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise _fail(path, exc.strerror or str(exc)) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return tmp


def remove_stale_temps(target: Path) -> None:
    """Remove the temporary files and folders that interrupted writes of ``target`` left
    beside it: a ``.NAME.<pid>.<random>.tmp`` whose writer process has ended, or one without
    a process id older than :data:`STALE_TEMP`.  Nothing else is touched (a symbolic link is
    not followed); one that cannot be removed is left.  The one cleaning rule of every
    atomic write (sheets, records, ``-o`` outputs, the site ``build`` stages in a folder)."""
    prefix = f".{target.name}."
    try:
        names = [n for n in os.listdir(target.parent) if n.startswith(prefix) and n.endswith(".tmp")]
    except OSError:
        return
    for name in names:
        tmp = target.parent / name
        pid, _, rest = name[len(prefix):].partition(".")
        with contextlib.suppress(OSError):
            if pid.isdigit() and rest:
                if int(pid) == os.getpid() or _alive(int(pid)):
                    continue
            elif time.time() - tmp.stat().st_mtime < STALE_TEMP:
                continue
            if tmp.is_symlink():
                continue
            if tmp.is_file():
                tmp.unlink()
            elif tmp.is_dir():
                shutil.rmtree(tmp)


def temp_prefix(target: Path) -> str:
    """The name prefix of a temporary file or folder written beside ``target``:
    ``.NAME.<pid>.`` (its suffix is ``.tmp``), so that :func:`remove_stale_temps` knows
    whether its writer still runs."""
    return f".{target.name}.{os.getpid()}."


def _alive(pid: int) -> bool:
    """Whether process ``pid`` exists (one of another user's counts as alive)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def check_writable(path: str | Path, text: str) -> None:
    """Check, before the user types anything, that ``text`` (what will be saved first) can be
    written at ``path``: a regular file or none, in a folder that exists, with room for it.
    A temporary file beside it is written and removed; ``path`` itself is not touched.

    Raises:
        SaveError: the path is not a regular file, its folder is missing or read-only, or the
            disk (or a size limit) has no room for ``text``.
    """
    path = Path(path)
    target = _target(path)
    _check_regular(path, target)
    Path(_write_temp(path, target, text, 0o600)).unlink(missing_ok=True)


def write_versioned(path: str | Path, text: str, *, expected: str | None) -> str:
    """Replace the file at ``path`` with ``text`` (UTF-8) atomically — a reader sees the old
    file or the new one, never half of one — when its version is still ``expected``.

    Args:
        expected: the version the writer last read or wrote (:func:`file_version`,
            :func:`text_version`; ``""``: there must be no file yet); ``None`` writes whatever
            is there (a new file the user named).

    Returns:
        The file's new version (:func:`text_version` of ``text``), the ``expected`` of the
        next write.

    Raises:
        SaveConflictError: the file's version is not ``expected`` (another writer saved it, or
            it was created or removed since); nothing was written.
        SaveError: the path is not a regular file, or it cannot be written (a missing or
            read-only folder, a full disk); nothing was written.

    A symbolic link is followed (its target is replaced); an existing file keeps its
    permissions.  Source: issue 30 items 8, 9, 11.
    """
    path = Path(path)
    target = _target(path)
    _check_regular(path, target)
    with _folder_lock(path, target.parent):
        st = _check_regular(path, target)
        if expected is not None:
            found = file_version(path)
            if found != expected:
                what = "was removed" if not found else "was created" if not expected else "was changed"
                raise SaveConflictError(
                    Diagnostic(
                        "save.conflict",
                        f"{path} {what} by another program since it was read (another session "
                        "on the same file?); nothing was written to it, so its data is kept",
                        hint="save yours to another file",
                    ),
                    expected=expected, found=found,
                )
        mode = stat.S_IMODE(st.st_mode) if st is not None else 0o644
        remove_stale_temps(target)
        tmp = _write_temp(path, target, text, mode)
        try:
            os.replace(tmp, target)
        except OSError as exc:
            Path(tmp).unlink(missing_ok=True)
            raise _fail(path, exc.strerror or str(exc)) from None
    return text_version(text)
