"""The web server's guard, an ASGI middleware around the application: the ``Host`` check on
every request and websocket (:func:`host_allowed`: DNS rebinding gets nothing) and the
security headers on every HTTP answer (:data:`CSP`; a page of rules or figures sets
:data:`CSP_BOOK`)."""

from __future__ import annotations

import json
import os
from typing import Any

__all__ = ["CSP", "CSP_BOOK", "HOSTS_ENV", "WRONG_HOST", "host_allowed"]

CSP = (
    "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
CSP_BOOK = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "frame-ancestors 'none'; base-uri 'none'"
)


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
