"""The corpus of broken rulesets in ``tests/invalid/``: each must fail with exactly the
diagnostics written next to it.

Every case is ``tests/invalid/NAME.yaml`` paired with ``tests/invalid/NAME.expected``, the
rendering of every diagnostic (headline, source line, caret, ``at:`` and ``hint:`` lines)
with file paths relative to the repository root.  Files in ``tests/invalid/_parts/`` are
helpers (parents for ``extends`` cases, a ruleset with options) and are not cases.

Regenerate the expectations after a deliberate change of wording with::

    UPDATE_EXPECTED=1 pytest tests/test_invalid.py

and read every changed ``.expected`` file before committing it.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from tysiac_spec import load_ruleset
from tysiac_spec.errors import Diagnostic, OptionError, RulesetError
from tysiac_spec.ruleset import registry

ROOT = Path(__file__).resolve().parent.parent
INVALID = ROOT / "tests" / "invalid"
PARTS = INVALID / "_parts"
UPDATE = os.environ.get("UPDATE_EXPECTED") == "1"

CASES = sorted(INVALID.glob("*.yaml"))

#: Cases whose diagnostics are known to be wrong or unhelpful: name -> reason.
#: Their ``.expected`` files are written by hand and hold what the diagnostics *should*
#: say; ``UPDATE_EXPECTED=1`` leaves them alone.  Remove a case from here once it passes.
XFAIL: dict[str, str] = {
}

#: The list of shipped ruleset ids appears in some messages (unknown ids); it grows as
#: rulesets are added, so the expectations hold this placeholder instead.
KNOWN_IDS = "<shipped ids>"


def _relative(file: str | None) -> str | None:
    """``file`` relative to the repository root (``/`` separators) when it is inside it."""
    if file is None:
        return None
    path = Path(os.path.abspath(file))
    try:
        return path.relative_to(ROOT).as_posix()
    except ValueError:
        return file


def _source(file: str | None) -> str | None:
    if file is None:
        return None
    try:
        return Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def render(diagnostics: tuple[Diagnostic, ...]) -> str:
    """Every diagnostic rendered as the CLI shows it, with repository-relative paths
    (also inside messages) and the list of shipped ids replaced by :data:`KNOWN_IDS`."""
    blocks = []
    for diag in diagnostics:
        shown = dataclasses.replace(diag, file=_relative(diag.file))
        blocks.append(shown.render(source=_source(diag.file)))
    text = "\n".join(blocks) + "\n"
    text = text.replace(f"{ROOT.as_posix()}/", "")
    known = ", ".join(e.id for e in registry.entries())
    return text.replace(f"known: {known}", f"known: {KNOWN_IDS}")


def test_corpus_is_large_enough() -> None:
    assert len(CASES) >= 30


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(c, id=c.stem, marks=pytest.mark.xfail(reason=XFAIL[c.stem], strict=True))
        if c.stem in XFAIL
        else pytest.param(c, id=c.stem)
        for c in CASES
    ],
)
def test_invalid_ruleset(case: Path) -> None:
    with pytest.raises(RulesetError) as info:
        load_ruleset(case)
    actual = render(info.value.diagnostics)
    expected_file = case.with_suffix(".expected")
    if UPDATE and case.stem not in XFAIL:
        expected_file.write_text(actual, encoding="utf-8")
    assert expected_file.exists(), f"missing {expected_file.name}; run with UPDATE_EXPECTED=1"
    assert actual == expected_file.read_text(encoding="utf-8")


def test_every_expected_file_has_a_case() -> None:
    orphans = {p.stem for p in INVALID.glob("*.expected")} - {c.stem for c in CASES}
    assert not orphans


# --------------------------------------------------------------------------- options

WITH_OPTIONS = PARTS / "with-options.yaml"


def test_options_ruleset_is_valid() -> None:
    ruleset = load_ruleset(WITH_OPTIONS)
    assert dict(ruleset.selected) == {"rounding": "nearest", "barrel": False, "forfeits": 2}
    chosen = load_ruleset(WITH_OPTIONS, options={"rounding": "up", "barrel": "true"})
    assert chosen.selected["rounding"] == "up"
    assert chosen.form(3).special.barrel.enabled is True


def _option_error(options: dict[str, object]) -> OptionError:
    with pytest.raises(OptionError) as info:
        load_ruleset(WITH_OPTIONS, options=options)
    return info.value


def test_unknown_option_lists_the_declared_ones() -> None:
    error = _option_error({"roundng": "up"})
    [diag] = error.diagnostics
    assert diag.code == "option.unknown"
    assert diag.message == (
        "ruleset `with-options` has no option `roundng`; its options: barrel, forfeits, rounding"
    )
    assert diag.hint == "did you mean `rounding`?"


def test_unknown_option_without_close_match() -> None:
    [diag] = _option_error({"colour": "red"}).diagnostics
    assert diag.message == (
        "ruleset `with-options` has no option `colour`; its options: barrel, forfeits, rounding"
    )
    assert diag.hint is None


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        (
            "rounding",
            "sideways",
            "option `rounding` of `with-options` cannot be \"sideways\"; valid: down, nearest, up",
        ),
        (
            "barrel",
            "maybe",
            "option `barrel` of `with-options` cannot be \"maybe\"; valid: true, false",
        ),
        (
            "barrel",
            2,
            "option `barrel` of `with-options` cannot be 2; valid: true, false",
        ),
        (
            "forfeits",
            9,
            "option `forfeits` of `with-options` cannot be 9; valid: an integer from 0 to 5",
        ),
        (
            "forfeits",
            "many",
            "option `forfeits` of `with-options` cannot be \"many\"; valid: an integer from 0 to 5",
        ),
        (
            "forfeits",
            True,
            "option `forfeits` of `with-options` cannot be true; valid: an integer from 0 to 5",
        ),
    ],
)
def test_bad_option_value_lists_the_valid_ones(name: str, value: object, message: str) -> None:
    [diag] = _option_error({name: value}).diagnostics
    assert diag.code == "option.value"
    assert diag.message == message


def test_option_error_is_a_ruleset_error() -> None:
    assert isinstance(_option_error({"nope": 1}), RulesetError)
