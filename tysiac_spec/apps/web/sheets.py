"""The scoresheet in the browser: :class:`SqliteSheetStore` (the scoresheet service's store
in the web server's SQLite file) and the HTTP routes of ``/s/<sheet>`` and
``/api/sheets`` (:func:`sheet_routes`).

Every question, its order, its parser and message, and every settlement are
:class:`~tysiac_spec.scoresheet.service.ScoresheetService`'s, i.e. ``tysiac score``'s own:
this module only stores texts, checks the edit token and turns errors into JSON.

A sheet has two links: the edit link ``/s/<sheet>#edit=<token>`` (the token is in the URL
fragment, which browsers never send; it is stored only as its SHA-256, :mod:`.auth`) and the
read-only link ``/s/<sheet>`` (the sheet id is 12 random characters).  Every write carries
the ``Authorization: Bearer <edit token>`` header and the ``version`` the writer last saw;
a write without the token gets 403 ``read_only``, one at an older version 409 ``stale``
(the body has the current ``version``), and nothing is written.

The tables (``scoresheets``, ``scoresheet_texts``) are created with ``CREATE TABLE IF NOT
EXISTS`` on the server's database and leave ``PRAGMA user_version`` (the table store's
migrations, :mod:`.store`) alone.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import sqlite3
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from ...errors import EntryError, LimitError, MatchError, RulesetError, SaveConflictError, TysiacError
from ...savefile import text_version
from ...scoresheet.service import ScoresheetService, error_data
from .auth import new_id, new_token, refuse_write, same_token, token_hash
from .rulesets import load_table_ruleset

__all__ = ["SCHEMA", "SqliteSheetStore", "sheet_routes"]

log = logging.getLogger("tysiac.web")

STATIC = Path(__file__).parent / "static"

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS scoresheets (
      id TEXT PRIMARY KEY, created_at REAL NOT NULL, edit_token_hash TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS scoresheet_texts (
      key TEXT PRIMARY KEY, text TEXT NOT NULL, version TEXT NOT NULL, updated_at REAL NOT NULL)""",
)
"""The sheets' tables: a sheet's id and edit-token hash; each stored text (a sheet's file
text under its id, its ruleset text under ``<id>.ruleset``) with its version
(:func:`~tysiac_spec.savefile.text_version`)."""

MAX_SHEET_BODY = 1 << 20
"""The largest request body a sheet route reads (bytes): an imported sheet file or a
ruleset text; the texts themselves are then bounded by :mod:`tysiac_spec.limits`."""

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{11}")
_RULES_CHANGED = re.compile(r"^the rules of `[^`]*` changed \(")
"""The start of the service's message for a sheet whose rules changed in what scores
(:func:`~tysiac_spec.scoresheet.carry.reconcile_rules`): the page then offers to go on
under the new rules."""


class SqliteSheetStore:
    """The scoresheet service's :class:`~tysiac_spec.scoresheet.service.SheetStore` on a
    SQLite file (the web server's; ``":memory:"`` for tests).  One connection guarded by a
    lock; each save is one ``BEGIN IMMEDIATE`` transaction that compares the version, so two
    requests (or two server processes) never both write over the same version."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10)
        if self.path != ":memory:":
            self._db.execute("PRAGMA journal_mode=WAL")
        for statement in SCHEMA:
            self._db.execute(statement)

    def load(self, key: str) -> tuple[str, str]:
        with self._lock:
            row = self._db.execute(
                "SELECT text, version FROM scoresheet_texts WHERE key = ?", (key,)).fetchone()
        return ("", "") if row is None else (str(row[0]), str(row[1]))

    def save(self, key: str, text: str, *, expected: str) -> str:
        from ...errors import Diagnostic

        version = text_version(text)
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                row = db.execute("SELECT version FROM scoresheet_texts WHERE key = ?", (key,)).fetchone()
                found = "" if row is None else str(row[0])
                if found != expected:
                    raise SaveConflictError(Diagnostic(
                        "save.conflict", f"the sheet was changed by another request since version "
                        f"{expected[:12] or '(none)'}; nothing was written", hint="reload the sheet"),
                        expected=expected, found=found)
                db.execute(
                    "INSERT INTO scoresheet_texts (key, text, version, updated_at) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT(key) DO UPDATE SET text = excluded.text, version = excluded.version, "
                    "updated_at = excluded.updated_at", (key, text, version, time.time()))
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        return version

    def add_sheet(self, sheet_id: str, edit_hash: str) -> None:
        """Record a new sheet's id and edit-token hash."""
        with self._lock:
            self._db.execute("INSERT INTO scoresheets (id, created_at, edit_token_hash) VALUES (?, ?, ?)",
                             (sheet_id, time.time(), edit_hash))

    def drop_sheet(self, sheet_id: str) -> None:
        """Forget a sheet whose creation failed (its texts and its row)."""
        with self._lock:
            self._db.execute("DELETE FROM scoresheet_texts WHERE key IN (?, ?)",
                             (sheet_id, sheet_id + ".ruleset"))
            self._db.execute("DELETE FROM scoresheets WHERE id = ?", (sheet_id,))

    def edit_hash(self, sheet_id: str) -> str | None:
        """The edit-token hash of a sheet; ``None``: no such sheet."""
        with self._lock:
            row = self._db.execute(
                "SELECT edit_token_hash FROM scoresheets WHERE id = ?", (sheet_id,)).fetchone()
        return None if row is None else str(row[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()


class _Refused(Exception):
    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra


def _answer_error(exc: TysiacError, *, version: str | None = None) -> JSONResponse:
    """A service error as HTTP: 409 ``stale`` (a stale version; the current ``version``),
    422 with the error's own code (``entry.*``, ``ruleset.*``, ``limit.*``)."""
    data = error_data(exc)
    if isinstance(exc, SaveConflictError):
        body: dict[str, Any] = {"error": {
            **data, "code": "stale", "message": "the sheet was changed on another device since you loaded "
            "it; nothing was written: reload it and enter the deal again"}}
        if version is not None:
            body["version"] = version
        return JSONResponse(body, status_code=409)
    return JSONResponse({"error": data}, status_code=422)


def _contain(ruleset: str | None, ruleset_text: str | None, sheet_text: str | None = None) -> None:
    """Refuse any path a client names before the service loads a ruleset: ``ruleset`` is a
    shipped id, ``ruleset_text`` may ``extends`` shipped ids only (:mod:`.rulesets`), and an
    imported sheet without ``ruleset_text`` names a shipped id.

    Raises:
        RulesetError: ``upload.path`` or ``upload.extends-path``; the text's own problems.
        EntryError: ``entry.sheet`` — ``sheet_text`` is not a sheet.
    """
    from ...errors import Diagnostic
    from ...ruleset import registry
    from ...scoresheet.sheetfile import Sheet

    if ruleset_text is not None:
        load_table_ruleset(None, ruleset_text, None)
    if sheet_text is not None and ruleset_text is None:
        ruleset = Sheet.from_json(sheet_text, name="the sheet file").ruleset
    if ruleset is not None and ruleset_text is None and registry.looks_like_path(ruleset):
        raise RulesetError(Diagnostic(
            "upload.path", f"the rules `{ruleset[:60]}` are a file: name a shipped ruleset by its id "
            "(see /api/rulesets), or send the file's text as `ruleset_text`"))


class SheetRoutes:
    """The handlers of the sheet routes over one :class:`SqliteSheetStore`."""

    def __init__(self, store: SqliteSheetStore) -> None:
        self.store = store
        self.service = ScoresheetService(store)

    async def _run(self, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run a service call in a thread (settling a long sheet replays its deals), bounded."""
        return await asyncio.wait_for(asyncio.to_thread(function, *args, **kwargs), timeout=30)

    async def _body(self, request: Request) -> dict[str, Any]:
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_SHEET_BODY):
            raise _Refused(413, "too_large", f"the body is at most {MAX_SHEET_BODY} bytes")
        data = b""
        async for chunk in request.stream():
            data += chunk
            if len(data) > MAX_SHEET_BODY:
                raise _Refused(413, "too_large", f"the body is at most {MAX_SHEET_BODY} bytes")
        refused = refuse_write(request.headers, body=bool(data.strip()))
        if refused is not None:
            raise _Refused(refused[0], "forbidden" if refused[0] == 403 else "bad_request", refused[1])
        if not data.strip():
            return {}
        try:
            body = json.loads(data.decode("utf-8"), parse_constant=_refuse_constant)
        except (ValueError, RecursionError):
            raise _Refused(400, "bad_request", "the body is one JSON object") from None
        if not isinstance(body, dict):
            raise _Refused(400, "bad_request", "the body is one JSON object")
        return body

    def _sheet(self, request: Request) -> str:
        sheet_id = request.path_params["sheet"]
        if not _ID.fullmatch(sheet_id) or self.store.edit_hash(sheet_id) is None:
            raise _Refused(404, "no_sheet", "there is no such sheet")
        return str(sheet_id)

    def _editor(self, request: Request) -> str:
        """The sheet id, when the request carries its edit token."""
        sheet_id = self._sheet(request)
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not same_token(token.strip(), self.store.edit_hash(sheet_id)):
            raise _Refused(403, "read_only", "this link is read-only: only the edit link changes the sheet")
        return sheet_id

    @staticmethod
    def _version(body: dict[str, Any], request: Request) -> str:
        version = body.get("version", request.query_params.get("version"))
        if not isinstance(version, str) or not version:
            raise _Refused(400, "bad_request", "give the `version` of the sheet you last saw")
        return version

    @staticmethod
    def _answers(body: dict[str, Any]) -> dict[str, str]:
        answers = body.get("answers", {})
        if not isinstance(answers, dict) or not all(isinstance(v, str) for v in answers.values()):
            raise _Refused(400, "bad_request", "`answers` maps each question's key to the text typed")
        return answers

    def _current(self, sheet_id: str) -> str:
        return self.store.load(sheet_id)[1]

    # ------------------------------------------------------------------ routes

    async def page(self, request: Request) -> Response:
        path = STATIC / "sheet.html"
        if not path.is_file():
            return PlainTextResponse("the page is not installed", status_code=404)
        return FileResponse(path, media_type="text/html")

    async def create(self, request: Request) -> Response:
        body = await self._body(request)
        names = body.get("names") or []
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise _Refused(400, "bad_request", "`names` lists one name per player (or is left out)")
        options = body.get("options") or {}
        if not isinstance(options, dict) or not all(
                isinstance(v, str | int | bool) and not isinstance(v, float) for v in options.values()):
            raise _Refused(400, "bad_request", "`options` maps option names to values (a text, a number, "
                           "true or false)")
        players = body.get("players")
        if players is not None and (not isinstance(players, int) or isinstance(players, bool)):
            raise _Refused(400, "bad_request", "`players` is a whole number")
        dealer = body.get("dealer", 0)
        for field in ("ruleset", "ruleset_text", "sheet_text"):
            if body.get(field) is not None and not isinstance(body[field], str):
                raise _Refused(400, "bad_request", f"`{field}` is a text")
        await self._run(_contain, body.get("ruleset"), body.get("ruleset_text"), body.get("sheet_text"))
        sheet_id = _new_sheet_id()
        token = new_token()
        self.store.add_sheet(sheet_id, token_hash(token))
        try:
            if body.get("sheet_text") is not None:
                view = await self._run(self.service.import_sheet, sheet_id, body["sheet_text"], expected="",
                                       ruleset_text=body.get("ruleset_text"))
            else:
                view = await self._run(self.service.create, sheet_id, ruleset=body.get("ruleset"),
                                       ruleset_text=body.get("ruleset_text"), players=players, names=names,
                                       options=options, dealer=dealer)
        except BaseException:
            self.store.drop_sheet(sheet_id)
            raise
        page = f"{str(request.base_url).rstrip('/')}/s/{sheet_id}"
        return JSONResponse({"sheet": sheet_id, "edit": f"{page}#edit={token}", "edit_token": token,
                             "view": page, **view}, status_code=201)

    async def view(self, request: Request) -> Response:
        sheet_id = self._sheet(request)
        try:
            return JSONResponse(await self._run(self.service.view, sheet_id))
        except EntryError as exc:
            if not _RULES_CHANGED.match(exc.diagnostic.message):
                raise
            # the rules changed in what scores: the editor may go on under them (new-rules)
            body = {"error": error_data(exc), "rules_changed": True, "version": self._current(sheet_id)}
            return JSONResponse(body, status_code=422)

    async def next_question(self, request: Request) -> Response:
        sheet_id = self._sheet(request)
        body = await self._body(request)
        answers, lang = self._answers(body), body.get("lang", "en")
        if not isinstance(lang, str):
            raise _Refused(400, "bad_request", "`lang` is en, pl, ru or cs")
        return JSONResponse(await self._run(self.service.next_question, sheet_id, answers, lang))

    async def add_deal(self, request: Request) -> Response:
        sheet_id = self._editor(request)
        body = await self._body(request)
        version, answers = self._version(body, request), self._answers(body)
        try:
            view = await self._run(self.service.add_deal, sheet_id, answers, expected=version)
        except SaveConflictError as exc:
            return _answer_error(exc, version=self._current(sheet_id))
        return JSONResponse(view, status_code=201)

    async def undo(self, request: Request) -> Response:
        sheet_id = self._editor(request)
        version = self._version(await self._body(request), request)
        try:
            view = await self._run(self.service.undo, sheet_id, expected=version)
        except SaveConflictError as exc:
            return _answer_error(exc, version=self._current(sheet_id))
        return JSONResponse(view)

    async def new_rules(self, request: Request) -> Response:
        sheet_id = self._editor(request)
        version = self._version(await self._body(request), request)
        try:
            view = await self._run(self.service.go_on_under_new_rules, sheet_id, expected=version)
        except SaveConflictError as exc:
            return _answer_error(exc, version=self._current(sheet_id))
        return JSONResponse(view)

    async def export(self, request: Request) -> Response:
        sheet_id = self._sheet(request)
        data = await self._run(self.service.export_sheet, sheet_id)
        if request.query_params.get("download"):
            return PlainTextResponse(data["sheet"], media_type="application/json", headers={
                "Content-Disposition": f'attachment; filename="sheet-{sheet_id}.json"'})
        return JSONResponse(data)

    async def import_(self, request: Request) -> Response:
        sheet_id = self._editor(request)
        body = await self._body(request)
        version = self._version(body, request)
        text, ruleset_text = body.get("sheet_text"), body.get("ruleset_text")
        if not isinstance(text, str) or (ruleset_text is not None and not isinstance(ruleset_text, str)):
            raise _Refused(400, "bad_request", 'send {"version": v, "sheet_text": "<the sheet file>"}')
        if ruleset_text is not None or not self.store.load(sheet_id + ".ruleset")[1]:
            await self._run(_contain, None, ruleset_text, text)
        try:
            view = await self._run(self.service.import_sheet, sheet_id, text, expected=version,
                                   ruleset_text=ruleset_text)
        except SaveConflictError as exc:
            return _answer_error(exc, version=self._current(sheet_id))
        return JSONResponse(view)


def _new_sheet_id() -> str:
    """A sheet id: 12 random URL-safe characters that the service takes as a key (starting
    with a letter or a digit)."""
    while True:
        sheet_id = new_id()
        if _ID.fullmatch(sheet_id):
            return sheet_id


def _refuse_constant(name: str) -> Any:
    raise ValueError(name)


def _wrap(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        try:
            return await handler(request)
        except _Refused as exc:
            body = {"error": {"code": exc.code, "message": exc.message, "hint": None}, **exc.extra}
            return JSONResponse(body, status_code=exc.status)
        except (EntryError, MatchError, RulesetError, LimitError) as exc:
            return _answer_error(exc)
        except SaveConflictError as exc:
            return _answer_error(exc)
        except TysiacError as exc:  # a store that cannot write
            return JSONResponse({"error": error_data(exc)}, status_code=503)
        except TimeoutError:
            return JSONResponse({"error": {"code": "busy", "message": "the sheet took too long to settle",
                                           "hint": None}}, status_code=503)
        except Exception:
            log.exception("request %s failed", request.url.path)
            return JSONResponse({"error": {"code": "server", "message": "the server failed; the sheet is "
                                           "unchanged", "hint": None}}, status_code=500)

    return endpoint


def sheet_routes(db_path: str | Path) -> list[Route]:
    """The routes of the scoresheet over the SQLite file ``db_path`` (the web server's):

    ``GET /s`` (a new sheet) and ``GET /s/<sheet>`` (the page), ``POST /api/sheets``,
    ``GET /api/sheets/<s>``, ``POST /api/sheets/<s>/next``, ``POST /api/sheets/<s>/deals``,
    ``DELETE /api/sheets/<s>/deals/last``, ``POST /api/sheets/<s>/new-rules``,
    ``GET /api/sheets/<s>/export``, ``PUT /api/sheets/<s>`` (import); shapes in
    :mod:`.protocol`."""
    h = SheetRoutes(SqliteSheetStore(db_path))
    w = _wrap
    return [
        Route("/s", w(h.page)),
        Route("/s/{sheet}", w(h.page)),
        Route("/api/sheets", w(h.create), methods=["POST"]),
        Route("/api/sheets/{sheet}", w(h.view), methods=["GET"]),
        Route("/api/sheets/{sheet}", w(h.import_), methods=["PUT"]),
        Route("/api/sheets/{sheet}/next", w(h.next_question), methods=["POST"]),
        Route("/api/sheets/{sheet}/deals", w(h.add_deal), methods=["POST"]),
        Route("/api/sheets/{sheet}/deals/last", w(h.undo), methods=["DELETE"]),
        Route("/api/sheets/{sheet}/new-rules", w(h.new_rules), methods=["POST"]),
        Route("/api/sheets/{sheet}/export", w(h.export), methods=["GET"]),
    ]
