"""The site's Python API reference (issue 29 item 5): pdoc writes a page per public module,
and every public name (each module's ``__all__``) has its section there."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pdoc")

from tysiac_spec.docs.api import PUBLIC_MODULES, missing_modules, public_names, write_api

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    root = tmp_path_factory.mktemp("site")
    return root, write_api(root)


def _page(module: str) -> Path:
    return Path("api", *module.split(".")).with_suffix(".html")


@pytest.mark.slow  # pdoc imports and renders twenty modules: about 10 s
def test_every_public_name_has_a_section_on_its_modules_page(site: tuple[Path, list[Path]]) -> None:
    root, written = site
    assert Path("api/index.html") in written
    skipped = missing_modules()
    missing = []
    for module in PUBLIC_MODULES:
        if module in skipped:
            continue
        page = _page(module)
        assert page in written, module
        html = (root / page).read_text(encoding="utf-8")
        ids = set(re.findall(r'id="([^"]+)"', html))
        missing += [f"{module}.{n}" for n in public_names(module) if n not in ids]
    assert missing == []
    counted = sum(len(public_names(m)) for m in PUBLIC_MODULES if m not in skipped)
    assert counted >= 150


@pytest.mark.slow
def test_the_pages_carry_the_docstrings(site: tuple[Path, list[Path]]) -> None:
    root, _ = site
    game = (root / _page("tysiac_spec.engine.game")).read_text(encoding="utf-8")
    assert 'id="Game.dealt"' in game and "The current deal as it was dealt" in game
    assert 'id="Game.from_position"' in game and 'id="Game.position"' in game
    position = (root / _page("tysiac_spec.engine.position")).read_text(encoding="utf-8")
    assert 'id="Position.parse"' in position and "Hidden information" in position
    bots = (root / _page("tysiac_spec.bots.process")).read_text(encoding="utf-8")
    assert "JSON lines" in bots and 'id="ProcessBot"' in bots


def test_the_api_covers_what_the_issue_names() -> None:
    for module in ("tysiac_spec.ruleset", "tysiac_spec.engine.game", "tysiac_spec.engine.view",
                   "tysiac_spec.engine.actions", "tysiac_spec.engine.deal_notation",
                   "tysiac_spec.engine.position", "tysiac_spec.bots",
                   "tysiac_spec.adapters", "tysiac_spec.dsl"):
        assert module in PUBLIC_MODULES
    assert {"load_ruleset", "Ruleset", "Form"} <= set(public_names("tysiac_spec.ruleset"))


@pytest.mark.slow  # about 6 s of CPU (quick-loop budget, issue 25)
def test_the_reference_is_written_without_the_adapters_extras(tmp_path: Path) -> None:
    """An adapter whose extra is not installed is left out, without a traceback (pdoc walks a
    package's submodules and stopped the whole build at the first it could not import)."""
    script = (
        "import sys\n"
        "for name in ('gymnasium', 'pettingzoo', 'pyspiel'):\n"
        "    sys.modules[name] = None\n"
        "from pathlib import Path\n"
        "from tysiac_spec.docs.api import write_api\n"
        "written = write_api(Path(sys.argv[1]))\n"
        "print(len(written), sorted(str(p) for p in written if 'adapters' in str(p)))\n"
    )
    run = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True,
                         timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr and "Error importing" not in run.stderr
    count, adapters = run.stdout.split(" ", 1)
    assert int(count) > 15
    assert "gym.html" not in adapters and "pettingzoo.html" not in adapters
    assert (tmp_path / "api" / "tysiac_spec" / "engine" / "game.html").is_file()
