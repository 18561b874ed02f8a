"""The scoresheet page in headless Chromium at a phone's 390x844: the start page links to
it; a sheet is made with names; three deals are entered by tapping names and typing
amounts (one wrong answer shown with ``tysiac score``'s message), one is undone; the
totals on the page are the service's; the read-only link shows the same sheet, offers no
entry and follows a deal added meanwhile; a second phone whose sheet went stale is told
and reloaded; screenshots under build/screenshots/; no console errors, no sideways
scrolling."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator

import pytest
from browser import CHROMIUM, DESKTOP, PHONE, Chromium, Page, Server

from tysiac_spec.scoresheet.service import MemoryStore, ScoresheetService

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)"),
]

NAMES = ["Ana", "Bo", "Cy"]
DEALS = [
    {"declarer": "1", "bid": "100", "contract": "150", "points": "8 107 5", "marriages": "1:S"},
    {"declarer": "2", "bid": "110", "contract": "120", "points": "24 26 70", "marriages": "2:H"},
    {"declarer": "0", "bid": "120", "contract": "", "points": "120 0 0", "marriages": "0:H 0:D"},
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    served = Server(tmp_path_factory.mktemp("serve-sheet"))
    yield served
    served.close()


@pytest.fixture(scope="module")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Chromium]:
    browser = Chromium(tmp_path_factory.mktemp("chromium-sheet"))
    yield browser
    browser.close()


def _asked(page: Page) -> str:
    """The key of the question on screen (waits for it)."""
    return str(page.wait("window.tysiacSheet && !window.tysiacSheet.S.busy && "
                         "(document.querySelector('#answer') ? document.querySelector('#answer').name : "
                         "(document.querySelector('#add-deal') ? 'done' : ''))", "a question or the add button"))


def _answer_all(page: Page, deal: dict[str, str]) -> None:
    """Answer a deal's questions as a person would: tap the declarer's name, type the
    amounts (Enter goes on), tap "as bid" / "none" for an empty answer."""
    for key, text in deal.items():
        assert _asked(page) == key
        if key == "declarer":
            page.click(f"#pick-{text}")
        elif text == "":
            page.click("#pick-empty")
        else:
            page.click("#answer")
            page.type(text)
        page.wait(f"!window.tysiacSheet.S.busy && !(document.querySelector('#answer') && "
                  f"document.querySelector('#answer').name === {key!r})", f"the question after {key}")
    assert _asked(page) == "done"


def _enter(page: Page, deal: dict[str, str], n: int) -> None:
    """Answer every question of deal ``n``, then tap "Add deal n"."""
    _answer_all(page, deal)
    assert page.evaluate("document.querySelector('#add-deal').textContent") == f"Add deal {n}"
    page.click("#add-deal")
    page.wait(f"window.tysiacSheet.S.view.deals.length === {n} && !window.tysiacSheet.S.busy", f"deal {n} added")


def _totals(page: Page) -> list[int]:
    return [int(x) for x in page.evaluate("[...document.querySelectorAll('#totals td')].slice(1).map(c => c.textContent)")]


def _expected(deals: list[dict[str, str]], **options: str) -> dict:
    """The service's own sheet of ``deals`` (in memory)."""
    service = ScoresheetService(MemoryStore())
    v = service.create("x", ruleset="pl-standard", players=3, names=NAMES, options=options)["version"]
    view: dict = {}
    for deal in deals:
        view = service.add_deal("x", deal, expected=v)
        v = view["version"]
    return view


def test_a_sheet_on_a_phone_three_deals_an_undo_and_the_read_only_link(server: Server, chromium: Chromium) -> None:
    phone = chromium.page(PHONE)
    phone.goto(server.url + "/")
    phone.wait("document.querySelector('#sheet-link') && document.querySelector('#create-btn')",
               "the start page and its link to the scoresheet")
    assert not phone.overflows()
    phone.screenshot("sheet-start-link-390.png", full=True)
    phone.click("#sheet-link")
    phone.wait("document.querySelector('#sheet-ruleset option[value=\"pl-standard\"]')", "the rulesets")
    assert phone.evaluate("document.querySelector('#sheet-ruleset').value") == "pl-standard"
    for p, name in enumerate(NAMES):
        phone.click(f"#sheet-name-{p}")
        phone.call("Input.insertText", text=name)
    # a table option: a defender's 5 rounds up (Cy's 5 points in deal 1 count 10)
    assert phone.evaluate("document.querySelector('#opt-five_rounds').value") == "down"
    phone.evaluate("(() => { const s = document.querySelector('#opt-five_rounds'); s.value = 'up';"
                   " s.dispatchEvent(new Event('change')); })()")
    assert phone.evaluate("document.querySelector('#sheet-dealer option').textContent") == "Ana"
    assert not phone.overflows()
    phone.screenshot("sheet-new-390.png", full=True)
    phone.click("#start-sheet")
    phone.wait("location.pathname.startsWith('/s/') && location.hash.startsWith('#edit=')", "the edit link")
    assert _asked(phone) == "declarer"
    sheet_id = phone.evaluate("location.pathname.slice(3)")
    assert phone.evaluate("[...document.querySelectorAll('#sheet thead th')].map(c => c.textContent)") == ["#", *NAMES]
    assert phone.evaluate("document.querySelector('.deal-head .who').textContent") == "Ana deals"

    # deal 1, with a wrong bid first: tysiac score's own message, and the answer kept to fix
    phone.click("#pick-1")
    assert _asked(phone) == "bid"
    phone.click("#answer")
    phone.type("105")
    phone.wait("document.querySelector('#answer-error')", "the rejected bid")
    message = phone.evaluate("document.querySelector('#answer-error').textContent")
    assert "105" in message and "10" in message
    assert phone.evaluate("document.querySelector('#answer').value") == "105"
    phone.screenshot("sheet-error-390.png")
    phone.evaluate("document.querySelector('#answer').value = ''")
    phone.click("#answer")
    phone.type("100")
    assert _asked(phone) == "contract"
    # tapping an earlier answer goes back to it
    phone.click("#given-bid")
    assert _asked(phone) == "bid"
    assert phone.evaluate("document.querySelector('#answer').value") == "100"
    phone.click("#next")
    _enter(phone, {k: v for k, v in DEALS[0].items() if k not in ("declarer", "bid")}, 1)
    assert not phone.overflows()

    _enter(phone, DEALS[1], 2)
    _enter(phone, DEALS[2], 3)
    want = _expected(DEALS, five_rounds="up")
    assert _totals(phone) == want["totals"] == [150, -120, 130]
    assert want["totals"] != _expected(DEALS)["totals"]
    rows = phone.evaluate("[...document.querySelectorAll('#sheet tbody tr.deal')].map(r => "
                          "[...r.querySelectorAll('.score')].map(c => Number(c.textContent)))")
    assert rows == [r["scores"] for r in want["rows"]]
    notes = phone.evaluate("[...document.querySelectorAll('#sheet tr.notes td')].map(c => c.textContent)")
    assert notes == ["; ".join(r["notes"]) for r in want["rows"] if r["notes"]]
    assert not phone.overflows()
    phone.screenshot("sheet-three-deals-390.png", full=True)

    # undo: two taps
    phone.click("#undo")
    assert phone.evaluate("document.querySelector('#undo').textContent") == "Tap again to remove deal 3"
    phone.click("#undo")
    phone.wait("window.tysiacSheet.S.view.deals.length === 2 && !window.tysiacSheet.S.busy", "deal 3 removed")
    assert _totals(phone) == _expected(DEALS[:2], five_rounds="up")["totals"] == [30, -120, 130]
    assert phone.evaluate("document.querySelector('#notice').textContent") == "Deal 3 removed."
    assert _asked(phone) == "declarer"

    # the read-only link, in another browser context
    view_url = phone.evaluate("document.querySelector('#view-url').textContent")
    assert view_url == f"{server.url}/s/{sheet_id}"
    other = chromium.page(PHONE)
    other.goto(view_url)
    other.wait("document.querySelector('#totals') && window.tysiacSheet.S.view", "the read-only sheet")
    assert _totals(other) == [30, -120, 130]
    assert other.evaluate("!!document.querySelector('#read-only') && !document.querySelector('#entry') "
                          "&& !document.querySelector('#undo') && !document.querySelector('#import-file')")
    assert other.evaluate("document.querySelector('#export').getAttribute('href')") == \
        f"/api/sheets/{sheet_id}/export?download=1"
    assert not other.overflows()
    other.screenshot("sheet-read-only-390.png", full=True)
    # a script on the read-only page cannot write either
    status = other.evaluate(
        f"fetch('/api/sheets/{sheet_id}/deals/last', {{method: 'DELETE', headers: {{'Content-Type': "
        f"'application/json'}}, body: JSON.stringify({{version: window.tysiacSheet.S.view.version}})}})"
        ".then(r => r.status)")
    assert status == 403

    # the scorekeeper enters deal 3 again; the read-only page follows
    _enter(phone, DEALS[2], 3)
    other.wait("window.tysiacSheet.S.view.deals.length === 3", "the read-only page following the sheet")
    assert _totals(other) == [150, -120, 130]
    # the one failed load: the read-only page's refused DELETE above
    refused = [e for e in other.errors() if "status of 403" not in e]
    assert not (phone.errors() or refused), (phone.errors(), refused)


def test_a_stale_phone_is_told_and_reloaded(server: Server, chromium: Chromium) -> None:
    status, made = server.request("POST", "/api/sheets", {"ruleset": "pl-standard", "players": 3, "names": NAMES})
    assert status == 201
    second = chromium.page(PHONE)
    second.goto(made["edit"])
    second.evaluate("clearInterval(window.tysiacSheet.timer)")  # no poll: the write itself finds out
    _answer_all(second, DEALS[1])
    # meanwhile the first phone adds a deal
    status, _ = server.request("POST", f"/api/sheets/{made['sheet']}/deals",
                               {"version": made["version"], "answers": DEALS[0]}, token=made["edit_token"])
    assert status == 201
    second.click("#add-deal")  # refused (409): the page reloads the sheet and says so
    second.wait("window.tysiacSheet.S.view.deals.length === 1 && !window.tysiacSheet.S.busy", "the sheet reloaded")
    assert second.evaluate("document.querySelector('#notice').textContent") == (
        "Deal not added: the sheet was changed on another phone meanwhile. It has been reloaded; enter deal 2 again.")
    assert _totals(second) == [10, -150, 0]
    assert _asked(second) == "declarer"
    assert not second.overflows()
    second.screenshot("sheet-stale-390.png")
    # entered again, the deal is kept beside the other phone's
    _enter(second, DEALS[1], 2)
    assert _totals(second) == _expected(DEALS[:2])["totals"]
    # in Polish, and on a desktop
    second.evaluate("(() => { const s = document.querySelector('#lang'); s.value = 'pl';"
                    " s.dispatchEvent(new Event('change')); })()")
    assert second.evaluate("document.querySelector('#entry h2').textContent") == "Rozdanie 3"
    # the question comes again from the server, in the page's new language (terms.py's words)
    second.wait("document.querySelector('#entry label').textContent === 'Kto grał?'", "the question in Polish")
    assert second.evaluate("document.querySelector('#prompt').textContent") == (
        "grający (imię lub miejsce od 0 do 2, liczone od 0)")
    assert second.evaluate("document.querySelector('#notice').textContent") == "Dodano rozdanie 2."
    assert not second.overflows()
    second.screenshot("sheet-pl-390.png", full=True)
    desk = chromium.page(DESKTOP)
    desk.goto(made["view"])
    desk.wait("document.querySelector('#totals')", "the sheet on a desktop")
    assert _totals(desk) == _totals(second)
    assert not desk.overflows()
    desk.screenshot("sheet-read-only-1280.png")
    # the one failed load: the refused (409) add
    assert [e for e in second.errors() if "status of 409" not in e] == []


def test_changed_rules_offer_to_go_on_under_them(server: Server, chromium: Chromium) -> None:
    status, made = server.request("POST", "/api/sheets", {"ruleset": "pl-standard", "players": 3, "names": NAMES})
    assert status == 201
    status, _ = server.request("POST", f"/api/sheets/{made['sheet']}/deals",
                               {"version": made["version"], "answers": DEALS[0]}, token=made["edit_token"])
    assert status == 201
    with sqlite3.connect(server.db) as db:  # the rules' scoring changed since the sheet was saved
        text = db.execute("SELECT text FROM scoresheet_texts WHERE key = ?", (made["sheet"],)).fetchone()[0]
        data = json.loads(text)
        data["rules_hash"]["scoring"] = "0" * 16
        db.execute("UPDATE scoresheet_texts SET text = ?, version = ? WHERE key = ?",
                   (json.dumps(data), "changed", made["sheet"]))
    viewer = chromium.page(PHONE)
    viewer.goto(made["view"])
    viewer.wait("/changed \\(scoring\\)/.test(document.querySelector('#notice').textContent)", "the rules' change")
    assert viewer.evaluate("document.querySelector('#new-rules')") is None  # read-only: told, no button
    phone = chromium.page(PHONE)
    phone.goto(made["edit"])
    phone.wait("document.querySelector('#new-rules')", "the offer to go on under the new rules")
    assert not phone.overflows()
    phone.screenshot("sheet-rules-changed-390.png")
    phone.click("#new-rules")
    assert _asked(phone) == "declarer"
    assert _totals(phone) == [10, -150, 0]
    assert phone.evaluate("document.querySelector('#notice').textContent") == (
        "The sheet goes on under the new rules; the deals so far keep their scores.")
    assert "the rules changed after this deal" in phone.evaluate("document.querySelector('#sheet tr.notes').textContent")
    # the next deal by keyboard only: each answer typed, Enter goes on, Enter adds the deal
    phone.click("#answer")
    for text in ("Bo", "110", "", "24 26 70", "2:H"):
        phone.type(text)
        phone.wait("!window.tysiacSheet.S.busy && (document.activeElement.id === 'answer' && "
                   "document.activeElement.value === '' || document.activeElement.id === 'add-deal')",
                   "the focus on the next question")
    assert phone.evaluate("document.activeElement.id") == "add-deal"
    phone.type("")  # Enter
    phone.wait("window.tysiacSheet.S.view.deals.length === 2 && !window.tysiacSheet.S.busy", "deal 2 by keyboard")
    assert phone.evaluate("window.tysiacSheet.S.view.deals[1].declarer") == 1
    assert [e for e in phone.errors() + viewer.errors() if "status of 422" not in e] == []
