"""The web table's server: a Starlette application (the only module that imports Starlette)
with the routes of :mod:`.protocol`, security headers, bounds on bodies, frames and their
rate, and the rooms of every table restored from the store at start.

:func:`create_app` builds the application; :func:`serve` runs it with uvicorn (``tysiac
serve``).  No traceback and no engine diagnostic reaches a client: a request the room refuses
gets the room's own code and words, any other failure a plain ``500`` without details (the
server's log has them).

Several processes (a hosted instance, not built): a table lives in one process, which holds
its :class:`~.room.Room`; a proxy routes ``/t/<table>/…`` and ``/api/tables/<table>/…`` by a
hash of the table id (nginx ``hash $table consistent``), and the processes share a
PostgreSQL database behind the same :class:`~.store.Store` methods, the owner of a table
holding an advisory lock on it that the database releases when the process dies, so that
another process can take the table over by replaying it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import json
import logging
import os
import re
import resource
import shutil
import socket
import sqlite3
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ...bots import BUILTIN
from ...errors import CannotServe, OptionError, TysiacError
from ...ruleset import registry
from . import studies, views, workbench
from .auth import new_id, new_token, origin_allowed, refuse_write, token_hash
from .protocol import (
    CLOSE,
    ERRORS,
    HELLO_SECONDS,
    LANGS,
    MAX_BODY,
    MAX_FRAME,
    PROTO,
    BadFrame,
    clean_name,
    finite_float,
    parse_frame,
)
from .room import Refused, Room, new_seed, table_row
from .rulesets import UPLOAD_FILE, load_table_ruleset, shipped
from .sheets import sheet_routes
from .store import SeatRow, Store

__all__ = ["STATIC", "CannotServe", "Server", "create_app", "serve"]

log = logging.getLogger("tysiac.web")

STATIC = Path(__file__).parent / "static"
"""The page's files (package data)."""

SEEDS_ENV = "TYSIAC_WEB_SEEDS"
"""When ``1``, ``POST /api/tables`` takes a ``seed`` (tests and benchmarks only: whoever
knows the seed knows every deal)."""

RATE_PER_SECOND, RATE_BURST, RATE_CLOSE = 8.0, 16.0, 40
"""Per connection: frames per second refilled, the bucket's size, and how many refused
frames in a row close the socket (4429)."""
CREATE_PER_HOUR = 60
"""Tables made and house-rule files checked per hour by one client address (127.0.0.1 and
::1 are not counted: the machine's own user, tests and benchmarks)."""

BAD_FRAMES_CLOSE = 20
"""Bad frames in a row that close the socket (4400)."""

WS_MAX_SIZE = 4 * MAX_FRAME
"""Frames larger than :data:`~.protocol.MAX_FRAME` are answered with ``too_large``; frames
larger than this are refused by the websocket layer itself (close 1009)."""

CSP = (
    "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
CSP_BOOK = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "frame-ancestors 'none'; base-uri 'none'"
)


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


class _WsConn:
    """A websocket as a room's :class:`~.room.Conn`: frames queue up and one writer task sends
    them, so a slow client never holds up a table."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.seat: int | None = None
        self.host = False
        self.watcher = False
        self.queue: asyncio.Queue[str | int] = asyncio.Queue(maxsize=512)
        self.closed = False
        self.task = asyncio.get_running_loop().create_task(self._writer())

    def send(self, text: str) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:  # a client that reads nothing: let it reconnect
            self.close(CLOSE["rate"])

    def close(self, code: int) -> None:
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(code)
        if self.queue.full():
            self.task.cancel()
            asyncio.get_running_loop().create_task(self._close_now(code))

    async def _close_now(self, code: int) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close(code)

    async def _writer(self) -> None:
        try:
            while True:
                item = await self.queue.get()
                if isinstance(item, int):
                    await self.ws.close(item)
                    return
                await self.ws.send_text(item)
        except Exception:  # the peer went away: the reader sees it too
            self.closed = True


TABLE_FIELDS = ("ruleset", "ruleset_text", "players", "options", "seats", "names", "host_seat", "seed",
                "grace", "chat", "spectators", "hints")
"""The fields ``POST /api/tables`` takes (any other is refused by name)."""


def _shown(text: str) -> str:
    from ...text import printable, shorten

    return shorten(printable(text), 40)


class Server:
    """The application's state: the store and every table's room."""

    def __init__(self, store: Store, *, allow_seeds: bool | None = None, base_url: str = "") -> None:
        self.store = store
        self.base_url = base_url
        """Where the server listens (``http://host:port``, set by :func:`serve` once bound);
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
        self.forget_houses = registry.add_finder(self.house_files.find)

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

    # ------------------------------------------------------------------ routes

    async def rulesets(self, request: Request) -> Response:
        return JSONResponse(_rulesets_json())

    async def cards(self, request: Request) -> Response:
        """``GET /cards/<key>.svg``: the card sprite a ``sprite`` URL names
        (:func:`.views.sprite_url`); the shipped decks' are made again after a restart."""
        key = request.path_params["key"]
        text = views.sprite_text(key)
        if text is None:
            for r in shipped():
                views.sprite_url(r.deck)
            text = views.sprite_text(key)
        if text is None:
            return PlainTextResponse("no such card pictures", status_code=404)
        # the key is the drawing's hash: a URL always names the same file
        return Response(text, media_type="image/svg+xml",
                        headers={"Cache-Control": "public, max-age=31536000, immutable"})

    async def check(self, request: Request) -> Response:
        body = await self.body(request)
        if isinstance(body, dict) and isinstance(body.get("text"), str):  # the workbench's form
            self.workbench_rate(request)
            return JSONResponse(await _off_loop(workbench.check, body["text"]))
        self.count(request)
        if not isinstance(body, dict) or not isinstance(body.get("ruleset_text"), str):
            raise Refused("bad_request", 400, 'send {"text": "<yaml>"} or {"ruleset_text": "<yaml>"}')
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise Refused("bad_request", 400, "`options` is an object")
        text = body["ruleset_text"]
        try:
            rules = await _off_loop(load_table_ruleset, None, text, options)
        except TysiacError as exc:
            return JSONResponse(
                {
                    "ok": False,
                    "diagnostics": [
                        views.diagnostic_json(d, file=UPLOAD_FILE, source=text) for d in exc.diagnostics
                    ],
                }
            )
        return JSONResponse({"ok": True, "ruleset": views.ruleset_json(rules)})

    async def create(self, request: Request) -> Response:
        self.count(request)
        body = await self.body(request)
        if not isinstance(body, dict):
            raise Refused("bad_request", 400, "the body is one JSON object")
        unknown = sorted(str(k) for k in body if k not in TABLE_FIELDS)
        if unknown:  # (a typo such as `option` would silently give the default options)
            raise Refused("bad_request", 400, f"unknown field `{_shown(unknown[0])}`; a table takes "
                          + ", ".join(f"`{k}`" for k in TABLE_FIELDS))
        ref, text = body.get("ruleset"), body.get("ruleset_text")
        if (ref is None) == (text is None) or not isinstance(ref or text, str):
            raise Refused(
                "bad_request", 400, "give `ruleset` (a shipped id) or `ruleset_text` (YAML), one of them"
            )
        options = body.get("options") or {}
        if not isinstance(options, dict) or not all(
            isinstance(v, str | int | bool) and not isinstance(v, float) for v in options.values()
        ):
            raise Refused("bad_request", 400, "`options` maps option names to values")
        players = body.get("players")
        try:
            rules = await _off_loop(load_table_ruleset, ref, text, options)
        except OptionError as exc:
            return _error("bad_options", 422, _one_line(exc))
        except TysiacError as exc:
            return _error(
                "ruleset_invalid",
                422,
                diagnostics=[
                    views.diagnostic_json(d, file=UPLOAD_FILE, source=text or "") for d in exc.diagnostics
                ],
            )
        if not rules.player_counts:
            raise Refused("bad_request", 400, f"`{_shown(rules.id)}` is a base for other rulesets, not "
                          "played itself: choose a ruleset that extends it (GET /api/rulesets lists them)")
        if not isinstance(players, int) or isinstance(players, bool) or players not in rules.player_counts:
            counts = ", ".join(map(str, rules.player_counts))
            raise Refused("bad_request", 400, f"`players` is one of {counts} for this ruleset")
        seats_in = body.get("seats")
        if not isinstance(seats_in, list) or len(seats_in) != players:
            raise Refused("bad_seats", 422, f'`seats` lists {players} seats: "human" or "bot:<name>"')
        names_in = body.get("names") or [None] * players
        if not isinstance(names_in, list) or len(names_in) != players:
            raise Refused("bad_request", 400, f"`names` lists {players} names (or null)")
        seats: list[SeatRow] = []
        tokens: dict[int, str] = {}
        for i, (kind, name) in enumerate(zip(seats_in, names_in, strict=True)):
            if kind == "human":
                token = tokens[i] = new_token()
                bot = None
            elif isinstance(kind, str) and kind.startswith("bot:") and kind[4:] in BUILTIN:
                token, bot = None, kind[4:]
            else:
                bots = ", ".join(f"bot:{b}" for b in sorted(BUILTIN))
                raise Refused("bad_seats", 422, f'seat {i}: "human" or one of {bots}')
            shown = f"Player {i + 1}" if bot is None else bot
            if name is not None:
                cleaned = clean_name(name) if isinstance(name, str) else None
                if cleaned is None:
                    raise Refused(
                        "bad_request", 400, f"seat {i}: a name has 1 to 24 characters, no control characters"
                    )
                shown = cleaned
            seats.append(
                SeatRow(
                    i,
                    "human" if bot is None else "bot",
                    bot,
                    shown,
                    None if token is None else token_hash(token),
                )
            )
        humans = [s.seat for s in seats if s.kind == "human"]
        host_seat = body.get("host_seat", humans[0] if humans else None)
        if host_seat is not None and host_seat not in humans:
            raise Refused("bad_request", 400, "`host_seat` is a human seat (or null)")
        seed = new_seed()
        if "seed" in body:
            if not self.allow_seeds:
                raise Refused("forbidden", 403, f"this server takes no seed (set {SEEDS_ENV}=1 for tests)")
            if not isinstance(body["seed"], int) or not 0 <= body["seed"] < 2**63:
                raise Refused("bad_request", 400, "`seed` is a whole number")
            seed = body["seed"]
        grace = body.get("grace", 60)
        if not isinstance(grace, int) or isinstance(grace, bool) or not 0 <= grace <= 3600:
            raise Refused("bad_request", 400, "`grace` is 0 to 3600 seconds")
        settings = {
            "chat": bool(body.get("chat", True)),
            "spectators": bool(body.get("spectators", False)),
            "hints": bool(body.get("hints", True)),
            "grace": grace,
        }
        host_token, watch_token = new_token(), new_token()
        table_id = new_id()
        row = table_row(
            table_id=table_id,
            ruleset_ref=rules.id if text is None else "upload",
            ruleset_text=text,
            ruleset=rules,
            options=dict(rules.selected),
            players=players,
            settings=settings,
            host_hash=token_hash(host_token),
            watch_hash=token_hash(watch_token),
            host_seat=host_seat,
            seats=seats,
            seed=seed,
        )
        room = Room.create(row, rules, self.store)
        room.timings = self.timings
        self.rooms[table_id] = room
        base = self.link_base(request)
        page = f"{base}/t/{table_id}"
        return JSONResponse(
            {
                "table": table_id,
                "host": f"{page}#host={host_token}",
                "host_token": host_token,
                "watch": f"{page}#watch={watch_token}",
                "watch_token": watch_token,
                "seats": [
                    {
                        "seat": s.seat,
                        "kind": s.kind,
                        "name": s.name,
                        **(
                            {"token": tokens[s.seat], "url": f"{page}#seat={tokens[s.seat]}"}
                            if s.seat in tokens
                            else {"bot": s.bot}
                        ),
                    }
                    for s in seats
                ],
            },
            status_code=201,
        )

    async def state(self, request: Request) -> Response:
        room, seat, watcher = self.room_and_seat(request)
        return JSONResponse(room.state(None if watcher else seat))

    async def act(self, request: Request) -> Response:
        room, seat, watcher = self.room_and_seat(request)
        if watcher or seat is None:
            raise Refused("forbidden", 403, "this link cannot act")
        body = await self.body(request)
        if (
            not isinstance(body, dict)
            or not isinstance(body.get("action"), str)
            or not isinstance(body.get("version"), int)
            or isinstance(body.get("version"), bool)
        ):
            raise Refused("bad_request", 400, 'send {"version": <int>, "action": "<text>"}')
        room.act(seat, body["version"], body["action"])
        return JSONResponse(room.state(seat))

    async def record(self, request: Request) -> Response:
        room, _, _ = self.room_and_seat(request)
        number = request.query_params.get("match")
        if number is not None and not number.isdigit():
            raise Refused("bad_request", 400, "`match` is a match number")
        record = room.record(None if number is None else int(number))
        return Response(
            record.to_json(),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="tysiac-{room.id}-{record.seed}.json"'},
        )

    async def ruleset_text(self, request: Request) -> Response:
        room, _, _ = self.room_and_seat(request)
        if room.row.ruleset_text is None:
            raise Refused("no_upload", 404)
        return PlainTextResponse(
            room.row.ruleset_text,
            media_type="text/yaml",
            headers={"Content-Disposition": f'attachment; filename="house-{room.id}.yaml"'},
        )

    async def qr(self, request: Request) -> Response:
        import segno

        body = await self.body(request)
        if (
            not isinstance(body, dict)
            or not isinstance(body.get("text"), str)
            or not 0 < len(body["text"]) <= 500
        ):
            raise Refused("bad_request", 400, 'send {"text": "<url>"} (at most 500 characters)')
        out = io.BytesIO()
        code = segno.make(body["text"], error="m")
        code.save(out, kind="svg", xmldecl=False, scale=4, title="QR code", border=4)
        svg = out.getvalue().decode("utf-8")
        return Response(svg, media_type="image/svg+xml")

    async def metrics(self, request: Request) -> Response:
        if request.client is None or request.client.host not in ("127.0.0.1", "::1"):
            raise Refused("forbidden", 403)
        return JSONResponse({**self.timings.summary(), "tables": len(self.rooms), "sockets": len(self.conns)})

    # ------------------------------------------------------------------ the workbench (/w)

    def workbench_rate(self, request: Request) -> None:
        host = request.client.host if request.client else "?"
        if host not in ("127.0.0.1", "::1") and not self.workbench_calls.take(host):
            raise Refused("rate", 429, f"at most {workbench.CALLS_PER_MINUTE} workbench requests a minute")

    async def workbench_json(self, request: Request) -> dict[str, Any]:
        self.workbench_rate(request)
        body = await self.body(request)
        if not isinstance(body, dict):
            raise Refused("bad_request", 400, "the body is one JSON object")
        return body

    async def wb_book(self, request: Request) -> Response:
        body = await self.workbench_json(request)
        text, lang = body.get("text"), body.get("lang", "en")
        if not isinstance(text, str) or lang not in LANGS:
            raise Refused("bad_request", 400, f'send {{"text": "<yaml>", "lang": one of {", ".join(LANGS)}}}')
        try:
            html = await _off_loop(workbench.book_html, text, lang)
        except TysiacError:
            return JSONResponse(await _off_loop(workbench.check, text), status_code=422)
        return HTMLResponse(html, headers={"Content-Security-Policy": CSP_BOOK})

    async def wb_compare(self, request: Request) -> Response:
        body = await self.workbench_json(request)
        text, lang = body.get("text"), body.get("lang", "en")
        if not isinstance(text, str) or lang not in LANGS:
            raise Refused("bad_request", 400, 'send {"text": "<yaml>", "lang": "en"}')
        try:
            return JSONResponse(await _off_loop(workbench.compare_json, text, lang))
        except TysiacError:
            return JSONResponse(await _off_loop(workbench.check, text), status_code=422)
        except workbench.WorkbenchError as exc:
            raise Refused("bad_request", 400, str(exc)) from None

    async def wb_house(self, request: Request) -> Response:
        body = await self.workbench_json(request)
        try:
            if isinstance(body.get("text"), str):
                return JSONResponse(await _off_loop(workbench.house_parts, body["text"]))
            base, changes = body.get("base"), body.get("changes", {})
            if not isinstance(base, str) or not isinstance(changes, dict):
                raise Refused("bad_request", 400, 'send {"base": "<id>", "changes": {}}, or {"text": "…"}')
            text = await _off_loop(
                functools.partial(
                    workbench.house_text, base, changes,
                    ident=body.get("id", "my-house"), name=body.get("name", "My house rules"),
                    previous=body["previous"] if isinstance(body.get("previous"), str) else None,
                )
            )
        except workbench.WorkbenchError as exc:
            raise Refused("bad_request", 400, str(exc)) from None
        except TysiacError as exc:
            return _error("ruleset_invalid", 422, _one_line(exc))
        return JSONResponse({"text": text})

    async def wb_controls(self, request: Request) -> Response:
        try:
            base = request.query_params.get("base", "pl-standard")
            return JSONResponse(await _off_loop(workbench.controls, base, _lang(request)))
        except workbench.WorkbenchError as exc:
            raise Refused("bad_request", 400, str(exc)) from None

    async def wb_save(self, request: Request) -> Response:
        body = await self.workbench_json(request)
        text = body.get("text")
        if not isinstance(text, str):
            raise Refused("bad_request", 400, 'send {"text": "<yaml>"}')
        checked = await _off_loop(workbench.check, text)
        if not checked["ok"]:
            return JSONResponse(checked, status_code=422)
        parts = await _off_loop(workbench.house_parts, text)
        house_id = new_id()
        self.store.save_house(house_id, text, parts["base"])
        self.house_files.write(house_id, text)
        return JSONResponse(
            {"house": house_id, "url": f"{self.link_base(request)}/w/{house_id}", "id": checked["id"]},
            status_code=201,
        )

    async def wb_saved(self, request: Request) -> Response:
        house_id = request.path_params["house"]
        text = self.store.house(house_id) if re.fullmatch(r"[A-Za-z0-9_-]{1,40}", house_id) else None
        if text is None:
            raise Refused("no_house", 404)
        if request.url.path.endswith(".yaml"):
            return PlainTextResponse(
                text,
                media_type="text/yaml",
                headers={"Content-Disposition": f'attachment; filename="house-{house_id}.yaml"'},
            )
        return JSONResponse({"house": house_id, "text": text})

    async def study_start(self, request: Request) -> Response:
        body = await self.workbench_json(request)
        text, matches = body.get("text"), body.get("matches", studies.DEFAULT_MATCHES)
        seconds = body.get("seconds", studies.MAX_SECONDS)
        if not isinstance(text, str) or not all(
            isinstance(n, int) and not isinstance(n, bool) for n in (matches, seconds)
        ):
            raise Refused("bad_request", 400, 'send {"text": "<yaml>", "matches": 40, "seconds": 60}')
        from ...errors import StatsMissing
        from ...study import require_stats

        try:
            require_stats()  # before any match is played, as `tysiac compare --simulate` does
        except StatsMissing as exc:
            raise Refused("study_unavailable", 503, str(exc)) from None
        checked = await _off_loop(workbench.check, text)
        if not checked["ok"]:
            return JSONResponse(checked, status_code=422)
        parts = await _off_loop(workbench.house_parts, text)
        if parts["base"] is None:
            raise Refused("bad_request", 400, "a study compares a file with the one ruleset it extends")
        counts = (await _off_loop(workbench.controls, parts["base"], "en"))["counts"]
        players = body.get("players", 3 if 3 in counts else counts[0])
        if players not in counts:
            raise Refused("bad_request", 400, f"`players` is one of {', '.join(map(str, counts))}")
        try:
            job = self.studies.submit(
                text, parts["base"], players, matches, seconds, houses=str(self.house_files.folder)
            )
        except studies.StudyRefused as exc:
            raise Refused("bad_request" if exc.status == 400 else "rate", exc.status, str(exc)) from None
        found = self.studies.get(job.id)
        return JSONResponse(job.as_json(found[1] if found else None), status_code=202)

    async def study_state(self, request: Request) -> Response:
        found = self.studies.get(request.path_params["study"])
        if found is None:
            raise Refused("no_study", 404)
        job, position = found
        if request.url.path.startswith("/studies/"):
            if job.html is None:
                return PlainTextResponse("the study has no page (yet)", status_code=404)
            return HTMLResponse(job.html, headers={"Content-Security-Policy": CSP_BOOK})
        return JSONResponse(job.as_json(position))

    async def page(self, request: Request) -> Response:
        name = "table.html" if "table" in request.path_params else "index.html"
        if request.url.path == "/w" or request.url.path.startswith("/w/"):
            name = "workbench.html"
        path = STATIC / name
        if not path.is_file():
            return PlainTextResponse("the page is not installed", status_code=404)
        return FileResponse(path, media_type="text/html")

    async def rules_page(self, request: Request) -> Response:
        lang = _lang(request)
        rid = request.path_params["rid"]
        if rid not in {r.id for r in shipped()}:
            return PlainTextResponse("no such ruleset", status_code=404)
        return HTMLResponse(_book_html(rid, lang), headers={"Content-Security-Policy": CSP_BOOK})

    async def compare_page(self, request: Request) -> Response:
        return HTMLResponse(_compare_html(), headers={"Content-Security-Policy": CSP_BOOK})

    # ------------------------------------------------------------------ the socket

    async def socket(self, ws: WebSocket) -> None:
        if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host")):
            await ws.accept()
            await ws.close(CLOSE["forbidden"])
            return
        room = self.rooms.get(ws.path_params["table"])
        await ws.accept()
        if room is None:
            await ws.close(CLOSE["no_table"])
            return
        conn = _WsConn(ws)
        self.conns.add(conn)
        try:
            await self._converse(ws, room, conn)
        except WebSocketDisconnect:
            pass
        except Exception:  # never a traceback to the client; the log has it
            log.exception("table %s: socket failed", room.id)
            conn.close(1011)
        finally:
            room.leave(conn)
            self.conns.discard(conn)
            if not conn.closed:
                conn.close(1000)
            # the frames queued before the close (an error, the close code) go out first
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(conn.task), 5)

    async def _converse(self, ws: WebSocket, room: Room, conn: _WsConn) -> None:
        try:
            first = await asyncio.wait_for(_receive(ws), HELLO_SECONDS)
        except TimeoutError:
            conn.close(CLOSE["no_hello"])
            return
        if first is None:
            return
        try:
            hello = parse_frame(first)
        except BadFrame as exc:
            conn.send(views.dumps({"type": "error", "code": exc.code, "message": str(exc)}))
            conn.close(CLOSE["bad_token"])
            return
        if hello["type"] != "hello" or hello["proto"] != PROTO:
            conn.send(
                views.dumps(
                    {"type": "error", "code": "bad_message", "message": "the first frame is hello, proto 1"}
                )
            )
            conn.close(CLOSE["bad_token"])
            return
        try:
            who = room.admit(hello["token"])
        except Refused as exc:
            conn.send(views.dumps({"type": "error", "code": exc.code, "message": exc.message}))
            conn.close(CLOSE[exc.code])
            return
        conn.seat, conn.host, conn.watcher = who.seat, who.host, who.watcher
        lang = hello.get("lang") if hello.get("lang") in LANGS else "en"
        conn.send(views.dumps(room.welcome(conn, str(lang))))
        room.join(conn)
        conn.send(views.dumps({"type": "state", **room.state(None if conn.watcher else conn.seat)}))
        if not conn.watcher:
            for frame in room.chat_frames():
                conn.send(views.dumps(frame))
        tokens, last = RATE_BURST, time.monotonic()
        refused = bad = 0
        while not conn.closed:
            text = await _receive(ws)
            if text is None:
                return
            now = time.monotonic()
            tokens = min(RATE_BURST, tokens + (now - last) * RATE_PER_SECOND)
            last = now
            if tokens < 1:
                refused += 1
                if refused >= RATE_CLOSE:
                    conn.close(CLOSE["rate"])
                    return
                conn.send(views.dumps({"type": "error", "code": "rate", "message": ERRORS["rate"]}))
                continue
            tokens -= 1
            refused = 0
            req = None
            try:
                frame = parse_frame(text)
                req = frame.get("req")
                self._handle(room, conn, frame)
                bad = 0
            except BadFrame as exc:
                bad += 1
                if bad >= BAD_FRAMES_CLOSE:
                    conn.close(CLOSE["bad_messages"])
                    return
                conn.send(views.dumps({"type": "error", "code": exc.code, "message": str(exc)}))
            except Refused as exc:
                out: dict[str, Any] = {"type": "error", "code": exc.code, "message": exc.message}
                if req is not None:
                    out["req"] = req
                conn.send(views.dumps(out))
                if exc.code == "stale":
                    conn.send(
                        views.dumps({"type": "state", **room.state(None if conn.watcher else conn.seat)})
                    )

    def _handle(self, room: Room, conn: _WsConn, frame: dict[str, Any]) -> None:
        kind = frame["type"]
        if kind == "act":
            if conn.watcher:
                raise Refused("forbidden", 403, "watchers cannot act")
            req = frame.get("req")
            if req is not None and len(req) > 40:
                raise BadFrame("`act.req` has at most 40 characters")
            room.act(conn.seat, frame["v"], frame["a"], req)
        elif kind == "ping":
            conn.send(views.dumps({"type": "pong", "t": frame.get("t")}))
        elif kind == "hint":
            if conn.watcher:
                raise Refused("forbidden", 403, "watchers get no hints")
            action = room.hint(conn.seat, frame["v"])
            conn.send(views.dumps({"type": "hint", "v": frame["v"], "a": action}))
        elif kind == "chat":
            room.say(conn, frame["text"])
        elif kind == "name":
            if conn.seat is None or conn.watcher:
                raise Refused("forbidden", 403, "only a seated player has a name")
            room.rename(conn.seat, frame["name"])
        elif kind == "hello":
            raise BadFrame("hello is the first frame only")
        elif not conn.host:
            raise Refused("forbidden", 403, f"only the host may send `{kind}`")
        elif kind == "seat_bot":
            room.hand_to_bot(frame["seat"], frame["bot"])
        elif kind == "settings":
            room.settings(frame)
        elif kind == "rematch":
            room.rematch()

    async def close_all(self) -> None:
        """Close every socket with 1001 (the server stops; clients reconnect)."""
        for conn in list(self.conns):
            conn.close(CLOSE["going_away"])
        tasks = [c.task for c in self.conns if not c.task.done()]
        if tasks:
            await asyncio.wait(tasks, timeout=2)


async def _receive(ws: WebSocket) -> str | None:
    """The next text (or bytes, as text) frame; ``None`` when the client has gone."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        return None
    if message.get("text") is not None:
        return str(message["text"])
    data = message.get("bytes") or b""
    if len(data) > MAX_FRAME:
        return "\x00" * (MAX_FRAME + 1)  # refused as too large by parse_frame
    return data.decode("utf-8", "replace")


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


@lru_cache(maxsize=1)
def _rulesets_json() -> dict[str, Any]:
    return {
        "rulesets": [views.ruleset_json(r) for r in shipped()],
        "bots": sorted(BUILTIN),
        "languages": list(LANGS),
    }


@lru_cache(maxsize=64)
def _book_html(rid: str, lang: str) -> str:
    from ...docs.book import build_book, render_book
    from ...ruleset import load_ruleset

    links = {"home": "/", "langs": {code: f"/rules/{rid}?lang={code}" for code in LANGS}, "markdown": ""}
    return render_book(build_book(load_ruleset(rid), lang=lang), "html", links=links)


@lru_cache(maxsize=1)
def _compare_html() -> str:
    from ...docs.compare import by_kind, compare, render_comparison

    playable = by_kind(shipped())
    books = {r.id: f"/rules/{r.id}" for r in playable}
    return render_comparison(
        compare(playable), "html", links={"home": "/", "full": "/compare", "full_label": "", "books": books}
    )


def _wrap(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        try:
            return await handler(request)
        except Refused as exc:
            extra = {"version": exc.version} if exc.version is not None else {}
            return _error(exc.code, exc.status, exc.message, **extra)
        except TimeoutError:
            return _error("bad_request", 400, "the ruleset took too long to load")
        except Exception:
            log.exception("request %s failed", request.url.path)
            return _error("server", 500, "the server failed; the table is unchanged")

    return endpoint


HOSTS_ENV = "TYSIAC_WEB_HOSTS"
"""Host names (comma-separated) the server answers to besides ``localhost`` and IP addresses:
the name a hosted instance is reached by (``tysiac.example.org``)."""


def host_allowed(host: str | None, extra: str | None = None) -> bool:
    """Whether a request whose ``Host`` header is ``host`` is for this server: an IP address
    (v4 or ``[v6]``), ``localhost``, or a name in :data:`HOSTS_ENV` (``extra``: its value).
    Any other name is refused, so that a page on another site whose name is made to resolve
    to this machine (DNS rebinding) gets nothing: its Origin and Host would agree."""
    import ipaddress

    if not host:
        return False
    name = host.strip().lower()
    if name.startswith("["):
        name = name[1:name.find("]")] if "]" in name else name
    else:
        name = name.rsplit(":", 1)[0] if name.count(":") == 1 else name
    if name == "localhost":
        return True
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    names = os.environ.get(HOSTS_ENV, "") if extra is None else extra
    return name in {n.strip().lower() for n in names.split(",") if n.strip()}


class _Headers:
    """Security headers on every HTTP answer (a route may set its own CSP), and the Host check
    (:func:`host_allowed`) on every request and websocket."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            host = next((v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"host"), None)
            if not host_allowed(host):
                await _wrong_host(scope, receive, send)
                return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                for key, value in (
                    (b"content-security-policy", CSP.encode()),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"x-frame-options", b"DENY"),
                    (b"cache-control", b"no-store"),
                ):
                    if key not in names:
                        headers.append((key, value))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


WRONG_HOST = (f"this server answers to its IP address or localhost; a host name it should answer to goes "
              f"in {HOSTS_ENV}")


async def _wrong_host(scope: Any, receive: Any, send: Any) -> None:
    """Refuse a request for another host: 421 with the error body, or a websocket refused
    before it opens (the handshake answered 403)."""
    if scope["type"] == "websocket":
        await receive()  # websocket.connect
        await send({"type": "websocket.close", "code": 4403, "reason": "wrong host"})
        return
    body = json.dumps({"error": {"code": "wrong_host", "message": WRONG_HOST}}).encode()
    await send({"type": "http.response.start", "status": 421, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store")]})
    await send({"type": "http.response.body", "body": body})


def create_app(store: Store, *, allow_seeds: bool | None = None) -> Starlette:
    """The application over ``store``: every stored table restored, the routes of
    :mod:`.protocol`.  ``allow_seeds``: take a client's ``seed`` (tests; default from
    :data:`SEEDS_ENV`)."""
    server = Server(store, allow_seeds=allow_seeds)
    server.restore()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        for room in server.rooms.values():
            room.resume()  # the bots of restored tables go on, paced, on the running loop
        yield
        for room in server.rooms.values():
            room.stop()
        server.studies.stop()
        server.forget_houses()
        shutil.rmtree(server.house_files.folder, ignore_errors=True)
        await server.close_all()
        store.close()

    w = _wrap
    routes = [
        Route("/", w(server.page)),
        Route("/t/{table}", w(server.page)),
        Route("/rules/{rid}", w(server.rules_page)),
        Route("/compare", w(server.compare_page)),
        Route("/api/rulesets", w(server.rulesets)),
        Route("/cards/{key:str}.svg", w(server.cards)),
        Route("/api/rulesets/check", w(server.check), methods=["POST"]),
        # the house-rule workbench (workbench.py)
        Route("/w", w(server.page)),
        Route("/w/{house}", w(server.page)),
        Route("/api/rulesets/book", w(server.wb_book), methods=["POST"]),
        Route("/api/rulesets/compare", w(server.wb_compare), methods=["POST"]),
        Route("/api/rulesets/house", w(server.wb_house), methods=["POST"]),
        Route("/api/rulesets/controls", w(server.wb_controls)),
        Route("/api/houses", w(server.wb_save), methods=["POST"]),
        Route("/api/houses/{house}.yaml", w(server.wb_saved)),
        Route("/api/houses/{house}", w(server.wb_saved)),
        Route("/api/studies", w(server.study_start), methods=["POST"]),
        Route("/api/studies/{study}", w(server.study_state)),
        Route("/studies/{study}", w(server.study_state)),
        Route("/api/tables", w(server.create), methods=["POST"]),
        Route("/api/tables/{table}/state", w(server.state)),
        Route("/api/tables/{table}/actions", w(server.act), methods=["POST"]),
        Route("/api/tables/{table}/record", w(server.record)),
        Route("/api/tables/{table}/ruleset", w(server.ruleset_text)),
        Route("/api/qr", w(server.qr), methods=["POST"]),
        Route("/api/metrics", w(server.metrics)),
        WebSocketRoute("/t/{table}/ws", server.socket),
        *sheet_routes(getattr(store, "path", ":memory:")),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.server = server
    app.add_middleware(_Headers)
    return app


def serve(
    db: str | Path,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    durable: bool = False,
    ready: Callable[[str], None] | None = None,
    log_level: str = "info",
) -> None:
    """Run the web table on ``host:port`` over the SQLite file ``db`` until Ctrl-C or SIGTERM
    (sockets closed cleanly; every accepted action is already stored).  ``ready`` is called
    with the URL once the server listens."""
    import uvicorn

    from .store import SqliteStore

    logging.basicConfig(level=logging.INFO, format="%(message)s")
    if port:
        _check_port(host, port)
    try:
        store = SqliteStore(db, durable=durable)
    except (sqlite3.Error, OSError) as exc:
        raise CannotServe(f"{db}: not a database the server can use ({exc})") from None
    app = create_app(store)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        ws="websockets-sansio",
        ws_max_size=WS_MAX_SIZE,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        timeout_graceful_shutdown=5,
        log_level=log_level,
        access_log=False,
        lifespan="on",
    )
    server = uvicorn.Server(config)
    original = server.startup

    async def startup(sockets: Any = None) -> None:
        await original(sockets)
        bound = server.servers[0].sockets[0].getsockname() if server.servers else (host, port)
        name = f"[{host}]" if ":" in host else host
        app.state.server.base_url = f"http://{name}:{bound[1]}"
        if ready is not None:
            ready(f"http://{host}:{bound[1]}/")

    server.startup = startup  # type: ignore[method-assign]
    server.run()


def _check_port(host: str, port: int) -> None:
    """Raise :class:`CannotServe` when ``host:port`` cannot be listened on (taken, or no
    such address), before the server starts."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise CannotServe(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
