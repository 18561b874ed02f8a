"""A PettingZoo AEC environment of any ruleset and player count (needs the ``[pettingzoo]``
extra).

``env = env(ruleset="pl-standard", players=3)``, wrapped as PettingZoo's classic environments
are (``TerminateIllegalWrapper``, ``AssertOutOfBoundsWrapper``, ``OrderEnforcingWrapper``), or
the bare ``raw_env("pl-standard", players=3)`` (the class ``TysiacEnv``); agents ``player_0``
… ``player_{P-1}`` are the seats of the engine (``game.current_player``).  Each step applies
one action of the form's fixed :class:`~tysiac_spec.adapters._core.ActionIndex`
(``env.index.actions[i]`` is the action numbered ``i``, printed as the engine prints it:
``bid 120``, ``play QH marriage``).

Spaces:
    action: ``Discrete(index.size)``, the same for every agent and every phase.
    observation: ``Dict(observation=Box(float32, (layout.size,)), action_mask=Box(int8,
    (index.size,)))``.  ``observation`` is the flat vector of
    :class:`~tysiac_spec.adapters._core.ObservationLayout` seen by that agent: own hand (N
    cards of the pack), the trick on the table and the cards played to earlier tricks (by seat,
    P × N), the talon and the given cards the agent sees, the stock's face-up card, the trump
    (S + 1), marriages declared (P × S), the phase, who acts, deals and declares, the high bid
    and the contract, each seat's last bid and pass, match scores, hand sizes, tricks taken,
    the stock's size; seats are relative to the agent (0: itself).  ``action_mask`` has a 1
    for each legal action of the agent to act (all zero for the others).

Rewards: after each step, each agent's change of match score (points) the step caused: the
scores of a settled deal, penalties, redeal charges; they add up to the episode's change of
score.  An action the mask does not allow ends the episode with ``illegal_reward`` (−1) to
the agent that took it and 0 to the others, as in PettingZoo's classic environments;
``illegal="raise"`` raises ``adapter.illegal`` instead.

Episodes (``episode=``): ``deal`` (default) ends when the match's first deal is settled or
abandoned for a redeal; ``match`` when a player wins (``game.is_over``).  A deal episode is
a new match's first deal: where a match opens with a golden round (``ru-online``), that is a
golden deal without an auction; train on auctions with the option off
(``options={"golden_round": False}``) or with whole matches.  Random play rarely
finishes a match quickly: ``max_steps`` truncates an episode (default: none).

The game's seed comes from ``reset(seed=)`` through gymnasium's seeding, so two environments
reset with the same seed play the same deals; without a seed, the environment's generator
goes on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector, wrappers

from ..ruleset import Ruleset
from ._core import (
    ActionIndex,
    Episode,
    check_choice,
    check_render_mode,
    load_form,
    observation_bounds,
    render_text,
)

__all__ = ["ILLEGAL", "TysiacEnv", "env", "raw_env"]

ILLEGAL = ("terminate", "raise")
"""What an action the mask does not allow does in the raw environment: end the episode with
``illegal_reward`` (−1) to the offender and 0 to the others (``terminate``, as PettingZoo's
classic environments), or raise ``adapter.illegal`` (``raise``)."""

class TysiacEnv(AECEnv):  # type: ignore[misc]
    """The AEC environment (see the module docstring for spaces, rewards and episodes).

    Args:
        ruleset: a shipped id or alias, a path, or a loaded :class:`Ruleset`.
        players: the player count (``None``: the ruleset's default).
        options: option values of the ruleset (``{"five_rounds": "up"}``, as ``tysiac play -O``).
        episode: ``deal`` or ``match``.
        max_steps: truncate an episode after this many steps (``None``: never).
        illegal: ``terminate`` (default) or ``raise`` (:data:`ILLEGAL`).
        illegal_reward: the offender's reward under ``terminate``.
        render_mode: ``None``, ``ansi`` (:meth:`render` returns one seat's view, as ``tysiac
            play`` shows it) or ``ansi_omniscient`` (the engine's state text, every hand: for
            debugging).
        render_seat: the seat ``ansi`` shows (``None``: the agent to act).

    Raises:
        RulesetError, OptionError: the ruleset cannot be loaded, or has no form for
            ``players``.
        AdapterError: ``adapter.episode``, ``adapter.illegal-mode`` or ``adapter.render-mode``
            for an unknown value.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "ansi_omniscient"], "name": "tysiac_v0", "is_parallelizable": False,
    }

    def __init__(
        self,
        ruleset: str | Ruleset = "pl-standard",
        players: int | None = None,
        *,
        options: Mapping[str, Any] | None = None,
        episode: str = "deal",
        max_steps: int | None = None,
        illegal: str = "terminate",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        render_seat: int | None = None,
    ) -> None:
        super().__init__()
        self.rules, self.players = load_form(ruleset, players, options)
        check_choice("illegal-mode", "illegal", illegal, ILLEGAL)
        check_render_mode(render_mode, self.metadata["render_modes"])
        self.illegal, self.illegal_reward, self.render_seat = illegal, float(illegal_reward), render_seat
        self.index = ActionIndex(self.rules, self.players)
        self.episode_kind = episode
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(self.players)]
        self.agents = self.possible_agents[:]
        self._episode = Episode(self.rules, self.players, 0, episode, self.index)  # checks `episode`
        layout = self._episode.layout
        low, high = observation_bounds(layout)
        self.layout = layout
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low, high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (self.index.size,), dtype=np.int8),
            })
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.index.size) for a in self.possible_agents}
        self.np_random, _ = seeding.np_random(None)
        self._steps = 0
        self._selector = AgentSelector(self.agents)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def game(self) -> Any:
        """The engine's :class:`~tysiac_spec.engine.game.Game` of the current episode."""
        return self._episode.game

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode: a new game whose seed is drawn from the environment's generator
        (reseeded by ``seed``)."""
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        game_seed = int(self.np_random.integers(0, 2**31 - 1))
        self._episode = Episode(self.rules, self.players, game_seed, self.episode_kind, self.index)
        self._steps = 0
        self.agents = self.possible_agents[:]
        self.rewards: dict[str, float] = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards: dict[str, float] = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._episode.game.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation and action mask (see the module docstring)."""
        player = self.possible_agents.index(agent)
        episode = self._episode
        mask = (
            episode.mask()
            if agent == self.agent_selection and not episode.over
            else np.zeros(self.index.size, np.int8)
        )
        return {"observation": episode.observe(player), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Apply the action numbered ``action`` for the agent to act (``None`` for an agent
        whose episode has ended).

        An action the mask does not allow ends the episode (every agent terminated) with
        ``illegal_reward`` to the agent and 0 to the others, ``infos[agent]["illegal"]`` true;
        with ``illegal="raise"`` it raises instead.

        Raises:
            AdapterError: ``adapter.illegal`` for an action the mask does not allow
                (``illegal="raise"``).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        episode = self._episode
        before = episode.game.scores
        assert action is not None
        number = int(action)
        if self.illegal == "terminate" and not (0 <= number < self.index.size and episode.mask()[number]):
            self._cumulative_rewards[agent] = 0
            self.rewards = dict.fromkeys(self.possible_agents, 0)
            self.rewards[agent] = self.illegal_reward
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos[agent] = {**self.infos[agent], "illegal": True}
            self._accumulate_rewards()
            return
        episode.apply_number(number)
        self._steps += 1
        after = episode.game.scores
        self._cumulative_rewards[agent] = 0
        self.rewards = {a: after[p] - before[p] for p, a in enumerate(self.possible_agents)}
        if episode.over:
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_steps is not None and self._steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[episode.game.current_player]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """``ansi``: one seat's view (``render_seat``, else the agent to act), as ``tysiac
        play`` shows it (scores, bids, trump, the trick, the hand, the legal cards);
        ``ansi_omniscient``: the engine's one-line state text, every hand shown; ``None``
        without a render mode."""
        episode = self._episode
        seat = self.render_seat if self.render_seat is not None else episode.game.current_player
        return render_text(self.render_mode, episode, seat)

    def close(self) -> None:
        """Nothing to release."""


raw_env = TysiacEnv
"""The bare environment, as PettingZoo's classic environments name it."""


def env(**kwargs: Any) -> AECEnv:
    """The wrapped environment, as PettingZoo's classic environments make it: ``raw_env(**kwargs)``
    in ``TerminateIllegalWrapper`` (an illegal action ends the episode with ``illegal_reward``,
    −1, to the offender; left out with ``illegal="raise"``, so the raw environment raises),
    ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``.

    Raises:
        as :class:`TysiacEnv`.
    """
    inner: AECEnv = TysiacEnv(**kwargs)
    if inner.illegal == "terminate":
        inner = wrappers.TerminateIllegalWrapper(inner, illegal_reward=inner.illegal_reward)
    inner = wrappers.AssertOutOfBoundsWrapper(inner)
    return wrappers.OrderEnforcingWrapper(inner)

