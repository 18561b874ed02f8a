"""Adapters to reinforcement-learning frameworks (the ``[rl]`` extra: ``pip install
'tysiac-spec[rl]'``).

- :mod:`tysiac_spec.adapters.pettingzoo`: ``TysiacEnv``, a PettingZoo AEC environment.
- :mod:`tysiac_spec.adapters.openspiel`: ``python_tysiac``, an OpenSpiel game registered
  with ``pyspiel`` when the module is imported.

Both number the actions of a form with one fixed index and encode what a player sees as
arrays (:mod:`tysiac_spec.adapters._core`); the rules are the engine's.  Nothing is imported
here, so ``import tysiac_spec`` never needs numpy or the frameworks.
"""
