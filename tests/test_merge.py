"""Tests for ruleset inheritance (tysiac_spec.ruleset._merge)."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tysiac_spec.errors import Diagnostic, RulesetError
from tysiac_spec.ruleset import _merge
from tysiac_spec.ruleset._merge import MAX_EXTENDS_DEPTH, merge, parents_of, resolve_extends
from tysiac_spec.ruleset._yaml import Mark, YList, YMap, load_yaml, mark_at

# --------------------------------------------------------------------------- merge

DEL = {"$delete": True}
"""The deletion marker of the merge language."""

MERGES: list[tuple[Any, Any, Any]] = [
    # (base, over, expected)
    ({"a": 1, "b": 2}, {"b": 3}, {"a": 1, "b": 3}),
    ({"a": {"x": 1, "y": 2}}, {"a": {"y": 3, "z": 4}}, {"a": {"x": 1, "y": 3, "z": 4}}),
    ({"a": [1, 2, 3]}, {"a": [4]}, {"a": [4]}),
    ({"a": 1, "b": 2}, {"b": DEL}, {"a": 1}),
    ({"a": {"x": 1, "y": 2}}, {"a": {"x": DEL}}, {"a": {"y": 2}}),
    ({"a": 1}, {"zz": DEL}, {"a": 1}),
    # null is the value none: kept, over a value or as a new key
    ({"a": 1, "b": 2}, {"b": None}, {"a": 1, "b": None}),
    ({"a": {"x": 1}}, {"a": {"x": None}}, {"a": {"x": None}}),
    ({"a": 1}, {"zz": None}, {"a": 1, "zz": None}),
    # a mapping with more than the marker, or a marker not `true`, is data
    ({"a": 1}, {"a": {"$delete": True, "x": 1}}, {"a": {"$delete": True, "x": 1}}),
    ({"a": 1}, {"a": {"$delete": False}}, {"a": {"$delete": False}}),
    ({"a": 1}, {"a": {"x": 1}}, {"a": {"x": 1}}),
    ({"a": {"x": 1}}, {"a": 5}, {"a": 5}),
    ({"a": {"x": 1}}, {"a": [1]}, {"a": [1]}),
    ({}, {"a": {"x": DEL, "y": 1}}, {"a": {"y": 1}}),
    ({"a": [{"x": 1}]}, {"a": [{"y": DEL}]}, {"a": [{"y": DEL}]}),  # lists are data
    # an option's patch keeps its markers: they remove keys when the option is chosen
    ({}, {"options": {"o": {"set": {"false": {"auction": {"max_bid": DEL}}}}}},
     {"options": {"o": {"set": {"false": {"auction": {"max_bid": DEL}}}}}}),
    ({"options": {"o": {"set": {"false": {"auction": {"cap": 1}}}}}},
     {"options": {"o": {"set": {"false": {"auction": {"max_bid": DEL}}}}}},
     {"options": {"o": {"set": {"false": {"auction": {"cap": 1, "max_bid": DEL}}}}}}),
    ({"a": 1}, 7, 7),
    (7, {"a": 1}, {"a": 1}),
    ({"a": False}, {"a": True}, {"a": True}),
]


@pytest.mark.parametrize(("base", "over", "expected"), MERGES)
def test_merge(base: Any, over: Any, expected: Any) -> None:
    before = copy.deepcopy((base, over))
    assert merge(base, over) == expected
    assert (base, over) == before  # inputs untouched


@pytest.mark.parametrize(("base", "over", "expected"), MERGES)
def test_merge_once_gives_the_same_result(base: Any, over: Any, expected: Any) -> None:
    assert merge(base, over, share=True, once=True) == expected
    assert merge(base, over, share=True, once=True) is merge(base, over, share=True, once=True)


def test_merge_once_reuses_each_section_merged_before() -> None:
    # The cache empties itself when full (_MOST_ONCE entries); start from an empty one, or
    # whether it fills up between the two chains below depends on the tests run before
    # (adding the ua-standard ruleset made it do so in the quick loop).
    _merge._ONCE.clear()
    doc = load_yaml("auction:\n  step: 10\n  cap: 300\nplay: {claim: false}\ndeal: {}\n", file="r.yaml")
    default = load_yaml("auction:\n  cap: 400\n", file="r.yaml")
    other = load_yaml("play:\n  claim: true\n", file="r.yaml")
    first = merge(merge(doc, default, share=True, once=True), other, share=True, once=True)
    # another chain through the same parts: the same auction section, a new play section
    again = merge(merge(doc, default, share=True, once=True), other, share=True, once=True)
    assert again is first
    alone = merge(doc, other, share=True, once=True)
    assert alone is not first
    assert alone["play"] is first["play"]  # the same two play sections merged: made once
    assert alone["play"] == first["play"] == {"claim": True}
    assert alone["deal"] is doc["deal"]  # untouched parts are shared
    assert first["auction"] == {"step": 10, "cap": 400}
    assert mark_at(first, ("auction", "cap")) == Mark("r.yaml", 2, 8)
    assert merge(doc, default, share=True, once=True)["auction"] is first["auction"]
    fresh = load_yaml("auction:\n  cap: 400\n", file="r.yaml")  # equal, but another object
    assert merge(doc, fresh, share=True, once=True)["auction"] is not first["auction"]


def test_merge_key_order_is_base_then_new() -> None:
    assert list(merge({"a": 1, "b": 2, "c": 3}, {"d": 4, "b": 5})) == ["a", "b", "c", "d"]


def test_merge_result_shares_nothing_with_inputs() -> None:
    base = {"a": {"x": [1]}, "b": [1]}
    over = {"c": {"y": [2]}}
    result = merge(base, over)
    result["a"]["x"].append(9)
    result["b"].append(9)
    result["c"]["y"].append(9)
    assert base == {"a": {"x": [1]}, "b": [1]}
    assert over == {"c": {"y": [2]}}


def test_merge_keeps_marks_of_the_side_that_wrote_each_value() -> None:
    base = load_yaml("auction:\n  step: 10\n  cap: 300\nranks: [9, J]\n", file="base.yaml")
    over = load_yaml("auction:\n  step: 5\nranks: [A]\n", file="house.yaml")
    result = merge(base, over)
    assert isinstance(result, YMap)
    assert isinstance(result["auction"], YMap)
    assert isinstance(result["ranks"], YList)
    assert mark_at(result, ["auction", "step"]) == Mark("house.yaml", 2, 9)
    assert mark_at(result, ["auction", "cap"]) == Mark("base.yaml", 3, 8)
    assert mark_at(result, ["auction", "cap"], key=True) == Mark("base.yaml", 3, 3)
    assert mark_at(result, ["ranks", 0]) == Mark("house.yaml", 3, 9)
    assert result.mark == over.mark


def test_merge_plain_dicts_stay_plain() -> None:
    assert type(merge({"a": {"b": 1}}, {"a": {"c": 2}})["a"]) is dict


# a JSON-like document (None is a value like any other; only {$delete: true} removes)
scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5))
keys = st.text(min_size=1, max_size=4)
documents = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(keys, children, max_size=4)
    ),
    max_leaves=20,
)
mappings = st.dictionaries(keys, documents, max_size=5)


@given(mappings)
def test_merge_with_empty_is_identity(a: dict[str, Any]) -> None:
    assert merge(a, {}) == a


@given(mappings)
def test_merge_with_itself_is_identity(a: dict[str, Any]) -> None:
    assert merge(a, a) == a


@given(mappings, mappings)
def test_over_wins_for_its_keys(a: dict[str, Any], b: dict[str, Any]) -> None:
    result = merge(a, b)
    assert set(result) == set(a) | set(b)
    for key, value in b.items():
        if not isinstance(value, dict):
            assert result[key] == value


@given(mappings, st.data())
def test_the_marker_removes_and_none_is_kept(a: dict[str, Any], data: st.DataObject) -> None:
    removed = data.draw(st.lists(st.sampled_from(sorted(a)), unique=True) if a else st.just([]))
    result = merge(a, {key: DEL for key in removed})
    assert set(result) == set(a) - set(removed)
    assert merge(a, dict.fromkeys(removed)) == {**a, **dict.fromkeys(removed)}


# --------------------------------------------------------------------------- extends

FILES = {
    "base": (
        "id: base\nname: Base rules\naliases: [b]\n"
        "auction:\n  step: 10\n  cap: 300\nranks: [9, J, Q]\n"
    ),
    "mid": "id: mid\nextends: base\nauction:\n  cap: 360\nmatch: {target: 1000}\n",
    "house": "id: house\nextends: mid\nauction:\n  step: 5\nmatch: {$delete: true}\n",
    "left": "id: left\nextra: [l]\nside: left\n",
    "right": "id: right\nside: right\n",
    "cyc-a": "id: cyc-a\nextends: cyc-b\n",
    "cyc-b": "id: cyc-b\nextends: [base, cyc-a]\n",
    "broken": "id: broken\nauction: {step: no}\n",
    "listy": "- 1\n- 2\n",
}


def lookup(ref: str, from_file: str | None) -> tuple[YMap, str | None]:
    if ref.startswith("chain-"):  # chain-N extends chain-(N+1), forever
        n = int(ref.removeprefix("chain-"))
        return load_yaml(f"id: {ref}\nextends: chain-{n + 1}\n", file=f"{ref}.yaml"), f"{ref}.yaml"
    if ref not in FILES:
        known = ", ".join(sorted(FILES))
        raise RulesetError(f"unknown ruleset `{ref}` in `extends`; known: {known}")
    return load_yaml(FILES[ref], file=f"{ref}.yaml"), f"{ref}.yaml"


def resolve(text: str, file: str = "child.yaml") -> YMap:
    return resolve_extends(load_yaml(text, file=file), file=file, lookup=lookup)


def resolve_errors(text: str) -> list[Diagnostic]:
    with pytest.raises(RulesetError) as info:
        resolve(text)
    return list(info.value.diagnostics)


def test_no_extends_is_a_copy() -> None:
    doc = load_yaml("id: x\na: {b: null, c: {$delete: true}}\n")
    result = resolve_extends(doc, file=None, lookup=lookup)
    assert result == {"id": "x", "a": {"b": None}}  # nothing to delete from; null kept
    assert result is not doc


def test_null_over_an_inherited_value_is_kept_and_points_at_the_child() -> None:
    result = resolve("id: c\nextends: base\nauction:\n  cap: null\n")
    assert result["auction"] == {"step": 10, "cap": None}
    assert mark_at(result, ["auction", "cap"]) == Mark("child.yaml", 4, 8)


def test_the_marker_removes_an_inherited_key_and_leaves_none_of_itself() -> None:
    result = resolve("id: c\nextends: base\nauction:\n  cap: {$delete: true}\n")
    assert result["auction"] == {"step": 10}


def test_deleting_a_key_the_parent_lacks_is_refused() -> None:
    """A marker on a key the parent does not have deletes nothing: most often a misspelled key,
    so it is an error (with the closest key), not silently nothing."""
    [diag] = resolve_errors("id: c\nextends: base\nauction:\n  cap: {$delete: true}\n  stpe: {$delete: true}\n")
    assert (diag.code, diag.line, diag.column, diag.path, diag.hint) == (
        "merge.nothing-to-delete", 5, 3, ("auction", "stpe"), "did you mean `step`?"
    )
    assert diag.message == "`auction.stpe` is not in the ruleset this file extends: nothing to delete"


def test_extends_chain() -> None:
    result = resolve("id: mine\nextends: house\nranks: [A]\n")
    assert result == {
        "id": "mine",
        "auction": {"step": 5, "cap": 360},
        "ranks": ["A"],
    }
    assert mark_at(result, ["auction", "step"]) == Mark("house.yaml", 4, 9)
    assert mark_at(result, ["auction", "cap"]) == Mark("mid.yaml", 4, 8)
    assert mark_at(result, ["ranks"]) == Mark("child.yaml", 3, 8)


def test_id_name_aliases_are_not_inherited() -> None:
    result = resolve("extends: base\nname: {en: Mine}\n")
    assert "id" not in result and "aliases" not in result
    assert result["name"] == {"en": "Mine"}


def test_list_of_parents_merges_left_to_right() -> None:
    result = resolve("id: c\nextends: [left, right]\n")
    assert result == {"id": "c", "extra": ["l"], "side": "right"}
    assert mark_at(result, ["side"]) == Mark("right.yaml", 2, 7)


def test_parents_of() -> None:
    assert parents_of(load_yaml("a: 1\n")) == []
    assert parents_of(load_yaml("extends: base\n")) == ["base"]
    assert parents_of(load_yaml("extends: [a, b.yaml]\n")) == ["a", "b.yaml"]
    assert parents_of(None) == []


EXTENDS_ERRORS = [
    # (child text, [(code, file, line, column, path, message)])
    (
        "id: c\nextends: [base, pl-standrad]\n",
        [
            (
                "merge.unknown-parent",
                "child.yaml",
                2,
                17,
                ("extends", 1),
                "unknown ruleset `pl-standrad` in `extends`; known: " + ", ".join(sorted(FILES)),
            )
        ],
    ),
    (
        "id: c\nextends: nope\n",
        [
            (
                "merge.unknown-parent",
                "child.yaml",
                2,
                10,
                ("extends",),
                "unknown ruleset `nope` in `extends`; known: " + ", ".join(sorted(FILES)),
            )
        ],
    ),
    (
        "id: c\nextends: cyc-a\n",
        [
            (
                "merge.cycle",
                "cyc-b.yaml",
                2,
                17,
                ("extends", 1),
                "`extends` cycle: c -> cyc-a -> cyc-b -> cyc-a",
            )
        ],
    ),
    (
        "id: c\nextends: [5]\n",
        [
            (
                "merge.bad-extends",
                "child.yaml",
                2,
                11,
                ("extends", 0),
                "`extends` must be a ruleset id or file name, or a list of them (got `5`)",
            )
        ],
    ),
    (
        "id: c\nextends: {a: 1}\n",
        [
            (
                "merge.bad-extends",
                "child.yaml",
                2,
                10,
                ("extends",),
                "`extends` must be a ruleset id or file name, or a list of them (got a mapping)",
            )
        ],
    ),
    (
        "id: c\nextends: listy\n",
        [
            (
                "merge.bad-parent",
                "child.yaml",
                2,
                10,
                ("extends",),
                "`extends` names `listy`, which is not a ruleset (got a list)",
            )
        ],
    ),
    (
        # a parent's own errors keep their position in the parent's file
        "id: c\nextends: [broken, nope]\n",
        [
            (
                "yaml.ambiguous-bool",
                "broken.yaml",
                2,
                17,
                ("auction", "step"),
                '`no` is read as a boolean by YAML 1.1; write `false` or quote it as "no"',
            ),
            (
                "merge.unknown-parent",
                "child.yaml",
                2,
                19,
                ("extends", 1),
                "unknown ruleset `nope` in `extends`; known: " + ", ".join(sorted(FILES)),
            ),
        ],
    ),
]


@pytest.mark.parametrize(("text", "expected"), EXTENDS_ERRORS)
def test_extends_errors(text: str, expected: list[tuple[Any, ...]]) -> None:
    found = [(d.code, d.file, d.line, d.column, d.path, d.message) for d in resolve_errors(text)]
    assert found == expected


def test_self_extension_is_a_cycle() -> None:
    # a file that extends itself (identified by its path)
    def self_lookup(ref: str, from_file: str | None) -> tuple[YMap, str | None]:
        return load_yaml("id: me\nextends: me\n", file="me.yaml"), "me.yaml"

    doc = load_yaml("id: me\nextends: me\n", file="me.yaml")
    with pytest.raises(RulesetError) as info:
        resolve_extends(doc, file="me.yaml", lookup=self_lookup)
    d = info.value.diagnostic
    assert (d.code, d.message, d.line, d.column) == (
        "merge.cycle",
        "`extends` cycle: me -> me",
        2,
        10,
    )


def test_extends_depth_limit() -> None:
    with pytest.raises(RulesetError) as info:
        resolve("id: chain-0\nextends: chain-1\n")
    d = info.value.diagnostic
    assert d.code == "merge.too-deep"
    assert d.message == "`extends` chain is longer than 16 levels: chain-0 -> chain-1 -> chain-2 -> … -> chain-17"
    assert d.hint == "if it is meant to be this deep, raise the limit: TYSIAC_MAX_EXTENDS_DEPTH=N"
    assert (d.file, d.line, d.column) == (f"chain-{MAX_EXTENDS_DEPTH}.yaml", 2, 10)


def test_extends_depth_limit_allows_sixteen_levels() -> None:
    def finite(ref: str, from_file: str | None) -> tuple[YMap, str | None]:
        n = int(ref)
        text = f"id: '{n}'\nlevel{n}: {n}\n" + (f"extends: '{n + 1}'\n" if n < 16 else "")
        return load_yaml(text, file=f"{n}.yaml"), f"{n}.yaml"

    result = resolve_extends(load_yaml("id: top\nextends: '1'\n"), file="top.yaml", lookup=finite)
    assert sorted(result) == sorted(["id", *(f"level{n}" for n in range(1, 17))])


def test_lookup_receives_the_extending_file() -> None:
    calls: list[tuple[str, str | None]] = []

    def recording(ref: str, from_file: str | None) -> tuple[YMap, str | None]:
        calls.append((ref, from_file))
        return lookup(ref, from_file)

    resolve_extends(load_yaml("extends: house\n"), file="dir/child.yaml", lookup=recording)
    assert calls == [
        ("house", "dir/child.yaml"),
        ("mid", "house.yaml"),
        ("base", "mid.yaml"),
    ]


def _with_marks(node: Any) -> Any:
    """``node`` as plain values, each mapping and list with the marks it keeps."""
    if isinstance(node, YMap):
        return ("map", node.mark, {k: (node.key_marks.get(k), node.value_marks.get(k),
                                       _with_marks(v)) for k, v in node.items()})
    if isinstance(node, YList):
        return ("list", node.mark, node.item_marks, [_with_marks(v) for v in node])
    if isinstance(node, dict):
        return {k: _with_marks(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_with_marks(v) for v in node]
    return node


def test_resolve_extends_with_share_gives_the_same_document() -> None:
    from tysiac_spec.ruleset._extends import _lookup_in, _parsed
    from tysiac_spec.ruleset.registry import entries

    for entry in entries():
        doc = _parsed(entry.path)
        before = _with_marks(doc)
        lookup = _lookup_in(str(entry.path.parent))
        copied = resolve_extends(doc, file=str(entry.path), lookup=lookup)
        shared = resolve_extends(doc, file=str(entry.path), lookup=lookup, share=True)
        assert _with_marks(shared) == _with_marks(copied), entry.id
        assert _with_marks(doc) == before  # the loaded file is unchanged
        loaded = {id(n) for e in entries() for n in _nodes(_parsed(e.path))}
        assert not loaded & {id(n) for n in _nodes(copied)}
        assert loaded & {id(n) for n in _nodes(shared)}  # the parts no merge changes


def _nodes(node: Any) -> Iterator[Any]:
    if isinstance(node, dict | list):
        yield node
        for value in node.values() if isinstance(node, dict) else node:
            yield from _nodes(value)
