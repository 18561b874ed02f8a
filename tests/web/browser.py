"""A headless Chromium driven over the DevTools protocol (CDP) with ``websocket-client`` (the
``test`` extra): isolated browser contexts (two players with separate storage in one browser),
pages at a phone or desktop size, clicks by real mouse events, console errors collected,
screenshots.  And ``tysiac serve`` started as a subprocess on 127.0.0.1 with a temporary
database.  No new dependency; the same protocol as the site test in ``tests/test_site.py``.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--remote-debugging-port=0", "--remote-allow-origins=*", "--hide-scrollbars",
    "--disable-renderer-backgrounding", "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"
WAIT = 60.0
"""Seconds to wait for a page to reach a state before the test fails (a shared 2-core
machine can be slow; no test asserts a time)."""

_CLICK_POINT = """(() => {
  const el = document.querySelector(SELECTOR);
  if (!el) return null;
  el.scrollIntoView({block: 'nearest', inline: 'nearest'});
  const r = el.getBoundingClientRect();
  for (const fy of [0.3, 0.5, 0.7]) for (const fx of [0.15, 0.3, 0.5, 0.7, 0.85]) {
    const x = r.left + r.width * fx, y = r.top + r.height * fy;
    const hit = document.elementFromPoint(x, y);
    if (hit && (hit === el || el.contains(hit)) && !el.disabled) return [x, y];
  }
  return null;
})()"""
"""A point where the element named by SELECTOR is visible and takes a click, or null."""

_NAVIGATING = ("Inspected target navigated or closed", "Execution context was destroyed",
               "Cannot find context with specified id")
"""CDP errors of an evaluation that raced a navigation: the wait asks again."""

PHONE = (390, 844)
DESKTOP = (1280, 800)


class BrowserError(RuntimeError):
    """The browser did not start, a CDP call failed, or a page did not reach a state in time."""


class Chromium:
    """One headless Chromium process; :meth:`page` opens a tab in a new isolated context."""

    def __init__(self, profile: Path) -> None:
        import websocket  # the `test` extra: websocket-client

        if CHROMIUM is None:
            raise BrowserError("chromium is not installed")
        profile.mkdir(parents=True, exist_ok=True)
        (profile / "DevToolsActivePort").unlink(missing_ok=True)  # a stale one from a run before
        self.proc = subprocess.Popen(
            [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + WAIT
        while not (port_file.exists() and len(port_file.read_text().split()) >= 2):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.close()
                raise BrowserError("chromium did not start")
            time.sleep(0.1)
        port, path = port_file.read_text().split()[:2]
        try:
            self.ws = websocket.create_connection(f"ws://127.0.0.1:{port}{path}", timeout=WAIT,
                                                  suppress_origin=True)
        except OSError as err:
            self.close()
            raise BrowserError(f"cannot reach chromium's DevTools: {err}") from None
        self.next_id = 0
        self.events: dict[str, list[dict[str, Any]]] = {}
        self.pages: list[Page] = []

    def call(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        msg: dict[str, Any] = {"id": self.next_id, "method": method, "params": params}
        if session:
            msg["sessionId"] = session
        self.ws.send(json.dumps(msg))
        want = self.next_id
        while True:
            got = self._recv()
            if got.get("id") == want:
                if "error" in got:
                    raise BrowserError(f"{method}: {got['error']}")
                return dict(got.get("result", {}))

    def _recv(self) -> dict[str, Any]:
        got: dict[str, Any] = json.loads(self.ws.recv())
        if "method" in got:
            self.events.setdefault(got.get("sessionId", ""), []).append(got)
        return got

    def pump(self) -> None:
        """Read the events that have arrived (console messages) without blocking long."""
        self.ws.settimeout(0.05)
        try:
            while True:
                self._recv()
        except Exception:  # websocket-client's timeout: nothing more to read
            pass
        finally:
            self.ws.settimeout(WAIT)

    def page(self, size: tuple[int, int] = PHONE, *, mobile: bool | None = None) -> Page:
        """A new tab in its own browser context (its own cookies and localStorage)."""
        context = self.call("Target.createBrowserContext", disposeOnDetach=True)["browserContextId"]
        target = self.call("Target.createTarget", url="about:blank", browserContextId=context)["targetId"]
        session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        page = Page(self, session, target, size, size[0] < 600 if mobile is None else mobile)
        self.pages.append(page)
        return page

    def close(self) -> None:
        if getattr(self, "ws", None) is not None:
            try:
                self.ws.close()
            except Exception:  # a socket the browser may have dropped
                pass
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Page:
    """A tab: navigate, evaluate, click, type, wait for a condition, screenshot."""

    def __init__(self, browser: Chromium, session: str, target: str, size: tuple[int, int], mobile: bool) -> None:
        self.browser = browser
        self.session = session
        self.target = target
        self.size = size
        for method in ("Page.enable", "Runtime.enable", "Log.enable"):
            self.call(method)
        self.call("Emulation.setDeviceMetricsOverride", width=size[0], height=size[1], deviceScaleFactor=1,
                  mobile=mobile)
        if mobile:
            self.call("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=1)

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        return self.browser.call(method, self.session, **params)

    def goto(self, url: str) -> None:
        self._clear_load()
        self.call("Page.navigate", url=url)
        self._wait_load()

    def reload(self) -> None:
        self._clear_load()
        self.call("Page.reload", ignoreCache=True)
        self._wait_load()

    def _clear_load(self) -> None:
        events = self.browser.events.get(self.session, [])
        events[:] = [e for e in events if e.get("method") != "Page.loadEventFired"]

    def _wait_load(self) -> None:
        deadline = time.monotonic() + WAIT
        while not any(e.get("method") == "Page.loadEventFired" for e in self.browser.events.get(self.session, [])):
            if time.monotonic() > deadline:
                raise BrowserError("the page did not load")
            self.browser._recv()

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression[:80]}: {result['exceptionDetails'].get('exception', {}).get('description')}")
        return result["result"].get("value")

    def wait(self, expression: str, what: str = "") -> Any:
        """Poll ``expression`` until it is truthy; return its value."""
        deadline = time.monotonic() + WAIT
        while True:
            try:
                value = self.evaluate(f"(v => v instanceof Node ? true : v)({expression})")
            except BrowserError as err:
                # the page is navigating (a click that loads a page, on a busy machine): its
                # old document is gone before the new one answers; ask again
                if not any(m in str(err) for m in _NAVIGATING):
                    raise
                value = None
            if value:
                return value
            if time.monotonic() > deadline:
                shot = self.screenshot("failed-wait.png")
                raise BrowserError(f"timed out waiting for {what or expression} (the screen: {shot})")
            time.sleep(0.05)

    def click(self, selector: str) -> None:
        """Click the element by a real mouse press where it is visible (a card in a fanned hand
        is partly under the next one)."""
        point = self.wait(_CLICK_POINT.replace("SELECTOR", json.dumps(selector)), f"a visible, enabled {selector}")
        x, y = point
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def type(self, text: str) -> None:
        """Type ``text`` into the focused element, then press Enter."""
        self.call("Input.insertText", text=text)
        self.call("Input.dispatchKeyEvent", type="keyDown", key="Enter", code="Enter", windowsVirtualKeyCode=13,
                  text="\r")
        self.call("Input.dispatchKeyEvent", type="keyUp", key="Enter", code="Enter", windowsVirtualKeyCode=13)

    def key(self, key: str, code: str, keycode: int) -> None:
        """Press and release one key (``"ArrowRight", "ArrowRight", 39``); Enter also types its
        character, which is what activates a focused button."""
        extra = {"text": "\r"} if key == "Enter" else {}
        self.call("Input.dispatchKeyEvent", type="keyDown", key=key, code=code, windowsVirtualKeyCode=keycode, **extra)
        self.call("Input.dispatchKeyEvent", type="keyUp", key=key, code=code, windowsVirtualKeyCode=keycode)

    def errors(self) -> list[str]:
        """Console errors, uncaught exceptions and failed loads seen so far in this tab."""
        self.browser.pump()
        found = []
        for e in self.browser.events.get(self.session, []):
            method, params = e.get("method"), e.get("params", {})
            if method == "Runtime.exceptionThrown":
                details = params["exceptionDetails"]
                found.append(str(details.get("exception", {}).get("description") or details.get("text")))
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                found.append(json.dumps(params.get("args"), ensure_ascii=False))
            elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
                found.append(str(params["entry"].get("text")))
        return found

    def overflows(self) -> bool:
        """Whether the page is wider than the screen (it would scroll sideways)."""
        return bool(self.evaluate("document.documentElement.scrollWidth > window.innerWidth + 1"))

    def screenshot(self, name: str, *, full: bool = False) -> Path:
        """A PNG of the screen (``full``: the whole page) under ``build/screenshots/``."""
        data = self.call("Page.captureScreenshot", format="png", captureBeyondViewport=full)["data"]
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        target = SCREENSHOTS / name
        tmp = target.with_suffix(f".{os.getpid()}.tmp")  # this worker's own (pytest -n)
        tmp.write_bytes(base64.b64decode(data))
        tmp.replace(target)
        return target


# --------------------------------------------------------------------------- the server


class Server:
    """``tysiac serve`` in a subprocess on 127.0.0.1 with a database in ``folder``."""

    def __init__(self, folder: Path, env: dict[str, str] | None = None) -> None:
        # port 0: the server binds a free port itself and names it in its log, so two test
        # workers (pytest -n) never pick the same one between choosing and binding it
        self.port = 0
        self.url = ""
        self.folder = folder
        self.db = folder / "web.sqlite3"
        self.log = folder / "serve.log"
        root = Path(__file__).resolve().parents[2]
        self.env = {**os.environ, "PYTHONPATH": str(root) + os.pathsep + os.environ.get("PYTHONPATH", ""), **(env or {})}
        self.start()

    def start(self) -> None:
        """Start ``tysiac serve`` on this port (the first time a free one it binds) and
        database; wait until it answers."""
        logged = self.log.stat().st_size if self.log.exists() else 0
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "tysiac_spec", "serve", "--host", "127.0.0.1", "--port", str(self.port),
                 "--db", str(self.db)],
                stdout=out, stderr=subprocess.STDOUT, env=self.env, cwd=self.folder,
            )
        deadline = time.monotonic() + WAIT
        while True:
            try:
                if not self.port:
                    found = re.search(rb"tysiac serve: http://127\.0\.0\.1:(\d+)/", self.log.read_bytes()[logged:])
                    if found is None:
                        raise OSError("not listening yet")
                    self.port = int(found.group(1))
                    self.url = f"http://127.0.0.1:{self.port}"
                self.get("/api/rulesets")
                break
            except (OSError, urllib.error.URLError):
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.close()
                    raise BrowserError(f"tysiac serve did not start:\n{self.log.read_text()}") from None
                time.sleep(0.1)

    def restart(self) -> None:
        """Stop the server (SIGTERM) and start it again on the same port and database."""
        self.close()
        self.start()

    def request(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(req, timeout=WAIT) as resp:
                return resp.status, json.loads(resp.read() or b"null")
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read() or b"null")

    def get(self, path: str, token: str | None = None) -> Any:
        status, data = self.request("GET", path, token=token)
        if status != 200:
            raise BrowserError(f"GET {path}: {status} {data}")
        return data

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
