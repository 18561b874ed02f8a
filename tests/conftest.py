"""Hypothesis settings profiles for the test suite, and the quick loop's sampling.

Profiles (select with ``HYPOTHESIS_PROFILE=...`` or pytest's ``--hypothesis-profile=...``):

``ci`` (the default)
    Hypothesis's example counts and each test's own ``max_examples``; no deadline, and the
    health checks that fire only because the machine is slow or busy (``too_slow``,
    ``data_too_large``) are off. A slow machine makes the suite slower, never red.
``quick``
    The same, with at most 10 examples per property test, including those that set their own
    count. Use it for the quick loop: ``HYPOTHESIS_PROFILE=quick pytest -m "not slow" -n auto``.

Long parametrisations keep a sample in the quick loop through ``tests/_quick.py``.

``@pytest.mark.cases(argnames, factory, ids=...)`` parametrises a test with ``factory()``'s
cases at collection, and not at all when ``-m`` deselects the test (the quick loop's ``slow``
tests whose cases load every house example): a run pays only for the cases it runs. In a
parallel run (``-n``) every worker collects, so collection is paid once per worker.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from _pytest.mark.expression import Expression
from hypothesis import HealthCheck, settings

QUICK_EXAMPLES = 10
_MACHINE_SPEED = [HealthCheck.too_slow, HealthCheck.data_too_large]

settings.register_profile("ci", deadline=None, suppress_health_check=_MACHINE_SPEED)
settings.register_profile(
    "quick", deadline=None, suppress_health_check=_MACHINE_SPEED, max_examples=QUICK_EXAMPLES
)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
settings.load_profile(PROFILE)


def _hypothesis_settings(item: pytest.Item) -> Any:
    return getattr(getattr(item, "obj", None), "_hypothesis_internal_use_settings", None)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under the ``quick`` profile, cap every property test at ``QUICK_EXAMPLES`` examples, and
    make every property test tolerate a slow machine (no deadline, no speed health check), even
    one that states its own ``settings``."""
    quick = "quick" in (PROFILE, config.getoption("hypothesis_profile", None))
    for item in items:
        own = _hypothesis_settings(item)
        if own is None:
            continue
        changes: dict[str, Any] = {}
        if own.deadline is not None:
            changes["deadline"] = None
        missing = [check for check in _MACHINE_SPEED if check not in own.suppress_health_check]
        if missing:
            changes["suppress_health_check"] = [*own.suppress_health_check, *missing]
        if quick and own.max_examples > QUICK_EXAMPLES:
            changes["max_examples"] = QUICK_EXAMPLES
        if changes:
            item.obj._hypothesis_internal_use_settings = settings(own, **changes)  # type: ignore[attr-defined]


def _deselected_by_marks(metafunc: pytest.Metafunc) -> bool:
    """Whether ``-m`` deselects every case of ``metafunc``'s test (judged by the test's own
    marks, which its cases share)."""
    expression = metafunc.config.option.markexpr
    if not expression:
        return False
    names = {mark.name for mark in metafunc.definition.iter_markers()} | {"parametrize"}
    return not Expression.compile(expression).evaluate(lambda name, /, **kwargs: name in names)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``@pytest.mark.cases(argnames, factory, **parametrize_kwargs)``: the cases made only
    for a run that selects the test."""
    mark = metafunc.definition.get_closest_marker("cases")
    if mark is None:
        return
    argnames: str | Sequence[str] = mark.args[0]
    factory: Callable[[], list[Any]] = mark.args[1]
    metafunc.parametrize(argnames, [] if _deselected_by_marks(metafunc) else factory(), **mark.kwargs)
