"""The map stays true: ARCHITECTURE.md (one page) and docs/architecture/modules.md (one row per
module) name every module of the package, and name no module that is not there."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "tysiac_spec"
MAP = ROOT / "ARCHITECTURE.md"
MODULES = ROOT / "docs" / "architecture" / "modules.md"

PATH = re.compile(r"`((?:[a-z_]+/)*[a-z_]+(?:\.py|/))`")
"""A module or package path in backticks: `engine/game.py`, `fast/`."""


def _modules() -> set[str]:
    return {str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")}


PACKAGES = {m.split("/")[0] for m in _modules() if "/" in m}


def _rows() -> set[str]:
    """The modules the first cell of each row of modules.md names (`commands/play.py`,
    `replay.py` in one cell: the second is in the first one's folder)."""
    named: set[str] = set()
    for line in MODULES.read_text(encoding="utf-8").splitlines():
        if not line.startswith("| `"):
            continue
        folder = ""
        for name in re.findall(r"`([^`]+\.py)`", line.split(" | ")[0]):
            if "/" in name:
                folder = name.rsplit("/", 1)[0] + "/"
                named.add(name)
            else:
                named.add(folder + name)
    return named


def _exists(path: str) -> bool:
    """``engine/game.py`` under the package or the repository; a bare ``talon.py`` anywhere in
    the package, or in ``tests/`` or ``benchmarks/`` (the map says which folder)."""
    if "/" not in path:
        return any(PACKAGE.rglob(path)) or any((ROOT / d / path).exists() for d in ("tests", "benchmarks"))
    return any((base / path).exists() for base in (PACKAGE, ROOT))


def test_every_module_has_a_row() -> None:
    missing = sorted(_modules() - _rows())
    assert not missing, f"add a row to docs/architecture/modules.md for: {', '.join(missing)}"


def test_every_row_is_a_module() -> None:
    gone = sorted(_rows() - _modules())
    assert not gone, f"docs/architecture/modules.md names modules that are not there: {', '.join(gone)}"


def test_the_map_names_every_package_and_top_level_module() -> None:
    text = MAP.read_text(encoding="utf-8")
    tops = {m.split("/")[0] + ("/" if "/" in m else "") for m in _modules()}
    missing = sorted(t for t in tops if f"`{t}" not in text)
    assert not missing, f"ARCHITECTURE.md's layers leave out: {', '.join(missing)}"


def test_every_path_the_maps_name_exists() -> None:
    """A module (or a folder of the package) the map names is there, but for a line that says
    it is coming."""
    for doc in (MAP, *sorted((ROOT / "docs" / "architecture").glob("*.md"))):
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            if "(coming)" in line:
                continue
            for path in PATH.findall(line):
                if path.endswith(".py") or path.split("/")[0] in PACKAGES:
                    assert _exists(path), f"{doc.name}:{number}: `{path}` is not there"


def test_the_map_is_one_page() -> None:
    lines = MAP.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150
    assert max(len(line) for line in lines) <= 160
    assert "## Adding a mechanism: the checklist" in lines


def test_the_readme_links_the_map() -> None:
    assert "(ARCHITECTURE.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
