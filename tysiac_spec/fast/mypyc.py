"""Building and loading a module compiled with mypyc (the ``[fast]`` extra): the one home of
the steps :mod:`tysiac_spec.fast.build` (a form's generated code) and
:mod:`tysiac_spec.bots.solver_build` (the double-dummy solver) share.

A build writes the source into a temporary folder, runs ``python -m mypyc`` there, and copies
the source and then the extension module into the cache folder (the extension through a
``.part`` file of the building process renamed into place, so that a reader never loads half
a file, even while another process builds the same module).  Needs mypy
(which ships mypyc), setuptools, a C compiler and the Python headers.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType

__all__ = ["available", "built", "compile_module", "load"]


def available() -> bool:
    """Whether mypyc can be run (the ``[fast]`` extra is installed)."""
    return importlib.util.find_spec("mypyc") is not None


def built(folder: Path, name: str) -> Path | None:
    """The extension module ``name`` in ``folder`` (any of this interpreter's suffixes), or
    ``None`` when it has not been built."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = folder / f"{name}{suffix}"
        if path.exists():
            return path
    return None


def load(name: str, path: Path) -> ModuleType | None:
    """The extension module at ``path`` imported as ``name`` (kept in ``sys.modules``), or
    ``None`` when it cannot be loaded (``ImportError``, ``OSError``: a build for another
    interpreter, a damaged file)."""
    got = sys.modules.get(name)
    if got is not None:
        return got
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            return None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    except (ImportError, OSError):
        sys.modules.pop(name, None)
        return None
    return module


def compile_module(source: str, name: str, folder: Path) -> str | None:
    """Compile ``source`` (Python text) as module ``name`` with mypyc and put the source and
    the extension module in ``folder`` (made if missing).  Returns ``None`` when it is built,
    else the last lines of mypyc's output joined by `` / `` (the folder is then left as it was,
    but for the source)."""
    folder.mkdir(parents=True, exist_ok=True)
    # mypy must see the package the source imports from: an editable install is found by an
    # import hook, which mypy does not run, so the package's folder goes on its path
    root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
    with tempfile.TemporaryDirectory(prefix="tysiac-mypyc-") as tmp:
        (Path(tmp) / f"{name}.py").write_text(source, encoding="utf-8")
        done = subprocess.run([sys.executable, "-m", "mypyc", f"{name}.py"], cwd=tmp, env=env,
                              capture_output=True, text=True, check=False)
        made = built(Path(tmp), name)
        if done.returncode or made is None:
            tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
            return " / ".join(tail)
        source_part = folder / f".{name}.py.{os.getpid()}.part"
        shutil.copy(Path(tmp) / f"{name}.py", source_part)
        source_part.replace(folder / f"{name}.py")
        # the process's own partial file: two builds of one module at once (two test workers,
        # two programs sharing the cache) must not write into the same file and rename it
        partial = folder / f".{made.name}.{os.getpid()}.part"
        shutil.copy(made, partial)
        partial.replace(folder / made.name)
    return None
