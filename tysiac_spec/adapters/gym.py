"""A single-agent Gymnasium environment: one seat learns, bots play the others (needs the
``[gymnasium]`` extra).

``env = TysiacGymEnv("pl-standard", players=3, seat=0, bots="heuristic")``, or by its
registered id: ``gymnasium.make("tysiac/pl-standard-3p-v0")``; importing this module
registers ``tysiac/<ruleset>-<n>p-v0`` for every shipped ruleset and player count
(:func:`shipped_forms`, read from the rulesets' files without loading them).

Spaces:
    action: ``Discrete(index.size)``, the form's fixed
    :class:`~tysiac_spec.adapters._core.ActionIndex` (``env.index.actions[i]`` is the action
    numbered ``i``).
    observation: ``Box(float32, (layout.size,))``, the learner's flat vector of
    :class:`~tysiac_spec.adapters._core.ObservationLayout` (seats relative to the learner:
    0 is the learner).  The legal actions are :meth:`TysiacGymEnv.action_masks` (a ``bool``
    array of ``index.size``, as sb3-contrib's ``MaskablePPO`` reads it) and
    ``info["action_mask"]`` (``int8``).

Steps: the learner's action is applied, then the bots play until the learner is to act
again or the episode ends (a deal, or a match: ``episode=``); at ``reset`` the bots play up to
the learner's first turn.  A deal episode in which the learner never acts (a 4-player form's
dealer sits out) is skipped: ``reset`` deals the next game.

Reward: the learner's change of match score (points) over the step, the bots' actions
included; an episode's rewards add up to :meth:`Episode.returns` of the learner (a deal
episode: the learner's score of the deal, :attr:`Game.deal_scores`).  An action the mask
does not allow ends the episode with the reward ``illegal_reward`` (−1) and
``info["illegal"] = True``; ``illegal="raise"`` raises ``adapter.illegal`` instead.

The game's seed comes from ``reset(seed=)`` (Gymnasium's ``np_random``); the named bots'
seeds from the game's (:func:`tysiac_spec.simulate.make_bots`), so one seed replays one
episode.  Bot objects passed in keep their own state and seeding.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots import Bot, illegal_action, raised_by, short_repr
from ..ruleset import Ruleset, registry
from ..ruleset._yaml import load_yaml_file
from ._core import (
    ActionIndex,
    Episode,
    adapter_error,
    check_choice,
    check_render_mode,
    load_form,
    observation_bounds,
    render_text,
)

__all__ = ["TysiacGymEnv", "register_shipped", "shipped_forms"]

BotSpec = str | Bot | Sequence[str | Bot]
"""The bots of the other seats: one name for them all (``heuristic``), a comma list or a
sequence of one name or :class:`~tysiac_spec.bots.Bot` object per other seat, in seat order,
or one object for them all."""

ILLEGAL = ("terminate", "raise")
"""What an action the mask does not allow does: end the episode (``terminate``, with the
reward ``illegal_reward``) or raise ``adapter.illegal``."""

_SKIP_LIMIT = 1000
"""Deals ``reset`` skips, at most, looking for one in which the learner acts."""


class TysiacGymEnv(gymnasium.Env[np.ndarray, np.int64]):
    """The single-agent environment (see the module docstring for spaces, steps and rewards).

    Args:
        ruleset: a shipped id or alias, a path, or a loaded :class:`Ruleset`.
        players: the player count (``None``: the ruleset's default).
        seat: the learner's seat (0 … players − 1).
        bots: the other seats' bots (:data:`BotSpec`): ``random``, ``heuristic``, a
            ``MODULE:NAME`` or ``file.py:NAME`` bot (:mod:`tysiac_spec.bots`), or objects with
            ``choose(view, legal)``.
        options: option values of the ruleset (as ``tysiac play -O``).
        episode: ``deal`` or ``match``.
        max_steps: truncate an episode after this many of the learner's steps (``None``: never).
        illegal: ``terminate`` or ``raise`` (:data:`ILLEGAL`).
        illegal_reward: the reward of an illegal action under ``terminate``.
        render_mode: ``None``, ``ansi`` (the learner's view, as ``tysiac play`` shows it) or
            ``ansi_omniscient`` (the engine's whole state, every hand: for debugging).

    Raises:
        RulesetError, OptionError: the ruleset cannot be loaded, or has no form for ``players``.
        AdapterError: ``adapter.seat``, ``adapter.episode``, ``adapter.illegal-mode``,
            ``adapter.render-mode`` or ``adapter.bots`` for a bad argument.
        BotError: a bot name that cannot be used.
    """

    metadata = {"render_modes": ["ansi", "ansi_omniscient"]}  # noqa: RUF012 (Gymnasium's own name)

    def __init__(
        self,
        ruleset: str | Ruleset = "pl-standard",
        players: int | None = None,
        *,
        seat: int = 0,
        bots: BotSpec = "random",
        options: Mapping[str, Any] | None = None,
        episode: str = "deal",
        max_steps: int | None = None,
        illegal: str = "terminate",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        self.rules, self.players = load_form(ruleset, players, options)
        if not 0 <= seat < self.players:
            raise adapter_error("seat", f"seat must be 0 to {self.players - 1} (got {seat!r})")
        check_choice("illegal-mode", "illegal", illegal, ILLEGAL)
        check_render_mode(render_mode, self.metadata["render_modes"])
        self.seat, self.episode_kind, self.max_steps = seat, episode, max_steps
        self.illegal, self.illegal_reward, self.render_mode = illegal, float(illegal_reward), render_mode
        self.index = ActionIndex(self.rules, self.players)
        self._episode = Episode(self.rules, self.players, 0, episode, self.index)  # checks `episode`
        self.layout = self._episode.layout
        self._names, self._objects = self._bot_spec(bots)
        self._bots: list[Bot | None] = [None] * self.players
        self.observation_space = spaces.Box(*observation_bounds(self.layout), dtype=np.float32)
        self.action_space = spaces.Discrete(self.index.size)
        self._steps = 0
        self._ended = True

    def _bot_spec(self, bots: BotSpec) -> tuple[list[str], dict[int, Bot]]:
        """The seat list for :func:`~tysiac_spec.simulate.make_bots` (the learner's seat holds
        ``random``, never asked) and the bot objects by seat."""
        others = [p for p in range(self.players) if p != self.seat]
        if isinstance(bots, str):
            parts: Sequence[str | Bot] = [b.strip() for b in bots.split(",")]
        elif callable(getattr(bots, "choose", None)):
            parts = [bots]  # type: ignore[list-item]
        else:
            parts = list(bots)  # type: ignore[arg-type]
        if len(parts) == 1:
            parts = list(parts) * len(others)
        if len(parts) != len(others):
            raise adapter_error("bots", f"bots: {len(parts)} given for the {len(others)} other seats "
                                        "(give one, or one per other seat)")
        names, objects = ["random"] * self.players, {}
        for p, part in zip(others, parts, strict=True):
            if isinstance(part, str):
                names[p] = part
            elif callable(getattr(part, "choose", None)):
                objects[p] = part
            else:
                raise adapter_error("bots", f"bots: {short_repr(part)} is neither a bot name nor an "
                                            "object with choose(view, legal) (the Bot protocol)")
        from ..simulate import make_bots

        make_bots(",".join(names), self.rules, self.players, 0)  # a bad name fails here, not at reset
        return names, objects

    # ------------------------------------------------------------------ the Gymnasium API

    @property
    def game(self) -> Any:
        """The engine's :class:`~tysiac_spec.engine.game.Game` of the current episode."""
        return self._episode.game

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learner now (``bool``, shape ``(index.size,)``; all false
        once the episode has ended): what sb3-contrib's ``MaskablePPO`` calls."""
        if self._ended:
            return np.zeros(self.index.size, bool)
        return self._episode.mask().astype(bool)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start an episode and play the bots up to the learner's first turn; returns the
        learner's observation and ``info`` (``action_mask``)."""
        super().reset(seed=seed)
        from ..simulate import make_bots

        for _ in range(_SKIP_LIMIT):
            game_seed = int(self.np_random.integers(0, 2**31 - 1))
            self._episode = Episode(self.rules, self.players, game_seed, self.episode_kind, self.index)
            made = make_bots(",".join(self._names), self.rules, self.players, game_seed)
            self._bots = [self._objects.get(p, bot) for p, bot in enumerate(made)]
            self._play_bots()
            if not self._episode.over:
                break
        else:
            raise adapter_error("no-turn", f"seat {self.seat} acted in none of {_SKIP_LIMIT} deals")
        self._steps, self._ended = 0, False
        return self._observe(), self._info()

    def step(self, action: np.int64 | int) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        """Apply the learner's action numbered ``action``, then the bots' up to the learner's
        next turn; returns ``(observation, reward, terminated, truncated, info)``.

        Raises:
            AdapterError: ``adapter.illegal`` for an action the mask does not allow, with
                ``illegal="raise"``; ``adapter.ended`` for a step after the episode ended.
        """
        if self._ended:
            raise adapter_error("ended", "step() after the episode ended: call reset()")
        episode = self._episode
        before = episode.game.scores[self.seat]
        number = int(action)
        if not (0 <= number < self.index.size and self._episode.mask()[number]):
            if self.illegal == "raise":
                episode.apply_number(number)  # raises adapter.illegal with the engine's words
            self._ended = True
            return self._observe(), self.illegal_reward, True, False, {**self._info(), "illegal": True}
        episode.apply_number(number)
        self._steps += 1
        self._play_bots()
        reward = float(episode.game.scores[self.seat] - before)
        terminated = episode.over
        truncated = not terminated and self.max_steps is not None and self._steps >= self.max_steps
        self._ended = terminated or truncated
        return self._observe(), reward, terminated, truncated, self._info()

    def render(self) -> str | None:
        """``ansi``: the learner's view as ``tysiac play`` shows it (scores, bids, trump, the
        trick, the hand, the legal cards); ``ansi_omniscient``: the engine's one-line state
        text, every hand shown; ``None`` without a render mode."""
        return render_text(self.render_mode, self._episode, self.seat)

    # ------------------------------------------------------------------ inside

    def _play_bots(self) -> None:
        """The bots' actions until the learner is to act or the episode is over.

        Raises:
            BotActionError, BotRaisedError: a bot returned an action that is not legal, or
                raised (as in ``tysiac simulate``).
        """
        episode = self._episode
        while not episode.over and episode.game.current_player != self.seat:
            player = episode.game.current_player
            legal = episode.legal()
            bot = self._bots[player]
            assert bot is not None
            try:
                chosen = bot.choose(episode.game.view(player), legal)
            except Exception as exc:
                raise raised_by(bot, player, self._bot_name(player), exc) from None
            if chosen not in legal:
                raise illegal_action(player, self._bot_name(player), short_repr(chosen),
                                     type(chosen).__name__, len(legal))
            episode.apply(chosen)

    def _bot_name(self, player: int) -> str:
        bot = self._objects.get(player)
        return type(bot).__name__ if bot is not None else self._names[player]

    def _observe(self) -> np.ndarray:
        return self._episode.observe(self.seat)

    def _info(self) -> dict[str, Any]:
        mask = self.action_masks().astype(np.int8)
        return {"action_mask": mask, "game_seed": self._episode.seed}


# ---------------------------------------------------------------------- registration


@cache
def shipped_forms() -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Every shipped ruleset that can be played (not a ``base``) with its player counts,
    read from the files' ``players:`` keys and their ``extends`` (a ``{$delete: true}`` form
    removed) without loading the rulesets; ``tests/test_gym.py`` checks it against the loaded
    rulesets."""
    entries = {e.id: e for e in registry.entries()}

    @cache
    def counts(rid: str) -> frozenset[int]:
        entry = entries[rid]
        doc = load_yaml_file(entry.path)
        own = doc.get("players") if isinstance(doc, dict) else None
        out: set[int] = set()
        for parent in entry.extends:
            if parent in entries:
                out |= counts(parent)
        for key, value in (own or {}).items():
            if isinstance(value, dict) and value.get("$delete") is True:
                out.discard(int(key))
            else:
                out.add(int(key))
        return frozenset(out)

    return tuple((e.id, tuple(sorted(counts(e.id)))) for e in entries.values() if e.kind != "base")


def register_shipped() -> list[str]:
    """Register ``tysiac/<ruleset>-<n>p-v0`` with :func:`gymnasium.register` for every
    shipped form (entry point :class:`TysiacGymEnv`; ``gymnasium.make(id, bots=..., seat=...)``
    passes the other arguments); the ids.  Done when the module is imported."""
    ids = []
    for rid, counts in shipped_forms():
        for n in counts:
            env_id = f"tysiac/{rid}-{n}p-v0"
            if env_id not in gymnasium.registry:
                gymnasium.register(id=env_id, entry_point=f"{__name__}:TysiacGymEnv",
                                   kwargs={"ruleset": rid, "players": n})
            ids.append(env_id)
    return ids


register_shipped()
