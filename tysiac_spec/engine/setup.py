"""Setting a game at a chosen point: a starting match state (:func:`set_match_state`), a
stacked deal (:func:`start_deal`) and a position (:func:`from_position`, which probes every
legal action on a copy before it hands the game over).  :class:`~.game.Game`'s methods of the
same names: the first two are the methods themselves (assigned in its class body, so their
signatures and docstrings here are the public ones), ``Game.from_position`` calls the third.
They change the game only through its own attributes and its deal-starting method
(``Game._new_deal``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Unpack

from ..errors import Diagnostic, IllegalActionError, MatchError, NotationError, TysiacError
from ..ruleset import Ruleset
from ..text import shorten
from .deal_notation import Deal, misfit
from .match_state import MatchValues
from .position import Position

Game = Any
"""A :class:`~.game.Game` (named, not imported: the game imports this module)."""

__all__ = ["from_position", "probe", "set_match_state", "start_deal"]


def set_match_state(game: Game, **values: Unpack[MatchValues]) -> None:
    """Set a starting match state (scenarios, tests); ``values`` are the keywords of
    :class:`~.match_state.MatchValues`, each optional: ``scores``, ``counters``, ``dealer``,
    ``barrel``, ``forfeits``, ``bolts``, ``golden``, ``falls`` — lists by player, counters as
    ``{name: [per player]}``, ``barrel`` per player ``true``/``false`` or failed attempts,
    ``golden`` the golden-round deals left (0: no golden round), ``falls`` the falls from the
    barrel counted towards ``barrel.falls_reset``.

    The current deal is restarted with the same cards (with a new dealer: dealt anew), so
    that the auction sees the new state; allowed only before its first action.

    Raises:
        MatchError: ``match.state`` — wrong list lengths, an unknown counter, a dealer outside
            the table, the barrel in a ruleset without one
            (:meth:`.MatchState.with_values`), or the current deal already under way.
        TypeError: a keyword that is not a match value.
    """
    new = game._match.with_values(game.form, **values)
    dealer = values.get("dealer")
    deal = game.deal if hasattr(game, "deal") else None
    started = deal is not None and deal.actions > 0
    if started and not game._over:
        raise MatchError(
            Diagnostic("match.state", "the match state can only be set before the deal's first action")
        )
    game._match = new
    game._over = new.winner is not None
    if deal is None or game._over:
        return
    if dealer is not None and dealer != game._dealer:
        game._dealer = dealer
        game.deal = game._new_deal()
    else:
        hands = {p: list(h) for p, h in deal.hands.items()}
        game.deal = game._new_deal(hands, [list(t) for t in deal.talons], list(deal.stock))


def start_deal(
    game: Game,
    deal: Deal | str | None = None,
    *,
    hands: Mapping[int, str | Sequence[str]] | None = None,
    talons: Sequence[str | Sequence[str]] = (),
    dealer: int = 0,
    stock: str | Sequence[str] = (),
) -> None:
    """Replace the current deal by a stacked one (tests, scenarios, ``tysiac play --deal``):
    ``hands`` by player, ``talons`` in order, and the ``stock`` (``table.stock``) from its top
    to its face-up bottom card, cards in notation (``"QH KH 9S"``); or the whole deal as a
    :class:`~.deal_notation.Deal` or its one-line text (``"0:AS KS … | 9C TC JC"``), in place
    of the keywords.

    The deal is kept (:attr:`.Game.stacked_deals`) with the number of actions applied before
    it, so that the game's :attr:`.Game.record` replays it exactly.

    Raises:
        NotationError: a card that is not in the deck; ``notation.deal`` for a deal text that
            is not deal notation (with its column).
        IllegalActionError: ``deal.stack`` — wrong hand or talon sizes, a repeated or missing
            card, or a hand for a player who does not take part.
    """
    deck = game.ruleset.deck
    players = game.players
    if deal is not None:
        if hands is not None or talons or stock or dealer:
            raise IllegalActionError(Diagnostic(
                "deal.stack", "stacked deal: give the deal or its hands and talons, not both"))
        written = deal if isinstance(deal, Deal) else Deal.parse(deal, deck)
        if len(written.hands) != players:
            raise IllegalActionError(Diagnostic(
                "deal.stack", f"stacked deal: the deal gives {len(written.hands)} hand(s) for a "
                f"{players}-player game (one per seat, `-` for a seat dealt none)"))
        args = written.start_args(deck)
        hands, talons, dealer, stock = (
            args["hands"], args["talons"], args["dealer"], args["stock"])  # type: ignore[assignment]
        if not 0 <= dealer < players:
            raise IllegalActionError(Diagnostic(
                "deal.stack", f"stacked deal: dealer {dealer} is not a seat (0 to {players - 1})"))
    if hands is None:
        raise IllegalActionError(Diagnostic("deal.stack", "stacked deal: no hands given"))
    game._dealer = dealer % players
    order, _ = game._seating(game._dealer)
    parsed = {p: list(deck.parse_many(h)) for p, h in hands.items()}
    tparsed = [list(deck.parse_many(t)) for t in talons]
    sparsed = list(deck.parse_many(stock))
    problem = misfit(game.form, len(deck.cards), order, parsed, tparsed, sparsed)
    if problem:
        raise IllegalActionError(Diagnostic("deal.stack", f"stacked deal: {problem}"))
    written = Deal.of(game._dealer, parsed, tparsed, sparsed, players=players)
    game.stacked_deals = (*game.stacked_deals, (len(game.history), written))
    game._over = False
    game.deal = game._new_deal(parsed, tparsed, sparsed)


def from_position(cls: Any, ruleset: Ruleset, position: Position | str, *, seed: int = 0) -> Game:
    """:meth:`.Game.from_position`: a game of class ``cls`` set at ``position``, probed
    (:func:`probe`).

    Raises:
        NotationError: ``notation.position`` (and ``notation.card``, ``notation.deal``).
    """
    text = str(position)
    written = Position.parse(text, ruleset, position.players if isinstance(position, Position) else None)
    game = cls(ruleset, players=written.players, seed=seed)
    game.events, game.passed_out, game.start_position = [], 0, written
    game.deal, game._match = written.state(game.form, ruleset.deck, game.compiled, game._options)
    game._dealer = game.deal.dealer
    game._over = game._match.winner is not None or game.deal.phase == "over"
    game._legal_deal = None
    if game._kinds and game.deal.kind is not None:  # (contract.kinds) the deal's kind's play
        game._point_play(game._kinds.get(game.deal.kind))
    probe(game)
    return game


def probe(game: Game) -> None:
    """Refuse a position the engine cannot go on from (the last safety net of
    :func:`from_position`, after :meth:`.Position.parse`'s checks): list the legal actions
    and apply each to a copy; an engine failure other than a
    :class:`~tysiac_spec.errors.TysiacError` is refused.

    Raises:
        NotationError: ``notation.position``, naming the step that failed.
    """
    try:
        actions = game.legal_actions()
    except TysiacError:
        return  # (a clear error: the engine's own word, raised again when the game is played)
    except Exception as exc:
        raise _unplayable("listing the legal actions", exc) from None
    for action in actions:
        try:
            game.clone().apply(action)
        except TysiacError:
            continue  # (the engine's own word, raised again when the action is played)
        except Exception as exc:
            raise _unplayable(f"`{action}`", exc) from None


def _unplayable(step: str, exc: Exception) -> NotationError:
    return NotationError(Diagnostic(
        "notation.position",
        f"the engine cannot go on from this position: {step} fails "
        f"({type(exc).__name__}: {shorten(str(exc)) or 'no message'})",
        line=1, column=1))
