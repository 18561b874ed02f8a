"""The game's words reach a seat in its language, from the rule book's one home
(tysiac_spec/docs/terms.py), through a real server: the names of the table options and their
values, the named contracts, and the match events (a forfeit); never an option's id as a
label."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from webserver import ROOT, Served

from tysiac_spec.docs import terms


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    served = Served(tmp_path_factory.mktemp("words") / "web.sqlite3")
    yield served
    served.stop()


def _welcome(server: Served, lang: str, **table: object) -> dict:
    made = server.create(**table)
    sock = server.socket(made["table"], made["seats"][0]["token"], lang=lang)
    try:
        return sock.until("welcome")
    finally:
        sock.close()


def test_option_names_and_values_reach_a_seat_in_its_language(server: Served) -> None:
    welcome = _welcome(server, "pl", ruleset="ru-classic", players=3, seats=["human", "bot:random", "bot:random"],
                       options={"gold_set": True})
    assert {"name": "gold_set", "value": True} in welcome["options"]
    pl, ru = welcome["words"]["pl"], welcome["words"]["ru"]
    assert pl["opt.gold_set"] == "Złoty set (po rozdaniu każdemu na start)"
    assert ru["opt.gold_set"] == "Золотой кон (по раздаче каждому в начале)"
    assert (pl["opt.gold_set=true"], ru["opt.gold_set=true"]) == ("tak", "да")
    assert pl["opt.barrel_variant=standard"] == "na 880, trzy próby"
    assert ru["opt.four_nines=after_exchange"] == "на руке после сноса"
    # every option the table lists has a name in words in every language: no id as a label
    for lang, words in welcome["words"].items():
        for o in welcome["options"]:
            label = words[f"opt.{o['name']}"]
            assert "_" not in label and label != o["name"], (lang, label)
            assert "_" not in words[f"opt.{o['name']}={terms.option_text(o['value'])}"]
    # and the start page's list of rulesets names them the same way
    listed = next(r for r in server.call("GET", "/api/rulesets")[1]["rulesets"] if r["id"] == "ru-classic")
    gold = next(o for o in listed["options"] if o["name"] == "gold_set")
    assert gold["label"]["pl"] == "Złoty set (po rozdaniu każdemu na start)"
    assert gold["values"]["false"]["ru"] == "нет"


def test_a_named_contract_reaches_a_seat_in_its_language(server: Served) -> None:
    # a house file that names its misère in English only: the other languages come from terms.py
    text = (ROOT / "examples/house/misere.yaml").read_text(encoding="utf-8")
    own = "name: {en: Misère, pl: Mizer, ru: Мизер, cs: Mizér}"
    assert own in text
    welcome = _welcome(server, "ru", ruleset_text=text.replace(own, "name: {en: Misère}"), players=3,
                       seats=["human", "bot:random", "bot:random"])
    words = welcome["words"]
    assert (words["pl"]["kind.misere"], words["ru"]["kind.misere"], words["en"]["kind.misere"]) == (
        "Mizer", "Мизер", "Misère")
    assert words["pl"]["act.named"] == "Licytuj: {kind}" and words["ru"]["act.pass"] == "Пас"


def test_a_forfeit_is_told_in_each_seats_language(server: Served) -> None:
    # ru-online, seed 1: everyone passes the forced 100 by, and its player gives up the deal
    made = server.create(ruleset="ru-online", players=3, seats=["human"] * 3, seed=1)
    tid, tokens = made["table"], [s["token"] for s in made["seats"]]
    for _ in range(20):
        states = [server.call("GET", f"/api/tables/{tid}/state", token=k)[1] for k in tokens]
        seat = next(i for i, s in enumerate(states) if s["legal"])
        legal = states[seat]["legal"]
        if "forfeit" in legal:
            break
        action = "pass" if "pass" in legal else legal[0]
        status, _ = server.call("POST", f"/api/tables/{tid}/actions",
                                {"version": states[seat]["version"], "action": action}, token=tokens[seat])
        assert status == 200
    assert "forfeit" in legal
    other = (seat + 1) % 3
    pl = server.socket(tid, tokens[seat], lang="pl")
    ru = server.socket(tid, tokens[other], lang="ru")
    try:
        state = pl.until("state")
        ru.until("state")
        pl.send({"type": "act", "v": state["version"], "a": "forfeit"})
        mine, theirs = pl.until("deal_over"), ru.until("deal_over")
        assert mine["row"] == theirs["row"]
        forfeit = next(e for e in theirs["row"]["events"] if e["kind"] == "forfeit")
        assert forfeit["seat"] == seat and forfeit["value"] == -240
        assert forfeit["words"]["pl"] == "rzuca bombę −240"
        assert forfeit["words"]["ru"] == "расписывает −240"
        assert forfeit["words"]["cs"] == "hází bombu −240"
        # the frames carry the words as sent (UTF-8, not escaped)
        assert "расписывает −240" in ru.frames[-1] and "rzuca bombę −240" in pl.frames[-1]
        assert all(e["words"] is not None for e in theirs["row"]["events"])
        assert json.loads(ru.frames[-1])["type"] == "deal_over"
    finally:
        pl.close()
        ru.close()


def test_the_scoresheets_questions_are_asked_in_the_pages_language(server: Served) -> None:
    status, made = server.call("POST", "/api/sheets", {"ruleset": "pl-standard", "players": 3,
                                                       "names": ["Ala", "Ola", "Ela"]})
    assert status == 201
    path = f"/api/sheets/{made['sheet']}/next"
    answers: dict[str, str] = {}
    asked = []
    for typed in ("Ala", "100", "", "100 10 10", None):
        status, q = server.call("POST", path, {"answers": answers, "lang": "pl"})
        assert status == 200 and q["error"] is None
        asked.append((q["key"], q["prompt"], q["label"]))
        if typed is not None:
            answers[q["key"]] = typed
    assert asked == [
        ("declarer", "grający (imię lub miejsce od 0 do 2, liczone od 0)", "Kto grał?"),
        ("bid", "licytacja", "Licytacja"),
        ("contract", "kontrakt (puste: jak w licytacji)", "Kontrakt grany"),
        ("points", "punkty z kart: Ala Ola Ela", "Punkty z kart"),
        ("marriages", "meldunki jako miejsce:kolor, miejsca liczone od 0 (np. 1:H 2:D = P1 kier, P2 karo; "
                      "puste: brak)", "Meldunki"),
    ]
    assert q["labels"]["no_trick"] == "Kto nie wziął lewy?"
    # English without a language (and for one the sheet does not know), as `tysiac score` asks
    for body in ({"answers": {}}, {"answers": {}, "lang": "xx"}):
        status, q = server.call("POST", path, body)
        assert (q["prompt"], q["label"]) == ("declarer (a name, or seat 0 to 2, counting from 0)", "Who declared?")
    # the answers keep their notation, and a rejected one is refused with tysiac score's words
    status, q = server.call("POST", path, {"answers": {"declarer": "Ala", "bid": "105"}, "lang": "ru"})
    assert (q["key"], q["prompt"]) == ("bid", "ставка") and q["error"]["code"].startswith("entry.")
