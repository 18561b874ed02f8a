"""The choices of a run of bot matches (``simulate``, ``compare --simulate``): where the
matches run, what plays them, the shipped bots' names, and the deal cap.  Their one home, light to import: the
commands' options name them without loading the engine (a shell's TAB answers fast), and
:mod:`tysiac_spec.simulate` checks its arguments against them."""

from __future__ import annotations

__all__ = ["BACKENDS", "BOTS", "DEFAULT_MAX_DEALS", "ENGINES"]

BOTS = ("heuristic", "random", "strong")
"""The shipped bots by name, the keys of :data:`tysiac_spec.bots.BUILTIN` (a test keeps them
equal): ``--bots`` completes them without importing the bots and the engine."""

BACKENDS = ("local", "dask")
"""Where the matches run: ``local`` (this process, or a pool of ``workers`` processes) or
``dask`` (a Dask distributed cluster: a new local one of ``workers`` processes, or the
scheduler at an address; needs the ``distributed`` extra)."""

ENGINES = ("auto", "fast", "generic")
"""How the matches are played: ``fast`` on the fast path (:mod:`tysiac_spec.fast`), ``generic``
on the generic engine, ``auto`` on the fast path where it can play the run, else on the engine.
The results do not depend on it."""

DEFAULT_MAX_DEALS = 1000
"""Deals after which a match is stopped and counted as unfinished."""
