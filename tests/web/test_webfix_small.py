"""Small holes of the attack trial (item 5): a non-finite number is refused, never echoed as
``Infinity``; a new table's links name the server, not the client's ``Host``; a file that is
not a database and a taken port end ``tysiac serve`` with one line and exit 1; the ruleset
text of a table of a shipped ruleset is ``no_upload``."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from webserver import ROOT, Served


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    served = Served(tmp_path_factory.mktemp("small") / "web.sqlite3")
    yield served
    served.stop()


def _table(server: Served, **more: object) -> dict:
    return server.create(ruleset="pl-standard", players=3, seats=["human", "bot:random", "bot:random"], **more)


def test_a_non_finite_number_is_refused(server: Served) -> None:
    t = _table(server)
    sock = server.socket(t["table"], t["seats"][0]["token"])
    sock.until("state")
    sock.send('{"type": "ping", "t": 1e400}')
    error = sock.until("error")
    assert error == {"type": "error", "code": "bad_message", "message": "a frame is one JSON object"}
    sock.send('{"type": "ping", "t": 1.5}')
    assert sock.until("pong") == {"type": "pong", "t": 1.5}
    assert not any("Infinity" in f for f in sock.frames)
    sock.close()
    status, answer = server.call("POST", "/api/tables", raw=b'{"ruleset": "pl-standard", "players": 1e400}')
    assert status == 400 and answer["error"]["code"] == "bad_request"


def test_links_name_the_server_not_the_clients_host(server: Served) -> None:
    status, t = server.call("POST", "/api/tables", {"ruleset": "pl-standard", "players": 3,
                                                    "seats": ["human", "human", "bot:random"]},
                            headers={"Host": "192.0.2.7:80"})
    assert status == 201, t
    page = f"{server.url}t/{t['table']}"
    assert t["host"] == f"{page}#host={t['host_token']}"
    assert t["watch"] == f"{page}#watch={t['watch_token']}"
    assert [s.get("url") for s in t["seats"]] == [f"{page}#seat={t['seats'][0]['token']}",
                                                  f"{page}#seat={t['seats'][1]['token']}", None]


def test_the_ruleset_text_of_a_shipped_ruleset_is_no_upload(server: Served) -> None:
    t = _table(server)
    status, answer = server.call("GET", f"/api/tables/{t['table']}/ruleset", token=t["host_token"])
    assert status == 404
    assert answer["error"] == {"code": "no_upload",
                               "message": "this table plays a shipped ruleset: see /api/rulesets"}


def _serve(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "tysiac_spec", "serve", *args], capture_output=True,
                          text=True, env=env, cwd=str(cwd), timeout=60)


@pytest.mark.slow  # about half a second of CPU (quick-loop budget, issue 25)
def test_a_file_that_is_not_a_database_is_one_line(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("root:x:0:0:root:/root:/bin/bash\n" * 200)
    done = _serve("--port", "0", "--db", str(notes), cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr == f"tysiac serve: {notes}: not a database the server can use (file is not a database)\n"
    assert notes.read_text().startswith("root:x:0:0")  # untouched


def test_a_taken_port_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = _serve("--port", str(port), "--db", str(tmp_path / "web.sqlite3"), cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr == f"tysiac serve: cannot listen on 127.0.0.1:{port}: Address already in use\n"
