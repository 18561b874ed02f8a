"""The web table in headless Chromium: the start page creates a table (shipped ruleset, seats,
links and QR codes) and shows a house file's errors at line:col; two people in two isolated
browser contexts (a phone and a desktop) and a heuristic bot play a whole deal by clicking,
one move typed on the keyboard; a reload in the middle of the deal brings back the same
state; screenshots at 390x844 and 1280x800 under build/screenshots/; no console errors and
no sideways scrolling on the phone."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import CHROMIUM, DESKTOP, PHONE, Chromium, Page, Server

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)"),
]

SEED = 11
HOUSE = "id: my-house\nname: {en: My house}\nextends: pl-standard\nauction:\n  step: 15\n"
"""A house file with a bid step that does not divide the shipped minimum bid (line 5, column 9)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    served = Server(tmp_path_factory.mktemp("serve"), env={"TYSIAC_WEB_SEEDS": "1"})
    yield served
    served.close()


@pytest.fixture(scope="module")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Chromium]:
    browser = Chromium(tmp_path_factory.mktemp("chromium"))
    yield browser
    browser.close()


_STATE = (
    "() => { const s = window.tysiacTable && window.tysiacTable.S;"
    " if (!s || !s.st || s.pending || s.status !== 'open') return null;"
    " return {legal: s.st.legal, version: s.st.version, view: s.st.view, deals: s.st.deals.length,"
    " overlay: !!document.querySelector('#overlay-ok'), seat: s.st.seat}; }"
)
"""A JS function: the table page's last state, or null while it connects or waits for an answer."""


def _state(page: Page) -> Any:
    return page.evaluate(f"({_STATE})()")


def test_start_page_creates_a_table_with_links_and_qr_codes(server: Server, chromium: Chromium) -> None:
    phone = chromium.page(PHONE)
    phone.goto(server.url + "/")
    phone.wait("document.querySelector('#rs-pl-standard') && document.querySelector('#rs-pl-standard').checked",
               "the shipped rulesets, pl-standard chosen")
    # the options of the chosen ruleset are offered with their defaults
    assert phone.evaluate("document.querySelectorAll('.option-row').length") >= 1
    assert not phone.overflows()
    assert _unnamed(phone) == []
    phone.screenshot("start-390.png", full=True)
    # three players: seat 2 a person, seat 3 a random bot
    phone.click("#players-3")
    phone.evaluate("(() => { const s = document.querySelector('#seat-1-kind'); s.value = 'human';"
                   " s.dispatchEvent(new Event('change')); })()")
    phone.wait("document.querySelector('#seat-1-name') && !document.querySelector('#seat-1-name').disabled")
    phone.click("#seat-1-name")
    phone.call("Input.insertText", text="Ola")
    phone.evaluate("(() => { const s = document.querySelector('#seat-2-kind'); s.value = 'bot:random';"
                   " s.dispatchEvent(new Event('change')); })()")
    phone.click("#create-btn")
    phone.wait("document.querySelector('#links')", "the links after creating the table")
    links = phone.evaluate("[...document.querySelectorAll('.link-card')].map(c => c.id)")
    assert links == ["link-host", "link-seat-1", "link-watch"]
    url = phone.evaluate("document.querySelector('#link-seat-1 .url').textContent")
    assert re.fullmatch(re.escape(server.url) + r"/t/[\w-]+#seat=[\w-]{20,}", url)
    assert phone.evaluate("document.querySelector('#link-seat-1 .what').textContent").endswith("Ola")
    phone.click("#link-seat-1 button[aria-expanded]")
    phone.wait("(() => { const i = document.querySelector('#link-seat-1 img.qr');"
               " return i && i.complete && i.naturalWidth > 0; })()", "the QR code")
    assert not phone.overflows()
    assert _unnamed(phone) == []
    phone.screenshot("links-390.png", full=True)
    # the next table starts from this one's choices (in this browser)
    phone.goto(server.url + "/")
    phone.wait("document.querySelector('#seat-1-name')")
    assert phone.evaluate("[0, 1, 2].map(i => [document.querySelector(`#seat-${i}-kind`).value,"
                          " document.querySelector(`#seat-${i}-name`)?.value])") \
        == [["human", ""], ["human", "Ola"], ["bot:random", None]]  # a bot has no name to type
    desk = chromium.page(DESKTOP)
    desk.goto(server.url + "/")
    desk.wait("document.querySelector('#rs-pl-standard')")
    assert not desk.overflows()
    desk.screenshot("start-1280.png")
    assert phone.errors() == []
    assert desk.errors() == []


def test_a_house_file_with_an_error_is_shown_at_line_and_column(
        server: Server, chromium: Chromium, tmp_path: Path) -> None:
    page = chromium.page(PHONE)
    page.goto(server.url + "/")
    page.wait("document.querySelector('#rs-house')")
    page.click("#rs-house")
    page.wait("document.querySelector('#house-text')")
    page.click("#house-text")
    page.call("Input.insertText", text=HOUSE)
    page.click("#house-check")
    text = page.wait("document.querySelector('#house-errors') && document.querySelector('#house-errors').textContent",
                     "the diagnostics")
    status, answer = server.request("POST", "/api/rulesets/check", {"ruleset_text": HOUSE})
    assert status == 200 and answer["ok"] is False
    assert text == "\n\n".join(d["text"] for d in answer["diagnostics"])
    assert text.startswith("house.yaml:5:9: error[auction.step]: `auction.step` is 15, but `auction.min_bid` (100, ")
    assert page.evaluate("document.activeElement.id") == "house-errors"  # focus moves to the errors
    assert not page.overflows()
    page.screenshot("house-error-390.png")
    # the same file chosen from the phone's files: checked at once; a good one says so
    good = tmp_path / "good.yaml"
    good.write_text(HOUSE.replace("step: 15", "step: 20"))
    node = page.call("DOM.getDocument")["root"]["nodeId"]
    node = page.call("DOM.querySelector", nodeId=node, selector="#house-file")["nodeId"]
    page.call("DOM.setFileInputFiles", files=[str(good)], nodeId=node)
    said = page.wait("document.querySelector('#house-ok') && document.querySelector('#house-ok').textContent",
                     "the file to be accepted")
    assert said == "The file is valid. My house"
    assert page.evaluate("document.querySelector('#house-text').value") == good.read_text()
    assert page.evaluate("!!document.querySelector('#house-errors')") is False
    assert page.errors() == []


def _unnamed(page: Page) -> list[str]:
    """Controls and pictures in the page's accessibility tree that a screen reader could not
    name (Chromium's own tree, over CDP)."""
    page.call("Accessibility.enable")
    nodes = page.call("Accessibility.getFullAXTree")["nodes"]
    roles = {"button", "checkbox", "combobox", "textbox", "radio", "image", "img", "link"}
    return [f"{n['role']['value']} "
            + str(page.call("DOM.describeNode", backendNodeId=n["backendDOMNodeId"])["node"].get("attributes"))
            for n in nodes
            if not n.get("ignored") and n.get("role", {}).get("value") in roles
            and not str(n.get("name", {}).get("value", "")).strip()]


def _live_region(page: Page) -> bool:
    page.call("Accessibility.enable")
    nodes = page.call("Accessibility.getFullAXTree")["nodes"]
    return any(n.get("role", {}).get("value") == "log" for n in nodes)


def _still(page: Page) -> None:
    """Wait until no animation runs (a screenshot mid-flight shows a faded card)."""
    page.wait("document.getAnimations().length === 0", "the animations to end")


def _choose(page: Page, st: Any, bid_once: list[bool]) -> None:
    """Make one move on ``page`` by clicking, as a person would."""
    legal: list[str] = st["legal"]
    cards = [a for a in legal if re.match(r"(play|give|discard) ", a)]
    if cards:
        hand: list[str] = st["view"]["hand"]
        card = next(c for c in hand if any(a.split()[1] == c for a in cards))
        page.click(f'#hand button.card.legal[data-card="{card}"]')
        if sum(1 for a in cards if a.split()[1] == card) > 1 or not cards[0].startswith("play "):
            page.click("#card-actions button[data-action]")
        return
    if any(a.startswith("bid ") for a in legal) and not bid_once[0]:
        bid_once[0] = True
        page.click("#actions button.primary[data-action^='bid ']")
        return
    for want in ("pass", "contract"):
        match = [a for a in legal if a.startswith(want)]
        if match:
            page.click(f'#actions button[data-action="{match[0]}"]')
            return
    page.click("#actions button[data-action]")


def test_two_people_and_a_bot_play_a_deal_by_clicking(server: Server, chromium: Chromium) -> None:
    status, table = server.request("POST", "/api/tables", {
        "ruleset": "pl-standard", "players": 3, "seats": ["human", "human", "bot:heuristic"],
        "names": ["Ala", "Ola", None], "seed": SEED, "spectators": True})
    assert status == 201, table
    phone = chromium.page(PHONE)  # Ala, the host, on her phone, which asks for less motion
    phone.call("Emulation.setEmulatedMedia", features=[{"name": "prefers-reduced-motion", "value": "reduce"}])
    desk = chromium.page(DESKTOP)  # Ola at a computer
    phone.goto(table["host"])
    desk.goto(table["seats"][1]["url"])
    # the secret leaves the address bar
    assert "#" not in phone.evaluate("location.href") and "#" not in desk.evaluate("location.href")
    for page in (phone, desk):
        page.wait("window.tysiacTable && window.tysiacTable.S.st", "the first state")
    assert phone.evaluate("document.querySelectorAll('#hand button.card').length") == 7
    # every card has a name a screen reader says: "king of hearts, Bid 100" and the like
    labels = phone.evaluate("[...document.querySelectorAll('#hand button.card')].map(b => b.getAttribute('aria-label'))")
    assert all(re.fullmatch(r"(nine|jack|queen|king|ten|ace) of (hearts|diamonds|clubs|spades)", x) for x in labels)
    # Ala reads the table in Polish
    phone.evaluate("(() => { const s = document.querySelector('#lang'); s.value = 'pl';"
                   " s.dispatchEvent(new Event('change')); })()")
    assert phone.evaluate("document.querySelector('#phase').textContent") == "Licytacja"
    assert phone.evaluate("document.documentElement.lang") == "pl"
    # a watcher sees the table and no hand
    watcher = chromium.page(PHONE)
    watcher.goto(table["watch"])
    watcher.wait("window.tysiacTable && window.tysiacTable.S.st", "the watcher's state")
    assert watcher.evaluate("window.tysiacTable.S.st.view.hand") == []
    assert watcher.evaluate("document.querySelector('.hand-wrap').classList.contains('hidden')") is True
    assert watcher.evaluate("document.querySelectorAll('.seat').length") == 3
    # a dropped socket: a banner, then the page reconnects by itself
    desk.evaluate("window.banners = []; new MutationObserver(() => window.banners.push("
                  "document.querySelector('#banner').classList.contains('hidden') ? '' :"
                  " document.querySelector('#banner').textContent)).observe(document.querySelector('#banner'),"
                  " {attributes: true, childList: true, subtree: true, characterData: true});"
                  " window.tysiacTable.sock.drop()")
    desk.wait("window.tysiacTable.S.status === 'open' && window.banners.length > 1", "the reconnection")
    assert "Connection lost; reconnecting…" in desk.evaluate("window.banners")
    assert desk.evaluate("document.querySelector('#banner').classList.contains('hidden')") is True
    bid_once = [False]
    reloaded = typed = arrowed = False
    flights: dict[str, set[str]] = {"390": set(), "1280": set()}
    flight = "[...document.querySelectorAll('#trick .slot.played svg')].map(s => getComputedStyle(s).animationName)"
    shots: set[str] = set()
    for _ in range(400):
        done = server.get(f"/api/tables/{table['table']}/state", token=table["host_token"])
        if done["deals"]:
            break
        moved = False
        for page, name in ((phone, "390"), (desk, "1280")):
            st = _state(page)
            if st is None:
                continue
            if st["overlay"]:
                page.click("#overlay-ok")
                continue
            view = st["view"]
            flights[name].update(page.evaluate(flight))
            if view["phase"] == "play" and len(view["trick"]) == 1 and f"table-{name}.png" not in shots:
                assert not page.overflows()
                # every control and picture has a name for a screen reader; actions are said in a log
                assert _unnamed(page) == []
                assert _live_region(page)
                assert page.evaluate("[...document.querySelectorAll('button, select, input')].filter(e =>"
                                     " !(e.getAttribute('aria-label') || e.textContent.trim() || e.labels?.length"
                                     " || e.placeholder)).map(e => e.outerHTML.slice(0, 80))") == []
                _still(page)
                page.screenshot(f"table-{name}.png")
                shots.add(f"table-{name}.png")
            if page is desk and not reloaded and view["phase"] == "play" and sum(n for _, n in view["tricks"]) >= 2:
                before = {k: st[k] for k in ("legal", "version", "view")}
                page.wait("!window.tysiacTable.S.hold", "the last trick taken to leave the table")
                slots = "[...document.querySelectorAll('#trick .slot')].map(s => s.dataset.seat + s.dataset.card)"
                shown = page.evaluate(slots)
                page.reload()
                page.wait("window.tysiacTable && window.tysiacTable.S.st && window.tysiacTable.S.status === 'open'",
                          "the state after the reload")
                after = _state(page)
                assert after is not None
                assert {k: after[k] for k in ("legal", "version", "view")} == before
                # the page shows it again: the same hand, the same trick
                assert page.evaluate("[...document.querySelectorAll('#hand button.card')].map(b => b.dataset.card)") \
                    == before["view"]["hand"]
                assert page.evaluate(slots) == shown
                reloaded = True
                moved = True
                continue
            if not st["legal"]:
                continue
            single = [a.split()[1] for a in st["legal"] if a.startswith("play ") and len(a.split()) == 2
                      and sum(1 for b in st["legal"] if b.split()[1:2] == a.split()[1:2]) == 1]
            if page is phone and not arrowed and view["phase"] == "play" and single:
                # by keys alone: the card in the tab order, right and back with the arrows, Enter
                card = page.evaluate("(() => { const b = document.querySelector('#hand button.card[tabindex=\"0\"]');"
                                     " b.focus(); return b.dataset.card; })()")
                if card in single:
                    page.key("ArrowRight", "ArrowRight", 39)
                    assert page.evaluate("document.activeElement.dataset.card") != card
                    page.key("ArrowLeft", "ArrowLeft", 37)
                    assert page.evaluate("document.activeElement.dataset.card") == card
                    page.key("Enter", "Enter", 13)
                    page.wait(f"window.tysiacTable.S.st.version > {st['version']}", "the card played by Enter")
                    assert {"seat": 0, "action": f"play {card}"} in [
                        {k: a[k] for k in ("seat", "action")} for a in page.evaluate("window.tysiacTable.S.st.last")]
                    arrowed = moved = True
                    continue
            if page is desk and not typed and view["phase"] == "play":
                # one move by keyboard: type the card, Enter
                card = next(a.split()[1] for a in st["legal"] if a.startswith("play ") and len(a.split()) == 2)
                page.click("#command")
                # the hand read out, for a screen reader (and shown)
                page.type("h")
                said = page.evaluate("[...document.querySelectorAll('#live p')].at(-1).textContent")
                assert said.startswith("Your hand: ") and len(said.split(", ")) == len(view["hand"])
                assert page.evaluate("document.querySelector('#toast').textContent") == said
                page.type(card)
                typed = True
            else:
                _choose(page, st, bid_once)
            page.wait(f"window.tysiacTable.S.st.version > {st['version']} || window.tysiacTable.S.st.deals.length > 0",
                      "the move to be played")
            moved = True
        if not moved:
            phone.wait("true")
    else:
        pytest.fail("the deal did not end")
    assert reloaded and typed and arrowed
    # a card played flies in, except where the reader asked for less motion
    assert flights["390"] == {"none"}
    assert flights["1280"] and all(x.startswith("fly-in") for x in flights["1280"])
    # the summary of the deal: the score table on screen is the server's
    for page, name in ((phone, "390"), (desk, "1280")):
        page.wait("document.querySelector('#overlay-root table.scores')", "the deal's summary")
        totals = page.evaluate("[...document.querySelectorAll('#overlay-root tr.total td')].slice(1)"
                               ".map(td => Number(td.textContent))")
        assert totals == done["scores"]
        assert sum(abs(x) for x in totals) > 0  # somebody scored
        assert not page.overflows()
        _still(page)
        page.screenshot(f"deal-over-{name}.png")
        page.click("#overlay-ok")
        page.wait("!document.querySelector('#overlay-root .overlay')")
        page.screenshot(f"table-after-deal-{name}.png", full=name == "390")
    watcher.wait("window.tysiacTable.S.st.deals.length === 1", "the watcher to see the deal end")
    assert watcher.evaluate("window.tysiacTable.S.st.view.hand") == []
    assert not watcher.overflows()
    watcher.screenshot("watcher-390.png")
    assert phone.errors() == []
    assert desk.errors() == []
    assert watcher.errors() == []


def test_legal_actions_are_sorted_and_typed_commands_resolved(server: Server, chromium: Chromium) -> None:
    """static/js/actions.js, run in the page: what the page offers for a legal list, and what
    a typed command sends (only texts of the list, never one of its own)."""
    page = chromium.page(PHONE)
    page.goto(server.url + "/")
    legal = ["bid 110", "bid 120", "pass", "play QH", "play QH marriage", "play TH", "give 9S to 2",
             "marriage hearts", "contra", "bid misere"]
    got = page.evaluate(
        "import('/static/js/actions.js').then(m => { const L = LEGAL; const c = m.classify(L);"
        " return {bids: c.bids.map(x => x.n), named: c.named.map(x => x.kind), cards: [...c.byCard.entries()]"
        ".map(([k, v]) => [k, v.map(a => a.text)]), marriages: c.marriages.map(x => x.suit), buttons: c.buttons,"
        " typed: ['qh', 'QH marriage', 'q♥ marriage', '120', '10h', 'T♥', 'pass', ' PASS ', 'ks', 'hearts', '9S',"
        " 'give 9s to 2', '130', 'bid misere', 'misere', ''].map(x => m.resolveCommand(x, L))}; })"
        .replace("LEGAL", json.dumps(legal)))
    assert got["bids"] == [110, 120]
    assert got["named"] == ["misere"]
    assert got["cards"] == [["QH", ["play QH", "play QH marriage"]], ["TH", ["play TH"]], ["9S", ["give 9S to 2"]]]
    assert got["marriages"] == ["hearts"]
    assert got["buttons"] == ["pass", "contra"]
    assert got["typed"] == [
        {"card": "QH"}, {"action": "play QH marriage"}, {"action": "play QH marriage"}, {"action": "bid 120"},
        {"action": "play TH"}, {"action": "play TH"}, {"action": "pass"}, {"action": "pass"}, None,
        {"action": "marriage hearts"}, {"action": "give 9S to 2"}, {"action": "give 9S to 2"}, None,
        {"action": "bid misere"}, {"action": "bid misere"}, None,
    ]
    assert page.errors() == []


def _play_to_the_end(server: Server, table: dict[str, Any]) -> dict[str, Any]:
    """Play the human seat by the HTTP API (the first legal action each time) until the match
    is over; the bots answer on the server."""
    path = f"/api/tables/{table['table']}"
    token = table["host_token"]
    state = server.get(path + "/state", token=token)
    for _ in range(3000):
        if state["over"]:
            return dict(state)
        assert state["legal"], state
        legal = state["legal"]
        action = "pass" if "pass" in legal else legal[0]
        status, state = server.request("POST", path + "/actions", {"version": state["version"], "action": action},
                                       token=token)
        assert status == 200, state
    pytest.fail("the match did not end")


def test_match_over_shows_the_winner_and_the_host_starts_a_rematch(server: Server, chromium: Chromium) -> None:
    status, table = server.request("POST", "/api/tables", {
        "ruleset": "pl-standard", "players": 3, "seats": ["human", "bot:heuristic", "bot:heuristic"],
        "names": ["Ala", None, None], "seed": SEED})
    assert status == 201, table
    final = _play_to_the_end(server, table)
    page = chromium.page(PHONE)
    page.goto(table["host"])
    page.wait("document.querySelector('#rematch')", "the match-over sheet with the rematch button")
    winners = page.evaluate("[...document.querySelectorAll('#overlay-root p.ok')].map(p => p.textContent)")
    names = {0: "Ala", 1: "heuristic 2", 2: "heuristic 3"}
    assert winners == [f"Winner: {names[w]}" for w in final["winners"]]
    rows = page.evaluate("document.querySelectorAll('#overlay-root tbody tr:not(.total)').length")
    assert rows == len(final["deals"]) > 1
    totals = page.evaluate("[...document.querySelectorAll('#overlay-root tr.total td')].slice(1)"
                           ".map(td => Number(td.textContent))")
    assert totals == final["scores"]
    assert not page.overflows()
    page.screenshot("match-over-390.png")
    # the record of the finished match, for `tysiac replay`
    record = page.evaluate(f"fetch('/api/tables/{table['table']}/record', {{headers: {{Authorization:"
                           f" 'Bearer {table['host_token']}'}}}}).then(r => r.status)")
    assert record == 200
    assert page.evaluate("!!document.querySelector('#overlay-root #record')")
    page.click("#rematch")
    page.wait("window.tysiacTable.S.st.match === 2 && !document.querySelector('#overlay-root .overlay')",
              "the rematch")
    assert page.evaluate("window.tysiacTable.S.st.deals.length") == 0
    assert page.evaluate("document.querySelectorAll('#hand button.card').length") == 7
    assert page.errors() == []


def test_chat_is_text_and_a_refused_action_is_told_while_the_socket_stays(server: Server, chromium: Chromium) -> None:
    status, table = server.request("POST", "/api/tables", {
        "ruleset": "pl-standard", "players": 3, "seats": ["human", "human", "bot:random"], "seed": SEED})
    assert status == 201, table
    one, two = chromium.page(PHONE), chromium.page(PHONE)
    one.goto(table["host"])
    two.goto(table["seats"][1]["url"])
    for page in (one, two):
        page.wait("window.tysiacTable && window.tysiacTable.S.status === 'open' && window.tysiacTable.S.st")
    two.evaluate("document.querySelector('#chat-box').open = true")
    two.click("#chat-input")
    two.type("<b>hi</b> & <img src=x onerror=alert(1)>")
    one.wait("document.querySelectorAll('#chat-log li').length === 1", "the chat line")
    assert one.evaluate("document.querySelector('#chat-log li').textContent") \
        == "Player 2: <b>hi</b> & <img src=x onerror=alert(1)>"
    assert one.evaluate("document.querySelectorAll('#chat-log b, #chat-log img').length") == 0
    # an action the server refuses: a message in words, the socket stays open and usable
    one.evaluate("window.tysiacTable.sock.send({type: 'act', v: window.tysiacTable.S.st.version, a: 'play QH'})")
    toast = one.wait("!document.querySelector('#toast').classList.contains('hidden')"
                     " && document.querySelector('#toast').textContent", "the refusal")
    assert toast.startswith("`play QH`") and "hands=" not in toast  # the server's words, never the deal
    assert one.evaluate("window.tysiacTable.S.status") == "open"
    # Ola renames her seat; the host switches the chat off, and Ola's chat box goes
    two.evaluate("document.querySelector('#tools-box').open = true")
    two.click("#rename")
    two.evaluate("document.querySelector('#rename').select()")
    two.type("Ola")
    one.wait("document.querySelector('#seat-1 .nm') && document.querySelector('#seat-1 .nm').textContent === 'Ola'",
             "the new name")
    one.evaluate("document.querySelector('#tools-box').open = true")
    one.click("#set-chat")
    two.wait("document.querySelector('#chat-box').classList.contains('hidden')", "the chat to go")
    legal, version = one.evaluate("[window.tysiacTable.S.st.legal, window.tysiacTable.S.st.version]")
    assert legal
    one.click(f'#actions button[data-action="{legal[0]}"]')
    one.wait(f"window.tysiacTable.S.st.version > {version}", "the move")
    # Ola opens her link on another device: the older page says so and can take the seat back
    three = chromium.page(PHONE)
    three.goto(table["seats"][1]["url"])
    three.wait("window.tysiacTable && window.tysiacTable.S.status === 'open'")
    two.wait("window.tysiacTable.S.status === 'closed' && window.tysiacTable.S.closeCode === 4409", "the 4409 close")
    assert two.evaluate("document.querySelector('#banner').firstChild.textContent") \
        == "This seat was opened in another tab or device."
    two.click("#banner button")
    two.wait("window.tysiacTable.S.status === 'open'", "the seat taken back")
    three.wait("window.tysiacTable.S.closeCode === 4409", "the other device to let go")
    assert one.errors() == [] and two.errors() == [] and three.errors() == []


def test_a_server_restart_mid_deal_brings_the_page_back_by_itself(
        tmp_path: Path, chromium: Chromium) -> None:
    served = Server(tmp_path, env={"TYSIAC_WEB_SEEDS": "1"})
    try:
        status, table = served.request("POST", "/api/tables", {
            "ruleset": "pl-standard", "players": 3, "seats": ["human", "bot:heuristic", "bot:heuristic"],
            "seed": SEED})
        assert status == 201, table
        page = chromium.page(PHONE)
        page.goto(table["host"])
        bid_once = [False]
        for _ in range(60):
            st = page.wait(f"({_STATE})()", "the state")
            if st["view"]["phase"] == "play" and sum(n for _, n in st["view"]["tricks"]) >= 1 and st["legal"]:
                break
            if st["overlay"]:
                page.click("#overlay-ok")
                continue
            _choose(page, st, bid_once)
            page.wait(f"window.tysiacTable.S.st.version > {st['version']}", "the move")
        else:
            pytest.fail("no trick was taken")
        page.wait("!window.tysiacTable.S.hold")
        before = page.evaluate("JSON.stringify([window.tysiacTable.S.st.view, window.tysiacTable.S.st.legal,"
                               " window.tysiacTable.S.st.version])")
        page.evaluate("window.banners = []; new MutationObserver(() => window.banners.push("
                      "document.querySelector('#banner').textContent)).observe(document.querySelector('#banner'),"
                      " {attributes: true, childList: true, subtree: true, characterData: true})")
        served.restart()
        page.wait("window.banners.includes('Connection lost; reconnecting…')"
                  " && window.tysiacTable.S.status === 'open'", "the page to reconnect")
        assert page.evaluate("document.querySelector('#banner').classList.contains('hidden')") is True
        after = page.evaluate("JSON.stringify([window.tysiacTable.S.st.view, window.tysiacTable.S.st.legal,"
                              " window.tysiacTable.S.st.version])")
        assert after == before
        # and play goes on, here with a card played by two taps (a setting for small screens)
        page.evaluate("document.querySelector('#tools-box').open = true")
        page.click("#tap-twice")
        st = page.wait(f"({_STATE})()", "the state")
        card = next(a.split()[1] for a in st["legal"] if a.startswith("play "))
        page.click(f'#hand button.card.legal[data-card="{card}"]')
        assert page.evaluate("window.tysiacTable.S.selected") == card
        assert page.evaluate("window.tysiacTable.S.st.version") == st["version"]  # not played yet
        page.click(f'#hand button.card.legal[data-card="{card}"]')
        page.wait(f"window.tysiacTable.S.st.version > {st['version']}", "a move after the restart")
        # while the server was down the browser said it could not connect; nothing else went wrong
        assert [e for e in page.errors() if "WebSocket connection to" not in e] == []
    finally:
        served.close()


def _act_by_ui(page: Page, action: str) -> None:
    """Do ``action`` (a text of ``legal``) the way a person would: tap its card and, when the
    card has several actions, the button of this one; or pick it in the list; or its button."""
    words = action.split()
    card = page.evaluate(f"document.querySelector('#hand button.card.legal[data-card=\"{words[1]}\"]') ? true : false") \
        if len(words) > 1 else False
    if card and words[0] in ("play", "give", "discard"):
        page.click(f'#hand button.card.legal[data-card="{words[1]}"]')
        if page.evaluate("!!document.querySelector('#card-actions')"):
            page.click(f'#card-actions button[data-action="{action}"]')
        return
    if page.evaluate(f"!!document.querySelector('#actions button[data-action=\"{action}\"]')"):
        page.click(f'#actions button[data-action="{action}"]')
        return
    page.evaluate(f"(() => {{ const s = document.querySelector('#more-amounts'); s.value = {json.dumps(action)};"
                  " s.dispatchEvent(new Event('change')); })()")


HOUSE_FILES = ["contra", "rebuy", "misere", "open-hand", "claim", "marriage-from-hand", "blind-dark"]


@pytest.mark.parametrize("name", HOUSE_FILES)
def test_a_house_file_deal_offers_exactly_the_legal_actions(name: str, server: Server, chromium: Chromium) -> None:
    """A whole deal of a house file (contra, re-buy, named contracts, an open hand, claims,
    marriages declared from the hand, the dark game): at each turn the page offers exactly the
    server's legal actions, and a random one of them is done by tapping."""
    import random

    text = (Path(__file__).resolve().parents[2] / "examples" / "house" / f"{name}.yaml").read_text()
    status, table = server.request("POST", "/api/tables", {
        "ruleset_text": text, "players": 3, "seats": ["human", "bot:heuristic", "bot:random"], "seed": SEED})
    assert status == 201, table
    page = chromium.page(PHONE)
    page.goto(table["host"])
    chooser = random.Random(name)
    kinds: set[str] = set()
    for _ in range(400):
        st = page.wait(f"({_STATE})()", "the state")
        if st["deals"] >= 2:
            break
        if st["overlay"]:
            page.click("#overlay-ok")
            continue
        if not st["legal"]:
            page.wait(f"window.tysiacTable.S.st.version > {st['version']} || window.tysiacTable.S.st.deals.length",
                      "the others to move")
            continue
        assert page.evaluate("window.tysiacTable.offered()") == sorted(st["legal"])
        legal = st["legal"]
        rare = [a for a in legal if a.split()[0] not in ("bid", "pass", "play", "give", "discard", "contract", "forfeit")
                or re.fullmatch(r"bid \D+|play \w+ \w+", a)]
        bids = [a for a in legal if a.startswith("bid ")]
        # the house rule's own actions first; bid, so as to be the declarer now and then
        action = rare[0] if rare else bids[0] if bids and chooser.random() < 0.8 else chooser.choice(legal)
        kinds.add(" ".join(w for w in action.split() if not re.fullmatch(r"\w\w|\d+", w)))
        _act_by_ui(page, action)
        page.wait(f"window.tysiacTable.S.st.version > {st['version']} || window.tysiacTable.S.st.deals.length",
                  f"`{action}` to be played")
    else:
        pytest.fail("the deal did not end")
    assert not page.overflows()
    assert page.errors() == []
    if name in RARE:
        assert kinds & RARE[name], sorted(kinds)  # the house rule's own action was offered and tapped


RARE = {"contra": {"contra", "redouble"}, "misere": {"bid misere"}, "open-hand": {"bid open"}}
"""The house rule's own action, reached with this seed and the choices above (re-buy, claims,
marriages from the hand and the dark game are not reached in two deals; their deals still check
that the page offers exactly the legal actions)."""


def test_a_host_who_only_watches_gets_every_seat_link_and_the_host_tools(
        server: Server, chromium: Chromium) -> None:
    page = chromium.page(DESKTOP)
    page.goto(server.url + "/")
    page.wait("document.querySelector('#host-seat')")
    page.evaluate("(() => { const s = document.querySelector('#seat-1-kind'); s.value = 'human';"
                  " s.dispatchEvent(new Event('change')); })()")
    page.wait("document.querySelector('#host-seat option[value=\"1\"]')")
    page.evaluate("(() => { const s = document.querySelector('#host-seat'); s.value = 'watch';"
                  " s.dispatchEvent(new Event('change')); })()")
    page.click("#create-btn")
    page.wait("document.querySelector('#links')")
    assert page.evaluate("[...document.querySelectorAll('.link-card')].map(c => c.id)") \
        == ["link-host", "link-seat-0", "link-seat-1", "link-watch"]
    page.click("#link-host a.btn")
    page.wait("window.tysiacTable && window.tysiacTable.S.st", "the host's table")
    assert page.evaluate("window.tysiacTable.S.st.seat") is None
    assert page.evaluate("window.tysiacTable.S.welcome.host") is True
    assert page.evaluate("document.querySelector('.hand-wrap').classList.contains('hidden')") is True
    assert page.evaluate("!!document.querySelector('#set-chat') && !!document.querySelector('#set-spectators')")
    assert not page.overflows()
    page.screenshot("host-watching-1280.png")
    assert page.errors() == []


def test_a_wrong_link_says_so_and_does_not_retry(server: Server, chromium: Chromium) -> None:
    status, table = server.request("POST", "/api/tables", {
        "ruleset": "pl-standard", "players": 3, "seats": ["human", "bot:random", "bot:random"], "seed": SEED})
    assert status == 201, table
    page = chromium.page(PHONE)
    page.goto(f"{server.url}/t/{table['table']}#seat=not-a-real-secret-0123456789")
    page.wait("window.tysiacTable && window.tysiacTable.S.status === 'closed'", "the refusal")
    assert page.evaluate("window.tysiacTable.S.closeCode") == 4401
    assert page.evaluate("document.querySelector('#banner').textContent") \
        == "This link opens no seat at this table. Open the link you were sent."
    assert page.evaluate("window.tysiacTable.S.st") is None
    # no table at all
    page.goto(f"{server.url}/t/nosuchtable#seat=not-a-real-secret-0123456789")
    page.wait("window.tysiacTable && window.tysiacTable.S.status === 'closed'", "the refusal")
    assert page.evaluate("window.tysiacTable.S.closeCode") == 4404
    assert page.evaluate("document.querySelector('#banner').textContent") == "There is no such table."
    assert not page.overflows()
    assert page.errors() == []
