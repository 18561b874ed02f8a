"""Safe YAML loading that keeps source positions.

A ruleset file is read with :func:`yaml.SafeLoader` *composition only*: PyYAML
builds a node tree and this module turns it into plain Python values itself,
so no Python object is ever constructed from a tag.  Mappings become
:class:`YMap` and sequences :class:`YList`; both remember where they and their
items were written, so later stages (schema, DSL, semantic checks) can report
``file:line:col`` for any value.

The loader is stricter than YAML 1.1 where YAML 1.1 reads text surprisingly
(``no`` as a boolean, ``010`` as octal, ``1:30`` as base 60, ``1.5`` as a float),
rejects duplicate keys, merge keys (``<<``), non-standard tags, several
documents, and bounds the size (alias bombs) and nesting depth of a document.
Every problem found is reported at once, as a :class:`~tysiac_spec.errors.Diagnostic`
inside one :class:`~tysiac_spec.errors.RulesetError`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from yaml.error import Mark as _YamlMark
from yaml.events import StreamEndEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from tysiac_spec import limits
from tysiac_spec.errors import Diagnostic, RulesetError
from tysiac_spec.text import has_control, shorten

__all__ = [
    "MAX_DEPTH",
    "MAX_NODES",
    "Mark",
    "YList",
    "YMap",
    "YamlProblems",
    "is_mapping",
    "load_yaml",
    "load_yaml_file",
    "mark_at",
    "to_plain",
]

MAX_NODES = limits.LIMITS["yaml_nodes"].default
"""Most values (scalars, mappings, lists, counting every alias expansion) a document may hold
by default (limit ``yaml_nodes`` in :mod:`tysiac_spec.limits`)."""

MAX_DEPTH = limits.LIMITS["depth"].default
"""Most nested mappings/lists in a document (the top-level mapping is depth 1) by default
(limit ``depth``)."""


class YamlProblems(RulesetError):
    """The YAML problems of a document that was read all the same (a float, a YAML 1.1
    boolean, a duplicate key: each value kept as its text), with :attr:`document`, so that
    ``tysiac validate`` can go on to report the schema and formula problems in the same run."""

    document: Any = None
    values: int = 0
    """The values (scalars, mappings, lists) the document holds."""


@dataclass(frozen=True, slots=True)
class Mark:
    """A position in a source file; ``line`` and ``column`` are 1-based."""

    file: str | None
    line: int
    column: int


class YMap(dict[str, Any]):
    """A mapping loaded from YAML that remembers where it and its entries were written.

    Compares equal to a plain ``dict`` with the same items (marks are ignored).

    Attributes:
        mark: where the mapping starts (for a block mapping, its first key).
        key_marks: position of each key.
        value_marks: position of each value.
    """

    __slots__ = ("key_marks", "mark", "value_marks")

    def __init__(
        self,
        items: Mapping[str, Any] | Iterable[tuple[str, Any]] = (),
        /,
        *,
        mark: Mark,
        key_marks: dict[str, Mark] | None = None,
        value_marks: dict[str, Mark] | None = None,
    ) -> None:
        super().__init__(items)
        self.mark = mark
        self.key_marks: dict[str, Mark] = dict(key_marks or {})
        self.value_marks: dict[str, Mark] = dict(value_marks or {})


class YList(list[Any]):
    """A list loaded from YAML that remembers where it and its items were written.

    Compares equal to a plain ``list`` with the same items (marks are ignored).

    Attributes:
        mark: where the list starts.
        item_marks: position of each item, parallel to the list.
    """

    __slots__ = ("item_marks", "mark")

    def __init__(
        self,
        items: Iterable[Any] = (),
        /,
        *,
        mark: Mark,
        item_marks: Iterable[Mark] = (),
    ) -> None:
        super().__init__(items)
        self.mark = mark
        self.item_marks: list[Mark] = list(item_marks)


# --------------------------------------------------------------------------- public API


def load_yaml(text: str, *, file: str | None = None) -> Any:
    """Load one YAML document from ``text``.

    Args:
        text: the YAML source.
        file: the file name used in marks and diagnostics (``None`` for API input).

    Returns:
        ``None`` for an empty document, else a :class:`YMap`, :class:`YList`, ``str``,
        ``int`` or ``bool`` (nested values likewise).

    Raises:
        RulesetError: holding every problem found (codes ``yaml.syntax``,
            ``yaml.duplicate-key``, ``yaml.ambiguous-bool``, ``yaml.ambiguous-number``,
            ``yaml.float``, ``yaml.bad-key``, ``yaml.tag``, ``yaml.merge-key``,
            ``yaml.too-large``, ``yaml.too-deep``, ``yaml.multiple-documents``).
    """
    try:
        node = _compose(text, file)
        if node is None:
            return None
        return _Builder(file).build_document(node)
    except _Stop as stop:
        raise RulesetError(stop.diagnostic) from None
    except RecursionError:  # a depth limit raised above what Python can read
        raise limits.beyond_python("depth", "deeper than this Python can read", levels=_depth(text),
                                   file=file) from None


def _depth(text: str) -> int | None:
    """The nesting depth of the YAML document ``text`` (mappings and lists; the top-level
    one is depth 1), counted from the parser's events without recursion; ``None`` when it
    does not parse."""
    deepest = level = 0
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):  # (libyaml stops at 1,000 levels)
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                level += 1
                deepest = max(deepest, level)
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                level -= 1
    except (yaml.YAMLError, RecursionError):
        return None
    return deepest


def load_yaml_file(path: str | Path) -> Any:
    """Read a UTF-8 file and load it with :func:`load_yaml` (``file`` is ``str(path)``).

    The file's size is checked before it is read (limit ``ruleset_bytes``): a file that is
    not a regular file (a FIFO, a device) or is larger is refused unread.

    The same file name with the same bytes gives the very document loaded before (the
    registry lists the shipped rulesets from their files, and the loader loads the same
    files): it is shared, do not change it.

    Raises:
        RulesetError: ``io.read`` when the file cannot be read, is not a regular file or is
            not valid UTF-8; ``limit.ruleset_bytes`` (a :class:`~tysiac_spec.errors.LimitError`)
            when it is too large; else as :func:`load_yaml`.
    """
    name = str(path)
    return _loaded(name, read_bounded(path, "ruleset_bytes"))


@lru_cache(maxsize=32)
def _loaded(name: str, data: bytes) -> Any:
    """:func:`load_yaml` of the file ``name`` holding ``data``, once per name and bytes."""
    return load_yaml(decode_utf8(data, name), file=name)


def read_bounded(path: str | Path, limit: str) -> bytes:
    """The bytes of a regular file no larger than the limit ``limit`` (see
    :func:`tysiac_spec.limits.read_file`).

    Raises:
        RulesetError: ``io.read`` (cannot be read, or not a regular file);
            ``limit.<limit>`` when the file is larger than the limit.
    """
    try:
        return limits.read_file(path, limit)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise RulesetError(
            Diagnostic("io.read", f"cannot read `{path}`: {reason}", file=str(path))
        ) from None


def decode_utf8(data: bytes, name: str) -> str:
    """``data`` decoded as UTF-8 (a leading byte-order mark is dropped).

    Raises:
        RulesetError: ``io.read`` with the line, column and offset of the first bad byte.
    """
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start].decode("utf-8", errors="replace")
        line, column = _line_col(before, len(before))
        raise RulesetError(
            Diagnostic(
                "io.read",
                f"`{name}` is not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})",
                file=name,
                line=line,
                column=column,
            )
        ) from None


def mark_at(doc: Any, path: Sequence[str | int], *, key: bool = False) -> Mark | None:
    """Where the value at ``path`` inside ``doc`` was written (with ``key=True``: its key).

    Args:
        doc: a document from :func:`load_yaml` (plain values have no marks).
        path: keys (``str``) and list indexes (``int``) from the root, e.g. ``("auction", "step")``.
        key: return the position of the last key instead of its value; for a list index the
            item's position either way.

    Returns:
        The mark, or -- when the path does not exist fully -- the mark of the deepest existing
        ancestor (where a missing key should go).  ``None`` when nothing on the way has a mark.
    """
    current = doc
    current_mark: Mark | None = doc.mark if isinstance(doc, YMap | YList) else None
    for i, part in enumerate(path):
        last = i == len(path) - 1
        if isinstance(current, dict) and isinstance(part, str) and part in current:
            if isinstance(current, YMap):
                marks = current.key_marks if key and last else current.value_marks
                current_mark = marks.get(part, current_mark)
            current = current[part]
        elif (
            isinstance(current, list)
            and isinstance(part, int)
            and not isinstance(part, bool)
            and 0 <= part < len(current)
        ):
            if isinstance(current, YList) and part < len(current.item_marks):
                current_mark = current.item_marks[part]
            current = current[part]
        else:
            return current_mark
    return current_mark


_NEVER_MAPPINGS = (str, int, list, type(None))  # a document's other values (bool is an int)


def is_mapping(value: Any) -> bool:
    """``isinstance(value, Mapping)``, answered without the ABC machinery for the values a
    document holds (``dict`` and its subclasses, lists, texts, numbers, ``None``): it is
    asked hundreds of thousands of times while a ruleset is loaded."""
    return isinstance(value, dict) or (
        not isinstance(value, _NEVER_MAPPINGS) and isinstance(value, Mapping)
    )


def to_plain(doc: Any) -> Any:
    """Deep copy of ``doc`` with every :class:`YMap`/:class:`YList` turned into ``dict``/``list``.

    Use it before handing a document to ``jsonschema`` or ``json.dumps``.
    """
    if isinstance(doc, dict):
        return {k: to_plain(v) for k, v in doc.items()}
    if isinstance(doc, list):
        return [to_plain(v) for v in doc]
    return doc


# --------------------------------------------------------------------------- composition

_YAML_TAG = "tag:yaml.org,2002:"
_STR = _YAML_TAG + "str"
_INT = _YAML_TAG + "int"
_BOOL = _YAML_TAG + "bool"
_NULL = _YAML_TAG + "null"
_MAP = _YAML_TAG + "map"
_SEQ = _YAML_TAG + "seq"
_MERGE = _YAML_TAG + "merge"
_PLAIN = "tag:tysiac-spec:plain"  # internal: an untagged plain scalar, typed by _Builder


class _Stop(Exception):
    """Internal: abort loading with one diagnostic (syntax error, too large, too deep)."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def _mark(file: str | None, mark: _YamlMark | None) -> Mark | None:
    return None if mark is None else Mark(file, mark.line + 1, mark.column + 1)


def _diag(
    code: str,
    message: str,
    mark: Mark | None,
    path: Sequence[str | int] = (),
    *,
    hint: str | None = None,
) -> Diagnostic:
    return Diagnostic(
        code,
        message,
        file=mark.file if mark else None,
        line=mark.line if mark else None,
        column=mark.column if mark else None,
        path=tuple(path),
        hint=hint,
    )


class _Loader(yaml.SafeLoader):
    """SafeLoader that only composes: no implicit typing, bounded depth, tracked path."""

    def __init__(self, text: str, file: str | None) -> None:
        super().__init__(text)
        self._file = file
        self._depth = 0
        self._max_depth = limits.limit("depth")
        self._path: list[str | int] = []

    def resolve(self, kind: type[Node], value: str | None, implicit: Any) -> str:
        # Typing of plain scalars is done by _Builder, with the YAML 1.1 checks.
        if kind is ScalarNode:
            return _PLAIN if implicit[0] else _STR
        return _SEQ if kind is SequenceNode else _MAP

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        # ``index`` is the item number in a sequence, the key node for a mapping value,
        # and ``None`` for the root and for keys.
        if isinstance(index, int):
            self._path.append(index)
        elif isinstance(index, ScalarNode):
            self._path.append(str(index.value))
        else:
            return super().compose_node(parent, index)
        try:
            return super().compose_node(parent, index)
        finally:
            self._path.pop()

    def next_event_mark(self) -> _YamlMark | None:
        """Start of the next parser event (typed wrapper of the untyped ``peek_event``)."""
        parser: Any = self
        mark: _YamlMark | None = parser.peek_event().start_mark
        return mark

    def _enter(self) -> None:
        self._depth += 1
        if self._depth > self._max_depth:
            mark = _mark(self._file, self.next_event_mark())
            raise _Stop(_too_deep(mark, self._path))

    def compose_sequence_node(self, anchor: Any) -> SequenceNode:
        self._enter()
        try:
            return super().compose_sequence_node(anchor)
        finally:
            self._depth -= 1

    def compose_mapping_node(self, anchor: Any) -> MappingNode:
        self._enter()
        try:
            return super().compose_mapping_node(anchor)
        finally:
            self._depth -= 1


def _too_deep(mark: Mark | None, path: Sequence[str | int]) -> Diagnostic:
    message = f"the document is nested more than {limits.limit('depth')} levels deep"
    return _diag("yaml.too-deep", message, mark, path, hint=_raise_hint("depth"))


def _raise_hint(name: str) -> str:
    return f"if the file is meant to be this large, raise the limit: {limits.LIMITS[name].variable}=N"


def _line_col(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, column


if getattr(yaml, "__with_libyaml__", False):

    class _CLoader(yaml.CSafeLoader):
        """libyaml's composer (about ten times faster than PyYAML's own), typing as :class:`_Loader`.

        libyaml refuses nesting deeper than 1000 levels with a clean error; the depth limit
        itself (limit ``depth``) is checked while the node tree is built.
        """

        def resolve(self, kind: type[Node], value: str | None, implicit: Any) -> str:
            if kind is ScalarNode:
                return _PLAIN if implicit[0] else _STR
            return _SEQ if kind is SequenceNode else _MAP


def _compose(text: str, file: str | None) -> Node | None:
    """The node tree of the single document in ``text`` (``None`` when empty).

    With libyaml when PyYAML has it (a document that libyaml finds anything wrong with is
    composed again by PyYAML's own composer, whose messages are the ones reported), else
    with PyYAML's own composer.
    """
    if getattr(yaml, "__with_libyaml__", False):
        loader: Any = None
        try:
            loader = _CLoader(text)
            node: Node | None = loader.get_node() if loader.check_node() else None
            if not loader.check_node():
                return node
        except (yaml.YAMLError, ValueError):
            pass
        finally:
            if loader is not None:
                loader.dispose()
    return _compose_py(text, file)


def _syntax(exc: yaml.MarkedYAMLError, file: str | None) -> Diagnostic:
    problem = exc.problem or exc.context or "invalid YAML"
    if exc.problem and exc.context and exc.context_mark is not None:
        problem += f" ({exc.context} at line {exc.context_mark.line + 1})"
    return _diag("yaml.syntax", problem, _mark(file, exc.problem_mark or exc.context_mark))


def _reader(exc: yaml.reader.ReaderError, text: str, file: str | None) -> Diagnostic:
    if isinstance(exc.character, int):
        what = f"unacceptable character #x{exc.character:04x}: {exc.reason}"
    else:
        what = str(exc.reason)
    line, column = _line_col(text, exc.position)
    return _diag("yaml.syntax", what, Mark(file, line, column))


def _compose_py(text: str, file: str | None) -> Node | None:
    """:func:`_compose` with PyYAML's own composer (depth checked while composing)."""
    loader: _Loader | None = None
    try:
        loader = _Loader(text, file)
        any_loader: Any = loader
        any_loader.get_event()  # STREAM-START
        node = None
        if not loader.check_event(StreamEndEvent):
            node = loader.compose_document()
        if not loader.check_event(StreamEndEvent):
            mark = _mark(file, loader.next_event_mark())
            raise _Stop(
                _diag(
                    "yaml.multiple-documents",
                    "found a second YAML document; a ruleset file holds exactly one",
                    mark,
                )
            )
        return node
    except yaml.MarkedYAMLError as exc:
        raise _Stop(_syntax(exc, file)) from None
    except yaml.reader.ReaderError as exc:
        raise _Stop(_reader(exc, text, file)) from None
    finally:
        if loader is not None:
            loader.dispose()


# --------------------------------------------------------------------------- typing scalars

_DECIMAL = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
_LEADING_ZERO = re.compile(r"[-+]?0[0-9_]+")
_PREFIXED = re.compile(r"[-+]?0(?:[xX][0-9a-fA-F_]+|[oO][0-7_]+|[bB][01_]+)")
_UNDERSCORED = re.compile(r"[-+]?[0-9][0-9_]*")
_SEXAGESIMAL = re.compile(r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?")
_FLOAT = re.compile(
    r"[-+]?(?:[0-9][0-9_]*\.[0-9_]*|\.[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?[0-9][0-9_]*[eE][-+]?[0-9]+"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"
)
_NULLS = frozenset({"", "~", "null", "Null", "NULL"})
_TRUE = frozenset({"true", "True", "TRUE"})
_FALSE = frozenset({"false", "False", "FALSE"})
_YAML11_BOOLS = {"yes": True, "y": True, "on": True, "no": False, "n": False, "off": False}


def _type_plain(text: str, max_digits: int = 18) -> tuple[Any, tuple[str, str] | None]:
    """Value of an untagged plain scalar, and ``(code, message)`` when it is a YAML 1.1 trap."""
    if text in _NULLS:
        return None, None
    if text in _TRUE:
        return True, None
    if text in _FALSE:
        return False, None
    lowered = text.lower()
    if lowered in _YAML11_BOOLS:
        word = "true" if _YAML11_BOOLS[lowered] else "false"
        text_shown = text
        msg = f'`{text_shown}` is read as a boolean by YAML 1.1; write `{word}` or quote it as "{text_shown}"'
        return text, ("yaml.ambiguous-bool", msg)
    if _DECIMAL.fullmatch(text):
        digits = len(text.lstrip("+-"))
        if digits > max_digits:
            return text, (
                "yaml.too-large",
                f"the integer is too large ({digits:,} digits; at most {max_digits})",
            )
        try:
            return int(text), None
        except ValueError:  # int_digits raised above what int() converts (4,300 digits)
            return text, ("yaml.too-large", f"the integer has more digits than Python converts ({digits:,})")
    number = _number_trap(text)
    if number is not None:
        return text, ("yaml.ambiguous-number", number)
    if _FLOAT.fullmatch(text):
        text_shown = shorten(text)
        msg = (
            f"`{text_shown}` is a float, but floats are not allowed: points are integers; "
            f'write an integer or quote it as "{text_shown}"'
        )
        return text, ("yaml.float", msg)
    return text, None


def _number_trap(text: str) -> str | None:
    """Message for an integer YAML reads in a surprising notation, else ``None``."""
    if not text or text[0] not in "+-0123456789":  # every trap starts so (most texts do not)
        return None
    text_shown = shorten(text)
    quote = f'quote it as "{text_shown}"'
    if _PREFIXED.fullmatch(text):
        try:
            if len(text) > 20:
                raise ValueError(text_shown)
            value = int(text, 0)
        except ValueError:
            return f"`{text_shown}` is not a decimal integer; write it in decimal or {quote}"
        return f"`{text_shown}` is not a decimal integer (it means {value}); write `{value}` or {quote}"
    if _LEADING_ZERO.fullmatch(text):
        sign = text[0] if text[0] in "+-" else ""
        digits = text.lstrip("+-").replace("_", "").lstrip("0") or "0"
        return (
            f"`{text_shown}` has a leading zero, which YAML 1.1 reads as octal; "
            f"write `{sign}{shorten(digits)}` or {quote}"
        )
    if _UNDERSCORED.fullmatch(text):
        return (
            f"`{text_shown}` contains `_`, which YAML 1.1 ignores in numbers; "
            f"write `{text_shown.replace('_', '')}` or {quote}"
        )
    if _SEXAGESIMAL.fullmatch(text):
        return f"`{text_shown}` is read as a base-60 number by YAML 1.1 (as in 1:30 = 90); {quote}"
    return None


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_YAML_TAG) :] if tag.startswith(_YAML_TAG) else tag


def _tag_message(tag: str) -> str:
    return (
        f"tag `{_short_tag(tag)}` is not allowed; only the standard tags "
        "!!str, !!int, !!bool, !!null, !!map and !!seq are accepted"
    )


# --------------------------------------------------------------------------- building values


class _Builder:
    """Turns a composed node tree into YMap/YList/scalars, collecting diagnostics."""

    def __init__(self, file: str | None) -> None:
        self.file = file
        self.diagnostics: list[Diagnostic] = []
        self.count = 0
        self.seen: set[int] = set()  # nodes already checked (an alias is reported once)
        self.active: set[int] = set()  # collections being built (detects recursive aliases)
        self.max_nodes = limits.limit("yaml_nodes")
        self.max_depth = limits.limit("depth")
        self.max_chars = limits.limit("text_chars")
        self.max_digits = limits.limit("int_digits")

    def build_document(self, node: Node) -> Any:
        value = self.build(node, (), 1)
        if self.diagnostics:
            error = YamlProblems(self.diagnostics)
            error.document, error.values = value, self.count
            raise error
        return value

    def mark(self, node: Node) -> Mark:
        return _mark(self.file, node.start_mark) or Mark(self.file, 1, 1)

    def report(self, code: str, message: str, node: Node, path: Sequence[str | int]) -> None:
        self.diagnostics.append(_diag(code, message, self.mark(node), path))

    def build(self, node: Node, path: tuple[str | int, ...], depth: int) -> Any:
        self.count += 1
        if self.count > self.max_nodes:
            message = (
                f"the document expands to more than {self.max_nodes} values "
                "(are aliases `*name` repeating a large part?)"
            )
            hint = _raise_hint("yaml_nodes")
            raise _Stop(_diag("yaml.too-large", message, self.mark(node), path, hint=hint))
        first = id(node) not in self.seen
        self.seen.add(id(node))
        if isinstance(node, ScalarNode):
            return self.scalar(node, path, report=first)
        if id(node) in self.active:
            message = "an alias refers to a mapping or list that contains it (infinitely deep)"
            raise _Stop(_diag("yaml.too-deep", message, self.mark(node), path))
        if depth > self.max_depth:
            raise _Stop(_too_deep(self.mark(node), path))
        self.active.add(id(node))
        try:
            if isinstance(node, SequenceNode):
                return self.sequence(node, path, depth, report=first)
            assert isinstance(node, MappingNode)
            return self.mapping(node, path, depth, report=first)
        finally:
            self.active.discard(id(node))

    def scalar(self, node: ScalarNode, path: tuple[str | int, ...], *, report: bool) -> Any:
        text = str(node.value)
        tag = node.tag
        problem: tuple[str, str] | None = self.text_problem(text)
        value: Any = text
        if problem is not None:
            if report:
                hint = _raise_hint("text_chars") if problem[0] == "yaml.too-long" else None
                self.diagnostics.append(_diag(*problem, self.mark(node), path, hint=hint))
            return text[:100]
        if tag == _PLAIN:
            value, problem = _type_plain(text, self.max_digits)
        elif tag == _INT:
            if _DECIMAL.fullmatch(text):
                value, problem = _type_plain(text, self.max_digits)
            else:
                problem = ("yaml.tag", f"`!!int` needs a decimal integer (got `{shorten(text)}`)")
        elif tag == _BOOL:
            if text in _TRUE or text in _FALSE:
                value = text in _TRUE
            else:
                problem = ("yaml.tag", f"`!!bool` needs `true` or `false` (got `{shorten(text)}`)")
        elif tag == _NULL:
            if text in _NULLS:
                value = None
            else:
                problem = ("yaml.tag", f"`!!null` needs `null` or nothing (got `{shorten(text)}`)")
        elif tag == _MERGE:
            problem = ("yaml.merge-key", _MERGE_MESSAGE)
        elif tag != _STR:
            problem = ("yaml.tag", _tag_message(tag))
        if problem is not None and report:
            raising = problem[0] == "yaml.too-large" and "than Python" not in problem[1]
            hint = _raise_hint("int_digits") if raising else None
            self.diagnostics.append(_diag(*problem, self.mark(node), path, hint=hint))
        return value

    def text_problem(self, text: str) -> tuple[str, str] | None:
        """``(code, message)`` when a scalar's text is too long or holds a control character."""
        if len(text) > self.max_chars:
            return (
                "yaml.too-long",
                f"a text of {len(text):,} characters; the limit is {self.max_chars:,}",
            )
        bad = has_control(text)
        if bad is not None:
            name = f"U+{ord(bad):04X}"
            return (
                "yaml.control-character",
                f"the text holds the control character {name} at position {text.index(bad) + 1}; "
                "rulesets hold printable text only (escape codes, lone surrogates, direction "
                "overrides and invisible characters are refused)",
            )
        return None

    def sequence(
        self, node: SequenceNode, path: tuple[str | int, ...], depth: int, *, report: bool
    ) -> YList:
        if node.tag != _SEQ and report:
            self.report("yaml.tag", _tag_message(node.tag), node, path)
        result = YList(mark=self.mark(node))
        for i, item in enumerate(node.value):
            result.append(self.build(item, (*path, i), depth + 1))
            result.item_marks.append(self.mark(item))
        return result

    def mapping(
        self, node: MappingNode, path: tuple[str | int, ...], depth: int, *, report: bool
    ) -> YMap:
        if node.tag != _MAP and report:
            self.report("yaml.tag", _tag_message(node.tag), node, path)
        result = YMap(mark=self.mark(node))
        for key_node, value_node in node.value:
            key = self.key(key_node, path, report=report)
            if key is None:
                continue
            if key in result:
                if report:
                    first_line = result.key_marks[key].line
                    message = f"duplicate key `{key}` (first defined at line {first_line})"
                    self.report("yaml.duplicate-key", message, key_node, (*path, key))
                self.build(value_node, (*path, key), depth + 1)  # still check the value
                continue
            result[key] = self.build(value_node, (*path, key), depth + 1)
            result.key_marks[key] = self.mark(key_node)
            result.value_marks[key] = self.mark(value_node)
        return result

    def key(self, node: Node, path: tuple[str | int, ...], *, report: bool) -> str | None:
        """The key's text, or ``None`` (after reporting) when it cannot be a key."""
        if not isinstance(node, ScalarNode):
            if report:
                what = "a list" if isinstance(node, SequenceNode) else "a mapping"
                message = f"mapping keys must be names or integers (got {what})"
                self.report("yaml.bad-key", message, node, path)
            return None
        text = str(node.value)
        if node.tag == _MERGE or (node.tag == _PLAIN and text == "<<"):
            if report:
                self.report("yaml.merge-key", _MERGE_MESSAGE, node, path)
            return None
        self.count += 1
        value = self.scalar(node, (*path, text), report=report)
        if isinstance(value, bool) or value is None:
            if report:
                shown = "null" if value is None else f"the boolean `{text}`"
                message = (
                    f'mapping keys must be names or integers (got {shown}); quote it as "{text}"'
                )
                self.report("yaml.bad-key", message, node, (*path, text))
            return None
        return str(value)


_MERGE_MESSAGE = "use `extends` instead of YAML merge keys (`<<`)"
