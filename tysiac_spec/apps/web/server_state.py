"""What every route of the web server shares: :class:`ServerState` (the store, every
table's room restored from it, the sockets, the saved house files, the bounds per client
address) with the reading of a request (its JSON body, its table and seat, the base of a new
table's links), and the helpers of the routes (an error answer, a ruleset loaded off the
event loop, the page's language).

The routes are its subclasses' methods (:mod:`.routes_tables`, :mod:`.routes_workbench`);
:mod:`.server` makes them one :class:`~.server.Server` and the application."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import resource
import shutil
import tempfile
import time
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import JSONResponse

from ...errors import TysiacError
from ...ruleset import registry
from . import studies, workbench
from .auth import refuse_write
from .protocol import ERRORS, LANGS, MAX_BODY, finite_float
from .room import Refused, Room
from .sockets import _WsConn
from .store import Store

__all__ = ["CREATE_PER_HOUR", "SEEDS_ENV", "ServerState"]

log = logging.getLogger("tysiac.web")

SEEDS_ENV = "TYSIAC_WEB_SEEDS"
"""When ``1``, ``POST /api/tables`` takes a ``seed`` (tests and benchmarks only: whoever
knows the seed knows every deal)."""

CREATE_PER_HOUR = 60
"""Tables made and house-rule files checked per hour by one client address (127.0.0.1 and
::1 are not counted: the machine's own user, tests and benchmarks)."""

_HOST = re.compile(r"[A-Za-z0-9.-]{1,253}:[0-9]{1,5}|\[[0-9A-Fa-f:.]{2,45}\]:[0-9]{1,5}")
"""A ``Host`` header a link may be built from (a name or address, and a port)."""


def _error(code: str, status: int, message: str | None = None, **extra: Any) -> JSONResponse:
    return JSONResponse(
        {"error": {"code": code, "message": message or ERRORS[code]}, **extra}, status_code=status
    )


class _Timings:
    """Server-side time per accepted action (check, engine, bots, store, broadcast), kept for
    ``GET /api/metrics`` (from 127.0.0.1 only)."""

    def __init__(self) -> None:
        self.samples: list[float] = []

    def __call__(self, seconds: float) -> None:
        if len(self.samples) < 1_000_000:
            self.samples.append(seconds)

    def summary(self) -> dict[str, Any]:
        s = sorted(self.samples)

        def q(p: float) -> float | None:
            return None if not s else round(s[min(len(s) - 1, int(p * len(s)))] * 1000, 3)

        rss_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return {
            "actions": len(s),
            "p50_ms": q(0.5),
            "p99_ms": q(0.99),
            "max_ms": q(1.0),
            "max_rss_mb": round(rss_kib / 1024, 1),
            "rss_mb": _rss_mb(),
        }


def _rss_mb() -> float | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return None


def _release_houses(forget: Callable[[], None], folder: Path) -> None:
    """:meth:`ServerState.close`'s work (a function of its own: the state's finalizer must not
    hold the state)."""
    forget()
    shutil.rmtree(folder, ignore_errors=True)


class ServerState:
    """The application's state: the store and every table's room."""

    def __init__(self, store: Store, *, allow_seeds: bool | None = None, base_url: str = "") -> None:
        self.store = store
        self.base_url = base_url
        """Where the server listens (``http://host:port``, set by :func:`.server.serve` once bound);
        the links of a new table are built from it, not from the client's ``Host``."""
        self.rooms: dict[str, Room] = {}
        self.timings = _Timings()
        self.allow_seeds = os.environ.get(SEEDS_ENV) == "1" if allow_seeds is None else allow_seeds
        self.conns: set[_WsConn] = set()
        self._made: dict[str, list[float]] = {}
        self.workbench_calls = workbench.RateBook()
        self.studies = studies.StudyQueue()
        # the saved house files, as files an upload may `extends` by id (rebuilt at each start)
        self.house_files = workbench.HouseFiles(tempfile.mkdtemp(prefix="tysiac-houses-"))
        for house_id, text in store.houses():
            self.house_files.write(house_id, text)
        self._release = weakref.finalize(
            self, _release_houses, registry.add_finder(self.house_files.find), self.house_files.folder)

    def close(self) -> None:
        """Take the saved house files away: their finder out of the registry
        (:func:`~tysiac_spec.ruleset.registry.add_finder`, so that no other server's upload
        finds them) and their folder deleted.  Called at the server's shutdown; a second call
        does nothing, and a state never closed is cleaned when it is collected or at exit."""
        self._release()

    def count(self, request: Request) -> None:
        """Count a table made or a file checked for the client's address.

        Raises:
            Refused: ``rate`` over :data:`CREATE_PER_HOUR` in the last hour.
        """
        host = request.client.host if request.client else "?"
        if host in ("127.0.0.1", "::1"):
            return
        now = time.monotonic()
        recent = [t for t in self._made.get(host, []) if now - t < 3600]
        if len(recent) >= CREATE_PER_HOUR:
            raise Refused("rate", 429, f"at most {CREATE_PER_HOUR} tables or checks an hour from one address")
        recent.append(now)
        self._made[host] = recent

    def restore(self) -> None:
        """Every stored table, its current match replayed (a table that cannot be replayed is
        logged and left out)."""
        started = time.perf_counter()
        for row in self.store.tables():
            try:
                room = Room.restore(row, self.store)
            except (TysiacError, Refused) as exc:
                log.error("table %s cannot be restored: %s", row.id, exc)
                continue
            room.timings = self.timings
            self.rooms[row.id] = room
        log.info("restored %d table(s) in %.2f s", len(self.rooms), time.perf_counter() - started)

    # ------------------------------------------------------------------ HTTP helpers

    def link_base(self, request: Request) -> str:
        """The start of a new table's links: the configured ``http://host:port``; where the
        server listens on every address (``0.0.0.0``, ``::``) the ``Host`` the client used
        when it names the configured port (the address the players reach).  Without
        :func:`serve` (an application built in a test) the request's own base."""
        if not self.base_url:
            return str(request.base_url).rstrip("/")
        configured = urlsplit(self.base_url)
        if configured.hostname in ("0.0.0.0", "::"):
            host = request.headers.get("host", "")
            if _HOST.fullmatch(host) and host.rpartition(":")[2] == str(configured.port):
                return f"http://{host}"
        return self.base_url

    async def body(self, request: Request) -> Any:
        """The JSON body of a request that changes something (every POST reads it).

        Raises:
            Refused: ``forbidden`` (403: an Origin of another site), ``bad_request`` (415:
                not ``application/json``; 400: not JSON), ``too_large`` (413).
        """
        refused = refuse_write(request.headers)
        if refused is not None:
            raise Refused("forbidden" if refused[0] == 403 else "bad_request", refused[0], refused[1])
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            raise Refused("too_large", 413)
        data = b""
        async for chunk in request.stream():
            data += chunk
            if len(data) > MAX_BODY:
                raise Refused("too_large", 413)
        try:
            return json.loads(data.decode("utf-8"), parse_constant=_refuse_constant, parse_float=finite_float)
        except (ValueError, RecursionError):
            raise Refused("bad_request", 400, "the body is one JSON object") from None

    def room_and_seat(self, request: Request) -> tuple[Room, int | None, bool]:
        room = self.rooms.get(request.path_params["table"])
        if room is None:
            raise Refused("no_table", 404)
        auth = request.headers.get("authorization", "")
        scheme, _, token = auth.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Refused("bad_token", 401)
        who = room.admit(token.strip())
        return room, who.seat, who.watcher

    def workbench_rate(self, request: Request) -> None:
        host = request.client.host if request.client else "?"
        if host not in ("127.0.0.1", "::1") and not self.workbench_calls.take(host):
            raise Refused("rate", 429, f"at most {workbench.CALLS_PER_MINUTE} workbench requests a minute")


def _refuse_constant(name: str) -> Any:
    raise ValueError(name)


def _one_line(exc: TysiacError) -> str:
    return exc.diagnostic.message.splitlines()[0][:300]


async def _off_loop(function: Callable[..., Any], *args: Any) -> Any:
    """Run a ruleset load in a thread, bounded in time, so the tables keep playing."""
    return await asyncio.wait_for(asyncio.to_thread(function, *args), timeout=20)


def _lang(request: Request) -> str:
    lang = request.query_params.get("lang", "en")
    return lang if lang in LANGS else "en"
