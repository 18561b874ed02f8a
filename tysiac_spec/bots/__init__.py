"""Players that choose actions: the :class:`Bot` protocol and simple bots."""

from __future__ import annotations

from .heuristic import HeuristicBot
from .random_bot import Bot, RandomBot

__all__ = ["Bot", "HeuristicBot", "RandomBot"]
