"""A real ``tysiac serve`` in a subprocess on 127.0.0.1 (a free port, a temporary database)
and small clients for its HTTP API and its websocket, for the web table's tests."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING, Any

import websocket

if TYPE_CHECKING:
    from tysiac_spec.apps.web.store import Store

ROOT = Path(__file__).resolve().parents[2]


class Served:
    """``tysiac serve --port 0 --db DB`` until :meth:`stop` (SIGTERM) or :meth:`kill` (SIGKILL)."""

    def __init__(self, db: Path, *, seeds: bool = True, pythonpath: Path | None = None) -> None:
        path = str(ROOT) if pythonpath is None else f"{pythonpath}{os.pathsep}{ROOT}"
        env = {**os.environ, "PYTHONPATH": path, "TYSIAC_WEB_SEEDS": "1" if seeds else "0"}
        self.db = db
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tysiac_spec", "serve", "--port", "0", "--db", str(db)],
            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env, cwd=str(db.parent),
        )
        self.log: list[str] = []
        deadline = time.monotonic() + 60
        assert self.proc.stderr is not None
        while time.monotonic() < deadline:
            line = self.proc.stderr.readline()
            if not line:
                raise RuntimeError("the server stopped:\n" + "".join(self.log))
            self.log.append(line)
            found = re.search(r"tysiac serve: (http://\S+/)", line)
            if found:
                self.url = found.group(1)
                self.ws_base = "ws" + self.url[4:]
                # the log keeps being read, so that the server never blocks on a full pipe
                threading.Thread(target=self._drain, daemon=True).start()
                return
        raise RuntimeError("the server did not start:\n" + "".join(self.log))

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(30)
        time.sleep(0.2)  # (the reader thread takes the last lines)
        return code

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(30)

    def _drain(self) -> None:
        if self.proc.stderr is not None:
            for line in self.proc.stderr:
                self.log.append(line)

    # ------------------------------------------------------------------ HTTP

    def call(self, method: str, path: str, body: Any = None, *, token: str | None = None,
             raw: bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, Any]:
        """``(status, JSON or text)`` of one request."""
        data = raw if raw is not None else None if body is None else json.dumps(body).encode()
        hdrs = {"Content-Type": "application/json", **(headers or {})}
        if token is not None:
            hdrs["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(self.url + path.lstrip("/"), data=data, method=method, headers=hdrs)
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return answer.status, _decoded(answer.read(), answer.headers.get("Content-Type", ""))
        except urllib.error.HTTPError as exc:
            return exc.code, _decoded(exc.read(), exc.headers.get("Content-Type", ""))

    def headers(self, path: str) -> dict[str, str]:
        with urllib.request.urlopen(self.url + path.lstrip("/"), timeout=60) as answer:
            return {k.lower(): v for k, v in answer.headers.items()}

    def create(self, **body: Any) -> dict[str, Any]:
        status, answer = self.call("POST", "/api/tables", body)
        assert status == 201, answer
        return answer  # type: ignore[no-any-return]

    # ------------------------------------------------------------------ websocket

    def socket(self, table: str, token: str | None = None, *, origin: str | None = None, lang: str = "en",
               timeout: float = 20) -> Sock:
        ws = websocket.create_connection(
            f"{self.ws_base}t/{table}/ws", timeout=timeout,
            **({"origin": origin} if origin else {}))
        sock = Sock(ws)
        if token is not None:
            sock.send({"type": "hello", "proto": 1, "token": token, "lang": lang})
        return sock


def _decoded(data: bytes, kind: str) -> Any:
    text = data.decode("utf-8")
    return json.loads(text) if "json" in kind else text


class Sock:
    """A websocket client: every frame received is kept in :attr:`frames` (raw text) too."""

    def __init__(self, ws: websocket.WebSocket) -> None:
        self.ws = ws
        self.frames: list[str] = []
        self.close_code: int | None = None

    def send(self, frame: Any) -> None:
        self.ws.send(frame if isinstance(frame, str) else json.dumps(frame))

    def recv(self) -> dict[str, Any] | None:
        """The next frame as JSON; ``None`` when the server closed (:attr:`close_code`)."""
        while True:
            opcode, data = self.ws.recv_data(control_frame=True)
            if opcode == websocket.ABNF.OPCODE_CLOSE:
                self.close_code = int.from_bytes(data[:2], "big") if len(data) >= 2 else None
                return None
            if opcode == websocket.ABNF.OPCODE_TEXT:
                text = data.decode("utf-8")
                self.frames.append(text)
                return json.loads(text)  # type: ignore[no-any-return]

    def until(self, kind: str, **match: Any) -> dict[str, Any]:
        """Frames up to the first of ``type`` ``kind`` (with the fields ``match``)."""
        while True:
            frame = self.recv()
            if frame is None:
                raise AssertionError(f"closed ({self.close_code}) while waiting for {kind}")
            if frame["type"] == kind and all(frame.get(k) == v for k, v in match.items()):
                return frame

    def close(self) -> None:
        self.ws.close()


class InThread:
    """:func:`~tysiac_spec.apps.web.server.create_app` over ``store`` (the application:
    :attr:`app`) served by uvicorn with its lifespan on 127.0.0.1 in a thread, until
    :meth:`stop`; the HTTP client of the subprocess tests (:meth:`Served.call`,
    :meth:`Served.create`)."""

    call = Served.call
    create = Served.create

    def __init__(self, store: Store) -> None:
        import uvicorn

        from tysiac_spec.apps.web.server import create_app

        self.app = create_app(store, allow_seeds=True)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=0,
                                log_level="warning", lifespan="on", ws="websockets-sansio")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not (self.server.started and self.server.servers):
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}/"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)
        assert not self.thread.is_alive()
