"""What a request names is checked (a new user's trial): the Host (DNS rebinding, where a
page of another site whose name is made to resolve to 127.0.0.1 sends a matching Origin and
Host, so the Origin check alone let it create tables, save files and queue studies: the server
answers only to IP addresses, ``localhost`` and the names in ``TYSIAC_WEB_HOSTS``), and the
fields of a new table."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest
import websocket
from webserver import Served

from tysiac_spec.apps.web.server import WRONG_HOST, host_allowed


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    served = Served(tmp_path_factory.mktemp("web") / "web.sqlite3")
    yield served
    served.stop()


def _post(server: Served, host: str, body: object) -> tuple[int, object]:
    port = server.url.rsplit(":", 1)[1].strip("/")
    request = urllib.request.Request(
        server.url + "api/rulesets/check", data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json", "Host": f"{host}:{port}", "Origin": f"http://{host}:{port}"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_a_request_for_another_host_name_is_refused(server: Served) -> None:
    status, answer = _post(server, "evil.example", {"text": "id: x\n"})
    assert (status, answer) == (421, {"error": {"code": "wrong_host", "message": WRONG_HOST}})


def test_ip_addresses_and_localhost_are_answered(server: Served) -> None:
    for host in ("127.0.0.1", "localhost"):
        status, answer = _post(server, host, {"text": "id: [unclosed\n"})
        assert status == 200 and answer["ok"] is False, (host, answer)  # type: ignore[index]


def test_a_websocket_for_another_host_name_does_not_open(server: Served) -> None:
    port = server.url.rsplit(":", 1)[1].strip("/")
    with pytest.raises(websocket.WebSocketBadStatusException) as refused:
        websocket.create_connection(f"{server.ws_base}t/x/ws", timeout=10, host=f"evil.example:{port}",
                                    origin=f"http://evil.example:{port}")
    assert refused.value.status_code == 403


@pytest.mark.parametrize(("host", "extra", "allowed"), [
    ("127.0.0.1:8000", "", True), ("[::1]:8000", "", True), ("localhost", "", True),
    ("192.168.1.20:8000", "", True), ("LOCALHOST:1", "", True),
    ("evil.example:8000", "", False), ("127.0.0.1.evil.example", "", False), ("", "", False),
    ("tysiac.example.org", "tysiac.example.org, other", True), ("tysiac.example.org:443", "x,TYSIAC.example.org", True),
])
def test_host_allowed(host: str, extra: str, allowed: bool) -> None:
    assert host_allowed(host, extra) is allowed



def test_an_unknown_field_of_a_new_table_is_refused_by_name(server: Served) -> None:
    status, answer = server.call("POST", "/api/tables", {"ruleset": "pl-standard", "players": 3,
                                                         "seats": ["human"] * 3, "option": {"five_rounds": "up"}})
    assert status == 400
    assert answer["error"]["message"].startswith("unknown field `option`; a table takes `ruleset`, `ruleset_text`")


def test_a_base_ruleset_is_refused_with_words_not_an_empty_list(server: Served) -> None:
    status, answer = server.call("POST", "/api/tables", {"ruleset": "core", "players": 3, "seats": ["human"] * 3})
    assert status == 400
    assert answer["error"]["message"] == ("`core` is a base for other rulesets, not played itself: choose a "
                                          "ruleset that extends it (GET /api/rulesets lists them)")


def test_an_error_in_a_shipped_parent_names_no_server_folder(server: Served) -> None:
    text = "id: h\nkind: house\nextends: pl-standard\nname: {en: H}\nmatch:\n  target: 500\n"
    status, answer = server.call("POST", "/api/rulesets/check", {"text": text})
    assert status == 200 and answer["ok"] is False
    (error,) = answer["errors"]
    assert error["text"].startswith("pl-standard.yaml:")
    assert "/" not in error["text"].split(":", 1)[0]
