"""Fuzzing the ruleset loader: whatever the text, only a :class:`TysiacError` may escape.

A ruleset is untrusted input, so ``load_ruleset(name, text=...)`` either returns a ruleset or
raises one of our errors (a diagnostic with file, line and column); a ``KeyError``, a
``RecursionError`` or a ``UnicodeEncodeError`` escaping is a bug.  Three sources of text:
YAML documents generated from the ruleset's own keys and hostile values, byte-level
mutations of a shipped ruleset (a line dropped, doubled or swapped, characters changed, the
text cut), and value-level mutations (one value of ``pl-standard`` replaced by a hostile
one).  The record and scoresheet readers are fuzzed in their own tests.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tysiac_spec import load_ruleset
from tysiac_spec._paths import RULESETS_DIR
from tysiac_spec.errors import TysiacError

pytestmark = pytest.mark.slow  # the whole module: about 50 s

FUZZ = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

SHIPPED = {name: (RULESETS_DIR / f"{name}.yaml").read_text(encoding="utf-8")
           for name in ("pl-standard", "house-five-up", "ru-online")}
PLAIN: dict[str, Any] = yaml.load(SHIPPED["pl-standard"], Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))

TOP_KEYS = ["id", "kind", "extends", "name", "description", "aliases", "sources", "players", "deal",
            "auction", "talon", "contract", "play", "marriages", "scoring", "match", "special", "options"]

# the values a hostile author reaches for: huge and negative numbers, control and bidi
# characters, lone surrogates, paths, formulas that divide by zero
hostile_text = st.one_of(
    st.text(max_size=40),
    st.sampled_from([
        "", "\x00", "\x1b[2J", "\u202e", "\ud800", "../../etc/passwd", "/etc/passwd", "pl-standard",
        "core", "points // 0", "round_to(points, 0)", "round_to(points, -5)", "points % 0",
        "contract * 999999999999999999 * 999999999999999999", "if made then contract else -contract",
        "max(bid, 120 + marriages(hand))", "count(talon, ace)", "player.score = player.score * 2",
        "x" * 30_000,
    ]),
)
hostile_int = st.one_of(
    st.integers(-1000, 1000),
    st.sampled_from([0, -1, 10**18, -(10**30), 10**100, 2**63, -(2**63) - 1]),
)
scalar = st.one_of(st.none(), st.booleans(), hostile_int, st.floats(allow_nan=True), hostile_text)
value = st.recursive(
    scalar,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.one_of(st.sampled_from(TOP_KEYS), st.text(max_size=8), st.integers(0, 5)),
                        inner, max_size=4),
    ),
    max_leaves=20,
)


def load(text: str, name: str = "fuzz.yaml") -> None:
    """Load ``text``; a TysiacError is a proper answer, anything else escapes."""
    try:
        load_ruleset(name, text=text)
    except TysiacError:
        pass


def dump(doc: Any) -> str:
    return yaml.safe_dump(doc, allow_unicode=True, sort_keys=False)


@FUZZ
@given(st.dictionaries(st.sampled_from(TOP_KEYS), value, max_size=8), st.booleans())
def test_generated_documents(doc: dict[str, Any], house: bool) -> None:
    if house:  # most of it resolved from a shipped parent, so the checks past the schema run too
        doc = {"id": "fuzz", "kind": "house", "extends": "pl-standard", "name": {"en": "f"}, **doc}
    load(dump(doc))


@FUZZ
@given(st.text(max_size=300))
def test_arbitrary_text(text: str) -> None:
    load(text)


def _mutate(text: str, data: st.DataObject) -> str:
    lines = text.splitlines(keepends=True)
    if not lines:
        return data.draw(st.text(max_size=20))
    kind = data.draw(st.sampled_from(["drop", "double", "swap", "replace", "insert", "cut", "indent"]))
    i = data.draw(st.integers(0, len(lines) - 1))
    if kind == "drop":
        del lines[i]
    elif kind == "double":
        lines.insert(i, lines[i])
    elif kind == "swap":
        j = data.draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == "indent":
        lines[i] = data.draw(st.sampled_from(["  ", "", "\t", "    "])) + lines[i].lstrip(" ")
    elif kind in ("replace", "insert"):
        line = lines[i]
        at = data.draw(st.integers(0, len(line)))
        new = data.draw(st.one_of(st.sampled_from([":", "-", "[", "{", "&a", "*a", "!!python/object ", "'", '"',
                                                   "#", "|", ">", "\x00", "\ud800", "\u202e", "9" * 30]),
                                  st.text(max_size=5)))
        lines[i] = line[:at] + new + line[at + (1 if kind == "replace" else 0):]
    else:
        return text[: data.draw(st.integers(0, len(text)))]
    return "".join(lines)


@FUZZ
@given(st.sampled_from(sorted(SHIPPED)), st.integers(1, 3), st.data())
def test_mutated_shipped_text(name: str, rounds: int, data: st.DataObject) -> None:
    text = SHIPPED[name]
    for _ in range(rounds):
        text = _mutate(text, data)
    load(text, f"{name}.yaml")


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += _paths(v, (*prefix, i))
    return out


PATHS = _paths(PLAIN)[1:]


@FUZZ
@given(st.lists(st.tuples(st.sampled_from(PATHS), value), min_size=1, max_size=3))
def test_mutated_shipped_values(changes: list[tuple[tuple[Any, ...], Any]]) -> None:
    doc = yaml.safe_load(SHIPPED["pl-standard"])
    for path, new in changes:
        node = doc
        try:
            for part in path[:-1]:
                node = node[part]
            node[path[-1]] = new
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change removed the place
    load(dump(doc), "pl-standard.yaml")
