"""Stop signals: SIGTERM and SIGHUP handled as Ctrl-C, the one home for every command.

``kill``, ``timeout`` and a closed terminal send SIGTERM or SIGHUP; within
:func:`stop_signals` they raise ``KeyboardInterrupt`` in the main thread, so that what a
command does on Ctrl-C (``play`` saves the game, ``build`` removes its temporary folder,
``simulate`` keeps the statistics of the finished matches) is done on them too.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["STOP_SIGNALS", "held_signals", "stop_signals"]

STOP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)
"""The signals that stop a command as Ctrl-C does (SIGINT itself arrives as
``KeyboardInterrupt``)."""


@contextmanager
def stop_signals(received: list[int] | None = None) -> Iterator[None]:
    """Within the block, the first of :data:`STOP_SIGNALS` raises ``KeyboardInterrupt`` in
    this process's main thread (as Ctrl-C does) and is appended to ``received`` when given;
    later ones are ignored, so they cannot interrupt the cleanup.  A worker process forked
    inside the block restores the default action and signals itself again.  Outside the main
    thread (where Python cannot install handlers) the block changes nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    owner = os.getpid()
    got: list[int] = [] if received is None else received

    def handler(signum: int, frame: object) -> None:
        if os.getpid() != owner:  # a forked child before its initializer ran
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        if got:
            return
        got.append(signum)
        raise KeyboardInterrupt(signal.Signals(signum).name)

    previous = {signum: signal.signal(signum, handler) for signum in STOP_SIGNALS}
    try:
        yield
    finally:
        for signum, old in previous.items():
            signal.signal(signum, old)


@contextmanager
def held_signals() -> Iterator[None]:
    """Within the block, Ctrl-C (SIGINT) and :data:`STOP_SIGNALS` wait: they are delivered
    (and their handlers run: ``KeyboardInterrupt``) when the block ends, so that what is
    saved within it is written whole.  Outside the main thread, or where signals cannot be
    blocked, the block changes nothing."""
    blockable = hasattr(signal, "pthread_sigmask") and threading.current_thread() is threading.main_thread()
    if not blockable:
        yield
        return
    held = {signal.SIGINT, *STOP_SIGNALS}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
