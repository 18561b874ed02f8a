"""The house-rule workbench's HTTP API (issue 27, items 1, 3, 5 and 7): checks with ``tysiac
validate``'s own messages, the rule book and the comparison from the data, the form built
from the schema, the house file written from the form (exact YAML) and read back, saved
files under a link, limits, containment and the JSON-only, same-site writes."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from webserver import ROOT, Served

from tysiac_spec.apps.web import workbench
from tysiac_spec.apps.web.store import SqliteStore
from tysiac_spec.apps.web.studies import StudyQueue, StudyRefused

HOUSE = """\
id: our-table
kind: house
extends: pl-standard
name:
  en: Our table
auction:
  step: 20
contract:
  step: 20
scoring:
  made: points >= contract - 10
special:
  barrel:
    enabled: true
options:
  five_rounds:
    default: up
"""
"""What the form writes for four changed rules and one table option (and nothing else)."""

CHANGES = {
    "auction.step": 20,
    "contract.step": 20,
    "scoring.made": "points >= contract - 10",
    "special.barrel.enabled": True,
    "options.five_rounds": "up",
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    served = Served(tmp_path_factory.mktemp("workbench") / "web.sqlite3")
    yield served
    served.stop()


def _validate(tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "house.yaml").write_text(text, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "tysiac_spec", "validate", "house.yaml"],
        cwd=tmp_path, capture_output=True, text=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        timeout=120,
    )


def test_the_form_writes_only_what_differs_from_the_base() -> None:
    # a value equal to the base's is not written (auction.min_bid stays 100 in pl-standard)
    text = workbench.house_text("pl-standard", {**CHANGES, "auction.min_bid": 100}, ident="our-table", name="Our table")
    assert text == HOUSE
    parts = workbench.house_parts(text)
    assert parts == {"base": "pl-standard", "id": "our-table", "name": "Our table", "changes": CHANGES, "other": []}
    assert workbench.house_text("pl-standard", {}) == (
        "id: my-house\nkind: house\nextends: pl-standard\nname:\n  en: My house rules\n"
    )


def test_the_form_keeps_what_the_file_writes_beyond_its_rules() -> None:
    previous = """\
id: our-table
kind: house
extends: pl-standard
name:
  en: Old name
  pl: Nasz stół
description:
  en: "Ours: since 1998."
players:
  3:
    talons: [3]
match:
  target: 500
options:
  five_rounds:
    default: up
    reason: We like it.
"""
    # the target goes back to the base's (not written), five_rounds to "down" keeps its reason
    text = workbench.house_text(
        "pl-standard", {"options.five_rounds": "down", "auction.step": 20, "contract.step": 20},
        ident="our-table", name="Our table", previous=previous,
    )
    assert text == """\
id: our-table
kind: house
extends: pl-standard
name:
  en: Our table
  pl: Nasz stół
description:
  en: "Ours: since 1998."
players:
  3:
    talons: [3]
options:
  five_rounds:
    reason: We like it.
auction:
  step: 20
contract:
  step: 20
"""
    assert workbench.house_parts(text)["other"] == ["players.3.talons", "options.five_rounds"]
    with pytest.raises(workbench.WorkbenchError, match="the YAML has errors"):
        workbench.house_text("pl-standard", {}, previous="id: [unclosed\n")


def test_a_rule_named_value_alone_in_its_group_is_written_alone() -> None:
    # `ace_marriage: {value: 250}` is the group's rule `value` (the loader reads it so)
    text = workbench.house_text("pl-standard", {"marriages.ace_marriage.value": 250})
    assert text.endswith("marriages:\n  ace_marriage:\n    value: 250\n")
    assert workbench.check(text) == {"ok": True, "errors": [], "id": "my-house"}
    assert workbench.house_parts(text)["changes"] == {"marriages.ace_marriage.value": 250}


def test_the_form_refuses_unknown_rules_and_wrong_values() -> None:
    with pytest.raises(workbench.WorkbenchError, match=r"no rule `auction\.nosuch`"):
        workbench.house_text("pl-standard", {"auction.nosuch": 1})
    with pytest.raises(workbench.WorkbenchError, match=r"`auction\.step`: not a value"):
        workbench.house_text("pl-standard", {"auction.step": "ten"})
    with pytest.raises(workbench.WorkbenchError, match="`base` is one of"):
        workbench.house_text("../etc/passwd", {})
    with pytest.raises(workbench.WorkbenchError, match="`id`"):
        workbench.house_text("pl-standard", {}, ident="Bad Id")


def test_the_controls_come_from_the_schema_and_the_options_in_book_order() -> None:
    form = workbench.controls("pl-standard", "pl")
    assert [s["id"] for s in form["sections"]] == [
        "table", "auction", "talon", "contract", "play", "marriages", "scoring", "match", "special", "options"
    ]
    by_path = {c["path"]: c for s in form["sections"] for c in s["controls"]}
    step = by_path["auction.step"]
    assert (step["kind"], step["value"], step["label"]) == ("int", 10, "Oferty są wielokrotnością")
    assert by_path["auction.raise_by"]["kind"] == "choice"
    assert by_path["auction.raise_by"]["set_by"] == "graduated_auction"  # change the option, not the rule
    assert [c["value"] for c in by_path["auction.raise_by"]["choices"]] == ["any", "exactly_step", "at_most"]
    assert by_path["scoring.made"] | {"label": None} == {
        "path": "scoring.made", "label": None, "nullable": False, "value": "points >= contract", "kind": "formula",
        "site": "scoring.made",
    }
    assert by_path["players.2.hand_size"]["value"] == 10 and by_path["players.3.hand_size"]["value"] == 7
    assert by_path["special.barrel.enabled"] | {"label": None} == {
        "path": "special.barrel.enabled", "label": None, "nullable": False, "value": False, "kind": "bool",
    }
    five = by_path["options.five_rounds"]
    assert (five["kind"], five["value"], [c["value"] for c in five["choices"]]) == ("choice", "down", ["down", "up"])


def test_the_table_options_read_in_the_pages_language(server: Served) -> None:
    """The options' labels and values are terms.py's words (not ``Option five_rounds``), as
    GET /api/rulesets/controls gives them to the page."""
    status, form = server.call("GET", "/api/rulesets/controls?base=pl-standard&lang=pl")
    assert status == 200
    by_path = {c["path"]: c for s in form["sections"] for c in s["controls"]}
    five = by_path["options.five_rounds"]
    assert five["label"] == "Zaokrąglanie wyniku obrońcy kończącego się na 5"
    assert five["choices"] == [{"value": "down", "label": "w dół (25 → 20)"},
                               {"value": "up", "label": "w górę (25 → 30)"}]
    assert by_path["options.four_player_sitter"]["choices"] == [
        {"value": "dealer", "label": "rozdający"}, {"value": "last_bidder", "label": "ostatni licytujący"}]
    raise_by = by_path["auction.raise_by"]
    assert (raise_by["set_by"], raise_by["set_by_label"]) == ("graduated_auction", "Licytacja stopniowana (tylko o 10)")
    # a rule the base sets again per player count: its values, read-only, beside the control
    assert by_path["auction.cap"]["value"] is None
    assert by_path["auction.cap"]["per_count"] == [  # (2 players: no ceiling, marked assumed)
        {"n": 2, "value": None, "path": "players.2.auction.cap"},
        {"n": 3, "value": 360, "path": "players.3.auction.cap"}, {"n": 4, "value": 360, "path": "players.4.auction.cap"}]
    assert "per_count" not in by_path["auction.step"]
    status, form = server.call("GET", "/api/rulesets/controls?base=pl-standard&lang=en")
    by_path = {c["path"]: c for s in form["sections"] for c in s["controls"]}
    assert not [c["label"] for c in by_path.values() if c["path"].startswith("options.") and "_" in c["label"]]


@pytest.mark.slow  # about 1 s of CPU (quick-loop budget, issue 25)
def test_check_answers_validates_messages_and_the_cli_agrees(server: Served, tmp_path: Path) -> None:
    status, answer = server.call("POST", "/api/rulesets/check", {"text": HOUSE})
    assert (status, answer) == (200, {"ok": True, "errors": [], "id": "our-table"})
    assert _validate(tmp_path, HOUSE).returncode == 0
    bad = HOUSE.replace("contract - 10", "contrct - 10")
    status, answer = server.call("POST", "/api/rulesets/check", {"text": bad})
    assert status == 200 and answer["ok"] is False and answer["id"] == "our-table"
    [error] = answer["errors"]
    assert {k: error[k] for k in ("line", "column", "code", "message")} == {
        "line": 11, "column": 19, "code": "dsl.unknown-name", "message": "unknown name `contrct`; did you mean `contract`?"
    }
    cli = _validate(tmp_path, bad)
    assert cli.returncode == 1
    assert error["text"] in cli.stderr  # the very words tysiac validate prints


@pytest.mark.slow  # about half a second of CPU (quick-loop budget, issue 25)
def test_check_covers_every_option_value_as_validate_does(server: Served, tmp_path: Path) -> None:
    # valid with the default, invalid once graduated_auction=true sets raise_by: exactly_step,
    # which a maximum raise contradicts only then -- whatever the check finds, the CLI finds too
    text = HOUSE.replace("options:\n", "options:\n  graduated_auction:\n    default: false\n")
    status, answer = server.call("POST", "/api/rulesets/check", {"text": text})
    assert status == 200
    cli = _validate(tmp_path, text)
    assert answer["ok"] is (cli.returncode == 0)
    for error in answer["errors"]:
        assert error["text"] in cli.stderr


def test_the_book_and_the_comparison_come_from_the_data(server: Served) -> None:
    status, html = server.call("POST", "/api/rulesets/book", {"text": HOUSE, "lang": "pl"})
    assert status == 200 and "<html" in html and "Our table" in html and "Beczka" in html
    status, en = server.call("POST", "/api/rulesets/book", {"text": HOUSE, "lang": "en"})
    assert status == 200 and "The barrel" in en
    status, answer = server.call("POST", "/api/rulesets/book", {"text": HOUSE, "lang": "de"})
    assert status == 400
    status, answer = server.call("POST", "/api/rulesets/book", {"text": "id: x\n", "lang": "en"})
    assert status == 422 and answer["ok"] is False and answer["errors"][0]["code"] == "schema.required"
    status, diff = server.call("POST", "/api/rulesets/compare", {"text": HOUSE, "lang": "en"})
    assert status == 200
    assert [r["id"] for r in diff["rulesets"]] == ["pl-standard", "our-table"]
    rows = {r["path"]: r["cells"] for r in diff["rows"]}
    assert rows["auction.step"] == {"pl-standard": "10", "our-table": "20"}
    assert rows["contract.step"] == {"pl-standard": "10", "our-table": "20"}
    assert "special.barrel.enabled" in rows


def test_house_round_trips_over_http(server: Served) -> None:
    status, answer = server.call(
        "POST", "/api/rulesets/house", {"base": "pl-standard", "changes": CHANGES, "id": "our-table", "name": "Our table"}
    )
    assert (status, answer) == (200, {"text": HOUSE})
    status, answer = server.call("POST", "/api/rulesets/house", {"text": HOUSE})
    assert status == 200 and answer["changes"] == CHANGES and answer["base"] == "pl-standard"
    status, answer = server.call("POST", "/api/rulesets/house", {"base": "pl-standard", "changes": {"x.y": 1}})
    assert status == 400 and "no rule `x.y`" in answer["error"]["message"]
    status, form = server.call("GET", "/api/rulesets/controls?base=ru-classic&lang=ru")
    assert status == 200 and form["base"] == "ru-classic" and form["sections"][0]["title"]
    status, answer = server.call("GET", "/api/rulesets/controls?base=/etc/passwd")
    assert status == 400


@pytest.mark.slow  # about half a second of CPU (quick-loop budget, issue 25)
def test_saved_files_open_again_and_download_as_validate_accepts(server: Served, tmp_path: Path) -> None:
    status, saved = server.call("POST", "/api/houses", {"text": HOUSE})
    assert status == 201 and saved["id"] == "our-table"
    assert saved["url"] == f"{server.url}w/{saved['house']}"
    status, answer = server.call("GET", f"/api/houses/{saved['house']}")
    assert (status, answer) == (200, {"house": saved["house"], "text": HOUSE})
    status, text = server.call("GET", f"/api/houses/{saved['house']}.yaml")
    assert status == 200 and text == HOUSE
    assert _validate(tmp_path, text).returncode == 0
    status, page = server.call("GET", f"/w/{saved['house']}")
    assert status == 200 and "/static/js/workbench.js" in page
    status, answer = server.call("GET", "/api/houses/nosuch")
    assert status == 404 and answer["error"]["code"] == "no_house"
    status, answer = server.call("POST", "/api/houses", {"text": HOUSE.replace("step: 20\ncontract", "step: 15\ncontract")})
    assert status == 422 and answer["ok"] is False  # only a valid file is saved


def test_extends_names_shipped_ids_only_and_limits_hold(server: Served) -> None:
    for parent in ("/etc/passwd", "../rulesets/pl-standard.yaml", "house.yaml"):
        text = HOUSE.replace("extends: pl-standard", f"extends: {parent}")
        status, answer = server.call("POST", "/api/rulesets/check", {"text": text})
        assert status == 200 and [e["code"] for e in answer["errors"]] == ["upload.extends-path"], parent
    status, answer = server.call("POST", "/api/rulesets/check", {"text": "x: " + "y" * 310_000})
    assert status == 413  # over the body limit before any YAML is read
    big = "id: a\n" + "#" * 258_000 + "\n"
    status, answer = server.call("POST", "/api/rulesets/check", {"text": big})
    assert status == 200 and [e["code"] for e in answer["errors"]] == ["limit.ruleset_bytes"]


@pytest.mark.parametrize(
    "path", ["/api/rulesets/book", "/api/rulesets/compare", "/api/rulesets/house", "/api/houses"]
)
def test_writes_are_json_and_same_site(server: Served, path: str) -> None:
    status, _ = server.call("POST", path, raw=b"text=x", headers={"Content-Type": "text/plain"})
    assert status == 415
    status, _ = server.call("POST", path, {"text": HOUSE}, headers={"Origin": "http://evil.example"})
    assert status == 403


def test_the_store_keeps_saved_files_across_a_restart(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "w.sqlite3")
    assert store.version == 2
    store.save_house("abc", HOUSE, "pl-standard")
    store.close()
    again = SqliteStore(tmp_path / "w.sqlite3")
    assert again.house("abc") == HOUSE and again.house("nope") is None
    again.close()


def test_a_study_over_its_bounds_is_refused_naming_the_bound(server: Served) -> None:
    status, answer = server.call("POST", "/api/studies", {"text": HOUSE, "matches": 1000})
    assert status == 400 and answer["error"]["message"] == "a study plays 1 to 200 matches per ruleset (asked 1000)"
    status, answer = server.call("POST", "/api/studies", {"text": HOUSE, "matches": 5, "seconds": 999})
    assert status == 400 and answer["error"]["message"] == "a study plays at most 60 seconds (asked 999)"
    status, answer = server.call("POST", "/api/studies", {"text": HOUSE.replace("step: 20\ncontract", "step: 15\ncontract")})
    assert status == 422 and answer["ok"] is False
    full = StudyQueue(max_waiting=0)
    with pytest.raises(StudyRefused, match="0 studies are waiting already") as refused:
        full.submit(HOUSE, "pl-standard", 3, 5, 10)
    assert refused.value.status == 429
    status, answer = server.call("GET", "/api/studies/nosuch")
    assert status == 404 and answer["error"]["code"] == "no_study"


@pytest.mark.slow
def test_a_small_study_runs_queued_with_progress_and_its_page(server: Served) -> None:
    status, job = server.call("POST", "/api/studies", {"text": HOUSE, "matches": 2, "seconds": 60})
    assert status == 202 and job["state"] in ("queued", "running") and job["matches"] == 2
    deadline = time.monotonic() + 180
    seen = []
    while time.monotonic() < deadline:
        status, job = server.call("GET", f"/api/studies/{job['study']}")
        seen.append((job["state"], job["done"]))
        if job["state"] in ("done", "failed"):
            break
        time.sleep(0.5)
    assert job["state"] == "done", (job["error"], seen)
    result = job["result"]
    assert result["rulesets"] == ["pl-standard", "our-table"] and result["matches"] == [2, 2]
    assert job["done"] == job["total"] == 4
    assert {r["key"] for r in result["rows"]} >= {"deals", "contracts_made"}
    status, page = server.call("GET", f"/studies/{job['study']}")
    assert status == 200 and "<svg" in page and "our-table" in page


@pytest.mark.slow  # about 4 s of CPU: two servers of its own (quick-loop budget, issue 25)
def test_a_file_may_extend_a_saved_file_by_its_id_across_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "web.sqlite3"
    served = Served(db)
    try:
        status, saved = served.call("POST", "/api/houses", {"text": HOUSE})
        assert status == 201
        child = f"id: next-table\nkind: house\nextends: {saved['house']}\nname:\n  en: Next\nmatch:\n  target: 700\n  finishing:\n    cap: 690\n"
        status, answer = served.call("POST", "/api/rulesets/check", {"text": child})
        assert (status, answer) == (200, {"ok": True, "errors": [], "id": "next-table"})
        status, form = served.call("GET", f"/api/rulesets/controls?base={saved['house']}&lang=en")
        by_path = {c["path"]: c["value"] for s in form["sections"] for c in s["controls"]}
        assert status == 200 and by_path["auction.step"] == 20 and by_path["options.five_rounds"] == "up"
        status, answer = served.call("POST", "/api/rulesets/house", {"text": child})
        assert answer["base"] == saved["house"] and answer["changes"] == {"match.target": 700, "match.finishing.cap": 690}
        table = served.create(ruleset_text=child, players=3, seats=["human", "bot:heuristic", "bot:heuristic"])
    finally:
        served.stop()
    again = Served(db)  # the saved file and the table playing the file that extends it come back
    try:
        status, state = again.call("GET", f"/api/tables/{table['table']}/state", token=table["seats"][0]["token"])
        assert status == 200 and state["view"]["phase"]
        status, answer = again.call("POST", "/api/rulesets/check", {"text": child})
        assert answer["ok"] is True
        status, answer = again.call("POST", "/api/rulesets/check", {"text": child.replace(saved["house"], "nosuchid12")})
        assert [e["code"] for e in answer["errors"]] == ["merge.unknown-parent"]
    finally:
        again.stop()


def _other_value(control: dict[str, object]) -> object:
    kind, value = control["kind"], control["value"]
    if kind == "bool":
        return not value
    if kind == "int":
        low, high = control.get("min"), control.get("max")
        new = (value if isinstance(value, int) else low if isinstance(low, int) else 0) + 1
        if isinstance(high, int) and new > high:
            new = (value if isinstance(value, int) else 0) - 1
        return max(new, low) if isinstance(low, int) else new
    if kind == "choice":
        return next((c["value"] for c in control["choices"] if c["value"] != value), value)  # type: ignore[attr-defined]
    return f"{value or 'points'} + 0"


@pytest.mark.slow
def test_every_control_of_pl_standard_writes_a_file_that_reads_back_and_loads() -> None:
    """Each rule changed alone: the YAML reads back as that one change, and validation
    answers with diagnostics (a value may break another rule), never a schema or YAML error
    of the form's own making, never an exception."""
    form = workbench.controls("pl-standard", "en")
    tried = 0
    for section in form["sections"]:
        for control in section["controls"]:
            value = _other_value(control)
            if value == control["value"] or control.get("set_by"):
                continue
            text = workbench.house_text("pl-standard", {control["path"]: value})
            assert workbench.house_parts(text)["changes"] == {control["path"]: value}, text
            answer = workbench.check(text)
            assert not [e for e in answer["errors"] if e["code"].startswith(("schema.", "yaml."))], text
            tried += 1
    assert tried > 150
