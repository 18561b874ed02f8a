"""The quick loop's sample of a long parametrisation.

``sample(cases, every=N)`` returns ``cases`` as pytest params: the first and every N-th case
as they are, the others marked ``slow``. The quick loop (``pytest -m "not slow"``) runs the
sample; the full suite (CI) runs every case. Use it where the cases exercise the same code
path on different data (the same check on each file of a corpus), keeping in ``keep`` (ids)
every case that reaches a path of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pytest


def sample(
    cases: Iterable[Any],
    every: int,
    keep: Iterable[str] = (),
    ids: Callable[[Any], str] = str,
) -> list[Any]:
    """``cases`` (values, or tuples for several arguments) as ``pytest.param``s with ids from
    ``ids``; the cases whose index is not a multiple of ``every`` and whose id is not in
    ``keep`` are marked ``slow``."""
    kept = set(keep)
    out = []
    for i, case in enumerate(cases):
        values = case if isinstance(case, tuple) else (case,)
        case_id = ids(case)
        quick = i % every == 0 or case_id in kept
        out.append(pytest.param(*values, id=case_id, marks=() if quick else pytest.mark.slow))
    return out
