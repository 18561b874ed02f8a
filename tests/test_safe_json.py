"""The one reader of untrusted JSON (game records, scoresheets): every limit checked before the
work it guards, every refusal the project's own error with a short message, and fuzzing of the
record and scoresheet readers (only TysiacError may escape)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tysiac_spec import safe_json
from tysiac_spec.engine.record import Record
from tysiac_spec.errors import Diagnostic, LimitError, RecordError, TysiacError
from tysiac_spec.scoresheet import DealEntry, Sheet


def _fail(kind: str, detail: str) -> RecordError:
    return RecordError(Diagnostic(f"test.{kind}", detail))


def _loads(text: str) -> Any:
    return safe_json.loads(text, fail=_fail)


HINT = "if the input is meant to be this large, raise the limit: {}=N"


# --------------------------------------------------------------------------- limits


@pytest.mark.parametrize(
    ("text", "code", "message", "variable"),
    [
        ("[" * 100_000, "limit.depth",
         "the nesting of a YAML or JSON document: 100,000 levels, more than the limit of 64",
         "TYSIAC_MAX_DEPTH"),
        ('{"seed": ' + "7" * 5_000 + "}", "limit.int_digits",
         "an integer in a file: 5,000 digits, more than the limit of 18", "TYSIAC_MAX_INT_DIGITS"),
        ("-" + "9" * 19, "limit.int_digits",
         "an integer in a file: 19 digits, more than the limit of 18", "TYSIAC_MAX_INT_DIGITS"),
        ('["' + "x" * 20_001 + '"]', "limit.text_chars",
         "a single text value: 20,001 characters, more than the limit of 20,000", "TYSIAC_MAX_TEXT_CHARS"),
        ('{"' + "k" * 20_001 + '": 1}', "limit.text_chars",
         "a single text value: 20,001 characters, more than the limit of 20,000", "TYSIAC_MAX_TEXT_CHARS"),
    ],
    ids=["depth", "int-digits", "negative-int", "text", "key"],
)
def test_limits_are_checked_with_the_variable_that_raises_them(
    text: str, code: str, message: str, variable: str
) -> None:
    with pytest.raises(LimitError) as info:
        _loads(text)
    assert info.value.diagnostic.code == code
    assert info.value.diagnostic.message == message
    assert info.value.diagnostic.hint == HINT.format(variable)


def test_the_depth_counts_brackets_outside_strings_only() -> None:
    assert safe_json.depth('{"a": "[[[[[[[[", "b": [[1]]}') == 3
    assert safe_json.depth(r'["\"[[[", "\\", [[[]]]]') == 4
    assert safe_json.depth("17") == 0
    assert _loads("[" * 64 + "]" * 64) == _nested(64)
    with pytest.raises(LimitError, match="65 levels, more than the limit of 64"):
        _loads("[" * 65 + "]" * 65)


def _nested(levels: int) -> Any:
    value: Any = []
    for _ in range(levels - 1):
        value = [value]
    return value


def test_the_depth_scan_does_not_backtrack_on_unterminated_strings() -> None:
    # every quote starts a string that runs to the end: a backtracking scan would take hours
    assert safe_json.depth('"\\"' * 1_000_000) == 0
    assert safe_json.depth('"' + "\\" * 999 + "[") == 0


def test_a_raised_limit_is_honoured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TYSIAC_MAX_DEPTH", "100")
    assert _loads("[" * 100 + "]" * 100) == _nested(100)
    monkeypatch.setenv("TYSIAC_MAX_DEPTH", "200000")  # above what Python's parser can recurse
    with pytest.raises(LimitError) as info:
        _loads("[" * 100_000 + "]" * 100_000)
    assert info.value.diagnostic.message == (
        "the nesting of a YAML or JSON document: deeper than this Python can read (100,000 levels)"
    )
    assert info.value.diagnostic.hint is None  # raising the limit cannot help
    monkeypatch.setenv("TYSIAC_MAX_INT_DIGITS", "5000")  # above what int() converts (4,300)
    with pytest.raises(LimitError) as info:
        _loads("7" * 4_500)
    assert info.value.diagnostic.message == (
        "an integer in a file: more digits than Python converts, over the limit of 5,000 digits"
    )


# --------------------------------------------------------------------------- not JSON as we take it


@pytest.mark.parametrize(
    ("text", "detail"),
    [
        ('{"seed": NaN}', "`NaN` is not a JSON value (NaN and Infinity are refused)"),
        ("[-Infinity]", "`-Infinity` is not a JSON value (NaN and Infinity are refused)"),
        ("[1e999]", "the number 1e999 is out of range"),
        ('{"seed": 1, "seed": 2}', "the key `seed` is given twice in one object"),
        ('{"a": {"\\u001b[2J": 1, "\\u001b[2J": 2}}', "the key `\\x1b[2J` is given twice in one object"),
        ('["ok", "\\ud800"]', 'the text "\\ud800" is not Unicode (a lone surrogate)'),
        ("{", "Expecting property name enclosed in double quotes (line 1, column 2)"),
        ("", "Expecting value (line 1, column 1)"),
    ],
    ids=["nan", "infinity", "out-of-range", "duplicate", "duplicate-control", "surrogate", "syntax", "empty"],
)
def test_what_json_lets_through_is_refused(text: str, detail: str) -> None:
    with pytest.raises(RecordError) as info:
        _loads(text)
    assert info.value.diagnostic.code == "test.json"
    assert info.value.diagnostic.message == detail


def test_good_json_reads_as_json_does() -> None:
    text = '{"a": [1, -2, 3.5, true, false, null, "ż\\n"], "b": {}, "c": ""}'
    assert _loads(text) == json.loads(text)


# --------------------------------------------------------------------------- files


def test_the_size_is_checked_before_the_file_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TYSIAC_MAX_RECORD_BYTES", "1000")
    path = tmp_path / "big.json"
    path.write_bytes(b"[" + b"1," * 600 + b"1]")
    with pytest.raises(LimitError) as info:
        safe_json.read_json_file(path, size_limit="record_bytes", fail=_fail)
    assert str(info.value) == (
        f"{path}: error[limit.record_bytes]: a game record: 1,203 bytes, more than the limit of 1,000"
    )
    assert info.value.diagnostic.hint == HINT.format("TYSIAC_MAX_RECORD_BYTES")


def test_a_device_or_a_fifo_is_refused_unread(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)  # no writer: opening it must not wait
    for path in ("/dev/zero", fifo):
        with pytest.raises(RecordError) as info:
            safe_json.read_json_file(path, size_limit="sheet_bytes", fail=_fail)
        assert (info.value.diagnostic.code, info.value.diagnostic.message) == (
            "test.read", "cannot read it: not a regular file")


def test_files_that_are_not_utf8_or_cannot_be_read(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(b'["caf\xe9"]')
    with pytest.raises(RecordError) as info:
        safe_json.read_json_file(path, size_limit="record_bytes", fail=_fail)
    assert (info.value.diagnostic.code, info.value.diagnostic.message) == (
        "test.text", "the file is not UTF-8 text (byte 5)")
    with pytest.raises(RecordError) as info:
        safe_json.read_json_file(tmp_path / "missing.json", size_limit="record_bytes", fail=_fail)
    assert (info.value.diagnostic.code, info.value.diagnostic.message) == (
        "test.read", "cannot read it: No such file or directory")


# --------------------------------------------------------------------------- values in messages


def test_shown_values_are_short_and_visible() -> None:
    assert safe_json.shown("3") == '"3"'
    assert safe_json.shown(True) == "true"
    assert safe_json.shown(None) == "null"
    assert safe_json.shown([1, "a\x1b"]) == '[1, "a\\u001b"]'
    assert safe_json.shown("x" * 100) == '"' + "x" * 60 + '…(+40 characters)"'
    assert safe_json.shown("\x1b[2J") == '"\\x1b[2J"'
    assert safe_json.shown(list(range(100))) == "a list of 100 values"
    assert safe_json.shown({str(k): k for k in range(30)}) == "an object of 30 keys"
    assert safe_json.shown(10**5000) == "an integer of about 5,000 digits"


# --------------------------------------------------------------------------- fuzzing

_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20)
_json = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
_RECORD = json.loads(Record(ruleset="pl-standard", content_hash="abc", players=3, seed=1,
                            actions=("bid 100", "pass")).to_json())
_SHEET = json.loads(Sheet(ruleset="pl-standard", players=3, names=["Ala", "Ola", "Ela"],
                          deals=[DealEntry(0, 1, 100, 120, (20, 80, 20), ((1, "hearts"),))]).to_json())


def _mutated(base: dict[str, Any]) -> st.SearchStrategy[str]:
    """``base`` with one key's value replaced (or added, or dropped), as JSON text."""
    keys = st.sampled_from([*base, "extra"])
    return st.builds(
        lambda key, value, drop: json.dumps({k: v for k, v in {**base, key: value}.items()
                                             if not (drop and k == key)}),
        keys, _json, st.booleans(),
    )


def _texts(base: dict[str, Any]) -> st.SearchStrategy[str]:
    good = json.dumps(base)
    cut = st.integers(0, len(good)).map(lambda i: good[:i])
    spliced = st.tuples(st.integers(0, len(good)), st.text(max_size=10)).map(
        lambda p: good[: p[0]] + p[1] + good[p[0]:])
    return st.text(max_size=60) | _json.map(json.dumps) | _mutated(base) | cut | spliced


@settings(max_examples=200, deadline=None)
@given(text=_texts(_RECORD))
def test_the_record_reader_raises_only_its_own_errors(text: str) -> None:
    try:
        record = Record.from_json(text)
    except TysiacError:
        return
    assert Record.from_json(record.to_json()) == record


@settings(max_examples=200, deadline=None)
@given(text=_texts(_SHEET))
def test_the_scoresheet_reader_raises_only_its_own_errors(text: str) -> None:
    try:
        sheet = Sheet.from_json(text)
    except TysiacError:
        return
    assert Sheet.from_json(sheet.to_json()) == sheet


def test_a_document_of_too_many_values_is_refused_before_it_is_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TYSIAC_MAX_JSON_VALUES", "1000")
    with pytest.raises(LimitError) as info:
        safe_json.loads("[" + ",".join(["[]"] * 600) + "]", fail=_fail)
    assert info.value.diagnostic.message == (
        "a JSON document (lists, objects, items): 1,200 values, more than the limit of 1,000"
    )
    assert safe_json.loads('["a,[{", ' + ",".join(["1"] * 400) + "]", fail=_fail)[0] == "a,[{"
