"""Rebuilding a game from its :class:`~tysiac_spec.engine.record.Record`.

:func:`start` makes the game a record begins with (its ruleset reloaded with the record's
options and player count, the content hash compared); :func:`replay` then re-applies every
action.  All randomness of a game comes from its seed, so the rebuilt game is the recorded
one, bit for bit, with the deals set by hand set again where the record says
(:func:`set_deals`).  This module sits above :mod:`~tysiac_spec.engine.game` and
:mod:`~tysiac_spec.engine.record`, which do not import it.
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import RecordError, TysiacError
from ..text import shorten
from .actions import Action, parse_action
from .deal_notation import Deal
from .game import Game
from .record import Record, loading_error, record_error, ruleset_of

__all__ = ["action_error", "deals_as_dealt", "replay", "set_deals", "start"]


def start(record: Record) -> Game:
    """A new game for ``record`` (before its actions): its ruleset reloaded with its options
    and player count, the hash checked (:func:`~.record.ruleset_of`), and the deals set by
    hand before the first action (``deals`` at 0) set again.

    Raises:
        RecordError: ``record.ruleset`` (the ruleset cannot be loaded with the record's
            options or player count; the loader's reason, cut to 400 characters),
            ``registry.outside`` (a ruleset file outside the record's folder, not read),
            ``record.hash`` (the ruleset changed since the record was made: both hashes
            are named), ``record.deal`` (a deal the game refuses), ``record.position`` (a
            ``position`` that is no position of the ruleset).
    """
    rules = ruleset_of(record)
    if record.position is None:
        try:
            game = Game(rules, players=record.players, seed=record.seed)
        except TysiacError as exc:
            raise loading_error(record.ruleset_file or record.ruleset, exc) from None
    else:  # a game started from a position (Game.from_position)
        try:
            game = Game.from_position(rules, record.position, seed=record.seed)
        except TysiacError as exc:
            d = exc.diagnostic
            raise record_error("position", f"`position` is not a position of the ruleset: {d.message} "
                               f"(column {d.column})", hint=d.hint) from None
        if game.players != record.players:
            raise record_error("position", f"`position` gives {game.players} hands for a game of "
                               f"{record.players} players")
    set_deals(game, record, 0)
    return game


def set_deals(game: Game, record: Record, at: int) -> None:
    """Set again the deals ``record`` set by hand before its action ``at`` (counted from 0).

    Raises:
        RecordError: ``record.deal``: the deal does not fit the ruleset (an unknown card, a
            wrong hand size, …), with the game's reason.
    """
    for i, (when, text) in enumerate(record.deals):
        if when != at:
            continue
        try:
            game.start_deal(text)
        except TysiacError as exc:
            reason = shorten(exc.diagnostic.message, 300)
            raise record_error("deal", f"`deals[{i}]` `{shorten(text)}` cannot be dealt: {reason}") from None


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
        if i and record.deals:
            set_deals(game, record, i)
        try:
            action = parse_action(text, game.ruleset.deck)
            if before is not None:
                before(game, action)
            game.apply(action)
        except TysiacError as exc:
            raise action_error(i, record, exc) from None
    if record.actions and record.deals:
        set_deals(game, record, len(record.actions))
    return game


def deals_as_dealt(record: Record) -> list[Deal]:
    """Every deal of ``record`` as it was dealt, in order, in deal notation
    (:meth:`Game.dealt <tysiac_spec.engine.game.Game.dealt>`; ``str()`` of each is its one
    line): the deal before the first action, and each deal begun since (a redeal, the next
    deal of the match), a golden-round deal with its talon as dealt.

    Raises:
        RecordError: as :func:`replay`.
    """
    out: list[Deal] = []
    seen: list[object] = []

    def note(game: Game, _action: Action | None = None) -> None:
        if not seen or game.deal is not seen[-1]:
            seen.append(game.deal)
            out.append(game.dealt())

    game = replay(record, before=note)
    note(game)
    return out
