"""Table incidents and revokes: the mistakes a real table calls, and what they cost
(``deal.incidents``, ``play.revoke``).

Pure functions of the form and the deal; :meth:`.game.Game.incident` and the game's refusal of
an illegal card apply what they decide (the events, the payments through
:func:`.match.charge_seat`, the redeal).

- :func:`incident_rule`: the rule for an incident called against a player, or the reason it
  cannot be called (``incident.refused``);
- :func:`penalty`: a penalty formula (context ``deal.incident``) for the offender;
- :func:`gainers`: who gains when a player pays (``to``: ``opponents``, ``opponents_share``);
- :func:`payments`: who pays and gains what for a penalty (the game's and the scoresheet's);
- :func:`penalty_of`: a penalty formula over the facts a table knows (the scoresheet's);
- :func:`revoke_of`: whether a card not legal is a revoke to be played and punished.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..cards import Card
from ..errors import Diagnostic, IllegalActionError
from ..ruleset.model import Form, Revoke
from ..ruleset.model import Incident as IncidentRule
from . import env as envs
from . import play
from .actions import Action, PlayCard
from .seating import side_of
from .state import DealState

__all__ = ["gainers", "incident_rule", "payments", "penalty", "penalty_of", "revoke_of"]

Env = Callable[[int], Mapping[str, Any]]


def incident_rule(
    form: Form, deal: DealState, kind: str, player: int | None, *, over: bool, hint: str = ""
) -> tuple[IncidentRule, int]:
    """The ruleset's rule for the incident ``kind`` called against ``player`` in ``deal``, and
    the offender (the dealer for a rule with ``who: dealer``, ``None`` naming him).

    Raises:
        IllegalActionError: ``incident.refused`` (with ``hint``, the state text) — a player that
            is not an int (``True``, ``"1"``), the match ``over``, a kind the ruleset does not
            list, a player who is not active in the deal, or another player than the dealer
            for a rule charging the dealer.
    """
    rules: dict[str, IncidentRule] = {r.kind: r for r in form.deal.incidents}
    rule = rules.get(kind)
    problem = ""
    if player is not None and (isinstance(player, bool) or not isinstance(player, int)):
        raise IllegalActionError(Diagnostic(
            "incident.refused",
            f"`incident {kind}` cannot be called: the player must be a seat number, an int "
            f"(got {type(player).__name__} {player!r})",
        ))
    if over:
        problem = "the match is over"
    elif rule is None:
        listed = ", ".join(f"`{k}`" for k in rules) or "none"
        problem = f"the ruleset has no rule for it (`deal.incidents` lists {listed})"
    elif rule.who == "dealer":
        if player is None:
            player = deal.dealer
        elif player != deal.dealer:
            problem = f"it is charged to the dealer, player {deal.dealer} (`who: dealer`)"
    elif player is None:
        problem = "name the player who committed it"
    if not problem and player not in deal.order:
        problem = f"player {player} does not take part in the deal (active: {sorted(deal.order)})"
    if problem or rule is None or player is None:
        raise IllegalActionError(
            Diagnostic(
                "incident.refused",
                f"`incident {kind}{'' if player is None else f' {player}'}` cannot be called: {problem}",
                hint=hint,
            )
        )
    return rule, player


def penalty(
    formula: Callable[[Mapping[str, Any]], Any] | None, deal: DealState, player: int, env: Env
) -> int:
    """The penalty ``formula`` (context ``deal.incident``; ``None``: 0) for ``player`` in
    ``deal``: his hand, the high bid, the contract and whether he is the declarer, over his
    formula base ``env(player)``."""
    return penalty_of(formula, env(player), tuple(deal.hands[player]), deal.high_bid, deal.contract,
                      player == deal.declarer)


def penalty_of(
    formula: Callable[[Mapping[str, Any]], Any] | None, base: Mapping[str, Any], hand: Sequence[Card],
    bid: int, contract: int, declarer: bool,
) -> int:
    """The penalty ``formula`` (context ``deal.incident``; ``None``: 0) over the offender's
    formula ``base`` (:func:`.env.base`), his ``hand``, the high ``bid``, the ``contract`` and
    whether he is the ``declarer``: the one evaluation, for the game (:func:`penalty`) and the
    scoresheet (which knows no hand: it passes none)."""
    if formula is None:
        return 0
    amount: int = formula(envs.deal_incident(base, tuple(hand), bid, contract, declarer))
    return amount


def gainers(form: Form, deal: DealState, player: int) -> list[int]:
    """Who gains when ``player`` pays a penalty to his opponents: the defenders of a declarer,
    the declarer of a defender, every other active player with no declarer yet; with fixed
    partnerships each other side once, its lowest seat standing for it (the side's score is
    one)."""
    return _gainers(form, deal.declarer, deal.order, player)


def _gainers(form: Form, declarer: int | None, order: Sequence[int], player: int) -> list[int]:
    if declarer is None or player == declarer:
        out = [p for p in order if p != player]
    else:
        out = [declarer]
    mine = side_of(form, player)
    if len(mine) > 1:  # fixed partnerships: the other sides gain, one seat standing for each
        others = {side_of(form, p) for p in order if p not in mine}
        out = [team[0] for team in sorted(others)]
    return out


def payments(
    form: Form, declarer: int | None, order: Sequence[int], player: int, amount: int, to: str
) -> list[tuple[int, int]]:
    """Who loses what when ``player`` pays ``amount`` (points) under ``to`` (``none``,
    ``opponents``: each opponent gains the whole of it, ``opponents_share``: equal shares
    rounded down), in a deal of the active players ``order`` with ``declarer`` (``None``: no
    declarer yet): ``[(player, amount), (gainer, -gain), …]``, the gainers as
    :func:`gainers` names them.  The one statement, for the game and the scoresheet."""
    out = [(player, amount)]
    if to == "none" or not amount:
        return out
    gaining = _gainers(form, declarer, order, player)
    gain = amount if to == "opponents" else amount // len(gaining)
    return out + [(p, -gain) for p in gaining]


def revoke_of(
    form: Form, revoke: Revoke, deal: DealState, action: Action, legal: Sequence[Action], env: Env
) -> tuple[int, Card, int, str] | None:
    """Whether ``action``, not legal, is a revoke to be played (``play.revoke.handling:
    penalise``): the plain play of a card in hand that no legal action plays, in the play
    phase, following a trick (or leading, when ``exempt_lead_rule`` is false).  If so, the
    player, the card, the penalty (``revoke.penalty``, paid at the deal's end) and why the card
    was not legal; else ``None``."""
    if deal.phase != "play" or type(action) is not PlayCard or action.marriage or action.aces:
        return None
    player, card = deal.current, action.card
    if card not in deal.hands[player] or (not deal.trick and revoke.exempt_lead_rule):
        return None
    if any(type(a) is PlayCard and a.card == card for a in legal):
        return None  # the card is legal, as another action (a marriage declared with it)
    amount = penalty(revoke.penalty, deal, player, env)
    return player, card, amount, play.explain(form, deal, action)
