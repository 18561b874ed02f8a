"""The routes of the tables: the shipped rulesets and a house file checked
(``/api/rulesets``), a table made (``POST /api/tables``) and its state, actions, record and
uploaded ruleset, the QR code of a link, the metrics, and the table's websocket admitted
into its room (the conversation itself is :mod:`.sockets`).  The wire format is
:mod:`.protocol`'s; what a room refuses comes back as its own code and words."""

from __future__ import annotations

import asyncio
import contextlib
import io
from functools import lru_cache
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.websockets import WebSocket, WebSocketDisconnect

from ...bots import BUILTIN
from ...errors import OptionError, TysiacError
from . import views, workbench
from .auth import new_id, new_token, origin_allowed, token_hash
from .protocol import CLOSE, LANGS, clean_name
from .room import Refused, Room, new_seed, table_row
from .rulesets import UPLOAD_FILE, load_table_ruleset, shipped
from .server_state import SEEDS_ENV, ServerState, _error, _off_loop, _one_line, log
from .sockets import _converse, _WsConn
from .store import SeatRow

__all__ = ["TABLE_FIELDS", "TableRoutes"]

TABLE_FIELDS = ("ruleset", "ruleset_text", "players", "options", "seats", "names", "host_seat", "seed",
                "grace", "chat", "spectators", "hints")
"""The fields ``POST /api/tables`` takes (any other is refused by name)."""


def _shown(text: str) -> str:
    from ...text import printable, shorten

    return shorten(printable(text), 40)


class TableRoutes(ServerState):
    """The routes of the tables, on the server's state."""

    async def rulesets(self, request: Request) -> Response:
        return JSONResponse(_rulesets_json())

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
            await _converse(ws, room, conn)
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

    async def close_all(self) -> None:
        """Close every socket with 1001 (the server stops; clients reconnect)."""
        for conn in list(self.conns):
            conn.close(CLOSE["going_away"])
        tasks = [c.task for c in self.conns if not c.task.done()]
        if tasks:
            await asyncio.wait(tasks, timeout=2)


@lru_cache(maxsize=1)
def _rulesets_json() -> dict[str, Any]:
    return {
        "rulesets": [views.ruleset_json(r) for r in shipped()],
        "bots": sorted(BUILTIN),
        "languages": list(LANGS),
    }
