"""The table of mekedron/thousand's rules against tysiac-spec (docs/peer/mekedron.yaml) stays true.

Checks the data: exactly the peer's 127 fields (by section) and 68 house rules; each entry's
status has what it needs (evidence for ``shown``, the data for ``expressible``, the mechanism for
``missing``); every ``evidence:`` names an existing test function or scenario; every ``how:`` path
is a field of ``tysiac_spec.ruleset.model``.  Prints the summary of ``docs/peer/table.py`` (run
with ``-s`` to see it).

Then plays the peer's rules that tysiac-spec writes but no shipped ruleset, house example or
scenario played: each is written as a house rule in a temporary folder (the entry's ``how:``) and
played against its parent, with the numbers the peer's description gives; these tests are the
``evidence:`` of those entries.
"""

from __future__ import annotations

import dataclasses
import functools
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
from _quick import sample

from tysiac_spec import MatchError, load_ruleset
from tysiac_spec.engine import Game, parse_action
from tysiac_spec.engine.match import DealOutcome, MatchState, settle_deal
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
PENDING = {"incidents", "layouts"}
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
"""Every entry of the peer table; the per-entry checks below are data checks of about 2 ms
each, so the quick loop takes every 4th entry (the checks of the whole table stay), CI all."""


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


@functools.cache
def _scenario_names(file: Path) -> frozenset[str]:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    data = yaml.load(file.read_text(encoding="utf-8"), Loader=loader)  # a safe loader
    return frozenset(s["name"] for s in data.get("scenarios", []))


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


@pytest.mark.parametrize("entry", sample(ENTRIES, every=4, ids=lambda e: e["id"]))
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


@pytest.mark.parametrize("entry", sample(ENTRIES, every=4, ids=lambda e: e["id"]))
def test_evidence_names_an_existing_test_or_scenario(entry: dict[str, Any]) -> None:
    errors = [e for e in map(evidence_error, entry.get("evidence") or []) if e]
    assert not errors


@pytest.mark.parametrize("entry", sample([e for e in ENTRIES if e.get("how")], every=4, ids=lambda e: e["id"]))
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


NOT_EXACT = {
    # written only approximately: `approx:` says what differs and why it cannot be exact
    "players.partnership_mode", "talon.hidden_on_minimum_100", "bidding.blind_bid",
    "bidding.forced_bid_concession", "scoring.defender_contributions", "HR12", "HR37", "HR43",
    # played by the same data path with another number (`evidence_kind: mechanism`, `note:`)
    "penalties.revoke", "penalties.talon_look", "penalties.showing_hand", "HR63",
}
"""The entries that are not exact (issue 26 item 14): each names why."""


def test_summary() -> None:
    fields, rules = TABLE.tally(FIELDS), TABLE.tally(RULES)
    assert fields["total"] == 127 and rules["total"] == 68
    assert (fields["exact"], rules["exact"]) == (119, 64)
    not_exact = {e["id"] for e in FIELDS + RULES
                 if e.get("approx") or e.get("evidence_kind", "exact") != "exact" or e["status"] != "shown"}
    assert not_exact == NOT_EXACT
    for entry in FIELDS + RULES:
        if entry["id"] in NOT_EXACT:
            assert entry.get("approx") or entry.get("note"), entry["id"]
    print()
    print("\n".join(TABLE.summary_lines(DATA)))
    for mechanism, entries in TABLE.missing_groups(DATA):
        print(f"  missing, {mechanism}: {len(entries)}")


# --------------------------------------------------------------------------- plays
# The peer's rules that tysiac-spec writes in data but no shipped file plays: each is written
# here as a house rule (the `how:` of its entry) and played against its parent, with the
# result the peer gives for it.  These tests are the `evidence:` of those entries.

_HEADER = "kind: house\nname: {{en: {id}}}\ndescription: {{en: the peer's rule {id}}}\n"


def _house(folder: Path, name: str, extends: str, body: str) -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(f"id: peer-{name}\n" + _HEADER.format(id=name) + f"extends: {extends}\n" + body,
                    encoding="utf-8")
    return path


def _settle(
    ruleset: str | Path,
    *,
    state: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
    **outcome: Any,
) -> tuple[tuple[int, ...], int | None, MatchState]:
    """Settle one 3-player deal outcome (declarer 1 unless given): the new scores, the winner,
    the new match state."""
    rules = load_ruleset(ruleset, options=options or {})
    form = rules.form(3)
    start = MatchState.new(form, options=rules.selected, deck_points=rules.deck.total_points)
    start = start.with_values(form, **(state or {}))
    outcome.setdefault("declarer", 1)
    outcome.setdefault("bid", outcome.get("contract", 100))
    outcome.setdefault("players", (0, 1, 2))
    new, _ = settle_deal(form, start, DealOutcome(**outcome))
    return new.scores, new.winner, new


SLAM = (
    "scoring:\n  declarer: 'if made then contract + (if tricks == 8 then 60 else 0)"
    " else -contract - (if tricks == 0 then 120 else 0)'\n"
)
SLAM_DOUBLED = "scoring:\n  declarer: 'if made then contract * (if tricks == 8 then 2 else 1) else -contract'\n"


def test_slam_bonus_and_slam_against(tmp_path: Path) -> None:
    # peer fields tricks.slam_bonus (fixed 60 / doubled_bid), slam_against_penalty (120), HR39
    fixed = _house(tmp_path, "slam", "pl-standard", SLAM)
    doubled = _house(tmp_path, "slam-doubled", "pl-standard", SLAM_DOUBLED)
    every_trick = {"contract": 120, "card_points": {1: 120, 2: 0, 0: 0}, "tricks": {1: 8, 2: 0, 0: 0}}
    assert _settle("pl-standard", **every_trick)[0] == (0, 120, 0)
    assert _settle(fixed, **every_trick)[0] == (0, 180, 0)
    assert _settle(doubled, **every_trick)[0] == (0, 240, 0)
    # an ordinary made contract is not changed
    some = {"contract": 100, "card_points": {1: 100, 2: 20, 0: 0}, "tricks": {1: 6, 2: 2, 0: 0}}
    assert _settle(fixed, **some)[0] == _settle("pl-standard", **some)[0] == (0, 100, 20)
    # the declarer takes no trick: 120 more off
    none = {"contract": 100, "card_points": {1: 0, 2: 60, 0: 60}, "tricks": {1: 0, 2: 4, 0: 4}}
    assert _settle("pl-standard", **none)[0] == (60, -100, 60)
    assert _settle(fixed, **none)[0] == (60, -220, 60)


def test_actual_points_on_success(tmp_path: Path) -> None:
    # peer field scoring.actual_points_on_success, HR42: a made contract scores max(bid, points)
    path = _house(tmp_path, "actual", "pl-standard",
                  "scoring:\n  declarer: 'if made then max(contract, round_to(points, 10)) else -contract'\n")
    deal = {"contract": 100, "card_points": {1: 97, 2: 13, 0: 10}, "marriages": {1: 40},
            "tricks": {1: 6, 2: 1, 0: 1}}
    assert _settle("pl-standard", **deal)[0] == (10, 100, 10)
    assert _settle(path, **deal)[0] == (10, 140, 10)
    # below the contract it still fails with the contract
    assert _settle(path, **{**deal, "contract": 140, "marriages": {}})[0] == (10, -140, 10)


FIRST_BY_SEAT = "player_seat == (if declarer_seat == 0 then 1 else 0)"
"""The defender with the lowest seat number (three players), the peer's first defender: its
core/scoring.lua lists the defender seats in ascending order and gives the first one the odd
point of a split and the residual of a ratio."""

FAILED = {
    "split": f"contract // (players - 1) + (if {FIRST_BY_SEAT} then contract % (players - 1) else 0)",
    "full": "contract",
    "ratio": f"(if {FIRST_BY_SEAT} then contract - (contract * 40 + 50) // 100 else (contract * 40 + 50) // 100)",
}


@pytest.mark.parametrize(("mode", "scores"), [("split", (80, -100, 80)), ("full", (130, -100, 130)),
                                              ("ratio", (90, -100, 70))])
def test_failed_contract_distribution(tmp_path: Path, mode: str, scores: tuple[int, ...]) -> None:
    # peer field scoring.failed_contract_distribution (split_among_defenders, each_defender_full,
    # mirrors_forced_concession with the ratio 0.6 / 0.4), HR45: a failed bid goes to the defenders
    body = (f"scoring:\n  defender: 'round_to(points, 10, half=options.five_rounds)"
            f" + (if made then 0 else {FAILED[mode]})'\n")
    path = _house(tmp_path, f"failed-{mode}", "pl-standard", body)
    deal = {"contract": 100, "card_points": {1: 60, 2: 30, 0: 30}, "tricks": {1: 4, 2: 2, 0: 2}}
    assert _settle("pl-standard", **deal)[0] == (30, -100, 30)
    assert _settle(path, **deal)[0] == scores
    made = {"contract": 100, "card_points": {1: 100, 2: 10, 0: 10}, "tricks": {1: 6, 2: 1, 0: 1}}
    assert _settle(path, **made)[0] == (10, 100, 10)


@pytest.mark.parametrize(("declarer", "scores"), [(0, (-105, 93, 72)), (1, (93, -105, 72)),
                                                  (2, (93, 72, -105))])
def test_failed_bid_splits_by_seat_number(tmp_path: Path, declarer: int, scores: tuple[int, ...]) -> None:
    # Issue 26 item 11, the peer's splits by seat number (core/scoring.lua score_deal: the
    # defender seats in ascending order; split_among_defenders gives the first the odd point,
    # preset_ratio rounds each share half up and gives the first the residual). A failed 105
    # under the ratio 0.6 / 0.4: the lower-numbered defender gets 105 - round(42.0) = 63, the
    # other 42, whichever seat declares; a split gives 53 and 52.
    ratio = _house(tmp_path, "ratio-by-seat", "ru-classic",
                   f"scoring:\n  defender: 'round_to(points, 5) + (if made then 0 else {FAILED['ratio']})'\n")
    split = _house(tmp_path, "split-by-seat", "ru-classic",
                   f"scoring:\n  defender: 'round_to(points, 5) + (if made then 0 else {FAILED['split']})'\n")
    others = [p for p in range(3) if p != declarer]
    deal = {"declarer": declarer, "contract": 105, "card_points": {declarer: 60, others[0]: 30, others[1]: 30},
            "tricks": {declarer: 4, others[0]: 2, others[1]: 2}}
    assert _settle(ratio, **deal)[0] == scores
    split_scores = [30 + 53, 30 + 52]
    assert _settle(split, **deal)[0] == tuple(
        -105 if p == declarer else split_scores[others.index(p)] for p in range(3))


def test_formulas_read_the_seat_numbers(tmp_path: Path) -> None:
    # Issue 26 item 11: `player_seat`, `dealer_seat` and `declarer_seat` are the seats as the
    # game numbers players; here each defender scores 10 per seat number, plus 500 for the
    # dealer, and the declarer his own seat number times 100 (dealer 2, declarer 1).
    path = _house(tmp_path, "seats", "pl-standard",
                  "scoring:\n  defender: 'player_seat * 10 + (if player_seat == dealer_seat then 500 else 0)'\n"
                  "  declarer: 'declarer_seat * 100'\n")
    deal = {"contract": 100, "dealer": 2, "card_points": {1: 60, 2: 30, 0: 30}, "tricks": {1: 4, 2: 2, 0: 2}}
    assert _settle(path, **deal)[0] == (0, 100, 520)
    with pytest.raises(MatchError, match="`dealer_seat`, which this deal's record does not give"):
        _settle(path, **{**deal, "dealer": None})


def test_declarer_rounding_before_the_contract_check(tmp_path: Path) -> None:
    # peer field scoring.declarer_rounding_before_contract_check: on, HR44 (118 makes 120)
    path = _house(tmp_path, "rounded-check", "pl-standard", "scoring:\n  made: 'round_to(points, 10) >= contract'\n")
    deal = {"contract": 120, "card_points": {1: 118, 2: 2, 0: 0}, "tricks": {1: 7, 2: 1, 0: 0}}
    assert _settle("pl-standard", **deal)[0] == (0, -120, 0)
    assert _settle(path, **deal)[0] == (0, 120, 0)


STREAK = """\
contract:
  forfeit: {enabled: true, declarer: '-contract', defender: '60'}
match:
  counters: [{id: write_offs}]
  rules:
    - {id: write-off, when: 'forfeited and declarer', then: 'player.write_offs += 1'}
    - {id: third-write-off, when: 'player.write_offs == 3', then: 'player.write_offs = 0; player.score -= 120'}
"""


def test_every_third_write_off_costs_120(tmp_path: Path) -> None:
    # peer fields penalties.write_off_streak (any_three), _threshold (3), _penalty_amount (120), HR66
    path = _house(tmp_path, "write-offs", "pl-standard", STREAK)
    forfeit = {"contract": 100, "forfeited": True}
    scores, _, state = _settle(path, **forfeit, state={"counters": {"write_offs": [0, 1, 0]}})
    assert scores == (60, -100, 60) and state.counters["write_offs"] == (0, 2, 0)
    scores, _, state = _settle(path, **forfeit, state={"counters": {"write_offs": [0, 2, 0]}})
    assert scores == (60, -220, 60) and state.counters["write_offs"] == (0, 0, 0)


NO_WIN = """\
match:
  counters: [{id: no_wins}]
  rules:
    - {id: no-win, when: '(declarer and not made) or (not declarer and delta <= 0)', then: 'player.no_wins += 1'}
    - {id: a-win, when: 'options.consecutive and ((declarer and made) or (not declarer and delta > 0))', then: 'player.no_wins = 0'}
    - {id: third-no-win, when: 'player.no_wins == 3', then: 'player.no_wins = 0; player.score -= 120'}
options:
  consecutive: {type: bool, default: false}
"""


@pytest.mark.parametrize("consecutive", [False, True])
def test_no_win_streak(tmp_path: Path, consecutive: bool) -> None:
    # peer fields penalties.no_win_streak (any_three, consecutive_three), _threshold, _penalty_amount,
    # HR67: a deal a player does not win (declarer: made; defender: scored above 0) counts
    path = _house(tmp_path, "no-wins", "pl-standard", NO_WIN)
    deal = {"contract": 100, "card_points": {1: 100, 2: 20, 0: 0}, "tricks": {1: 6, 2: 2, 0: 0}}
    scores, _, state = _settle(path, **deal, state={"counters": {"no_wins": [2, 2, 2]}},
                               options={"consecutive": consecutive})
    # player 0 scored nothing: his third, −120; player 1 made it, player 2 scored 20
    assert scores == (-120, 100, 20)
    assert state.counters["no_wins"] == ((0, 0, 0) if consecutive else (0, 2, 2))


CROSS = """\
scoring:
  declarer: 'if made then contract else 0'
match:
  counters: [{id: crosses}]
  rules:
    - {id: cross, when: 'declarer and not made and not forfeited', then: 'player.crosses += 1'}
    - {id: second-cross, when: 'player.crosses == 2', then: 'player.crosses = 0; player.score -= 120'}
"""


def test_cross_instead_of_the_lost_bid(tmp_path: Path) -> None:
    # peer fields penalties.cross, cross_penalty_amount (120), HR68: a failed contract costs a
    # cross, not the bid; the second cross costs 120
    path = _house(tmp_path, "cross", "pl-standard", CROSS)
    failed = {"contract": 100, "card_points": {1: 60, 2: 30, 0: 30}, "tricks": {1: 4, 2: 2, 0: 2}}
    assert _settle("pl-standard", **failed)[0] == (30, -100, 30)
    scores, _, state = _settle(path, **failed)
    assert scores == (30, 0, 30) and state.counters["crosses"] == (0, 1, 0)
    scores, _, state = _settle(path, **failed, state={"counters": {"crosses": [0, 1, 0]}})
    assert scores == (30, -120, 30) and state.counters["crosses"] == (0, 0, 0)


def test_going_over_the_target_needs_an_exact_landing(tmp_path: Path) -> None:
    # peer field endgame.going_over_target: exact_only, HR56 (990 + 30 is held at 999, no winner)
    path = _house(tmp_path, "exact", "pl-standard",
                  "match:\n  rules:\n    - {id: exact, when: 'player.score > target', then: 'player.score = target - 1'}\n")
    deal = {"contract": 100, "card_points": {1: 100, 2: 20, 0: 0}, "tricks": {1: 6, 2: 2, 0: 0}}
    assert _settle("pl-standard", **deal, state={"scores": [0, 950, 0]})[:2] == ((0, 1050, 20), 1)
    assert _settle(path, **deal, state={"scores": [0, 950, 0]})[:2] == ((0, 999, 20), None)
    assert _settle(path, **deal, state={"scores": [0, 900, 0]})[:2] == ((0, 1000, 20), 1)


PIT = """\
match:
  threshold: {enabled: true, score: 700}
  rules:
    - {id: pit, when: 'player.score > 700 and player.score - delta < 700', then: 'player.score = 700'}
"""


def test_pit_lock_at_700(tmp_path: Path) -> None:
    # peer fields barrel.pit_lock_in, pit_score (700), HR53: 600 + 200 is held at 700; from 700 a
    # made contract of 100 reaches 800; a defender's 60 from 700 leaves him at 700
    path = _house(tmp_path, "pit", "pl-standard", PIT)
    deal = {"contract": 200, "card_points": {1: 100, 2: 20, 0: 0}, "marriages": {1: 100},
            "tricks": {1: 6, 2: 2, 0: 0}}
    assert _settle("pl-standard", **deal, state={"scores": [0, 600, 0]})[0] == (0, 800, 20)
    assert _settle(path, **deal, state={"scores": [0, 600, 0]})[0] == (0, 700, 20)
    made = {"contract": 100, "card_points": {1: 60, 2: 60, 0: 0}, "marriages": {1: 40},
            "tricks": {1: 4, 2: 4, 0: 0}}
    assert _settle(path, **made, state={"scores": [0, 700, 700]})[0] == (0, 800, 700)


def test_declarer_exempt_from_bolts(tmp_path: Path) -> None:
    # peer field penalties.zero_tricks_declarer_exempt: the declarer never earns a bolt
    path = _house(tmp_path, "exempt", "ru-online", "special:\n  bolts:\n    declarer_exempt: true\n")
    off = {"golden_round": False}
    deal = {"contract": 100, "card_points": {1: 0, 2: 60, 0: 60}, "tricks": {1: 0, 2: 4, 0: 3}}
    assert _settle("ru-online", **deal, options=off)[2].bolts == (0, 1, 0)
    assert _settle(path, **deal, options=off)[2].bolts == (0, 0, 0)


DRY = """\
match:
  counters: [{id: dry}]
  rules:
    - {id: dry-deal, when: 'tricks == 0', then: 'player.dry += 1'}
    - {id: a-trick, when: 'tricks > 0', then: 'player.dry = 0'}
    - {id: third-dry-deal, when: 'player.dry == 3', then: 'player.dry = 0; player.score -= 120'}
"""


def test_three_deals_in_a_row_without_a_trick(tmp_path: Path) -> None:
    # peer field penalties.zero_tricks: consecutive_three (a trick clears the count)
    path = _house(tmp_path, "dry", "pl-standard", DRY)
    deal = {"contract": 100, "card_points": {1: 100, 2: 20, 0: 0}, "tricks": {1: 6, 2: 2, 0: 0}}
    scores, _, state = _settle(path, **deal, state={"counters": {"dry": [2, 2, 2]}})
    assert scores == (-120, 100, 20) and state.counters["dry"] == (0, 0, 0)
    scores, _, state = _settle(path, **deal, state={"counters": {"dry": [1, 2, 2]}})
    assert scores == (0, 100, 20) and state.counters["dry"] == (2, 0, 0)


HANDS = {1: "AH KH QH 9H AS KS QS", 2: "TH JH TS JS 9S AD TD", 0: "KD QD JD 9D AC TC KC"}
TALON = ["QC JC 9C"]


def _game(ruleset: str | Path, *, hands: dict[int, str] = HANDS, talons: list[str] = TALON,
          players: int = 3, **options: object) -> Game:
    game = Game(load_ruleset(ruleset), players=players, seed=0, options=options or None)
    game.start_deal(hands=hands, talons=talons, dealer=0)
    return game


def _do(game: Game, *texts: str) -> list[str]:
    for text in texts:
        game.apply(parse_action(text, game.ruleset.deck))
    return [str(a) for a in game.legal_actions()]


PIVOT = """\
auction: {step: 5, may_bid: 'bid < 200 or bid % 10 == 0'}
contract: {step: 5, allowed: 'contract < 200 or contract % 10 == 0'}
options:
  bid_limit: {default: false}
"""


def test_bids_in_fives_below_200_and_tens_from_it(tmp_path: Path) -> None:
    # peer fields bidding.increment_threshold (200), increment_below_200 (5), increment_from_200 (10)
    path = _house(tmp_path, "pivot", "pl-standard", PIVOT)
    legal = _do(_game(path), "bid 100")
    assert legal[:3] == ["bid 105", "bid 110", "bid 115"]
    assert {"bid 195", "bid 200", "bid 210"} <= set(legal) and "bid 205" not in legal
    assert _do(_game("pl-standard", bid_limit=False), "bid 100")[:2] == ["bid 110", "bid 120"]


def test_the_dealer_must_play_when_everyone_passes(tmp_path: Path) -> None:
    # peer field bidding.forced_dealer_bid, HR11: nobody bids, the dealer plays 100
    path = _house(tmp_path, "dealer-plays", "pl-standard", "auction: {forced_seat: null, all_pass: dealer_plays}\n")
    game = _game(path)
    _do(game, "pass", "pass", "pass")
    assert (game.phase, game.deal.declarer, game.deal.high_bid) == ("exchange", 0, 100)
    # without it (examples/house/nobody-opens.yaml) the deal is dealt again
    game = _game(ROOT / "examples" / "house" / "nobody-opens.yaml")
    _do(game, "pass", "pass", "pass")
    assert game.phase == "auction" and game.deal.declarer is None and game.events[-1].kind == "redeal"


def _marriage_lead(ruleset: str | Path) -> tuple[Game, list[str]]:
    game = Game(load_ruleset(ruleset), players=3, seed=0)
    deck, deal = game.ruleset.deck, game.deal
    deal.phase, deal.declarer, deal.trump, deal.trick_number = "play", 0, "clubs", 3
    deal.hands[0] = sorted(deck.parse_many("KH QH KS QS 9C"), key=lambda c: c.index)
    deal.hands[1] = sorted(deck.parse_many("AD TD 9D JC TS"), key=lambda c: c.index)
    deal.current = 0
    return game, _do(game, "play KH marriage")


def test_a_new_trump_from_the_next_trick(tmp_path: Path) -> None:
    # peer field marriages.trump_activation_timing: next_trick, HR30; clubs are trump, player 0
    # leads the king of hearts declaring; player 1 has no heart
    game, legal = _marriage_lead("pl-standard")
    assert game.deal.trump == "hearts" and legal == ["play AD", "play TD", "play 9D", "play JC", "play TS"]
    path = _house(tmp_path, "next-trick", "pl-standard", "marriages: {trump_from: next_trick}\n")
    game, legal = _marriage_lead(path)
    assert (game.deal.trump, game.deal.pending_trump) == ("clubs", "hearts") and legal == ["play JC"]


def test_spades_equal_clubs(tmp_path: Path) -> None:
    # HR28: the spade marriage is worth 60
    path = _house(tmp_path, "spades-60", "pl-standard", "marriages: {values: {spades: 60}}\n")
    for ruleset, value in (("pl-standard", 40), (path, 60)):
        game = Game(load_ruleset(ruleset), players=3, seed=0)
        deck, deal = game.ruleset.deck, game.deal
        deal.phase, deal.declarer, deal.trump, deal.trick_number = "play", 0, None, 3
        deal.hands[0] = sorted(deck.parse_many("KS QS 9C"), key=lambda c: c.index)
        deal.current = 0
        _do(game, "play KS marriage")
        assert game.deal.marriages == {0: value} and game.deal.trump == "spades"


WEAK = {
    "strict": "marriages(hand) == 0 and count(hand, ace) == 0 and count(hand, nine) + count(hand, ten) == len(hand)",
    "loose": "marriages(hand) == 0 and count(hand, ace) == 0",
}
# player 2: only nines and tens (weak both ways); only no ace and no marriage (loose only)
STRICT_HANDS = ({1: "AH KH QH JH AS KS QS", 2: "9H 9S 9D 9C TH TS TD", 0: "AD KD QD JD AC TC KC"},
                ["QC JC JS"])
LOOSE_HANDS = ({1: "AH KH TH JH AS KS QS", 2: "9H 9S 9D JC QH TS KD", 0: "AD TD QD JD AC TC KC"},
               ["QC 9C JS"])


def test_weak_hand_redeal_strict_and_loose(tmp_path: Path) -> None:
    # peer field dealing.weak_hand_redeal: strict and loose, HR3
    phases = {}
    for name, when in WEAK.items():
        body = f"deal:\n  redeals:\n    - {{id: weak, when: '{when}', who: holder, timing: after_deal}}\n"
        path = _house(tmp_path, f"weak-{name}", "pl-standard", body)
        for hands, talons in (STRICT_HANDS, LOOSE_HANDS):
            game = _game(path, hands=hands, talons=talons)
            phases[name, hands[2]] = (game.phase, game.current_player)
        assert _game("pl-standard", hands=LOOSE_HANDS[0], talons=LOOSE_HANDS[1]).phase == "auction"
    assert phases == {
        ("strict", STRICT_HANDS[0][2]): ("redeal", 2),
        ("strict", LOOSE_HANDS[0][2]): ("auction", 1),
        ("loose", STRICT_HANDS[0][2]): ("redeal", 2),
        ("loose", LOOSE_HANDS[0][2]): ("redeal", 2),
    }


def _first_legal_deal(game: Game) -> Game:
    """Play the first legal action until a deal is scored."""
    while not game.deal_scores:
        game.apply(game.legal_actions()[0])
    return game


LAYOUT_A = """\
players:
  4:
    active: 4
    hand_size: 6
    talons: []
    sitter: {$delete: true}
    talon: {exchange: none}
"""


def test_four_players_dealer_plays_no_talon(tmp_path: Path) -> None:
    # peer field players.four_player_config: dealer_plays_no_talon (6 cards each, no talon, 6 tricks)
    path = _house(tmp_path, "four-a", "ru-online", LAYOUT_A)
    game = Game(load_ruleset(path), players=4, seed=3, options={"golden_round": False, "dark_game": False})
    assert [len(game.deal.hands[p]) for p in range(4)] == [6, 6, 6, 6] and game.deal.talons == []
    _first_legal_deal(game)
    assert game.last_deal is not None and sum(game.last_deal.tricks.values()) == 6
    assert len(game.deal_scores[0]) == 4
    # ru-online's own four-player game: the dealer sits out, three hands of 7 and a prikup of 3
    game = Game(load_ruleset("ru-online"), players=4, seed=3, options={"golden_round": False, "dark_game": False})
    assert {p: len(h) for p, h in game.deal.hands.items()} == {1: 7, 2: 7, 3: 7}
    assert [len(t) for t in game.deal.talons] == [3] and game.deal.sitter == 0


DECK_32 = """\
deck:
  ranks:
    - {id: ace, letter: A, points: 11, names: {en: ace}}
    - {id: ten, letter: T, aliases: ["10"], points: 10, names: {en: ten}}
    - {id: king, letter: K, points: 4, names: {en: king}}
    - {id: queen, letter: Q, points: 3, names: {en: queen}}
    - {id: jack, letter: J, points: 2, names: {en: jack}}
    - {id: nine, letter: "9", points: 0, names: {en: nine}}
    - {id: eight, letter: "8", points: 0, names: {en: eight}}
    - {id: seven, letter: "7", points: 7, names: {en: seven}}
  total_points: 148
players:
  2: {$delete: true}
  3: {hand_size: 10, talons: [2], talon: {exchange: discard, discard_count: 2, give_count: 0}}
"""


def test_a_32_card_pack(tmp_path: Path) -> None:
    # peer field dealing.deck_size: 32 (eights worth 0, sevens 7; the peer validates only 24)
    path = _house(tmp_path, "deck-32", "pl-online", DECK_32)
    game = Game(load_ruleset(path), players=3, seed=1)
    assert len(game.ruleset.deck.cards) == 32
    assert [len(game.deal.hands[p]) for p in range(3)] == [10, 10, 10] and [len(t) for t in game.deal.talons] == [2]
    _first_legal_deal(game)
    assert game.last_deal is not None and sum(game.last_deal.tricks.values()) == 10


RANKS = """\
deck:
  ranks:
    - {id: ace, letter: A, points: 10, names: {en: ace}}
    - {id: king, letter: K, points: 5, names: {en: king}}
    - {id: ten, letter: T, aliases: ["10"], points: 10, names: {en: ten}}
    - {id: queen, letter: Q, points: 3, names: {en: queen}}
    - {id: jack, letter: J, points: 2, names: {en: jack}}
    - {id: nine, letter: "9", points: 0, names: {en: nine}}
  total_points: 120
"""


def test_rank_order_and_card_points_are_the_packs(tmp_path: Path) -> None:
    # peer fields cards.trick_rank_order and cards.point_values: here the king ranks above the
    # ten, an ace is worth 10 and a king 5; player 0 leads the ten of hearts, player 1 the king
    path = _house(tmp_path, "king-over-ten", "pl-standard", RANKS)
    won = {}
    for ruleset in ("pl-standard", path):
        game = Game(load_ruleset(ruleset), players=3, seed=0)
        deck, deal = game.ruleset.deck, game.deal
        deal.phase, deal.declarer, deal.trump, deal.trick_number = "play", 0, None, 3
        for player, cards in ((0, "TH 9C"), (1, "KH 9D"), (2, "9H JD")):
            deal.hands[player] = sorted(deck.parse_many(cards), key=lambda c: c.index)
        deal.current = 0
        _do(game, "play TH", "play KH", "play 9H")
        winner = game.current_player
        won[ruleset] = (winner, sum(c.points for c in game.deal.won[winner]))
    assert won == {"pl-standard": (0, 14), path: (1, 15)}


CONCEDE = {
    "equal_split": ("bid // (players - 1)", (50, -100, 50)),
    "each_full": ("bid", (100, -100, 100)),
    "preset_ratio": ("bid * (if seat == 1 then 60 else 40) // 100", (40, -100, 60)),
    "pass_the_talon": ("0", (0, -100, 0)),
}


@pytest.mark.parametrize("mode", sorted(CONCEDE))
def test_conceding_the_forced_bid(tmp_path: Path, mode: str) -> None:
    # peer fields bidding.forced_bid_concession (equal_split, each_full, preset_ratio with the
    # ratio 0.6 / 0.4), talon.pass_the_talon (the defenders score nothing), HR17, HR19: the
    # declarer loses the bid, each defender gets his share
    defender, scores = CONCEDE[mode]
    when = "before_exchange" if mode == "pass_the_talon" else "before_talon"
    body = (f"contract:\n  forfeit: {{enabled: true, only_when_forced: {mode != 'pass_the_talon'}, "
            f"when: {when}, declarer: '-bid', defender: '{defender}'}}\n")
    path = _house(tmp_path, "concede-" + mode.replace("_", "-"), "pl-standard", body)
    assert _settle(path, contract=100, forfeited=True)[0] == scores


def test_write_off_half_the_bid_to_each(tmp_path: Path) -> None:
    # peer fields bidding.write_off, write_off_split (half_to_each; equal_split is
    # `contract // (players - 1)`, the same with two opponents), HR18
    body = "contract:\n  forfeit: {defender: 'contract // 2'}\n"
    path = _house(tmp_path, "write-off-half", "ru-online", body)
    off = {"golden_round": False}
    assert _settle("ru-online", contract=120, forfeited=True, options=off)[0] == (60, -120, 60)
    assert _settle(path, contract=140, forfeited=True, options=off)[0] == (70, -140, 70)


BLIND = """\
special:
  dark: {multiplier: 1}
scoring:
  declarer: 'if made then contract * (if mode == "dark" then 2 else 1) else -contract * (if mode == "dark" then 3 else 1)'
"""


def test_blind_bid_success_and_failure_multipliers(tmp_path: Path) -> None:
    # peer fields bidding.blind_bid_success_multiplier (2), blind_bid_failure_multiplier (3 here)
    path = _house(tmp_path, "blind-factors", "ru-online", BLIND)
    off = {"golden_round": False}
    failed = {"contract": 120, "mode": "dark", "card_points": {1: 60, 2: 30, 0: 30}, "tricks": {1: 4, 2: 2, 0: 1}}
    made = {"contract": 120, "mode": "dark", "card_points": {1: 120, 2: 0, 0: 0}, "tricks": {1: 7, 2: 0, 0: 0}}
    assert _settle("ru-online", **failed, options=off)[0] == (60, -240, 60)
    assert _settle(path, **failed, options=off)[0] == (30, -360, 30)
    assert _settle(path, **made, options=off)[0] == (0, 240, 0)


REDEALS = """\
deal:
  redeals:
    - {id: three-nines, when: 'count(hand, nine) == 3', who: holder, timing: after_deal}
    - {id: four-jacks, when: 'count(hand, jack) == 4', who: holder, timing: after_deal}
    - {id: three-jacks-in-talon, when: 'count(talon, jack) == 3', who: declarer, timing: after_talon}
    - {id: two-nines-in-talon, when: 'count(talon, nine) == 2', who: declarer, timing: after_talon}
"""
THREE_NINES = ({1: "AH KH QH TH AS KS TS", 2: "9H 9S 9D JC JS JH QS", 0: "KD QD JD AD AC TC KC"}, ["QC 9C TD"])
FOUR_JACKS = ({1: "AH KH QH TH AS KS TS", 2: "9H 9S JD JC JS JH QS", 0: "KD QD 9D AD AC TC KC"}, ["QC 9C TD"])
JACKS_TALON = ({1: "AH KH QH TH AS KS TS", 2: "9H 9S 9D 9C JH QS QD", 0: "KD AD TD AC TC KC QC"}, ["JC JD JS"])
NINES_TALON = ({1: "AH KH QH TH AS KS JC", 2: "9H 9S JH JS QS JD TS", 0: "KD QD AD TD AC TC KC"}, ["9C 9D QC"])


@pytest.mark.parametrize(("deal", "bids", "redeal"), [
    (THREE_NINES, (), "three-nines"),
    (FOUR_JACKS, (), "four-jacks"),
    (JACKS_TALON, ("bid 100", "pass", "pass"), "three-jacks-in-talon"),
    (NINES_TALON, ("bid 100", "pass", "pass"), "two-nines-in-talon"),
], ids=["three-nines", "four-jacks", "three-jacks-in-talon", "two-nines-in-talon"])
def test_redeal_conditions_of_the_peer(tmp_path: Path, deal: tuple[dict[int, str], list[str]],
                                       bids: tuple[str, ...], redeal: str) -> None:
    # peer fields dealing.three_nine_redeal, four_jack_redeal, two_nines_in_talon_redeal; HR2, HR4
    # (and its sub-variant, three jacks in the talon), HR25: the holder (or the declarer who
    # finds the talon) may call a new deal; without the house rule the deal is played
    path = _house(tmp_path, "redeals", "pl-standard", REDEALS)
    hands, talons = deal
    parent = _game("pl-standard", hands=hands, talons=talons)
    _do(parent, *bids)
    assert parent.phase == ("exchange" if bids else "auction")
    game = _game(path, hands=hands, talons=talons)
    caller = 1 if bids else 2
    assert _do(game, *bids) == ["redeal", "pass"] and game.current_player == caller
    _do(game, "redeal")
    assert (game.events[-1].kind, game.events[-1].player, game.events[-1].text.split(":")[0]) == (
        "redeal", caller, redeal)


def test_buyback_for_50(tmp_path: Path) -> None:
    # peer fields talon.buyback, buyback_penalty (50), HR22: the declarer who has seen the talon
    # throws the hand in for 50; the same dealer deals again
    body = "deal:\n  redeals:\n    - {id: buyback, when: 'true', who: declarer, timing: after_talon, penalty: 50}\n"
    game = _game(_house(tmp_path, "buyback", "pl-standard", body))
    assert _do(game, "bid 100", "pass", "pass") == ["redeal", "pass"] and game.current_player == 1
    _do(game, "redeal")
    assert game.scores == [0, -50, 0] and game.phase == "auction" and game.deal.dealer == 0
    game = _game(_house(tmp_path, "buyback", "pl-standard", body))
    _do(game, "bid 100", "pass", "pass", "pass")
    assert game.phase == "exchange" and game.scores == [0, 0, 0]


def test_no_duty_to_trump(tmp_path: Path) -> None:
    # peer field tricks.must_trump: false; clubs are trump, player 0 leads the ace of hearts and
    # player 1 has no heart
    path = _house(tmp_path, "no-trumping", "pl-standard", "play: {must_trump: false, must_overtrump: false}\n")
    legal = {}
    for ruleset in ("pl-standard", path):
        game = Game(load_ruleset(ruleset), players=3, seed=0)
        deck, deal = game.ruleset.deck, game.deal
        deal.phase, deal.declarer, deal.trump, deal.trick_number = "play", 0, "clubs", 3
        deal.hands[0] = sorted(deck.parse_many("AH 9S"), key=lambda c: c.index)
        deal.hands[1] = sorted(deck.parse_many("AD JC TS"), key=lambda c: c.index)
        deal.current = 0
        legal[ruleset] = _do(game, "play AH")
    assert legal == {"pl-standard": ["play JC"], path: ["play AD", "play JC", "play TS"]}


OVERSHOOT = """\
special:
  barrel: {fail_own_bid_falls: false}
options:
  barrel_variant:
    set:
      standard:
        match:
          rules:
            - {id: barrel-floor, when: 'player.score > 880 and player.score < 1000', then: 'player.score = 880'}
            - id: overshoot
              when: 'declarer and not made and contract > 120 and player.score == 760 and delta == -120'
              then: 'player.score = 880 - contract'
"""


@pytest.mark.parametrize(("barrel", "contract", "parent", "house"), [
    (2, 200, 680, 680),  # the last barrel deal, above the gap of 120: 880 − 200
    (2, 120, 760, 760),  # the last barrel deal, not above the gap: the ordinary fall
    (2, 100, 780, 760),
    (True, 200, 680, 880),  # the first barrel deal: a failed attempt, the score stays
])
def test_barrel_jump_penalty(tmp_path: Path, barrel: int | bool, contract: int, parent: int, house: int) -> None:
    # peer field barrel.overshoot_penalty (its spec: a 200 bid failing on the last barrel deal
    # gives 680, a failed 120 the standard 760), HR51; ru-classic makes a failed bid fall at
    # once (fail_own_bid_falls), the house rule counts it as an attempt; the match rule is put
    # in the option `barrel_variant`, whose value writes ru-classic's match rules
    path = _house(tmp_path, "overshoot", "ru-classic", OVERSHOOT)
    deal = {"contract": contract, "card_points": {1: 60, 2: 30, 0: 30}, "tricks": {1: 4, 2: 2, 0: 2}}
    state = {"scores": [0, 880, 0], "barrel": [False, barrel, False]}
    assert _settle("ru-classic", **deal, state=state)[0] == (30, parent, 30)
    assert _settle(path, **deal, state=state)[0] == (30, house, 30)


REVERSE = """\
match:
  counters: [{id: reverse}, {id: out}]
  rules:
    - {id: climbed-out, when: 'player.reverse > 0 and player.score > -880', then: 'player.reverse = 0'}
    - {id: minus-target, when: 'player.score <= -1000', then: 'player.out = 1; player.reverse = 0; player.score = -1000'}
    - {id: held, when: 'player.score <= -880 and player.score > -1000', then: 'player.reverse += 1; player.score = -880'}
    - {id: fallback, when: 'player.reverse > 3', then: 'player.reverse = 0; player.score = -760'}
"""


@pytest.mark.parametrize(("score", "reverse", "contract", "made", "after"), [
    (-850, 0, 100, False, (-880, 1, 0)),  # gets on the reverse barrel, held at −880
    (-880, 1, 100, False, (-880, 2, 0)),  # still held
    (-880, 3, 100, False, (-760, 0, 0)),  # its deals are over: back to the fallback
    (-880, 1, 200, True, (-680, 0, 0)),  # climbs out
    (-880, 2, 120, False, (-1000, 0, 1)),  # reaches minus the target: out (the peer's flag)
    (-880, 2, 200, False, (-1000, 0, 1)),  # −1080 is held at minus the target (scoring.lua)
])
def test_reverse_barrel(tmp_path: Path, score: int, reverse: int, contract: int, made: bool,
                        after: tuple[int, int, int]) -> None:
    # peer fields barrel.reverse_barrel (held at −880 for 3 deals, out at −1000, else) and
    # reverse_barrel_fallback (−760): core/scoring.lua advance_game, the reverse-barrel branch
    # (mounting at or below −threshold, escaping above it, −target clamped and eliminated)
    path = _house(tmp_path, "reverse", "pl-standard", REVERSE)
    points = {1: 120, 2: 0, 0: 0} if made else {1: 60, 2: 30, 0: 30}
    tricks = {1: 6, 2: 1, 0: 1} if made else {1: 4, 2: 2, 0: 2}
    state = {"scores": [0, score, 0], "counters": {"reverse": [0, reverse, 0], "out": [0, 0, 0]}}
    scores, _, new = _settle(path, contract=contract, card_points=points, marriages={1: 100} if made else {},
                             tricks=tricks, state=state)
    assert (scores[1], new.counters["reverse"][1], new.counters["out"][1]) == after


def test_two_players_on_the_barrel_coexist() -> None:
    # peer field barrel.collision_rule: coexist, HR52 (ru-online's collision: coexist): player 1 is
    # on the barrel, player 2 gets on with 800 + 100; both stay, each with his own attempts
    # (with the barrel bid for, so that player 2 may declare while player 1 is on it)
    scores, _, state = _settle(
        "ru-online", declarer=2, contract=100, card_points={2: 100, 1: 20, 0: 0}, tricks={2: 5, 1: 3, 0: 0},
        state={"scores": [0, 880, 800], "barrel": [False, True, False]},
        options={"golden_round": False, "barrel_bidding": True},
    )
    assert scores == (0, 880, 900)
    assert [(seat.on, seat.attempts) for seat in state.barrel] == [(False, 0), (True, 1), (True, 0)]


def test_only_the_first_marriage_sets_trump(tmp_path: Path) -> None:
    # peer field marriages.one_trump_per_deal, HR34: diamonds are trump already; a marriage of
    # hearts scores but does not change trump
    path = _house(tmp_path, "first-trump", "pl-standard", "marriages: {trump_change: first_only}\n")
    for ruleset, trump in (("pl-standard", "hearts"), (path, "diamonds")):
        game = Game(load_ruleset(ruleset), players=3, seed=0)
        deck, deal = game.ruleset.deck, game.deal
        deal.phase, deal.declarer, deal.trump, deal.trick_number = "play", 0, "diamonds", 3
        deal.hands[0] = sorted(deck.parse_many("KH QH 9C"), key=lambda c: c.index)
        deal.current = 0
        _do(game, "play KH marriage")
        assert game.deal.marriages == {0: 100} and game.deal.trump == trump
