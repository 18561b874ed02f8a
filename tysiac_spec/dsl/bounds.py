"""The range of the DSL's whole numbers, and how a value outside it is described.

Every integer a formula writes or computes lies within ``-LIMIT..LIMIT``
(``LIMIT`` = 10**12, one million million):

- the checker refuses a literal outside the range, and a constant sub-expression that
  folds to a value outside it (``dsl.out-of-range``);
- at run time each operation that could leave the range (``+``, ``-``, ``*``, the
  rounding functions) is checked, and a value outside it raises
  :class:`~tysiac_spec.errors.DslError` (``dsl.runtime``) at that operation's position.
  Operations that cannot leave it when their inputs are in range (``//``, ``%``, unary
  minus, ``min``, ``max``, ``abs``, comparisons) are not checked; which ones need a check
  is decided once, when the formula is compiled (:func:`raw_bound`), so the common
  formulas (``120 + marriages(hand)``) carry no check at all.

Why 10**12: a ruleset's own numbers (targets, bids, penalties) are at most 10**6 (the
schema's range), so a product of two of them, the largest thing a sensible formula
computes, still fits; 10**12 is far below 2**53 (about 9 * 10**15), so every value is
exact as a JSON or JavaScript number and as a float in the statistics; and it has 13
digits, below the 18 digits a file may hold (:mod:`tysiac_spec.limits`), so any value a
formula gives can be written to a record and read back.  Values taken from the host
(scores, card points, options) are assumed to be in range too.
"""

from __future__ import annotations

__all__ = ["LIMIT", "RANGE_TEXT", "in_range", "number_text"]

LIMIT = 10**12
"""The largest magnitude of a DSL integer: values lie within ``-LIMIT..LIMIT``."""

RANGE_TEXT = f"-{LIMIT:,} to {LIMIT:,}"
"""The range in words, for messages: ``-1,000,000,000,000 to 1,000,000,000,000``."""

_SHOWN_DIGITS = 40
"""A value with more digits than this is described by its number of digits."""


def in_range(value: int) -> bool:
    """Whether ``value`` lies within ``-LIMIT..LIMIT``."""
    return -LIMIT <= value <= LIMIT


def number_text(value: int) -> str:
    """``value`` with thousands separators (``5,000,000,000,000``); a value of more than
    40 digits as ``a number of 1,234 digits`` (never converts a huge int to text)."""
    digits = len(str(abs(value))) if value.bit_length() <= 130 else None
    if digits is not None and digits <= _SHOWN_DIGITS:
        return f"{value:,}"
    estimate = int(value.bit_length() * 0.30103) + 1  # log10(2) digits per bit
    sign = "a negative number" if value < 0 else "a number"
    return f"{sign} of about {estimate:,} digits"
