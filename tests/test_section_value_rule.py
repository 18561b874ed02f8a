"""A section with a rule of its own named ``value`` (``marriages.ace_marriage.value``)
written alone, ``ace_marriage: {value: 201}``, is that rule, not the annotated form
``{value: …, source: …}`` of the whole section (which crashed the loader with a
``TypeError``, found by the workbench's sweep of every control)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tysiac_spec.ruleset import load_ruleset

ROOT = Path(__file__).resolve().parents[1]


def _house(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_rule_named_value_is_read_when_written_alone(tmp_path: Path) -> None:
    path = _house(tmp_path, "h1.yaml", "extends: pl-standard\nid: h1\nname: {en: H1}\n"
                  "marriages:\n  ace_marriage:\n    value: 201\n")
    ace = load_ruleset(str(path)).form(3).marriages.ace_marriage
    assert (ace.value, ace.enabled, ace.rank) == (201, False, "ace")


def test_a_value_written_over_a_parent_keeps_the_parents_other_rules(tmp_path: Path) -> None:
    _house(tmp_path, "h2.yaml", "extends: pl-standard\nid: h2\nname: {en: H2}\n"
           "marriages:\n  ace_marriage:\n    enabled: true\n    value: 201\n")
    path = _house(tmp_path, "h3.yaml", "extends: h2.yaml\nid: h3\nname: {en: H3}\n"
                  "marriages:\n  ace_marriage:\n    value: 150\n")
    ace = load_ruleset(str(path)).form(3).marriages.ace_marriage
    assert (ace.value, ace.enabled) == (150, True)


@pytest.mark.slow  # about half a second of CPU (quick-loop budget, issue 25)
def test_validate_accepts_it_without_a_traceback(tmp_path: Path) -> None:
    path = _house(tmp_path, "h1.yaml", "extends: ru-classic\nid: h1\nname: {en: H1}\n"
                  "marriages:\n  ace_marriage:\n    value: 201\n")
    run = subprocess.run([sys.executable, "-m", "tysiac_spec", "validate", str(path)],
                         capture_output=True, text=True, cwd=tmp_path, timeout=120,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    assert run.stdout.startswith("ok  h1")
