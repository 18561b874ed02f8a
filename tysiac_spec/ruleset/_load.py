"""Load a ruleset: YAML -> ``extends`` -> options -> schema -> semantic checks -> model.

This module drives the data flow drawn in ARCHITECTURE.md (section 1) and keeps its caches
(a checked document per file, a ruleset per file and options); each step is one module
(:mod:`._yaml`, :mod:`._extends` and :mod:`._merge`, :mod:`.validate`, :mod:`._options`,
:mod:`._build` and :mod:`._convert`).  It holds the checks of a resolved document before
options (its sizes, its formula problems beside its schema problems), the options chosen and
checked again, and the shipped core pack.
"""

from __future__ import annotations

import hashlib
import json
import types
from collections.abc import Mapping
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

from .. import limits
from ..cards import Deck
from ..errors import Diagnostic, RulesetError, TysiacError
from . import model, registry
from ._build import _build, _Checked, _deck, _form_compiler, _option_types, form_problems
from ._convert import Converter, built_once, plain_document, unwrap
from ._extends import _ancestry, _causes_noted, _lookup_in, _parsed, _root_of, resolve_document
from ._options import (
    OptionValue,
    _apply_options,
    _check_option_counts,
    _overridden_by_defaults,
    _select_options,
    parse_option_value,
)
from ._yaml import YamlProblems, YMap, load_yaml, mark_at, to_plain
from .validate import changed_schema_errors, form_sections, semantic_errors, sorted_diagnostics

__all__ = ["check_every_option", "core_deck", "load_ruleset", "parse_option_value", "resolve_document"]


def _content_hash(doc: Any) -> str:
    """The first 16 hex digits of the SHA-256 of the resolved document as sorted JSON (its
    plain copy made once per section, :func:`plain_document`: the schema check reads it too)."""
    plain = plain_document(doc) if isinstance(doc, Mapping) else to_plain(doc)
    text = json.dumps(plain, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def load_ruleset(
    ref: str | Path,
    *,
    options: Mapping[str, Any] | None = None,
    text: str | None = None,
) -> model.Ruleset:
    """Load, resolve and validate a ruleset.

    Args:
        ref: a shipped ruleset id or alias (``pl-standard``), or a path to a YAML file.
        options: values for the ruleset's declared options (typed, or text as given on a
            command line); the others keep their defaults.
        text: the YAML text itself (``ref`` is then only used as its file name).

    Returns:
        The immutable :class:`~tysiac_spec.ruleset.model.Ruleset`.

    Raises:
        RulesetError: with every problem found (YAML, ``extends``, schema, semantics), each a
            diagnostic with file, line, column and the path inside the ruleset.
        LimitError: a file, a document or the fan-out of ``extends`` or of the options is
            larger than the limits of :mod:`tysiac_spec.limits` allow.
        OptionError: an unknown option or a value outside its choices (lists the valid ones).
    """
    if text is not None:
        file = str(ref)
        raw = load_yaml(text, file=file)
        with _causes_noted(raw, file):
            return _with_options(_checked(file, raw), options)
    file, mtime = _file_of(ref)
    chosen = tuple(sorted((options or {}).items()))
    with _causes_noted(None, file):
        return _load_file(file, mtime, chosen, registry.extra_folders())


def _reload(ref: str, options: Mapping[str, Any]) -> model.Ruleset:
    """``load_ruleset(ref, options=options)``: :meth:`~.model.Ruleset.with_options` of a
    ruleset copied or unpickled (its way back to its checked document is not kept)."""
    return load_ruleset(ref, options=options)


model._reload = _reload


def _file_of(ref: str | Path) -> tuple[str, int]:
    """The file of the ruleset ``ref`` (:func:`registry.find`) and its modification time."""
    path = Path(ref) if isinstance(ref, Path) else registry.find(ref)
    try:
        mtime = path.stat().st_mtime_ns
    except OSError:
        mtime = 0
    return str(path), mtime


def check_every_option(ruleset: model.Ruleset, *, text: str | None = None) -> None:
    """Check that ``ruleset`` (loaded from its file, or from ``text`` as
    ``load_ruleset(ruleset.file, text=text)`` loaded it) is also valid with each other value
    of each choice and yes/no option, one option changed at a time.

    The document is resolved and checked once; each value costs its patches, the schema of
    the sections they change, the semantic checks and the forms -- what
    ``load_ruleset(ruleset.file, options={name: value})`` checks, without making the rest of
    the :class:`~tysiac_spec.ruleset.model.Ruleset`; the sections a value's patches leave
    as they are, and their models, are shared with the other values: linear in the number
    of option values.

    Raises:
        RulesetError: the first option value that makes the ruleset invalid, with its problems.
        OptionError: as :func:`load_ruleset`.
    """
    if text is not None:
        file = str(ruleset.file or ruleset.id)
        raw = load_yaml(text, file=file)
        with _causes_noted(raw, file):
            _every_option(ruleset, _checked(file, raw))
        return
    file, mtime = _file_of(ruleset.file or ruleset.id)
    with _causes_noted(None, file):
        _every_option(ruleset, _checked_file(file, mtime, registry.extra_folders()))


def _every_option(ruleset: model.Ruleset, checked: _Checked) -> None:
    for name, option in ruleset.options.items():
        if option.type == "choice":
            values: list[Any] = list(option.choices)
        elif option.type == "bool":
            values = [True, False]
        else:
            values = []
        for value in values:
            if value != option.default:
                patched = _chosen(checked, {name: value})[0]
                form_problems(patched, _pack(patched))


_MAX_BUILT = 64


_READ_ON = frozenset({"yaml.float", "yaml.ambiguous-bool", "yaml.ambiguous-number", "yaml.too-large"})
"""The YAML problems after which a file is checked on (each value kept as its text is
harmless); after any other (a control character, a tag, a limit) the file is not read on."""
_READ_ON_MOST = 20
"""Most YAML problems after which a file is checked on (more fill the screen already)."""
_READ_ON_VALUES = 10_000
"""Most values of a document checked on after its YAML problems (the largest shipped
ruleset holds about 1,300; a generated file of thousands of entries is not checked on)."""


@lru_cache(maxsize=32)
def _checked_file(file: str, mtime: int, folders: tuple[Path, ...]) -> _Checked:
    """:func:`_checked` of a file, cached by file, modification time and allowed folders.

    A file with YAML problems that was read all the same (:class:`YamlProblems`) is checked
    on, so that its schema and formula problems are reported in the same run."""
    try:
        raw = _parsed(file)
    except YamlProblems as exc:
        found = list(exc.diagnostics)
        harmless = all(d.code in _READ_ON for d in found)
        if not harmless or len(found) > _READ_ON_MOST or exc.values > _READ_ON_VALUES:
            raise
        try:
            _checked(file, exc.document)
        except TysiacError as more:
            at = {d.path for d in found}  # (a value kept as its text is not reported again)
            found += [d for d in more.diagnostics if d.path not in at and d not in found]
        raise RulesetError(sorted_diagnostics(found)) from None
    return _checked(file, raw)


@lru_cache(maxsize=64)
def _load_file(
    file: str, mtime: int, options: tuple[tuple[str, Any], ...], folders: tuple[Path, ...]
) -> model.Ruleset:
    """Cached by file, modification time, options and the allowed folders (rulesets are
    immutable)."""
    return _with_options(_checked_file(file, mtime, folders), dict(options))


def _check_sizes(doc: YMap) -> None:
    """Refuse a pack or an auction whose size would make the engine's work explode, before
    anything is built: the ranks and suits of the pack (the engine tabulates every subset of
    a suit: 2 to the power of its ranks), and the bids the auction can offer at one turn
    when its cap is a number (from the lowest opening to the cap, in steps).

    Raises:
        LimitError: ``limit.deck_ranks``, ``limit.deck_suits``, ``limit.bids``.
    """
    deck = unwrap(doc.get("deck"))
    if isinstance(deck, Mapping):
        for key, name in (("ranks", "deck_ranks"), ("suits", "deck_suits")):
            items = unwrap(deck.get(key))
            if isinstance(items, list):
                mark = mark_at(doc, ("deck", key)) or doc.mark
                limits.check(name, len(items), file=mark.file, line=mark.line,
                             column=mark.column, path=("deck", key))
    for n in unwrap(doc.get("players")) or {}:
        auction = unwrap(form_sections(doc, str(n)).get("auction")) or {}
        cap, step = unwrap(auction.get("cap")), unwrap(auction.get("step", 10))
        lowest = min(unwrap(auction.get("min_bid", 100)), unwrap(auction.get("forced_bid", 100)))
        if isinstance(cap, int) and isinstance(step, int) and isinstance(lowest, int) and step > 0:
            offered = max(0, (cap - lowest) // step + 1)
            path: tuple[str | int, ...] = ("auction", "cap")
            mark = mark_at(doc, path) or doc.mark
            limits.check("bids", offered, file=mark.file, line=mark.line, column=mark.column,
                         path=path, subject=f"the bids of the {n}-player auction, "
                         f"from {lowest} to the cap {cap} in steps of {step}")


def _checked(file: str, raw: Any) -> _Checked:
    """Resolve ``extends``, bound the options, check the schema, the sizes and the semantics."""
    doc = resolve_document(raw, file=file, share=True)  # loaded files are shared, never changed
    _check_option_counts(doc)
    diags = changed_schema_errors(doc, doc.keys())  # each section checked once per content
    if not diags:
        _check_sizes(doc)
        diags = list(semantic_errors(doc, leaf=file))
    elif len(diags) < _READ_ON_MOST:  # the formulas of the sections that can be read, in the same run
        diags += [d for d in _formula_problems(doc) if d not in diags]
    if diags:
        raise RulesetError(sorted_diagnostics(diags))
    ancestors = _ancestry(raw, file, _lookup_in(_root_of(file)), {})
    return _Checked(file, raw, doc, _content_hash(doc), types.MappingProxyType(ancestors))


def _formula_problems(doc: YMap) -> list[Diagnostic]:
    """The formula problems (``dsl.*``) of a document the schema refused, section by section:
    a section that cannot be built is skipped (its schema problems are reported)."""
    problems: list[Diagnostic] = []
    try:
        deck = _deck(json.dumps(to_plain(doc["deck"]))) if "deck" in doc else core_deck()
        extension_options = _option_types(doc.get("options") or {})
        counts = list((unwrap(doc.get("players")) or {}).items())
    except Exception:  # a pack or options the schema refused: no formula can be compiled
        return problems
    for n, entry in counts:
        try:
            sections = form_sections(doc, str(n))
            active = unwrap((unwrap(entry) or {}).get("active")) or int(n)
            compiler = _form_compiler(deck, sections, extension_options, int(active))
        except Exception:
            continue
        conv = Converter(compiler)
        for name, cls in model.SECTIONS.items():
            try:
                conv.build(cls, sections.get(name), (name,))
            except Exception:  # (the schema problems of this section say why)
                pass
        problems.extend(p for p in compiler.problems if p not in problems)
    return problems


def _with_options(checked: _Checked, options: Mapping[str, Any] | None) -> model.Ruleset:
    """The model of a checked document with its options chosen: the options' patches
    applied, the sections they change checked again, the forms compiled.  Made once per
    document and options (``checked.built``); the ruleset can choose others
    (:meth:`~.model.Ruleset.with_options`, through :func:`_rechosen`)."""
    chosen = dict(options or {})
    doc = checked.doc
    typed = _select_options(str(doc["id"]), doc.get("options") or {}, chosen)
    key = tuple(sorted((name, typed[name]) for name in chosen))  # (text and typed values alike)
    made = checked.built.get(key)
    if made is not None:
        return made
    patched, selected = _chosen(checked, chosen)
    made = _build(patched, _pack(patched), checked, selected, set(chosen))
    object.__setattr__(made, "_rechoose", partial(_rechosen, checked, chosen))
    if len(checked.built) >= _MAX_BUILT:
        del checked.built[next(iter(checked.built))]
    checked.built[key] = made
    return made


def _rechosen(checked: _Checked, chosen: Mapping[str, Any], options: Mapping[str, Any]) -> model.Ruleset:
    """:meth:`~.model.Ruleset.with_options` of a ruleset built from ``checked`` with the
    options ``chosen``: ``options`` over them, on the same document."""
    return _with_options(checked, {**chosen, **options})


def _chosen(
    checked: _Checked, options: Mapping[str, Any] | None
) -> tuple[YMap, dict[str, OptionValue]]:
    """A checked document with its options chosen (the patches applied, the sections they
    change checked again) and the value of each option.

    Raises:
        OptionError: an unknown option or value.
        RulesetError: a default patch overriding the file's own rules, or the patched
            document's schema or semantic problems.
    """
    doc, raw, file = checked.doc, checked.raw, checked.file
    ruleset_id = str(doc["id"])
    declared = {name: opt for name, opt in (doc.get("options") or {}).items()}
    selected = _select_options(ruleset_id, declared, options or {})
    overridden = _overridden_by_defaults(doc, raw, options or {}, selected)
    if overridden:
        raise RulesetError(sorted_diagnostics(overridden))
    patched, touched = _apply_options(doc, selected)
    if touched:
        diags = changed_schema_errors(patched, touched) or list(
            semantic_errors(patched, leaf=file)
        )
        if diags:
            raise RulesetError(sorted_diagnostics(diags))
    return patched, selected


def _pack(doc: YMap) -> Deck:
    """The pack of a checked document: the one its ``deck`` writes (one object per written
    pack), else the shipped core pack."""
    return built_once(
        "cards", doc["deck"], lambda: (_deck(json.dumps(to_plain(doc["deck"]))), True)
    ) if "deck" in doc else core_deck()


def core_deck() -> Deck:
    """The pack of the shipped ``core`` ruleset (``rulesets/core.yaml``: 24 cards, 9 to ace in
    four suits, 120 card points), for reading card notation outside a loaded ruleset:
    ``core_deck().parse("QH")``.

    Reads the file on the first call, then again only when the loader's cache (64 rulesets)
    no longer holds it or the file changed; cards of two reads compare equal (``==``).

    Raises:
        RulesetError: the shipped ``core`` ruleset cannot be read or is invalid (a broken
            installation).
    """
    return load_ruleset("core").deck
