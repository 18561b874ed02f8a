"""The auction's checks (``auction.*``), with the steps of the contract (``contract.step``)
and its sale (``talon.rebuy``); :func:`never_played` proves on a compiled form that no deal
could ever be played (``auction.no-deal``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...errors import Diagnostic
from ...text import printable
from .._yaml import is_mapping
from ..model import sitter_steps
from .base import Form, check, defaults, diag, get, may_be_on


def _auction(form: Form) -> Any:
    return form.sections.get("auction") or {}


def _step(form: Form) -> Any:
    """The bid step (``auction.step``, or its default)."""
    return form.rule("auction", "step") or defaults("Auction", "step")


def _all_pass(form: Form) -> Any:
    """``auction.all_pass``, or its default."""
    return form.rule("auction", "all_pass") or defaults("Auction", "all_pass")


@check("auction.step")
def bid_step(form: Form) -> Iterator[Diagnostic]:
    """A bid value (``min_bid``, ``forced_bid``, ``cap``, ``max_raise``) that is not a
    multiple of the step; at the step when the loaded file wrote the step and a parent the
    value."""
    auction, step, leaf = _auction(form), _step(form), form.leaf
    step_path = form.where("auction", "step")
    for fld in ("min_bid", "forced_bid", "cap", "max_raise"):
        value = get(auction, fld)
        if isinstance(value, int) and value % step:
            value_path = form.where("auction", fld)
            if leaf and form.file_of(step_path) == leaf != form.file_of(value_path):
                yield diag(
                    "auction.step",
                    f"`auction.step` is {step}, but `auction.{fld}` ({value}, set in "
                    f"{form.file_name(value_path)}) is not a multiple of it{form.count(value_path)}",
                    form.doc,
                    step_path,
                )
            else:
                yield diag(
                    "auction.step",
                    f"`auction.{fld}` is {value}, not a multiple of the bid step "
                    f"{step}{form.count(value_path)}",
                    form.doc,
                    value_path,
                )


@check("auction.seat")
def forced_seat(form: Form) -> Iterator[Diagnostic]:
    """``auction.forced_seat`` beyond the seated players, or the seat that sits out."""
    n, seated = form.n, form.seated
    seat = get(_auction(form), "forced_seat")
    if isinstance(seat, int) and seat >= seated:
        yield diag(
            "auction.seat",
            f"`auction.forced_seat` is {seat}, but seats run from 0 to {seated - 1} "
            f"({n} players)",
            form.doc,
            form.where("auction", "forced_seat"),
        )
    sitter_seat = get(form.entry, "sitter", "seat")
    if (
        isinstance(seat, int) and seat < seated and form.active < seated
        and seat == sitter_steps(sitter_seat if isinstance(sitter_seat, str) else None, seated)
    ):
        yield diag(
            "auction.seat",
            f"`auction.forced_seat` is {seat}, but that seat sits out each deal "
            f"(`players.{n}.sitter.seat: {sitter_seat or 'dealer'}`): the player obliged to "
            f"open must be one who plays ({n} players)",
            form.doc,
            form.where("auction", "forced_seat"),
            "oblige an active seat to open (1 is the dealer's left), here or under "
            f"`players.{n}.auction.forced_seat`",
        )


@check("auction.all-pass")
def all_pass_forced(form: Form) -> Iterator[Diagnostic]:
    """Nobody obliged to open (``forced_seat`` none) while the forced player plays a deal
    everyone passes (``all_pass: forced_plays``)."""
    auction = _auction(form)
    seat = get(auction, "forced_seat")
    forced_plays = _all_pass(form) == "forced_plays"
    if is_mapping(auction) and "forced_seat" in auction and seat is None and forced_plays:
        yield diag(
            "auction.all-pass",
            "nobody is obliged to open (`auction.forced_seat` is none), but `auction.all_pass` "
            "is `forced_plays`: when everyone passes, the forced player plays"
            + form.count(form.where("auction", "forced_seat")),
            form.doc,
            form.where("auction", "forced_seat"),
            "set `auction.all_pass` to `redeal` or `dealer_plays` as well",
        )


@check("auction.dealer-exempt")
def dealer_exempt(form: Form) -> Iterator[Diagnostic]:
    """``auction.dealer_exempt`` without ``all_pass: dealer_plays`` or without ``may_bid``."""
    auction, all_pass = _auction(form), _all_pass(form)
    if get(auction, "dealer_exempt") and (all_pass != "dealer_plays" or get(auction, "may_bid") is None):
        yield diag(
            "auction.dealer-exempt",
            "`auction.dealer_exempt` changes nothing: it exempts a dealer whom `auction.may_bid` "
            f"refuses the lowest bid, but `auction.all_pass` is `{all_pass}`"
            + ("" if all_pass != "dealer_plays" else " and `auction.may_bid` is none"),
            form.doc,
            form.where("auction", "dealer_exempt"),
            "set `auction.all_pass: dealer_plays` and a `may_bid` condition, or drop the field",
        )


@check("contract.step")
def contract_step(form: Form) -> Iterator[Diagnostic]:
    """A contract step (written, or its default) that does not divide the bid step; at the
    bid step when the loaded file wrote it and a parent the contract step."""
    step, leaf = _step(form), form.leaf
    step_path = form.where("auction", "step")
    written = get(form.sections.get("contract") or {}, "step")
    cstep = written or defaults("Contract", "step")
    cpath = form.where("contract", "step")
    if not step % cstep:
        return
    if written is not None and leaf and form.file_of(step_path) == leaf != form.file_of(cpath):
        yield diag(
            "contract.step",
            f"`auction.step` is {step}, but the contract step {cstep} (set in "
            f"{form.file_name(cpath)}) does not divide it{form.count(step_path)}",
            form.doc,
            step_path,
            "set `contract.step` to a divisor of the bid step",
        )
    elif written is not None:
        yield diag(
            "contract.step",
            f"`contract.step` is {cstep}, which does not divide the bid step {step}"
            f"{form.count(form.where('contract', 'step'))}",
            form.doc,
            form.where("contract", "step"),
        )
    else:
        yield diag(
            "contract.step",
            f"`auction.step` is {step}, which the contract step {cstep} (the default of "
            f"`contract.step`) does not divide{form.count(step_path)}",
            form.doc,
            form.where("auction", "step"),
            "set `contract.step` to a divisor of the bid step",
        )


@check("auction.all-pass-play")
def all_pass_play(form: Form) -> Iterator[Diagnostic]:
    """All-pass play (``auction.all_pass: play`` with ``auction.all_pass_play``,
    :mod:`...engine.all_pass`): its rules present exactly when it is on, and a table it can be
    played at (no stock, no partnerships, a talon dealt out evenly)."""
    auction, n, doc = _auction(form), form.n, form.doc
    stock, partnerships, talons, active = form.stock, form.partnerships, form.talons, form.active
    on = _all_pass(form) == "play"
    rules = get(auction, "all_pass_play")
    path = form.where("auction", "all_pass")
    under = f"players.{n}.auction" if n else "players.<n>.auction"
    if on and rules is None:
        yield diag(
            "auction.all-pass-play",
            "`auction.all_pass` is `play`, but `auction.all_pass_play` (how the deal is scored) "
            "is not set",
            doc,
            path,
            "add `auction.all_pass_play: {score: \"-card_points\"}` or another formula",
        )
    elif rules is not None and not on:
        yield diag(
            "auction.all-pass-play",
            "`auction.all_pass_play` is set, but `auction.all_pass` is not `play`: nothing plays it",
            doc,
            form.where("auction", "all_pass_play"),
            # `{$delete: true}` only removes what a parent wrote; `null` (none) works anywhere
            f"write `all_pass_play: null` beside `all_pass` under `{under}`, or set `all_pass: play`"
            if len(path) > 2 else "set `auction.all_pass: play`, or drop the field",
        )
    elif on:
        problem = ""
        if stock:
            problem = "a stock is drawn from after each trick (`table.stock`)"
        elif partnerships == "across":
            problem = "the players play in fixed partnerships (`partnerships: across`)"
        elif (get(rules, "talon") or "deal_out") == "deal_out" and all(isinstance(t, int) for t in talons):
            total = sum(talons)
            if total % max(active, 1):
                problem = (f"the talon's {total} card(s) cannot be dealt out evenly to {active} "
                           "players (`all_pass_play.talon: deal_out`)")
        if problem:
            yield diag(
                "auction.all-pass-play",
                f"`auction.all_pass` is `play`, but {problem}: a deal without a declarer cannot "
                "be played at this table",
                doc,
                path,
                f"write `{under}: {{all_pass: redeal, all_pass_play: null}}`"
                + ("" if stock or partnerships == "across" else ", or another `all_pass_play.talon`"),
            )


@check("talon.rebuy")
def rebuy(form: Form) -> Iterator[Diagnostic]:
    """Selling the contract (``talon.rebuy``): a ``price`` exactly when it is on."""
    found = get(form.sections, "talon", "rebuy")
    if not is_mapping(found):
        return
    enabled, price = bool(get(found, "enabled")), get(found, "price")
    if enabled and price is None:
        yield diag(
            "talon.rebuy",
            "`talon.rebuy.enabled` is true, but `talon.rebuy.price` (the contract a buyer "
            "plays) is not set",
            form.doc,
            (*form.where("talon", "rebuy"), "enabled"),
            "set a price such as `\"240\"` or `\"bid + 10\"`",
        )
    elif price is not None and not enabled:
        yield diag(
            "talon.rebuy",
            "`talon.rebuy.price` is set, but the contract may not be bought "
            "(`talon.rebuy.enabled` is false)",
            form.doc,
            (*form.where("talon", "rebuy"), "price"),
        )


@check("talon.rebuy-inert")
def rebuy_inert(form: Form) -> Iterator[Diagnostic]:
    """A re-buy field other than its default (``talon.rebuy.bidding``, ``who``) while the
    contract may not be bought: ``talon.rebuy.enabled`` off here and in every option."""
    found = get(form.sections, "talon", "rebuy")
    if not is_mapping(found) or may_be_on(form, "talon", "rebuy", "enabled"):
        return
    for field in ("bidding", "who"):
        value = get(found, field)
        if value is not None and value != defaults("Rebuy", field):
            yield diag(
                "talon.rebuy-inert",
                f"`talon.rebuy.{field}` is `{printable(str(value))}`, but the contract may not be "
                "bought (`talon.rebuy.enabled` is false), so it changes nothing",
                form.doc,
                (*form.where("talon", "rebuy"), field),
                "set `talon.rebuy.enabled: true` (and a `price`), or drop the field",
            )


@check("auction.no-deal", "compiled")
def never_played(form: Any) -> Diagnostic | None:
    """``auction.no-deal`` for a compiled form in which no deal can ever be played, proven from
    the data: ``auction.may_bid`` reads nothing and is false (nobody may ever bid), nobody is
    obliged to open at the compulsory bid (``forced_seat`` none, or ``first_to_speak:
    after_forced``) or to play it (``all_pass`` not ``forced_plays``), and a deal everyone
    passes is dealt again (``all_pass: redeal``, or ``dealer_plays`` with the dealer exempt);
    no golden round or dark game plays a deal without the auction.  ``None`` otherwise (a
    ruleset the proof does not cover is stopped by the engine, ``all-pass.stopped``)."""
    from ...errors import DslError

    a, special = form.auction, form.special
    may_bid = a.may_bid
    if may_bid is None or may_bid.reads or special.golden_round.enabled or special.dark.enabled:
        return None
    try:
        if may_bid({}) is not False:
            return None
    except DslError:
        return None
    if a.forced_seat is not None and (a.first_to_speak == "forced" or a.all_pass == "forced_plays"):
        return None
    if not (a.all_pass == "redeal" or (a.all_pass == "dealer_plays" and a.dealer_exempt)):
        return None
    return Diagnostic(
        code="auction.no-deal",
        message=f"`auction.may_bid` (`{printable(may_bid.text)}`) is always false: nobody may ever "
        f"bid, nobody must open, and a deal everyone passes is dealt again "
        f"(`auction.all_pass: {a.all_pass}`), so no deal could ever be played",
        file=may_bid.file,
        line=may_bid.line,
        column=may_bid.column,
        path=may_bid.path,
        hint="let some bids through `may_bid`, oblige a seat to open (`auction.forced_seat`), or "
        "play a deal everyone passes (`auction.all_pass: forced_plays`, `dealer_plays` or `play`)",
    )
