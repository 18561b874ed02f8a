"""Match events: what happened in a match beyond the actions (contracts made or failed,
barrel entries and falls, bolts, forfeits, redeals, match rules that fired, table incidents
and revokes).

Events feed statistics (``tysiac simulate``), explanations (``tysiac score``) and
replays; they never drive the game.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MatchEvent"]


@dataclass(frozen=True, slots=True, init=False)
class MatchEvent:
    """One thing that happened in a match.

    ``deal`` is the 0-based number of the deal it belongs to; ``kind`` a dotted name;
    ``player`` the player concerned, if any; ``value`` an amount in points where one
    applies (the contract, a penalty, a new score); ``text`` a short explanation in
    English (``"555 → 0 (samosval)"``, ``"third bolt −120"``).

    Kinds emitted when a deal is settled (:func:`~tysiac_spec.engine.match.settle_deal`):
    ``contract.made`` / ``contract.failed`` (value: the contract), ``forfeit`` (value: the
    declarer's charge), ``multiplier`` (dark or golden deal), ``threshold.frozen`` (the 800
    rule withheld points), ``barrel.made``, ``barrel.attempt``, ``barrel.fall``,
    ``barrel.sitter``, ``barrel.frozen``, ``finish.capped``, ``finish.no_score``, ``bolt``
    (value: the player's bolts), ``bolt.penalty``, ``rule.<id>`` (a match rule fired;
    value: the new score), ``barrel.enter``, ``barrel.leave``, ``barrel.collision``, ``barrel.reset`` (the
    counted fall that sets the score to 0; value 0),
    ``golden.end``, ``golden.reset``, ``match.target`` (a tie raised the target; value: the
    new target), ``match.lost`` (a player at or below ``finishing.loss``; value: his score), ``match.won``
    (value: the winning score).  The
    engine adds ``cut.bad``, ``cut.penalty`` (value: minus the penalty), ``cut.skip`` (the
    dealer's deal skipped, ``deal.cut.then``), ``redeal``,
    ``redeal.play_on`` (a condition played on; value: the points the
    caller gains), ``incident.<kind>`` (a table incident, ``Game.incident``; value: minus the
    offender's penalty) and ``incident.gain`` (an opponent's share), ``revoke`` (a revoke
    played under ``play.revoke.handling: penalise``; value: minus the penalty due),
    ``revoke.penalty`` and ``revoke.gain`` (paid at the deal's end) and others for events
    inside a deal.
    """

    deal: int
    kind: str
    player: int | None = None
    value: int | None = None
    text: str = ""

    def __init__(self, deal: int, kind: str, player: int | None = None, value: int | None = None,
                 text: str = "") -> None:
        # (the fields set through their slots: a frozen dataclass's own __init__ calls
        # object.__setattr__ for each, which costs about half again; events are made every deal)
        _deal(self, deal)
        _kind(self, kind)
        _player(self, player)
        _value(self, value)
        _text(self, text)


_deal, _kind, _player, _value, _text = (MatchEvent.__dict__[f].__set__
                                        for f in ("deal", "kind", "player", "value", "text"))
