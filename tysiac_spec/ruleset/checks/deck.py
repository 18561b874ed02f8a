"""The deck's checks (``deck.*``) and those of the fields naming its suits or ranks
(``marriages.unknown-suit``, ``marriages.ranks``, ``deck.unknown-rank``, ``deal.cut``)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ...errors import Diagnostic
from .._convert import unwrap
from ..schema_errors import did_you_mean
from .base import Document, Form, check, defaults, diag, get, may_be_on


@check("deck.duplicate", "document")
def duplicate_card(document: Document) -> Iterator[Diagnostic]:
    """Two suits or two ranks sharing an id or a letter (letters compared in upper case)."""
    doc = document.doc
    deck = get(doc, "deck")
    if not isinstance(deck, Mapping):
        return
    for group in ("suits", "ranks"):
        items = get(deck, group, default=[]) or []
        for attr in ("id", "letter"):
            seen: dict[str, int] = {}
            for i, item in enumerate(items):
                value = get(item, attr)
                if not isinstance(value, str):
                    continue
                norm = value.upper() if attr == "letter" else value
                if norm in seen:
                    yield diag(
                        "deck.duplicate",
                        f"`deck.{group}[{i}].{attr}` `{value}` is already used by "
                        f"`deck.{group}[{seen[norm]}]`",
                        doc,
                        ("deck", group, i, attr),
                    )
                seen.setdefault(norm, i)


@check("deck.points-total", "document")
def points_total(document: Document) -> Iterator[Diagnostic]:
    """``deck.total_points`` other than the ranks' card points times the suits."""
    doc = document.doc
    deck = get(doc, "deck")
    if not isinstance(deck, Mapping):
        return
    ranks = get(deck, "ranks", default=[]) or []
    suits = get(deck, "suits", default=[]) or []
    per_suit = sum(get(r, "points", default=0) or 0 for r in ranks)
    total = per_suit * len(suits)
    claimed = get(deck, "total_points")
    if isinstance(claimed, int) and claimed != total:
        yield diag(
            "deck.points-total",
            f"`deck.total_points` is {claimed}, but the ranks' points add up to {per_suit} "
            f"per suit, {total} for {len(suits)} suits",
            doc,
            ("deck", "total_points"),
        )


@check("marriages.unknown-suit")
def marriage_suit(form: Form) -> Iterator[Diagnostic]:
    """``marriages.values`` keyed by a suit the deck does not have."""
    doc = form.doc
    suits = set(form.document.suits)
    values = get(form.sections, "marriages", "values", default={}) or {}
    for suit in values:
        if suit not in suits:
            yield diag(
                "marriages.unknown-suit",
                f"`marriages.values` names suit `{suit}`, which the deck does not have "
                f"(suits: {', '.join(sorted(suits))})",
                doc,
                (*form.where("marriages", "values"), suit),
                did_you_mean(str(suit), suits),
                key=True,
            )


@check("marriages.ranks")
def marriage_ranks(form: Form) -> Iterator[Diagnostic]:
    """``marriages.ranks`` naming the same rank twice, or one the deck does not have."""
    ranks = form.document.ranks
    pair = [str(unwrap(r)) for r in get(form.sections, "marriages", "ranks", default=[]) or []]
    unknown = [r for r in pair if r not in ranks]
    if len(pair) == 2 and (pair[0] == pair[1] or unknown):
        yield diag(
            "marriages.ranks",
            f"`marriages.ranks` must name two different ranks of the deck "
            f"(ranks: {', '.join(ranks)}); got [{', '.join(pair)}]",
            form.doc,
            form.where("marriages", "ranks"),
            did_you_mean(unknown[0], ranks) if unknown else None,
        )


@check("deck.unknown-rank")
def unknown_rank(form: Form) -> Iterator[Diagnostic]:
    """``deal.first_dealer_rank`` or ``marriages.ace_marriage.rank`` naming a rank the deck
    does not have, written or by default while its mechanism is on."""
    ranks = form.document.ranks
    sections = form.sections
    for section, rank_path, default, on in (
        ("deal", ("first_dealer_rank",), defaults("DealRules", "first_dealer_rank"),
         get(sections, "deal", "first_dealer") == "first_ace"),
        ("marriages", ("ace_marriage", "rank"), defaults("AceMarriage", "rank"),
         bool(get(sections, "marriages", "ace_marriage", "enabled"))),
    ):
        given = get(sections, section, *rank_path)
        # a rank named, or the default when the mechanism is on (a pack without that rank)
        if (given is not None or on) and str(given or default) not in ranks:
            name = ".".join((section, *rank_path))
            yield diag(
                "deck.unknown-rank",
                f"`{name}` names rank `{given or default}`, which the deck does not have "
                f"(ranks: {', '.join(ranks)})",
                form.doc,
                form.where(section, *rank_path) if given is not None else form.where(section),
                did_you_mean(str(given or default), ranks),
            )


@check("deal.cut")
def cut_rank(form: Form) -> Iterator[Diagnostic]:
    """``deal.cut.bad_ranks`` naming a rank the deck does not have."""
    ranks = form.document.ranks
    for k, rank in enumerate(get(form.sections, "deal", "cut", "bad_ranks", default=[]) or []):
        if str(unwrap(rank)) not in ranks:
            yield diag(
                "deal.cut",
                f"`deal.cut.bad_ranks` names rank `{unwrap(rank)}`, which the deck does not have "
                f"(ranks: {', '.join(ranks)})",
                form.doc,
                (*form.where("deal", "cut", "bad_ranks"), k),
                did_you_mean(str(unwrap(rank)), ranks),
            )


@check("deal.cut-swap")
def cut_swap(form: Form) -> Iterator[Diagnostic]:
    """``deal.cut.swap`` with the cut off (``deal.cut.enabled``, here and in every option), or
    with ``deal.cut.bad_ranks`` naming every rank of the deck: no card could be swapped with a
    bad bottom card."""
    if not get(form.sections, "deal", "cut", "swap"):
        return
    path = form.where("deal", "cut", "swap")
    if not may_be_on(form, "deal", "cut", "enabled"):
        yield diag(
            "deal.cut-swap",
            "`deal.cut.swap` is true, but the cut is not checked (`deal.cut.enabled` is false), "
            "so it changes nothing",
            form.doc, path, "set `deal.cut.enabled: true`, or drop `swap`",
        )
        return
    bad = {str(unwrap(r)) for r in get(form.sections, "deal", "cut", "bad_ranks",
                                       default=defaults("Cut", "bad_ranks")) or []}
    ranks = form.document.ranks
    if ranks and bad >= set(ranks):
        yield diag(
            "deal.cut-swap",
            "`deal.cut.swap` is true, but `deal.cut.bad_ranks` names every rank of the deck "
            f"({', '.join(ranks)}): no card could be swapped with a bad bottom card",
            form.doc, path, "leave at least one rank out of `deal.cut.bad_ranks`",
        )
