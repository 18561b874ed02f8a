"""A bot's reply that the rules fail on (a house formula out of range, reached only in the
position the bot plays into) is rolled back like a human's action: the human's move that the
bot answered is refused with ``rules_failed`` in an error frame (the formula's file:line:col),
the table goes back to its last stored move and goes on, and the server logs one line, no
traceback."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from webserver import ROOT, Served

HOUSE = (ROOT / "examples/house/first-marriage-double.yaml").read_text()
# the first marriage of a deal is worth 10^11 times its value: out of the formulas' range
TEXT = HOUSE.replace('"if first then value * 2 else value"', '"if first then value * 100000000000 else value"')
SEED = 5
"""With this seed and two random bots, the human playing the first legal action without a
marriage each turn reaches version 28, where the bot of seat 2 answers ``play 9S`` with a
card the formula fails on (found by playing the table; the human's own move is legal and
scores)."""


def _stored(db: Path, table: str) -> int:
    con = sqlite3.connect(db)
    try:
        return int(con.execute("SELECT count(*) FROM actions WHERE table_id = ?", (table,)).fetchone()[0])
    finally:
        con.close()


def test_a_bots_reply_the_rules_fail_on_is_rolled_back(tmp_path: Path) -> None:
    server = Served(tmp_path / "web.sqlite3")
    try:
        assert HOUSE != TEXT
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
        assert frame["code"] == "rules_failed" and frame["req"] == "r28"
        assert frame["message"].startswith("house.yaml:13:26: error[dsl.runtime]: `value * 100000000000` gave ")
        assert "Traceback" not in frame["message"] and "hand" not in frame["message"]
        # the table is intact, at the last stored move, and the socket stays open
        status, after = server.call("GET", f"/api/tables/{tid}/state", token=token)
        assert status == 200 and after["version"] == 28 == _stored(server.db, tid)
        assert after["legal"] == state["legal"] and after["view"]["hand"] == state["view"]["hand"]
        sock.send({"type": "ping", "t": 1})
        assert sock.until("pong")["t"] == 1
        # the move may be made again from there (the bots, made anew at the stored move, may
        # reply otherwise): stored with their replies, or refused the same way
        status, answer = server.call("POST", f"/api/tables/{tid}/actions", {"version": 28, "action": "play 9S"},
                                     token=token)
        if status == 200:
            assert answer["version"] > 28 and answer["version"] == _stored(server.db, tid)
        else:  # that reply fails too: still refused in words, still at the stored move
            assert answer["error"]["code"] == "rules_failed" and _stored(server.db, tid) == 28
        sock.close()
    finally:
        server.stop()
    assert any(f"table {tid}: the rules failed after action 28 (DslError): house.yaml:13:26" in line
               for line in server.log)
    assert not any("Traceback" in line for line in server.log)
