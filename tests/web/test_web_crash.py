"""Nothing is lost (issue 24, item 4): a server killed with SIGKILL while moves arrive, or
stopped with SIGTERM while sockets are open, starts again on the same database with every
acknowledged action, at the same move, and the game goes on."""

from __future__ import annotations

import http.client
import sqlite3
import threading
from pathlib import Path

import pytest
from webserver import Served


def _stored(db: Path, table: str) -> list[str]:
    con = sqlite3.connect(db)
    try:
        return [a for (a,) in con.execute(
            "SELECT action FROM actions WHERE table_id = ? AND match_no = 1 ORDER BY n", (table,))]
    finally:
        con.close()


@pytest.mark.slow
def test_sigkill_while_moves_arrive_loses_no_acknowledged_action(tmp_path: Path) -> None:
    db = tmp_path / "web.sqlite3"
    server = Served(db)
    tables = [server.create(ruleset=r, players=3, seats=["human", "human", "bot:heuristic"], seed=3 + i)
              for i, r in enumerate(["pl-standard", "ru-classic", "pl-standard"])]
    acked: list[tuple[str, int, str]] = []  # (table, version after, the action)
    stop = threading.Event()

    def play(t: dict) -> None:
        tokens = [t["seats"][0]["token"], t["seats"][1]["token"]]
        while not stop.is_set():
            try:
                states = [server.call("GET", f"/api/tables/{t['table']}/state", token=k)[1] for k in tokens]
                seat = next((i for i, s in enumerate(states) if s["legal"]), None)
                if seat is None:
                    return
                s = states[seat]
                action = s["legal"][len(s["legal"]) // 2]
                status, after = server.call("POST", f"/api/tables/{t['table']}/actions",
                                            {"version": s["version"], "action": action}, token=tokens[seat])
            except (OSError, http.client.HTTPException):
                return  # the server is gone
            if status == 200:
                mine = [e for e in after["last"] if e["action"] == action and e["seat"] == seat]
                acked.append((t["table"], mine[-1]["v"] if mine else s["version"] + 1, action))

    threads = [threading.Thread(target=play, args=(t,)) for t in tables]
    for th in threads:
        th.start()
    while len(acked) < 60:
        threads[0].join(0.05)
        if not any(th.is_alive() for th in threads):
            break
    server.kill()
    stop.set()
    for th in threads:
        th.join(30)
    assert len(acked) >= 60
    # every acknowledged action is in the database at its number
    for table, version, action in acked:
        assert _stored(db, table)[version - 1] == action
    # restarted: the same move, and play goes on
    again = Served(db)
    try:
        for t in tables:
            stored = _stored(db, t["table"])
            token = t["seats"][0]["token"]
            status, state = again.call("GET", f"/api/tables/{t['table']}/state", token=token)
            assert status == 200 and state["version"] == len(stored)
            seat = 0 if state["legal"] else 1
            state = again.call("GET", f"/api/tables/{t['table']}/state", token=t["seats"][seat]["token"])[1]
            status, after = again.call("POST", f"/api/tables/{t['table']}/actions",
                                       {"version": state["version"], "action": state["legal"][0]},
                                       token=t["seats"][seat]["token"])
            assert status == 200 and after["version"] > len(stored)
    finally:
        again.stop()


@pytest.mark.slow  # about 1 s of CPU: a server of its own (quick-loop budget, issue 25)
def test_sigterm_closes_the_sockets_and_the_table_comes_back(tmp_path: Path) -> None:
    db = tmp_path / "web.sqlite3"
    server = Served(db)
    t = server.create(ruleset="pl-standard", players=3, seats=["human", "bot:random", "bot:heuristic"], seed=9)
    token = t["seats"][0]["token"]
    sock = server.socket(t["table"], token)
    state = sock.until("state")
    sock.send({"type": "act", "v": state["version"], "a": state["legal"][0]})
    after = sock.until("state")
    assert after["version"] > state["version"]
    assert server.stop() in (0, -15)  # (uvicorn raises the signal again after a clean shutdown)
    assert any("Application shutdown complete" in line for line in server.log)
    while sock.recv() is not None:
        pass
    assert sock.close_code in (1001, 1012)
    again = Served(db)
    try:
        status, restored = again.call("GET", f"/api/tables/{t['table']}/state", token=token)
        assert status == 200
        assert restored["version"] == after["version"] and restored["view"] == after["view"]
        assert restored["legal"] == after["legal"]
    finally:
        again.stop()
