"""A house file that validates but fails at play time (a formula out of range, reading the score,
which no bound limits) never leaves
the table changed but not stored (attack trial, item 3): the action is answered with
``rules_failed`` and the formula's file:line:col, the game goes back to its last stored
action, the state still answers, and other actions go on; a file that fails to deal makes
no table at all."""

from __future__ import annotations

import sqlite3
import time
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


#: A rospis whose cost reads the score, which has no bound the ruleset states: it validates
#: (the range analysis refuses only what the bounds prove, tests/test_range_checks.py) and
#: leaves the formulas' range in play, when the declarer writes the deal off.
ROSPIS = """\
id: house-rospis-out-of-range
kind: house
extends: ru-online
name: {en: A rospis that costs too much}
options:
  rospis: {$delete: true}
  golden_round: {$delete: true}
  dark_game: {$delete: true}
special:
  golden_round: {enabled: false}
  dark: {enabled: false}
contract:
  forfeit:
    declarer: "-(player.score + 3000000) * 1000000"
"""


def test_an_action_the_rules_fail_on_is_rolled_back(server: Served) -> None:
    # the declarer writes the deal off: its cost is out of the formulas' range
    table = server.create(ruleset_text=ROSPIS, players=3, seats=["human"] * 3, seed=5)
    tokens = [s["token"] for s in table["seats"]]
    path = f"/api/tables/{table['table']}"
    for _ in range(40):
        states = [server.call("GET", f"{path}/state", token=k)[1] for k in tokens]
        seat = next(i for i, s in enumerate(states) if s["legal"])
        state = states[seat]
        legal = state["legal"]
        action = "forfeit" if "forfeit" in legal else "pass" if "pass" in legal else legal[0]
        status, answer = server.call("POST", f"{path}/actions",
                                     {"version": state["version"], "action": action}, token=tokens[seat])
        if status != 200:
            break
    assert action == "forfeit" and state["version"] == 2
    assert status == 422
    assert answer["error"]["code"] == "rules_failed"
    message = answer["error"]["message"]
    assert message.startswith(
        "house.yaml:14:15: error[dsl.runtime]: `-(player.score + 3000000) * 1000000` gave ")
    assert "Traceback" not in message and "hand" not in message
    # nothing changed: the state answers, at the stored move, and another action is taken
    status, after = server.call("GET", f"{path}/state", token=tokens[seat])
    assert status == 200 and after["version"] == 2 == _stored(server.db, table["table"])
    assert after["legal"] == state["legal"]
    other = next(a for a in after["legal"] if a != "forfeit")
    status, answer = server.call("POST", f"{path}/actions", {"version": 2, "action": other},
                                 token=tokens[seat])
    assert status == 200 and answer["version"] == 3 == _stored(server.db, table["table"])
    logged = f"table {table['table']}: the rules failed after action 2 (DslError): house.yaml:14:15"
    deadline = time.monotonic() + 30  # the log is read by a thread: it may lag on a busy machine
    while not any(logged in line for line in server.log) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert any(logged in line for line in server.log)
    assert not any("Traceback" in line for line in server.log)


def test_rules_that_fail_to_deal_make_no_table(server: Served) -> None:
    # the bid limit, worked out as the cards are dealt, reads the score (no stated bound)
    text = ROSPIS + "auction:\n  max_bid: 120 + (player.score + 3000000) * 1000000\n"
    status, answer = server.call("POST", "/api/tables", {"ruleset_text": text, "players": 3,
                                                         "seats": ["human", "bot:random", "bot:random"], "seed": 0})
    assert status == 422 and answer["error"]["code"] == "rules_failed"
    assert answer["error"]["message"].startswith("house.yaml:16:18: error[dsl.runtime]")
    # a marriage value the bounds prove out of range is refused before any table is made
    bounded = _house("*".join(["(value+999)"] * 45))
    status, answer = server.call("POST", "/api/tables", {"ruleset_text": bounded, "players": 3,
                                                         "seats": ["human", "bot:random", "bot:random"], "seed": 0})
    assert status == 422 and answer["error"]["code"] == "ruleset_invalid"
    assert answer["diagnostics"][0]["code"] == "formula.range"
    con = sqlite3.connect(server.db)
    try:
        assert con.execute("SELECT count(*) FROM tables").fetchone()[0] == 1  # the first test's only
    finally:
        con.close()
