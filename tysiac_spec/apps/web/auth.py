"""Secrets of the web table: capability tokens (random, stored only as SHA-256) and the
websocket's Origin check.  There are no accounts: a link carries its token in the URL
fragment, which browsers never send to a server."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping
from urllib.parse import urlsplit

__all__ = [
    "JSON_ONLY",
    "OTHER_SITE",
    "new_id",
    "new_token",
    "origin_allowed",
    "refuse_write",
    "same_token",
    "token_hash",
]


def new_token() -> str:
    """A new secret: 32 random bytes, URL-safe base64 (43 characters)."""
    return secrets.token_urlsafe(32)


def new_id() -> str:
    """A new table id: 9 random bytes, URL-safe (12 characters); not derived from the seed."""
    return secrets.token_urlsafe(9)


def token_hash(token: str) -> str:
    """The stored form of a token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def same_token(token: str, stored_hash: str | None) -> bool:
    """Whether ``token`` hashes to ``stored_hash`` (compared in constant time)."""
    return stored_hash is not None and hmac.compare_digest(token_hash(token), stored_hash)


def origin_allowed(origin: str | None, host: str | None) -> bool:
    """Whether a websocket from a page at ``origin`` may talk to the server reached as
    ``host`` (the ``Host`` header): no Origin (a script, not a browser), or an http(s)
    origin naming the same host and port."""
    if origin is None:
        return True
    if host is None:
        return False
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()


JSON_ONLY = "send the body as Content-Type: application/json"
OTHER_SITE = "a page on another site may not change anything here"


def refuse_write(headers: Mapping[str, str], *, body: bool = True) -> tuple[int, str] | None:
    """Why a request that changes something (a POST, PUT or DELETE of the web table or the
    web scoresheet) is refused, as ``(HTTP status, message)``; ``None`` when it is taken.

    ``headers``: the request's (lower-case names).  An ``Origin`` that is sent must name the
    server as reached (:func:`origin_allowed`, else 403); a body (``body``) must be sent as
    ``application/json`` (else 415): a page on another site may send a "simple" cross-site
    request (text/plain, form data) without the browser asking first, but not JSON.
    """
    if not origin_allowed(headers.get("origin"), headers.get("host")):
        return 403, OTHER_SITE
    media = headers.get("content-type", "").partition(";")[0].strip().lower()
    if body and media != "application/json":
        return 415, JSON_ONLY
    return None
