"""The routes of the house-rule workbench (``/w``, :mod:`.workbench`): a file's rule book,
its comparison with the ruleset it extends, a house file made from choices and read back
into them, the controls of a base ruleset, a house file saved and fetched, and a study of
its effect on play (:mod:`.studies`), started and followed.  Each request is bounded per
client address (:data:`.workbench.CALLS_PER_MINUTE`)."""

from __future__ import annotations

import functools
import re
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response

from ...errors import TysiacError
from . import studies, workbench
from .auth import new_id
from .guard import CSP_BOOK
from .protocol import LANGS
from .room import Refused
from .server_state import ServerState, _error, _lang, _off_loop, _one_line

__all__ = ["WorkbenchRoutes"]


class WorkbenchRoutes(ServerState):
    """The routes of the workbench, on the server's state."""

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
