"""The match's checks (``match.threshold``, ``match.loss``, ``match.target-tied``), the special rules'
(``special.golden-dark``), and those of the lists of rules with ids or kinds
(``rule.duplicate-id``, ``deal.incident-twice``, ``deal.incident-inert``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...errors import Diagnostic, format_path
from .._convert import unwrap
from .._yaml import is_mapping
from .base import Form, check, defaults, diag, get


def _target(form: Form) -> Any:
    """``match.target``, or its default."""
    return form.rule("match", "target") or defaults("MatchRules", "target")


@check("match.threshold")
def threshold(form: Form) -> Iterator[Diagnostic]:
    """A threshold that is on (``match.threshold``, ``special.barrel``) at or above the
    target."""
    match = form.sections.get("match") or {}
    special = form.sections.get("special") or {}
    target = _target(form)
    for path, value in (
        (("match", "threshold", "score"), get(match, "threshold", "score")),
        (("special", "barrel", "threshold"), get(special, "barrel", "threshold")),
    ):
        enabled = get(form.sections, path[0], path[1], "enabled")
        if enabled and isinstance(value, int) and value >= target:
            yield diag(
                "match.threshold",
                f"`{format_path(path)}` is {value}, not below the target {target}",
                form.doc,
                form.where(*(str(p) for p in path)),
            )


@check("special.golden-dark")
def golden_dark(form: Form) -> Iterator[Diagnostic]:
    """``special.golden_round.dark_allowed`` with no golden round or no dark game, here or
    switched on by an option, or with ``golden_round.auction`` (the deal is bid for)."""
    special = form.sections.get("special") or {}

    def may_be_on(part: str) -> bool:
        """Whether ``special.<part>.enabled`` is on here or an option may switch it on."""
        if get(special, part, "enabled"):
            return True
        options = get(form.doc, "options") or {}
        return is_mapping(options) and any(
            get(patch, "special", part, "enabled")
            for option in options.values()
            for patch in ((get(option, "set") or {}).values() if is_mapping(get(option, "set")) else ())
        )

    if get(special, "golden_round", "dark_allowed") and get(special, "golden_round", "auction"):
        yield diag(
            "special.golden-dark",
            "`special.golden_round.dark_allowed` changes nothing with `special.golden_round.auction`: "
            "a golden deal bid for has no declarer to declare it dark before its auction",
            form.doc,
            form.where("special", "golden_round", "dark_allowed"),
            "drop one of the two fields",
        )
    elif get(special, "golden_round", "dark_allowed") and not (
        may_be_on("golden_round") and may_be_on("dark")
    ):
        yield diag(
            "special.golden-dark",
            "`special.golden_round.dark_allowed` changes nothing: "
            + ("there is no golden round" if not may_be_on("golden_round") else "there is no dark game")
            + " (`special.golden_round.enabled`, `special.dark.enabled`, here or by an option)",
            form.doc,
            form.where("special", "golden_round", "dark_allowed"),
            "switch on both the golden round and the dark game, or drop the field",
        )


@check("match.loss")
def loss(form: Form) -> Iterator[Diagnostic]:
    """``match.finishing.loss`` at or above the target (every winner would also lose)."""
    target = _target(form)
    value = get(form.sections.get("match") or {}, "finishing", "loss")
    if isinstance(value, int) and not isinstance(value, bool) and value >= target:
        yield diag(
            "match.loss",
            f"`match.finishing.loss` is {value}, not below the target {target}: every winner would "
            "also lose",
            form.doc,
            form.where("match", "finishing", "loss"),
            "write the losing score below the target, usually minus the target (-1000)",
        )


@check("rule.duplicate-id")
def duplicate_id(form: Form) -> Iterator[Diagnostic]:
    """Two counters, match rules, redeal conditions or named contracts sharing an id."""
    for section, fld in (
        ("match", "counters"), ("match", "rules"), ("deal", "redeals"), ("contract", "kinds")
    ):
        items = get(form.sections, section, fld, default=[]) or []
        seen: set[str] = set()
        for i, item in enumerate(items):
            ident = get(item, "id")
            if ident in seen:
                yield diag(
                    "rule.duplicate-id",
                    f"`{section}.{fld}` has two entries with id `{ident}`",
                    form.doc,
                    (*form.where(section, fld), i, "id"),
                )
            seen.add(ident)


def _incidents(form: Form) -> Iterator[tuple[int, Any, Any]]:
    """Every table incident rule (``deal.incidents``, :meth:`...engine.game.Game.incident`):
    its index, its document and its path."""
    for i, item in enumerate(form.rule("deal", "incidents") or []):
        yield i, item, (*form.where("deal", "incidents"), i)


@check("deal.incident-twice")
def incident_twice(form: Form) -> Iterator[Diagnostic]:
    """Two rules for one kind of table incident."""
    kinds: dict[str, int] = {}
    for i, item, path in _incidents(form):
        kind = get(item, "kind")
        if kind in kinds:
            yield diag(
                "deal.incident-twice",
                f"`deal.incidents` has two rules for the incident `{kind}` "
                f"(entries {kinds[kind]} and {i}, counted from 0)",
                form.doc,
                (*path, "kind"),
            )
        kinds.setdefault(kind, i)


@check("deal.incident-inert")
def incident_inert(form: Form) -> Iterator[Diagnostic]:
    """A table incident's field that changes nothing: a ``dealer`` for an incident that is
    played on, a ``to`` with no ``penalty``."""
    for i, item, path in _incidents(form):
        kind = get(item, "kind")
        effect = get(item, "effect") or "redeal"
        if get(item, "dealer") is not None and effect == "play_on":
            yield diag(
                "deal.incident-inert",
                f"`deal.incidents[{i}].dealer` is set, but the incident `{kind}` is played on "
                "(`effect: play_on`): nobody deals again",
                form.doc,
                (*path, "dealer"),
            )
        if (get(item, "to") or "none") != "none" and get(item, "penalty") is None:
            yield diag(
                "deal.incident-inert",
                f"`deal.incidents[{i}].to` hands the penalty on, but the incident `{kind}` has no "
                "`penalty`",
                form.doc,
                (*path, "to"),
            )


@check("match.target-tied")
def target_tied(form: Form) -> Iterator[Diagnostic]:
    """Rules tied to the target that do not follow it (issue 26, item 19): a non-declarer's
    score stopping at ``match.finishing.cap`` (``who: declarer``, ``others: cap``) at or
    above the target, where he would then reach it; a barrel (``special.barrel``) whose
    ``threshold`` plus ``goal`` falls short of the target, where making the goal would not
    finish the match."""
    match = form.sections.get("match") or {}
    special = form.sections.get("special") or {}
    target = _target(form)

    def value(section: Any, cls: str, *path: str) -> Any:
        got = get(section, *path)
        return defaults(cls, path[-1]) if got is None else got

    who = value(match, "Finishing", "finishing", "who")
    others = value(match, "Finishing", "finishing", "others")
    cap = value(match, "Finishing", "finishing", "cap")
    if who == "declarer" and others == "cap" and isinstance(cap, int) and cap >= target:
        yield diag(
            "match.target-tied",
            f"`match.finishing.cap` is {cap}, not below the target {target}: a non-declarer "
            "stopped there would reach the target",
            form.doc,
            form.where("match", "finishing", "cap") if get(match, "finishing", "cap") is not None
            else form.where("match", "target"),
            f"set `match.finishing.cap` below {target} (e.g. {target - 10})",
        )
    if get(special, "barrel", "enabled"):
        threshold = value(special, "Barrel", "barrel", "threshold")
        goal = value(special, "Barrel", "barrel", "goal")
        unlimited = get(special, "barrel", "attempts_unlimited")
        if isinstance(threshold, int) and isinstance(goal, int) and threshold < target \
                and threshold + goal < target and not unlimited:
            yield diag(
                "match.target-tied",
                f"`special.barrel.goal` is {goal}: from the barrel at {threshold} it reaches "
                f"{threshold + goal}, short of the target {target}",
                form.doc,
                form.where("special", "barrel", "goal") if get(special, "barrel", "goal") is not None
                else form.where("special", "barrel", "enabled"),
                f"set the goal to {target - threshold}, or move the barrel with the target",
            )


@check("match.tie-score")
def tie_score(form: Form) -> Iterator[Diagnostic]:
    """``match.finishing.tie_score: below_target`` with ``tie_raise`` 0: the scores are set
    below the target only when a tie raises it (:func:`tysiac_spec.engine.match.settle_deal`),
    which it then never does."""
    if get(form.sections, "match", "finishing", "tie_score") != "below_target":
        return
    if get(form.sections, "match", "finishing", "tie_raise") or any(
        get(patch, "match", "finishing", "tie_raise")
        for _, option, _ in form.document.options
        for patch in ((get(option, "set") or {}).values() if is_mapping(get(option, "set")) else ())
    ):
        return
    yield diag(
        "match.tie-score",
        "`match.finishing.tie_score` is `below_target`, but `match.finishing.tie_raise` is 0: no "
        "tie raises the target, so no score is ever set below it",
        form.doc,
        form.where("match", "finishing", "tie_score"),
        "set `match.finishing.tie_raise` (the points the target rises by), or drop `tie_score`",
    )


@check("special.golden-contract")
def golden_contract(form: Form) -> Iterator[Diagnostic]:
    """A golden-round contract (``special.golden_round.contract``) above what a deal can make:
    the card points (``deck.total_points``) plus every marriage (``marriages.values``), the
    engine's ceiling (:func:`tysiac_spec.engine.auction.ceiling`), or ``auction.cap`` when it is
    higher.  Nobody could make it, and the golden round would be played again and again."""
    contract = get(form.sections, "special", "golden_round", "contract")
    points = get(form.doc, "deck", "total_points")
    values = get(form.sections, "marriages", "values")
    if not isinstance(contract, int) or not isinstance(points, int):
        return
    if get(form.sections, "marriages", "value"):  # a formula: what a marriage is worth varies
        return
    marriages = [unwrap(v) for v in values.values()] if is_mapping(values) else []
    if not all(isinstance(v, int) for v in marriages):
        return
    ceiling = points + sum(marriages)
    cap = get(form.sections, "auction", "cap")
    top = max(ceiling, cap) if isinstance(cap, int) else ceiling
    if contract <= top:
        return
    yield diag(
        "special.golden-contract",
        f"`special.golden_round.contract` is {contract}, above the most a deal can make, {top} ("
        + (f"`auction.cap`; {points} card points and {sum(marriages)} in marriages make {ceiling}"
           if top > ceiling else f"{points} card points and {sum(marriages)} in marriages")
        + "): nobody could ever make it",
        form.doc,
        form.where("special", "golden_round", "contract"),
        f"a contract of at most {top}",
    )
