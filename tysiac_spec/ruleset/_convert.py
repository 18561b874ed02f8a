"""Turn a validated ruleset document into the frozen model (:mod:`.model`).

The document has already passed the JSON Schema and the semantic checks, so the
conversion trusts its shapes.  Annotated values (``{value: …, source: …}``) are
unwrapped here; their provenance is collected separately by
:func:`collect_provenance`.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Union, get_args, get_origin

from .. import dsl
from ..errors import Diagnostic, DslError
from . import model
from ._schema import META_KEYS, _hints
from ._yaml import Mark, YList, YMap, is_mapping, to_plain
from .model import Formula, Provenance

Path = tuple[str | int, ...]


def is_annotated(value: Any) -> bool:
    """Whether ``value`` is the annotated form ``{value: …, source: …, …}`` of a rule value."""
    return (
        is_mapping(value)
        and "value" in value
        and all(k == "value" or k in META_KEYS for k in value)
    )


def _has_value_rule(tp: Any) -> bool:
    """Whether ``tp`` is a section with a rule of its own named ``value`` (``{value: 201}``
    written there is that rule, not an annotated value)."""
    return (
        tp is not Formula
        and isinstance(tp, type)
        and dataclasses.is_dataclass(tp)
        and "value" in {f.name for f in dataclasses.fields(tp)}
    )


def unwrap(value: Any) -> Any:
    """The plain rule value of a possibly annotated value."""
    return value["value"] if is_annotated(value) else value


def deep_unwrap(value: Any) -> Any:
    """A plain copy of ``value`` with every annotated value replaced by its plain value and
    the provenance keys of rule elements dropped."""
    value = unwrap(value)
    if is_mapping(value):
        return {k: deep_unwrap(v) for k, v in value.items() if k not in META_KEYS}
    if isinstance(value, list):
        return [deep_unwrap(v) for v in value]
    return value


Heirs = Callable[[str | None], frozenset[str | None]]
"""``heirs(file)``: the file and every file of the ruleset that extends it (see
:attr:`model.Provenance.heirs`)."""


def provenance_of(
    node: Mapping[str, Any], file: str | None = None, heirs: Heirs | None = None
) -> Provenance | None:
    """The provenance an element writes itself (its ``source``/``status``/``reason``/``doc``
    keys), ``None`` when it writes none; ``file`` wrote the element (the file of its first
    provenance key wins when the loader's marks know it)."""
    if not any(k in node for k in META_KEYS):
        return None
    src = node.get("source", ())
    if isinstance(src, str):
        src = (src,)
    doc_file = file
    if isinstance(node, YMap):
        file = next(
            (node.value_marks[k].file for k in META_KEYS if k in node and k in node.value_marks),
            file,
        )
        doc_mark = node.value_marks.get("doc") if "doc" in node else None
        doc_file = doc_mark.file if doc_mark is not None else file
    return Provenance(
        source=tuple(src),
        status=node.get("status"),
        reason=node.get("reason"),
        doc=types.MappingProxyType(dict(node.get("doc") or {})),
        file=file,
        heirs=heirs(file) if heirs is not None else None,
        doc_file=doc_file,
        doc_heirs=heirs(doc_file) if heirs is not None else None,
    )


def collect_provenance(
    doc: Any, path: Path = (), heirs: Heirs | None = None, file: str | None = None
) -> dict[Path, Provenance]:
    """Every rule element carrying ``source``/``status``/``reason``/``doc``, by path.

    Shape: ``{("auction", "step"): Provenance(...), ("deck",): Provenance(...)}``.
    ``options`` and ``sources`` are skipped (their keys are part of their own format).

    With ``heirs``, every written value without provenance of its own gets an empty entry
    naming the file that wrote it (``file``, from the loader's marks), so a rule book knows
    which enclosing elements speak for it (:attr:`model.Provenance.heirs`).
    """
    out: dict[Path, Provenance] = {}
    if is_mapping(doc):
        prov = provenance_of(doc, file, heirs)
        if path and path[0] not in ("options", "sources"):
            if prov is not None:
                out[path] = prov
            elif heirs is not None and (is_annotated(doc) or _all_from(doc, file)):
                # a value, or a group one file wrote whole (a house file's `talon.rebuy`):
                # that file speaks for it, not the section of a parent it is merged into
                out[path] = Provenance(file=file, heirs=heirs(file))
        if is_annotated(doc):
            return out
        for key, value in doc.items():
            if (not path and key in ("options", "sources")) or key in META_KEYS:
                continue
            mark = _mark_of(doc, key)
            out.update(collect_provenance(value, (*path, key), heirs, mark.file if mark else file))
    elif isinstance(doc, list):
        items = [
            collect_provenance(value, (*path, i), heirs, _file_of_item(doc, i, file))
            for i, value in enumerate(doc)
        ]
        if heirs is not None and path and not any(isinstance(v, Mapping) for v in doc):
            out[path] = Provenance(file=file, heirs=heirs(file))  # a list of values: one value
        for found in items:
            out.update(found)
    elif heirs is not None and path and path[0] not in ("options", "sources"):
        out[path] = Provenance(file=file, heirs=heirs(file))
    return out


def _all_from(node: Any, file: str | None) -> bool:
    """Whether every key and item in ``node`` was written by ``file`` (the loader's marks; a
    mapping merged from a parent's keys and a house file's is not)."""
    if file is None:
        return False
    if is_mapping(node):
        return all(
            (mark := _mark_of(node, key)) is not None and mark.file == file and _all_from(value, file)
            for key, value in node.items()
        )
    if isinstance(node, list):
        return all(
            (mark := _item_mark(node, i)) is not None and mark.file == file and _all_from(value, file)
            for i, value in enumerate(node)
        )
    return True


def _file_of_item(seq: Any, index: int, file: str | None) -> str | None:
    mark = _item_mark(seq, index)
    return mark.file if mark else file


def _mark_of(mapping: Any, key: str) -> Mark | None:
    if isinstance(mapping, YMap):
        return mapping.value_marks.get(key)
    return None


def _item_mark(seq: Any, index: int) -> Mark | None:
    if isinstance(seq, YList) and index < len(seq.item_marks):
        return seq.item_marks[index]
    return None


class Converter:
    """Builds model objects from (merged) document mappings, keeping formula positions.

    Positions come from the loader's :class:`YMap`/:class:`YList` marks, which the
    merge keeps, so a formula inherited from a parent points into the parent's file.
    With a ``compiler`` every formula is compiled as it is built; its problems are
    collected in ``compiler.problems`` (the load then fails with all of them).
    """

    def __init__(self, compiler: FormulaCompiler | None = None) -> None:
        self.compiler = compiler

    def build(self, cls: type, data: Mapping[str, Any] | None, path: Path) -> Any:
        """Instantiate dataclass ``cls`` from ``data`` (defaults for absent fields)."""
        data = data or {}
        kwargs: dict[str, Any] = {}
        for f in _plan(cls).values():
            if f.name in data or f.mapping:
                kwargs[f.name] = self._field(f, data, path)
        return cls(**kwargs)

    def field(self, cls: type, name: str, data: Mapping[str, Any] | None, path: Path) -> Any:
        """Field ``name`` of dataclass ``cls`` read from the section ``data`` (at ``path``) as
        :meth:`build` reads it: converted by the field's type; absent, an empty mapping for a
        mapping field, else the field's default.  The one reading of a field from the
        document: the loader reads ``marriages.values`` and ``marriages.ranks`` through it for
        the formulas' :class:`~tysiac_spec.dsl.DeckInfo` before the model is built."""
        return self._field(_plan(cls)[name], data or {}, path)

    def _field(self, f: _Field, data: Mapping[str, Any], path: Path) -> Any:
        name = f.name
        if name in data:
            return self.value(f.type, data[name], (*path, name), f.metadata, _mark_of(data, name))
        if f.mapping:
            return types.MappingProxyType({})
        if f.factory is not dataclasses.MISSING:
            return f.factory()
        return f.default

    def value(
        self, tp: Any, raw: Any, path: Path, meta: Mapping[str, Any], mark: Mark | None = None
    ) -> Any:
        raw_value = unwrap(raw)
        info = _type_info(tp)
        inner = info.inner
        if raw_value is not raw and not is_mapping(raw_value) and info.value_rule:
            raw_value = raw  # a section whose own rule is named `value` (`ace_marriage: {value: 201}`)
        if raw_value is None:
            return None
        if inner is Formula:
            if is_annotated(raw):
                mark = _mark_of(raw, "value")
            return self.formula(raw_value, path, meta, mark)
        if info.dataclass:
            return self.build(inner, raw_value, path)
        if info.origin is tuple:
            item_tp = info.args[0]
            return tuple(
                self.value(item_tp, item, (*path, i), {}, _item_mark(raw_value, i))
                for i, item in enumerate(raw_value)
            )
        if info.mapping:
            val_tp = info.args[1]
            return types.MappingProxyType(
                {
                    str(k): self.value(val_tp, v, (*path, k), {}, _mark_of(raw_value, k))
                    for k, v in raw_value.items()
                }
            )
        if isinstance(raw_value, YMap):
            return types.MappingProxyType(dict(raw_value))
        return raw_value

    def formula(
        self, text: str, path: Path, meta: Mapping[str, Any], mark: Mark | None
    ) -> Formula:
        mark = _text_start(mark)
        context = meta.get("formula") or ""
        compiled = self.compiler.compile(text, context, mark, path) if self.compiler else None
        return Formula(
            text=text,
            context=context,
            file=mark.file if mark else None,
            line=mark.line if mark else None,
            column=mark.column if mark else None,
            path=path,
            compiled=compiled,
        )


class FormulaCompiler:
    """Compiles the formulas of one player form with the DSL, collecting diagnostics.

    ``deck`` holds the deck facts (card points, marriage values) and ``extra`` the
    ruleset's options and counters.  Context ids ending in ``:effects`` are
    statement lists (``match.rules[].then``).  Identical formulas at the same place, with
    the same deck facts and extension, are compiled once (:func:`_compiled`): a ruleset
    shares most formulas between its player forms and between its option values.
    """

    def __init__(
        self, deck: dsl.DeckInfo, extra: dsl.ContextExtension, scope: _Scope | None = None
    ) -> None:
        self.deck = deck
        self.extra = extra
        self.problems: list[Diagnostic] = []
        self._scope = scope or _scope(deck, extra)

    @classmethod
    def of(cls, scope: _Scope) -> FormulaCompiler:
        """A compiler (with no problems yet) for the deck facts and extension of ``scope``."""
        return cls(scope.deck, scope.extra, scope)

    def compile(self, text: str, context: str, mark: Mark | None, path: Path) -> Any:
        origin = dsl.Origin(
            file=mark.file if mark else None,
            line=mark.line if mark else 1,
            column=mark.column if mark else 1,
            path=path,
        )
        result, problems = _compiled(text, context, origin, self._scope)
        for diagnostic in problems:
            if diagnostic not in self.problems:
                self.problems.append(diagnostic)
        return result


class _Scope:
    """The deck facts and extension a formula is compiled with, as a key: equal when their
    contents are equal and the pack is the same object (compiled card functions keep it).

    Made through :func:`_scope`, which gives the one scope of each key, so that the caches
    keyed by it (:func:`_compiled`, :func:`built_once`) find it by identity."""

    __slots__ = ("_hash", "deck", "extra", "key")

    def __init__(self, deck: dsl.DeckInfo, extra: dsl.ContextExtension) -> None:
        self.deck = deck
        self.extra = extra
        self.key = _scope_key(deck, extra)
        self._hash = hash(self.key)

    def __eq__(self, other: object) -> bool:
        return self is other or (
            isinstance(other, _Scope) and self._hash == other._hash and self.key == other.key
        )

    def __hash__(self) -> int:
        return self._hash


def _scope_key(deck: dsl.DeckInfo, extra: dsl.ContextExtension) -> tuple[Any, ...]:
    return (
        id(deck.pack),
        tuple(deck.rank_points.items()),
        tuple(deck.marriage_values.items()),
        deck.suits,
        deck.ranks,
        deck.marriage_ranks,
        deck.marriage_value,
        tuple((name, _type_text(kind)) for name, kind in extra.options.items()),
        tuple((name, _type_text(kind)) for name, kind in extra.counters.items()),
        tuple(extra.docs.items()),
    )


def _type_text(kind: Any) -> str:
    """``repr(kind)``, once per type (the types of options and counters are hashable)."""
    try:
        return _type_repr(kind)
    except TypeError:
        return repr(kind)


@functools.lru_cache(maxsize=256)
def _type_repr(kind: Any) -> str:
    return repr(kind)


_SCOPES: dict[tuple[Any, ...], _Scope] = {}
"""The scope of each key (:func:`_scope`); each keeps its pack alive, so ``id(pack)`` in
the key is not reused."""

_MOST_SCOPES = 256


def _scope(deck: dsl.DeckInfo, extra: dsl.ContextExtension) -> _Scope:
    """The scope of ``deck`` and ``extra``: the one made before for an equal key."""
    made = _Scope(deck, extra)
    found = _SCOPES.get(made.key)
    if found is not None:
        return found
    if len(_SCOPES) >= _MOST_SCOPES:
        _SCOPES.clear()
    _SCOPES[made.key] = made
    return made


@functools.lru_cache(maxsize=4096)
def _compiled(
    text: str, context: str, origin: dsl.Origin, scope: _Scope
) -> tuple[Any, tuple[Diagnostic, ...]]:
    """The compiled formula (``None`` when it has problems) and its problems."""
    base, _, kind = context.partition(":")
    try:
        if kind == "effects":
            return dsl.compile_effects(
                text, base, deck=scope.deck, origin=origin, extra=scope.extra
            ), ()
        return dsl.compile_formula(
            text, base, deck=scope.deck, origin=origin, extra=scope.extra
        ), ()
    except DslError as exc:
        return None, exc.diagnostics


@functools.lru_cache(maxsize=32)
def _file_lines(file: str) -> tuple[str, ...]:
    try:
        with open(file, encoding="utf-8") as fh:
            return tuple(fh.read().splitlines())
    except (OSError, UnicodeDecodeError):
        return ()


def _text_start(mark: Mark | None) -> Mark | None:
    """Where the text of a scalar starts: after an opening quote, or on the line after a
    block indicator (``|``, ``>``).  The loader's marks give the start of the node."""
    if mark is None or mark.file is None:
        return mark
    lines = _file_lines(mark.file)
    if not 1 <= mark.line <= len(lines):
        return mark
    line = lines[mark.line - 1]
    char = line[mark.column - 1 : mark.column]
    if char in ("'", '"'):
        return Mark(mark.file, mark.line, mark.column + 1)
    if char in ("|", ">") and mark.line < len(lines):
        nxt = lines[mark.line]
        return Mark(mark.file, mark.line + 1, len(nxt) - len(nxt.lstrip()) + 1)
    return mark


class _Field(typing.NamedTuple):
    """What :class:`Converter` reads of a dataclass field, worked out once per class."""

    name: str
    type: Any
    metadata: Mapping[str, Any]
    mapping: bool
    """Whether the field's type (``None`` allowed or not) is a mapping."""
    default: Any
    factory: Any


@functools.cache
def _plan(cls: type) -> dict[str, _Field]:
    """The fields of the dataclass ``cls`` by name, in order, with their resolved types."""
    hints = _hints(cls)
    return {
        f.name: _Field(
            f.name, hints[f.name], f.metadata, _is_mapping_type(_strip_optional(hints[f.name])),
            f.default, f.default_factory,
        )
        for f in dataclasses.fields(cls)
    }


class _TypeInfo(typing.NamedTuple):
    """What :meth:`Converter.value` asks of a field's type, worked out once per type."""

    inner: Any
    """The type without ``None`` (``X | None`` -> ``X``)."""
    value_rule: bool
    dataclass: bool
    origin: Any
    args: tuple[Any, ...]
    mapping: bool


_TYPE_INFO: dict[Any, _TypeInfo] = {}


def _type_info(tp: Any) -> _TypeInfo:
    """:class:`_TypeInfo` of ``tp`` (kept per type; the model's types are few and hashable)."""
    try:
        return _TYPE_INFO[tp]
    except KeyError:
        pass
    except TypeError:  # (an unhashable type: worked out each time)
        return _make_type_info(tp)
    info = _TYPE_INFO[tp] = _make_type_info(tp)
    return info


def _make_type_info(tp: Any) -> _TypeInfo:
    inner = _strip_optional(tp)
    return _TypeInfo(
        inner=inner,
        value_rule=_has_value_rule(inner),
        dataclass=isinstance(inner, type) and dataclasses.is_dataclass(inner),
        origin=get_origin(inner),
        args=get_args(inner),
        mapping=_is_mapping_type(inner),
    )


def _strip_optional(tp: Any) -> Any:
    if get_origin(tp) in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return tp


def _is_mapping_type(tp: Any) -> bool:
    return get_origin(tp) in (Mapping, dict, typing.Mapping)


def build_form(
    players: int,
    sections: Mapping[str, Any],
    table: Any,
    compiler: FormulaCompiler | None = None,
) -> Any:
    """The :class:`model.Form` for ``players`` from merged section documents."""
    conv = Converter(compiler)
    n_key = str(players)
    kwargs: dict[str, Any] = {
        name: _section(conv, cls, sections.get(name), name) for name, cls in model.SECTIONS.items()
    }
    kwargs["table"] = conv.build(model.TablePlan, table, ("players", n_key))
    return model.Form(players=players, **kwargs)


_BUILT: dict[tuple[Any, int], tuple[Any, Any]] = {}
"""What :func:`built_once` made, by key and the identity of the document part it was made
from; each entry keeps its part alive (so its identity is not reused)."""

_MOST_BUILT = 1024


def built_once(key: Any, part: Any, make: Callable[[], tuple[Any, bool]]) -> Any:
    """What ``make()`` makes from the document ``part``, made once per ``key`` and ``part``
    (by identity).

    The option values of a ruleset share the parts of the document their patches leave alone
    (the merge shares them), so what is made from such a part -- a section's model, the
    sources, the plain copy, the provenance -- is made once and shared (it is immutable).
    ``make`` returns the value and whether to keep it (a section whose formulas have
    problems is built, and reported, every time).
    """
    if not (isinstance(part, list) or is_mapping(part)):
        return make()[0]
    entry = _BUILT.get((key, id(part)))
    if entry is not None and entry[0] is part:
        return entry[1]
    value, keep = make()
    if keep:
        if len(_BUILT) >= _MOST_BUILT:
            _BUILT.clear()
        _BUILT[(key, id(part))] = (part, value)
    return value


_MADE: dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]] = {}
"""What :func:`made_once` made, by key and the identities of the parts it was made from;
each entry keeps its parts alive (so their identities are not reused)."""


def made_once(key: Any, parts: tuple[Any, ...], make: Callable[[], Any]) -> Any:
    """What ``make()`` makes from ``parts`` (document parts, packs: values nobody changes),
    made once per ``key`` and the parts' identities: :func:`built_once` for what is made
    from several parts (the option values of a ruleset share the parts their patches leave
    alone)."""
    ident = (key, *map(id, parts))
    entry = _MADE.get(ident)
    if entry is not None and all(a is b for a, b in zip(entry[0], parts, strict=True)):
        return entry[1]
    value = make()
    if len(_MADE) >= _MOST_BUILT:
        _MADE.clear()
    _MADE[ident] = (parts, value)
    return value


def plain_document(doc: Mapping[str, Any]) -> dict[str, Any]:
    """``to_plain(doc)`` for a ruleset document, each top-level section made once per section
    document (:func:`built_once`): shared, do not change it."""
    return {
        key: built_once("plain", value, functools.partial(kept, to_plain, value))
        for key, value in doc.items()
    }


def kept(make: Callable[..., Any], *args: Any) -> tuple[Any, bool]:
    """``make(*args)``, to be kept by :func:`built_once`."""
    return make(*args), True


def _section(conv: Converter, cls: type, data: Any, name: str) -> Any:
    """The model of one section, built once per section document and deck facts
    (:func:`built_once`)."""
    compiler = conv.compiler
    if compiler is None:
        return conv.build(cls, data, (name,))

    def make() -> tuple[Any, bool]:
        problems = len(compiler.problems)
        built = conv.build(cls, data, (name,))
        return built, len(compiler.problems) == problems

    return built_once((name, compiler._scope), data, make)
