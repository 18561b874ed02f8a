"""Walk the rule fields of a resolved ruleset: paths, values in words, provenance.

Shared by the rule book (:mod:`tysiac_spec.docs.book`) and the comparison
(:mod:`tysiac_spec.docs.compare`), so both show every field of the model the same way.

A *field path* is the dotted path of a rule as written in a ruleset file, with list
indexes in brackets and the table plan under ``players.N``: ``auction.cap``,
``deal.redeals[0].when``, ``players.N.hand_size``.  Its *model path* drops the indexes and
names the table plan ``table``: ``deal.redeals.when``, ``table.hand_size`` (the key of
:data:`tysiac_spec.docs.terms.LABELS`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..ruleset.model import AceMarriage, Form, Formula, Provenance, Ruleset
from . import terms

__all__ = [
    "RANK_LISTS",
    "SECTION_ORDER",
    "SHOWN_WHEN_CHANGED",
    "SHOWN_WHEN_SET",
    "FieldValue",
    "Node",
    "form_nodes",
    "is_default",
    "model_path",
    "provenance_for",
    "value_at",
    "value_key",
    "words",
]

#: The rule sections in the order a player learns the game; ``table`` is the per-count plan.
SECTION_ORDER: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("table", ("table", "deal")),
    ("auction", ("auction",)),
    ("talon", ("talon",)),
    ("contract", ("contract",)),
    ("play", ("play",)),
    ("marriages", ("marriages",)),
    ("scoring", ("scoring",)),
    ("match", ("match",)),
    ("special", ("special",)),
)


SHOWN_WHEN_CHANGED = frozenset(
    {
        "marriages.ranks",
        "marriages.ace_marriage.rank",
        "deal.first_dealer_rank",
        "marriages.from_trick",
        "marriages.min_cards",
        "marriages.declared_by",
        "marriages.value",
        "talon.shown_from",
        "talon.hand_out",
        "table.left_out",
        "play.beat_with_highest",
        "play.trump_with_highest",
        "play.duties_bind",
        "play.defenders_may_discard",
        "play.defenders_overtrump_declarer",
        "play.lead_after_marriage",
        "auction.dealer_exempt",
        "deal.redeal_dealer",
        "deal.talon_at",
        "deal.cut",
        "deal.cut.enabled",
        "deal.cut.then",
        "deal.redeals.effect",
        "deal.incidents",
        "contract.kinds",
        "contract.names_trump",
        "play.revoke",
        "play.revoke.handling",
        "play.revoke.penalty",
        "play.revoke.to",
        "play.revoke.exempt_lead_rule",
        "match.finishing.tie_raise",
        "match.finishing.loss",
        "special.barrel.falls_reset",
        "special.golden_round.deals",
        "special.golden_round.dark_allowed",
        "special.golden_round.bolt_count",
        "special.golden_round.auction",
        "deal.cut.swap",
        "match.finishing.tie_score",
        "match.finishing.tie_equal",
        "special.barrel.collision_tie",
        "table.partnerships",
        "table.stock",
        "auction.all_pass_play",
        "talon.rebuy",
        "talon.rebuy.enabled",
        "contract.contra",
        "contract.contra.enabled",
    }
)
"""Model paths of fields a rule book shows only when some form's value differs from the
model's default (:func:`is_default`): the marriages chapter's first sentence already names
the ranks of a marriage (``terms.marriage_pair``); the talon's default moment of being shown
(``talon.shown_from: taking``) is what ``talon.shown`` already says; marriage timing limits
that are off (``marriages.from_trick: 1``, ``min_cards: 0``), no forced talon position
(``deal.talon_at``), a penalised cut dealt as it lies (``deal.cut.then``) and marriage points by suit alone
(``marriages.value`` none: ``values``) say nothing; the highest-card duties, whom the duties
bind, a defender's discard, the lead after a marriage and a revoke that stands (``play``;
each field of ``play.revoke``, a default of which says nothing while revokes are refused) are
house agreements no shipped ruleset states; the table incidents (``deal.incidents``, none by
default) and the named contracts (``contract.kinds``, none by default) likewise; the
match-flow switches (``deal``, ``match``, ``special``) are off in every shipped ruleset,
whose sources are silent on them, and so are fixed partnerships (``table.partnerships``), a
house layout; so are all-pass play (``auction.all_pass_play``), selling the contract
(``talon.rebuy``) and contra (``contract.contra``), issue 17's mechanisms around the
contract.  Every shipped ruleset keeps these defaults.  The comparison shows them always."""

SHOWN_WHEN_SET = {
    "auction.forced_bid": "auction.forced_seat",
    "auction.first_to_speak": "auction.forced_seat",
    "auction.forced_opening": "auction.forced_seat",
    "table.stock_trump": "table.stock",
    "table.stock_duties": "table.stock",
}
"""Model paths of fields that apply only when another field is not none, by that field: a
rule book shows them only for the forms where that field is set, and not at all when it is
none in every form (``auction.forced_seat:
null``, nobody must open: then there is no forced bid and no forced player to speak first;
``table.stock`` none, no stock: then no stock card names trump and no duty waits for it)."""

SHOWN_WHEN_IS = {
    "talon.give_count": ("talon.exchange", frozenset({"give_each", "give_and_bury"})),
    "talon.give_face_up": ("talon.exchange", frozenset({"give_each", "give_and_bury"})),
    "talon.give_order": ("talon.exchange", frozenset({"give_each", "give_and_bury"})),
    "talon.discard_count": ("talon.exchange", frozenset({"discard", "give_and_bury"})),
    # what becomes of the cards set aside (engine.play._award_leftover): discards exist only
    # with `exchange: discard` (buried cards count for the declarer), and every form with an
    # unchosen talon (`take: choose_one`) discards too
    "talon.leftover": ("talon.exchange", frozenset({"discard"})),
    "talon.leftover.to": ("talon.exchange", frozenset({"discard"})),
    "talon.leftover.cards": ("talon.exchange", frozenset({"discard"})),
    "talon.leftover.discards_to": ("talon.exchange", frozenset({"discard"})),
}
"""Model paths of fields that apply to a form only when another field has one of some
values there, by field: ``(that field, its values)``.  A rule book shows such a field for
those forms only (the discard count is no rule of a form that gives a card to each
opponent), and not at all when no form uses it: a book never prints a value no form plays."""

LANG_TEXTS = frozenset({"contract.kinds.name"})
"""Model paths of fields holding a text per language, shown in the book's language (else
English, else the first given)."""

RANK_LISTS = frozenset({"marriages.ranks"})
"""Model paths of fields holding rank ids, shown by the ranks' names (``deck.ranks``)."""


@dataclass(frozen=True, slots=True)
class FieldValue:
    """A rule value in words (may contain `code` spans), the formula text if it is one,
    and a hashable key for comparing values across rulesets."""

    words: str
    formula: str | None
    key: Any


@dataclass(frozen=True, slots=True)
class Node:
    """One field of one form: a ``group`` (a nested rule element or list entry) or a ``leaf``.

    ``path`` is the field path (``auction.cap``), ``parts`` the document path used for
    provenance (``("auction", "cap")``; table fields start with ``("players", "3")``),
    ``depth`` the nesting level below the section (0 for a section's own fields).
    """

    section: str
    path: str
    parts: tuple[str | int, ...]
    model: str
    label: str
    kind: str
    depth: int
    value: FieldValue | None


def value_at(form: Form, model: str) -> Any:
    """The value of the field at ``model`` (a model path, ``auction.forced_seat``) in ``form``."""
    obj: Any = form
    for part in model.split("."):
        obj = getattr(obj, part)
    return obj


def is_default(form: Form, model: str) -> bool:
    """Whether the field at ``model`` (a model path of a section, ``marriages.ranks``; in a
    list, ``deal.redeals.effect``, in every entry) holds the model's default in ``form``."""
    return _holds_default(form, model.split("."))


def _holds_default(obj: Any, parts: Sequence[str]) -> bool:
    if isinstance(obj, tuple):
        return all(_holds_default(item, parts) for item in obj)
    name = parts[0]
    if len(parts) > 1:
        return _holds_default(getattr(obj, name), parts[1:])
    spec = {f.name: f for f in dataclasses.fields(obj)}[name]
    if spec.default is dataclasses.MISSING and spec.default_factory is not dataclasses.MISSING:
        return bool(getattr(obj, name) == spec.default_factory())
    return bool(getattr(obj, name) == spec.default)


def model_path(path: str) -> str:
    """``deal.redeals[0].when`` -> ``deal.redeals.when``; ``players.N.hand_size`` -> ``table.hand_size``."""
    out = re.sub(r"\[\d+\]", "", path)
    return re.sub(r"^players\.N\.", "table.", out)


def value_key(value: Any) -> Any:
    """A hashable, file-independent key of a rule value (formulas compare by their text)."""
    if isinstance(value, Formula):
        return ("formula", value.text)
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), value_key(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(value_key(v) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return tuple((f.name, value_key(getattr(value, f.name))) for f in dataclasses.fields(value))
    return value


def words(ruleset: Ruleset, model: str, value: Any, lang: str) -> FieldValue:
    """The value of the field ``model`` (a model path) in words in ``lang``.

    Formulas are read by the DSL's natural-language printer; choices use the
    terminology of :mod:`.terms`; numbers are printed as they are (points).
    """
    key = value_key(value)
    if isinstance(value, Formula):
        names = {name: terms.option_name(name, lang) for name in ruleset.options}
        return FieldValue(value.render(lang, option_names=names), value.text, key)
    if value is None:
        return FieldValue(terms.none_words(model, lang), None, key)
    if isinstance(value, bool):
        return FieldValue(terms.ui("yes" if value else "no", lang), None, key)
    if isinstance(value, int):
        zero = terms.ZERO_WORDS.get(model) if value == 0 else None
        return FieldValue(terms.pick(zero, lang) if zero else str(value), None, key)
    if isinstance(value, str):
        phrase = terms.choice(model, value, lang)
        return FieldValue(phrase if phrase else f"`{value}`", None, key)
    if isinstance(value, Mapping) and model in LANG_TEXTS:  # a name per language: the book's
        text = str(value.get(lang) or value.get("en") or next(iter(value.values()), ""))
        return FieldValue(text or terms.none_words(model, lang), None, key)
    if isinstance(value, Mapping):
        names = {s.id: s.names.get(lang) or s.id for s in ruleset.deck.suits}
        items = [f"{names.get(str(k), str(k))} {v}" for k, v in value.items()]
        return FieldValue(", ".join(items) or terms.ui("none", lang), None, key)
    if isinstance(value, tuple) and model in RANK_LISTS:
        ranks = {r.id: r.names.get(lang) or r.id for r in ruleset.deck.ranks}
        return FieldValue(" + ".join(ranks.get(str(v), str(v)) for v in value), None, key)
    if isinstance(value, tuple):
        if not value:
            return FieldValue(terms.ui("none", lang), None, key)
        if model == "deal.talon_at":  # positions (-1: the last), not parts of a sum
            return FieldValue(", ".join(str(v) for v in value), None, key)
        return FieldValue(" + ".join(str(v) for v in value), None, key)
    return FieldValue(str(value), None, key)  # pragma: no cover - every model type is handled above


_RANK_DEFAULT = AceMarriage.__dataclass_fields__["rank"].default


def rank_name(ruleset: Ruleset, rank: str, lang: str) -> str:
    """The name in ``lang`` of the rank ``rank`` (an id) of the ruleset's pack; the id if it has none."""
    return next((r.names.get(lang) or r.id for r in ruleset.deck.ranks if r.id == rank), rank)


def ace_marriage_rank(ruleset: Ruleset) -> str | None:
    """The rank of the ace marriage (``marriages.ace_marriage.rank``) of the ruleset's first
    form when it is not the model's default, else ``None``."""
    form = ruleset.form(min(ruleset.player_counts))
    rank: str = form.marriages.ace_marriage.rank
    return None if rank == _RANK_DEFAULT else rank


def _is_record(value: Any) -> bool:
    return dataclasses.is_dataclass(value) and not isinstance(value, (type, Formula))


def _walk(
    ruleset: Ruleset,
    obj: Any,
    section: str,
    path: str,
    parts: tuple[str | int, ...],
    model: str,
    depth: int,
    lang: str,
) -> Iterator[Node]:
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        fpath, fparts, fmodel = f"{path}.{f.name}", (*parts, f.name), f"{model}.{f.name}"
        label = terms.label(fmodel, lang)
        if fmodel in terms.FOUR_OF_A_RANK:  # the ace marriage of another rank: its name
            rank = (value if fmodel == "marriages.ace_marriage" else obj).rank
            if rank != _RANK_DEFAULT:
                label = terms.four_of_a_rank(fmodel, rank_name(ruleset, rank, lang), lang)
        if _is_record(value):
            yield Node(section, fpath, fparts, fmodel, label, "group", depth, None)
            yield from _walk(ruleset, value, section, fpath, fparts, fmodel, depth + 1, lang)
        elif isinstance(value, tuple) and value and all(_is_record(v) for v in value):
            yield Node(section, fpath, fparts, fmodel, label, "group", depth, None)
            for i, item in enumerate(value):
                ident = getattr(item, "id", None)
                item_label = f"{terms.ui('list_item', lang)} {i + 1}" + (f": `{ident}`" if ident else "")
                ipath, iparts = f"{fpath}[{i}]", (*fparts, i)
                yield Node(section, ipath, iparts, fmodel, item_label, "group", depth + 1, None)
                yield from _walk(ruleset, item, section, ipath, iparts, fmodel, depth + 2, lang)
        else:
            value_words = words(ruleset, fmodel, value, lang)
            yield Node(section, fpath, fparts, fmodel, label, "leaf", depth, value_words)


def form_nodes(ruleset: Ruleset, form: Form, lang: str) -> list[Node]:
    """Every rule field of ``form`` in the order of :data:`SECTION_ORDER`, as nodes."""
    out: list[Node] = []
    for section, parts in SECTION_ORDER:
        for part in parts:
            if part == "table":
                table_parts = ("players", str(form.players))
                out.extend(_walk(ruleset, form.table, section, "players.N", table_parts, "table", 0, lang))
            else:
                out.extend(_walk(ruleset, getattr(form, part), section, part, (part,), part, 0, lang))
    return out


@dataclass(frozen=True, slots=True)
class Cited:
    """The provenance that applies to one field: the sources of the nearest element citing
    any, the status of the nearest element stating one and its reason (or the field's own
    note), and the field's own ``doc``.  ``from_section`` is true when the status comes from
    the section as a whole (the rule book says that once, under the section's title)."""

    sources: tuple[str, ...]
    status: str | None
    reason: str | None
    doc: Mapping[str, str]
    from_section: bool


def _written(document: Mapping[str, Any], parts: Sequence[str | int]) -> bool:
    node: Any = document
    for part in parts:
        if isinstance(node, Mapping) and "value" in node and part not in node:
            node = node["value"]
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
        else:
            return False
    return True


def provenance_for(ruleset: Ruleset, parts: Sequence[str | int], players: int | None = None) -> Cited:
    """The provenance of the field at document path ``parts`` in the form for ``players``.

    ``parts`` is ``("auction", "cap")``, or ``("players", "3", "hand_size")`` for the table
    plan.  A field written under ``players.N`` takes its provenance from there first (the
    field, its elements, ``players.N`` itself), then from the top-level section; any other
    field from itself and its enclosing elements -- only the elements written by the file that
    wrote the field's value or by a file extending it (:attr:`Provenance.heirs`): a house
    rule's own value never shows its parent's sources.
    """
    prov = ruleset.provenance
    parts = tuple(parts)
    chain: list[tuple[str | int, ...]] = []
    if parts and parts[0] == "players":
        n, rel = str(parts[1]), parts[2:]
        chain = [("players", n, *rel[:k]) for k in range(len(rel), 0, -1)] + [("players", n)]
    else:
        top = [parts[:k] for k in range(len(parts), 0, -1)]
        if players is not None and _written(ruleset.document, ("players", str(players), *parts)):
            n = str(players)
            chain = [("players", n, *parts[:k]) for k in range(len(parts), 0, -1)] + [("players", n)] + top
        else:
            chain = top
    sources: tuple[str, ...] = ()
    status: str | None = None
    reason: str | None = None
    from_section = False
    # the file that wrote the field, and those extending it: a parent's enclosing element
    # does not speak for a value a later file changed
    first = prov.get(chain[0]) if chain else None
    heirs = first.heirs if first is not None else None
    if first is None and parts and parts[0] == "players":
        heirs = _writers_at_other_counts(ruleset, parts)
    for key in chain:
        p: Provenance | None = prov.get(key)
        if p is None or (heirs is not None and p.file is not None and p.file not in heirs):
            continue
        if not sources and p.source:
            sources = p.source
        if status is None and p.status:
            status, reason, from_section = p.status, p.reason, len(key) == 1
    own = prov.get(chain[0]) if chain else None
    if reason is None and own is not None and own.reason and len(chain[0]) > 1:
        reason = own.reason
    doc: Mapping[str, str] = own.doc if own is not None and len(chain[0]) > 1 else {}
    if doc and own is not None:
        group = _is_group(ruleset.document, chain[0])
        if outdated(ruleset, own, chain[0] if group else chain[0][:-1], deep=group):
            doc = {}
    return Cited(sources, status, reason, doc, from_section)


def _writers_at_other_counts(ruleset: Ruleset, parts: tuple[str | int, ...]) -> frozenset[str | None] | None:
    """For a ``players.N`` field not written for ``N`` (the model's default there): the files
    that may speak for it, from the counts where it is written -- the files that wrote it
    there and the files extending them (:attr:`Provenance.heirs`); ``None`` (any file) when
    no count writes it.  A field a house file adds at one player count (``players.2.stock``)
    thus takes no sources from the parent's ``players.3`` or ``players.4`` element at the
    counts where it keeps its default: the parent never wrote the rule."""
    rel = parts[2:]
    found: set[str | None] = set()
    for key, p in ruleset.provenance.items():
        if len(key) == len(parts) and key[0] == "players" and key[2:] == rel and key[1] != str(parts[1]):
            if p.heirs is None:
                return None
            found |= p.heirs
    return frozenset(found) if found else None


def outdated(
    ruleset: Ruleset, written: Provenance, scope: tuple[str | int, ...], *, deep: bool = True
) -> bool:
    """Whether the words (``doc``) of ``written`` no longer speak for the rules: a file
    extending the one that wrote them (:attr:`Provenance.doc_heirs`) changed a rule inside
    ``scope`` -- anywhere in it (``deep``: the words of a section or group, ``scope`` being
    that element), or one of its own rules (not ``deep``: the words of a rule, ``scope``
    being the element holding it, so the words go when a neighbouring rule changes).

    Words often speak of the neighbouring rules (pl-standard's "Lead the queen or king of the
    pair" on `marriages.announcement` is about `marriages.ranks`): a house file changing one
    of them drops the parent's words there, while the words generated from the data, the
    sources and the assumptions stay."""
    heirs, writer = written.doc_heirs, written.doc_file
    if not heirs or len(heirs) < 2:
        return False
    size = len(scope)
    return any(
        p.file is not None and p.file != writer and p.file in heirs
        for key, p in ruleset.provenance.items()
        if key[:size] == scope and (len(key) > size if deep else len(key) == size + 1)
    )


def _is_group(document: Mapping[str, Any], parts: Sequence[str | int]) -> bool:
    """Whether ``parts`` names an element holding rules (a mapping, not an annotated value)."""
    node: Any = document
    for part in parts:
        if not (isinstance(node, Mapping) and part in node):
            return False
        node = node[part]
    return isinstance(node, Mapping) and "value" not in node
