"""Every request that changes something takes a JSON body only (415 otherwise) and, when an
Origin is sent, only one naming this server (403 otherwise): a page on another site cannot
make a table, act at one or change a sheet (attack trial, item 2).  One helper,
:func:`tysiac_spec.apps.web.auth.refuse_write`, serves the tables and the sheets."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from webserver import Served

TABLE = {"ruleset": "pl-standard", "players": 3, "seats": ["human", "bot:random", "bot:random"], "seed": 5}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    served = Served(tmp_path_factory.mktemp("writes") / "web.sqlite3")
    yield served
    served.stop()


@pytest.mark.parametrize("path", ["/api/tables", "/api/rulesets/check", "/api/qr"])
@pytest.mark.parametrize("kind", ["text/plain", "application/x-www-form-urlencoded"])
def test_a_simple_cross_site_body_is_refused(server: Served, path: str, kind: str) -> None:
    status, answer = server.call("POST", path, TABLE, headers={"Content-Type": kind})
    assert status == 415
    assert answer["error"] == {"code": "bad_request",
                               "message": "send the body as Content-Type: application/json"}


def test_another_sites_origin_is_refused_and_ours_taken(server: Served) -> None:
    for origin in ("https://evil.example", "null", f"http://{urlsplit(server.url).hostname}:1"):
        status, answer = server.call("POST", "/api/tables", TABLE, headers={"Origin": origin})
        assert status == 403
        assert answer["error"] == {"code": "forbidden",
                                   "message": "a page on another site may not change anything here"}
        status, answer = server.call("POST", "/api/sheets", {"ruleset": "pl-standard", "players": 3},
                                     headers={"Origin": origin})
        assert status == 403 and answer["error"]["code"] == "forbidden"
    ours = server.url.rstrip("/")
    status, table = server.call("POST", "/api/tables", TABLE, headers={"Origin": ours})
    assert status == 201, table
    token = table["seats"][0]["token"]
    state = server.call("GET", f"/api/tables/{table['table']}/state", token=token)[1]
    body = {"version": state["version"], "action": state["legal"][0]}
    path = f"/api/tables/{table['table']}/actions"
    assert server.call("POST", path, body, token=token, headers={"Origin": "https://evil.example"})[0] == 403
    assert server.call("POST", path, body, token=token, headers={"Content-Type": "text/plain"})[0] == 415
    assert server.call("GET", f"/api/tables/{table['table']}/state", token=token)[1]["version"] == state["version"]
    status, after = server.call("POST", path, body, token=token, headers={"Origin": ours})
    assert status == 200 and after["version"] > state["version"]
