"""Rebuilding a game from its :class:`~tysiac_spec.engine.record.Record`.

:func:`start` makes the game a record begins with (its ruleset reloaded with the record's
options and player count, the content hash compared); :func:`replay` then re-applies every
action.  All randomness of a game comes from its seed, so the rebuilt game is the recorded
one, bit for bit.  This module sits above :mod:`~tysiac_spec.engine.game` and
:mod:`~tysiac_spec.engine.record`, which do not import it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..errors import Diagnostic, RecordError, TysiacError
from ..ruleset import load_ruleset, registry
from ..text import shorten
from .actions import Action, parse_action
from .game import Game
from .record import Record, record_error

__all__ = ["action_error", "replay", "start"]


def start(record: Record) -> Game:
    """A new game for ``record`` (before its actions): its ruleset reloaded with its options
    and player count, the hash checked.

    A ruleset named by a path in a record read from a file is looked up through
    :func:`~tysiac_spec.ruleset.registry.find` relative to the record's file, which refuses
    a file outside the record's folder (``registry.outside``).

    Raises:
        RecordError: ``record.ruleset`` (the ruleset cannot be loaded with the record's
            options or player count; the loader's reason, cut to 400 characters),
            ``registry.outside`` (a ruleset file outside the record's folder, not read),
            ``record.hash`` (the ruleset changed since the record was made: both hashes
            are named).
    """
    ref = record.ruleset_file or record.ruleset
    try:
        target: str | Path = ref
        if record.source is not None and registry.looks_like_path(ref):
            target = registry.find(ref, relative_to=record.source)
        rules = load_ruleset(target, options=dict(record.options))
        game = Game(rules, players=record.players, seed=record.seed)
    except TysiacError as exc:
        code = exc.diagnostic.code if exc.diagnostic.code == "registry.outside" else "record.ruleset"
        reason = shorten(exc.diagnostic.message, 400)
        message = f"the record's ruleset `{shorten(ref, 120)}` cannot be loaded: {reason}"
        raise RecordError(Diagnostic(code, message, hint=exc.diagnostic.hint)) from None
    if rules.content_hash != record.content_hash:
        raise record_error(
            "hash",
            f"ruleset `{rules.id}` has changed since the game was recorded: its content hash is "
            f"{rules.content_hash}, the record's is {shorten(record.content_hash)}",
            hint="replay with the ruleset file the game was played with",
        )
    return game


def action_error(index: int, record: Record, exc: TysiacError) -> RecordError:
    """The ``record.action`` error for the action ``record.actions[index]`` (0-based) that
    does not parse or is refused with ``exc``: ``action 3 of 40 `bid 5` cannot be replayed:
    <reason>``, the action counted from 1, its text cut to 60 characters and the engine's
    reason to 300 (in case it repeats a huge number)."""
    text = record.actions[index]
    reason = shorten(exc.diagnostic.message, 300)
    return record_error(
        "action",
        f"action {index + 1} of {len(record.actions)} `{shorten(text)}` cannot be replayed: {reason}",
    )


def replay(record: Record, *, before: Callable[[Game, Action], None] | None = None) -> Game:
    """Rebuild the game of ``record``: reload the ruleset, check it is the same, re-apply every
    action.

    ``before(game, action)``, when given, is called just before each action is applied (with
    the game as it stands), e.g. to let bots watch the game being rebuilt so that they are
    in the state they were in when the record was saved.

    Raises:
        RecordError: as :func:`start` (``record.ruleset``, ``registry.outside``,
            ``record.hash``), or ``record.action`` (an action that does not parse or is
            illegal: :func:`action_error`).
    """
    game = start(record)
    for i, text in enumerate(record.actions):
        try:
            action = parse_action(text, game.ruleset.deck)
            if before is not None:
                before(game, action)
            game.apply(action)
        except TysiacError as exc:
            raise action_error(i, record, exc) from None
    return game
