"""The static site (`tysiac build`): every page present, every local link resolves, no
external resources, and the pages load in a real headless browser without console errors.

The browser test drives Debian's chromium through the DevTools protocol (websocket-client)
and saves screenshots of the index and of one rule book under build/screenshots/ (the
paths are printed).  It is skipped only when chromium is not installed; .ci/run installs it.
"""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
import time
import urllib.request
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
from click.testing import CliRunner

from tysiac_spec.cli import main
from tysiac_spec.docs.terms import LANGS
from tysiac_spec.ruleset import registry

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOTS = ROOT / "build" / "screenshots"
HOUSE = (
    "id: my-table\nkind: house\nextends: pl-standard\nname: {en: Our table}\n"
    "options:\n  graduated_auction: {default: true}\n"
)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("site")
    house = tmp / "my-table.yaml"
    house.write_text(HOUSE, encoding="utf-8")
    out = tmp / "site"
    result = CliRunner().invoke(main, ["build", "-o", str(out), "--rulesets", str(house)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"built {out}/index.html: ")
    return out


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[tuple[str, str, str]] = []  # (tag, attribute, url)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name == "id" and value:
                self.ids.add(value)
            if name in ("href", "src") and value is not None:
                self.links.append((tag, name, value))


def _parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def check_site(root: Path) -> list[str]:
    """Problems of a built site: broken local links or anchors, external resources."""
    problems: list[str] = []
    pages = {p: _parse(p) for p in root.rglob("*.html")}
    for path, page in pages.items():
        for tag, _attr, url in page.links:
            parts = urlsplit(url)
            if parts.scheme in ("http", "https"):
                if tag != "a":
                    problems.append(f"{path.relative_to(root)}: external resource {url}")
                continue
            if parts.scheme:
                problems.append(f"{path.relative_to(root)}: unexpected link {url}")
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if not target.is_file():
                problems.append(f"{path.relative_to(root)}: broken link {url}")
            elif parts.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else _parse(target).ids
                if unquote(parts.fragment) not in ids:
                    problems.append(f"{path.relative_to(root)}: no anchor #{parts.fragment} in {url}")
    return problems


def expected_pages() -> list[str]:
    ids = [e.id for e in registry.entries()] + ["my-table"]
    pages = ["index.html", "compare.html", "compare-full.html", "dsl.html"]
    pages += [f"rules/{i}.{lang}.{ext}" for i in ids for lang in LANGS for ext in ("html", "md")]
    return pages


def test_every_page_is_built(site: Path) -> None:
    missing = [p for p in expected_pages() if not (site / p).is_file()]
    assert missing == []
    index = (site / "index.html").read_text(encoding="utf-8")
    for page in expected_pages():
        if page.endswith(".html") and page != "index.html":
            assert f'href="{page}"' in index  # every page is reachable from the index
    assert 'href="rules/my-table.pl.html"' in index  # the house rule file given with --rulesets
    assert "<h1>The rules DSL</h1>" in (site / "dsl.html").read_text(encoding="utf-8")


@pytest.mark.slow  # reads every page of the site
def test_no_broken_links_and_no_external_resources(site: Path) -> None:
    assert check_site(site) == []


@pytest.mark.slow  # copies the site
def test_link_check_finds_a_missing_page_and_a_broken_anchor(site: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(site, broken)
    (broken / "rules" / "ru-online.cs.html").unlink()
    page = broken / "compare.html"
    page.write_text(page.read_text(encoding="utf-8").replace('href="index.html"', 'href="index.html#nowhere"', 1),
                    encoding="utf-8")
    problems = check_site(broken)
    assert "index.html: broken link rules/ru-online.cs.html" in problems
    assert "compare.html: no anchor #nowhere in index.html#nowhere" in problems


def test_build_refuses_to_replace_a_foreign_directory(tmp_path: Path) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", "-o", str(tmp_path / "mine")])
    assert result.exit_code != 0
    assert "is not a site built by `tysiac build`" in result.output
    assert (tmp_path / "mine" / "notes.txt").read_text(encoding="utf-8") == "keep me"


def test_build_into_a_place_it_cannot_write_is_a_clean_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", "-o", str(blocker / "site")])
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: cannot write the site to {blocker / 'site'}: ")
    assert isinstance(result.exception, SystemExit)  # a clean exit, not an exception


# --------------------------------------------------------------------------- browser

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--remote-debugging-port=0", "--remote-allow-origins=*",
]


class Browser:
    """A headless chromium driven through the DevTools protocol: load pages, collect console
    errors, take screenshots."""

    def __init__(self, profile: Path) -> None:
        import websocket  # the `test` extra: websocket-client

        self.proc = subprocess.Popen(
            [str(CHROMIUM), *FLAGS, f"--user-data-dir={profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 60
        while not (port_file.exists() and port_file.read_text().strip()):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.close()
                raise RuntimeError("chromium did not start")
            time.sleep(0.1)
        port = int(port_file.read_text().split()[0])
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=30) as resp:
            targets = json.load(resp)
        url = next(t["webSocketDebuggerUrl"] for t in targets if t["type"] == "page")
        self.ws = websocket.create_connection(url, timeout=60, suppress_origin=True)
        self.next_id = 0
        self.events: list[dict[str, Any]] = []
        for method in ("Page.enable", "Runtime.enable", "Log.enable"):
            self.call(method)
        # a phone-sized screen
        self.call("Emulation.setDeviceMetricsOverride", width=390, height=844, deviceScaleFactor=1, mobile=True)

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self.next_id:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return dict(msg.get("result", {}))
            self.events.append(msg)

    def wait_for(self, method: str) -> None:
        while not any(e.get("method") == method for e in self.events):
            self.events.append(json.loads(self.ws.recv()))

    def load(self, path: Path) -> list[str]:
        """Open a page; return its console errors, uncaught exceptions and failed loads."""
        self.events = []
        self.call("Page.navigate", url=path.as_uri())
        self.wait_for("Page.loadEventFired")
        self.call("Runtime.evaluate", expression="1")  # let pending console events arrive
        errors = []
        for e in self.events:
            method, params = e.get("method"), e.get("params", {})
            if method == "Runtime.exceptionThrown":
                errors.append(str(params["exceptionDetails"].get("text")))
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                errors.append(json.dumps(params.get("args"), ensure_ascii=False))
            elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
                errors.append(str(params["entry"].get("text")))
        return errors

    def evaluate(self, expression: str) -> Any:
        return self.call("Runtime.evaluate", expression=expression, returnByValue=True)["result"].get("value")

    def screenshot(self, target: Path) -> Path:
        data = self.call("Page.captureScreenshot", format="png")["data"]
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(base64.b64decode(data))
        return target

    def close(self) -> None:
        if getattr(self, "ws", None) is not None:
            self.ws.close()
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (.ci/run installs it: apt-get install chromium)")
def test_site_in_a_headless_browser(site: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    browser = Browser(tmp_path / "profile")
    try:
        pages = [p for p in sorted(site.rglob("*.html"))]
        failures: dict[str, list[str]] = {}
        too_wide: list[str] = []
        for page in pages:
            if errs := browser.load(page):
                failures[str(page.relative_to(site))] = errs
            # readable on a phone: no page wider than the screen (wide tables scroll in their box)
            if not browser.evaluate("document.documentElement.scrollWidth <= screen.width + 1"):
                too_wide.append(str(page.relative_to(site)))
        assert failures == {}
        assert too_wide == []
        shots = []
        for page, name in ((site / "index.html", "index.png"), (site / "rules" / "pl-standard.pl.html",
                                                                "pl-standard.pl.png")):
            assert browser.load(page) == []
            title = browser.evaluate("document.querySelector('h1').textContent")
            assert title in ("Thousand — rule books", "Tysiąc — zasady standardowe")
            # readable on a phone: nothing wider than the screen
            assert browser.evaluate("document.documentElement.scrollWidth <= screen.width + 1") is True
            shot = browser.screenshot(SCREENSHOTS / name)
            assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 5000
            shots.append(shot)
    finally:
        browser.close()
    with capsys.disabled():
        for shot in shots:
            print(f"\nscreenshot: {shot}")
