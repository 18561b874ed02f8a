"""The table of mekedron/thousand's rules against tysiac-spec (docs/peer/mekedron.yaml) stays true.

Checks the data, not the engine: exactly the peer's 127 fields (by section) and 68 house rules;
each entry's status has what it needs (evidence for ``shown``, the data for ``expressible``, the
mechanism for ``missing``); every ``evidence:`` names an existing test function or scenario; every
``how:`` path is a field of ``tysiac_spec.ruleset.model``.  Prints the summary of
``docs/peer/table.py`` (run with ``-s`` to see it).
"""

from __future__ import annotations

import dataclasses
import importlib.util
import re
import types
import typing
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml

from tysiac_spec.ruleset import model

ROOT = Path(__file__).resolve().parent.parent
PEER = ROOT / "docs" / "peer"
SHARED = Path("/work/shared/rules/peer_mekedron.md")

SECTIONS = {
    "cards": 2, "players": 4, "dealing": 12, "talon": 12, "bidding": 22, "marriages": 10,
    "tricks": 16, "scoring": 5, "opening_game": 6, "barrel": 10, "endgame": 5, "specials": 5,
    "penalties": 18,
}
"""Fields per section of core/rule_config.lua (peer_mekedron.md §0): 127 in all."""

STATUSES = {"shown", "expressible", "missing", "contract-kind", "not-a-rule"}
RANK = {"missing": 0, "expressible": 1, "shown": 2}
PENDING = {"incidents", "layouts", "bolts-mode"}
EVIDENCE_ROOTS = ("tests/", "rulesets/scenarios/", "examples/house/scenarios/")


def _table() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("peer_table", PEER / "table.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TABLE = _table()
DATA = TABLE.load()
FIELDS: list[dict[str, Any]] = DATA["fields"]
RULES: list[dict[str, Any]] = DATA["house_rules"]
ENTRIES = [*FIELDS, *RULES]


# --------------------------------------------------------------------------- model paths

_TOP: dict[str, type] = {**model.SECTIONS, "deck": model.DeckSpec}


def _unwrap(tp: Any) -> tuple[Any, str]:
    """The dataclass (or other type) a field holds and how: ``one``, ``list`` or ``map``."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        return _unwrap(args[0]) if len(args) == 1 else (tp, "one")
    if origin is tuple:
        return typing.get_args(tp)[0], "list"
    if origin is not None and isinstance(origin, type) and issubclass(origin, Mapping):
        return typing.get_args(tp)[1], "map"
    return tp, "one"


def model_path_error(path: str) -> str | None:
    """Why ``path`` (``deal.redeals[].when``, ``players.4.talons``, ``marriages.values.spades``)
    is not a field of the ruleset model; ``None`` if it is."""
    parts = path.split(".")
    head = parts.pop(0)
    if head == "players":
        if not parts or not parts[0].isdigit():
            return "`players` must be followed by a player count"
        parts.pop(0)
        if not parts:
            return None
        cls: Any = model.TablePlan if parts[0] in {f.name for f in dataclasses.fields(model.TablePlan)} else None
        if cls is None:
            head = parts.pop(0)
            if head not in model.SECTIONS:
                return f"`{head}` is neither a table field nor a section"
            cls = model.SECTIONS[head]
    elif head == "options":
        if not parts:
            return None
        parts.pop(0)  # the option's own name
        cls = model.Option
    elif head in _TOP:
        cls = _TOP[head]
    else:
        return f"`{head}` is not a section of a ruleset"
    kind = "one"
    for part in parts:
        name, listed = (part[:-2], True) if part.endswith("[]") else (part, False)
        if kind == "map":  # a key of a mapping (a suit of marriages.values): the end of the path
            return None if not listed else f"`{part}`: a mapping key takes no []"
        if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
            return f"`{part}`: {cls!r} has no fields"
        hints = typing.get_type_hints(cls)
        if name not in hints:
            return f"`{name}` is not a field of {cls.__name__}"
        cls, kind = _unwrap(hints[name])
        if listed and kind != "list":
            return f"`{name}` is not a list"
        if kind == "list" and listed:
            kind = "one"
    return None


def _how_path(item: str) -> str:
    path = item.split(": ", 1)[0].strip()
    assert re.fullmatch(r"[a-z_0-9]+(\[\])?(\.[a-z_0-9]+(\[\])?)*", path), f"not a path: {item!r}"
    return path


# --------------------------------------------------------------------------- evidence


def _scenario_names(file: Path) -> set[str]:
    data = yaml.safe_load(file.read_text(encoding="utf-8"))
    return {s["name"] for s in data.get("scenarios", [])}


def evidence_error(item: str) -> str | None:
    """Why ``item`` (``tests/test_x.py::test_y`` or ``…/scenarios/x.yaml::name``) names nothing."""
    path, _, name = item.partition("::")
    if not path.startswith(EVIDENCE_ROOTS):
        return f"{path}: evidence is a test or a scenario file ({', '.join(EVIDENCE_ROOTS)})"
    file = ROOT / path
    if not file.is_file():
        return f"{path}: no such file"
    if not name:
        return None if file.suffix == ".yaml" else f"{path}: name the test function"
    if file.suffix == ".py":
        text = file.read_text(encoding="utf-8")
        found = re.search(rf"^(?:async )?def {re.escape(name)}\(", text, re.M)
        return None if found else f"{path}: no test function `{name}`"
    return None if name in _scenario_names(file) else f"{path}: no scenario `{name}`"


# --------------------------------------------------------------------------- tests


def test_every_field_of_the_peer_once_by_section() -> None:
    assert len(FIELDS) == 127 == sum(SECTIONS.values())
    assert [f["n"] for f in FIELDS] == list(range(1, 128))
    ids = [f["id"] for f in FIELDS]
    assert len(set(ids)) == 127
    assert Counter(i.split(".")[0] for i in ids) == SECTIONS


def test_every_house_rule_of_the_peer_once() -> None:
    assert [r["id"] for r in RULES] == [f"HR{i}" for i in range(1, 69)]
    assert all(r.get("name") for r in RULES)
    ids = {f["id"] for f in FIELDS}
    for r in RULES:
        assert set(r.get("fields") or []) <= ids, r["id"]


@pytest.mark.skipif(not SHARED.is_file(), reason="the shared rule catalogue is not on this machine")
def test_the_fields_and_house_rules_are_the_catalogues() -> None:
    text = SHARED.read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+) \| (\w+) \| `(\w+)` \|", text, re.M)
    assert [(int(n), f"{s}.{f}") for n, s, f in rows] == [(f["n"], f["id"]) for f in FIELDS]
    rules = re.findall(r"^\| (\d+) \| ([^|]+?) \| [^|]+ \| [^|]+ \| [^|]+ \|$", text, re.M)
    assert [(f"HR{n}", name) for n, name in rules] == [(r["id"], r["name"]) for r in RULES]


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e["id"])
def test_an_entry_has_what_its_status_needs(entry: dict[str, Any]) -> None:
    status = entry["status"]
    assert status in STATUSES
    known = {"id", "n", "name", "status", "values", "how", "evidence", "evidence_kind", "missing",
             "mechanism", "pending", "note", "approx", "fields"}
    assert set(entry) <= known, set(entry) - known
    if status == "shown":
        assert entry.get("how") and entry.get("evidence"), "shown needs `how:` and `evidence:`"
    if status == "expressible":
        assert entry.get("how"), "expressible needs `how:`"
    if status == "missing":
        assert entry.get("missing") and entry.get("mechanism"), "missing needs `missing:` and `mechanism:`"
    else:
        assert not entry.get("pending"), "only a missing entry is pending"
    if status in ("contract-kind", "not-a-rule"):
        assert entry.get("note"), f"{status} says why in `note:`"
    if entry.get("pending"):
        assert entry["pending"] in PENDING
    assert entry.get("evidence_kind", "exact") in ("exact", "mechanism")
    values = entry.get("values")
    if values:
        assert set(values.values()) <= STATUSES - {"not-a-rule"}
        ranked = [RANK[v] for v in values.values() if v != "contract-kind"]
        if ranked:
            weakest = {v: k for k, v in RANK.items()}[min(ranked)]
            assert status == weakest, f"the field is {status}, its weakest value {weakest}"
        else:
            assert status == "contract-kind"


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e["id"])
def test_evidence_names_an_existing_test_or_scenario(entry: dict[str, Any]) -> None:
    errors = [e for e in map(evidence_error, entry.get("evidence") or []) if e]
    assert not errors


@pytest.mark.parametrize("entry", [e for e in ENTRIES if e.get("how")], ids=lambda e: e["id"])
def test_how_writes_fields_of_the_model(entry: dict[str, Any]) -> None:
    errors = [f"{p}: {why}" for p in map(_how_path, entry["how"]) if (why := model_path_error(p))]
    assert not errors


def test_model_paths_are_checked() -> None:
    assert model_path_error("special.barrel.falls_reset") is None
    assert model_path_error("deal.redeals[].when") is None
    assert model_path_error("players.4.talons") is None
    assert model_path_error("players.2.talon.exchange") is None
    assert model_path_error("marriages.values.spades") is None
    assert model_path_error("options.first_share.default") is None
    assert model_path_error("special.barrel.falls") == "`falls` is not a field of Barrel"
    assert model_path_error("deal.redeal.when") == "`redeal` is not a field of DealRules"
    assert model_path_error("auction.step[]") == "`step` is not a list"
    assert model_path_error("tricks.must_beat") == "`tricks` is not a section of a ruleset"
    assert evidence_error("tests/test_peer_coverage.py::test_model_paths_are_checked") is None
    assert evidence_error("tests/test_peer_coverage.py::test_nothing") == (
        "tests/test_peer_coverage.py: no test function `test_nothing`"
    )
    assert evidence_error("examples/house/scenarios/barrel-falls.yaml::nothing") == (
        "examples/house/scenarios/barrel-falls.yaml: no scenario `nothing`"
    )


def test_summary() -> None:
    fields, rules = TABLE.tally(FIELDS), TABLE.tally(RULES)
    assert fields["total"] == 127 and rules["total"] == 68
    print()
    print("\n".join(TABLE.summary_lines(DATA)))
    for mechanism, entries in TABLE.missing_groups(DATA):
        print(f"  missing, {mechanism}: {len(entries)}")
