"""The immutable :class:`~.model.Ruleset` of a checked document with its options applied,
for the loader (:mod:`._load`).

- :func:`_build`: the ruleset itself (names, sources, options, the pack, the forms);
- :func:`_forms`: the form of each player count, every formula compiled with the DSL
  compiler of its form (:func:`_form_compiler`: the pack, the marriage values and formula,
  the options' types, the counters), and the checks that need a compiled form;
- :func:`_provenance`: where each value was written, and which files extend that one.
"""

from __future__ import annotations

import dataclasses
import json
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache, partial
from typing import Any

from .. import dsl
from ..cards import Deck
from ..errors import Diagnostic, DslError, RulesetError
from . import model
from ._convert import (
    Converter,
    FormulaCompiler,
    _text_start,
    build_form,
    built_once,
    collect_provenance,
    deep_unwrap,
    is_annotated,
    kept,
    made_once,
    plain_document,
    provenance_of,
    unwrap,
)
from ._extends import _mark
from ._options import _NOT_WRITTEN, OptionValue, _leaves, _patch_of, _written
from ._yaml import YMap, is_mapping, mark_at, to_plain
from .validate import compiled_errors, form_sections, never_played, sorted_diagnostics


@dataclass(frozen=True, slots=True)
class _Checked:
    """A ruleset document resolved and checked, before options are applied."""

    file: str
    raw: Any
    doc: YMap
    content_hash: str
    ancestors: Mapping[str | None, frozenset[str | None]]
    """Each file of the ``extends`` tree (the loaded one included) -> the files it extends,
    directly or not (:func:`._extends._ancestry`)."""
    built: dict[tuple[tuple[str, OptionValue], ...], model.Ruleset] = dataclasses.field(
        default_factory=dict, compare=False, repr=False
    )
    """The rulesets built from it, by the options chosen (:func:`._load._with_options`; at
    most :data:`._load._MAX_BUILT`), so that the same options give the same ruleset object."""


def _build(
    doc: YMap, deck: Deck, checked: _Checked, selected: Mapping[str, OptionValue], chosen: set[str]
) -> model.Ruleset:
    """The model of ``doc`` (``checked.doc`` with the ``selected`` option values applied; its
    pack ``deck``; ``chosen`` are the options the caller chose, the others keep their
    defaults)."""
    file, content_hash, raw = checked.file, checked.content_hash, checked.raw
    forms = _forms(doc, deck)
    conv = Converter()
    options = built_once("options", doc.get("options"), lambda: ({
        name: conv.build(model.Option, opt, ("options", name))
        for name, opt in (doc.get("options") or {}).items()
    }, True))
    sources = built_once("sources", doc.get("sources"), lambda: (tuple(
        conv.build(model.Source, s, ("sources", i)) for i, s in enumerate(doc.get("sources") or [])
    ), True))
    parents = raw.get("extends") if isinstance(raw, Mapping) else None
    parent_ids = (parents,) if isinstance(parents, str) else tuple(parents or ())
    return model.Ruleset(
        id=str(doc["id"]),
        kind=doc.get("kind", "variant"),
        name=types.MappingProxyType(dict(doc.get("name") or {})),
        description=types.MappingProxyType(dict(doc.get("description") or {})),
        aliases=tuple(doc.get("aliases") or ()),
        sources=sources,
        deck=deck,
        forms=types.MappingProxyType(forms),
        options=types.MappingProxyType(options),
        selected=types.MappingProxyType(dict(selected)),
        provenance=types.MappingProxyType(_provenance(doc, checked, selected, chosen)),
        file=file,
        content_hash=content_hash,
        parents=parent_ids,
        document=types.MappingProxyType(plain_document(doc)),
    )


def _forms(doc: YMap, deck: Deck) -> dict[int, model.Form]:
    """The form of each player count of a checked document with its options chosen (its
    pack ``deck``: :func:`._load._pack`), every formula compiled.

    Raises:
        RulesetError: every formula problem (``dsl.*``) of every form.
    """
    forms: dict[int, model.Form] = {}
    problems: list[Diagnostic] = []
    extension_options = _option_types(doc.get("options") or {})
    for n, entry in (unwrap(doc.get("players")) or {}).items():
        sections = form_sections(doc, str(n))
        forms[int(n)], own = _form(int(n), entry, sections, deck, extension_options)
        # (noted for :func:`form_problems`: the option values that leave this form's parts)
        made_once(("form problems", int(n)), (deck, extension_options, entry, *sections.values()),
                  partial(tuple, own))
        problems.extend(p for p in own if p not in problems)
    if problems:
        raise RulesetError(sorted_diagnostics(problems))
    return forms


def form_problems(doc: YMap, deck: Deck) -> None:
    """What :func:`_forms` raises for ``doc``, without keeping the forms: the problems of a
    form are worked out once per its parts (the pack, the options' types, its ``players``
    entry and its sections: :func:`made_once`), so that the option values of a ruleset that
    leave a form's parts as they are do not build it again.

    Raises:
        RulesetError: as :func:`_forms`.
    """
    problems: list[Diagnostic] = []
    extension_options = _option_types(doc.get("options") or {})
    for n, entry in (unwrap(doc.get("players")) or {}).items():
        sections = form_sections(doc, str(n))
        own = made_once(
            ("form problems", int(n)), (deck, extension_options, entry, *sections.values()),
            partial(_form_problems, int(n), entry, sections, deck, extension_options),
        )
        problems.extend(p for p in own if p not in problems)
    if problems:
        raise RulesetError(sorted_diagnostics(problems))


def _form_problems(
    n: int, entry: Any, sections: Mapping[str, Any], deck: Deck, options: Mapping[str, dsl.Type]
) -> tuple[Diagnostic, ...]:
    return _form(n, entry, sections, deck, options)[1]


def _form(
    n: int, entry: Any, sections: Mapping[str, Any], deck: Deck, options: Mapping[str, dsl.Type]
) -> tuple[model.Form, tuple[Diagnostic, ...]]:
    """The form of ``n`` players (its ``players`` ``entry``, its merged ``sections``) and its
    problems: its formulas' (``dsl.*``), else :func:`never_played`'s and the range checks'
    (:func:`compiled_errors`), each once."""
    active = unwrap((unwrap(entry) or {}).get("active")) or n
    compiler = _form_compiler(deck, sections, options, int(active))
    form = build_form(n, sections, _table_part(entry), compiler)
    own: list[Diagnostic] = []
    own.extend(p for p in compiler.problems if p not in own)
    if not compiler.problems and (stuck := never_played(form)) and stuck not in own:
        own.append(stuck)
    if not compiler.problems:
        own.extend(p for p in compiled_errors(form, deck.total_points, len(deck.cards)) if p not in own)
    return form, tuple(own)


def _provenance(
    doc: YMap, checked: _Checked, selected: Mapping[str, OptionValue], chosen: set[str]
) -> dict[tuple[str | int, ...], model.Provenance]:
    """:func:`collect_provenance` of the document, section by section (each made once per
    section document: :func:`built_once`), each written value knowing the file that wrote it
    and the files that extend that file (:attr:`model.Provenance.heirs`).

    A value an option's patch sets is written where the patch is, unless a file extending
    the one that declares the option changed its default (and the table did not choose the
    value, ``chosen``): that file chose the value, which then carries the provenance the file
    gives the default (an annotated ``default``), or none.
    """
    ancestors = checked.ancestors
    heirs = _heirs_of(ancestors)
    out: dict[tuple[str | int, ...], model.Provenance] = {}
    for key, value in doc.items():
        if key not in ("options", "sources"):
            mark = doc.value_marks.get(key)
            made = partial(
                kept, collect_provenance, value, (key,), heirs, mark.file if mark else None
            )
            out.update(built_once(("provenance", checked.file, checked.content_hash), value, made))
    for name, value in selected.items():
        patch = _patch_of(doc, name, value)
        if not patch:
            continue
        declared = mark_at(doc, ("options", name, "set"))
        default = mark_at(doc, ("options", name, "default"))
        if name in chosen or default is None or declared is None or default.file == declared.file:
            continue  # the declaring file's patch, its marks and provenance as collected
        written = (unwrap(doc["options"][name]) or {}).get("default")
        own = provenance_of(written, default.file, heirs) if isinstance(written, Mapping) else None
        prov = own or model.Provenance(file=default.file, heirs=heirs(default.file))
        for path, _ in _leaves(patch):
            found = out.get(path)
            if found is None or not (found.source or found.status or found.reason or found.doc):
                out[path] = prov  # a patched value citing its own provenance keeps it
    _keep_annotations(out, doc, checked.doc, selected, heirs)
    return out


def _keep_annotations(
    out: dict[tuple[str | int, ...], model.Provenance],
    doc: YMap,
    unpatched: YMap,
    selected: Mapping[str, OptionValue],
    heirs: Callable[[str | None], frozenset[str | None]],
) -> None:
    """A value an option's patch writes plainly (``auction: {raise_by: any}``) over the same
    value written with its provenance (``raise_by: {value: any, source: …, doc: …}``) keeps
    that provenance: the patch changes nothing but would otherwise lose the value's sources
    and words.  A patch writing another value does not (the words were about the old one);
    the rule book says which option set it."""
    for name, value in selected.items():
        for path, patched in _leaves(_patch_of(doc, name, value) or {}):
            found = out.get(path)
            if found is not None and (found.source or found.status or found.reason or found.doc):
                continue  # the patch (or a house default) cites its own provenance
            before = _written(unpatched, path)
            if before is _NOT_WRITTEN or not is_annotated(before):
                continue
            if deep_unwrap(to_plain(before)) != deep_unwrap(to_plain(patched)):
                continue
            mark = mark_at(unpatched, path)
            kept_prov = provenance_of(before, mark.file if mark else None, heirs)
            if kept_prov is not None:
                out[path] = kept_prov


def _heirs_of(
    ancestors: Mapping[str | None, frozenset[str | None]],
) -> Callable[[str | None], frozenset[str | None]]:
    """``heirs(file)``: ``file`` and the files of the tree that extend it."""

    @cache
    def heirs(file: str | None) -> frozenset[str | None]:
        return frozenset({file, *(f for f, above in ancestors.items() if file in above)})

    return heirs


@lru_cache(maxsize=32)
def _deck(text: str) -> Deck:
    """The pack written as the JSON ``text`` (one object per content: a ruleset's option
    values share it, and so do the formulas compiled for it)."""
    return Deck.from_data(deep_unwrap(json.loads(text)))


def _option_types(options: Mapping[str, Any]) -> dict[str, dsl.Type]:
    """The DSL type of each option of the document's ``options`` (made once per ``options``
    document: :func:`made_once`; do not change it)."""
    if not options:
        return _NO_OPTIONS
    made: dict[str, dsl.Type] = made_once("option types", (options,), partial(_types_of, options))
    return made


_NO_OPTIONS: dict[str, dsl.Type] = {}
"""The options' types of a document without options (one object: :func:`made_once` keys
by it)."""


def _types_of(options: Mapping[str, Any]) -> dict[str, dsl.Type]:
    out: dict[str, dsl.Type] = {}
    for name, opt in options.items():
        kind = unwrap(opt.get("type"))
        if kind == "bool":
            out[name] = dsl.BOOL
        elif kind == "int":
            out[name] = dsl.INT
        else:
            out[name] = dsl.ChoiceType(tuple(str(c) for c in unwrap(opt.get("choices")) or ()))
    return out


def _form_compiler(
    deck: Deck, sections: Mapping[str, Any], options: Mapping[str, dsl.Type], active: int
) -> FormulaCompiler:
    """A DSL compiler for one player form (``active`` players in a deal): its marriage
    values, ranks and value formula, and counters.  What it reads (the pack, the
    ``marriages`` and ``match`` sections, the options' types) is read once per those parts
    (:func:`made_once`): the option values of a ruleset share them."""
    marriages, match = sections.get("marriages"), sections.get("match")
    parts = (deck, marriages, match, options)
    return FormulaCompiler.of(made_once(("compiler", active), parts, partial(
        _compiler_scope, deck, marriages, match, options, active
    )))


def _compiler_scope(
    deck: Deck, marriages: Any, match: Any, options: Mapping[str, dsl.Type], active: int
) -> Any:
    marriages = unwrap(marriages) or {}
    read = Converter().field  # (the model's reading of the two fields, before it is built)
    values = read(model.Marriages, "values", marriages, ("marriages",))
    ranks = read(model.Marriages, "ranks", marriages, ("marriages",))
    counters = unwrap((unwrap(match) or {}).get("counters")) or []
    deck_info = dsl.DeckInfo.of(
        deck,
        marriage_values=dict(values),
        marriage_ranks=(str(ranks[0]), str(ranks[1])),
    )
    deck_info = dataclasses.replace(
        deck_info, marriage_value=_marriage_value(marriages, active, deck_info)
    )
    extra = dsl.ContextExtension(
        options=dict(options),
        counters={str(unwrap(c.get("id"))): dsl.INT for c in counters},
    )
    return FormulaCompiler(deck_info, extra)._scope


def _marriage_value(
    marriages: Mapping[str, Any], active: int, deck: dsl.DeckInfo
) -> dsl.MarriageValue | None:
    """The ``marriages.value`` formula of a form's ``marriages`` section with what it reads
    besides a suit's points, for ``marriages(cards)`` (:class:`dsl.MarriageValue`); ``None``
    when the section writes none."""
    node = marriages.get("value") if is_mapping(marriages) else None
    text = unwrap(node)
    if not isinstance(text, str):
        return None
    fields = model.Marriages.__dataclass_fields__
    at: Any = node if is_annotated(node) else marriages
    mark = _text_start(at.value_marks.get("value")) if isinstance(at, YMap) else None
    origin = dsl.Origin(
        file=mark.file if mark else None,
        line=mark.line if mark else 1,
        column=mark.column if mark else 1,
        path=("marriages", "value"),
    )
    plain = dsl.DeckInfo(
        rank_points=deck.rank_points,
        marriage_values=deck.marriage_values,
        suits=deck.suits,
        ranks=deck.ranks,
        marriage_ranks=deck.marriage_ranks,
    )
    try:
        compiled = dsl.compile_formula(text, "marriage.value", deck=plain, origin=origin)
    except DslError:
        return None  # its problems are reported where it is written
    sets_trump = unwrap(marriages.get("sets_trump"))
    change = unwrap(marriages.get("trump_change"))
    return dsl.MarriageValue(
        text=text,
        origin=origin,
        compiled=compiled,
        sets_trump=bool(fields["sets_trump"].default if sets_trump is None else sets_trump),
        first_only=(change or fields["trump_change"].default) == "first_only",
        players=active,
    )


def _table_part(entry: Any) -> dict[str, Any]:
    if not isinstance(entry, Mapping):
        return {}
    table_fields = {f for f in model.TablePlan.__dataclass_fields__}
    out = YMap({k: v for k, v in entry.items() if k in table_fields}, mark=_mark(entry))
    if isinstance(entry, YMap):
        for k in out:
            out.value_marks[k] = entry.value_marks[k]
            out.key_marks[k] = entry.key_marks[k]
    return out
