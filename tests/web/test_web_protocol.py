"""The web table's protocol through a real ``tysiac serve``: the HTTP API (state, actions,
version 409, illegal 422, tokens 401/403), every websocket frame type, bad frames answered
with error frames on a socket that stays healthy, close codes, headers and pages."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator

import pytest
from webserver import Served

from tysiac_spec.engine.game import Game
from tysiac_spec.engine.record import Record
from tysiac_spec.engine.replay import replay
from tysiac_spec.ruleset import load_ruleset

SEED = 5


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    served = Served(tmp_path_factory.mktemp("web") / "web.sqlite3")
    yield served
    served.stop()


def _twin() -> Game:
    """The engine's own game of the tables below (pl-standard, 3 players, seed 5)."""
    return Game(load_ruleset("pl-standard"), players=3, seed=SEED)


def _table(server: Served, seats: list[str] | None = None, **more: object) -> dict:
    return server.create(ruleset="pl-standard", players=3, seats=seats or ["human", "human", "human"],
                         seed=SEED, **more)


def _token(table: dict, seat: int) -> str:
    return str(table["seats"][seat]["token"])


def test_a_table_is_created_with_a_secret_link_per_human_seat(server: Served) -> None:
    t = _table(server, ["human", "bot:heuristic", "human"], names=["Ala", None, "Ola"])
    assert [s["kind"] for s in t["seats"]] == ["human", "bot", "human"]
    assert t["seats"][1] == {"seat": 1, "kind": "bot", "name": "heuristic", "bot": "heuristic"}
    assert "token" not in t["seats"][1]
    assert t["seats"][0]["url"] == f"{server.url}t/{t['table']}#seat={_token(t, 0)}"
    assert t["host"].endswith(f"#host={t['host_token']}") and len(t["host_token"]) == 43
    assert len({_token(t, 0), _token(t, 2), t["host_token"], t["watch_token"]}) == 4
    status, state = server.call("GET", f"/api/tables/{t['table']}/state", token=_token(t, 2))
    assert status == 200
    assert [s["name"] for s in state["seats"]] == ["Ala", "heuristic", "Ola"]


def test_the_state_is_the_engine_view_and_legal_only_to_the_seat_to_act(server: Served) -> None:
    t = _table(server, spectators=True)  # (the watch link is refused without spectators)
    game = _twin()
    turn = game.current_player
    for seat in range(3):
        status, state = server.call("GET", f"/api/tables/{t['table']}/state", token=_token(t, seat))
        assert status == 200
        view = game.view(seat)
        assert state["seat"] == seat and state["version"] == 0 and state["over"] is False
        assert state["view"]["hand"] == [str(c) for c in view.hand]
        assert state["view"]["turn"] == turn
        assert state["scores"] == [0, 0, 0]
        expected = [a.text for a in game.legal_actions()] if seat == turn else []
        assert state["legal"] == expected
    status, public = server.call("GET", f"/api/tables/{t['table']}/state", token=t["watch_token"])
    assert status == 200 and public["seat"] is None and public["view"]["hand"] == [] and public["legal"] == []


def test_actions_version_409_illegal_422_and_tokens_401_403(server: Served) -> None:
    t = _table(server)
    game = _twin()
    turn = game.current_player
    other = (turn + 1) % 3
    path = f"/api/tables/{t['table']}/actions"
    legal = [a.text for a in game.legal_actions()]
    # no token, an unknown token, a token of another table
    assert server.call("POST", path, {"version": 0, "action": legal[0]})[0] == 401
    status, answer = server.call("POST", path, {"version": 0, "action": legal[0]}, token="x" * 43)
    assert status == 401 and answer["error"]["code"] == "bad_token"
    elsewhere = _table(server)
    assert server.call("POST", path, {"version": 0, "action": legal[0]}, token=_token(elsewhere, turn))[0] == 401
    # a watch link cannot act
    status, answer = server.call("POST", path, {"version": 0, "action": legal[0]}, token=t["watch_token"])
    assert status == 403 and answer["error"]["code"] == "forbidden"
    # not the seat's turn
    status, answer = server.call("POST", path, {"version": 0, "action": legal[0]}, token=_token(t, other))
    assert status == 422 and answer["error"]["code"] == "not_your_turn"
    # illegal: a card play in the auction; the answer names no card of any hand
    hand_cards = {str(c) for p in range(3) for c in game.view(p).hand}
    status, answer = server.call("POST", path, {"version": 0, "action": "play QH"}, token=_token(t, turn))
    assert status == 422 and answer["error"]["code"] == "illegal"
    assert not any(card in answer["error"]["message"] for card in hand_cards - {"QH"})
    assert "hands=" not in str(answer)
    # a stale version
    status, answer = server.call("POST", path, {"version": 3, "action": legal[0]}, token=_token(t, turn))
    assert status == 409 and answer["error"]["code"] == "stale" and answer["version"] == 0
    # a bad body
    status, answer = server.call("POST", path, raw=b"{not json", token=_token(t, turn))
    assert status == 400 and answer["error"]["code"] == "bad_request"
    status, answer = server.call("POST", path, raw=b"x" * 400_000, token=_token(t, turn))
    assert status == 413 and answer["error"]["code"] == "too_large"
    # no such table
    assert server.call("GET", "/api/tables/nosuch/state", token=_token(t, turn))[0] == 404
    # the legal action: the new state, version 1, as the engine has it
    status, state = server.call("POST", path, {"version": 0, "action": legal[0]}, token=_token(t, turn))
    game.apply(game.legal_actions()[0])
    assert status == 200 and state["version"] == 1
    assert state["view"]["bids"] == [[p, str(b)] for p, b in game.view(turn).bids]
    assert state["last"] == [{"v": 1, "seat": turn, "action": legal[0]}]


def test_bots_have_moved_when_the_answer_comes(server: Served) -> None:
    t = _table(server, ["human", "bot:heuristic", "bot:heuristic"])
    status, state = server.call("GET", f"/api/tables/{t['table']}/state", token=_token(t, 0))
    assert status == 200
    assert state["view"]["turn"] == 0 and state["legal"]
    status, after = server.call("POST", f"/api/tables/{t['table']}/actions",
                                {"version": state["version"], "action": state["legal"][-1]}, token=_token(t, 0))
    assert status == 200
    assert after["over"] or after["view"]["turn"] == 0
    assert after["version"] >= state["version"] + 2  # (the pass and at least one bot's reply)
    assert [entry["seat"] for entry in after["last"]][-2:] != [0, 0]


def test_the_socket_sends_welcome_and_state_and_broadcasts_moves(server: Served) -> None:
    t = _table(server)
    game = _twin()
    turn = game.current_player
    other = (turn + 1) % 3
    actor = server.socket(t["table"], _token(t, turn), lang="pl")
    welcome = actor.until("welcome")
    assert welcome["role"] == "seat" and welcome["seat"] == turn and welcome["lang"] == "pl"
    assert welcome["players"] == 3 and welcome["ruleset"]["id"] == "pl-standard"
    assert [s["letter"] for s in welcome["deck"]["suits"]] == [s.letter for s in game.ruleset.deck.suits]
    assert welcome["deck"]["ranks"][0]["letter"] == "A"
    state = actor.until("state")
    assert state["legal"] == [a.text for a in game.legal_actions()]
    watcher_seat = server.socket(t["table"], _token(t, other))
    watcher_seat.until("state")
    assert actor.until("presence")["connected"] is True
    actor.send({"type": "act", "v": 0, "a": state["legal"][0], "req": "r1"})
    mine = actor.until("state")
    theirs = watcher_seat.until("state")
    assert mine["version"] == theirs["version"] == 1
    assert theirs["last"] == [{"v": 1, "seat": turn, "action": state["legal"][0]}]
    assert theirs["view"]["hand"] == [str(c) for c in game.view(other).hand]
    # the same request again is not applied twice
    actor.send({"type": "act", "v": 0, "a": state["legal"][0], "req": "r1"})
    actor.send({"type": "ping", "t": 7})
    assert actor.until("pong") == {"type": "pong", "t": 7}
    _, now = server.call("GET", f"/api/tables/{t['table']}/state", token=_token(t, turn))
    assert now["version"] == 1
    # a stale act: an error frame, then the current state
    actor.send({"type": "act", "v": 0, "a": "pass", "req": "r2"})
    error = actor.until("error")
    assert error == {"type": "error", "code": "stale", "message": error["message"], "req": "r2"}
    assert actor.until("state")["version"] == 1
    actor.close()
    assert watcher_seat.until("presence", seat=turn)["connected"] is False
    watcher_seat.close()


@pytest.mark.parametrize(("frame", "code"), [
    ("not json", "bad_message"),
    ("[1, 2]", "bad_message"),
    ('{"type": "dance"}', "bad_message"),
    ('{"type": "act", "v": 0}', "bad_message"),
    ('{"type": "act", "v": "0", "a": "pass"}', "bad_message"),
    ('{"type": "act", "v": true, "a": "pass"}', "bad_message"),
    ('{"type": "act", "v": 0, "a": "pass", "extra": 1}', "bad_message"),
    ('{"type": "hello", "proto": 1, "token": "x"}', "bad_message"),
    ('{"type": "chat", "text": "' + "x" * 17_000 + '"}', "too_large"),
    ('{"type": "act", "v": 0, "a": "play QH"}', "not_your_turn"),
    ('{"type": "settings", "chat": false}', "forbidden"),
    ('{"type": "rematch"}', "forbidden"),
    ('{"type": "chat", "text": "bad\\u0007bell"}', "bad_request"),
])
def test_a_bad_frame_gets_an_error_frame_and_the_socket_stays(server: Served, frame: str, code: str) -> None:
    t = _table(server)
    turn = _twin().current_player
    sock = server.socket(t["table"], _token(t, (turn + 1) % 3))
    sock.until("state")
    sock.send(frame)
    error = sock.until("error")
    assert error["code"] == code
    assert "hands=" not in error["message"] and "Traceback" not in error["message"]
    sock.send({"type": "ping", "t": 1})
    assert sock.until("pong")["t"] == 1
    sock.close()


def test_illegal_over_the_socket_names_no_hidden_card(server: Served) -> None:
    t = _table(server)
    game = _twin()
    turn = game.current_player
    sock = server.socket(t["table"], _token(t, turn))
    sock.until("state")
    sock.send({"type": "act", "v": 0, "a": "play AS"})
    error = sock.until("error")
    assert error["code"] == "illegal"
    others = {str(c) for p in range(3) if p != turn for c in game.view(p).hand}
    assert not any(card in error["message"] for card in others - {"AS"})
    sock.close()


def test_close_codes_bad_token_origin_replaced_watchers(server: Served) -> None:
    t = _table(server)
    bad = server.socket(t["table"], "nope")
    assert bad.until("error")["code"] == "bad_token"
    assert bad.recv() is None and bad.close_code == 4401
    nohello = server.socket(t["table"])
    nohello.send({"type": "ping"})
    assert nohello.until("error")["code"] == "bad_message"
    assert nohello.recv() is None and nohello.close_code == 4401
    foreign = server.socket(t["table"], _token(t, 0), origin="https://evil.example")
    assert foreign.recv() is None and foreign.close_code == 4403
    missing = server.socket("nosuchtable", _token(t, 0))
    assert missing.recv() is None and missing.close_code == 4404
    first = server.socket(t["table"], _token(t, 0))
    first.until("state")
    second = server.socket(t["table"], _token(t, 0))
    second.until("state")
    while first.recv() is not None:
        pass
    assert first.close_code == 4409
    watcher = server.socket(t["table"], t["watch_token"])
    assert watcher.until("error")["code"] == "forbidden"
    assert watcher.recv() is None and watcher.close_code == 4403
    second.close()


def test_watchers_chat_settings_and_handing_a_seat_to_a_bot(server: Served) -> None:
    t = _table(server, spectators=True, grace=0)
    game = _twin()
    turn = game.current_player
    host = server.socket(t["table"], t["host_token"])  # the host plays seat 0
    assert host.until("welcome")["host"] is True
    host.until("state")
    watcher = server.socket(t["table"], t["watch_token"])
    welcome = watcher.until("welcome")
    assert welcome["role"] == "watcher" and welcome["seat"] is None
    public = watcher.until("state")
    assert public["view"]["hand"] == [] and public["legal"] == []
    assert public["view"]["hand_sizes"] == [[p, n] for p, n in game.public_view().hand_sizes]
    # chat: seats see it, watchers do not; the host switches it off
    host.send({"type": "chat", "text": "dzień dobry"})
    line = host.until("chat")
    assert line["text"] == "dzień dobry" and line["seat"] == 0 and line["name"] == "Player 1"
    host.send({"type": "settings", "chat": False})
    assert host.until("state")["settings"]["chat"] is False
    host.send({"type": "chat", "text": "again"})
    assert host.until("error")["code"] == "chat_off"
    assert all('"type":"chat"' not in f for f in watcher.frames)
    watcher.send({"type": "act", "v": 0, "a": "pass"})
    assert watcher.until("error")["code"] == "forbidden"
    # the seat to act has never connected (grace 0): the host hands it to a bot, which plays
    if turn != 0:
        host.send({"type": "seat_bot", "seat": turn, "bot": "heuristic"})
        state = host.until("state")
        assert state["seats"][turn]["handed"] is True and state["seats"][turn]["bot"] == "heuristic"
        assert state["version"] >= 1
        # the player takes the seat back by opening the link
        back = server.socket(t["table"], _token(t, turn))
        back.until("welcome")
        mine = back.until("state")
        assert mine["seats"][turn]["handed"] is False and mine["seats"][turn]["bot"] is None
        back.close()
    host.send({"type": "seat_bot", "seat": 0, "bot": "heuristic"})
    assert host.until("error")["code"] == "not_away"
    host.send({"type": "settings", "spectators": False})
    while watcher.recv() is not None:
        pass
    assert watcher.close_code == 4403
    host.close()


def test_rulesets_check_qr_pages_and_headers(server: Served) -> None:
    status, listing = server.call("GET", "/api/rulesets")
    assert status == 200
    pl = next(r for r in listing["rulesets"] if r["id"] == "pl-standard")
    rules = load_ruleset("pl-standard")
    assert pl["players"] == list(rules.player_counts)
    assert {o["name"] for o in pl["options"]} == set(rules.options)
    assert "core" not in {r["id"] for r in listing["rulesets"]}  # (no player count: not playable)
    assert listing["bots"] == ["heuristic", "random", "strong"]
    status, svg = server.call("POST", "/api/qr", {"text": "http://127.0.0.1/t/x#seat=y"})
    assert status == 200 and svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"') and "<title>QR code" in svg
    headers = server.headers("/")
    assert "default-src 'self'" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff" and headers["referrer-policy"] == "no-referrer"
    status, page = server.call("GET", "/rules/pl-standard?lang=pl")
    assert status == 200 and rules.title("pl") in page
    status, page = server.call("GET", "/compare")
    assert status == 200 and "pl-standard" in page
    assert server.call("GET", "/rules/..%2F..%2Fetc%2Fpasswd")[0] == 404


def test_the_record_is_secret_until_the_match_is_over_then_replays(server: Served) -> None:
    t = _table(server, ["human", "bot:random", "bot:random"])
    status, answer = server.call("GET", f"/api/tables/{t['table']}/record", token=_token(t, 0))
    assert status == 403 and answer["error"]["code"] == "not_over"
    # a table of bots only is played to the end, paced, after it is made; the host watches
    bots = _table(server, ["bot:heuristic", "bot:random", "bot:heuristic"])
    assert all("token" not in s for s in bots["seats"])
    for _ in range(1200):
        status, state = server.call("GET", f"/api/tables/{bots['table']}/state", token=bots["host_token"])
        if state.get("over"):
            break
        time.sleep(0.05)
    assert status == 200 and state["over"] and state["seat"] is None and state["legal"] == []
    status, record = server.call("GET", f"/api/tables/{bots['table']}/record", token=bots["host_token"])
    assert status == 200 and record["seed"] == SEED and record["ruleset"] == "pl-standard"
    assert record["format"] == "tysiac-record/1" and len(record["actions"]) == state["version"]
    game = replay(Record.from_json(json.dumps(record)))
    assert list(game.scores) == state["scores"] and list(game.winners) == state["winners"]
    assert state["deals"][-1]["scores"] == state["scores"] and len(state["deals"]) == len(game.deal_scores)


def test_deal_over_and_rematch_frames(server: Served) -> None:
    t = _table(server, ["human", "bot:heuristic", "bot:heuristic"])
    sock = server.socket(t["table"], _token(t, 0))  # seat 0 is also the host
    state = sock.until("state")
    rng = random.Random(2)
    deal_over = None
    for _ in range(200):
        sock.send({"type": "act", "v": state["version"], "a": rng.choice(state["legal"])})
        frame = sock.recv()
        while frame is not None and frame["type"] not in ("state", "deal_over"):
            frame = sock.recv()
        assert frame is not None
        if frame["type"] == "deal_over":
            deal_over = frame
            break
        state = frame
        while not state["legal"] and not state["over"]:
            state = sock.until("state")
    assert deal_over is not None
    row = deal_over["row"]
    assert deal_over["deal"] == 0 and row["deal"] == 0 and len(row["changes"]) == 3
    assert row["scores"] == row["changes"] and all(len(p) == 2 for p in deal_over["trick"])
    assert any(e["kind"].startswith("contract.") for e in row["events"])
    made = next(e for e in row["events"] if e["kind"].startswith("contract."))
    assert made["words"] is not None and set(made["words"]) == {"en", "pl", "ru", "cs"}
    sock.send({"type": "rematch"})
    error = sock.until("error")
    assert error["code"] == "bad_request"  # the match goes on
    sock.close()
    # a table of bots plays to the end (paced): the host starts a rematch, which bots play too
    bots = _table(server, ["bot:heuristic", "bot:heuristic", "bot:heuristic"])
    host = server.socket(bots["table"], bots["host_token"])
    over = host.until("state")
    while not over["over"]:
        over = host.until("state")
    host.send({"type": "rematch"})
    again = host.until("state", match=2)
    while not again["over"]:  # (the bots play in chunks between other tables' moves)
        again = host.until("state", match=2)
    assert again["version"] > 0 and again["deals"]
    status, first = server.call("GET", f"/api/tables/{bots['table']}/record?match=1", token=bots["host_token"])
    assert status == 200 and first["seed"] == SEED
    status, second = server.call("GET", f"/api/tables/{bots['table']}/record", token=bots["host_token"])
    assert status == 200 and len(second["actions"]) == again["version"]
    host.close()


def test_flooding_gets_rate_errors_and_then_a_close(server: Served) -> None:
    t = _table(server)
    sock = server.socket(t["table"], _token(t, 1))
    sock.until("state")
    for n in range(80):
        sock.send({"type": "ping", "t": n})
    codes = []
    while True:
        frame = sock.recv()
        if frame is None:
            break
        if frame["type"] == "error":
            codes.append(frame["code"])
    assert "rate" in codes and sock.close_code == 4429


@pytest.mark.slow
def test_a_socket_without_hello_is_closed(server: Served) -> None:
    t = _table(server)
    quiet = server.socket(t["table"])
    assert quiet.recv() is None and quiet.close_code == 4408
