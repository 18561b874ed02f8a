"""Validation of a merged ruleset document: JSON Schema, then semantic checks.

Both stages *collect* every problem (generators of :class:`Diagnostic`), each with
a stable code, a message naming the field / what was expected / what was found,
the file position (from the loader's marks) and the path inside the ruleset.

Codes: ``schema.<keyword>`` (``schema.type``, ``schema.enum``, ``schema.unknown-key``,
``schema.required`` …) and the semantic ones listed in :data:`SEMANTIC_CODES`.
The JSON Schema stage lives in :mod:`.schema_errors`.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial
from pathlib import Path as Path_
from typing import Any

from ..errors import Diagnostic, format_path
from ..text import printable
from ._convert import built_once, is_annotated, kept, unwrap
from ._merge import merge
from ._yaml import is_mapping, mark_at
from .model import int_option_range, sitter_steps
from .schema_errors import changed_schema_errors, describe, diagnostic_at, did_you_mean, schema_errors

Path = tuple[str | int, ...]

__all__ = [
    "SEMANTIC_CODES",
    "changed_schema_errors",
    "form_sections",
    "never_played",
    "schema_errors",
    "semantic_errors",
    "sorted_diagnostics",
]

SEMANTIC_CODES = {
    "deck.duplicate": "two suits or ranks share an id or a letter",
    "deck.points-total": "the ranks' card points do not add up to `deck.total_points`",
    "table.card-count": "hands, talons and the cards left out do not use exactly the whole pack",
    "table.active": "more active players than seated, or a sitter missing / superfluous",
    "table.partnerships": "fixed partnerships at a table that is not four players, all of "
    "them active",
    "table.stock": "a stock that cannot give every active player a card after a trick, a "
    "stock rule without a stock, or a claim with a stock",
    "table.exchange": "the hands do not come out even after the talon and the exchange "
    "(play would stall)",
    "marriages.unknown-suit": "a marriage value names a suit the deck does not have",
    "marriages.ranks": "the marriage ranks are not two different ranks of the deck",
    "deck.unknown-rank": "a field naming one rank (`deal.first_dealer_rank`, "
    "`marriages.ace_marriage.rank`) names one the deck does not have",
    "auction.step": "a bid value is not a multiple of the bid step",
    "auction.no-deal": "nobody may ever bid (`auction.may_bid` is always false), nobody must "
    "open, and a deal everyone passes is dealt again: no deal could ever be played",
    "auction.seat": "a forced seat beyond the seated players, or the seat that sits out",
    "auction.all-pass": "nobody is forced to open, but a deal everyone passes is to be played "
    "by the forced player",
    "auction.dealer-exempt": "`auction.dealer_exempt` without `all_pass: dealer_plays` or without "
    "`may_bid` (it changes nothing)",
    "special.golden-dark": "`golden_round.dark_allowed` with no dark game or no golden round "
    "(it changes nothing)",
    "talon.hand-out": "`talon.hand_out` without a `give_each` exchange of the whole first talon "
    "taken with the others",
    "play.inert-duty": "a play duty field that changes nothing with the other duties",
    "contract.step": "the contract step does not divide the bid step",
    "option.default": "an option's default is not one of its values",
    "option.set-key": "an option patch is keyed by a value the option cannot take",
    "option.set-shape": "an option patch written as an annotated value instead of rules",
    "option.choices": "a choice option without choices, or choices on another type",
    "source.unknown": "`source:` cites an id not in the ruleset's `sources`",
    "source.duplicate": "two sources share an id",
    "match.threshold": "a threshold at or above the target",
    "match.loss": "a score that loses the match (`match.finishing.loss`) at or above the target",
    "rule.duplicate-id": "two counters, match rules or redeal conditions share an id",
    "play.revoke-penalty": "revokes are played and punished, but no penalty is set",
    "play.inert-revoke": "a `play.revoke` field that changes nothing (revokes refused, or no penalty)",
    "deal.incident-twice": "two rules for one kind of table incident",
    "deal.incident-inert": "a table incident's field that changes nothing (a `dealer` when it is "
    "played on, a `to` without a penalty)",
    "contract.kind-id": "a named contract whose id is not a word that can be bid (`bid misere`), "
    "or is `points`, the numeric contract's",
    "contract.kind-value": "a named contract without its fixed `value`",
    "contract.kind-ends": "a named contract that ends when its goal is decided, whose goal reads more "
    "of the play than the tricks or whose scores read the play (points, cards, tricks)",
    "auction.all-pass-play": "all-pass play (`auction.all_pass: play`) without its rules "
    "(`auction.all_pass_play`) or at a table it cannot be played at (a stock, partnerships, a "
    "talon that cannot be dealt out evenly), or its rules without it",
    "talon.rebuy": "the contract may be bought (`talon.rebuy.enabled`) but no `price` is set, "
    "or a price is set while it may not",
}


# --------------------------------------------------------------------------- semantics


def _diag(
    code: str, message: str, doc: Any, path: Path, hint: str | None = None, *, key: bool = False
) -> Diagnostic:
    return diagnostic_at(code, message, doc, path, hint, key=key)


def _get(doc: Any, *path: str | int, default: Any = None) -> Any:
    node = doc
    for p in path:
        if is_mapping(node) and p in node:
            node = unwrap(node[p])
        elif isinstance(node, list) and isinstance(p, int) and p < len(node):
            node = unwrap(node[p])
        else:
            return default
    return node


def _defaults(cls_name: str, field: str) -> Any:
    from . import model

    cls = getattr(model, cls_name)
    for f in cls.__dataclass_fields__.values():
        if f.name == field:
            return f.default
    raise KeyError(field)


def form_sections(doc: Any, players: str) -> dict[str, Any]:
    """The sections of ``doc`` merged with the overrides in ``players.<n>`` (each pair of
    section documents merged once: shared, do not change them)."""
    from .model import SECTIONS

    entry = _get(doc, "players", players, default={}) or {}
    out: dict[str, Any] = {}
    for name in SECTIONS:
        base = doc.get(name) if is_mapping(doc) else None
        over = entry.get(name) if is_mapping(entry) else None
        if base is None:
            out[name] = over
        elif over is None:
            out[name] = base
        else:
            out[name] = merge(base, over, share=True, once=True)
    return out


def semantic_errors(doc: Any, *, leaf: str | None = None) -> Iterator[Diagnostic]:
    """Every semantic inconsistency of a schema-valid merged document.

    ``leaf`` is the file being loaded: where a problem involves a value it wrote and
    one inherited from a parent, the diagnostic points at the leaf's value.
    Problems found for several player counts in a common section are reported once.
    """
    seen: set[tuple[str, str, Path]] = set()
    players = _get(doc, "players", default={}) or {}
    checks = [_check_sources(doc), _check_deck(doc), _check_options(doc)]
    checks += [_check_form(doc, str(n), leaf) for n in players]
    for check in checks:
        for diagnostic in check:
            key = (diagnostic.code, diagnostic.message, diagnostic.path)
            if key not in seen:
                seen.add(key)
                yield diagnostic


def _all_cited(doc: Any) -> Iterator[tuple[Path, str]]:
    """Every ``source:`` citation of the document with its path, section by section (each
    section's list made once per section document: :func:`._convert.built_once`)."""
    if not is_mapping(doc):
        return
    for key, value in doc.items():
        if key == "source":  # the ruleset's own citation
            yield from _cited({key: value}, ())
        elif isinstance(value, list) or is_mapping(value):
            yield from built_once("cited", value, partial(kept, _cited_list, value, (key,)))


def _cited_list(node: Any, path: Path) -> list[tuple[Path, str]]:
    return list(_cited(node, path))


def _cited(node: Any, path: Path) -> Iterator[tuple[Path, str]]:
    if is_mapping(node):
        for key, value in node.items():
            if key == "source" and path[:1] != ("sources",):
                ids = value if isinstance(value, list) else [value]
                for i, sid in enumerate(ids):
                    if isinstance(sid, str):
                        sub = (*path, key, i) if isinstance(value, list) else (*path, key)
                        yield sub, sid
            else:
                yield from _cited(value, (*path, key))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _cited(item, (*path, i))


def _check_sources(doc: Any) -> Iterator[Diagnostic]:
    sources = _get(doc, "sources", default=[]) or []
    ids: dict[str, int] = {}
    for i, src in enumerate(sources):
        sid = src.get("id") if isinstance(src, Mapping) else None
        if not isinstance(sid, str):
            continue
        if sid in ids:
            first = mark_at(doc, ("sources", ids[sid], "id"))
            where = f" (first at line {first.line})" if first else ""
            yield _diag(
                "source.duplicate",
                f"source id `{sid}` is listed twice{where}",
                doc,
                ("sources", i, "id"),
            )
        ids.setdefault(sid, i)
    known = sorted(ids)
    for path, sid in _all_cited(doc):
        if sid not in ids:
            close = difflib.get_close_matches(sid, known, n=1)
            hint = f"did you mean `{close[0]}`?" if close else None
            yield _diag(
                "source.unknown",
                f"`{format_path(path[:-1] if isinstance(path[-1], int) else path)}` cites "
                f"unknown source `{sid}`; the ruleset's sources are: {', '.join(known) or 'none'}",
                doc,
                path,
                hint,
            )


def _check_deck(doc: Any) -> Iterator[Diagnostic]:
    deck = _get(doc, "deck")
    if not isinstance(deck, Mapping):
        return
    for group in ("suits", "ranks"):
        items = _get(deck, group, default=[]) or []
        for attr in ("id", "letter"):
            seen: dict[str, int] = {}
            for i, item in enumerate(items):
                value = _get(item, attr)
                if not isinstance(value, str):
                    continue
                norm = value.upper() if attr == "letter" else value
                if norm in seen:
                    yield _diag(
                        "deck.duplicate",
                        f"`deck.{group}[{i}].{attr}` `{value}` is already used by "
                        f"`deck.{group}[{seen[norm]}]`",
                        doc,
                        ("deck", group, i, attr),
                    )
                seen.setdefault(norm, i)
    ranks = _get(deck, "ranks", default=[]) or []
    suits = _get(deck, "suits", default=[]) or []
    per_suit = sum(_get(r, "points", default=0) or 0 for r in ranks)
    total = per_suit * len(suits)
    claimed = _get(deck, "total_points")
    if isinstance(claimed, int) and claimed != total:
        yield _diag(
            "deck.points-total",
            f"`deck.total_points` is {claimed}, but the ranks' points add up to {per_suit} "
            f"per suit, {total} for {len(suits)} suits",
            doc,
            ("deck", "total_points"),
        )


def _deck_size(doc: Any) -> int:
    return len(_get(doc, "deck", "suits", default=[]) or []) * len(
        _get(doc, "deck", "ranks", default=[]) or []
    )


def _suit_ids(doc: Any) -> list[str]:
    return [str(_get(s, "id")) for s in _get(doc, "deck", "suits", default=[]) or []]


def _check_form(doc: Any, n: str, leaf: str | None = None) -> Iterator[Diagnostic]:
    base: Path = ("players", n)
    entry = _get(doc, "players", n, default={}) or {}
    seated = int(n)
    active = _get(entry, "active") or seated
    hand = _get(entry, "hand_size")
    talons = _get(entry, "talons") or []
    if active > seated:
        yield _diag(
            "table.active",
            f"`players.{n}.active` is {active}, more than the {seated} players seated",
            doc,
            (*base, "active"),
        )
    sitter = _get(entry, "sitter")
    if active < seated and sitter is None:
        yield _diag(
            "table.active",
            f"`players.{n}` has {seated - active} player(s) sitting out each deal but no "
            "`sitter` saying who",
            doc,
            base,
        )
    if active == seated and sitter is not None:
        yield _diag(
            "table.active",
            f"`players.{n}.sitter` is set, but every seated player is active",
            doc,
            (*base, "sitter"),
        )
    partnerships = _get(entry, "partnerships")
    if partnerships == "across" and (seated != 4 or active != seated):
        yield _diag(
            "table.partnerships",
            f"`players.{n}.partnerships: across` needs 4 players, all active (two sides of "
            f"partners sitting across the table); this table seats {seated} with {active} "
            "active",
            doc,
            (*base, "partnerships"),
        )
    stock = _get(entry, "stock") or 0
    yield from _check_stock(doc, n, entry, stock, active, base)
    size = _deck_size(doc)
    counted = False  # hands and talons use the whole pack (the exchange is checked then)
    left_out = _get(entry, "left_out") or 0
    numbers = isinstance(hand, int) and isinstance(left_out, int) and all(isinstance(t, int) for t in talons)
    if numbers and size:
        used = active * hand + sum(talons) + stock + left_out
        counted = used == size
        if used != size:
            talon_text = " + ".join(str(t) for t in talons) or "0"
            stock_text = f" + stock {stock}" if stock else ""
            out_text = f" + {left_out} left out" if left_out else ""
            yield _diag(
                "table.card-count",
                f"for {n} players, {active} hands of {hand} + talon(s) {talon_text}{stock_text}{out_text} "
                f"= {used} cards, but the deck has {size}",
                doc,
                (*base, "hand_size"),
            )
    sections = form_sections(doc, n)
    prefix = (*base,) if n else ()

    def where(section: str, *field: str) -> Path:
        # point at the override if the players entry sets it, else at the common section
        over = _get(entry, section, *field)
        return (*prefix, section, *field) if over is not None else (section, *field)

    if counted and isinstance(hand, int):
        yield from _check_exchange(doc, n, sections, active, hand, talons, where, leaf)

    suits = set(_suit_ids(doc))
    values = _get(sections, "marriages", "values", default={}) or {}
    for suit in values:
        if suit not in suits:
            yield _diag(
                "marriages.unknown-suit",
                f"`marriages.values` names suit `{suit}`, which the deck does not have "
                f"(suits: {', '.join(sorted(suits))})",
                doc,
                (*where("marriages", "values"), suit),
                did_you_mean(str(suit), suits),
                key=True,
            )
    ranks = [str(_get(r, "id")) for r in _get(doc, "deck", "ranks", default=[]) or []]
    pair = [str(unwrap(r)) for r in _get(sections, "marriages", "ranks", default=[]) or []]
    unknown = [r for r in pair if r not in ranks]
    if len(pair) == 2 and (pair[0] == pair[1] or unknown):
        yield _diag(
            "marriages.ranks",
            f"`marriages.ranks` must name two different ranks of the deck "
            f"(ranks: {', '.join(ranks)}); got [{', '.join(pair)}]",
            doc,
            where("marriages", "ranks"),
            did_you_mean(unknown[0], ranks) if unknown else None,
        )
    for section, rank_path, default, on in (
        ("deal", ("first_dealer_rank",), _defaults("DealRules", "first_dealer_rank"),
         _get(sections, "deal", "first_dealer") == "first_ace"),
        ("marriages", ("ace_marriage", "rank"), _defaults("AceMarriage", "rank"),
         bool(_get(sections, "marriages", "ace_marriage", "enabled"))),
    ):
        given = _get(sections, section, *rank_path)
        # a rank named, or the default when the mechanism is on (a pack without that rank)
        if (given is not None or on) and str(given or default) not in ranks:
            name = ".".join((section, *rank_path))
            yield _diag(
                "deck.unknown-rank",
                f"`{name}` names rank `{given or default}`, which the deck does not have "
                f"(ranks: {', '.join(ranks)})",
                doc,
                where(section, *rank_path) if given is not None else where(section),
                did_you_mean(str(given or default), ranks),
            )
    for k, rank in enumerate(_get(sections, "deal", "cut", "bad_ranks", default=[]) or []):
        if str(unwrap(rank)) not in ranks:
            yield _diag(
                "deal.cut",
                f"`deal.cut.bad_ranks` names rank `{unwrap(rank)}`, which the deck does not have "
                f"(ranks: {', '.join(ranks)})",
                doc,
                (*where("deal", "cut", "bad_ranks"), k),
                did_you_mean(str(unwrap(rank)), ranks),
            )
    auction = sections.get("auction") or {}
    step = _get(auction, "step") or _defaults("Auction", "step")
    def count(path: Path) -> str:
        return f" ({n} players)" if path[:1] == ("players",) else ""

    def file_of(path: Path) -> str | None:
        mark = mark_at(doc, path)
        return mark.file if mark else None

    step_path = where("auction", "step")
    for fld in ("min_bid", "forced_bid", "cap", "max_raise"):
        value = _get(auction, fld)
        if isinstance(value, int) and value % step:
            value_path = where("auction", fld)
            if leaf and file_of(step_path) == leaf != file_of(value_path):
                origin = Path_(file_of(value_path) or "?").name
                yield _diag(
                    "auction.step",
                    f"`auction.step` is {step}, but `auction.{fld}` ({value}, set in "
                    f"{origin}) is not a multiple of it{count(value_path)}",
                    doc,
                    step_path,
                )
            else:
                yield _diag(
                    "auction.step",
                    f"`auction.{fld}` is {value}, not a multiple of the bid step "
                    f"{step}{count(value_path)}",
                    doc,
                    value_path,
                )
    seat = _get(auction, "forced_seat")
    if isinstance(seat, int) and seat >= seated:
        yield _diag(
            "auction.seat",
            f"`auction.forced_seat` is {seat}, but seats run from 0 to {seated - 1} "
            f"({n} players)",
            doc,
            where("auction", "forced_seat"),
        )
    sitter_seat = _get(entry, "sitter", "seat")
    if (
        isinstance(seat, int) and seat < seated and active < seated
        and seat == sitter_steps(sitter_seat if isinstance(sitter_seat, str) else None, seated)
    ):
        yield _diag(
            "auction.seat",
            f"`auction.forced_seat` is {seat}, but that seat sits out each deal "
            f"(`players.{n}.sitter.seat: {sitter_seat or 'dealer'}`): the player obliged to "
            f"open must be one who plays ({n} players)",
            doc,
            where("auction", "forced_seat"),
            "oblige an active seat to open (1 is the dealer's left), here or under "
            f"`players.{n}.auction.forced_seat`",
        )
    all_pass = _get(auction, "all_pass") or _defaults("Auction", "all_pass")
    if is_mapping(auction) and "forced_seat" in auction and seat is None and all_pass == "forced_plays":
        yield _diag(
            "auction.all-pass",
            "nobody is obliged to open (`auction.forced_seat` is none), but `auction.all_pass` "
            "is `forced_plays`: when everyone passes, the forced player plays"
            + count(where("auction", "forced_seat")),
            doc,
            where("auction", "forced_seat"),
            "set `auction.all_pass` to `redeal` or `dealer_plays` as well",
        )
    if _get(auction, "dealer_exempt") and (all_pass != "dealer_plays" or _get(auction, "may_bid") is None):
        yield _diag(
            "auction.dealer-exempt",
            "`auction.dealer_exempt` changes nothing: it exempts a dealer whom `auction.may_bid` "
            f"refuses the lowest bid, but `auction.all_pass` is `{all_pass}`"
            + ("" if all_pass != "dealer_plays" else " and `auction.may_bid` is none"),
            doc,
            where("auction", "dealer_exempt"),
            "set `auction.all_pass: dealer_plays` and a `may_bid` condition, or drop the field",
        )
    contract = sections.get("contract") or {}
    written = _get(contract, "step")
    cstep = written or _defaults("Contract", "step")
    cpath = where("contract", "step")
    if step % cstep and written is not None and leaf and file_of(step_path) == leaf != file_of(cpath):
        yield _diag(
            "contract.step",
            f"`auction.step` is {step}, but the contract step {cstep} (set in "
            f"{Path_(file_of(cpath) or '?').name}) does not divide it{count(step_path)}",
            doc,
            step_path,
            "set `contract.step` to a divisor of the bid step",
        )
    elif step % cstep and written is not None:
        yield _diag(
            "contract.step",
            f"`contract.step` is {cstep}, which does not divide the bid step {step}"
            f"{count(where('contract', 'step'))}",
            doc,
            where("contract", "step"),
        )
    elif step % cstep:
        yield _diag(
            "contract.step",
            f"`auction.step` is {step}, which the contract step {cstep} (the default of "
            f"`contract.step`) does not divide{count(step_path)}",
            doc,
            where("auction", "step"),
            "set `contract.step` to a divisor of the bid step",
        )
    match = sections.get("match") or {}
    target = _get(match, "target") or _defaults("MatchRules", "target")
    special = sections.get("special") or {}
    for path, value in (
        (("match", "threshold", "score"), _get(match, "threshold", "score")),
        (("special", "barrel", "threshold"), _get(special, "barrel", "threshold")),
    ):
        enabled = _get(sections, path[0], path[1], "enabled")
        if enabled and isinstance(value, int) and value >= target:
            yield _diag(
                "match.threshold",
                f"`{format_path(path)}` is {value}, not below the target {target}",
                doc,
                where(*(str(p) for p in path)),
            )
    def may_be_on(part: str) -> bool:
        """Whether ``special.<part>.enabled`` is on here or an option may switch it on."""
        if _get(special, part, "enabled"):
            return True
        options = _get(doc, "options") or {}
        return is_mapping(options) and any(
            _get(patch, "special", part, "enabled")
            for option in options.values()
            for patch in ((_get(option, "set") or {}).values() if is_mapping(_get(option, "set")) else ())
        )

    golden_dark = _get(special, "golden_round", "dark_allowed")
    if golden_dark and not (may_be_on("golden_round") and may_be_on("dark")):
        yield _diag(
            "special.golden-dark",
            "`special.golden_round.dark_allowed` changes nothing: "
            + ("there is no golden round" if not may_be_on("golden_round") else "there is no dark game")
            + " (`special.golden_round.enabled`, `special.dark.enabled`, here or by an option)",
            doc,
            where("special", "golden_round", "dark_allowed"),
            "switch on both the golden round and the dark game, or drop the field",
        )
    loss = _get(match, "finishing", "loss")
    if isinstance(loss, int) and not isinstance(loss, bool) and loss >= target:
        yield _diag(
            "match.loss",
            f"`match.finishing.loss` is {loss}, not below the target {target}: every winner would "
            "also lose",
            doc,
            where("match", "finishing", "loss"),
            "write the losing score below the target, usually minus the target (-1000)",
        )
    yield from _check_duties(doc, sections, where)
    for section, fld in (
        ("match", "counters"), ("match", "rules"), ("deal", "redeals"), ("contract", "kinds")
    ):
        items = _get(sections, section, fld, default=[]) or []
        seen: set[str] = set()
        for i, item in enumerate(items):
            ident = _get(item, "id")
            if ident in seen:
                yield _diag(
                    "rule.duplicate-id",
                    f"`{section}.{fld}` has two entries with id `{ident}`",
                    doc,
                    (*where(section, fld), i, "id"),
                )
            seen.add(ident)
    yield from _check_incidents(doc, sections, where)
    yield from _check_revoke(doc, sections, where)
    yield from _check_kinds(doc, sections, where)
    yield from _check_around_contract(
        doc, sections, where, talons=talons, active=active, stock=stock, partnerships=partnerships, n=n
    )


def _check_around_contract(
    doc: Any,
    sections: Mapping[str, Any],
    where: Callable[..., Path],
    *,
    talons: Sequence[Any],
    active: int,
    stock: int,
    partnerships: Any,
    n: str | None = None,
) -> Iterator[Diagnostic]:
    """All-pass play (``auction.all_pass: play`` with ``auction.all_pass_play``,
    :mod:`..engine.all_pass`): its rules present exactly when it is on, and a table it can be
    played at (no stock, no partnerships, a talon dealt out evenly:
    ``auction.all-pass-play``); selling the contract (``talon.rebuy``): a price exactly when
    it is on (``talon.rebuy``)."""
    auction = sections.get("auction") or {}
    on = (_get(auction, "all_pass") or _defaults("Auction", "all_pass")) == "play"
    rules = _get(auction, "all_pass_play")
    path = where("auction", "all_pass")
    under = f"players.{n}.auction" if n else "players.<n>.auction"
    if on and rules is None:
        yield _diag(
            "auction.all-pass-play",
            "`auction.all_pass` is `play`, but `auction.all_pass_play` (how the deal is scored) "
            "is not set",
            doc,
            path,
            "add `auction.all_pass_play: {score: \"-card_points\"}` or another formula",
        )
    elif rules is not None and not on:
        yield _diag(
            "auction.all-pass-play",
            "`auction.all_pass_play` is set, but `auction.all_pass` is not `play`: nothing plays it",
            doc,
            where("auction", "all_pass_play"),
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
        elif (_get(rules, "talon") or "deal_out") == "deal_out" and all(isinstance(t, int) for t in talons):
            total = sum(talons)
            if total % max(active, 1):
                problem = (f"the talon's {total} card(s) cannot be dealt out evenly to {active} "
                           "players (`all_pass_play.talon: deal_out`)")
        if problem:
            yield _diag(
                "auction.all-pass-play",
                f"`auction.all_pass` is `play`, but {problem}: a deal without a declarer cannot "
                "be played at this table",
                doc,
                path,
                f"write `{under}: {{all_pass: redeal, all_pass_play: null}}`"
                + ("" if stock or partnerships == "across" else ", or another `all_pass_play.talon`"),
            )
    rebuy = _get(sections, "talon", "rebuy")
    if is_mapping(rebuy):
        enabled, price = bool(_get(rebuy, "enabled")), _get(rebuy, "price")
        if enabled and price is None:
            yield _diag(
                "talon.rebuy",
                "`talon.rebuy.enabled` is true, but `talon.rebuy.price` (the contract a buyer "
                "plays) is not set",
                doc,
                (*where("talon", "rebuy"), "enabled"),
                "set a price such as `\"240\"` or `\"bid + 10\"`",
            )
        elif price is not None and not enabled:
            yield _diag(
                "talon.rebuy",
                "`talon.rebuy.price` is set, but the contract may not be bought "
                "(`talon.rebuy.enabled` is false)",
                doc,
                (*where("talon", "rebuy"), "price"),
            )


def _check_incidents(
    doc: Any, sections: Mapping[str, Any], where: Callable[..., Path]
) -> Iterator[Diagnostic]:
    """The table incidents (``deal.incidents``, :meth:`..engine.game.Game.incident`): one rule
    per kind (``deal.incident-twice``); no field that changes nothing (``deal.incident-inert``:
    a ``dealer`` for an incident that is played on, a ``to`` with no ``penalty``)."""
    items = _get(sections, "deal", "incidents", default=[]) or []
    kinds: dict[str, int] = {}
    for i, item in enumerate(items):
        kind = _get(item, "kind")
        path = (*where("deal", "incidents"), i)
        if kind in kinds:
            yield _diag(
                "deal.incident-twice",
                f"`deal.incidents` has two rules for the incident `{kind}` "
                f"(entries {kinds[kind]} and {i}, counted from 0)",
                doc,
                (*path, "kind"),
            )
        kinds.setdefault(kind, i)
        effect = _get(item, "effect") or "redeal"
        if _get(item, "dealer") is not None and effect == "play_on":
            yield _diag(
                "deal.incident-inert",
                f"`deal.incidents[{i}].dealer` is set, but the incident `{kind}` is played on "
                "(`effect: play_on`): nobody deals again",
                doc,
                (*path, "dealer"),
            )
        if (_get(item, "to") or "none") != "none" and _get(item, "penalty") is None:
            yield _diag(
                "deal.incident-inert",
                f"`deal.incidents[{i}].to` hands the penalty on, but the incident `{kind}` has no "
                "`penalty`",
                doc,
                (*path, "to"),
            )


_KIND_ID = re.compile(r"[a-z][a-z0-9_-]*")


def _check_kinds(
    doc: Any, sections: Mapping[str, Any], where: Callable[..., Path]
) -> Iterator[Diagnostic]:
    """The named contracts (``contract.kinds``, :mod:`..engine.contracts`): an id that can be
    bid as a word (``bid misere``) and is not ``points``, the numeric contract's
    (``contract.kind-id``); a fixed ``value`` (``contract.kind-value``); a kind that
    ``ends_when_decided`` reads of the play only the tricks in its goal, nothing in its scores
    (``contract.kind-ends``: the tricks not played would change what it reads)."""
    items = _get(sections, "contract", "kinds", default=[]) or []
    for i, item in enumerate(items):
        path = (*where("contract", "kinds"), i)
        ident = _get(item, "id")
        if _get(item, "ends_when_decided") is True:
            yield from _check_ends_when_decided(doc, sections, item, i, path)
        if isinstance(ident, str) and (not _KIND_ID.fullmatch(ident) or ident == "points"):
            why = (
                "is the numeric contract's" if ident == "points"
                else "is not a lower-case word starting with a letter"
            )
            yield _diag(
                "contract.kind-id",
                f"`contract.kinds[{i}].id` `{printable(ident)}` {why}: it is bid as `bid <id>`",
                doc,
                (*path, "id"),
                "write a word such as `misere` or `slam`",
            )
        if _get(item, "value") is None:
            yield _diag(
                "contract.kind-value",
                f"`contract.kinds[{i}]` (`{printable(str(ident))}`) has no `value`: a named "
                "contract is played for a fixed value",
                doc,
                path,
                "write the points it is won or lost for, e.g. `value: 120`",
            )


_PLAYED = frozenset({
    "points", "card_points", "marriages", "tricks", "won", "last_trick", "declared", "drowned",
    "others_points", "declarer_points", "others_tricks",
})
"""The names of the scoring contexts whose values the tricks of a deal change."""
_GOAL_DECIDED = frozenset({"tricks", "others_tricks", "contract", "players"})
"""What the goal of a kind that ``ends_when_decided`` may read (judged on the tricks alone)."""


def _check_ends_when_decided(
    doc: Any, sections: Mapping[str, Any], item: Any, i: int, path: Path
) -> Iterator[Diagnostic]:
    """``contract.kinds[i].ends_when_decided``: its goal (or ``scoring.made``) reads nothing but
    :data:`_GOAL_DECIDED`, its ``declarer`` and ``defender`` scores (or ``scoring``'s) none of
    :data:`_PLAYED` (``contract.kind-ends``).  A formula that does not parse is reported by the
    formula checks, not here."""
    from ..dsl import parse_expression
    from ..dsl.compile import names_read
    from ..errors import DslError

    ident = printable(str(_get(item, "id")))
    for part, scoring, allowed in (
        ("goal", "made", _GOAL_DECIDED), ("declarer", "declarer", None), ("defender", "defender", None)
    ):
        text = _get(item, part)
        where_from = f"`{part}`"
        if text is None:
            text, where_from = _get(sections, "scoring", scoring), f"`scoring.{scoring}` (it has no `{part}`)"
        if not isinstance(text, str):
            continue
        try:
            names = set(names_read(parse_expression(text)))
        except DslError:
            continue
        bad = sorted(names - allowed) if allowed is not None else sorted(names & _PLAYED)
        if bad:
            read = ", ".join(f"`{n}`" for n in bad)
            yield _diag(
                "contract.kind-ends",
                f"`contract.kinds[{i}]` (`{ident}`) ends when its goal is decided, but {where_from} "
                f"reads {read}, which the tricks not played would change",
                doc,
                (*path, "ends_when_decided"),
                "judge the goal on `tricks` or `others_tricks` alone and score without the play's "
                "points, or play the deal to the last trick (`ends_when_decided: false`)",
            )


def _check_revoke(
    doc: Any, sections: Mapping[str, Any], where: Callable[..., Path]
) -> Iterator[Diagnostic]:
    """A revoke played and punished (``play.revoke``, :meth:`..engine.game.Game.playable_actions`)
    needs a penalty (``play.revoke-penalty``); with revokes refused, its other fields change
    nothing (``play.inert-revoke``), nor does a ``to`` without a penalty."""
    revoke = _get(sections, "play", "revoke")
    if not is_mapping(revoke):
        return
    path = where("play", "revoke")
    penalise = _get(revoke, "handling") == "penalise"
    penalty = _get(revoke, "penalty")
    if penalise and penalty is None:
        yield _diag(
            "play.revoke-penalty",
            "`play.revoke.handling` is `penalise`, but `play.revoke.penalty` is not set",
            doc,
            (*path, "handling"),
        )
    if not penalise:
        for fld in ("penalty", "to", "exempt_lead_rule"):
            if _get(revoke, fld) is not None:
                yield _diag(
                    "play.inert-revoke",
                    f"`play.revoke.{fld}` is set, but revokes are refused (`play.revoke.handling: "
                    "refuse`)",
                    doc,
                    (*path, fld),
                )
    elif (_get(revoke, "to") or "none") != "none" and penalty is None:
        yield _diag(
            "play.inert-revoke",
            "`play.revoke.to` hands the penalty on, but there is no `play.revoke.penalty`",
            doc,
            (*path, "to"),
        )


def _check_duties(doc: Any, sections: Mapping[str, Any], where: Callable[..., Path]) -> Iterator[Diagnostic]:
    """The play duties that would change nothing (``play``, :mod:`..engine.play`): a
    highest-card duty with no duty to narrow, whom the duties bind with no duty to bind, a
    defender's discard with no overtrump duty, a lead after a marriage or a defender's duty
    to beat the declarer's trump with no trump."""
    play = sections.get("play") or {}
    marriages = sections.get("marriages") or {}

    def value(section: Mapping[str, Any], cls: str, *fld: str) -> Any:
        got = _get(section, *fld)
        return _defaults(cls, fld[-1]) if got is None and len(fld) == 1 else got

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
    aces_trump = _get(marriages, "ace_marriage", "enabled") and _get(marriages, "ace_marriage", "sets_trump")
    if value(play, "Play", "lead_after_marriage") != "any" and not sets_trump and not aces_trump:
        inert.append(("lead_after_marriage", "no marriage sets trump (`marriages.sets_trump`)"))
    if value(play, "Play", "defenders_overtrump_declarer") and not sets_trump and not aces_trump:
        inert.append(("defenders_overtrump_declarer", "no marriage sets trump (`marriages.sets_trump`)"))
    for fld, why in inert:
        yield _diag(
            "play.inert-duty",
            f"`play.{fld}` changes nothing: {why}",
            doc,
            where("play", fld),
        )


def _check_stock(
    doc: Any, n: str, entry: Any, stock: int, active: int, base: Path
) -> Iterator[Diagnostic]:
    """A stock (``players.<n>.stock``) gives each active player one card after a trick: its
    size must be a multiple of the active players; its rules need a stock; a claim, which
    shows the declarer's hand as taking every trick, is refused while cards are to be drawn."""
    if stock and stock % active:
        yield _diag(
            "table.stock",
            f"`players.{n}.stock` is {stock}: after each trick every one of the {active} active "
            f"players draws a card, so the stock must be a multiple of {active}",
            doc,
            (*base, "stock"),
        )
    if not stock:
        for key, default in (("stock_trump", True), ("stock_duties", "free")):
            value = _get(entry, key)
            if value is not None and value != default:
                yield _diag(
                    "table.stock",
                    f"`players.{n}.{key}` is set, but the table has no stock (`players.{n}.stock`)",
                    doc,
                    (*base, key),
                )
    elif _get(form_sections(doc, n), "contract", "claim_allowed"):
        yield _diag(
            "table.stock",
            f"`players.{n}.stock`: a claim (`contract.claim_allowed`) cannot be played while "
            "cards are still to be drawn from the stock",
            doc,
            (*base, "stock"),
        )


def _check_exchange(
    doc: Any,
    n: str,
    sections: Mapping[str, Any],
    active: int,
    hand: int,
    talons: Sequence[int],
    where: Any,
    leaf: str | None,
) -> Iterator[Diagnostic]:
    """The hands must come out even after the declarer takes the talon and exchanges, or the
    play stalls (a player runs out of cards while the others still hold some).

    The declarer holds ``hand + T`` after taking ``T`` cards (every talon, or the one he
    chooses of several under ``talon.take: choose_one``); a ``give_each`` exchange leaves him
    ``hand + T - give_count × (active - 1)`` and each opponent ``hand + give_count``; a
    ``discard`` exchange leaves him ``hand + T - discard_count``; none leaves ``hand + T``.
    Even hands need ``T = give_count × active``, ``T = discard_count`` or ``T = 0``.
    """
    talon = sections.get("talon") or {}

    def value(name: str) -> Any:
        written = _get(talon, name)
        return written if written is not None else _defaults("Talon", name)

    take, exchange = value("take"), value("exchange")
    give, discard = value("give_count"), value("discard_count")
    sizes = sorted(set(talons)) if take == "choose_one" and len(talons) > 1 else [sum(talons)]
    opponents = active - 1
    if value("hand_out"):
        first = talons[0] if talons else 0
        if take != "all" or exchange != "give_each" or first != give * opponents:
            yield _diag(
                "talon.hand-out",
                f"for {n} players `talon.hand_out` hands the first talon ({first} card(s)) out in a "
                f"`give_each` exchange, but the talon is taken `{take}` with the exchange `{exchange}`"
                f" and {give} card(s) to each of {opponents} opponent(s)",
                doc,
                where("talon", "hand_out"),
                f"take `all` talons, `exchange: give_each`, and a first talon of `give_count` × {opponents}",
            )
    for taken in sizes:
        if exchange == "give_each":
            declarer, others, needed = hand + taken - give * opponents, hand + give, give * active
            how = f"gives {give} card(s) to each of {opponents} opponent(s)"
            rule = f"`give_each` with `give_count: {give}` needs a talon of {give} × {active} = {needed}"
            count_field = "give_count"
        elif exchange == "discard":
            declarer, others, needed = hand + taken - discard, hand, discard
            how = f"discards {discard}"
            rule = f"`discard` with `discard_count: {discard}` needs a talon of {discard}"
            count_field = "discard_count"
        elif exchange == "give_and_bury":
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
        candidates = [
            ("players", n, "talons"),
            where("talon", "exchange"),
            where("talon", count_field),
        ]
        path: Path = candidates[0]
        for candidate in candidates:
            mark = mark_at(doc, candidate)
            if leaf and mark and mark.file == leaf and _get(doc, *candidate) is not None:
                path = candidate
                break
        players = f"{active} players" if active == int(n) else f"{active} players in each deal"
        yield _diag("table.exchange", message, doc, path, f"{rule} card(s) for {players}")


def _check_options(doc: Any) -> Iterator[Diagnostic]:
    options = _get(doc, "options", default={}) or {}
    for name, opt in options.items():
        base: Path = ("options", name)
        kind = _get(opt, "type")
        default = _get(opt, "default")
        choices = _get(opt, "choices", default=[]) or []
        if kind == "choice":
            if not choices:
                yield _diag(
                    "option.choices",
                    f"option `{name}` is a choice but lists no `choices`",
                    doc,
                    base,
                )
            elif default not in choices:
                yield _diag(
                    "option.default",
                    f"option `{name}` has default {describe(default)}, which is not one of its "
                    f"choices: {', '.join(choices)}",
                    doc,
                    (*base, "default"),
                )
            valid_keys = [str(c) for c in choices]
        elif kind == "bool":
            if not isinstance(default, bool):
                yield _diag(
                    "option.default",
                    f"option `{name}` is a bool, but its default is {describe(default)}",
                    doc,
                    (*base, "default"),
                )
            valid_keys = ["true", "false"]
        else:
            lo, hi = int_option_range(_get(opt, "minimum"), _get(opt, "maximum"))
            if not isinstance(default, int) or isinstance(default, bool):
                yield _diag(
                    "option.default",
                    f"option `{name}` is an int, but its default is {describe(default)}",
                    doc,
                    (*base, "default"),
                )
            elif not lo <= default <= hi:
                yield _diag(
                    "option.default",
                    f"option `{name}` has default {default}, outside its range {lo}..{hi}",
                    doc,
                    (*base, "default"),
                )
            valid_keys = []
        if kind != "choice" and choices:
            yield _diag(
                "option.choices",
                f"option `{name}` is {'a' if kind == 'bool' else 'an'} {kind}; `choices` "
                "belong to choice options",
                doc,
                (*base, "choices"),
            )
        patches = _get(opt, "set", default={}) or {}
        for key in patches:
            if is_annotated(patches[key]):
                yield _diag(
                    "option.set-shape",
                    f"option `{name}`'s patch for `{key}` is written as an annotated value "
                    "(`value:`); a patch is a mapping of the rules it changes, "
                    "e.g. `auction: {step: 5}`",
                    doc,
                    (*base, "set", key),
                )
            if str(key) not in valid_keys:
                allowed = ", ".join(valid_keys) or "none (an int option cannot patch)"
                yield _diag(
                    "option.set-key",
                    f"option `{name}` has a patch for `{key}`, which is not one of its values: "
                    f"{allowed}",
                    doc,
                    (*base, "set", key),
                    key=True,
                )


def never_played(form: Any) -> Diagnostic | None:
    """``auction.no-deal`` for a compiled form in which no deal can ever be played, proven from
    the data: ``auction.may_bid`` reads nothing and is false (nobody may ever bid), nobody is
    obliged to open at the compulsory bid (``forced_seat`` none, or ``first_to_speak:
    after_forced``) or to play it (``all_pass`` not ``forced_plays``), and a deal everyone
    passes is dealt again (``all_pass: redeal``, or ``dealer_plays`` with the dealer exempt);
    no golden round or dark game plays a deal without the auction.  ``None`` otherwise (a
    ruleset the proof does not cover is stopped by the engine, ``all-pass.stopped``)."""
    from ..errors import DslError

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


def sorted_diagnostics(items: Sequence[Diagnostic]) -> list[Diagnostic]:
    """Diagnostics in file / line / column order."""
    return sorted(items, key=lambda d: (d.file or "", d.line or 0, d.column or 0, d.code))
