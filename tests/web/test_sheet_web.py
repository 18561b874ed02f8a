"""The scoresheet in the browser, through a real ``tysiac serve``: the same deals entered
through the HTTP routes and typed at ``tysiac score`` give the same totals and notes; the
next question is ``tysiac score``'s, with its messages; undo; export read back by
``tysiac score --sheet`` (the CLI run as a process); a stale version from a second phone is
refused with 409 and loses no deal; the read-only link cannot write (403); the sheets live
in the server's database (a restart keeps them) beside the tables' own schema."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from webserver import ROOT, Served

from tysiac_spec.cli import main
from tysiac_spec.scoresheet.service import MemoryStore, ScoresheetService
from tysiac_spec.text import signed

KEYS = ("declarer", "bid", "contract", "points", "marriages")
"""pl-standard's questions for a played deal, in ``tysiac score``'s order."""

DEALS = [
    ["1", "100", "150", "8 107 5", "1:S"],
    ["2", "110", "120", "24 26 70", "2:H"],
    ["0", "120", "300", "120 0 0", "0:H 0:D"],
    ["0", "120", "300", "120 0 0", "0:H 0:D"],
    ["0", "120", "300", "120 0 0", "0:H 0:D"],
    ["1", "100", "", "76 29 15", ""],
    ["0", "100", "110", "110 5 5", ""],
]
"""tests/test_score.py's pl-standard match: a rospis-free sheet to the end, with rounding,
"only the declarer may finish" and the winner."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    served = Served(tmp_path_factory.mktemp("sheets") / "web.sqlite3")
    yield served
    served.stop()


def _answers(deal: list[str]) -> dict[str, str]:
    return dict(zip(KEYS, deal, strict=True))


def _new(server: Served, **body: Any) -> dict[str, Any]:
    status, answer = server.call("POST", "/api/sheets", {"ruleset": "pl-standard", "players": 3, **body})
    assert status == 201, answer
    return answer  # type: ignore[no-any-return]


def _add(server: Served, sheet: dict[str, Any], version: str, deal: list[str]) -> tuple[int, Any]:
    return server.call("POST", f"/api/sheets/{sheet['sheet']}/deals", {"version": version, "answers": _answers(deal)},
                       token=sheet["edit_token"])


def _add_answers(server: Served, sheet: dict[str, Any], version: str, answers: dict[str, str]) -> tuple[int, Any]:
    return server.call("POST", f"/api/sheets/{sheet['sheet']}/deals", {"version": version, "answers": answers},
                       token=sheet["edit_token"])


def test_create_gives_an_edit_link_with_a_hashed_token_and_a_view_link(server: Served) -> None:
    sheet = _new(server, names=["Ana", "Bo", "Cy"])
    sid, token = sheet["sheet"], sheet["edit_token"]
    assert sheet["edit"] == f"{server.url}s/{sid}#edit={token}"
    assert sheet["view"] == f"{server.url}s/{sid}"
    assert sheet["names"] == ["Ana", "Bo", "Cy"] and sheet["totals"] == [0, 0, 0]
    assert sheet["next"] == {"number": 1, "dealer": 0, "sitter": None}
    with sqlite3.connect(server.db) as db:
        stored = db.execute("SELECT edit_token_hash FROM scoresheets WHERE id = ?", (sid,)).fetchone()[0]
        texts = db.execute("SELECT key FROM scoresheet_texts WHERE key = ?", (sid,)).fetchall()
        user_version = db.execute("PRAGMA user_version").fetchone()[0]
    assert len(stored) == 64 and token not in stored
    assert texts == [(sid,)]
    assert user_version >= 1  # the tables' migrations are untouched
    status, page = server.call("GET", f"/s/{sid}")
    assert status == 200 and "/static/js/sheet.js" in page
    status, page = server.call("GET", "/s")
    assert status == 200 and "/static/js/sheet.js" in page


def test_bad_creations_are_refused_with_the_services_words(server: Served) -> None:
    status, answer = server.call("POST", "/api/sheets", {"ruleset": "pl-standard", "players": 3, "names": ["A", "B"]})
    assert (status, answer["error"]["code"], answer["error"]["message"]) == (422, "entry.sheet", "give 3 names (got 2)")
    status, answer = server.call("POST", "/api/sheets", {"ruleset": "no-such-rules"})
    assert (status, answer["error"]["code"]) == (422, "registry.unknown")
    status, answer = server.call("POST", "/api/sheets", {"players": 3})
    assert status == 422 and answer["error"]["message"] == "give a ruleset id or a ruleset text (one of them)"
    status, answer = server.call("POST", "/api/sheets", raw=b"[1, 2]")
    assert status == 400 and answer["error"]["code"] == "bad_request"
    status, answer = server.call("GET", "/api/sheets/AAAAAAAAAAAA")
    assert status == 404 and answer["error"]["code"] == "no_sheet"


def test_next_question_is_tysiac_scores_in_order_with_its_messages(server: Served) -> None:
    sheet = _new(server)
    path = f"/api/sheets/{sheet['sheet']}/next"
    asked = []
    answers: dict[str, str] = {}
    for text in DEALS[0]:
        status, q = server.call("POST", path, {"answers": answers})
        assert status == 200 and q["done"] is False and q["error"] is None
        asked.append(q["key"])
        answers[q["key"]] = text
    status, q = server.call("POST", path, {"answers": answers})
    assert q["done"] is True and q["entry"]["declarer"] == 1 and q["entry"]["points"] == [8, 107, 5]
    assert asked == list(KEYS)
    status, q = server.call("POST", path, {"answers": {"declarer": "1", "bid": "105"}})
    assert q["key"] == "bid" and q["error"]["code"].startswith("entry.")
    assert "105" in q["error"]["message"]
    status, q = server.call("POST", path, {"answers": {"nonsense": "1"}})
    assert status == 422 and q["error"]["code"] == "entry.answer"


def test_the_same_deals_over_http_and_at_tysiac_score_give_the_same_sheet(server: Served, tmp_path: Path) -> None:
    sheet = _new(server)
    version = sheet["version"]
    for deal in DEALS:
        status, view = _add(server, sheet, version, deal)
        assert status == 201, view
        version = view["version"]
    # the terminal: the same answers typed at `tysiac score`
    file = tmp_path / "cli.json"
    typed = "\n".join(line for deal in DEALS for line in deal) + "\n"
    result = CliRunner().invoke(main, ["score", "pl-standard", "--sheet", str(file)], input=typed)
    assert result.exit_code == 0, result.output
    cli = json.loads(file.read_text(encoding="utf-8"))
    assert view["deals"] == cli["deals"]
    totals = [line for line in result.output.splitlines() if line.startswith("totals:")]
    assert ["totals: " + "  ".join(f"P{p} {signed(x, plus=False)}" for p, x in enumerate(r["scores"]))
            for r in view["rows"]] == totals
    assert view["totals"] == [1100, -220, 130] and view["winner"] == 0
    notes = [n for r in view["rows"] for n in r["notes"]]
    assert "P0: only the declarer may finish: 1010 → 990" in notes
    for note in notes:
        assert note in result.output
    # and the service itself, in memory: the same rows
    service = ScoresheetService(MemoryStore())
    v = service.create("x", ruleset="pl-standard", players=3)["version"]
    for deal in DEALS:
        v = service.add_deal("x", _answers(deal), expected=v)["version"]
    mem = service.view("x")
    assert mem["rows"] == view["rows"] and mem["deals"] == view["deals"]
    # a match that is over takes no more deals
    status, answer = _add(server, sheet, version, DEALS[0])
    assert status == 422 and "is over" in answer["error"]["message"]


def test_four_players_the_sitter_and_the_talon_as_at_tysiac_score(server: Served, tmp_path: Path) -> None:
    """With 4 players the dealer sits out and the talon as dealt is asked (the sitter's
    score): the same answers give the same sheet over HTTP and at the terminal."""
    deals = [["1", "100", "", "60 40 20", "", "9S TS 9H"], ["3", "110", "120", "50 30 40", "3:H", "AS KS QS"]]
    sheet = _new(server, players=4)
    assert sheet["next"] == {"number": 1, "dealer": 0, "sitter": 0}
    version, asked = sheet["version"], []
    for deal in deals:
        answers: dict[str, str] = {}
        for text in deal:
            _, q = server.call("POST", f"/api/sheets/{sheet['sheet']}/next", {"answers": answers})
            asked.append(q["key"])
            answers[q["key"]] = text
        status, view = _add_answers(server, sheet, version, answers)
        assert status == 201, view
        version = view["version"]
    assert asked[:6] == ["declarer", "bid", "contract", "points", "marriages", "talon"]
    assert view["next"] == {"number": 3, "dealer": 2, "sitter": 2}
    file = tmp_path / "four.json"
    typed = "\n".join(line for deal in deals for line in deal) + "\n"
    result = CliRunner().invoke(main, ["score", "pl-standard", "-p", "4", "--sheet", str(file)], input=typed)
    assert result.exit_code == 0, result.output
    assert view["deals"] == json.loads(file.read_text(encoding="utf-8"))["deals"]
    totals = [line for line in result.output.splitlines() if line.startswith("totals:")]
    assert ["totals: " + "  ".join(f"P{p} {signed(x, plus=False)}" for p, x in enumerate(r["scores"]))
            for r in view["rows"]] == totals


def test_undo_removes_the_last_deal_and_a_stale_undo_is_refused(server: Served) -> None:
    sheet = _new(server)
    v0 = sheet["version"]
    _, one = _add(server, sheet, v0, DEALS[0])
    _, two = _add(server, sheet, one["version"], DEALS[1])
    path = f"/api/sheets/{sheet['sheet']}/deals/last"
    status, answer = server.call("DELETE", f"{path}?version={one['version']}", token=sheet["edit_token"])
    assert status == 409 and answer["error"]["code"] == "stale" and answer["version"] == two["version"]
    status, back = server.call("DELETE", f"{path}?version={two['version']}", token=sheet["edit_token"])
    assert status == 200 and back["rows"] == one["rows"] and back["totals"] == [10, -150, 0]
    assert back["version"] == one["version"]  # the same text: the same version
    status, back = server.call("DELETE", path, {"version": back["version"]}, token=sheet["edit_token"])
    assert status == 200 and back["deals"] == [] and back["totals"] == [0, 0, 0]
    status, answer = server.call("DELETE", path, {"version": back["version"]}, token=sheet["edit_token"])
    assert status == 422 and answer["error"]["message"] == "the sheet has no deal to remove"


def test_two_phones_on_one_sheet_never_lose_a_deal(server: Served) -> None:
    sheet = _new(server)
    loaded = sheet["version"]  # both phones loaded the sheet at this version
    status, first = _add(server, sheet, loaded, DEALS[0])
    assert status == 201
    status, second = _add(server, sheet, loaded, DEALS[1])
    assert status == 409
    assert second["error"]["code"] == "stale"
    assert second["error"]["message"].startswith("the sheet was changed on another device")
    assert second["version"] == first["version"]
    _, now = server.call("GET", f"/api/sheets/{sheet['sheet']}")
    assert len(now["deals"]) == 1 and now["totals"] == first["totals"]
    # the second phone reloads and enters its deal again: both deals are kept
    status, again = _add(server, sheet, now["version"], DEALS[1])
    assert status == 201 and len(again["deals"]) == 2 and again["totals"] == [30, -120, 120]


def test_the_read_only_link_cannot_write(server: Served) -> None:
    sheet = _new(server)
    sid, v = sheet["sheet"], sheet["version"]
    writes = [("POST", f"/api/sheets/{sid}/deals", {"version": v, "answers": _answers(DEALS[0])}),
              ("DELETE", f"/api/sheets/{sid}/deals/last", {"version": v}),
              ("PUT", f"/api/sheets/{sid}", {"version": v, "sheet_text": "{}"}),
              ("POST", f"/api/sheets/{sid}/new-rules", {"version": v})]
    for method, path, body in writes:
        for token in (None, "not-the-token", _new(server)["edit_token"]):
            status, answer = server.call(method, path, body, token=token)
            assert (status, answer["error"]["code"]) == (403, "read_only"), (method, path, token)
    # reading needs no token
    status, view = server.call("GET", f"/api/sheets/{sid}")
    assert status == 200 and view["version"] == v and view["deals"] == []
    assert server.call("GET", f"/api/sheets/{sid}/export")[0] == 200


@pytest.mark.slow  # about 1 s of CPU (quick-loop budget, issue 25)
def test_export_is_read_by_tysiac_score_and_import_brings_a_file_back(server: Served, tmp_path: Path) -> None:
    sheet = _new(server, names=["Ana", "Bo", "Cy"])
    v = sheet["version"]
    for deal in DEALS[:3]:
        v = _add(server, sheet, v, deal)[1]["version"]
    status, exported = server.call("GET", f"/api/sheets/{sheet['sheet']}/export")
    assert status == 200 and exported["version"] == v and exported["ruleset"] is None
    status, download = server.call("GET", f"/api/sheets/{sheet['sheet']}/export?download=1")
    assert status == 200 and download == json.loads(exported["sheet"])
    file = tmp_path / "sheet.json"
    file.write_text(exported["sheet"], encoding="utf-8")
    # the CLI, as a process: it reopens the sheet and adds the fourth deal
    run = subprocess.run(
        [sys.executable, "-m", "tysiac_spec", "score", "pl-standard", "--sheet", str(file)],
        input="\n".join(DEALS[3]) + "\nquit\n", capture_output=True, text=True, timeout=120,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "COLUMNS": "200"}, cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    assert "totals: Ana 630  Bo −120  Cy 120" in run.stdout
    # the file the CLI wrote goes back in: a new sheet, and over the old one (its version)
    text = file.read_text(encoding="utf-8")
    status, imported = server.call("POST", "/api/sheets", {"sheet_text": text})
    assert status == 201 and imported["totals"] == [630, -120, 120] and imported["names"] == ["Ana", "Bo", "Cy"]
    path = f"/api/sheets/{sheet['sheet']}"
    status, answer = server.call("PUT", path, {"version": sheet["version"], "sheet_text": text},
                                 token=sheet["edit_token"])
    assert status == 409
    status, replaced = server.call("PUT", path, {"version": v, "sheet_text": text}, token=sheet["edit_token"])
    assert status == 200 and replaced["totals"] == [630, -120, 120] and len(replaced["deals"]) == 4
    status, answer = server.call("PUT", path, {"version": replaced["version"], "sheet_text": "{\"format\": 1}"},
                                 token=sheet["edit_token"])
    assert status == 422 and answer["error"]["code"] == "entry.sheet"
    assert server.call("GET", path)[1]["version"] == replaced["version"]


def test_a_house_rule_sheet_keeps_its_ruleset_text(server: Served) -> None:
    house = "id: my-house\nname: {en: My house}\nextends: pl-standard\nauction:\n  step: 10\n"
    sheet = _new(server, ruleset=None, ruleset_text=house)
    assert sheet["ruleset"] == "my-house"
    status, exported = server.call("GET", f"/api/sheets/{sheet['sheet']}/export")
    assert status == 200 and exported["ruleset"] == house
    status, q = server.call("POST", f"/api/sheets/{sheet['sheet']}/next", {"answers": {"declarer": "0", "bid": "105"}})
    assert status == 200 and q["key"] == "bid" and q["error"] is not None


def test_no_path_from_a_client_is_opened(server: Served, tmp_path: Path) -> None:
    """A ruleset named by a path, a house file extending a file, a sheet file whose rules
    are a file: each refused before anything is opened."""
    status, answer = server.call("POST", "/api/sheets", {"ruleset": "../../etc/passwd"})
    assert (status, answer["error"]["code"]) == (422, "upload.path")
    house = "id: h\nname: {en: H}\nextends: ../secret.yaml\n"
    status, answer = server.call("POST", "/api/sheets", {"ruleset_text": house})
    assert (status, answer["error"]["code"]) == (422, "upload.extends-path")
    sheet = _new(server)
    status, exported = server.call("GET", f"/api/sheets/{sheet['sheet']}/export")
    data = json.loads(exported["sheet"])
    data["ruleset"] = "/etc/passwd"
    status, answer = server.call("POST", "/api/sheets", {"sheet_text": json.dumps(data)})
    assert (status, answer["error"]["code"]) == (422, "upload.path")
    status, answer = server.call("PUT", f"/api/sheets/{sheet['sheet']}",
                                 {"version": sheet["version"], "sheet_text": json.dumps(data)}, token=sheet["edit_token"])
    assert (status, answer["error"]["code"]) == (422, "upload.path")
    with sqlite3.connect(server.db) as db:
        assert db.execute("SELECT COUNT(*) FROM scoresheets WHERE id NOT IN (SELECT key FROM scoresheet_texts)"
                          ).fetchone()[0] == 0  # no half-made sheet is left
    status, answer = server.call("POST", "/api/sheets", {"ruleset": "pl-standard", "options": {"five_rounds": {"a": 1}}})
    assert (status, answer["error"]["code"]) == (400, "bad_request")
    status, answer = server.call("POST", "/api/sheets", {"ruleset": "pl-standard", "options": {"five_rounds": "sideways"}})
    assert (status, answer["error"]["code"]) == (422, "option.value")


def test_changed_rules_are_told_and_the_editor_may_go_on_under_them(server: Served) -> None:
    """A sheet whose rules changed in what scores since it was saved (here: its stored
    scoring fingerprint altered) is not settled silently under the new rules: GET says so
    (422, ``rules_changed``, the version); only the edit link goes on under them."""
    sheet = _new(server)
    _, one = _add(server, sheet, sheet["version"], DEALS[0])
    with sqlite3.connect(server.db) as db:
        text = db.execute("SELECT text FROM scoresheet_texts WHERE key = ?", (sheet["sheet"],)).fetchone()[0]
        data = json.loads(text)
        data["rules_hash"]["scoring"] = "0" * 16
        db.execute("UPDATE scoresheet_texts SET text = ?, version = ? WHERE key = ?",
                   (json.dumps(data), "tampered", sheet["sheet"]))
    path = f"/api/sheets/{sheet['sheet']}"
    status, answer = server.call("GET", path)
    assert status == 422 and answer["rules_changed"] is True and answer["version"] == "tampered"
    assert answer["error"]["message"].startswith("the rules of `pl-standard` changed (scoring)")
    status, answer = server.call("POST", f"{path}/new-rules", {"version": "tampered"})
    assert (status, answer["error"]["code"]) == (403, "read_only")
    status, answer = server.call("POST", f"{path}/new-rules", {"version": one["version"]}, token=sheet["edit_token"])
    assert status == 409
    status, view = server.call("POST", f"{path}/new-rules", {"version": "tampered"}, token=sheet["edit_token"])
    assert status == 200 and view["carried"] == 1 and view["totals"] == one["totals"]
    assert view["rows"][0]["notes"][-1] == "the rules changed after this deal; the deals before it keep their scores"
    assert server.call("GET", path)[0] == 200


@pytest.mark.slow  # about 2 s of CPU (quick-loop budget, issue 25)
def test_sheets_survive_a_restart(tmp_path: Path) -> None:
    served = Served(tmp_path / "web.sqlite3")
    try:
        sheet = _new(served)
        _, view = _add(served, sheet, sheet["version"], DEALS[0])
    finally:
        served.kill()
    again = Served(tmp_path / "web.sqlite3")
    try:
        status, back = again.call("GET", f"/api/sheets/{sheet['sheet']}")
        assert status == 200 and back["version"] == view["version"] and back["totals"] == [10, -150, 0]
        assert again.call("GET", "/api/rulesets")[0] == 200  # the tables' store opened the same file
    finally:
        again.stop()


def test_the_pages_words_are_in_four_languages() -> None:
    """The sheet page's interface words are in the pages' one dictionary (i18n.js, keys
    ``sheet.*``): every word in en, pl, ru, cs with the same placeholders, and every word the
    page asks for (``t("sheet.…")``) is there; the questions' labels and prompts come from the
    server (``tysiac score``'s questions, in the page's language); no HTML written from data."""
    import re

    static = ROOT / "tysiac_spec" / "apps" / "web" / "static" / "js"
    text = (static / "sheet.js").read_text(encoding="utf-8")
    shared = (static / "i18n.js").read_text(encoding="utf-8")
    assert "const WORDS" not in text
    body = shared[shared.index("const WORDS = {"):shared.index("\n};", shared.index("const WORDS = {"))]
    words = {m.group(1).strip('"'): json.loads(f"[{m.group(2)}]")
             for m in re.finditer(r'^\s+("[^"]+"|\w+): \[(.*?)\],$', body, re.M | re.S)}
    sheet_words = {k: v for k, v in words.items() if k.startswith("sheet.")}
    assert len(sheet_words) > 40
    assert {k for k, v in words.items() if len(v) != 4 or not all(x.strip() for x in v)} == set()
    assert {k for k, v in words.items() if len({tuple(sorted(re.findall(r"\{\w+\}", x))) for x in v}) != 1} == set()
    asked = set(re.findall(r'\bt\("(sheet\.[\w.]+)"', text))
    assert len(asked) > 30 and asked - set(words) == set()
    assert not re.search(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write", text)
