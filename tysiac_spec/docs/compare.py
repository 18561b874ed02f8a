"""The difference matrix between resolved rulesets.

:func:`compare` lines up every rule field of several rulesets by field path (the same
paths as the rule book: ``auction.cap``, ``players.N.hand_size``, ``options.barrel``),
with each value in words, and marks the rows that differ.  A value may depend on the
number of players; rulesets are compared for each player count that at least two of
them define (when none is shared, their values for all counts are compared); at a count
only some of them define, a rule of that count's own (a value the ruleset gives at none of
its other counts) differs from the others' "not played".

:func:`render_comparison` prints the matrix as text, Markdown, HTML or JSON, grouped by
phase of the game, identical rows folded away unless ``full``.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..ruleset.model import Ruleset
from . import terms
from .fields import FieldValue, Node, form_nodes, model_path, value_key
from .render import render_template

__all__ = ["Comparison", "Row", "by_kind", "compare", "render_comparison"]

#: Sections of the comparison, in the order of the rule book.
SECTIONS = ("cards", "table", "auction", "talon", "contract", "play", "marriages", "scoring", "match",
            "special", "options")

#: The rules that tell the variants apart first (shown "at a glance" when they differ), by field
#: path: bid step and limits, forfeit, duties in play, marriages, rounding, the finish, the
#: 800 rule, after-deal rules (samosval), barrel, bolts, dark game, golden round.
KEY_RULES = (
    "players", "auction.step", "auction.raise_by", "auction.max_bid", "auction.cap", "talon.exchange",
    "contract.forfeit.enabled", "play.must_beat", "play.must_trump", "play.cannot_overtrump",
    "marriages.announcement", "marriages.requires_won_trick", "scoring.declarer", "scoring.defender",
    "match.target", "match.finishing.who", "match.threshold.enabled", "match.rules",
    "special.barrel.enabled", "special.bolts.enabled", "special.dark.enabled", "special.golden_round.enabled",
)

_GROUP = FieldValue("…", None, "<group>")
_OFF = "<not played>"


@dataclass(slots=True)
class Row:
    """One rule across the rulesets: its values per ruleset and player count."""

    section: str
    path: str
    label: str
    values: dict[str, dict[int, FieldValue]] = field(default_factory=dict)
    differs: bool = False
    cells: dict[str, str] = field(default_factory=dict)
    odd: set[str] = field(default_factory=set)
    """Rulesets whose cell differs from the row's most common value (all of them on a tie)."""


@dataclass(slots=True)
class Comparison:
    """The matrix: the rulesets compared (ids in order, titles) and one row per field path."""

    ids: list[str]
    titles: dict[str, str]
    lang: str
    rows: list[Row]

    @property
    def differing(self) -> list[Row]:
        """The rows whose values differ."""
        return [r for r in self.rows if r.differs]

    @property
    def glance(self) -> list[Row]:
        """The rows of :data:`KEY_RULES` that differ, in that order."""
        by_path = {r.path: r for r in self.rows if r.differs}
        return [by_path[p] for p in KEY_RULES if p in by_path]

    def by_section(self) -> list[tuple[str, str, int, int]]:
        """Per phase: (section key, title, rules that differ, rules), phases with rules only."""
        out = []
        for section in SECTIONS:
            rows = [r for r in self.rows if r.section == section]
            if rows:
                title = terms.pick(terms.SECTION_TITLES[section], self.lang)
                out.append((section, title, sum(r.differs for r in rows), len(rows)))
        return out


def by_kind(rulesets: Sequence[Ruleset]) -> list[Ruleset]:
    """``rulesets`` with the regional variants first, then house rules, then the rest (each
    group in the given order): the columns of ``compare --all`` and of the site."""
    rank = {"variant": 0, "house": 1}
    return sorted(rulesets, key=lambda r: rank.get(r.kind, 2))


def _players(ns: Sequence[int], lang: str) -> str:
    return terms.ui("n_players", lang, n=", ".join(str(n) for n in ns))


def _cell(values: Mapping[int, FieldValue], counts: Sequence[int], lang: str) -> str:
    if not values:
        return "—"
    groups: dict[str, list[int]] = {}
    for n, v in values.items():
        text = v.words
        if v.formula and v.formula != v.words:
            text += f" (`{v.formula}`)"
        groups.setdefault(text, []).append(n)
    if len(groups) == 1 and len(values) == len(counts):
        return next(iter(groups))
    return " · ".join(f"{_players(ns, lang)}: {text}" for text, ns in groups.items())


def _list_value(form: Any, path: str, lang: str) -> FieldValue:
    """A list of rule elements (``match.rules``) as one value: the ids of its entries."""
    obj: Any = form
    for part in path.split("."):
        obj = getattr(obj, part, None)
    items = tuple(obj or ())
    ids = [str(getattr(item, "id", None) or i + 1) for i, item in enumerate(items)]
    words = ", ".join(f"`{i}`" for i in ids) if ids else terms.ui("none", lang)
    return FieldValue(words, None, value_key(items))


def _rule_values(ruleset: Ruleset, lang: str) -> dict[str, tuple[Node, str, dict[int, FieldValue]]]:
    """Every rule field of every form: ``path -> (node, label, {players: value})``.

    The label names the enclosing elements (``The barrel › Played``); a list of elements
    (``match.rules``) also gets a value of its own (the ids of its entries); the fields of
    a mechanism switched off (``enabled: false``) are "not played" rather than the unused
    values they hold.
    """
    out: dict[str, tuple[Node, str, dict[int, FieldValue]]] = {}
    off_value = FieldValue(terms.ui("not_played_short", lang), None, _OFF)
    for n in ruleset.player_counts:
        form = ruleset.form(n)
        nodes = form_nodes(ruleset, form, lang)
        stack: list[str] = []
        off: set[str] = set()
        for i, node in enumerate(nodes):
            del stack[node.depth:]
            label = " › ".join([*stack, node.label])
            if node.kind == "group":
                stack.append(node.label)
                after = nodes[i + 1].path if i + 1 < len(nodes) else ""
                if not after.startswith(node.path + "["):
                    continue  # a nested element: its fields have rows of their own
                value = _list_value(form, model_path(node.path), lang)
            else:
                value = node.value if node.value is not None else _GROUP
                if node.path.endswith(".enabled") and value.key is False:
                    off.add(node.path.rsplit(".", 1)[0])
                elif any(node.path.startswith(d + ".") for d in off):
                    value = off_value
            entry = out.setdefault(node.path, (node, label, {}))
            entry[2][n] = value
    return out


def _extra_rows(ruleset: Ruleset, lang: str) -> list[tuple[str, str, str, FieldValue]]:
    pack = ruleset.deck
    suits = ", ".join(f"{s.letter} {s.names.get(lang) or s.id}" for s in pack.suits)
    ranks = ", ".join(f"{r.letter} {r.points}" for r in pack.ranks)
    rows = [
        ("cards", "deck.suits", terms.ui("suits_heading", lang),
         FieldValue(suits, None, tuple((s.id, s.letter) for s in pack.suits))),
        ("cards", "deck.ranks", terms.ui("ranks_heading", lang),
         FieldValue(ranks, None, tuple((r.id, r.letter, r.points) for r in pack.ranks))),
        ("cards", "deck.total_points", terms.ui("total_points", lang),
         FieldValue(str(pack.total_points), None, pack.total_points)),
        ("table", "players", terms.ui("player_counts", lang),
         FieldValue(", ".join(str(n) for n in ruleset.player_counts) or terms.ui("none", lang), None,
                    ruleset.player_counts)),
    ]
    # the table options are each ruleset's own (their effect shows in the rules they set):
    # one row lists them with the value in force
    in_force = [(name, terms.option_text(ruleset.selected.get(name, opt.default)))
                for name, opt in ruleset.options.items()]
    words = "; ".join(terms.option_setting(name, ruleset.selected.get(name, opt.default), lang)
                      for name, opt in ruleset.options.items())
    rows.append(("options", "options", terms.ui("options_in_force", lang),
                 FieldValue(words or terms.ui("none", lang), None,
                            tuple(sorted(in_force)))))
    return rows


def compare(rulesets: Sequence[Ruleset], *, lang: str = "en") -> Comparison:
    """Compare ``rulesets`` field by field.

    Returns:
        A :class:`Comparison` with a row for every field path of any ruleset, ordered by
        phase; ``row.differs`` is true when two rulesets defining the same number of
        players give the field different values (formulas compare by their text).

    Raises:
        ValueError: fewer than two rulesets, or an unknown language.
    """
    if len(rulesets) < 2:
        raise ValueError("give at least two rulesets to compare")
    if lang not in terms.LANGS:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(terms.LANGS)}")
    ids: list[str] = []
    for r in rulesets:
        ident, k = r.id, 2
        while ident in ids:
            ident, k = f"{r.id} ({k})", k + 1
        ids.append(ident)
    order: list[str] = []
    rows: dict[str, Row] = {}

    def add(
        section: str, path: str, label: str, ident: str, values: dict[int, FieldValue], prev: str | None
    ) -> str:
        if path not in rows:
            rows[path] = Row(section, path, label)
            order.insert(order.index(prev) + 1 if prev is not None else len(order), path)
        rows[path].values[ident] = values
        return path

    for ident, ruleset in zip(ids, rulesets, strict=True):
        prev: str | None = None
        extras = _extra_rows(ruleset, lang)
        for section, path, label, value in extras[:4]:
            counts = ruleset.player_counts or (0,)
            prev = add(section, path, label, ident, {n: value for n in counts}, prev)
        for node, label, values in _rule_values(ruleset, lang).values():
            prev = add(node.section, node.path, label, ident, values, prev)
        for section, path, label, value in extras[4:]:
            counts = ruleset.player_counts or (0,)
            rows.setdefault(path, Row(section, path, label))
            if path not in order:
                order.append(path)
            rows[path].values[ident] = {n: value for n in counts}
    counts_of = {ident: r.player_counts for ident, r in zip(ids, rulesets, strict=True)}
    shared = sorted({n for cs in counts_of.values() for n in cs
                     if sum(n in other for other in counts_of.values()) >= 2})
    everywhere = set.intersection(*(set(cs) for cs in counts_of.values()))
    partial = sorted({n for cs in counts_of.values() for n in cs} - everywhere) if shared else []
    off_value = FieldValue(terms.ui("not_played_short", lang), None, _OFF)
    for row in rows.values():
        own = _own_rules(row, ids, counts_of, partial)
        row.differs = _differs(row, ids, counts_of, shared) or bool(own)
        for ident in ids:
            values, counts = row.values.get(ident, {}), tuple(counts_of[ident] or (0,))
            missing = [n for n in own if n not in counts]
            if missing:  # a player count this ruleset does not have: its rules are not played
                values = {**values, **dict.fromkeys(missing, off_value)}
                counts = (*counts, *missing)
            row.cells[ident] = _cell(values, counts, lang)
        if row.differs:
            tally = Counter(row.cells.values())
            (top, most), *rest = tally.most_common()
            tie = not rest or rest[0][1] == most
            row.odd = {i for i in ids if tie or row.cells[i] != top}
    ordered = sorted((rows[p] for p in order), key=lambda r: SECTIONS.index(r.section))
    titles = {ident: r.title(lang) for ident, r in zip(ids, rulesets, strict=True)}
    return Comparison(ids, titles, lang, ordered)


def _own_rules(
    row: Row, ids: Sequence[str], counts_of: Mapping[str, Sequence[int]], partial: Sequence[int]
) -> list[int]:
    """The player counts that only some rulesets have (``partial``) at which a ruleset gives
    this row a value of that count's own — one it gives at none of its other counts (the
    6 cards and the partnerships of a 4-player form added by a house file): there the other
    rulesets do "not play" the rule, and the row differs.  A value the same ruleset gives at
    its other counts too is compared there, not here."""
    if row.path.startswith("deck.") or row.path in ("players", "options"):
        return []
    found = []
    for n in partial:
        for i in ids:
            values = row.values.get(i, {})
            v = values.get(n)
            if v is not None and n in counts_of[i] and all(
                repr(w.key) != repr(v.key) for m, w in values.items() if m != n
            ):
                found.append(n)
                break
    return found


def _differs(
    row: Row, ids: Sequence[str], counts_of: Mapping[str, Sequence[int]], shared: Sequence[int]
) -> bool:
    if row.path.startswith("deck.") or row.path in ("players", "options"):
        keys = {repr(next(iter(row.values[i].values())).key) if row.values.get(i) else None for i in ids}
        return len(keys) > 1
    if not shared:
        keys = {repr(sorted((n, v.key) for n, v in row.values.get(i, {}).items())) for i in ids}
        return len(keys) > 1
    for n in shared:
        present = [i for i in ids if n in counts_of[i]]
        if len(present) < 2:
            continue
        keys = set()
        for i in present:
            v = row.values.get(i, {}).get(n)
            keys.add(repr(v.key) if v is not None else None)
        if len(keys) > 1:
            return True
    return False


def to_json(comp: Comparison, *, full: bool = False) -> dict[str, Any]:
    """The comparison as plain data: rulesets, and rows with their cells and values per player count."""
    return {
        "rulesets": [{"id": i, "title": comp.titles[i]} for i in comp.ids],
        "lang": comp.lang,
        "differences": len(comp.differing),
        "at_a_glance": [r.path for r in comp.glance],
        "rows": [
            {
                "section": r.section,
                "path": r.path,
                "label": r.label,
                "differs": r.differs,
                "cells": r.cells,
                "values": {
                    i: {str(n): {"words": v.words, "formula": v.formula} for n, v in vals.items()}
                    for i, vals in r.values.items()
                },
            }
            for r in comp.rows
            if full or r.differs
        ],
    }


def short_label(row: Row) -> str:
    """The label of a row without its enclosing elements, except for a mechanism's switch
    (``The barrel › Played`` -> ``The barrel``)."""
    parts = row.label.split(" › ")
    return parts[-2] if row.path.endswith(".enabled") and len(parts) > 1 else parts[-1]


def short_cell(text: str) -> str:
    """A cell in words only: formulas and code marks dropped (for the at-a-glance table)."""
    return re.sub(r" \(`[^`]*`\)", "", text).replace("`", "")


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def summary(comp: Comparison, full: bool, *, page: bool = False) -> str:
    """``61 of 127 rules differ; identical rules folded away (--full shows them)`` (on a web
    ``page``, without the command-line hint)."""
    text = terms.ui("differ_count", comp.lang, n=len(comp.differing), total=len(comp.rows))
    text = text[:1].upper() + text[1:]
    if full:
        return text
    folded = terms.ui("folded", comp.lang)
    return f"{text}; {folded.split(' (')[0] if page else folded}"


def _text(comp: Comparison, full: bool) -> str:
    lang = comp.lang
    width = max(len(i) for i in comp.ids)
    lines = [f"{terms.ui('comparison', lang)}: {', '.join(comp.ids)}",
             summary(comp, full),
             " · ".join(f"{title}: {n}" for _, title, n, _ in comp.by_section() if n),
             ""]
    if comp.glance:  # a table of the key rules, each cell wrapped in its column
        cell_w = 22 if len(comp.ids) <= 4 else 16
        label_w = min(30, max(len(short_label(r)) for r in comp.glance))
        lines += [f"== {terms.ui('at_a_glance', lang)} ==", ""]
        heads = "  ".join(f"{_clip(i, cell_w):<{cell_w}}" for i in comp.ids)
        lines.append((" " * label_w + "  " + heads).rstrip())
        for r in comp.glance:
            columns = [textwrap.wrap(short_label(r), label_w)] + [
                textwrap.wrap(short_cell(r.cells[i]), cell_w) or [""] for i in comp.ids]
            for k in range(max(len(c) for c in columns)):
                parts = [(c[k] if k < len(c) else "") for c in columns]
                cells = "  ".join(f"{p:<{cell_w}}" for p in parts[1:])
                lines.append(f"{parts[0]:<{label_w}}  {cells}".rstrip())
        lines.append("")
    for section in SECTIONS:
        rows = [r for r in comp.rows if r.section == section and (full or r.differs)]
        if not rows:
            continue
        title = terms.pick(terms.SECTION_TITLES[section], lang)
        lines += [f"== {title} ==", ""]
        for r in rows:
            mark = "≠" if r.differs else "="
            lines.append(f"{mark} {r.path} — {r.label}")
            if r.differs:
                for i in comp.ids:
                    lines.append(f"    {i:<{width}}  {r.cells[i]}")
            else:
                lines.append(f"    {'(all)':<{width}}  {r.cells[comp.ids[0]]}")
        lines.append("")
    return "\n".join(lines)


def render_comparison(comp: Comparison, fmt: str = "text", *, full: bool = False,
                      links: Mapping[str, Any] | None = None) -> str:
    """The comparison as ``text``, ``md``, ``html`` or ``json``; only differing rows unless ``full``.

    Raises:
        ValueError: an unknown format.
    """
    if fmt == "json":
        return json.dumps(to_json(comp, full=full), ensure_ascii=False, indent=2) + "\n"
    if fmt == "text":
        return _text(comp, full)
    if fmt not in ("md", "html"):
        raise ValueError(f"unknown format {fmt!r}; choose text, md, html or json")
    sections = []
    for section in SECTIONS:
        rows = [r for r in comp.rows if r.section == section and (full or r.differs)]
        if rows:
            sections.append((section, terms.pick(terms.SECTION_TITLES[section], comp.lang), rows))
    ui = {key: terms.pick(texts, comp.lang) for key, texts in terms.UI.items()}
    return render_template(f"compare.{fmt}.j2", comp=comp, sections=sections, full=full, ui=ui,
                           links=links or {}, summary=summary(comp, full, page=fmt == "html"),
                           short_label=short_label, short_cell=short_cell)
