"""Bots in another process: a program in any language plays through JSON lines on its
standard input and output, as a chess engine does through UCI (``--bots cmd:./mybot``).

The protocol (version 1).  The bot is started once per seat and match, as the command after
``cmd:`` (split as a shell would, without a shell; no comma, which separates seats); one JSON
object per line each way, UTF-8:

- tysiac → bot, first: ``{"type": "start", "protocol": 1, "seed": 42, "players": 3}``
  (the seat's own seed); no answer is awaited.
- tysiac → bot, at each of the bot's turns: ``{"type": "choose", "seat": 1, "view": {…},
  "legal": ["pass", "bid 110", …]}``: the player's view as the web table sends it
  (:func:`tysiac_spec.apps.web.views.view_json`: ``hand``, ``bids``, ``trick``, ``scores``…)
  and the legal actions in action notation.
- bot → tysiac, the answer: ``{"action": "bid 110"}`` (one of ``legal``, as written there) or
  ``{"index": 1}`` (its place in ``legal``, from 0).
- tysiac → bot, at the end: ``{"type": "quit"}``; the process is then closed (killed after
  :data:`QUIT_GRACE` seconds).

A line the bot prints that is not a JSON object (a debug message, ``info …``) is skipped;
what it writes to standard error goes to tysiac's standard error.  An answer that is no legal
action is reported as any bot's (``error[bot.illegal]``); no answer within
:data:`TIMEOUT_ENV` seconds (default :data:`DEFAULT_TIMEOUT`), a process that ended, an
answer line longer than :data:`MAX_LINE` bytes or more than :data:`MAX_SKIPPED` skipped
lines stop the run with one line (``error[bot.raised]``: :class:`BotProcessError`), never a
traceback nor a hang.
"""

from __future__ import annotations

import json
import os
import queue
import shlex
import subprocess
import threading
import weakref
from collections.abc import Sequence
from typing import Any

from ..engine.actions import Action
from ..engine.view import View
from ..ruleset.model import Form

__all__ = [
    "DEFAULT_TIMEOUT",
    "MAX_LINE",
    "MAX_SKIPPED",
    "PREFIX",
    "PROTOCOL",
    "QUIT_GRACE",
    "TIMEOUT_ENV",
    "BotProcessError",
    "ProcessBot",
    "process_factory",
]

PREFIX = "cmd:"
"""A bot name starting so is a command (``cmd:./mybot``, ``cmd:python3 bot.py``)."""

PROTOCOL = 1
"""The protocol version sent in ``start``."""

TIMEOUT_ENV = "TYSIAC_BOT_TIMEOUT"
"""The environment variable with the seconds a process bot may take per answer."""

DEFAULT_TIMEOUT = 10.0
"""Seconds a process bot may take per answer when :data:`TIMEOUT_ENV` is not set."""

MAX_LINE = 1 << 20
"""The longest line (bytes) read from a bot."""

MAX_SKIPPED = 10_000
"""Lines that are not a JSON object a bot may print in one turn before it is stopped."""

QUIT_GRACE = 2.0
"""Seconds a bot has to exit after ``quit`` before it is killed."""


class BotProcessError(RuntimeError):
    """A process bot that cannot play: it could not be started, it ended, it gave no answer
    in time, or it printed a line too long or too many lines that are no answer.  Raised by
    :meth:`ProcessBot.choose`; the run reports it as a bot that raised (``bot.raised``)."""


def _timeout() -> float:
    text = os.environ.get(TIMEOUT_ENV, "")
    try:
        value = float(text) if text else DEFAULT_TIMEOUT
    except ValueError:
        return DEFAULT_TIMEOUT
    return value if value > 0 else DEFAULT_TIMEOUT


def _close(proc: subprocess.Popen[bytes]) -> None:
    """Say ``quit``, then close the process (killed if it does not exit in time)."""
    try:
        if proc.poll() is None and proc.stdin is not None:
            proc.stdin.write(b'{"type":"quit"}\n')
            proc.stdin.flush()
            proc.stdin.close()
    except OSError:
        pass
    try:
        proc.wait(timeout=QUIT_GRACE)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    if proc.stdout is not None:
        proc.stdout.close()


def _pump(stream: Any, lines: queue.Queue[bytes | None]) -> None:
    """Read the bot's lines into ``lines`` (``None`` at its end); a line is cut at
    :data:`MAX_LINE` bytes + 1 so that an endless one is seen as too long."""
    try:
        while True:
            line = stream.readline(MAX_LINE + 1)
            if not line:
                break
            lines.put(line)
    except (OSError, ValueError):
        pass
    lines.put(None)


class ProcessBot:
    """A bot that is a process speaking the protocol of this module (see there).

    Args:
        command: the command line (without ``cmd:``), split with :func:`shlex.split`.
        seed: the seat's seed (sent in ``start``).
        form: the form played (its player count sent in ``start``).

    Raises:
        BotProcessError: the command is empty or cannot be started.
    """

    def __init__(self, command: str, seed: int, form: Form) -> None:
        argv = shlex.split(command)
        if not argv:
            raise BotProcessError("the command after `cmd:` is empty")
        try:
            self._proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        except OSError as exc:
            raise BotProcessError(f"cannot start `{command}`: {exc.strerror or exc}") from None
        self.command = command
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        threading.Thread(target=_pump, args=(self._proc.stdout, self._lines), daemon=True).start()
        self._closer = weakref.finalize(self, _close, self._proc)
        self._timeout = _timeout()
        self._send({"type": "start", "protocol": PROTOCOL, "seed": seed, "players": form.players})

    def close(self) -> None:
        """End the process now (``quit``, then killed after :data:`QUIT_GRACE` seconds)."""
        self._closer()

    def _send(self, message: dict[str, Any]) -> None:
        data = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
        try:
            assert self._proc.stdin is not None
            self._proc.stdin.write(data)
            self._proc.stdin.flush()
        except (OSError, ValueError):
            raise self._ended() from None

    def _ended(self) -> BotProcessError:
        try:  # its output closed: it is ending (a moment for its exit status)
            code: int | None = self._proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            code = None
        status = f" (exit status {code})" if code is not None else ""
        return BotProcessError(f"the bot's process `{self.command}` ended{status}")

    def _answer(self) -> dict[str, Any]:
        skipped = 0
        while True:
            try:
                line = self._lines.get(timeout=self._timeout)
            except queue.Empty:
                raise BotProcessError(
                    f"`{self.command}` gave no answer within {self._timeout:g} s "
                    f"({TIMEOUT_ENV} sets the limit)") from None
            if line is None:
                raise self._ended()
            if len(line) > MAX_LINE:
                raise BotProcessError(f"`{self.command}` printed a line longer than {MAX_LINE:,} bytes")
            try:
                reply = json.loads(line)
            except ValueError:
                reply = None
            if isinstance(reply, dict):
                return reply
            skipped += 1
            if skipped > MAX_SKIPPED:
                raise BotProcessError(
                    f"`{self.command}` printed {MAX_SKIPPED:,} lines that are no JSON object, "
                    "and no answer")

    def choose(self, view: View, legal: Sequence[Action]) -> Action | object:
        """The action the process answers: the element of ``legal`` it names (by text or by
        index); what it answered, as it is, when that is none of them (the run reports it as
        an illegal choice).

        Raises:
            BotProcessError: no answer in time, the process ended, or it printed too much.
        """
        from ..apps.web.views import view_json

        texts = [str(a) for a in legal]
        self._send({"type": "choose", "seat": view.player, "view": view_json(view), "legal": texts})
        reply = self._answer()
        index, text = reply.get("index"), reply.get("action")
        if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < len(legal):
            return legal[index]
        if isinstance(text, str) and text.strip() in texts:
            return legal[texts.index(text.strip())]
        return reply  # not a legal action: reported as the bot's illegal choice


def process_factory(name: str) -> Any:
    """The factory of the bot named ``cmd:COMMAND``: ``factory(seed, form)`` starts
    ``COMMAND`` as a :class:`ProcessBot`."""
    command = name[len(PREFIX):]

    def make(seed: int, form: Form) -> ProcessBot:
        return ProcessBot(command, seed, form)

    return make
