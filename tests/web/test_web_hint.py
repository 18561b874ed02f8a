"""The hint of the web table (issue 28) through a real ``tysiac serve``: a seat asks at its
turn and gets, on its own socket only, the action the ``strong`` bot would take from that
seat's view of the deal (the same as a bot fed only that seat's views); the host switches
hints off; watchers, other seats and stale versions are refused."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from webserver import Served

from tysiac_spec.bots import HeuristicBot, StrongBot
from tysiac_spec.engine.game import Game
from tysiac_spec.ruleset import load_ruleset

SEED = 11


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    served = Served(tmp_path_factory.mktemp("web") / "web.sqlite3")
    yield served
    served.stop()


def _table(server: Served, **more: object) -> dict:
    return server.create(ruleset="pl-standard", players=3, seats=["human", "human", "human"], seed=SEED,
                         spectators=True, **more)


def _expected(history: list[str], seat: int) -> str:
    """The hint the seat should get: a ``strong`` bot (the room's seed for it: match seed × 8
    + seat + 1) that watched only that seat's views of the current deal."""
    game = Game(load_ruleset("pl-standard"), players=3, seed=SEED)
    bot = StrongBot(SEED * 8 + seat + 1, game.form)
    deal = game.deal
    views = []
    for text in history:
        if game.deal is not deal:
            deal, views = game.deal, []
        views.append(game.view(seat))
        game.apply(next(a for a in game.legal_actions() if a.text == text))
    if game.deal is not deal:
        views = []
    for view in views:
        bot.observe(view)
    return bot.choose(game.view(seat), game.legal_actions()).text


def test_a_seat_gets_the_strong_bots_choice_from_its_own_view_only(server: Served) -> None:
    t = _table(server)
    tokens = [str(t["seats"][s]["token"]) for s in range(3)]
    socks = [server.socket(t["table"], tok) for tok in tokens]
    for s in socks:
        assert s.until("welcome")["settings"]["hints"] is True
        s.until("state")
    game = Game(load_ruleset("pl-standard"), players=3, seed=SEED)
    bots = [HeuristicBot(100 + p, game.form) for p in range(3)]
    history: list[str] = []
    asked = {"auction": 0, "play": 0}
    # the seats play the heuristic's moves; each asks for a hint now and then, in the auction
    # and in the play with few cards left (where the solver decides)
    while len(game.deal_scores) < 1:
        seat = game.current_player
        phase = game.deal.phase
        small = phase == "play" and len(game.deal.hands[seat]) <= 5
        if (phase == "auction" and asked["auction"] < 2) or (small and asked["play"] < 4):
            asked["auction" if phase == "auction" else "play"] += 1
            socks[seat].send({"type": "hint", "v": len(history)})
            got = socks[seat].until("hint")
            assert got == {"type": "hint", "v": len(history), "a": _expected(history, seat)}
            assert got["a"] in [a.text for a in game.legal_actions()]
        action = bots[seat].choose(game.view(seat), game.legal_actions())
        status, _ = server.call("POST", f"/api/tables/{t['table']}/actions",
                                {"version": len(history), "action": action.text}, token=tokens[seat])
        assert status == 200
        game.apply(action)
        history.append(action.text)
    assert asked == {"auction": 2, "play": 4}
    # the answers went to the asking socket only
    for s in socks:
        s.send({"type": "ping", "t": 1})
        frames = []
        while (frame := s.recv()) is not None and frame["type"] != "pong":
            frames.append(frame)
        assert all(f["type"] != "hint" for f in frames)
    for s in socks:
        s.close()


def test_hints_off_other_seats_watchers_and_stale_are_refused(server: Served) -> None:
    t = _table(server, hints=False)
    game = Game(load_ruleset("pl-standard"), players=3, seed=SEED)
    turn = game.current_player
    host = server.socket(t["table"], t["host_token"])  # the host plays seat 0
    assert host.until("welcome")["settings"]["hints"] is False
    host.until("state")
    mine = server.socket(t["table"], str(t["seats"][turn]["token"]))
    mine.until("state")
    mine.send({"type": "hint", "v": 0})
    assert mine.until("error") == {"type": "error", "code": "hints_off",
                                   "message": "the host has switched hints off"}
    host.send({"type": "settings", "hints": True})
    assert host.until("state")["settings"]["hints"] is True
    mine.send({"type": "hint", "v": 3})
    assert mine.until("error")["code"] == "stale"
    mine.send({"type": "hint", "v": 0})
    assert mine.until("hint")["a"] == _expected([], turn)
    other = server.socket(t["table"], str(t["seats"][(turn + 1) % 3]["token"]))
    other.until("state")
    other.send({"type": "hint", "v": 0})
    assert other.until("error")["code"] == "not_your_turn"
    watcher = server.socket(t["table"], t["watch_token"])
    watcher.until("state")
    watcher.send({"type": "hint", "v": 0})
    assert watcher.until("error") == {"type": "error", "code": "forbidden", "message": "watchers get no hints"}
    mine.send({"type": "hint"})
    assert mine.until("error")["code"] == "bad_message"
    for s in (host, mine, other, watcher):
        s.close()
