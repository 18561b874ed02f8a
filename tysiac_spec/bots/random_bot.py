"""The :class:`Bot` protocol and a seeded bot choosing uniformly among the legal actions."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from ..engine.actions import Action
from ..engine.game import View

__all__ = ["Bot", "RandomBot"]


class Bot(Protocol):
    """Anything that picks one of the legal actions, seeing only its player's view."""

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """One element of ``legal`` (never empty)."""
        ...


class RandomBot:
    """Chooses uniformly at random among the legal actions, from its own seeded generator."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """A uniformly random element of ``legal``."""
        return legal[self._rng.randrange(len(legal))]
