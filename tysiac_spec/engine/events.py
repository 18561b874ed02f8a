"""Match events: what happened in a match beyond the actions (contracts made or failed,
barrel entries and falls, bolts, forfeits, redeals, match rules that fired).

Events feed statistics (``tysiac simulate``), explanations (``tysiac score``) and
replays; they never drive the game.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MatchEvent"]


@dataclass(frozen=True, slots=True)
class MatchEvent:
    """One thing that happened in a match.

    ``deal`` is the 0-based number of the deal it belongs to; ``kind`` a dotted name
    (``contract.made``, ``contract.failed``, ``forfeit``, ``barrel.enter``,
    ``barrel.fall``, ``bolt``, ``bolt.penalty``, ``rule.samosval``, ``redeal``, …);
    ``player`` the player concerned, if any; ``value`` an amount in points where one
    applies (the contract, a penalty); ``text`` a short explanation in English
    (``"555 → 0"``, ``"third bolt −120"``).
    """

    deal: int
    kind: str
    player: int | None = None
    value: int | None = None
    text: str = ""
