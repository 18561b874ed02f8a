"""Adapters to reinforcement-learning frameworks, one extra each (``pip install
'tysiac-spec[gymnasium]'``, ``[pettingzoo]``, ``[openspiel]``; ``[rl]`` installs all three).

- :mod:`tysiac_spec.adapters.gym`: ``TysiacGymEnv``, a single-agent Gymnasium environment
  (one seat learns, bots play the others), registered as ``tysiac/<ruleset>-<n>p-v0`` when
  the module is imported.
- :mod:`tysiac_spec.adapters.pettingzoo`: ``env()`` (wrapped) and ``raw_env``
  (``TysiacEnv``), a PettingZoo AEC environment.
- :mod:`tysiac_spec.adapters.openspiel`: ``python_tysiac``, an OpenSpiel game registered
  with ``pyspiel`` when the module is imported.

All number the actions of a form with one fixed index and encode what a player sees as
arrays (:mod:`tysiac_spec.adapters._core`); the rules are the engine's.  Nothing is imported
here, so ``import tysiac_spec`` never needs numpy or the frameworks.
"""
