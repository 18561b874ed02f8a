"""A minimal client of the YAML language server (``yaml-language-server --stdio``): open
files, collect the diagnostics it publishes.  Used by ``tests/test_editor_messages.py``
when the server is installed (``npm install yaml-language-server``; the command on the
``PATH``, or its path in ``YAML_LANGUAGE_SERVER``), skipped otherwise.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

SETTINGS = {"yaml": {"validate": True, "hover": True, "completion": True, "schemas": {},
                     "schemaStore": {"enable": False}}}


def server_command() -> list[str] | None:
    """The command that starts the server, or ``None`` when it is not installed."""
    given = os.environ.get("YAML_LANGUAGE_SERVER") or shutil.which("yaml-language-server")
    return [given, "--stdio"] if given else None


class Client:
    """One server process; :meth:`diagnostics` opens a file and returns what it reports."""

    def __init__(self, command: list[str]) -> None:
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self.next_id = 0
        self.published: dict[str, list[dict[str, Any]]] = {}
        self.request("initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": {
            "workspace": {"configuration": True}}})
        self.notify("initialized", {})
        self.notify("workspace/didChangeConfiguration", {"settings": SETTINGS})

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        length = 0
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the language server stopped")
            if line in (b"\r\n", b"\n"):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        message: dict[str, Any] = json.loads(self.proc.stdout.read(length))
        if message.get("method") == "workspace/configuration":
            items = message["params"]["items"]
            self._send({"id": message["id"], "result": [
                SETTINGS.get(i.get("section", ""), SETTINGS["yaml"]) if i.get("section") != "yaml"
                else SETTINGS["yaml"] for i in items]})
        elif "id" in message and "method" in message:  # any other request: an empty answer
            self._send({"id": message["id"], "result": None})
        elif message.get("method") == "textDocument/publishDiagnostics":
            params = message["params"]
            self.published[params["uri"]] = params["diagnostics"]
        return message

    def request(self, method: str, params: Any) -> Any:
        self.next_id += 1
        self._send({"id": self.next_id, "method": method, "params": params})
        while True:
            message = self._read()
            if message.get("id") == self.next_id and "method" not in message:
                return message.get("result")

    def notify(self, method: str, params: Any) -> None:
        self._send({"method": method, "params": params})

    def diagnostics(self, path: Path, *, wait: float = 20.0) -> list[dict[str, Any]]:
        uri = path.resolve().as_uri()
        self.published.pop(uri, None)
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1,
            "text": path.read_text(encoding="utf-8")}})
        deadline = time.monotonic() + wait
        while uri not in self.published and time.monotonic() < deadline:
            self._read()
        self.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        return self.published.get(uri, [])

    def close(self) -> None:
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.proc.wait(timeout=5)
        except (RuntimeError, OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
