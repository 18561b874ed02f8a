"""The limits on play in tysiac_spec/limits.py (``passed_out``, ``web_deals``,
``web_actions``): their defaults and their ``TYSIAC_MAX_*`` variables."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tysiac_spec.engine import auction
from tysiac_spec.limits import LIMITS

ROOT = Path(__file__).resolve().parents[1]


def test_the_play_limits_keep_their_values() -> None:
    assert auction.PASSED_OUT_MAX == LIMITS["passed_out"].default == 100
    assert LIMITS["web_deals"].default == 500
    assert LIMITS["web_actions"].default == 20_000
    assert LIMITS["passed_out"].variable == "TYSIAC_MAX_PASSED_OUT"


def test_the_passed_out_limit_is_read_from_its_variable_when_the_engine_is_imported() -> None:
    env = {**os.environ, "TYSIAC_MAX_PASSED_OUT": "7", "PYTHONPATH": str(ROOT)}
    code = "from tysiac_spec.engine import auction; print(auction.PASSED_OUT_MAX)"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "7"
