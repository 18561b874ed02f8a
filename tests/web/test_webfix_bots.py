"""A table of bots only never holds up the server (attack trial, item 1): it answers 201 at
once, the bots play a few moves at a time at a pace people can watch while other requests
are answered, and a server restarted on its database starts and lets them go on.  A match
that passes the room's cap of deals or actions is abandoned, said in words."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from webserver import Served

from tysiac_spec.apps.web import room as room_module
from tysiac_spec.apps.web.room import Room, new_seed, table_row
from tysiac_spec.apps.web.store import SeatRow, SqliteStore
from tysiac_spec.ruleset import load_ruleset

BOTS = {"ruleset": "pl-standard", "players": 3, "seats": ["bot:random"] * 3, "spectators": True}


def _version(server: Served, table: dict) -> int:
    status, state = server.call("GET", f"/api/tables/{table['table']}/state", token=table["watch_token"])
    assert status == 200, state
    return int(state["version"])


@pytest.mark.slow  # about 1 s of CPU (quick-loop budget, issue 25)
def test_a_table_of_bots_answers_and_the_server_keeps_answering(tmp_path: Path) -> None:
    db = tmp_path / "web.sqlite3"
    server = Served(db)
    try:
        status, table = server.call("POST", "/api/tables", BOTS)
        assert status == 201, table
        assert [s["bot"] for s in table["seats"]] == ["random"] * 3
        first = _version(server, table)
        assert 0 < first <= room_module.BOTS_ONLY_CHUNK
        assert server.call("GET", "/api/rulesets")[0] == 200
        # a second table, with a human, is made and played while the bots go on
        other = server.create(ruleset="pl-standard", players=3, seats=["human", "bot:random", "bot:random"])
        assert server.call("GET", f"/api/tables/{other['table']}/state",
                           token=other["seats"][0]["token"])[0] == 200
        later = first
        for _ in range(100):
            time.sleep(0.05)
            later = _version(server, table)
            if later > first:
                break
        assert later > first  # the bots go on, paced, on the event loop
    finally:
        server.stop()
    again = Served(db)
    try:
        restored = _version(again, table)
        assert restored >= later
        for _ in range(100):
            time.sleep(0.05)
            if _version(again, table) > restored:
                break
        assert _version(again, table) > restored
    finally:
        again.stop()


def test_a_match_past_the_cap_is_abandoned_in_words(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("TYSIAC_MAX_WEB_DEALS", "2")  # tysiac_spec/limits.py, read when a room opens
    rules = load_ruleset("pl-standard")
    store = SqliteStore(tmp_path / "web.sqlite3")
    row = table_row(
        table_id="t1", ruleset_ref="pl-standard", ruleset_text=None, ruleset=rules, options={},
        players=3, settings={"spectators": True}, host_hash="x", watch_hash="y", host_seat=None,
        seats=[SeatRow(i, "bot", "random", f"b{i}", None) for i in range(3)], seed=new_seed(),
    )
    room = Room.create(row, rules, store)  # no event loop: the first moves only
    for _ in range(400):
        if room.abandoned is not None:
            break
        room._bots_move()
    assert room.abandoned == "the match passed 2 deals without a winner and is abandoned"
    assert len(room.game.deal_scores) == 2 and not room.game.is_over
    state = room.state(None)
    assert state["abandoned"] == room.abandoned
    version = room.version
    room._bots_move()
    assert room.version == version  # the bots stop
    room.rematch()  # an abandoned match may be followed by a new one
    assert room.match.match_no == 2 and room.abandoned is None
    store.close()
