"""The house-rule workbench (/w) in headless Chromium (issue 27, item 6): three controls changed
by clicking and choosing write exactly the house YAML and change the Polish rule book and the
comparison; a mistake typed into the YAML shows ``tysiac validate``'s error at its line and
moves the form; the downloaded file passes ``tysiac validate``; a saved link opens the same
rules on a phone; "Play it" starts a table with bots on the file.  Screenshots at 390 and
1280 px under build/screenshots/; no console errors, no sideways scrolling on the phone."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser import CHROMIUM, DESKTOP, PHONE, WAIT, Chromium, Page, Server

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)"),
]

ROOT = Path(__file__).resolve().parents[2]

HOUSE = """\
id: my-house
kind: house
extends: pl-standard
name:
  en: My house rules
match:
  finishing:
    cap: 980
special:
  barrel:
    enabled: true
options:
  five_rounds:
    default: up
"""
"""What the form writes after the three changes (and nothing of the base)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    served = Server(tmp_path_factory.mktemp("serve"))
    yield served
    served.close()


@pytest.fixture(scope="module")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Chromium]:
    browser = Chromium(tmp_path_factory.mktemp("chromium"))
    yield browser
    browser.close()


def _text(page: Page, selector: str) -> str:
    return str(page.evaluate(f"document.querySelector({json.dumps(selector)})?.textContent || ''"))


def _yaml(page: Page) -> str:
    return str(page.evaluate("document.querySelector('#yaml').value"))


def _choose(page: Page, path: str, value: str) -> None:
    """Pick ``value`` in the <select> of the rule ``path`` (a list opens outside the page in
    headless Chromium: the choice is made as the keyboard makes it, then `change`)."""
    page.evaluate(
        f"(() => {{ const s = document.querySelector('[data-path={json.dumps(path)}]'); s.focus();"
        f" s.value = {json.dumps(value)}; s.dispatchEvent(new Event('change')); }})()"
    )


def _open(page: Page, url: str, lang: str) -> None:
    page.goto(url)
    page.evaluate(f"localStorage.setItem('tysiac.lang', {json.dumps(lang)})")
    page.goto(url)
    page.wait("document.body.dataset.ready === '1' && document.querySelector('#status.ok')"
              " && document.querySelector('#book h1')", "the workbench, checked, with its rule book")


def test_three_controls_write_the_yaml_and_change_the_book(server: Server, chromium: Chromium, tmp_path: Path) -> None:
    page = chromium.page(DESKTOP)
    _open(page, server.url + "/w", "pl")
    assert _text(page, "h1") == "Warsztat zasad domowych"
    assert _text(page, "legend") == "Gracze i rozdanie"  # the rule book's sections, in its words
    # the table options in terms.py's words, not their ids
    assert _text(page, 'label[title="options.five_rounds"]') == "Zaokrąglanie wyniku obrońcy kończącego się na 5"
    assert page.evaluate("Array.from(document.querySelector('[data-path=\"options.five_rounds\"]').options)"
                         ".map(o => o.textContent)") == ["w dół (25 → 20) (down)", "w górę (25 → 30) (up)"]
    assert "ustawia opcja stołu “Licytacja stopniowana (tylko o 10)”" in _text(page, "#form")
    assert _text(page, '[data-row="auction.cap"] .wb-per-count') == (
        "2 graczy: — brak — · 3 graczy: 360 · 4 graczy: 360 (baza ustala to osobno dla liczby graczy; ta kontrolka"
        " tego nie zmienia: wpisz players.2.auction.cap w YAML)")
    assert "Cel gry" not in _text(page, "#diff")
    book_before = _text(page, "#book")

    # 1. a yes/no rule, by a real click
    page.click('[data-path="special.barrel.enabled"]')
    page.wait("document.querySelector('#yaml').value.includes('enabled: true')", "the barrel in the YAML")
    # 2. a number, typed
    page.evaluate("document.querySelector('[data-path=\"match.finishing.cap\"]').select()")
    page.click('[data-path="match.finishing.cap"]')
    page.evaluate("document.querySelector('[data-path=\"match.finishing.cap\"]').select()")
    page.type("980")
    # 3. a table option, chosen
    _choose(page, "options.five_rounds", "up")
    page.wait(f"document.querySelector('#yaml').value === {json.dumps(HOUSE)}", "exactly the house YAML")
    page.wait("document.querySelector('#status.ok') && document.querySelector('#diff [data-path=\"match.finishing.cap\"]')",
              "the comparison with the new cap")
    diff = page.evaluate(
        "Array.from(document.querySelectorAll('#diff tbody tr')).map(r => [r.dataset.path,"
        " Array.from(r.querySelectorAll('td')).map(c => c.textContent)])"
    )
    rows = dict((p, cells) for p, cells in diff)
    assert rows["match.finishing.cap"] == ["990", "980"]
    assert "special.barrel.enabled" in rows
    page.wait("document.querySelector('#book').textContent.includes('Beczka')"
              f" && document.querySelector('#book').textContent !== {json.dumps(book_before)}", "the new rule book")
    book = _text(page, "#book")
    # the option in force, in words (terms.option_setting), since the "words" merge
    assert "“Zaokrąglanie wyniku obrońcy kończącego się na 5”: w górę (25 → 30)" in book and "980" in book
    assert page.evaluate("document.querySelectorAll('.wb-row.changed').length") == 3
    page.screenshot("workbench-1280.png")
    page.evaluate("document.querySelector('#book').scrollIntoView()")
    page.screenshot("workbench-1280-book.png")

    # a mistake typed in the YAML: the error at its line, the form follows the YAML
    page.evaluate("(() => { const t = document.querySelector('#yaml'); t.focus();"
                  " t.setSelectionRange(t.value.length, t.value.length); })()")
    page.call("Input.insertText", text="auction:\n  step: 15\n")
    line = HOUSE.count("\n") + 2
    page.wait("document.querySelector('#errors li')", "the error list")
    first = _text(page, "#errors li")
    assert first.startswith(f"house.yaml:{line}:9: error[auction.step]: `auction.step` is 15, but `auction.min_bid`"), first
    page.wait("document.querySelector('[data-path=\"auction.step\"]').value === '15'", "the form following the YAML")
    page.click("#errors li")  # the error's line selected in the file
    selected = page.evaluate("(() => { const t = document.querySelector('#yaml');"
                             " return t.value.slice(t.selectionStart, t.selectionEnd); })()")
    assert selected == "  step: 15"
    page.evaluate("document.querySelector('#yaml').scrollIntoView()")
    page.screenshot("workbench-1280-error.png")
    assert "house.yaml" in _text(page, '[data-row="auction.step"] .wb-err') or _text(page, "#status.bad")

    # the mistake undone: download the file, tysiac validate accepts it unchanged
    page.evaluate(f"(() => {{ const t = document.querySelector('#yaml'); t.value = {json.dumps(HOUSE)};"
                  " t.dispatchEvent(new Event('input')); })()")
    page.wait("document.querySelector('#status.ok') && !document.querySelector('#errors li')", "no errors again")
    folder = tmp_path / "downloads"
    folder.mkdir()
    page.call("Page.setDownloadBehavior", behavior="allow", downloadPath=str(folder))
    page.click("#download")
    target = folder / "my-house.yaml"
    deadline = time.monotonic() + WAIT
    while not target.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert target.read_text(encoding="utf-8") == HOUSE
    done = subprocess.run([sys.executable, "-m", "tysiac_spec", "validate", str(target)], cwd=tmp_path,
                          capture_output=True, text=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok  my-house")

    # saved under a link, opened again on a phone
    page.click("#save")
    link = page.wait("document.querySelector('#saved-link')?.href", "the saved link")
    assert link.startswith(server.url + "/w/")
    phone = chromium.page(PHONE)
    _open(phone, link, "pl")
    assert phone.evaluate("document.querySelector('#yaml').value") == HOUSE
    assert phone.evaluate("document.querySelector('[data-path=\"match.finishing.cap\"]').value") == "980"
    assert phone.evaluate("document.querySelector('[data-path=\"special.barrel.enabled\"]').checked") is True
    assert not phone.overflows()
    widest = phone.evaluate("Math.max(...Array.from(document.querySelectorAll('#app input, #app select,"
                            " #app textarea, #app button')).map(e => e.getBoundingClientRect().right))")
    assert widest <= PHONE[0]  # every control on the screen, none cut off at the right
    phone.screenshot("workbench-390.png")
    phone.evaluate("document.querySelector('#yaml').scrollIntoView()")
    phone.screenshot("workbench-390-yaml.png")
    assert page.errors() == [] and phone.errors() == []


def test_play_it_starts_a_table_with_bots_on_the_house_file(server: Server, chromium: Chromium) -> None:
    page = chromium.page(DESKTOP)
    _open(page, server.url + "/w", "en")
    page.click('[data-path="special.barrel.enabled"]')
    page.wait("document.querySelector('#yaml').value.includes('enabled: true')"
              " && document.querySelector('#status.ok')", "the changed file, checked")
    page.click("#play")
    page.wait("location.pathname.startsWith('/t/') && window.tysiacTable && window.tysiacTable.S.st"
              " && window.tysiacTable.S.welcome", "the table with its first state")
    welcome = page.evaluate("window.tysiacTable.S.welcome")
    assert welcome["ruleset"]["id"] == "my-house" and welcome["players"] == 3
    seats = page.evaluate("window.tysiacTable.S.st.seats.map(s => s.kind)")
    assert seats == ["human", "bot", "bot"]
    assert page.errors() == []


def test_study_it_shows_progress_then_the_figures(server: Server, chromium: Chromium) -> None:
    page = chromium.page(DESKTOP)
    _open(page, server.url + "/w", "en")
    page.click('[data-path="special.barrel.enabled"]')
    page.wait("document.querySelector('#yaml').value.includes('enabled: true')"
              " && document.querySelector('#status.ok')", "the changed file, checked")
    page.evaluate("document.querySelector('#study-matches').value = '2'")
    page.click("#study")
    page.wait("!document.querySelector('#study-progress').hidden", "the progress bar")
    page.wait("document.querySelector('#study-table')", "the study's figures")
    heads = page.evaluate("Array.from(document.querySelectorAll('#study-table thead th')).map(t => t.textContent)")
    assert heads == ["Figure", "pl-standard", "my-house", "p"]
    assert page.evaluate("document.querySelector('#study-progress').value") == 4
    assert _text(page, "#study-status") == "Done: 2 matches each"
    link = page.evaluate("document.querySelector('#study-link').href")
    assert link.startswith(server.url + "/studies/")
    page.evaluate("document.querySelector('#study-result').scrollIntoView()")
    page.screenshot("workbench-1280-study.png")
    assert page.errors() == []


def test_an_uploaded_file_fills_the_form_and_keeps_its_extras(server: Server, chromium: Chromium,
                                                              tmp_path: Path) -> None:
    text = (ROOT / "rulesets" / "house-five-up.yaml").read_text(encoding="utf-8")
    upload = tmp_path / "house-five-up.yaml"
    upload.write_text(text, encoding="utf-8")
    page = chromium.page(DESKTOP)
    _open(page, server.url + "/w", "en")
    root = page.call("DOM.getDocument")["root"]["nodeId"]
    node = page.call("DOM.querySelector", nodeId=root, selector="#upload")["nodeId"]
    page.call("DOM.setFileInputFiles", nodeId=node, files=[str(upload)])
    page.wait(f"document.querySelector('#yaml').value === {json.dumps(text)}", "the uploaded file")
    page.wait("document.querySelector('[data-path=\"options.graduated_auction\"]').checked"
              " && document.querySelector('[data-path=\"options.five_rounds\"]').value === 'up'"
              " && document.querySelector('#house-id').value === 'house-five-up'", "the form from the file")
    page.wait("document.querySelector('#status.ok')", "the file checked")
    page.click('[data-path="special.barrel.enabled"]')
    page.wait("document.querySelector('#yaml').value.includes('barrel:')", "the form's change in the YAML")
    written = _yaml(page)
    assert "description:\n  en: " in written and "five_rounds:\n    reason: " in written  # kept
    assert "graduated_auction:\n    reason: " in written and "    default: true" in written
    assert page.errors() == []
