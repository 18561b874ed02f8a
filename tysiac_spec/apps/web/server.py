"""The web table's server: a Starlette application with the routes of :mod:`.protocol`,
security headers, bounds on bodies, frames and their rate, and the rooms of every table
restored from the store at start.  The modules beside it hold its parts: the state every
route shares (:mod:`.server_state`), the routes of the tables (:mod:`.routes_tables`), of the
workbench (:mod:`.routes_workbench`) and the pages (:mod:`.routes_pages`), the websocket's
conversation (:mod:`.sockets`), the Host check and security headers (:mod:`.guard`); the
scoresheet's routes come from :mod:`.sheets`.

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

import contextlib
import logging
import socket
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from ...errors import CannotServe
from . import routes_pages as pages
from .guard import WRONG_HOST, _Headers, host_allowed
from .room import Refused
from .routes_pages import STATIC
from .routes_tables import TableRoutes
from .routes_workbench import WorkbenchRoutes
from .server_state import CREATE_PER_HOUR, _error, log
from .sheets import sheet_routes
from .sockets import WS_MAX_SIZE
from .store import Store

# (the names of the guard and the state that tests take from here stay importable here)
__all__ = [
    "CREATE_PER_HOUR", "STATIC", "WRONG_HOST", "CannotServe", "Server", "create_app", "host_allowed", "serve",
]


class Server(TableRoutes, WorkbenchRoutes):
    """The application's state (:class:`~.server_state.ServerState`) with the routes of the
    tables and of the workbench."""


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


def create_app(store: Store, *, allow_seeds: bool | None = None) -> Starlette:
    """The application over ``store``: every stored table restored, the routes of
    :mod:`.protocol`.  ``allow_seeds``: take a client's ``seed`` (tests; default from
    :data:`~.server_state.SEEDS_ENV`)."""
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
        server.close()
        await server.close_all()
        store.close()

    w = _wrap
    routes = [
        Route("/", w(pages.page)),
        Route("/t/{table}", w(pages.page)),
        Route("/rules/{rid}", w(pages.rules_page)),
        Route("/compare", w(pages.compare_page)),
        Route("/api/rulesets", w(server.rulesets)),
        Route("/cards/{key:str}.svg", w(pages.cards)),
        Route("/api/rulesets/check", w(server.check), methods=["POST"]),
        # the house-rule workbench (workbench.py)
        Route("/w", w(pages.page)),
        Route("/w/{house}", w(pages.page)),
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
