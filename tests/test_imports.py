"""The package has no import cycle (ARCHITECTURE.md section 2: the layers).

The graph is read from the source with :mod:`ast`, not by importing: an edge ``A -> B`` for
every ``import`` / ``from ... import`` in module ``A`` of a module ``B`` of the package
(``from .x import y`` names ``x.y`` when that is a module, else ``x``).  A *module-level*
import is any import outside a function body, including those under
``if TYPE_CHECKING:`` (a type named from a module is a dependency on it).  Imports inside
functions are the deliberate lazy loads (a command loads the engine only when it runs); they
are checked too, in a second graph, so that a cycle cannot hide in a function either.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator, Mapping, Set
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "tysiac_spec"

Graph = Mapping[str, Set[str]]


def _module_name(path: Path) -> str:
    """``tysiac_spec/engine/game.py`` -> ``tysiac_spec.engine.game``; a package's
    ``__init__.py`` is the package (``tysiac_spec.engine``)."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES: dict[str, Path] = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _imports(name: str, path: Path) -> Iterator[tuple[str, int, bool]]:
    """``(imported module, line, inside a function)`` for each import of a package module in
    the module ``name`` (its file ``path``)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def targets(node: ast.Import | ast.ImportFrom) -> list[str]:
        if isinstance(node, ast.Import):
            return [alias.name for alias in node.names]
        if node.level:
            parts = package.split(".")
            base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
        else:
            base = node.module or ""
        return [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]

    def walk(node: ast.AST, in_function: bool) -> Iterator[tuple[str, int, bool]]:
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            if isinstance(child, ast.Import | ast.ImportFrom):
                for target in targets(child):
                    if target in MODULES and target != name:
                        yield target, child.lineno, inside
            yield from walk(child, inside)

    yield from walk(ast.parse(path.read_text(encoding="utf-8"), str(path)), False)


@functools.cache  # the scan reads ~100 files: once per session for each graph
def _graph(*, lazy: bool) -> dict[str, set[str]]:
    """Module -> the package modules it imports: module-level imports only, or (``lazy``)
    also those inside functions."""
    return {
        name: {t for t, _, in_function in _imports(name, path) if lazy or not in_function}
        for name, path in MODULES.items()
    }


def find_cycle(graph: Graph) -> list[str] | None:
    """One cycle of ``graph`` as a path that ends where it starts (``[a, b, a]``), or
    ``None`` when the graph has none (depth-first search, modules in sorted order)."""
    done: set[str] = set()
    path: list[str] = []
    on_path: set[str] = set()

    def visit(node: str) -> list[str] | None:
        path.append(node)
        on_path.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt in on_path:
                return [*path[path.index(nxt):], nxt]
            if nxt not in done:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        on_path.discard(node)
        done.add(node)
        return None

    for start in sorted(graph):
        if start not in done:
            found = visit(start)
            if found:
                return found
    return None


def test_the_cycle_finder_finds_a_cycle_and_only_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None
    assert find_cycle({"a": set()}) is None


@pytest.mark.slow  # about 3 s of CPU (quick-loop budget, issue 25)
def test_the_scan_reads_the_imports_as_written() -> None:
    # every module of the package is scanned (the graph is not empty by accident)
    assert {"tysiac_spec", "tysiac_spec.cards", "tysiac_spec.engine.game", "tysiac_spec.transcript"} <= set(MODULES)
    graph = _graph(lazy=False)
    # cards.py is a value module: it reads no ruleset (Card.parse needs a deck)
    assert graph["tysiac_spec.cards"] == {"tysiac_spec.errors", "tysiac_spec.text"}
    # the game imports the record, the record not the game; the replay and transcript sit above
    assert "tysiac_spec.engine.record" in graph["tysiac_spec.engine.game"]
    assert "tysiac_spec.engine.game" not in graph["tysiac_spec.engine.record"]
    assert {"tysiac_spec.engine.game", "tysiac_spec.engine.record"} <= graph["tysiac_spec.engine.replay"]
    assert "tysiac_spec.transcript" not in set().union(
        *(graph[m] for m in MODULES if m.startswith("tysiac_spec.engine"))
    )
    # ``from . import auction, dealing, ...`` in game.py: an edge to each of those modules
    assert {"tysiac_spec.engine.auction", "tysiac_spec.engine.play"} <= graph["tysiac_spec.engine.game"]
    # scenarios.py loads the engine inside functions only: in the second graph, not the first
    lazy = _graph(lazy=True)
    assert "tysiac_spec.engine.game" in lazy["tysiac_spec.scenarios"]
    assert "tysiac_spec.engine.game" not in graph["tysiac_spec.scenarios"]


@pytest.mark.slow  # about 2 s of CPU a case (quick-loop budget, issue 25)
@pytest.mark.parametrize("lazy", [False, True], ids=["module-level imports", "with imports in functions"])
def test_the_package_has_no_import_cycle(lazy: bool) -> None:
    cycle = find_cycle(_graph(lazy=lazy))
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])
