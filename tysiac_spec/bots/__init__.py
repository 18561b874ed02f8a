"""Players that choose actions: the :class:`Bot` protocol, simple bots, and the bots of a
seat list (``--bots heuristic,random,heuristic``), shipped or loaded from a user's module.

A bot is named by a word or by ``MODULE:NAME``:

- ``random``: :class:`RandomBot`; ``heuristic``: :class:`HeuristicBot`; ``strong``:
  :class:`StrongBot` (determinized double-dummy play, :mod:`.strong`; its default budget);
- ``mymodule:MyBot``: ``MyBot`` in a module importable from Python's path (``PYTHONPATH``);
- ``path/to/bots.py:MyBot``: ``MyBot`` in that file (a path ending in ``.py``);
- ``cmd:./mybot``: a program in any language, played through JSON lines on its standard
  input and output (:mod:`tysiac_spec.bots.process`: the protocol, timeouts, bad answers).

``MyBot`` is a class (or any callable) called as ``MyBot(seed, form)`` once per seat and
match, with the seat's own seed (an ``int``) and the :class:`~tysiac_spec.ruleset.model.Form`
played; what it returns follows the :class:`Bot` protocol: ``choose(view, legal)`` returns one
element of ``legal``.  A seat list names one bot for every seat, or one bot for them all.

Errors: :class:`BotError` (a ``ValueError``) with a message naming the bot, for an unknown
name, a module or file that is missing or fails to import, a missing or uncallable name, a
seat list of the wrong length, or a made bot without ``choose``; :class:`BotActionError`
(``bot.illegal``, made by :func:`illegal_action`) for a bot whose ``choose`` returned
something that is not one of the legal actions it was given; :class:`BotRaisedError`
(``bot.raised``, made by :func:`bot_raised`) for a bot whose ``choose`` raised an exception:
one line naming the bot, its seat, the exception and the line of the bot's file it was raised
at; the Python traceback is added (as ``note:`` lines) when the environment variable
``TYSIAC_BOT_TRACEBACK`` (:data:`TRACEBACK_ENV`) is ``1``.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import os
import reprlib
import sys
import traceback
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from ..errors import (
    TRACEBACK_ENV,
    BotActionError,
    BotError,
    BotRaisedError,
    bot_raised,
    illegal_action,
)
from ..ruleset.model import Form
from .heuristic import HeuristicBot
from .process import PREFIX, process_factory
from .random_bot import Bot, RandomBot
from .strong import StrongBot

__all__ = ["BUILTIN", "TRACEBACK_ENV", "Bot", "BotActionError", "BotError", "BotFactory", "BotRaisedError",
           "HeuristicBot", "RandomBot", "StrongBot", "bot_factory", "bot_raised", "illegal_action",
           "make_bot", "raised_by", "seat_bots", "short_repr", "user_seat_names"]

BotFactory = Callable[[int, Form], Bot]
"""What makes a seat's bot: called as ``factory(seed, form)``."""


_SHORT = reprlib.Repr()
_SHORT.maxstring = 60
_SHORT.maxother = 60


def raised_by(bot: object, seat: int, name: str, exc: BaseException) -> BotRaisedError:
    """The ``bot.raised`` error for ``exc``, raised by ``bot`` (the bot ``name`` in ``seat``)
    inside its ``choose``: the line named is the last frame of the traceback in the file that
    defines the bot's class (else the innermost frame), shown relative to the working folder
    when it lies below it."""
    frames = traceback.extract_tb(exc.__traceback__)[1:]  # [0] is the caller's frame
    try:
        home = os.path.realpath(inspect.getfile(type(bot)))
    except (TypeError, OSError):  # a class without a file
        home = ""
    ours = [f for f in frames if home and os.path.realpath(f.filename) == home]
    where = ""
    if ours or frames:
        frame = (ours or frames)[-1]
        path = os.path.realpath(frame.filename)
        here = os.path.realpath(os.getcwd())
        shown = os.path.relpath(path, here) if path.startswith(here + os.sep) else frame.filename
        where = f"{shown}:{frame.lineno}"
    lines = "".join(traceback.format_list(frames)).rstrip("\n").split("\n")
    lines.append(f"{type(exc).__name__}: {exc}")
    return bot_raised(seat, name, type(exc).__name__, str(exc), where, tuple(lines))


def short_repr(value: object) -> str:
    """``repr(value)`` cut to about 60 characters (for an error message)."""
    try:
        return _SHORT.repr(value)
    except Exception:  # a user's object whose __repr__ fails
        return f"<{type(value).__name__} object>"


def user_seat_names(spec: str, players: int) -> tuple[str, ...]:
    """The bot of every seat as the seat list ``spec`` spells it (no path made absolute, no
    name checked): ``mybots.py:Bad`` -> that name in every seat."""
    names = tuple(part.strip() for part in spec.split(","))
    return names * players if len(names) == 1 else names


def _random(seed: int, form: Form) -> Bot:
    return RandomBot(seed)


def _heuristic(seed: int, form: Form) -> Bot:
    return HeuristicBot(seed, form)


def _strong(seed: int, form: Form) -> Bot:
    return StrongBot(seed, form)


BUILTIN: dict[str, BotFactory] = {"random": _random, "heuristic": _heuristic, "strong": _strong}
"""The shipped bots by name."""


def _load_file(path: Path, name: str) -> object:
    if not path.is_file():
        raise BotError(f"bot `{name}`: no file {path}")
    digest = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:16]
    module_name = f"tysiac_user_bot_{digest}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:  # pragma: no cover - a .py path always has a loader
        raise BotError(f"bot `{name}`: {path} cannot be loaded as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[module_name]
        raise BotError(f"bot `{name}`: loading {path} failed: {type(exc).__name__}: {exc}") from None
    return module


def _load_module(module_name: str, name: str) -> object:
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            raise BotError(
                f"bot `{name}`: no module named `{module_name}` (name a module on Python's path, "
                "PYTHONPATH, or a file: path/to/bots.py:NAME)"
            ) from None
        raise BotError(f"bot `{name}`: importing `{module_name}` failed: {exc}") from None
    except Exception as exc:
        why = f"{type(exc).__name__}: {exc}"
        raise BotError(f"bot `{name}`: importing `{module_name}` failed: {why}") from None


@lru_cache(maxsize=64)
def bot_factory(name: str) -> BotFactory:
    """What makes the bot named ``name`` (a shipped name or ``MODULE:NAME``; see the module's
    docstring); a module is loaded once per process.

    Raises:
        BotError: the bot cannot be found or loaded.
    """
    if name in BUILTIN:
        return BUILTIN[name]
    if name.startswith(PREFIX):
        if not name[len(PREFIX):].strip():
            raise BotError(f"bot `{name}`: the command after `{PREFIX}` is empty")
        made: BotFactory = process_factory(name)
        return made
    if ":" not in name:
        raise BotError(
            f"unknown bot `{name}`; expected {', '.join(BUILTIN)}, or MODULE:NAME / path/to/bots.py:NAME"
        )
    where, attr = name.rsplit(":", 1)
    if not where or not attr:
        raise BotError(f"bot `{name}`: expected MODULE:NAME or path/to/bots.py:NAME")
    module = _load_file(Path(where), name) if where.endswith(".py") else _load_module(where, name)
    factory = getattr(module, attr, None)
    if factory is None:
        raise BotError(f"bot `{name}`: `{where}` has no `{attr}`")
    if not callable(factory):
        raise BotError(f"bot `{name}`: `{attr}` is not a class or function (called as {attr}(seed, form))")
    return factory  # type: ignore[no-any-return]


def make_bot(name: str, seed: int, form: Form) -> Bot:
    """The bot ``name`` for one seat, made with its ``seed`` for ``form``.

    Raises:
        BotError: the bot cannot be loaded, its making fails, or what it makes has no ``choose``.
    """
    factory = bot_factory(name)
    try:
        bot = factory(seed, form)
    except Exception as exc:
        if name in BUILTIN:
            raise
        if name.startswith(PREFIX):
            raise BotError(f"bot `{name}`: {exc}") from None
        raise BotError(f"bot `{name}`: {name.rsplit(':', 1)[1]}(seed, form) failed: "
                       f"{type(exc).__name__}: {exc}") from None
    if not callable(getattr(bot, "choose", None)):
        raise BotError(f"bot `{name}`: what it makes has no method choose(view, legal) (the Bot protocol)")
    return bot


def seat_bots(spec: str, players: int) -> tuple[str, ...]:
    """The bot of every seat from a seat list: ``heuristic`` (every seat) or
    ``heuristic,random,heuristic`` (one per seat); a ``.py`` path in a name is made absolute
    (worker processes load it from another directory).  Every named bot is loaded once here, so
    a bad name is refused before any match starts.

    Raises:
        BotError: a bad name, or a list whose length is neither 1 nor ``players``.
    """
    names = [part.strip() for part in spec.split(",")]
    if any(not n for n in names):
        raise BotError(f"bots `{spec}`: an empty name in the list")
    if len(names) == 1:
        names *= players
    elif len(names) != players:
        raise BotError(f"bots `{spec}`: {len(names)} names for {players} seats (give one, or one per seat)")
    out = []
    for n in names:
        where, _, attr = n.rpartition(":")
        if n.startswith(PREFIX):
            pass  # a command: started as it is written, from this folder
        elif where.endswith(".py"):
            n = f"{Path(where).resolve()}:{attr}"
        bot_factory(n)
        out.append(n)
    return tuple(out)
