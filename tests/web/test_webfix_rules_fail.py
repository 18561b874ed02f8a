"""A house file that validates but fails at play time (a formula out of range) never leaves
the table changed but not stored (attack trial, item 3): the action is answered with
``rules_failed`` and the formula's file:line:col, the game goes back to its last stored
action, the state still answers, and other actions go on; a file that fails to deal makes
no table at all."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from webserver import ROOT, Served

HOUSE = (ROOT / "examples/house/first-marriage-double.yaml").read_text()
FIRST = '"if first then value * 2 else value"'


def _house(formula: str) -> str:
    assert FIRST in HOUSE
    return HOUSE.replace(FIRST, f'"{formula}"')


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    served = Served(tmp_path_factory.mktemp("rules-fail") / "web.sqlite3")
    yield served
    served.stop()


def _stored(db: Path, table: str) -> int:
    con = sqlite3.connect(db)
    try:
        return int(con.execute("SELECT count(*) FROM actions WHERE table_id = ?", (table,)).fetchone()[0])
    finally:
        con.close()


def test_an_action_the_rules_fail_on_is_rolled_back(server: Served) -> None:
    # the second marriage of a deal is worth 10^11 times its value: out of the formulas' range
    text = _house("if first then value * 2 else value * 100000000000")
    table = server.create(ruleset_text=text, players=3, seats=["human"] * 3, seed=5)
    tokens = [s["token"] for s in table["seats"]]
    path = f"/api/tables/{table['table']}"
    for _ in range(40):
        states = [server.call("GET", f"{path}/state", token=k)[1] for k in tokens]
        seat = next(i for i, s in enumerate(states) if s["legal"])
        state = states[seat]
        marriages = [a for a in state["legal"] if "marriage" in a]
        action = (marriages or state["legal"])[0]
        status, answer = server.call("POST", f"{path}/actions",
                                     {"version": state["version"], "action": action}, token=tokens[seat])
        if status != 200:
            break
    assert action == "play KH marriage" and state["version"] == 11
    assert status == 422
    assert answer["error"]["code"] == "rules_failed"
    message = answer["error"]["message"]
    assert message.startswith("house.yaml:13:41: error[dsl.runtime]: `value * 100000000000` gave ")
    assert "Traceback" not in message and "hand" not in message
    # nothing changed: the state answers, at the stored move, and another action is taken
    status, after = server.call("GET", f"{path}/state", token=tokens[seat])
    assert status == 200 and after["version"] == 11 == _stored(server.db, table["table"])
    assert after["legal"] == state["legal"]
    status, answer = server.call("POST", f"{path}/actions", {"version": 11, "action": "play KH"},
                                 token=tokens[seat])
    assert status == 200 and answer["version"] == 12 == _stored(server.db, table["table"])
    assert any(f"table {table['table']}: the rules failed after action 11 (DslError): house.yaml:13:41" in line
               for line in server.log)
    assert not any("Traceback" in line for line in server.log)


def test_rules_that_fail_to_deal_make_no_table(server: Served) -> None:
    text = _house("*".join(["(value+999)"] * 45))
    status, answer = server.call("POST", "/api/tables", {"ruleset_text": text, "players": 3,
                                                         "seats": ["human", "bot:random", "bot:random"], "seed": 0})
    assert status == 422 and answer["error"]["code"] == "rules_failed"
    assert answer["error"]["message"].startswith("house.yaml:13:")
    con = sqlite3.connect(server.db)
    try:
        assert con.execute("SELECT count(*) FROM tables").fetchone()[0] == 1  # the first test's only
    finally:
        con.close()
