"""Tests for the position-keeping safe YAML loader (tysiac_spec.ruleset._yaml)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tysiac_spec.errors import RulesetError
from tysiac_spec.ruleset._yaml import (
    MAX_DEPTH,
    Mark,
    YList,
    YMap,
    is_mapping,
    load_yaml,
    load_yaml_file,
    mark_at,
    to_plain,
)

F = "r.yaml"


def diagnostics(text: str) -> list[tuple[str, int | None, int | None, str]]:
    """(code, line, column, message) of every diagnostic loading ``text`` raises."""
    with pytest.raises(RulesetError) as info:
        load_yaml(text, file=F)
    return [(d.code, d.line, d.column, d.message) for d in info.value.diagnostics]


# --------------------------------------------------------------------------- values

VALUES = [
    # (yaml value text, python value)
    ("true", True),
    ("False", False),
    ("TRUE", True),
    ("null", None),
    ("~", None),
    ("", None),
    ("0", 0),
    ("-5", -5),
    ("+120", 120),
    ("1000", 1000),
    ("'no'", "no"),
    ('"010"', "010"),
    ("'1.5'", "1.5"),
    ("QH", "QH"),
    ("10♥", "10♥"),
    ("5 points", "5 points"),
    ("!!str 10", "10"),
    ("!!int 7", 7),
    ("!!bool true", True),
    ("!!null null", None),
    ("|\n  two\n  lines", "two\nlines\n"),
    ("[1, two]", [1, "two"]),
    ("{a: 1}", {"a": 1}),
]


@pytest.mark.parametrize(("text", "expected"), VALUES)
def test_scalar_and_collection_values(text: str, expected: object) -> None:
    value = load_yaml(f"v: {text}\n")["v"]
    assert value == expected
    assert type(value) is type(expected) or isinstance(value, YMap | YList)


def test_empty_document_is_none() -> None:
    assert load_yaml("") is None
    assert load_yaml("# only a comment\n") is None
    assert load_yaml("---\n") is None


def test_integer_keys_become_strings() -> None:
    doc = load_yaml("players:\n  3: three\n  4: four\n")
    assert doc == {"players": {"3": "three", "4": "four"}}


def test_anchors_and_aliases_expand_to_independent_copies() -> None:
    doc = load_yaml("a: &x {k: 1}\nb: *x\n")
    assert doc == {"a": {"k": 1}, "b": {"k": 1}}
    assert doc["a"] is not doc["b"]


def test_types_and_marks() -> None:
    doc = load_yaml("auction:\n  step: 10\n  ranks: [9, J]\n", file=F)
    assert isinstance(doc, YMap)
    assert isinstance(doc["auction"], YMap)
    assert isinstance(doc["auction"]["ranks"], YList)
    assert doc.mark == Mark(F, 1, 1)
    assert doc.key_marks["auction"] == Mark(F, 1, 1)
    assert doc["auction"].value_marks["step"] == Mark(F, 2, 9)
    assert doc["auction"]["ranks"].item_marks == [Mark(F, 3, 11), Mark(F, 3, 14)]


MARKS = [
    # (path, key, expected (line, column))
    ((), False, (1, 1)),
    (("auction",), False, (2, 3)),
    (("auction",), True, (1, 1)),
    (("auction", "step"), False, (2, 9)),
    (("auction", "step"), True, (2, 3)),
    (("auction", "ranks", 1), False, (3, 14)),
    (("auction", "ranks", 1), True, (3, 14)),
    # missing: the deepest existing ancestor
    (("auction", "max_bid"), False, (2, 3)),
    (("auction", "ranks", 7), False, (3, 10)),
    (("auction", "step", "deeper"), False, (2, 9)),
    (("nothing", "here"), False, (1, 1)),
]


@pytest.mark.parametrize(("path", "key", "expected"), MARKS)
def test_mark_at(path: tuple[str | int, ...], key: bool, expected: tuple[int, int]) -> None:
    doc = load_yaml("auction:\n  step: 10\n  ranks: [9, J]\n", file=F)
    assert mark_at(doc, path, key=key) == Mark(F, *expected)


def test_mark_at_plain_data_is_none() -> None:
    assert mark_at({"a": 1}, ["a"]) is None
    assert mark_at(None, []) is None


def test_to_plain() -> None:
    doc = load_yaml("a: [1, {b: c}]\n")
    plain = to_plain(doc)
    assert type(plain) is dict
    assert type(plain["a"]) is list
    assert type(plain["a"][1]) is dict
    assert json.loads(json.dumps(plain)) == {"a": [1, {"b": "c"}]}


def test_ymap_copies_keep_marks() -> None:
    doc = load_yaml("a: 1\n", file=F)
    for clone in (copy.deepcopy(doc), copy.copy(doc)):
        assert isinstance(clone, YMap)
        assert clone.key_marks == {"a": Mark(F, 1, 1)}
        assert clone == {"a": 1}


# --------------------------------------------------------------------------- diagnostics

ERRORS = [
    # (text, [(code, line, column, message)])
    (
        "a: [1, 2\n",
        [
            (
                "yaml.syntax",
                2,
                1,
                "expected ',' or ']', but got '<stream end>' "
                "(while parsing a flow sequence at line 1)",
            )
        ],
    ),
    (
        "a: 1\n b: 2\n",
        [("yaml.syntax", 2, 3, "mapping values are not allowed here")],
    ),
    (
        "a: \x07\n",
        [
            (
                "yaml.syntax",
                1,
                4,
                "unacceptable character #x0007: special characters are not allowed",
            )
        ],
    ),
    (
        "a: *nowhere\n",
        [("yaml.syntax", 1, 4, "found undefined alias 'nowhere'")],
    ),
    (
        "auction:\n  step: 10\n  max: 120\n  step: 5\nstep: 1\nauction: {}\n",
        [
            ("yaml.duplicate-key", 4, 3, "duplicate key `step` (first defined at line 2)"),
            ("yaml.duplicate-key", 6, 1, "duplicate key `auction` (first defined at line 1)"),
        ],
    ),
    (
        "players:\n  3: a\n  '3': b\n",
        [("yaml.duplicate-key", 3, 3, "duplicate key `3` (first defined at line 2)")],
    ),
    (
        "a: no\nb: On\nc: y\nd: YES\n",
        [
            (
                "yaml.ambiguous-bool",
                1,
                4,
                '`no` is read as a boolean by YAML 1.1; write `false` or quote it as "no"',
            ),
            (
                "yaml.ambiguous-bool",
                2,
                4,
                '`On` is read as a boolean by YAML 1.1; write `true` or quote it as "On"',
            ),
            (
                "yaml.ambiguous-bool",
                3,
                4,
                '`y` is read as a boolean by YAML 1.1; write `true` or quote it as "y"',
            ),
            (
                "yaml.ambiguous-bool",
                4,
                4,
                '`YES` is read as a boolean by YAML 1.1; write `true` or quote it as "YES"',
            ),
        ],
    ),
    (
        "off: 1\n",
        [
            (
                "yaml.ambiguous-bool",
                1,
                1,
                '`off` is read as a boolean by YAML 1.1; write `false` or quote it as "off"',
            )
        ],
    ),
    (
        "a: 010\nb: 0o10\nc: 0x1F\nd: 1:30\ne: 1_000\nf: -007\n",
        [
            (
                "yaml.ambiguous-number",
                1,
                4,
                "`010` has a leading zero, which YAML 1.1 reads as octal; "
                'write `10` or quote it as "010"',
            ),
            (
                "yaml.ambiguous-number",
                2,
                4,
                '`0o10` is not a decimal integer (it means 8); write `8` or quote it as "0o10"',
            ),
            (
                "yaml.ambiguous-number",
                3,
                4,
                '`0x1F` is not a decimal integer (it means 31); write `31` or quote it as "0x1F"',
            ),
            (
                "yaml.ambiguous-number",
                4,
                4,
                "`1:30` is read as a base-60 number by YAML 1.1 (as in 1:30 = 90); "
                'quote it as "1:30"',
            ),
            (
                "yaml.ambiguous-number",
                5,
                4,
                "`1_000` contains `_`, which YAML 1.1 ignores in numbers; "
                'write `1000` or quote it as "1_000"',
            ),
            (
                "yaml.ambiguous-number",
                6,
                4,
                "`-007` has a leading zero, which YAML 1.1 reads as octal; "
                'write `-7` or quote it as "-007"',
            ),
        ],
    ),
    (
        "a: 1.5\nb: .inf\nc: 1e3\n",
        [
            (
                "yaml.float",
                n,
                4,
                f"`{v}` is a float, but floats are not allowed: points are integers; "
                f'write an integer or quote it as "{v}"',
            )
            for n, v in ((1, "1.5"), (2, ".inf"), (3, "1e3"))
        ],
    ),
    (
        "true: a\n~: b\n[x]: c\n? {k: v}\n: d\n",
        [
            (
                "yaml.bad-key",
                1,
                1,
                "mapping keys must be names or integers (got the boolean `true`); "
                'quote it as "true"',
            ),
            (
                "yaml.bad-key",
                2,
                1,
                'mapping keys must be names or integers (got null); quote it as "~"',
            ),
            ("yaml.bad-key", 3, 1, "mapping keys must be names or integers (got a list)"),
            ("yaml.bad-key", 4, 3, "mapping keys must be names or integers (got a mapping)"),
        ],
    ),
    (
        "a: !!python/object:os.system echo\nb: !!set {x}\nc: !local 1\n",
        [
            (
                "yaml.tag",
                line,
                4,
                f"tag `{tag}` is not allowed; only the standard tags "
                "!!str, !!int, !!bool, !!null, !!map and !!seq are accepted",
            )
            for line, tag in ((1, "!!python/object:os.system"), (2, "!!set"), (3, "!local"))
        ],
    ),
    (
        "a: !!int ten\nb: !!bool yes\n",
        [
            ("yaml.tag", 1, 4, "`!!int` needs a decimal integer (got `ten`)"),
            ("yaml.tag", 2, 4, "`!!bool` needs `true` or `false` (got `yes`)"),
        ],
    ),
    (
        "base: &b {step: 10}\nhouse:\n  <<: *b\n  max: 5\n",
        [("yaml.merge-key", 3, 3, "use `extends` instead of YAML merge keys (`<<`)")],
    ),
    (
        "a: 1\n---\nb: 2\n",
        [
            (
                "yaml.multiple-documents",
                2,
                1,
                "found a second YAML document; a ruleset file holds exactly one",
            )
        ],
    ),
    (
        "a: &a [1, *a]\n",
        [
            (
                "yaml.too-deep",
                1,
                4,
                "an alias refers to a mapping or list that contains it (infinitely deep)",
            )
        ],
    ),
]


@pytest.mark.parametrize(("text", "expected"), ERRORS)
def test_diagnostics(text: str, expected: list[tuple[str, int, int, str]]) -> None:
    assert diagnostics(text) == expected


def test_diagnostic_paths_and_file() -> None:
    with pytest.raises(RulesetError) as info:
        load_yaml("auction:\n  ranks: [9, no]\n  step: 1.5\n", file=F)
    assert [(d.file, d.path) for d in info.value.diagnostics] == [
        (F, ("auction", "ranks", 1)),
        (F, ("auction", "step")),
    ]


def test_problem_inside_an_alias_is_reported_once() -> None:
    text = "a: &x [no]\nb: *x\nc: *x\n"
    assert [d[0] for d in diagnostics(text)] == ["yaml.ambiguous-bool"]


def test_all_problems_are_reported_together() -> None:
    codes = [d[0] for d in diagnostics("a: no\na: 1.5\nb: !!foo x\n")]
    assert codes == ["yaml.ambiguous-bool", "yaml.duplicate-key", "yaml.float", "yaml.tag"]


def test_nesting_depth_limit() -> None:
    ok = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert load_yaml(ok) == to_plain(load_yaml(ok))
    deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    assert diagnostics(deep) == [
        ("yaml.too-deep", 1, MAX_DEPTH + 1, "the document is nested more than 64 levels deep")
    ]


def test_nesting_depth_limit_through_aliases() -> None:
    # each line nests the previous anchor one level deeper: literal depth stays small
    lines = ["a0: &a0 [1]"] + [f"a{i}: &a{i} [*a{i - 1}]" for i in range(1, MAX_DEPTH + 1)]
    assert diagnostics("\n".join(lines) + "\n")[0][0] == "yaml.too-deep"


@pytest.mark.slow  # about 2 s of CPU (quick-loop budget, issue 25)
def test_alias_bomb_is_stopped() -> None:
    lines = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, 9):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [{', '.join(['*' + prev] * 9)}]")
    found = diagnostics("\n".join(lines) + "\n")
    assert len(found) == 1
    code, _, _, message = found[0]
    assert code == "yaml.too-large"
    assert message == (
        "the document expands to more than 200000 values "
        "(are aliases `*name` repeating a large part?)"
    )


def test_huge_integer_is_an_error_not_a_crash() -> None:
    assert diagnostics("a: " + "9" * 5000 + "\n") == [
        ("yaml.too-large", 1, 4, "the integer is too large (5,000 digits; at most 18)")
    ]


def test_integers_have_at_most_18_digits_unless_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    assert load_yaml("a: -999999999999999999\n") == {"a": -999999999999999999}
    assert diagnostics("a: !!int 1000000000000000000\n") == [
        ("yaml.too-large", 1, 4, "the integer is too large (19 digits; at most 18)")
    ]
    # the error names the variable that raises the limit, as a JSON file's limit.int_digits does
    with pytest.raises(RulesetError) as info:
        load_yaml("a: 1000000000000000000\n", file=F)
    [diag] = info.value.diagnostics
    assert diag.hint == "if the file is meant to be this large, raise the limit: TYSIAC_MAX_INT_DIGITS=N"
    monkeypatch.setenv("TYSIAC_MAX_INT_DIGITS", "19")
    assert load_yaml("a: 1000000000000000000\n") == {"a": 10**18}


def test_a_long_hex_number_is_reported_without_converting_it() -> None:
    text = "0x" + "f" * 30000
    [(code, _, _, message)] = diagnostics(f"a: {text[:19000]}\n")
    assert code == "yaml.ambiguous-number"
    assert message == (
        f"`0x{'f' * 58}…(+18,940 characters)` is not a decimal integer; write it in decimal or "
        f'quote it as "0x{"f" * 58}…(+18,940 characters)"'
    )


def test_a_text_longer_than_the_limit_is_refused_with_the_variable_that_raises_it() -> None:
    with pytest.raises(RulesetError) as info:
        load_yaml("name: " + "x" * 20_001 + "\n", file=F)
    [d] = info.value.diagnostics
    assert (d.code, d.line, d.column, d.path) == ("yaml.too-long", 1, 7, ("name",))
    assert d.message == "a text of 20,001 characters; the limit is 20,000"
    assert d.hint == "if the file is meant to be this large, raise the limit: TYSIAC_MAX_TEXT_CHARS=N"


@pytest.mark.parametrize(
    ("text", "name", "position"),
    [
        ('name: "\\e[2Jgone"', "U+001B", 1),
        ('name: "ok\\ud800"', "U+D800", 3),
        ('name: "abc\\u202eevil"', "U+202E", 4),
        ('name: "nul\\0"', "U+0000", 4),
        ('name: "\\x9b31m"', "U+009B", 1),
    ],
)
def test_control_characters_in_texts_are_refused(text: str, name: str, position: int) -> None:
    assert diagnostics(text + "\n") == [
        (
            "yaml.control-character",
            1,
            7,
            f"the text holds the control character {name} at position {position}; rulesets hold "
            "printable text only (escape codes, lone surrogates, direction overrides and invisible "
            "characters are refused)",
        )
    ]


def test_tabs_and_newlines_in_texts_are_kept() -> None:
    assert load_yaml('doc: "a\\tb\\nc"\n') == {"doc": "a\tb\nc"}


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("a: 1\n" * 300, encoding="utf-8")
    monkeypatch.setenv("TYSIAC_MAX_RULESET_BYTES", "1000")
    with pytest.raises(RulesetError) as info:
        load_yaml_file(path)
    [d] = info.value.diagnostics
    assert (d.code, d.file) == ("limit.ruleset_bytes", str(path))
    assert d.message == "a ruleset or scenario file: 1,500 bytes, more than the limit of 1,000"
    assert d.hint == "if the input is meant to be this large, raise the limit: TYSIAC_MAX_RULESET_BYTES=N"


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    with pytest.raises(RulesetError) as info:
        load_yaml_file(fifo)
    assert info.value.diagnostic.message == f"cannot read `{fifo}`: not a regular file"


def test_a_byte_order_mark_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / "bom.yaml"
    path.write_bytes(b"\xef\xbb\xbfa: 1\n")
    assert load_yaml_file(path) == {"a": 1}


def test_no_object_is_constructed(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    text = f"a: !!python/object/apply:os.system ['touch {marker}']\n"
    assert [d[0] for d in diagnostics(text)] == ["yaml.tag"]
    assert not marker.exists()


# --------------------------------------------------------------------------- files


def test_load_yaml_file(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text("a: 1\nb: no\n", encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load_yaml_file(path)
    assert info.value.diagnostic.file == str(path)
    assert info.value.diagnostic.line == 2
    path.write_text("a: 1\n", encoding="utf-8")
    doc = load_yaml_file(path)
    assert doc == {"a": 1}
    assert doc.mark.file == str(path)


def test_is_mapping_is_isinstance_mapping() -> None:
    import types
    from collections.abc import Mapping

    class Table(Mapping[str, int]):  # a Mapping that is no dict
        def __getitem__(self, key: str) -> int:
            raise KeyError(key)

        def __iter__(self):  # type: ignore[no-untyped-def]
            return iter(())

        def __len__(self) -> int:
            return 0

    mark = Mark(F, 1, 1)
    values = [{}, YMap(mark=mark), types.MappingProxyType({}), Table(), [], YList(mark=mark), "a", 1,
              True, None, (), b"x", 1.5, object()]
    assert [is_mapping(v) for v in values] == [isinstance(v, Mapping) for v in values]
    assert [is_mapping(v) for v in values].count(True) == 4


def test_load_yaml_file_is_loaded_once_per_content(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text("a: {b: 1}\n", encoding="utf-8")
    doc = load_yaml_file(path)
    assert load_yaml_file(path) is doc  # shared: the registry and the loader read the same files
    assert load_yaml_file(str(path)) is doc
    path.write_text("a: {b: 2}\n", encoding="utf-8")
    assert load_yaml_file(path) == {"a": {"b": 2}}
    other = tmp_path / "s.yaml"  # the same bytes in another file: its own marks
    other.write_text("a: {b: 1}\n", encoding="utf-8")
    assert load_yaml_file(other).mark.file == str(other)
    assert doc == {"a": {"b": 1}}


def test_load_yaml_file_missing(tmp_path: Path) -> None:
    path = tmp_path / "missing.yaml"
    with pytest.raises(RulesetError) as info:
        load_yaml_file(path)
    d = info.value.diagnostic
    assert (d.code, d.message) == ("io.read", f"cannot read `{path}`: No such file or directory")


def test_load_yaml_file_bad_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes("a: 1\nname: Tysi\u0105c\n".encode("utf-8") + b"b: \xe9\n")
    with pytest.raises(RulesetError) as info:
        load_yaml_file(path)
    d = info.value.diagnostic
    assert (d.code, d.line, d.column) == ("io.read", 3, 4)
    assert d.message == f"`{path}` is not valid UTF-8 (byte 0xe9 at offset 22)"


# --------------------------------------------------------------------------- properties

VALID = """\
id: pl-standard
name: {en: Polish standard, pl: Tysiąc}
players: [3, 4]
auction:
  step: 10
  start: 100
  ranks: [9, J, Q, K, "10", A]
barrel: &barrel
  at: 880
  deals: 3
copy: *barrel
doc: |
  Some text: with "quotes" and 'more'.
"""


def _load_or_error(text: str) -> None:
    try:
        load_yaml(text, file=F)
    except RulesetError as exc:
        assert exc.diagnostics
        for d in exc.diagnostics:
            assert d.code.startswith("yaml.")


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.text())
def test_arbitrary_text_loads_or_raises_ruleset_error(text: str) -> None:
    _load_or_error(text)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.sampled_from(list(":-[]{},&*!|>'\"#?% \n\tab01.~<"))))
def test_yaml_punctuation_loads_or_raises_ruleset_error(text: str) -> None:
    _load_or_error(text)


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text = VALID
    for _ in range(draw(st.integers(1, 6))):
        pos = draw(st.integers(0, len(text)))
        if draw(st.booleans()) and pos < len(text):
            end = draw(st.integers(pos, min(len(text), pos + 8)))
            text = text[:pos] + text[end:]
        else:
            text = text[:pos] + draw(st.text(min_size=1, max_size=4)) + text[pos:]
    return text


def test_valid_document_loads() -> None:
    doc = load_yaml(VALID)
    assert doc["copy"] == {"at": 880, "deals": 3}
    assert doc["auction"]["ranks"][4] == "10"


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_document_loads_or_raises_ruleset_error(text: str) -> None:
    _load_or_error(text)
