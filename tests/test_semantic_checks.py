"""The semantic checks' registry (ruleset/checks/): one registered function per code of
``SEMANTIC_CODES`` and no function for a code it does not list."""

from __future__ import annotations

import pytest

from tysiac_spec.ruleset import validate
from tysiac_spec.ruleset.checks import CHECKS, SEMANTIC_CODES, check


def test_every_code_has_exactly_one_check_and_every_check_a_code() -> None:
    assert sorted(CHECKS) == sorted(SEMANTIC_CODES)
    functions = [entry.run for entry in CHECKS.values()]
    assert len(set(functions)) == len(functions) == len(SEMANTIC_CODES) == 48
    assert all(code == entry.code for code, entry in CHECKS.items())


def test_scopes() -> None:
    by_scope = {scope: sorted(c for c, e in CHECKS.items() if e.scope == scope)
                for scope in ("document", "form", "compiled")}
    assert by_scope["document"] == [
        "deck.duplicate", "deck.points-total", "option.choices", "option.default",
        "option.set-key", "option.set-shape", "source.duplicate", "source.unknown",
    ]
    assert by_scope["compiled"] == [
        "auction.no-deal", "formula.range", "marriages.ceiling", "talon.rebuy-price",
    ]
    assert CHECKS["auction.no-deal"].run is validate.never_played
    assert len(by_scope["form"]) == 36


def test_a_second_check_for_a_code_or_an_unknown_code_is_refused() -> None:
    with pytest.raises(ValueError, match=r"two semantic checks for code 'table\.active'"):
        check("table.active")(lambda form: iter(()))
    with pytest.raises(ValueError, match=r"semantic check for unknown code 'table\.nonsense'"):
        check("table.nonsense")(lambda form: iter(()))
    assert CHECKS["table.active"].run.__name__ == "active_players"


def test_validate_keeps_its_public_names() -> None:
    assert validate.SEMANTIC_CODES is SEMANTIC_CODES
    for name in ("schema_errors", "changed_schema_errors", "semantic_errors", "never_played",
                 "form_sections", "sorted_diagnostics"):
        assert callable(getattr(validate, name))
