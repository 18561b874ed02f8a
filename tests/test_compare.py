"""The comparison (`tysiac compare`): every difference between resolved rulesets is shown."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tysiac_spec import load_ruleset
from tysiac_spec.cli import main
from tysiac_spec.docs.compare import compare, render_comparison
from tysiac_spec.ruleset import model
from tysiac_spec.ruleset.model import Formula, Ruleset


def _flatten(obj: Any, path: str, out: dict[str, Any], off: bool = False) -> None:
    """Leaves of a form, by field path (independent of the docs' own walker); the fields of a
    mechanism switched off (``enabled: false``) are all "<off>": their values are unused."""
    if off:
        if dataclasses.is_dataclass(obj) and not isinstance(obj, (type, Formula)):
            for f in dataclasses.fields(obj):
                _flatten(getattr(obj, f.name), f"{path}.{f.name}", out, off=True)
        elif isinstance(obj, tuple) and obj and all(dataclasses.is_dataclass(v) for v in obj):
            for i, v in enumerate(obj):
                _flatten(v, f"{path}[{i}]", out, off=True)
        else:
            out[path] = "<off>"
    elif isinstance(obj, Formula):
        out[path] = ("formula", obj.text)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        disabled = getattr(obj, "enabled", True) is False
        for f in dataclasses.fields(obj):
            _flatten(getattr(obj, f.name), f"{path}.{f.name}", out, off=disabled and f.name != "enabled")
    elif isinstance(obj, tuple) and obj and all(dataclasses.is_dataclass(v) for v in obj):
        for i, v in enumerate(obj):
            _flatten(v, f"{path}[{i}]", out)
    elif isinstance(obj, (dict, type(model.Marriages.__dataclass_fields__))) or hasattr(obj, "items"):
        out[path] = tuple(sorted(dict(obj).items()))
    else:
        out[path] = obj


def leaves(rules: Ruleset, n: int) -> dict[str, Any]:
    form = rules.form(n)
    out: dict[str, Any] = {}
    _flatten(form.table, "players.N", out)
    for section in model.SECTIONS:
        _flatten(getattr(form, section), section, out)
    return out


def differences(a: Ruleset, b: Ruleset) -> set[str]:
    """Field paths whose values differ for a player count both rulesets define."""
    out: set[str] = set()
    for n in set(a.player_counts) & set(b.player_counts):
        la, lb = leaves(a, n), leaves(b, n)
        for path in la.keys() | lb.keys():
            if la.get(path, "<absent>") != lb.get(path, "<absent>"):
                out.add(path)
    # a count only one of them defines: a rule of that count's own (a value the ruleset gives
    # at none of its other counts) against the other's "not played"
    for rules, other in ((a, b), (b, a)):
        for n in set(rules.player_counts) - set(other.player_counts):
            others = [leaves(rules, m) for m in rules.player_counts if m != n]
            for path, value in leaves(rules, n).items():
                if all(o.get(path, "<absent>") != value for o in others):
                    out.add(path)
    return out


PAIRS = [
    ("pl-standard", "ru-online"),
    ("pl-standard", "cz-standard"),
    ("ru-online", "cz-standard"),
    ("ru-classic", "ru-online"),
    ("pl-standard", "house-five-up"),
    ("ru-online", "house-ru-no-barrel"),
    ("pl-online", "pl-tysiac-hd"),
    ("ru-classic", "ua-standard"),
]


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_every_difference_appears_in_the_comparison(a: str, b: str) -> None:
    ra, rb = load_ruleset(a), load_ruleset(b)
    expected = differences(ra, rb)
    comp = compare([ra, rb])
    shown = {row.path for row in comp.differing}
    assert expected <= shown, sorted(expected - shown)
    text = render_comparison(comp, "text")
    md = render_comparison(comp, "md")
    for path in expected:
        assert f"≠ {path} — " in text
        assert f"`{path}`" in md
    # nothing is reported that does not differ
    rule_rows = {p for p in shown if not p.startswith("deck.") and p not in ("players", "options")}
    lists = {re.sub(r"\[\d+\].*", "", p) for p in expected if "[" in p}  # a list row sums up its entries
    assert rule_rows <= expected | lists


def test_polish_russian_czech_differences_at_a_glance() -> None:
    comp = compare([load_ruleset(i) for i in ("pl-standard", "ru-online", "cz-standard")])
    text = render_comparison(comp, "text")
    assert "≠ auction.step — Bids are multiples of\n    pl-standard  10\n    ru-online    5\n    cz-standard  10" in text
    assert "≠ play.must_beat — Must beat (overtake)\n    pl-standard  beat the best card of the suit led\n" in text
    assert "    ru-online    yes" in text.split("≠ special.barrel.enabled")[1].split("≠")[0]
    # the key differences first, one line each (long values wrap in their column)
    glance = text.split("== At a glance ==\n")[1].split("\n== ")[0]
    assert "\nBids are multiples of           10                      5                       10\n" in glance
    assert "\nThe 800 rule                    no                      no                      yes\n" in glance
    assert "\nThe barrel                      no                      yes                     no\n" in glance
    assert ("\nEach defender scores            the point total         the point total         the point total\n"
            "                                rounded to the nearest                          rounded up to a\n") in glance
    # the fields of a mechanism a variant does not play are "not played", not its unused values
    assert ("≠ special.barrel.goal — The barrel › Points needed in one deal to finish\n"
            "    pl-standard  not played\n    ru-online    121\n    cz-standard  not played\n") in text
    # identical rules are folded away, shown with --full
    assert "auction.forced_bid" not in text
    full = render_comparison(comp, "text", full=True)
    assert "= auction.forced_bid — Compulsory opening bid\n    (all)        100" in full


def test_house_rule_difference_is_only_what_it_changes() -> None:
    comp = compare([load_ruleset("pl-standard"), load_ruleset("house-five-up")])
    assert [r.path for r in comp.differing] == ["auction.raise_by", "options"]
    assert [r.path for r in comp.glance] == ["auction.raise_by"]
    options = next(r for r in comp.rows if r.path == "options")
    assert options.cells["house-five-up"].startswith(
        "“Rounding a defender's score ending in 5”: up (25 → 30); “Graduated auction (raises of 10 only)”: yes")


def test_json_format() -> None:
    comp = compare([load_ruleset("pl-standard"), load_ruleset("cz-standard")])
    data = json.loads(render_comparison(comp, "json"))
    assert [r["id"] for r in data["rulesets"]] == ["pl-standard", "cz-standard"]
    row = next(r for r in data["rows"] if r["path"] == "auction.cap")
    assert row["differs"] is True
    assert row["values"]["cz-standard"]["3"] == {"words": "300", "formula": None}
    assert row["cells"]["pl-standard"] == "2 players: no ceiling · 3, 4 players: 360"


def test_compare_command(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["compare", "pl-standard", "ru-online"])
    assert result.exit_code == 0, result.output
    assert "≠ auction.step" in result.stdout
    out = tmp_path / "cmp.html"
    result = runner.invoke(main, ["compare", "--all", "--format", "html", "-o", str(out)])
    assert result.exit_code == 0, result.output
    html = out.read_text(encoding="utf-8")
    assert '<td class="diff">' in html and "core" not in html.split("<thead>")[1].split("</thead>")[0]
    result = runner.invoke(main, ["compare", "pl-standard"])
    assert result.exit_code != 0
    assert "give at least two rulesets" in result.output
    result = runner.invoke(main, ["compare", "pl-standard", "no-such-thing"])
    assert result.exit_code == 1
    assert "unknown ruleset `no-such-thing`" in result.stderr


def test_comparison_in_another_language() -> None:
    comp = compare([load_ruleset("pl-standard"), load_ruleset("ru-online")], lang="ru")
    text = render_comparison(comp, "text")
    assert text.startswith("Сравнение вариантов: pl-standard, ru-online\n")
    assert "≠ auction.step — Ставки кратны\n    pl-standard  10\n    ru-online    5" in text
    assert "== Торговля ==" in text


def test_html_highlights_the_values_that_depart_from_the_most_common() -> None:
    rulesets = [load_ruleset(i) for i in ("pl-standard", "house-five-up", "ru-online")]
    comp = compare(rulesets)
    row = next(r for r in comp.rows if r.path == "auction.step")
    assert row.cells == {"pl-standard": "10", "house-five-up": "10", "ru-online": "5"}
    assert row.odd == {"ru-online"}
    html = render_comparison(comp, "html")
    assert '<td class="same">10</td><td class="same">10</td><td class="diff">5</td>' in html


def test_a_common_base_cannot_be_compared() -> None:
    result = CliRunner().invoke(main, ["compare", "core", "pl-standard"])
    assert result.exit_code == 2
    assert "`core` defines no player counts (a common base): it has no rules of play to compare" in result.output


def test_a_player_count_only_one_ruleset_has_shows_its_rules(tmp_path: Path) -> None:
    # ua-four adds a 4-player form with partnerships to ua-standard (3 players only): the
    # rules of its own (6 cards, no talon, partnerships, no exchange) against "not played";
    # the rules its 4-player form shares with its 3-player form are not reported
    doc = tmp_path / "ua-four.yaml"
    doc.write_text(
        "id: ua-four\nkind: house\nextends: ua-standard\nname: {en: 'Ukrainian, two against two'}\n"
        "players:\n  4:\n    active: 4\n    hand_size: 6\n    talons: []\n    partnerships: across\n"
        "    talon:\n      exchange: none\n",
        encoding="utf-8",
    )
    comp = compare([load_ruleset("ua-standard"), load_ruleset(str(doc))])
    assert [row.path for row in comp.differing] == [
        "players", "players.N.active", "players.N.hand_size", "players.N.talons",
        "players.N.partnerships", "talon.exchange",
    ]
    text = render_comparison(comp, "text")
    assert f"6 of {len(comp.rows)} rules differ" in text  # the total grows with the model
    assert (
        "≠ players.N.hand_size — Cards in each hand\n"
        "    ua-standard  3 players: 7 · 4 players: not played\n"
        "    ua-four      3 players: 7 · 4 players: 6\n"
    ) in text
