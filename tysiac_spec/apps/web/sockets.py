"""The table's websocket (``/t/<table>/ws``) after the server admitted it into a room: one
writer task per connection (:class:`_WsConn`, so that a slow client never holds up a table),
the ``hello`` frame, then the client's frames, bounded in rate (a token bucket per
connection), parsed (:func:`.protocol.parse_frame`) and handed to the room
(:func:`_handle`)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from starlette.websockets import WebSocket

from . import views
from .protocol import CLOSE, ERRORS, HELLO_SECONDS, LANGS, MAX_FRAME, PROTO, BadFrame, parse_frame
from .room import Refused, Room

__all__ = ["BAD_FRAMES_CLOSE", "RATE_BURST", "RATE_CLOSE", "RATE_PER_SECOND", "WS_MAX_SIZE"]

RATE_PER_SECOND, RATE_BURST, RATE_CLOSE = 8.0, 16.0, 40
"""Per connection: frames per second refilled, the bucket's size, and how many refused
frames in a row close the socket (4429)."""

BAD_FRAMES_CLOSE = 20
"""Bad frames in a row that close the socket (4400)."""

WS_MAX_SIZE = 4 * MAX_FRAME
"""Frames larger than :data:`~.protocol.MAX_FRAME` are answered with ``too_large``; frames
larger than this are refused by the websocket layer itself (close 1009)."""


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


async def _converse(ws: WebSocket, room: Room, conn: _WsConn) -> None:
    """The conversation on an accepted socket: the ``hello`` (its token admits the client to
    ``room``), the welcome, then every frame until the client goes or is closed."""
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
            _handle(room, conn, frame)
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


def _handle(room: Room, conn: _WsConn, frame: dict[str, Any]) -> None:
    """One parsed frame after the ``hello``, done by the room.

    Raises:
        BadFrame: a second ``hello``, or an ``act.req`` over 40 characters.
        Refused: what the room refuses, or a frame this connection may not send.
    """
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
