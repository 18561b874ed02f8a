"""The table's checks (``players.<n>``): seats and active players (``table.active``,
``table.partnerships``), the stock (``table.stock``), the cards (``table.card-count``) and
the hands after the talon and the exchange (``table.exchange``, ``talon.hand-out``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...errors import Diagnostic
from .._yaml import mark_at
from ..schema_errors import Path
from .base import Form, check, deck_size, defaults, diag, form_sections, get


@check("table.active")
def active_players(form: Form) -> Iterator[Diagnostic]:
    """More active players than seated; some sitting out with no ``sitter``; a ``sitter``
    with every seated player active."""
    n, seated, active, base = form.n, form.seated, form.active, form.base
    if active > seated:
        yield diag(
            "table.active",
            f"`players.{n}.active` is {active}, more than the {seated} players seated",
            form.doc,
            (*base, "active"),
        )
    sitter = get(form.entry, "sitter")
    if active < seated and sitter is None:
        yield diag(
            "table.active",
            f"`players.{n}` has {seated - active} player(s) sitting out each deal but no "
            "`sitter` saying who",
            form.doc,
            base,
        )
    if active == seated and sitter is not None:
        yield diag(
            "table.active",
            f"`players.{n}.sitter` is set, but every seated player is active",
            form.doc,
            (*base, "sitter"),
        )


@check("table.partnerships")
def partnerships(form: Form) -> Iterator[Diagnostic]:
    """``partnerships: across`` at a table that is not four players, all active."""
    n, seated, active = form.n, form.seated, form.active
    if form.partnerships == "across" and (seated != 4 or active != seated):
        yield diag(
            "table.partnerships",
            f"`players.{n}.partnerships: across` needs 4 players, all active (two sides of "
            f"partners sitting across the table); this table seats {seated} with {active} "
            "active",
            form.doc,
            (*form.base, "partnerships"),
        )


@check("table.stock")
def stock(form: Form) -> Iterator[Diagnostic]:
    """A stock (``players.<n>.stock``) gives each active player one card after a trick: its
    size must be a multiple of the active players; its rules need a stock; a claim, which
    shows the declarer's hand as taking every trick, is refused while cards are to be drawn."""
    n, doc, entry, active, base, size = form.n, form.doc, form.entry, form.active, form.base, form.stock
    if size and size % active:
        yield diag(
            "table.stock",
            f"`players.{n}.stock` is {size}: after each trick every one of the {active} active "
            f"players draws a card, so the stock must be a multiple of {active}",
            doc,
            (*base, "stock"),
        )
    if not size:
        for key, default in (("stock_trump", True), ("stock_duties", "free")):
            value = get(entry, key)
            if value is not None and value != default:
                yield diag(
                    "table.stock",
                    f"`players.{n}.{key}` is set, but the table has no stock (`players.{n}.stock`)",
                    doc,
                    (*base, key),
                )
    elif get(form_sections(doc, n), "contract", "claim_allowed"):
        yield diag(
            "table.stock",
            f"`players.{n}.stock`: a claim (`contract.claim_allowed`) cannot be played while "
            "cards are still to be drawn from the stock",
            doc,
            (*base, "stock"),
        )


@check("table.card-count")
def card_count(form: Form) -> Iterator[Diagnostic]:
    """Hands, talons, stock and the cards left out not adding up to the deck."""
    if not form.numbers():
        return
    size, used = deck_size(form.doc), form.used()
    if used != size:
        stock, left_out = form.stock, form.left_out()
        talon_text = " + ".join(str(t) for t in form.talons) or "0"
        stock_text = f" + stock {stock}" if stock else ""
        out_text = f" + {left_out} left out" if left_out else ""
        yield diag(
            "table.card-count",
            f"for {form.n} players, {form.active} hands of {form.hand} + talon(s) "
            f"{talon_text}{stock_text}{out_text} = {used} cards, but the deck has {size}",
            form.doc,
            (*form.base, "hand_size"),
        )


@check("deal.talon-at")
def talon_at(form: Form) -> Iterator[Diagnostic]:
    """``deal.talon_at``: each forced position inside the dealing sequence (the hands and the
    talons, ``1..N`` or ``-N..-1``), none repeated, no more than the talon cards, none that
    ``talon_not_first``, ``talon_not_last`` or ``talon_within_first`` forbids, and not with
    ``talon_not_consecutive`` (checked when the table's numbers are known)."""
    at = [p for p in (form.rule("deal", "talon_at") or []) if isinstance(p, int)]
    if not at or not form.numbers():
        return
    where = form.where("deal", "talon_at")
    total, k = form.active * form.hand + sum(form.talons), sum(form.talons)
    first = form.rule("deal", "talon_not_first") or 0
    last = form.rule("deal", "talon_not_last") or 0
    within = form.rule("deal", "talon_within_first") or 0
    problem = None
    seen: dict[int, int] = {}
    if form.rule("deal", "talon_not_consecutive"):
        problem = "cannot be combined with `deal.talon_not_consecutive`"
    elif len(at) > k:
        problem = f"forces {len(at)} positions, but the talon has {k} card(s)"
    for p in at:
        if problem:
            break
        i = p - 1 if p > 0 else total + p
        if p == 0 or not 0 <= i < total:
            problem = f"forces position {p}, outside the {total} cards dealt (1..{total} or -{total}..-1)"
        elif i in seen:
            problem = f"forces positions {seen[i]} and {p}, the same card of the {total} dealt"
        elif i < first or i >= total - last or (within and i >= within):
            rule = (f"talon_not_first: {first}" if i < first else f"talon_not_last: {last}"
                    if i >= total - last else f"talon_within_first: {within}")
            problem = f"forces position {p} (card {i + 1} of {total}), which `deal.{rule}` forbids"
        seen[i] = p
    if problem:
        yield diag("deal.talon-at", f"for {form.n} players `deal.talon_at` {problem}", form.doc, where)


def _talon(form: Form, name: str) -> Any:
    """``talon.<name>`` for this form, or its default."""
    written = form.rule("talon", name)
    return written if written is not None else defaults("Talon", name)


@check("talon.hand-out")
def hand_out(form: Form) -> Iterator[Diagnostic]:
    """``talon.hand_out`` needs the whole first talon taken with the others and given out in
    a ``give_each`` exchange (checked when the table uses the whole pack)."""
    if not (form.counted and isinstance(form.hand, int)) or not _talon(form, "hand_out"):
        return
    take, exchange, give = _talon(form, "take"), _talon(form, "exchange"), _talon(form, "give_count")
    opponents = form.active - 1
    first = form.talons[0] if form.talons else 0
    if take != "all" or exchange != "give_each" or first != give * opponents:
        yield diag(
            "talon.hand-out",
            f"for {form.n} players `talon.hand_out` hands the first talon ({first} card(s)) out in a "
            f"`give_each` exchange, but the talon is taken `{take}` with the exchange `{exchange}`"
            f" and {give} card(s) to each of {opponents} opponent(s)",
            form.doc,
            form.where("talon", "hand_out"),
            f"take `all` talons, `exchange: give_each`, and a first talon of `give_count` × {opponents}",
        )


@check("table.exchange")
def exchange(form: Form) -> Iterator[Diagnostic]:
    """The hands must come out even after the declarer takes the talon and exchanges, or the
    play stalls (a player runs out of cards while the others still hold some); checked when
    the table uses the whole pack.

    The declarer holds ``hand + T`` after taking ``T`` cards (every talon, or the one he
    chooses of several under ``talon.take: choose_one``); a ``give_each`` exchange leaves him
    ``hand + T - give_count × (active - 1)`` and each opponent ``hand + give_count``; a
    ``discard`` exchange leaves him ``hand + T - discard_count``; none leaves ``hand + T``.
    Even hands need ``T = give_count × active``, ``T = discard_count`` or ``T = 0``.
    """
    hand, talons, active, n, doc = form.hand, form.talons, form.active, form.n, form.doc
    if not (form.counted and isinstance(hand, int)):
        return
    take, kind = _talon(form, "take"), _talon(form, "exchange")
    give, discard = _talon(form, "give_count"), _talon(form, "discard_count")
    sizes = sorted(set(talons)) if take == "choose_one" and len(talons) > 1 else [sum(talons)]
    opponents = active - 1
    for taken in sizes:
        if kind == "give_each":
            declarer, others, needed = hand + taken - give * opponents, hand + give, give * active
            how = f"gives {give} card(s) to each of {opponents} opponent(s)"
            rule = f"`give_each` with `give_count: {give}` needs a talon of {give} × {active} = {needed}"
            count_field = "give_count"
        elif kind == "discard":
            declarer, others, needed = hand + taken - discard, hand, discard
            how = f"discards {discard}"
            rule = f"`discard` with `discard_count: {discard}` needs a talon of {discard}"
            count_field = "discard_count"
        elif kind == "give_and_bury":
            declarer, others = hand + taken - give * opponents - discard, hand + give
            needed = give * active + discard
            how = f"gives {give} card(s) to each of {opponents} opponent(s) and buries {discard}"
            rule = (f"`give_and_bury` with `give_count: {give}` and `discard_count: {discard}` needs "
                    f"a talon of {give} × {active} + {discard} = {needed}")
            count_field = "give_count"
        else:
            declarer, others, needed = hand + taken, hand, 0
            how = "exchanges nothing"
            rule = "no exchange needs no talon"
            count_field = "exchange"
        if declarer == others:
            continue
        talon_text = " + ".join(str(t) for t in talons) or "none"
        took = "takes" if len(sizes) == 1 else "takes one talon of"
        message = (
            f"for {n} players the hands do not come out even: the declarer {took} {taken} "
            f"card(s) (talons: {talon_text}) and {how}, ending with {declarer} cards against "
            f"the opponents' {others}; play would stall"
        )
        # point at what the loaded file wrote: its talons, else its exchange, else the talons
        candidates: list[Path] = [
            ("players", n, "talons"),
            form.where("talon", "exchange"),
            form.where("talon", count_field),
        ]
        path: Path = candidates[0]
        for candidate in candidates:
            mark = mark_at(doc, candidate)
            if form.leaf and mark and mark.file == form.leaf and get(doc, *candidate) is not None:
                path = candidate
                break
        players = f"{active} players" if active == int(n) else f"{active} players in each deal"
        yield diag("table.exchange", message, doc, path, f"{rule} card(s) for {players}")
