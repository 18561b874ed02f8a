"""The rule book of one resolved ruleset: content built from the data, then rendered.

:func:`build_book` gathers the content (sections in the order a player learns the game,
each rule with its value in words, its formula, its sources and whether it is assumed,
the table options, the worked examples from the ruleset's scenario file, the sources);
:func:`render_book` prints that one content as Markdown or HTML through the Jinja2
templates in ``templates/``.  Nothing here is written per variant: a house rule file gets
its rule book from the same code.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup

from ..cards import Deck
from ..errors import TysiacError
from ..ruleset import load_ruleset
from ..ruleset.model import Form, Marriages, Ruleset, TablePlan
from . import cards, terms
from .examples import Example, scenario_file
from .examples import examples as _examples
from .fields import (
    SECTION_ORDER,
    SHOWN_WHEN_CHANGED,
    SHOWN_WHEN_IS,
    SHOWN_WHEN_SET,
    Node,
    form_nodes,
    is_default,
    outdated,
    provenance_for,
    value_at,
)
from .render import render_template

__all__ = ["Book", "Cell", "Example", "Rule", "Section", "build_book", "render_book", "scenario_file"]


@dataclass(frozen=True, slots=True)
class Cell:
    """A value for some player counts (``players`` is ``None`` when it holds for all)."""

    players: str | None
    words: str
    formula: str | None


@dataclass(slots=True)
class Rule:
    """One rule as the book shows it: a ``leaf`` with values, or a ``group`` heading."""

    path: str
    label: str
    kind: str
    depth: int
    values: list[Cell] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    assumed: bool = False
    reason: str | None = None
    doc: str | None = None
    doc_lang: str | None = None
    assumed_for: str | None = None
    options: list[tuple[str, str]] = field(default_factory=list)
    """Table options whose value in force sets this rule: ``(name, words)``
    (``("graduated_auction", "Graduated auction (raises of 10 only): yes")``)."""
    changed: str | None = None
    """For a house file's book: the rule's value in its base ruleset, in words, when the
    house file changes it (``None`` when it does not, or the ruleset has no base)."""


@dataclass(slots=True)
class Table:
    """A small table (the pack): a caption, column headers and rows of text."""

    caption: str
    headers: list[str]
    rows: list[list[str]]


@dataclass(slots=True)
class Section:
    """A chapter of the book."""

    key: str
    number: int
    title: str
    intro: str | None = None
    sources: list[str] = field(default_factory=list)
    assumed: bool = False
    reason: str | None = None
    doc: str | None = None
    doc_lang: str | None = None
    tables: list[Table] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    examples: list[Example] = field(default_factory=list)
    items: list[tuple[str, str]] = field(default_factory=list)
    note: str | None = None
    pictures: list[str] = field(default_factory=list)
    """Cards shown as pictures under the tables (``AH``, ``TH``…: the ranks of the first suit)."""


@dataclass(slots=True)
class Book:
    """The whole rule book of one ruleset in one language."""

    id: str
    lang: str
    title: str
    description: str | None
    meta: list[tuple[str, str]]
    sections: list[Section]
    generated: str
    deck: Deck | None = None
    """The pack, for the card pictures of the HTML book (none: no pictures)."""
    base: str | None = None
    """For a house file: the id of the ruleset it extends, against which its changed rules
    are marked (:attr:`Rule.changed`)."""
    changed: int = 0
    """How many rules the house file changes from its base."""


def _doc_in(doc: Mapping[str, str] | None, lang: str) -> tuple[str | None, str | None]:
    if not doc:
        return None, None
    if doc.get(lang):
        return doc[lang].strip(), None
    if doc.get("en"):
        return doc["en"].strip(), "en"
    return None, None


def _players_label(counts: Sequence[int], lang: str) -> str:
    return terms.ui("n_players", lang, n=", ".join(str(n) for n in counts))


def _merge_forms(ruleset: Ruleset, counts: Sequence[int], lang: str) -> list[tuple[Node, dict[int, Node]]]:
    """Nodes of every form merged by path, in reading order: ``[(first node, {n: node})]``."""
    order: list[str] = []
    by_path: dict[str, dict[int, Node]] = {}
    for n in counts:
        prev: str | None = None
        for node in form_nodes(ruleset, ruleset.form(n), lang):
            if node.path not in by_path:
                by_path[node.path] = {}
                order.insert(order.index(prev) + 1 if prev is not None else 0, node.path)
            by_path[node.path][n] = node
            prev = node.path
    return [(next(iter(by_path[p].values())), by_path[p]) for p in order]


def _patched_paths(node: Any, path: str) -> list[str]:
    if isinstance(node, Mapping) and not ("value" in node and set(node) <= _META | {"value"}):
        out: list[str] = []
        for key, value in node.items():
            if key not in _META:
                out += _patched_paths(value, f"{path}.{key}" if path else str(key))
        return out
    return [path]


def _option_sources(
    ruleset: Ruleset, players: int | None = None, lang: str = "en"
) -> dict[str, list[tuple[str, str]]]:
    """Field path -> the options ``(name, words)`` (:func:`terms.option_setting`) whose value
    in force patches that field.

    A patch under ``players.N`` names the section's path (``talon.leftover.to``) or, for the
    table plan, ``players.N.<field>``; with ``players``, patches for other counts are left out.
    """
    table = set(TablePlan.__dataclass_fields__)
    out: dict[str, list[tuple[str, str]]] = {}
    for name, opt in ruleset.options.items():
        value = ruleset.selected.get(name, opt.default)
        key = ("true" if value else "false") if isinstance(value, bool) else str(value)
        patch = (opt.set or {}).get(key)
        for path in _patched_paths(patch or {}, ""):
            parts = path.split(".")
            if parts[0] == "players" and len(parts) > 1 and players is not None and parts[1] != str(players):
                continue
            if parts[0] == "players" and len(parts) > 2:
                path = ".".join(parts[2:]) if parts[2] not in table else "players.N." + ".".join(parts[2:])
            tags = out.setdefault(path, [])
            tag = (name, terms.option_setting(name, value, lang))
            if tag not in tags:
                tags.append(tag)
    return out


def _changed_by_options(ruleset: Ruleset) -> list[str]:
    """Field paths (``auction.forced_seat``, as :func:`_option_sources` names them) that a
    table option set to another value than its default patches: the ruleset's own words
    (``doc``) about them speak of the default and are left out of a book built with it."""
    out: list[str] = []
    for name, opt in ruleset.options.items():
        value = ruleset.selected.get(name, opt.default)
        if value == opt.default:
            continue
        key = ("true" if value else "false") if isinstance(value, bool) else str(value)
        for path in _patched_paths((opt.set or {}).get(key) or {}, ""):
            parts = path.split(".")
            if parts[0] == "players" and len(parts) > 2:
                path = ".".join(parts[2:])
            out.append(path)
    return out


def _off_default(ruleset: Ruleset, options: Mapping[str, Any]) -> bool:
    """Whether a worked example run with ``options`` (the others at their defaults) plays
    another value than the book's for an option the book sets off its default."""
    return any(
        ruleset.selected[name] != opt.default and options.get(name, opt.default) != ruleset.selected[name]
        for name, opt in ruleset.options.items()
        if name in ruleset.selected
    )


def _disabled(merged: list[tuple[Node, dict[int, Node]]]) -> set[str]:
    """Paths of groups whose ``enabled`` is false in every form: their details are skipped."""
    out = set()
    for first, nodes in merged:
        if first.path.endswith(".enabled") and all(
            n.value is not None and n.value.key is False for n in nodes.values()
        ):
            out.add(first.path.rsplit(".", 1)[0])
    return out


def _uses(form: Form, needs: str | None, when: tuple[str, frozenset[Any]] | None) -> bool:
    """Whether ``form`` uses a field shown only when another is set (``needs``,
    :data:`~.fields.SHOWN_WHEN_SET`: the stock's trump card only with a stock) or has one of
    some values (``when``, :data:`~.fields.SHOWN_WHEN_IS`: the give count only when the
    exchange gives a card to each opponent)."""
    if needs is not None and value_at(form, needs) is None:
        return False
    return when is None or value_at(form, when[0]) in when[1]


def _rule(
    ruleset: Ruleset,
    first: Node,
    nodes: Mapping[int, Node],
    counts: Sequence[int],
    lang: str,
    seen: set[str],
    by_option: Mapping[str, list[tuple[str, str]]],
    changed: Sequence[str] = (),
) -> Rule:
    """One merged rule; a reason already given earlier in the book (in ``seen``) is not repeated."""
    kind = "group" if any(n.kind == "group" for n in nodes.values()) else "leaf"
    rule = Rule(first.path, first.label, kind, first.depth)
    groups: dict[tuple[str, str | None], list[int]] = {}
    for n, node in nodes.items():
        if node.value is not None:
            groups.setdefault((node.value.words, node.value.formula), []).append(n)
    if len(groups) == 1 and len(nodes) == len(counts) and rule.kind == "leaf":
        ((text, formula),) = groups
        rule.values.append(Cell(None, text, formula))
    else:
        for (text, formula), ns in groups.items():
            rule.values.append(Cell(_players_label(ns, lang), text, formula))
    reasons: list[str] = []
    assumed: list[int] = []
    for n, node in nodes.items():
        cited = provenance_for(ruleset, node.parts, n)
        rule.sources.extend(s for s in cited.sources if s not in rule.sources)
        if cited.status == "assumed":
            assumed.append(n)
        reason = cited.reason.strip() if cited.reason else None
        if reason and not cited.from_section and reason not in reasons:
            reasons.append(reason)
        if rule.doc is None and not _touches(changed, first.path):
            rule.doc, rule.doc_lang = _doc_in(cited.doc, lang)
    rule.assumed = bool(assumed)
    if assumed and len(assumed) < len(counts):
        rule.assumed_for = _players_label(assumed, lang)
    fresh = [r for r in reasons if r not in seen]
    seen.update(fresh)
    rule.reason = " ".join(fresh) or None
    rule.options = list(by_option.get(rule.path, []))
    return rule


def _touches(changed: Sequence[str], path: str) -> bool:
    """Whether an option off its default (``changed``, :func:`_changed_by_options`) patches
    the element at ``path`` or a field beside it (words of a rule speak of its neighbours)."""
    parent = path.rsplit(".", 1)[0]
    return any(c == path or c.startswith(path + ".") or c.rsplit(".", 1)[0] == parent for c in changed)


def _section_head(ruleset: Ruleset, section: Section, parts: Sequence[str], lang: str) -> None:
    for part in parts:
        prov = ruleset.provenance.get((part,))
        if prov is None:
            continue
        section.sources.extend(s for s in prov.source if s not in section.sources)
        if prov.status == "assumed":
            section.assumed = True
        if prov.reason and prov.reason.strip() not in (section.reason or ""):
            section.reason = " ".join(x for x in (section.reason, prov.reason.strip()) if x)
        if section.doc is None and not outdated(ruleset, prov, (part,)) and not any(
            c.startswith(part + ".") for c in _changed_by_options(ruleset)
        ):
            section.doc, section.doc_lang = _doc_in(prov.doc, lang)


def _cards(ruleset: Ruleset, lang: str, number: int) -> Section:
    pack = ruleset.deck
    intro = terms.pick(terms.SECTION_INTROS["cards"], lang).format(cards=len(pack.suits) * len(pack.ranks))
    sec = Section("cards", number, terms.pick(terms.SECTION_TITLES["cards"], lang), intro)
    _section_head(ruleset, sec, ("deck",), lang)
    sec.tables.append(Table(
        f"{terms.ui('suits_heading', lang)} (`deck.suits`)",
        [terms.ui("letter", lang), terms.ui("suit", lang)],
        [[f"{s.letter} {s.symbol if s.symbol != s.letter else ''}".strip(), s.names.get(lang) or s.id]
         for s in pack.suits],
    ))
    sec.tables.append(Table(
        f"{terms.ui('ranks_heading', lang)} (`deck.ranks`)",
        [terms.ui("letter", lang), terms.ui("rank", lang), terms.ui("card_points", lang)],
        [[r.letter + (f" ({', '.join(r.aliases)})" if r.aliases else ""), r.names.get(lang) or r.id,
          str(r.points)] for r in pack.ranks],
    ))
    sec.items.append((f"{terms.ui('total_points', lang)} (`deck.total_points`)", str(pack.total_points)))
    if pack.suits:  # the ranks, strongest first, as cards of the first suit
        sec.pictures = [f"{r.letter}{pack.suits[0].letter}" for r in pack.ranks]
    return sec


def _marriage_names(ruleset: Ruleset, counts: Sequence[int], lang: str) -> tuple[str, str] | None:
    """The names in ``lang`` of the two ranks of a marriage (``marriages.ranks``) in every form
    of ``counts`` (the model's default for a base ruleset, which has none), or ``None`` when
    the forms name different ranks."""
    pairs = {ruleset.form(n).marriages.ranks for n in counts} or {_DEFAULT_MARRIAGE_RANKS}
    if len(pairs) != 1:
        return None
    names = {r.id: r.names.get(lang) or r.id for r in ruleset.deck.ranks}
    first, second = pairs.pop()
    return names.get(first, first), names.get(second, second)


_DEFAULT_MARRIAGE_RANKS: tuple[str, str] = Marriages.__dataclass_fields__["ranks"].default  # type: ignore[assignment]
"""The model's default ``marriages.ranks`` (a base ruleset has no form to read them from)."""


def _applicable(ruleset: Ruleset, players: int | None) -> list[str]:
    """The names of the options that apply to ``players`` players (all of them for ``None``)."""
    return [name for name, opt in ruleset.options.items() if players is None or opt.applies_to(players)]


def _options(ruleset: Ruleset, lang: str, number: int, names: Sequence[str]) -> Section:
    sec = Section("options", number, terms.pick(terms.SECTION_TITLES["options"], lang),
                  terms.pick(terms.SECTION_INTROS["options"], lang))
    for name in names:
        opt = ruleset.options[name]
        current = ruleset.selected.get(name, opt.default)
        if opt.type == "choice":
            in_force = terms.ui("in_force", lang)
            words = [terms.option_value(name, c, lang) for c in opt.choices]
            shown = [f"**{w}** ({in_force})" if c == current else w
                     for c, w in zip(opt.choices, words, strict=True)]
            value = "; ".join(shown)
        elif opt.type == "bool":
            value = f"**{terms.ui('yes' if current else 'no', lang)}** ({terms.ui('in_force', lang)})"
        else:
            ranged = opt.minimum is not None or opt.maximum is not None
            bounds = f" ({opt.minimum}…{opt.maximum})" if ranged else ""
            value = f"**{current}** ({terms.ui('in_force', lang)}){bounds}"
        if current != opt.default:
            value += f"; {terms.ui('default', lang)}: {terms.option_value(name, opt.default, lang)}"
        doc, doc_lang = _doc_in(opt.doc, lang)
        sec.rules.append(Rule(
            f"options.{name}", terms.option_name(name, lang), "leaf", 0,
            [Cell(None, value, None)], list(opt.source), opt.status == "assumed",
            opt.reason.strip() if opt.reason else None, doc, doc_lang,
        ))
    return sec


def build_book(ruleset: Ruleset, *, lang: str = "en", players: int | None = None) -> Book:
    """The content of the rule book of ``ruleset`` in ``lang`` (``en``, ``pl``, ``ru``, ``cs``).

    Args:
        ruleset: a resolved ruleset (its selected options are the ones documented).
        lang: the language of the book.
        players: only the rules for this many players; all player counts when ``None``.
            The table options that only concern other counts (``two_player_exchange`` in a
            4-player book) are left out.

    Raises:
        OptionError: the ruleset has no form for ``players``.
        ValueError: an unknown language.
    """
    if lang not in terms.LANGS:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(terms.LANGS)}")
    counts = [players] if players is not None else list(ruleset.player_counts)
    if players is not None:
        ruleset.form(players)
    applicable = _applicable(ruleset, players)
    meta: list[tuple[str, str]] = [(terms.ui("kind", lang), terms.ui(f"kind.{ruleset.kind}", lang))]
    if ruleset.parents:
        meta.append((terms.ui("extends", lang), ", ".join(f"`{p}`" for p in ruleset.parents)))
    if counts:
        meta.append((terms.ui("player_counts", lang), ", ".join(str(n) for n in counts)))
    in_force = {k: v for k, v in ruleset.selected.items() if k not in ruleset.options or k in applicable}
    if in_force:
        meta.append((terms.ui("options_in_force", lang),
                     "; ".join(terms.option_setting(k, v, lang) for k, v in in_force.items())))
    meta.append((terms.ui("fingerprint", lang), f"`{ruleset.content_hash}`"))
    description = ruleset.description.get(lang) or ruleset.description.get("en")

    sections: list[Section] = [_cards(ruleset, lang, 1)]
    merged = _merge_forms(ruleset, counts, lang) if counts else []
    disabled = _disabled(merged)
    seen: set[str] = set()
    by_option = _option_sources(ruleset, players, lang)
    changed = _changed_by_options(ruleset)
    for key, parts in SECTION_ORDER:
        intro = terms.pick(terms.SECTION_INTROS[key], lang)
        if key == "marriages":
            intro = intro.format(pair=terms.marriage_pair(_marriage_names(ruleset, counts, lang), lang))
        sec = Section(key, len(sections) + 1, terms.pick(terms.SECTION_TITLES[key], lang), intro)
        _section_head(ruleset, sec, [p for p in parts if p != "table"], lang)
        for first, nodes in merged:
            if first.section != key:
                continue
            if any(first.path.startswith(d + ".") and first.path != d + ".enabled" for d in disabled):
                continue
            model = first.model
            if model in SHOWN_WHEN_CHANGED and all(is_default(ruleset.form(n), model) for n in nodes):
                continue
            needs, when = SHOWN_WHEN_SET.get(model), SHOWN_WHEN_IS.get(model)
            if needs is not None or when is not None:  # only the forms that use the field
                nodes = {n: node for n, node in nodes.items() if _uses(ruleset.form(n), needs, when)}
                if not nodes:
                    continue
                first = next(iter(nodes.values()))
            sec.rules.append(_rule(ruleset, first, nodes, counts, lang, seen, by_option, changed))
        if not counts:  # a base ruleset: the rules it writes, chapters it leaves empty skipped
            sec.rules.extend(_written_rules(ruleset, [p for p in parts if p != "table"], lang))
            if not sec.rules and not sec.doc:
                continue
        sections.append(sec)
    if applicable:
        sections.append(_options(ruleset, lang, len(sections) + 1, applicable))
    by_key = {sec.key: sec for sec in sections}
    for ex in _examples(ruleset, lang):  # each worked example in the chapter it illustrates
        if ex.players not in counts or _off_default(ruleset, ex.options):
            continue  # (an example of a rule an option of the book changes: not this book's)
        home = by_key.get(ex.topic)
        if home is None:  # a chapter a base ruleset lacks: keep the example anyway
            home = by_key.setdefault("examples", Section(
                "examples", len(sections) + 1, terms.pick(terms.SECTION_TITLES["examples"], lang)))
            if home not in sections:
                sections.append(home)
        home.examples.append(ex)
    if ruleset.sources:
        sec = Section("sources", len(sections) + 1, terms.pick(terms.SECTION_TITLES["sources"], lang))
        for src in ruleset.sources:
            where = src.url or (f"seed `{src.seed}`" if src.seed else "")
            text = f"{src.title} ({src.language})" + (f" — {where}" if where else "")
            if src.note:
                text += f". {src.note}"
            sec.items.append((src.id, text))
        sections.append(sec)
    base = _base_of(ruleset)
    changed_count = _mark_changes(sections, ruleset, base, merged, counts, lang) if base is not None else 0
    about = description.strip() if description else None
    if not counts:  # said once, at the top
        about = "\n\n".join(t for t in (about, terms.ui("no_forms", lang)) if t)
    return Book(ruleset.id, lang, ruleset.title(lang), about, meta, sections, terms.ui("generated", lang),
                ruleset.deck, base.id if base is not None else None, changed_count)


def _base_of(ruleset: Ruleset) -> Ruleset | None:
    """The ruleset a house file extends (its only parent, with that one's defaults), or ``None``
    for another kind, several parents, or a parent that does not load from here (a path
    relative to another directory)."""
    if ruleset.kind != "house" or len(ruleset.parents) != 1:
        return None
    try:
        return load_ruleset(ruleset.parents[0])
    except (TysiacError, OSError):
        return None


def _mark_changes(sections: Sequence[Section], ruleset: Ruleset, base: Ruleset,
                  merged: list[tuple[Node, dict[int, Node]]], counts: Sequence[int], lang: str) -> int:
    """Set :attr:`Rule.changed` on every rule of ``sections`` whose value differs from
    ``base``'s (for some player count of the book), and on every table option whose value in
    force differs; return how many rules are marked."""
    mine = {first.path: nodes for first, nodes in merged}
    shared = [n for n in counts if n in base.forms]
    theirs = {first.path: nodes for first, nodes in _merge_forms(base, shared, lang)}
    off = terms.ui("not_played_short", lang)
    marked = 0
    for section in sections:
        for rule in section.rules:
            if rule.path.startswith("options."):
                name = rule.path.split(".", 1)[1]
                if name not in base.options:
                    continue
                old = base.selected.get(name, base.options[name].default)
                if old != ruleset.selected.get(name, ruleset.options[name].default):
                    rule.changed = terms.option_value(name, old, lang)
            elif rule.kind == "leaf" and rule.path in mine:
                nodes, before = mine[rule.path], theirs.get(rule.path, {})
                differ = [n for n, node in nodes.items() if n not in before or _key(before[n]) != _key(node)]
                words: dict[str, list[int]] = {}
                for n in differ:
                    text = _words_in(before[n], theirs, n, off) if n in before else off
                    words.setdefault(text, []).append(n)
                whole = len(differ) == len(nodes) and len(words) == 1
                if words:
                    rule.changed = "; ".join(text if whole else f"{_players_label(ns, lang)}: {text}"
                                             for text, ns in words.items())
            marked += rule.changed is not None
    return marked


def _words_in(node: Node, nodes: Mapping[str, Mapping[int, Node]], n: int, off: str) -> str:
    """The value of ``node`` in words; for a group (a list of entries where the other
    ruleset has none), the labels of its entries."""
    if node.value is not None:
        return node.value.words
    inner = [m[n].label for path, m in nodes.items()
             if path.startswith(node.path + "[") and n in m and m[n].depth == node.depth + 1]
    return ", ".join(inner) or off


def _key(node: Node) -> Any:
    return None if node.value is None else (node.value.key, node.value.formula)


_META = frozenset(("source", "status", "reason", "doc"))


def _written_rules(ruleset: Ruleset, sections: Sequence[str], lang: str) -> list[Rule]:
    """The rules a base ruleset (no player forms) writes, as written: it has no resolved form
    to show, but no rule it sets may go missing from its book."""
    out: list[Rule] = []

    def walk(node: Any, path: str, depth: int) -> None:
        if isinstance(node, Mapping) and "value" in node and set(node) <= _META | {"value"}:
            node = node["value"]
        if isinstance(node, Mapping) and path.count(".") < 2 and not path.endswith(".values"):
            out.append(Rule(path, terms.label(path, lang), "group", depth))
            for key, value in node.items():
                if key not in _META:
                    walk(value, f"{path}.{key}", depth + 1)
            return
        if isinstance(node, Mapping):
            node = {k: v for k, v in node.items() if k not in _META}
        text = node if isinstance(node, str) else json.dumps(node, ensure_ascii=False)
        out.append(Rule(path, terms.label(path, lang), "leaf", depth, [Cell(None, f"`{text}`", None)]))

    for section in sections:
        for key, value in (ruleset.document.get(section) or {}).items():
            if key not in _META:
                walk(value, f"{section}.{key}", 0)
    return out


def render_book(book: Book, fmt: str = "md", *, links: Mapping[str, Any] | None = None) -> str:
    """The rule book as Markdown (``md``) or a standalone HTML page (``html``).

    ``links`` (HTML only) adds navigation: ``{"home": "../index.html", "langs": {"pl": "x.pl.html"},
    "markdown": "x.en.md"}``.

    Raises:
        ValueError: an unknown format.
    """
    if fmt not in ("md", "html"):
        raise ValueError(f"unknown format {fmt!r}; choose md or html")
    extra: dict[str, Any] = {}
    if fmt == "html":
        deck = book.deck
        shown = [[c for c in row if deck is not None and cards.card_code(deck, c)]
                 for sec in book.sections for ex in sec.examples for row in ex.hand_cards]
        shown += [sec.pictures for sec in book.sections]
        codes = {cards.card_code(deck, c) or c for row in shown for c in row} if deck is not None else set()
        extra["sprite"] = Markup(cards.sprite(deck, codes)) if deck is not None else ""
        extra["card_pictures"] = (lambda row: Markup("".join(cards.card_use(deck, c, book.lang) for c in row))
                                  if deck is not None else "")
    return render_template(f"book.{fmt}.j2", book=book, links=links or {}, ui=_ui(book.lang),
                           then_label=terms.pick(terms.EXAMPLE_WORDS["then"], book.lang), **extra)


def _ui(lang: str) -> dict[str, str]:
    return {key: terms.pick(texts, lang) for key, texts in terms.UI.items()}
