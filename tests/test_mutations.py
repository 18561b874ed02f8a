"""Property test: any mutation of a shipped ruleset file loads to a ruleset or raises a
:class:`~tysiac_spec.errors.TysiacError` subclass -- never another exception.

Two kinds of mutation, for every ``rulesets/**/*.yaml`` found at test time:

* text mutations: delete a span, insert random or YAML-significant characters, delete,
  duplicate or swap lines, re-indent a line, replace a scalar with a value of another type;
* structural mutations: ``yaml.safe_load`` the file, replace, delete or add a key or an
  item somewhere with a random JSON-ish value (or another part of the same document), or
  change a value keeping its type (so the mutant often passes the schema and reaches the
  semantic checks and the model), and dump it back.

Each mutant is written into a fresh copy of the ``rulesets/`` tree in a temporary
directory (so ``extends: core`` finds the shipped parent and relative ``extends`` paths
find their siblings), then loaded with :func:`tysiac_spec.load_ruleset`.  When it loads,
one of its options is also tried with another value, and every form is read.  Every
diagnostic of an error must render.
"""

from __future__ import annotations

import copy
import os
import shutil
import tempfile
import traceback
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from tysiac_spec import load_ruleset
from tysiac_spec.errors import TysiacError
from tysiac_spec.ruleset.model import Ruleset

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ROOT / "rulesets"
FILES = sorted(RULESETS.glob("*.yaml"))  # rulesets only (scenario files live in a subfolder)

#: Examples per file and kind of mutation (text, structure): 60 per file in all.  Set
#: ``TYSIAC_MUTATION_EXAMPLES`` for a longer hunt.
EXAMPLES = int(os.environ.get("TYSIAC_MUTATION_EXAMPLES", "30"))

SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

YAML_CHARS = ":{}[]-#&*!|>'\"%@,?`~\t\n "


# --------------------------------------------------------------------------- the property


def check_loads_or_fails_cleanly(
    relative: Path, text: str, data: st.DataObject | None = None, *, known_ok: bool = True
) -> None:
    """Write ``text`` as ``relative`` into a copy of ``rulesets/`` and load it; when it
    loads, also load it with one option (drawn from ``data``) set to another value.
    ``known_ok``: let the crashes in :data:`KNOWN_CRASHES` pass."""
    with tempfile.TemporaryDirectory(prefix="tysiac-mut-") as tmp:
        tree = Path(tmp) / "rulesets"
        shutil.copytree(RULESETS, tree, ignore=shutil.ignore_patterns("*.pyc", "__pycache__"))
        path = tree / relative
        path.write_text(text, encoding="utf-8")
        try:
            ruleset = load_ruleset(path)
        except TysiacError as error:
            assert error.diagnostics
            for diagnostic in error.diagnostics:
                assert diagnostic.render()
            return
        except Exception as error:
            if known_ok and _known_crash(error):
                return
            raise
        assert isinstance(ruleset, Ruleset)
        # the playing deck agrees with the validated deck section
        assert [(r.id, r.points) for r in ruleset.deck.ranks] == [
            (r.id, r.points) for r in ruleset.deck.ranks
        ]
        for n in ruleset.player_counts:
            assert ruleset.form(n).players == n
        if ruleset.options and data is not None:
            name = data.draw(st.sampled_from(sorted(ruleset.options)), label="option")
            other = _another_value(ruleset.options[name], ruleset.selected[name])
            try:
                load_ruleset(path, options={name: other})
            except TysiacError as error:
                for diagnostic in error.diagnostics:
                    assert diagnostic.render()


#: Crashes already reported and kept as ``.xfail`` examples in :func:`test_known_mutants`:
#: (exception type, file and function of the innermost ``tysiac_spec`` frame).  The random
#: tests let these pass so that they keep looking for *new* crashes; the explicit examples
#: fail loudly (strict xfail) once a crash is fixed -- then delete its line here.
KNOWN_CRASHES: set[tuple[type[BaseException], str, str]] = set()


def _known_crash(error: Exception) -> bool:
    frames = [
        f for f in traceback.extract_tb(error.__traceback__) if "tysiac_spec" in Path(f.filename).parts
    ]
    if not frames:
        return False
    last = frames[-1]
    return (type(error), Path(last.filename).name, last.name) in KNOWN_CRASHES


def _another_value(option: Any, current: Any) -> Any:
    if option.type == "bool":
        return not current
    if option.type == "choice":
        return next((c for c in option.choices if c != current), None)
    lo = option.minimum if option.minimum is not None else current - 1
    hi = option.maximum if option.maximum is not None else current + 1
    return next((v for v in (lo, hi) if v != current), current)


# --------------------------------------------------------------------------- text mutations

SCALARS = [
    "true", "false", "null", "~", "0", "-1", "1", "7", "10000000000000000000000000", "1.5",
    ".nan", "-.inf", "1e3", "010", "0x1F", "1_000", "1:30", "no", "on", "Y", "''", '""',
    "'x'", "[]", "{}", "[1, 2]", "{a: 1}", "[[[]]]", "*nope", "&a x", "!!str 5", "!!int x",
    "!!float 1", "!!python/object:os.system", "!!binary aGk=", "!custom x", "|", ">-",
    "\"\\u0000\"", "'\x85'", "- a", "? a", "a: b", "@x", "%YAML", "---", "...", "#",
    "x" * 300, "ä♥", "3H", "QH",
]

line_scalar = st.sampled_from(SCALARS) | st.text(alphabet=YAML_CHARS + "ab019", max_size=12)


def _lines(text: str) -> list[str]:
    return text.split("\n")


@st.composite
def text_mutation(draw: st.DrawFn, text: str) -> str:
    size = len(text)
    lines = _lines(text)
    kind = draw(
        st.sampled_from(
            ["delete", "insert", "insert_yaml", "dup_line", "swap_lines", "del_line",
             "indent", "scalar", "truncate"]
        )
    )
    if kind == "delete":
        start = draw(st.integers(0, size))
        length = draw(st.integers(1, 40))
        return text[:start] + text[start + length:]
    if kind in ("insert", "insert_yaml"):
        at = draw(st.integers(0, size))
        alphabet = st.sampled_from(YAML_CHARS) if kind == "insert_yaml" else st.characters(
            codec="utf-8", exclude_categories=("Cs",)
        )
        chunk = draw(st.text(alphabet=alphabet, min_size=1, max_size=8))
        return text[:at] + chunk + text[at:]
    if kind == "truncate":
        return text[: draw(st.integers(0, size))]
    i = draw(st.integers(0, len(lines) - 1))
    if kind == "dup_line":
        return "\n".join([*lines[: i + 1], lines[i], *lines[i + 1:]])
    if kind == "del_line":
        return "\n".join(lines[:i] + lines[i + 1:])
    if kind == "swap_lines":
        j = draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
        return "\n".join(lines)
    if kind == "indent":
        delta = draw(st.sampled_from([-4, -2, -1, 1, 2, 4]))
        stripped = lines[i].lstrip(" ")
        indent = max(0, len(lines[i]) - len(stripped) + delta)
        lines[i] = " " * indent + stripped
        return "\n".join(lines)
    # replace the value of a `key: value` line (or a `- item`) with a scalar of another type
    candidates = [k for k, line in enumerate(lines) if ": " in line or line.lstrip().startswith("- ")]
    if not candidates:
        return text
    k = draw(st.sampled_from(candidates))
    line = lines[k]
    cut = line.index(": ") + 2 if ": " in line else line.index("- ") + 2
    lines[k] = line[:cut] + draw(line_scalar)
    return "\n".join(lines)


@pytest.mark.slow
@pytest.mark.parametrize("file", FILES, ids=lambda p: p.relative_to(RULESETS).as_posix())
@SETTINGS
@given(data=st.data())
def test_text_mutation_loads_or_raises_tysiac_error(file: Path, data: st.DataObject) -> None:
    text = file.read_text(encoding="utf-8")
    mutated = data.draw(text_mutation(text), label="mutated text")
    check_loads_or_fails_cleanly(file.relative_to(RULESETS), mutated, data)


# --------------------------------------------------------------------------- structural mutations

json_leaf = (
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.integers()
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(["", "no", "on", "010", "1.5", "hearts", "S000", "core", "choice", "QH"])
)
json_values = st.recursive(
    json_leaf,
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=8) | st.integers(0, 5), children, max_size=4),
    max_leaves=12,
)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            out.extend(_paths(value, (*prefix, key)))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out.extend(_paths(value, (*prefix, i)))
    return out


def _keys(node: Any) -> set[Any]:
    keys: set[Any] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            keys.add(key)
            keys |= _keys(value)
    elif isinstance(node, list):
        for value in node:
            keys |= _keys(value)
    return keys


def _get(node: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        node = node[part]
    return node


def _tweak(value: Any, strings: list[str]) -> st.SearchStrategy[Any]:
    if isinstance(value, bool):
        return st.just(not value)
    if isinstance(value, int):
        return st.sampled_from([0, 1, -1, 2, 3, 5, 7, 8, 10, 120, 1000]) | st.integers(-2000, 2000)
    if isinstance(value, str):
        return st.sampled_from(strings) | st.text(max_size=6)
    if isinstance(value, list) and value:
        return st.permutations(value) | st.integers(0, len(value) - 1).map(
            lambda i: [*value[:i], *value[i + 1:]]
        ) | st.integers(0, len(value) - 1).map(lambda i: [*value, copy.deepcopy(value[i])])
    return st.just(value)


@st.composite
def structural_mutation(draw: st.DrawFn, doc: Any) -> str:
    keys = sorted(_keys(doc), key=str)
    strings = sorted({v for p in _paths(doc) if isinstance(v := _get(doc, p), str)})
    key_strategy = (st.sampled_from(keys) if keys else st.nothing()) | st.text(max_size=8)
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(doc)
        # another part of the same document (a copy: a shared node would become a YAML
        # alias, and a node placed inside itself a cycle)
        snapshot = copy.deepcopy(doc)
        elsewhere = st.sampled_from(paths).map(lambda p, d=snapshot: copy.deepcopy(_get(d, p)))
        new_value = json_values | elsewhere
        path = draw(st.sampled_from(paths))
        kind = draw(st.sampled_from(["replace", "delete", "add", "tweak", "tweak"]))
        if not path:  # the root
            if kind == "replace":
                doc = draw(new_value)
            continue
        parent, last = _get(doc, path[:-1]), path[-1]
        target = _get(doc, path)
        if kind == "tweak":  # same type, other value: gets past the schema to the semantics
            parent[last] = draw(_tweak(target, strings))
        elif kind == "replace":
            parent[last] = draw(new_value)
        elif kind == "delete":
            del parent[last]
        elif isinstance(target, dict):
            target[draw(key_strategy)] = draw(new_value)
        elif isinstance(target, list):
            target.insert(draw(st.integers(0, len(target))), draw(new_value))
        else:
            parent[last] = draw(new_value)
    return yaml.safe_dump(doc, allow_unicode=True, sort_keys=False)


@pytest.mark.slow
@pytest.mark.parametrize("file", FILES, ids=lambda p: p.relative_to(RULESETS).as_posix())
@SETTINGS
@given(data=st.data())
def test_structural_mutation_loads_or_raises_tysiac_error(
    file: Path, data: st.DataObject
) -> None:
    doc = yaml.safe_load(file.read_text(encoding="utf-8"))
    mutated = data.draw(structural_mutation(doc), label="mutated text")
    check_loads_or_fails_cleanly(file.relative_to(RULESETS), mutated, data)


# --------------------------------------------------------------------------- sanity


@pytest.mark.parametrize("file", FILES, ids=lambda p: p.relative_to(RULESETS).as_posix())
def test_unmutated_copy_loads(file: Path) -> None:
    """The harness itself: an unchanged copy in the temporary tree resolves its parents."""
    with tempfile.TemporaryDirectory(prefix="tysiac-mut-") as tmp:
        tree = Path(tmp) / "rulesets"
        shutil.copytree(RULESETS, tree)
        assert isinstance(load_ruleset(tree / file.relative_to(RULESETS)), Ruleset)


# --------------------------------------------------------------------------- regressions

# Mutants that once crashed, as (file, text replaced, replacement): kept as regressions.


NINE = '{id: nine, letter: "9", points: 0,'


@settings(phases=[Phase.explicit], deadline=None)
@example(
    relative="core.yaml", old='      symbol: "♠"\n', new="      symbol:\n"
)
@example(
    relative="core.yaml", old=NINE, new='{id: nine, letter: {value: "9", source: [S000]}, points: 0,'
)
@example(
    relative="core.yaml", old=NINE, new='{id: nine, letter: "9", points: {value: 0, source: [S000]},'
)
@example(
    relative="core.yaml", old="  suits:\n", new="  suits:\n    source: [S000]\n    value:\n"
)
@example(
    relative="core.yaml", old="sources:\n  - id: S000\n", new="sources: true\nxsources:\n  - id: S000\n"
)
@example(relative="core.yaml", old="  - id: S000\n", new="  - id: {x: 1}\n")
@given(relative=st.just("core.yaml"), old=st.just(""), new=st.just(""))
def test_known_mutants(relative: str, old: str, new: str) -> None:
    text = (RULESETS / relative).read_text(encoding="utf-8")
    assert old in text
    check_loads_or_fails_cleanly(Path(relative), text.replace(old, new, 1), known_ok=False)
