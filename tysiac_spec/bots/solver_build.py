"""Compile the double-dummy solver's search with mypyc (the ``[fast]`` extra).

    python -m tysiac_spec.bots.solver_build

It writes a copy of ``bots/solver.py`` (:func:`compiled_source`: the imports made absolute,
the plain types :class:`~tysiac_spec.bots.solver.Objective`, ``Position``, ``Solution`` and
``Unsupported`` imported from the pure module instead of restated, so that both share them)
under the fast path's cache folder (:func:`~tysiac_spec.fast.cache_dir`) as
``tysiac_solver_<content hash>.py`` and runs ``mypyc`` on it there;
:func:`~tysiac_spec.bots.solver.solver_of` then makes the compiled ``Solver`` (the same
results, about twice as fast).  The hash is the pure module's text, so a changed solver is
never served by a stale build.  Needs mypy (which ships mypyc), setuptools, a C compiler and
the Python headers; without them it says so and the pure-Python solver goes on working.
Prints one line: the module's name and ``built``, ``present`` or the failure.
"""

from __future__ import annotations

import ast
import hashlib
import sys
from pathlib import Path
from types import ModuleType

__all__ = ["SHARED", "build", "compiled_module", "compiled_source", "main", "module_name"]

SHARED = ("Unsupported", "Objective", "Position", "Solution")
"""The solver's plain types, defined once in the pure module and imported by the compiled copy."""

_SOURCE = Path(__file__).with_name("solver.py")


def module_name() -> str:
    """The compiled module's name: ``tysiac_solver_`` and a hash of ``bots/solver.py`` and
    of this builder (16 hex digits)."""
    digest = hashlib.sha256(_SOURCE.read_bytes() + Path(__file__).read_bytes()).hexdigest()[:16]
    return f"tysiac_solver_{digest}"


def compiled_source() -> str:
    """The text mypyc compiles: ``bots/solver.py`` with absolute imports and :data:`SHARED`
    imported from ``tysiac_spec.bots.solver``."""
    tree = ast.parse(_SOURCE.read_text(encoding="utf-8"))
    body: list[ast.stmt] = []
    for every in ast.walk(tree):
        if isinstance(every, ast.ImportFrom) and every.level:
            root = "tysiac_spec." if every.level == 2 else "tysiac_spec.bots."
            every.module = root + (every.module or "")
            every.level = 0
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name in SHARED:
            continue
        body.append(node)
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            body.append(ast.ImportFrom(module="tysiac_spec.bots.solver",
                                       names=[ast.alias(name) for name in SHARED], level=0))
    tree.body = body
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def compiled_module() -> ModuleType | None:
    """The compiled solver module when it has been built for this ``bots/solver.py``, else
    ``None`` (also when it fails to load)."""
    from ..fast import cache_dir, mypyc

    name = module_name()
    path = mypyc.built(cache_dir(), name)
    return None if path is None else mypyc.load(name, path)


def build() -> str:
    """Build the compiled solver module; returns a line of report."""
    from ..fast import cache_dir, mypyc

    if not mypyc.available():
        return "solver: mypyc is not installed (pip install 'tysiac-spec[fast]')"
    name = module_name()
    folder = cache_dir()
    if mypyc.built(folder, name) is not None:
        return f"solver: {name} present"
    failure = mypyc.compile_module(compiled_source(), name, folder)
    if failure is not None:
        return f"solver: {name} failed: {failure}"
    return f"solver: {name} built"


def main(argv: list[str] | None = None) -> int:
    line = build()
    print(line, flush=True)
    return 1 if " failed" in line else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
