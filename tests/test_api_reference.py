"""The site's Python API reference (issue 29 item 5): pdoc writes a page per public module,
and every public name (each module's ``__all__``) has its section there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("pdoc")

from tysiac_spec.docs.api import PUBLIC_MODULES, missing_modules, public_names, write_api


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
    bots = (root / _page("tysiac_spec.bots.process")).read_text(encoding="utf-8")
    assert "JSON lines" in bots and 'id="ProcessBot"' in bots


def test_the_api_covers_what_the_issue_names() -> None:
    for module in ("tysiac_spec.ruleset", "tysiac_spec.engine.game", "tysiac_spec.engine.view",
                   "tysiac_spec.engine.actions", "tysiac_spec.engine.deal_notation", "tysiac_spec.bots",
                   "tysiac_spec.adapters", "tysiac_spec.dsl"):
        assert module in PUBLIC_MODULES
    assert {"load_ruleset", "Ruleset", "Form"} <= set(public_names("tysiac_spec.ruleset"))
