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
        """A uniformly random element of ``legal``: the one ``legal[rng.randrange(len(legal))]``
        picks, drawn as CPython 3.11's ``randrange`` draws it (rejection on ``getrandbits``,
        written out: two calls fewer per choice, and the same draws whatever the standard
        library does in future, as :func:`~tysiac_spec.engine.dealing.shuffle` keeps its)."""
        n = len(legal)
        if not n:  # (randrange's error: the draw below would never end)
            raise ValueError("empty range for randrange()")
        getrandbits = self._rng.getrandbits
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return legal[r]
