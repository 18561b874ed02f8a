"""Hypothesis settings profiles for the test suite.

``ci`` (the default) keeps Hypothesis's defaults and each test's own ``max_examples``.
``quick`` takes fewer examples in the property tests that do not set their own count; select
it for the quick loop with ``HYPOTHESIS_PROFILE=quick`` (or pytest's
``--hypothesis-profile=quick``), together with ``-m "not slow"``.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", settings())
settings.register_profile("quick", max_examples=10)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
