"""All-pass play (распасы, raspasy): a deal everyone passes played out without a declarer
(``auction.all_pass: play``, the rules in ``auction.all_pass_play``).

The auction ends with no declarer and the phase ``play`` (:func:`.auction.apply`); the game
then opens the deal here (:func:`start`): the talon's cards are dealt out to the active players
one at a time from the first after the dealer, or set aside for the last trick or for nobody
(``all_pass_play.talon``), and that first player leads.  The deal is played with no trump, no
marriage, no claim and the same duties for everyone: the form's play compiled once more from a
form with those switched off (:func:`compile_play`, kept in the
:class:`~.compiled.CompiledForm` as ``all_pass``).  Each active player then scores
``all_pass_play.score`` (context ``scoring.all_pass``, :func:`scores`), settled into the match
by :func:`.match.settle_all_pass`, which a real-table scoresheet calls too.

Source: mekedron/thousand (``core/rule_config.lua``, ``dealing.all_pass_handling: raspassy``;
``core/scoring.lua`` ``score_raspassy``: every seat loses its captured card points, rounded;
the talon distributed, the forehand leading; ``docs/variations/house-rules.md`` "All-pass
handling" names the fewest-tricks and most-tricks variants, which ``most_tricks`` and
``fewest_tricks`` let a formula write).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from ..cards import Card
from ..ruleset.model import AllPassPlay, Form
from . import env as envs
from . import play
from .actions import Action, ActionTable, PlayCard
from .scoring import AllPassOutcome, _recorded
from .state import DealState

__all__ = ["AllPassOutcome", "AllPassPlayRules", "compile_play", "outcome_of", "scores", "start"]

@dataclass(frozen=True, slots=True, eq=False)
class AllPassPlayRules:
    """The play of an all-pass deal of one form, compiled once (:func:`compile_play`)."""

    legal: Callable[[DealState], list[Action]]
    apply: Callable[[DealState, PlayCard], None]


def _plain_form(form: Form) -> Form:
    """``form`` with what all-pass play has not: no marriage (no suit has a value, no ace
    marriage, declared on a lead), no claim, the same duties for every player (no declarer's
    side), no lead rule after a marriage; the talon won with the last trick or by nobody as
    ``all_pass_play.talon`` says (dealt out, it is in the hands)."""
    rules = form.auction.all_pass_play
    assert rules is not None
    m = form.marriages
    leftover_to: Literal["last_trick", "nobody"] = "last_trick" if rules.talon == "last_trick" else "nobody"
    return replace(
        form,
        marriages=replace(
            m, values={}, declared_by="lead", ace_marriage=replace(m.ace_marriage, enabled=False)
        ),
        contract=replace(form.contract, claim_allowed=False),
        play=replace(
            form.play,
            duties_bind="everyone",
            defenders_may_discard=False,
            defenders_overtrump_declarer=False,
            lead_after_marriage="any",
        ),
        talon=replace(
            form.talon,
            exchange="none",
            leftover=replace(form.talon.leftover, to=leftover_to, discards_to="nobody"),
        ),
    )


def compile_play(form: Form, table: ActionTable, pack: Sequence[Card]) -> AllPassPlayRules | None:
    """The legal plays and the play of an all-pass deal under ``form`` (the shared action
    objects of ``table``); ``None`` when the form has no all-pass play (decided once per form)."""
    if form.auction.all_pass != "play" or form.auction.all_pass_play is None:
        return None
    plain = _plain_form(form)
    return AllPassPlayRules(play.compile_legal(plain, table, pack), play.compile_apply(plain))


def start(rules: AllPassPlay, deal: DealState) -> None:
    """Open the play of an all-pass deal (no declarer): the talons' cards dealt out one at a
    time to the active players from the first after the dealer (``deal_out``), or set aside
    (``deal.leftover``, for the last trick or nobody); the first player after the dealer leads."""
    cards = [c for t in deal.talons for c in t]
    deal.talons = []
    if rules.talon == "deal_out":
        order = deal.order
        for i, c in enumerate(cards):
            deal.hands[order[i % len(order)]].append(c)
        for p in order:
            deal.hands[p].sort(key=_index)
    else:
        deal.leftover += cards
    deal.trump = deal.pending_trump = None
    deal.phase, deal.current = "play", deal.order[0]


def _index(card: Card) -> int:
    return card.index


def outcome_of(deal: DealState) -> AllPassOutcome:
    """The :class:`AllPassOutcome` of a finished engine deal played without a declarer."""
    card_points = {p: sum(c.points for c in deal.won.get(p, ())) for p in deal.order}
    tricks = {p: deal.tricks.get(p, 0) for p in deal.order}
    return AllPassOutcome(
        card_points=card_points,
        tricks=tricks,
        players=tuple(deal.order),
        sitter=deal.sitter,
        won=deal.won,
        last_trick=deal.last_trick_winner,
    )


def scores(
    form: Form,
    outcome: AllPassOutcome,
    player_env: Callable[[int], Mapping[str, Any]],
    options: Mapping[str, Any],
) -> dict[int, int]:
    """Each player's score for an all-pass deal (points): ``all_pass_play.score`` for every
    active player, 0 for the sitter.

    Raises:
        MatchError: ``match.outcome`` — the formula reads ``won`` or ``last_trick`` and the
            outcome does not record it.
    """
    rules = form.auction.all_pass_play
    assert rules is not None
    score = rules.score.evaluator()
    reads = rules.score.reads
    active = outcome.active(form.players)
    counted = reads & {"tricks", "most_tricks", "fewest_tricks"}
    recorded = _recorded(outcome.tricks, min(counted)) if counted else outcome.tricks or {}
    tricks = {p: recorded.get(p, 0) for p in active}
    most, fewest = max(tricks.values(), default=0), min(tricks.values(), default=0)
    out: dict[int, int] = {}
    for p in active:
        won = tuple(_recorded(outcome.won, "won").get(p, ())) if "won" in reads else ()
        last = _recorded(outcome.last_trick, "last_trick") == p if "last_trick" in reads else False
        e = envs.scoring_all_pass(
            player_env(p), form.active, options, outcome.card_points.get(p, 0), tricks[p],
            most, fewest, won, last,
        )
        out[p] = int(score(e))
    if outcome.sitter is not None:
        out[outcome.sitter] = 0
    return out
