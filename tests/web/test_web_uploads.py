"""House-rule files sent to the web table (issue 24, items 2 and 7): the same errors at
line:col as ``tysiac validate``, the project's limits, and containment (an uploaded file may
extend shipped ids only; no path a client writes is opened).  Also the store's schema."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from webserver import Served

from tysiac_spec.apps.web.rulesets import UPLOAD_FILE, load_table_ruleset
from tysiac_spec.apps.web.store import MatchRow, SeatRow, SqliteStore, TableRow
from tysiac_spec.cli import main
from tysiac_spec.errors import RulesetError, TysiacError

HOUSE = """\
id: our-table
name:
  en: Our table
kind: house
extends: pl-standard
match:
  target: 500
  finishing: {cap: 490}
"""

BAD = """\
id: our-table
name:
  en: Our table
kind: house
extends: pl-standard
auction:
  step: 15
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    served = Served(tmp_path_factory.mktemp("uploads") / "web.sqlite3")
    yield served
    served.stop()


def test_a_house_file_is_checked_and_played(server: Served) -> None:
    status, answer = server.call("POST", "/api/rulesets/check", {"ruleset_text": HOUSE})
    assert status == 200 and answer["ok"] is True
    assert answer["ruleset"]["id"] == "our-table" and answer["ruleset"]["players"] == [2, 3, 4]
    t = server.create(ruleset_text=HOUSE, players=3, seats=["human", "bot:heuristic", "bot:heuristic"], seed=4)
    token = t["seats"][0]["token"]
    status, state = server.call("GET", f"/api/tables/{t['table']}/state", token=token)
    assert status == 200 and state["legal"]
    status, text = server.call("GET", f"/api/tables/{t['table']}/ruleset", token=token)
    assert status == 200 and text == HOUSE


def test_errors_are_those_of_tysiac_validate_at_line_and_column(server: Served, tmp_path: Path) -> None:
    status, answer = server.call("POST", "/api/rulesets/check", {"ruleset_text": BAD})
    assert status == 200 and answer["ok"] is False
    (tmp_path / UPLOAD_FILE).write_text(BAD, encoding="utf-8")
    import os

    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        result = CliRunner().invoke(main, ["validate", UPLOAD_FILE])
    finally:
        os.chdir(here)
    assert result.exit_code == 1
    printed = result.output
    for d in answer["diagnostics"]:
        assert d["text"] in printed
    first = answer["diagnostics"][0]
    assert (first["line"], first["column"]) == (7, 9) and first["text"].startswith("house.yaml:7:9: error[")
    status, refused = server.call("POST", "/api/tables", {"ruleset_text": BAD, "players": 3,
                                                          "seats": ["human", "human", "human"]})
    assert status == 422 and refused["error"]["code"] == "ruleset_invalid"
    assert refused["diagnostics"] == answer["diagnostics"]


@pytest.mark.parametrize("parent", [
    "/etc/passwd", "../../etc/passwd.yaml", "rulesets/pl-standard.yaml", "house.yaml", "C:\\\\x.yaml",
    "[pl-standard, ./mine.yaml]",
])
def test_extends_may_name_shipped_ids_only(server: Served, parent: str) -> None:
    text = HOUSE.replace("extends: pl-standard", f"extends: {parent}")
    status, answer = server.call("POST", "/api/rulesets/check", {"ruleset_text": text})
    assert status == 200 and answer["ok"] is False
    d = answer["diagnostics"][0]
    assert d["code"] == "upload.extends-path" and d["line"] == 5
    assert "may extend shipped rulesets only" in d["message"]


def test_no_file_is_opened_for_an_uploaded_extends(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "mine.yaml").write_text("this: [is, not, read\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    opened: list[str] = []
    import builtins

    real_open = builtins.open

    def spy(file: object, *args: object, **kwargs: object) -> object:
        opened.append(str(file))
        return real_open(file, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(builtins, "open", spy)
    with pytest.raises(RulesetError) as caught:
        load_table_ruleset(None, HOUSE.replace("extends: pl-standard", "extends: mine.yaml"), {})
    assert caught.value.diagnostic.code == "upload.extends-path"
    assert not any("mine.yaml" in f for f in opened)
    with pytest.raises(RulesetError) as caught:
        load_table_ruleset("mine.yaml", None, {})
    assert caught.value.diagnostic.code == "upload.path"


def test_uploads_pass_the_projects_limits(server: Served) -> None:
    big = HOUSE + "\n".join(f"# {'x' * 90}" for _ in range(3000)) + "\n"
    status, answer = server.call("POST", "/api/rulesets/check", {"ruleset_text": big})
    assert status == 200 and answer["ok"] is False
    assert answer["diagnostics"][0]["code"] == "limit.ruleset_bytes"
    deep = HOUSE + "x: " + "[" * 300 + "]" * 300 + "\n"
    status, answer = server.call("POST", "/api/rulesets/check", {"ruleset_text": deep})
    assert status == 200 and answer["ok"] is False and answer["diagnostics"][0]["code"].startswith(("yaml.", "limit."))
    status, answer = server.call("POST", "/api/rulesets/check", raw=b"x" * 400_000)
    assert status == 413
    with pytest.raises(TysiacError):
        load_table_ruleset(None, "a: &a [*a, *a]\n", {})


def test_an_unknown_option_or_seat_is_refused(server: Served) -> None:
    status, answer = server.call("POST", "/api/tables", {"ruleset": "pl-standard", "players": 3,
                                                         "options": {"nosuch": 1}, "seats": ["human"] * 3})
    assert status == 422 and answer["error"]["code"] == "bad_options" and "nosuch" in answer["error"]["message"]
    status, answer = server.call("POST", "/api/tables", {"ruleset": "pl-standard", "players": 3,
                                                         "seats": ["human", "bot:mymodule:Evil", "human"]})
    assert status == 422 and answer["error"]["code"] == "bad_seats"
    status, answer = server.call("POST", "/api/tables", {"ruleset": "pl-standard", "players": 7,
                                                         "seats": ["human"] * 7})
    assert status == 400 and "2, 3, 4" in answer["error"]["message"]
    status, answer = server.call("POST", "/api/tables", {"ruleset": "../secret", "players": 3,
                                                         "seats": ["human"] * 3})
    assert status == 422 and answer["error"]["code"] == "ruleset_invalid"


def test_the_store_migrates_from_empty_and_round_trips(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    store = SqliteStore(db)
    assert store.version == 2
    row = TableRow("t1", "pl-standard", None, "h", {"five_rounds": "up"}, 3, {"chat": True}, "hh", None, 0,
                   [SeatRow(0, "human", None, "Ala", "x"), SeatRow(1, "bot", "random", "random", None),
                    SeatRow(2, "human", None, "Ola", "y")], MatchRow(1, 77))
    store.create_table(row)
    store.append_actions("t1", 1, 0, [(0, "bid 100"), (1, "pass")])
    store.append_actions("t1", 1, 2, [(2, "pass")])
    store.add_chat("t1", 0, "hej", 1.5)
    store.close()
    again = SqliteStore(db)
    (back,) = list(again.tables())
    assert back.match.actions == [(0, "bid 100"), (1, "pass"), (2, "pass")] and back.match.seed == 77
    assert back.options == {"five_rounds": "up"} and [s.name for s in back.seats] == ["Ala", "random", "Ola"]
    assert back.chat == [(0, "hej", 1.5)]
    with pytest.raises(sqlite3.IntegrityError):  # an action number is stored once
        again.append_actions("t1", 1, 1, [(1, "pass")])
    assert [a for _, a in again.match("t1", 1).actions] == ["bid 100", "pass", "pass"]  # type: ignore[union-attr]
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()
    again.close()


def test_tables_and_checks_are_bounded_per_address() -> None:
    from types import SimpleNamespace

    from tysiac_spec.apps.web.room import Refused
    from tysiac_spec.apps.web.server import CREATE_PER_HOUR, Server

    server = Server(SqliteStore(":memory:"))
    lan = SimpleNamespace(client=SimpleNamespace(host="192.168.1.20"))
    local = SimpleNamespace(client=SimpleNamespace(host="127.0.0.1"))
    for _ in range(CREATE_PER_HOUR):
        server.count(lan)  # type: ignore[arg-type]
    with pytest.raises(Refused) as caught:
        server.count(lan)  # type: ignore[arg-type]
    assert (caught.value.code, caught.value.status) == ("rate", 429)
    for _ in range(CREATE_PER_HOUR + 5):
        server.count(local)  # type: ignore[arg-type]
