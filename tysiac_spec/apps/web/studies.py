"""The workbench's "Study it": a house file against the ruleset it extends, played by bots as
``tysiac compare <base> house.yaml --simulate N`` plays them (:func:`tysiac_spec.simulate.simulate`,
the fast path where it applies; the figures, tests and page of :mod:`tysiac_spec.study`).

A shared server runs one study at a time, in a child process of its own (the tables keep the
server's cores and its event loop), and keeps at most :data:`MAX_WAITING` waiting; a request
over :data:`MAX_MATCHES` matches or :data:`MAX_SECONDS` seconds, or when the queue is full, is
refused with :class:`StudyRefused` naming the bound.  Each ruleset gets half the seconds: when
the base's time runs out its matches so far are kept and the house plays as many (the same
match seeds), so the two stay comparable; the child is killed at the budget plus
:data:`START_SECONDS` whatever it is doing.  No web framework here (:mod:`.server` holds the
routes).
"""

from __future__ import annotations

import multiprocessing
import os
import secrets
import tempfile
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "DEFAULT_MATCHES",
    "MAX_MATCHES",
    "MAX_SECONDS",
    "MAX_WAITING",
    "StudyJob",
    "StudyQueue",
    "StudyRefused",
]

MAX_MATCHES = 200
"""Most matches per ruleset in one study."""
DEFAULT_MATCHES = 40
MAX_SECONDS = 60
"""Most seconds of play in one study (both rulesets)."""
MAX_WAITING = 3
"""Most studies waiting behind the running one."""
START_SECONDS = 20
"""Seconds the child process may take to start and to write its page, on top of the play."""
KEPT = 50
"""Finished studies kept for their pages (the oldest goes first)."""


class StudyRefused(ValueError):
    """A study request refused: the message names the bound (matches, seconds, the queue);
    ``status`` 400 (a bound of the request) or 429 (the queue is full)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass(slots=True)
class StudyJob:
    """One study: ``state`` ``queued`` | ``running`` | ``done`` | ``failed``; ``done`` of
    ``total`` matches played (both rulesets); ``result`` the study's JSON
    (:meth:`tysiac_spec.study.Study.as_dict`) and ``html`` its page when done; ``error`` one
    line when failed."""

    id: str
    text: str
    base: str
    players: int
    matches: int
    seconds: int
    houses: str | None = None
    state: str = "queued"
    done: int = 0
    total: int = 0
    result: dict[str, Any] | None = None
    html: str | None = None
    error: str | None = None
    started: float | None = None
    finished: float | None = None
    created: float = field(default_factory=time.time)

    def as_json(self, position: int | None) -> dict[str, Any]:
        """The job as the page polls it (no page HTML: ``GET /studies/<id>`` serves that)."""
        return {
            "study": self.id,
            "state": self.state,
            "position": position,
            "done": self.done,
            "total": self.total,
            "matches": self.matches,
            "seconds": self.seconds,
            "error": self.error,
            "result": self.result,
        }


class StudyQueue:
    """Studies one at a time, in a worker thread that drives one child process per study."""

    def __init__(self, *, max_matches: int = MAX_MATCHES, max_seconds: int = MAX_SECONDS,
                 max_waiting: int = MAX_WAITING) -> None:
        self.max_matches, self.max_seconds, self.max_waiting = max_matches, max_seconds, max_waiting
        self.jobs: dict[str, StudyJob] = {}
        self.waiting: deque[StudyJob] = deque()
        self.lock = threading.Lock()
        self.wake = threading.Condition(self.lock)
        self.thread: threading.Thread | None = None
        self.stopping = False

    def submit(
        self, text: str, base: str, players: int, matches: int, seconds: int, *, houses: str | None = None
    ) -> StudyJob:
        """Queue a study of the (checked) house file ``text`` against ``base``; ``houses``
        the folder of the server's saved house files (:class:`.workbench.HouseFiles`), which
        the file or its base may extend.

        Raises:
            StudyRefused: ``matches`` or ``seconds`` out of bounds, or the queue full.
        """
        if not 1 <= matches <= self.max_matches:
            raise StudyRefused(f"a study plays 1 to {self.max_matches} matches per ruleset (asked {matches})")
        if not 1 <= seconds <= self.max_seconds:
            raise StudyRefused(f"a study plays at most {self.max_seconds} seconds (asked {seconds})")
        with self.lock:
            if len(self.waiting) >= self.max_waiting:
                raise StudyRefused(
                    f"{self.max_waiting} studies are waiting already (one runs at a time); try again later",
                    429,
                )
            job = StudyJob(secrets.token_urlsafe(9), text, base, players, matches, seconds, houses=houses)
            job.total = 2 * matches
            self.jobs[job.id] = job
            self.waiting.append(job)
            finished = [j for j in self.jobs.values() if j.state in ("done", "failed")]
            for old in sorted(finished, key=lambda j: j.created)[: max(0, len(finished) - KEPT)]:
                del self.jobs[old.id]
            if self.thread is None:
                self.thread = threading.Thread(target=self._loop, name="studies", daemon=True)
                self.thread.start()
            self.wake.notify()
        return job

    def get(self, job_id: str) -> tuple[StudyJob, int | None] | None:
        """A job and its place in the queue (1: next; ``None`` when not waiting)."""
        with self.lock:
            job = self.jobs.get(job_id)
            if job is None:
                return None
            position = next((i + 1 for i, j in enumerate(self.waiting) if j is job), None)
            return job, position

    def stop(self) -> None:
        with self.lock:
            self.stopping = True
            self.wake.notify()

    def _loop(self) -> None:
        while True:
            with self.lock:
                while not self.waiting and not self.stopping:
                    self.wake.wait()
                if self.stopping:
                    return
                job = self.waiting.popleft()
                job.state, job.started = "running", time.time()
            try:
                self._run(job)
            except Exception as exc:  # never leave a job running
                job.state, job.error = "failed", f"the study failed: {type(exc).__name__}"
            job.finished = time.time()

    def _run(self, job: StudyJob) -> None:
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe(duplex=False)
        process = context.Process(
            target=_child,
            args=(child, job.text, job.base, job.players, job.matches, job.seconds, job.houses),
            daemon=True,
        )
        process.start()
        child.close()
        deadline = time.monotonic() + job.seconds + START_SECONDS
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    job.state = "failed"
                    job.error = f"the study passed its {job.seconds} seconds and was stopped"
                    return
                if not parent.poll(min(left, 1.0)):
                    if not process.is_alive() and not parent.poll():
                        job.state, job.error = "failed", "the study stopped without a result"
                        return
                    continue
                try:
                    kind, *data = parent.recv()
                except EOFError:
                    job.state, job.error = "failed", "the study stopped without a result"
                    return
                if kind == "progress":
                    job.done, job.total = data[0], data[1]
                elif kind == "done":
                    job.result, job.html = data[0], data[1]
                    job.done = job.total = sum(job.result["matches"])
                    job.state = "done"
                    return
                else:
                    job.state, job.error = "failed", str(data[0])[:300]
                    return
        finally:
            if process.is_alive():
                process.kill()
            process.join(5)
            parent.close()


def _child(conn: Any, text: str, base: str, players: int, matches: int, seconds: int,
           houses: str | None = None) -> None:
    """The study in its own process: the base, then the house file (written to a private
    folder: its ``extends`` names a shipped id or a saved house, checked before), each in
    half the seconds."""
    try:
        os.nice(10)
    except OSError:
        pass
    try:
        from ...errors import TysiacError
        from ...ruleset import registry
        from .workbench import HouseFiles

        if houses is not None:
            registry.add_finder(HouseFiles(houses).find)
        from ...simulate import simulate
        from ...study import PlotsMissing, Study, render_study

        done = [0]
        total = [2 * matches]

        def ticker(until: float) -> Any:
            def progress(n: int) -> None:
                done[0] += n
                conn.send(("progress", done[0], total[0]))
                if time.monotonic() > until:
                    raise KeyboardInterrupt("time")  # simulate keeps the matches so far

            return progress

        half = seconds / 2
        try:
            first = simulate(base, players=players, games=matches, progress=ticker(time.monotonic() + half),
                             stop_on_interrupt=True)
            played = len(first.results)
            if not played:
                conn.send(("failed", f"no match of {base} finished within {half:g} seconds"))
                return
            total[0] = 2 * played
            conn.send(("progress", done[0], total[0]))
            with tempfile.TemporaryDirectory(prefix="tysiac-study-") as folder:
                path = Path(folder) / "house.yaml"
                path.write_text(text, encoding="utf-8")
                until = time.monotonic() + half
                second = simulate(path, players=players, games=played, progress=ticker(until),
                                  stop_on_interrupt=True)
        except TysiacError as exc:
            conn.send(("failed", exc.diagnostic.message.splitlines()[0]))
            return
        if len(second.results) < len(first.results):  # the house ran out of time: compare like with like
            keep = {r.index for r in second.results}
            first.results = [r for r in first.results if r.index in keep]
        study = Study([first, second], seconds=first.seconds + second.seconds)
        try:
            page: str | None = render_study(study, "html", links={"home": "/w"})
        except PlotsMissing:
            page = None
        conn.send(("done", study.as_dict(), page))
    except Exception as exc:  # the parent reports it in one line
        conn.send(("failed", f"the study failed: {type(exc).__name__}: {str(exc)[:200]}"))
    finally:
        conn.close()
