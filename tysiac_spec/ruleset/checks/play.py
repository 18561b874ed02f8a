"""The play's checks: duties that change nothing (``play.inert-duty``) and revokes
(``play.revoke-penalty``, ``play.inert-revoke``)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ...errors import Diagnostic
from .._yaml import is_mapping
from .base import Form, check, defaults, diag, get


@check("play.inert-duty")
def inert_duty(form: Form) -> Iterator[Diagnostic]:
    """The play duties that would change nothing (``play``, :mod:`...engine.play`): a
    highest-card duty with no duty to narrow, whom the duties bind with no duty to bind, a
    defender's discard with no overtrump duty, a lead after a marriage or a defender's duty
    to beat the declarer's trump with no trump."""
    play = form.sections.get("play") or {}
    marriages = form.sections.get("marriages") or {}

    def value(section: Mapping[str, Any], cls: str, *fld: str) -> Any:
        got = get(section, *fld)
        return defaults(cls, fld[-1]) if got is None and len(fld) == 1 else got

    must_beat = value(play, "Play", "must_beat")
    must_trump = value(play, "Play", "must_trump")
    must_overtrump = value(play, "Play", "must_overtrump") and must_trump
    inert: list[tuple[str, str]] = []
    if value(play, "Play", "beat_with_highest") and must_beat == "no":
        inert.append(("beat_with_highest", "`play.must_beat` is `no` (no duty to beat)"))
    if value(play, "Play", "trump_with_highest") and not must_trump:
        inert.append(("trump_with_highest", "`play.must_trump` is off (no duty to trump)"))
    bound = must_beat != "no" or must_overtrump or value(play, "Play", "trump_with_highest")
    if value(play, "Play", "duties_bind") != "everyone" and not bound:
        inert.append(("duties_bind", "there is no beat, overtrump or highest-trump duty to bind"))
    if value(play, "Play", "defenders_may_discard") and (
        not must_overtrump
        or value(play, "Play", "cannot_overtrump") == "any_card"
        or value(play, "Play", "duties_bind") == "declarer"
    ):
        inert.append(
            (
                "defenders_may_discard",
                "a defender never has to overtrump, or may already play any card "
                "(`play.must_overtrump`, `play.cannot_overtrump`, `play.duties_bind`)",
            )
        )
    sets_trump = value(marriages, "Marriages", "sets_trump")
    aces_trump = get(marriages, "ace_marriage", "enabled") and get(marriages, "ace_marriage", "sets_trump")
    if value(play, "Play", "lead_after_marriage") != "any" and not sets_trump and not aces_trump:
        inert.append(("lead_after_marriage", "no marriage sets trump (`marriages.sets_trump`)"))
    if value(play, "Play", "defenders_overtrump_declarer") and not sets_trump and not aces_trump:
        inert.append(("defenders_overtrump_declarer", "no marriage sets trump (`marriages.sets_trump`)"))
    for fld, why in inert:
        yield diag(
            "play.inert-duty",
            f"`play.{fld}` changes nothing: {why}",
            form.doc,
            form.where("play", fld),
        )


@check("play.revoke-penalty")
def revoke_penalty(form: Form) -> Iterator[Diagnostic]:
    """A revoke played and punished (``play.revoke.handling: penalise``,
    :meth:`...engine.game.Game.playable_actions`) needs a penalty."""
    revoke = form.rule("play", "revoke")
    if not is_mapping(revoke):
        return
    if get(revoke, "handling") == "penalise" and get(revoke, "penalty") is None:
        yield diag(
            "play.revoke-penalty",
            "`play.revoke.handling` is `penalise`, but `play.revoke.penalty` is not set",
            form.doc,
            (*form.where("play", "revoke"), "handling"),
        )


@check("play.inert-revoke")
def inert_revoke(form: Form) -> Iterator[Diagnostic]:
    """With revokes refused, ``play.revoke``'s other fields change nothing, nor does a ``to``
    without a penalty."""
    revoke = form.rule("play", "revoke")
    if not is_mapping(revoke):
        return
    path = form.where("play", "revoke")
    penalise = get(revoke, "handling") == "penalise"
    penalty = get(revoke, "penalty")
    if not penalise:
        for fld in ("penalty", "to", "exempt_lead_rule"):
            if get(revoke, fld) is not None:
                yield diag(
                    "play.inert-revoke",
                    f"`play.revoke.{fld}` is set, but revokes are refused (`play.revoke.handling: "
                    "refuse`)",
                    form.doc,
                    (*path, fld),
                )
    elif (get(revoke, "to") or "none") != "none" and penalty is None:
        yield diag(
            "play.inert-revoke",
            "`play.revoke.to` hands the penalty on, but there is no `play.revoke.penalty`",
            form.doc,
            (*path, "to"),
        )


@check("marriages.before-play")
def before_play_trick(form: Form) -> Iterator[Diagnostic]:
    """Marriages declared only before the first trick (``marriages.declared_by:
    before_play``) that need a won trick first (``requires_won_trick``, or the ace
    marriage's): nobody has won a trick then, so none could ever be declared."""
    marriages = form.sections.get("marriages") or {}
    if get(marriages, "declared_by") != "before_play":
        return
    needs = get(marriages, "requires_won_trick")
    if needs is None:
        needs = defaults("Marriages", "requires_won_trick")
    if needs:
        yield diag(
            "marriages.before-play",
            "`marriages.declared_by` is `before_play`, but `marriages.requires_won_trick` is on: "
            "before the first trick nobody has won one, so no marriage could ever be declared",
            form.doc,
            form.where("marriages", "declared_by"),
            "set `marriages.requires_won_trick: false`, or declare marriages by a lead",
        )
    ace = get(marriages, "ace_marriage") or {}
    if is_mapping(ace) and get(ace, "enabled") and get(ace, "requires_won_trick") is not False and (
        get(ace, "requires_won_trick") or defaults("AceMarriage", "requires_won_trick")
    ):
        yield diag(
            "marriages.before-play",
            "`marriages.declared_by` is `before_play`, but `marriages.ace_marriage.requires_won_trick` "
            "is on: the ace marriage could never be declared",
            form.doc,
            form.where("marriages", "ace_marriage", "enabled"),
        )
