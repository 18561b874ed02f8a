"""No shipped file cites a path outside the repository (issue 26, item 14): a ruleset, a house
example, the docs, the schemas or the package's data files name a development machine's file
(`/work/shared/...`, a home folder) or climb out of the checkout (`../shared/...`); a reader of
the published project cannot open either.  Sources are cited by their public address."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SHIPPED = ("rulesets", "examples", "docs", "schemas", "tysiac_spec")
"""The folders whose files ship (and README.md, ARCHITECTURE.md)."""

TEXT = {".yaml", ".yml", ".md", ".json", ".txt", ".lark", ".html"}

OUTSIDE = re.compile(
    r"(?<![\w.:/~-])/(?:work|home|Users|root|mnt|srv|opt)/[\w.-]+"  # an absolute path
    r"|(?<![\w/])[A-Za-z]:\\\\[\w.-]+"  # a Windows drive
    r"|(?:\.\./)+shared/"  # out of the checkout, to the development machine's shared folder
)


def _shipped() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "ARCHITECTURE.md"]
    for folder in SHIPPED:
        files += [p for p in sorted((ROOT / folder).rglob("*")) if p.is_file() and p.suffix in TEXT]
    return files


def test_no_shipped_file_cites_a_path_outside_the_repository() -> None:
    found = []
    for path in _shipped():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for match in OUTSIDE.finditer(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {match.group(0)}")
    assert found == []


def test_the_pattern_finds_what_it_must() -> None:
    assert OUTSIDE.search("the version read in /work/shared/rules/peer_mekedron.md")
    assert OUTSIDE.search("listed in ../shared/rules/house_rules.md")
    assert OUTSIDE.search("see /home/me/notes.txt")
    assert not OUTSIDE.search("https://github.com/mekedron/thousand/blob/main/core/rule_config.lua")
    assert not OUTSIDE.search("$schema=../../schemas/ruleset-extends.schema.json")
