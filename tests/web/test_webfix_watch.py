"""The watch link is refused over HTTP exactly as over the websocket while the host allows
no watchers (attack trial, item 4: ``GET /state`` with the watch token answered 200), and
taken by both once spectators are on (one check, :meth:`Room.admit`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from webserver import Served

NO_WATCHERS = {"code": "forbidden", "message": "the host allows no watchers"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    served = Served(tmp_path_factory.mktemp("watch") / "web.sqlite3")
    yield served
    served.stop()


def test_the_watch_link_without_spectators_is_refused_everywhere(server: Served) -> None:
    t = server.create(ruleset="pl-standard", players=3, seats=["human", "bot:random", "bot:random"], seed=4)
    path = f"/api/tables/{t['table']}"
    for route in ("state", "record", "ruleset"):
        status, answer = server.call("GET", f"{path}/{route}", token=t["watch_token"])
        assert (status, answer["error"]) == (403, NO_WATCHERS)
    sock = server.socket(t["table"], t["watch_token"])
    assert sock.until("error") == {"type": "error", **NO_WATCHERS}
    assert sock.recv() is None and sock.close_code == 4403
    # the host lets watchers in: both take the link
    host = server.socket(t["table"], t["seats"][0]["token"])
    host.until("state")
    host.send({"type": "settings", "spectators": True})
    host.until("state")
    status, state = server.call("GET", f"{path}/state", token=t["watch_token"])
    assert status == 200 and state["seat"] is None and state["version"] >= 0
    watcher = server.socket(t["table"], t["watch_token"])
    assert watcher.until("welcome")["role"] == "watcher"
    watcher.close()
    host.close()
