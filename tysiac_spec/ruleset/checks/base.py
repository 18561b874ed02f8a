"""The registry of semantic checks and the values several checks read (:class:`Document`,
:class:`Form`); the package :mod:`tysiac_spec.ruleset.checks` imports the sections' modules,
which register their checks here."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path as Path_
from typing import Any, Literal, TypeVar

from ...errors import Diagnostic
from .._convert import unwrap
from .._merge import merge
from .._schema import META_KEYS
from .._yaml import is_mapping, mark_at
from ..schema_errors import Path, diagnostic_at

SEMANTIC_CODES: dict[str, str] = {
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
    "special.golden-dark": "`golden_round.dark_allowed` with no dark game, no golden round or a "
    "golden round bid for (`golden_round.auction`): it changes nothing",
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
    "deal.cut": "`deal.cut.bad_ranks` names a rank the deck does not have",
    "deal.talon-at": "a forced talon position (`deal.talon_at`) outside the dealing sequence, "
    "repeated, one too many for the talon cards, forbidden by `talon_not_first`, "
    "`talon_not_last` or `talon_within_first`, or beside `talon_not_consecutive`",
    "talon.rebuy": "the contract may be bought (`talon.rebuy.enabled`) but no `price` is set, "
    "or a price is set while it may not",
    "talon.rebuy-price": "a re-buy price that is never above the winning bid, so the contract is "
    "never offered for sale, or always above the highest contract a deal can make",
    "marriages.before-play": "marriages declared only before the first trick "
    "(`declared_by: before_play`) while they need a won trick (`requires_won_trick`): none "
    "could ever be declared",
    "match.target-tied": "a rule tied to the target that does not follow it: a non-declarer's "
    "`finishing.cap` at or above the target, or a barrel whose goal does not reach it",
    "formula.range": "a formula that can divide by 0 or leave the range of numbers in play, "
    "by the bounds its context's names keep",
    "marriages.ceiling": "a marriage value formula worth more than `marriages.values` while "
    "bids stop at the engine's ceiling (no `auction.cap` nor `auction.max_bid`)",
    "talon.rebuy-inert": "a re-buy field (`talon.rebuy.bidding`, `who`) set while the contract "
    "may not be bought (`talon.rebuy.enabled` off, here and in every option)",
    "deal.cut-swap": "`deal.cut.swap` with the cut off (`deal.cut.enabled`), or with every rank "
    "bad (no card to swap the bottom card with)",
    "match.tie-score": "`match.finishing.tie_score: below_target` without `tie_raise`: no tie "
    "raises the target, so no score is ever set below it",
    "special.golden-contract": "a golden-round contract above what a deal can make (card points "
    "plus `marriages.values`, or `auction.cap` when higher): nobody could ever make it",
}

"""Every semantic code with what it means (the codes :func:`semantic_errors` and
:func:`.auction.never_played` give)."""

Scope = Literal["document", "form", "compiled"]
"""What a check receives: the document, one player count's :class:`Form`, or a compiled form."""


@dataclass(frozen=True, slots=True)
class Check:
    """A registered check: the ``code`` it reports, its ``scope`` and its function."""

    code: str
    scope: Scope
    run: Callable[..., Any]


CHECKS: dict[str, Check] = {}
"""Every registered check by its code, in registration order (the modules' import order,
then the order of definition)."""

F = TypeVar("F", bound=Callable[..., Any])


def check(code: str, scope: Scope = "form") -> Callable[[F], F]:
    """Register the decorated function as the check of ``code`` (a key of
    :data:`SEMANTIC_CODES`) for ``scope``.  Raises ``ValueError`` for an unknown code or one
    registered twice (a programming error, found on import)."""

    def register(fn: F) -> F:
        if code not in SEMANTIC_CODES:
            raise ValueError(f"semantic check for unknown code {code!r}")
        if code in CHECKS:
            raise ValueError(f"two semantic checks for code {code!r}")
        CHECKS[code] = Check(code, scope, fn)
        return fn

    return register


def diag(
    code: str, message: str, doc: Any, path: Path, hint: str | None = None, *, key: bool = False
) -> Diagnostic:
    """The diagnostic ``code`` at the mark of ``path`` in ``doc`` (its key's when ``key``)."""
    return diagnostic_at(code, message, doc, path, hint, key=key)


_PLAIN = (str, int, float, list, type(None))
"""Values that are never annotated (``unwrap`` returns them as they are)."""


def get(doc: Any, *path: str | int, default: Any = None) -> Any:
    """The plain value at ``path`` in ``doc`` (annotated values unwrapped), or ``default``.
    (:func:`.._convert.unwrap` at each step, asked only of a mapping with a ``value`` key:
    the checks ask it thousands of times per document.)"""
    node = doc
    for p in path:
        if isinstance(node, dict) or is_mapping(node):
            if p not in node:
                return default
            node = node[p]
        elif isinstance(node, list) and isinstance(p, int) and p < len(node):
            node = node[p]
        else:
            return default
        if isinstance(node, dict):
            if "value" in node and all(k == "value" or k in META_KEYS for k in node):
                node = node["value"]  # (unwrap, inline)
        elif not isinstance(node, _PLAIN):
            node = unwrap(node)
    return node


@cache
def may_be_on(form: Form, section: str, *field: str) -> bool:
    """Whether ``section.field`` (a switch such as ``enabled``) is on in ``form`` or an option's
    patch may switch it on (a field that is off here may still be played)."""
    if get(form.sections, section, *field):
        return True
    options = get(form.doc, "options") or {}
    return is_mapping(options) and any(
        get(patch, section, *field)
        for option in options.values()
        for patch in ((get(option, "set") or {}).values() if is_mapping(get(option, "set")) else ())
    )


def defaults(cls_name: str, field: str) -> Any:
    """The default of ``field`` of the model dataclass ``cls_name`` (:mod:`..model`)."""
    from .. import model

    cls = getattr(model, cls_name)
    for f in cls.__dataclass_fields__.values():
        if f.name == field:
            return f.default
    raise KeyError(field)


def form_sections(doc: Any, players: str) -> dict[str, Any]:
    """The sections of ``doc`` merged with the overrides in ``players.<n>`` (each pair of
    section documents merged once: shared, do not change them)."""
    from ..model import SECTIONS

    entry = get(doc, "players", players, default={}) or {}
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


def deck_size(doc: Any) -> int:
    """The cards in the deck: suits × ranks."""
    return len(get(doc, "deck", "suits", default=[]) or []) * len(
        get(doc, "deck", "ranks", default=[]) or []
    )


class Document:
    """The merged document, what the ``document`` checks read, with what several checks
    read worked out once: ``doc``; ``leaf`` (the file being loaded); the deck's ``size``,
    ``ranks`` and ``suits`` (ids); the ``options`` (name, document, path)."""

    def __init__(self, doc: Any, leaf: str | None) -> None:
        self.doc, self.leaf = doc, leaf
        self.size = deck_size(doc)

    @cached_property
    def ranks(self) -> list[str]:
        """The ids of the deck's ranks, in order."""
        return [str(get(r, "id")) for r in get(self.doc, "deck", "ranks", default=[]) or []]

    @cached_property
    def suits(self) -> list[str]:
        """The ids of the deck's suits, in order."""
        return [str(get(s, "id")) for s in get(self.doc, "deck", "suits", default=[]) or []]

    @cached_property
    def options(self) -> list[tuple[str, Any, Path]]:
        """Every option: its name, its document and its path."""
        options = get(self.doc, "options", default={}) or {}
        return [(name, opt, ("options", name)) for name, opt in options.items()]


class Form:
    """One player count of a document, what the ``form`` checks read: ``doc``; ``n`` (the
    ``players`` key); ``leaf`` (the file being loaded); the table (``entry``, the
    ``players.<n>`` mapping; ``seated``, ``active``, ``hand``, ``talons``, ``stock``,
    ``partnerships``); ``counted`` (hands, talons, stock and cards left out use the whole
    pack); ``sections`` (:func:`form_sections`)."""

    __slots__ = (
        "_memo", "_where", "active", "base", "counted", "doc", "document", "entry", "hand", "leaf", "n",
        "partnerships", "prefix", "seated", "sections", "stock", "talons",
    )

    def __init__(self, whole: Document, n: str) -> None:
        self.document, self.doc, self.n, self.leaf = whole, whole.doc, n, whole.leaf
        doc = whole.doc
        self._where: dict[tuple[str, ...], Path] = {}
        self._memo: dict[Any, Any] = {}
        self.base: Path = ("players", n)
        self.entry = entry = get(doc, "players", n, default={}) or {}
        self.seated = int(n)
        self.active: int = get(entry, "active") or self.seated
        self.hand = get(entry, "hand_size")
        self.talons: list[Any] = get(entry, "talons") or []
        self.partnerships = get(entry, "partnerships")
        self.stock: int = get(entry, "stock") or 0
        self.counted = self.used() == whole.size if self.numbers() else False
        self.sections = form_sections(doc, n)
        self.prefix: Path = (*self.base,) if n else ()

    def left_out(self) -> Any:
        """``players.<n>.left_out``, 0 when not written."""
        return get(self.entry, "left_out") or 0

    def numbers(self) -> bool:
        """Whether the hand size, the cards left out and the talons are all numbers and the
        deck has cards (the count can be checked)."""
        return bool(
            isinstance(self.hand, int) and isinstance(self.left_out(), int)
            and all(isinstance(t, int) for t in self.talons) and self.document.size
        )

    def used(self) -> int:
        """The cards the table uses: hands, talons, stock and cards left out."""
        return int(self.active * self.hand + sum(self.talons) + self.stock + self.left_out())

    def rule(self, section: str, *field: str) -> Any:
        """``section.field`` for this player count (:func:`get` on :attr:`sections`), worked
        out once per form."""
        key = (section, *field)
        if key in self._memo:
            return self._memo[key]
        value = self._memo[key] = get(self.sections, section, *field)
        return value

    def where(self, section: str, *field: str) -> Path:
        """The path of ``section.field``: the ``players.<n>`` override if it sets it, else the
        common section."""
        key = (section, *field)
        found = self._where.get(key)
        if found is None:
            over = get(self.entry, section, *field)
            found = (*self.prefix, section, *field) if over is not None else key
            self._where[key] = found
        return found

    def count(self, path: Path) -> str:
        """`` (<n> players)`` for a path under ``players``, else nothing."""
        return f" ({self.n} players)" if path[:1] == ("players",) else ""

    def file_of(self, path: Path) -> str | None:
        """The file that wrote ``path``, if known."""
        mark = mark_at(self.doc, path)
        return mark.file if mark else None

    def file_name(self, path: Path) -> str:
        """The name of the file that wrote ``path`` (``?`` if unknown)."""
        return Path_(self.file_of(path) or "?").name


def semantic_errors(doc: Any, *, leaf: str | None = None) -> Iterator[Diagnostic]:
    """Every semantic inconsistency of a schema-valid merged document: each registered
    ``document`` check once, each ``form`` check for every player count, in registration
    order (callers sort by position: :func:`..validate.sorted_diagnostics`).

    ``leaf`` is the file being loaded: where a problem involves a value it wrote and
    one inherited from a parent, the diagnostic points at the leaf's value.
    Problems found for several player counts in a common section are reported once.
    """
    seen: set[tuple[str, str, Path]] = set()
    players = get(doc, "players", default={}) or {}
    whole = Document(doc, leaf)
    forms = [Form(whole, str(n)) for n in players]
    targets: dict[Scope, tuple[Any, ...]] = {"document": (whole,), "form": tuple(forms), "compiled": ()}
    for entry in CHECKS.values():
        for target in targets[entry.scope]:
            for diagnostic in entry.run(target):
                key = (diagnostic.code, diagnostic.message, diagnostic.path)
                if key not in seen:
                    seen.add(key)
                    yield diagnostic
