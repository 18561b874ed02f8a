"""The sheet routes take a JSON body only as ``application/json``: a page on another site can
send a text/plain or form POST without the browser's preflight, and must not make or change
a sheet that way; the same body as JSON is taken."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from webserver import Served

BODY = {"ruleset": "pl-standard", "players": 3, "names": ["Ala", "Bo", "Cy"]}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    served = Served(tmp_path_factory.mktemp("trial-csrf") / "web.sqlite3")
    yield served
    served.stop()


@pytest.mark.parametrize("kind", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"])
def test_a_simple_cross_site_body_is_refused(server: Served, kind: str) -> None:
    status, answer = server.call("POST", "/api/sheets", BODY, headers={"Content-Type": kind})
    assert status == 415
    assert answer["error"]["code"] == "bad_request"
    assert answer["error"]["message"] == "send the body as Content-Type: application/json"


def test_json_is_taken_with_a_charset(server: Served) -> None:
    status, answer = server.call("POST", "/api/sheets", BODY,
                                 headers={"Content-Type": "application/json; charset=utf-8"})
    assert status == 201
    assert answer["names"] == ["Ala", "Bo", "Cy"]
    assert answer["totals"] == [0, 0, 0]
    status, answer = server.call("POST", f"/api/sheets/{answer['sheet']}/next", {"answers": {}},
                                 headers={"Content-Type": "text/plain"})
    assert status == 415
