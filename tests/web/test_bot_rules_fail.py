"""A bot's reply that the rules fail on (a house formula out of range, reached only in the
position the bot plays into) is rolled back like a human's action: the human's move that the
bot answered is refused with ``rules_failed`` in an error frame (the formula's file:line:col),
the table goes back to its last stored move and still answers (the move may be tried again),
and the server logs one line, no traceback."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest
from webserver import ROOT, Served

HOUSE = (ROOT / "examples/house/first-marriage-double.yaml").read_text()
# the defenders' score reads the player's score, which no bound the ruleset states limits: it
# validates (the range analysis, tests/test_range_checks.py, leaves it to the run-time check)
# and goes out of the formulas' range when the first deal is scored (line 28, column 13)
TEXT = HOUSE + 'scoring:\n  defender: "(player.score + 3000000) * 1000000"\n'
SEED = 5
"""With this seed and two random bots, the human playing the first legal action without a
marriage each turn reaches version 28, where it leads the deal's last trick with ``play 9S``
(a legal move the rules take): the bots of seats 1 and 2 answer it, and seat 2's card ends
the deal, whose scoring the formula fails on (found by playing the table)."""


def _stored(db: Path, table: str) -> int:
    con = sqlite3.connect(db)
    try:
        return int(con.execute("SELECT count(*) FROM actions WHERE table_id = ?", (table,)).fetchone()[0])
    finally:
        con.close()


@pytest.mark.slow  # about 1 s of CPU (quick-loop budget, issue 25)
def test_a_bots_reply_the_rules_fail_on_is_rolled_back(tmp_path: Path) -> None:
    server = Served(tmp_path / "web.sqlite3")
    try:
        assert TEXT.startswith(HOUSE) and TEXT.splitlines()[27] == '  defender: "(player.score + 3000000) * 1000000"'
        table = server.create(ruleset_text=TEXT, players=3, seats=["human", "bot:random", "bot:random"], seed=SEED)
        tid, token = table["table"], table["seats"][0]["token"]
        sock = server.socket(tid, token)
        state = sock.until("state")
        for _ in range(60):
            if not state["legal"]:
                state = sock.until("state")
                continue
            action = next(a for a in state["legal"] if "marriage" not in a)
            sock.send({"type": "act", "v": state["version"], "a": action, "req": f"r{state['version']}"})
            frame = sock.recv()
            while frame is not None and frame["type"] not in ("state", "error"):
                frame = sock.recv()
            assert frame is not None
            if frame["type"] == "error":
                break
            state = frame
        # the human's own move was legal; the bot of seat 2 answering it failed the rules
        assert (state["version"], action) == (28, "play 9S")
        assert state["view"]["trick"] == [] and state["view"]["turn"] == 0  # the human leads: bots end it
        assert frame["code"] == "rules_failed" and frame["req"] == "r28"
        assert frame["message"].startswith("house.yaml:28:13: error[dsl.runtime]: `(player.score + 3000000) * 1000000` gave ")
        assert "Traceback" not in frame["message"] and "hand" not in frame["message"]
        # the table is intact, at the last stored move, and the socket stays open
        status, after = server.call("GET", f"/api/tables/{tid}/state", token=token)
        assert status == 200 and after["version"] == 28 == _stored(server.db, tid)
        assert after["legal"] == state["legal"] and after["view"]["hand"] == state["view"]["hand"]
        sock.send({"type": "ping", "t": 1})
        assert sock.until("pong")["t"] == 1
        # the move may be made again from there: the bots, made anew at the stored move, hold one
        # card each and must end the deal the same way, so it is refused the same way, nothing stored
        status, answer = server.call("POST", f"/api/tables/{tid}/actions", {"version": 28, "action": "play 9S"},
                                     token=token)
        assert status == 422 and answer["error"]["code"] == "rules_failed"
        assert answer["error"]["message"].startswith("house.yaml:28:13: error[dsl.runtime]")
        status, again = server.call("GET", f"/api/tables/{tid}/state", token=token)
        assert status == 200 and again["version"] == 28 == _stored(server.db, tid)
        assert again["legal"] == state["legal"] == ["play 9S"]
        sock.close()
    finally:
        server.stop()
    assert any(f"table {tid}: the rules failed after action 28 (DslError): house.yaml:28:13" in line
               for line in server.log)
    assert not any("Traceback" in line for line in server.log)


def test_a_table_of_bots_whose_rules_fail_is_abandoned_and_says_why(tmp_path: Path) -> None:
    """No one would ever act at a table of bots alone whose rules fail on a bot's move: the
    match is abandoned, and the state says why (a new user's trial found it frozen silently,
    ``over: false`` and ``abandoned: null`` for ever)."""
    server = Served(tmp_path / "web.sqlite3")
    try:
        table = server.create(ruleset_text=TEXT, players=3, seats=["bot:random"] * 3, seed=SEED)
        deadline = time.monotonic() + 120
        while True:
            status, state = server.call("GET", f"/api/tables/{table['table']}/state", token=table["host_token"])
            assert status == 200
            if state.get("abandoned") or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        stored = _stored(server.db, table["table"])
    finally:
        server.stop()
    assert state["abandoned"].startswith("the rules failed on a bot's move and the match cannot go on: "
                                         "house.yaml:28:13: error[dsl.runtime]: ")
    assert state["over"] is False and state["legal"] == [] and state["version"] == stored > 0
    assert not any("Traceback" in line for line in server.log)
