"""Game records: a game as data (:class:`Record`), written and read as JSON.

A :class:`Record` is everything needed to rebuild a game: the ruleset (its id, its file
when it is not a shipped ruleset, and its content hash), the options in force, the number
of players, the seed and every action in compact text (``bid 110``, ``play QH marriage``),
table incidents included (``incident misdeal 0``, :meth:`~tysiac_spec.engine.game.Game.incident`).
All randomness of a game comes from its seed, so :func:`tysiac_spec.engine.replay.replay`
rebuilds the same game, bit for bit.  A deal set by hand (``Game.start_deal``) is kept in
the record's ``deals``, in deal notation (:mod:`tysiac_spec.engine.deal_notation`) with the
number of actions applied before it, and the replay sets it again at that point, so that it
is replayed exactly; a starting match state set by hand (``Game.set_match_state``) is not
kept (only seeded games and hand-set deals are reproduced).  This module is the value and its
file format only (and how a record names its ruleset, :func:`ruleset_of`): it imports no
:class:`~tysiac_spec.engine.game.Game` (:func:`record_of` reads any object with a game's
``ruleset``, ``players``, ``seed`` and ``history``); the replay is
:mod:`tysiac_spec.engine.replay`, the text transcript :mod:`tysiac_spec.transcript`.

A game played at the terminal (``tysiac play``) also records its table
(:class:`TableSetup`): the user's seat, the kind of bots in the other seats and the seed
the bots were made with, so that ``tysiac play --resume`` continues with the same seat and
the same bots.  The section is optional: records without it (older ones, games played
from Python) load as before and keep the format tag.

JSON form (``Record.to_json``; ``table``, ``deals`` and ``position`` are left out when there
are none; ``position`` is the position a game started from, ``Game.from_position``)::

    {"format": "tysiac-record/1", "ruleset": "pl-standard", "ruleset_file": null,
     "content_hash": "…", "options": {"five_rounds": "down"}, "players": 3, "seed": 7,
     "table": {"seat": 1, "bots": "heuristic", "bot_seed": 7},
     "deals": [{"at": 0, "deal": "0:AS KS … / … | 9C TC JC"}],
     "actions": ["bid 100", "pass", …]}

(``deals`` is optional, as ``table`` is: a record without it reads as before, and keeps the
format tag.)

Records are shared between people, so a record read from a file (:meth:`Record.read`) is
untrusted input: it is read within the limits of :mod:`tysiac_spec.limits` by
:mod:`tysiac_spec.safe_json`, and the ruleset it names is a shipped id or a file in the
record's folder or below (``ruleset_file`` is written relative to that folder when the
record is saved there: :meth:`Record.saved_at`), or in a folder the user allows
(``tysiac --rules-dir DIR``); another file (a ruleset saved elsewhere is named by its
absolute path) is refused by :func:`tysiac_spec.ruleset.registry.find` unread, and the
error names the folder to allow.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

from .. import safe_json
from .._paths import RULESETS_DIR
from ..errors import Diagnostic, NotationError, RecordError, TysiacError
from ..limits import SEED_MAX
from ..ruleset import load_ruleset, registry
from ..ruleset.model import INCIDENT_KINDS, Ruleset
from ..text import shorten
from .deal_notation import Deal

__all__ = [
    "FORMAT",
    "SEED_MAX",
    "Played",
    "Record",
    "TableSetup",
    "check_seed",
    "record_error",
    "record_of",
    "rules_dir_for",
    "ruleset_file_from",
    "ruleset_of",
]

FORMAT = "tysiac-record/1"
"""The format tag of a record (the ``format`` key); a later incompatible format changes it."""

OptionValue = str | int | bool

_KEYS: dict[str, str] = {
    "format": "text",
    "ruleset": "text",
    "ruleset_file": "text or null",
    "content_hash": "text",
    "options": "mapping",
    "players": "integer",
    "seed": "integer",
    "table": "object or null",
    "deals": "list",
    "position": "text or null",
    "actions": "list",
}
_OPTIONAL = ("ruleset_file", "table", "deals", "position")
_TABLE_KEYS: dict[str, str] = {"seat": "integer", "bots": "text", "bot_seed": "integer"}


def record_error(code: str, message: str, hint: str | None = None) -> RecordError:
    """A :class:`~tysiac_spec.errors.RecordError` with the code ``record.<code>``
    (``record_error("hash", …)`` has the code ``record.hash``), for this module, the replay
    and the transcript."""
    return RecordError(Diagnostic(f"record.{code}", message, hint=hint))


def _json_fail(file: str | None) -> safe_json.Fail:
    """The errors of :mod:`tysiac_spec.safe_json` for a record read from ``file``."""

    def fail(kind: str, detail: str) -> RecordError:
        if kind == "json":
            message = f"the record is not valid JSON: {detail}"
            return RecordError(Diagnostic("record.json", message, file=file))
        message = detail if kind == "read" else f"not a game record: {detail}"
        return RecordError(Diagnostic("record.read", message, file=file))

    return fail


def _in_file(exc: RecordError, file: str | None) -> RecordError:
    """The same error with its diagnostics placed in ``file`` (when they name no file)."""
    if file is None:
        return exc
    return RecordError([d if d.file else replace(d, file=file) for d in exc.diagnostics])


def _check_type(name: str, value: Any, kind: str) -> None:
    ok = {
        "text": isinstance(value, str),
        "text or null": value is None or isinstance(value, str),
        "mapping": isinstance(value, dict),
        "object or null": value is None or isinstance(value, dict),
        "integer": isinstance(value, int) and not isinstance(value, bool),
        "list": isinstance(value, list),
    }[kind]
    if not ok:
        article = "an" if kind[0] in "aeiou" else "a"
        raise record_error("type", f"`{name}` must be {article} {kind} (got {_kind(value)})")




def check_seed(key: str, seed: int) -> None:
    """Refuse a record's seed outside ``0..SEED_MAX`` (as ``play --seed`` does).

    Raises:
        RecordError: ``record.seed``, naming ``key`` (``seed``, ``table.bot_seed``).
    """
    if not 0 <= seed <= SEED_MAX:
        raise record_error("seed", f"`{key}` must be a seed from 0 to {SEED_MAX:,} (got {seed})")


@dataclass(frozen=True, slots=True)
class TableSetup:
    """Who sat where in a game played at the terminal (the record's ``table`` section).

    The engine never reads it: only ``tysiac play`` makes and uses one.  It is defined here,
    with the record, because it is part of the record's file format: :meth:`Record.from_json`
    must check it when a record is read (a seat that is not at the table is a
    ``record.table`` error, found before any replay) and :meth:`Record.to_json` writes it.
    Defined in the terminal's modules (``table.py``, ``commands/play.py``), it would make the
    engine import a tool, the wrong way round.  It holds plain values (no bot objects), so
    it depends on nothing above this module.

    Attributes:
        seat: the user's seat (0 = first player); every other seat is a bot.
        bots: the kind of bots (``heuristic`` or ``random``, as ``tysiac play --bots``).
        bot_seed: the seed the bots were made with; bot ``p`` is seeded from
            ``(bot_seed, p)``, so the same record gives the same bots.
    """

    seat: int
    bots: str
    bot_seed: int

    def to_data(self) -> dict[str, Any]:
        """The section as JSON data: ``{"seat": 1, "bots": "heuristic", "bot_seed": 7}``."""
        return {"seat": self.seat, "bots": self.bots, "bot_seed": self.bot_seed}

    @classmethod
    def from_data(cls, data: Mapping[str, Any], players: int) -> TableSetup:
        """Read the ``table`` section of a record of ``players`` players.

        Raises:
            RecordError: ``record.unknown-key`` / ``record.missing`` (a key of the
                section), ``record.type`` (``table.seat`` and ``table.bot_seed`` are
                integers, ``table.bots`` a text), ``record.table`` (a seat that is not
                at the table, empty ``bots``).
        """
        unknown = sorted(set(data) - set(_TABLE_KEYS))
        if unknown:
            raise record_error("unknown-key", f"unknown key `{shorten(unknown[0])}` in the record's `table`",
                        hint="expected: " + ", ".join(_TABLE_KEYS))
        missing = [k for k in _TABLE_KEYS if k not in data]
        if missing:
            raise record_error("missing", f"the record's `table` is missing the key `{missing[0]}`",
                        hint="expected: " + ", ".join(_TABLE_KEYS))
        for key, kind in _TABLE_KEYS.items():
            _check_type(f"table.{key}", data[key], kind)
        if not 0 <= data["seat"] < players:
            raise record_error("table", f"`table.seat` is {data['seat']}, but the game has {players} players "
                        f"(seats 0 to {players - 1})")
        check_seed("table.bot_seed", data["bot_seed"])
        if not data["bots"].strip():
            raise record_error("table", "`table.bots` must name the kind of bots (got an empty text)")
        return cls(seat=data["seat"], bots=data["bots"], bot_seed=data["bot_seed"])


@dataclass(frozen=True, slots=True)
class Record:
    """A game as data (see the module docstring).

    Attributes:
        ruleset: the ruleset's id.
        ruleset_file: the ruleset's file when it is not a shipped ruleset, else ``None``.
        content_hash: the resolved ruleset's :attr:`~tysiac_spec.ruleset.model.Ruleset.content_hash`.
        options: every option value in force, by name.
        players: players at the table.
        seed: the game's seed.
        actions: every action applied, in compact text, in order.
        table: the seats and bots of a game played at the terminal, or ``None``
            (:class:`TableSetup`).
        deals: the deals set by hand (``Game.start_deal``), each as ``(at, text)``: the
            number of actions applied before it and the deal in deal notation
            (:class:`~tysiac_spec.engine.deal_notation.Deal`); the replay sets each again
            before the action ``at`` (counted from 0; ``at == len(actions)``: after the last).
        position: the position the game started from (``Game.from_position``), in position
            notation (:class:`~tysiac_spec.engine.position.Position`), or ``None``: the replay
            starts there, and the actions follow it.
        format: :data:`FORMAT`.
        source: the file the record was read from or is saved to (not part of the record's
            data, not compared): a ``ruleset_file`` (or a ``ruleset`` given as a path) is
            looked up relative to its folder and must lie in it or below.  ``None`` for a
            record made in memory or read from text: its ruleset file is then taken as
            given (relative to the current directory).
    """

    ruleset: str
    content_hash: str
    players: int
    seed: int
    options: Mapping[str, OptionValue] = field(default_factory=dict, hash=False)
    actions: tuple[str, ...] = ()
    ruleset_file: str | None = None
    table: TableSetup | None = None
    deals: tuple[tuple[int, str], ...] = ()
    position: str | None = None
    format: str = FORMAT
    source: str | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> str:
        """The record as JSON text (keys in a fixed order, two-space indent, a final newline)."""
        data: dict[str, Any] = {
            "format": self.format,
            "ruleset": self.ruleset,
            "ruleset_file": self.ruleset_file,
            "content_hash": self.content_hash,
            "options": dict(sorted(self.options.items())),
            "players": self.players,
            "seed": self.seed,
        }
        if self.table is not None:
            data["table"] = self.table.to_data()
        if self.deals:
            data["deals"] = [{"at": at, "deal": text} for at, text in self.deals]
        if self.position is not None:
            data["position"] = self.position
        data["actions"] = list(self.actions)
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"

    def saved_at(self, path: str | Path) -> Record:
        """This record as it is saved in the file ``path`` (its :attr:`source`): a ruleset
        file in ``path``'s folder or below is named relative to that folder
        (``house/mine.yaml``), so that the record and its ruleset move together; any other
        ruleset file is named by its absolute path (:func:`ruleset_file_from`): reading the
        record from ``path`` then refuses it with ``registry.outside`` unless its folder is
        allowed (``tysiac --rules-dir DIR``, :func:`rules_dir_for`), since a record is
        untrusted input."""
        if self.ruleset_file is None:
            return replace(self, source=str(path))
        named = ruleset_file_from(self.ruleset_file, path, base=self.source)
        return replace(self, ruleset_file=named, source=str(path))

    @classmethod
    def read(cls, path: str | Path) -> Record:
        """Read the record in the file ``path`` (its :attr:`source`), as untrusted input: the
        size is checked before the file is read, then the JSON's depth, integers and texts
        (:mod:`tysiac_spec.safe_json`), then the record as :meth:`from_json` does.

        Raises:
            RecordError: ``record.read`` (the file cannot be read or is not UTF-8 text), else
                as :meth:`from_json`; each diagnostic names ``path``.
            LimitError: ``limit.record_bytes`` (checked before reading), ``limit.depth``,
                ``limit.int_digits``, ``limit.text_chars``.
        """
        file = str(path)
        data = safe_json.read_json_file(path, size_limit="record_bytes", fail=_json_fail(file))
        try:
            return cls._from_data(data, file)
        except RecordError as exc:
            raise _in_file(exc, file) from None

    @classmethod
    def from_json(cls, text: str, *, file: str | Path | None = None) -> Record:
        """Read a record written by :meth:`to_json`, as untrusted input (the limits of
        :mod:`tysiac_spec.safe_json`; ``record_bytes`` counts the text's UTF-8 bytes).

        Args:
            file: the file the text was read from: named in errors, and the record's
                :attr:`source`.

        Raises:
            RecordError: ``record.json`` (not JSON, with line and column; also ``NaN`` or
                ``Infinity``, a key given twice, a lone surrogate), ``record.shape``
                (not a JSON object), ``record.missing`` / ``record.unknown-key`` (a key),
                ``record.type`` (a value of the wrong type), ``record.format`` (another
                format tag), ``record.incident`` (a table incident entry that is not
                ``incident KIND PLAYER`` with a known kind and a seat of the table, or ``incident
                KIND``: the dealer, for a rule with ``who: dealer``); for the
                optional ``table`` section see
                :meth:`TableSetup.from_data`.
            LimitError: ``limit.record_bytes``, ``limit.depth``, ``limit.int_digits`` (more
                than 18 digits by default), ``limit.text_chars``.
        """
        name = None if file is None else str(file)
        data = safe_json.loads(text, fail=_json_fail(name), file=name, size_limit="record_bytes")
        try:
            return cls._from_data(data, name)
        except RecordError as exc:
            raise _in_file(exc, name) from None

    @classmethod
    def _from_data(cls, data: Any, source: str | None) -> Record:
        """The record in the JSON document ``data`` (see :meth:`from_json`)."""
        if not isinstance(data, dict):
            raise record_error("shape", f"a record must be a JSON object (got {_kind(data)})")
        unknown = sorted(set(data) - set(_KEYS))
        if unknown:
            raise record_error("unknown-key", f"unknown key `{shorten(unknown[0])}` in the record",
                        hint="expected: " + ", ".join(_KEYS))
        missing = [k for k in _KEYS if k not in data and k not in _OPTIONAL]
        if missing:
            raise record_error("missing", f"the record is missing the key `{missing[0]}`")
        for key, kind in _KEYS.items():
            _check_type(key, data.get(key, [] if key == "deals" else None), kind)
        if data["format"] != FORMAT:
            raise record_error("format", f"unsupported record format `{shorten(data['format'])}` "
                        f"(expected `{FORMAT}`)")
        for name, value in data["options"].items():
            if not isinstance(value, str | int | bool):
                raise record_error("type", f"option `{shorten(name)}` must be a text, an integer or "
                                   f"true/false (got {_kind(value)})")
        for i, action in enumerate(data["actions"]):
            if not isinstance(action, str):
                raise record_error("type", f"`actions[{i}]` must be a text (got {_kind(action)})")
            if action.split(maxsplit=1)[:1] == ["incident"]:
                _check_incident(i, action, data["players"])
        check_seed("seed", data["seed"])
        table = data.get("table")
        deals = _read_deals(data.get("deals", []), len(data["actions"]))
        return cls(
            ruleset=data["ruleset"],
            ruleset_file=data.get("ruleset_file"),
            content_hash=data["content_hash"],
            options=dict(data["options"]),
            players=data["players"],
            seed=data["seed"],
            actions=tuple(data["actions"]),
            table=None if table is None else TableSetup.from_data(table, data["players"]),
            deals=deals,
            position=data.get("position"),
            source=source,
        )


def _read_deals(entries: list[Any], actions: int) -> tuple[tuple[int, str], ...]:
    """The record's ``deals``: each ``{"at": N, "deal": TEXT}``, ``N`` from 0 to the number of
    actions and not below the one before, ``TEXT`` in deal notation (its cards are checked
    against the ruleset's pack by the replay).

    Raises:
        RecordError: ``record.deal`` naming the entry (counted from 0) and what is wrong.
    """
    out: list[tuple[int, str]] = []
    for i, entry in enumerate(entries):
        where = f"`deals[{i}]`"
        if not isinstance(entry, dict) or sorted(entry) != ["at", "deal"]:
            got = (f"the keys {', '.join(f'`{shorten(k)}`' for k in list(entry)[:4]) or 'none'}"
                   if isinstance(entry, dict) else _kind(entry))
            raise record_error("deal", f"{where} must be an object with the keys `at` and `deal` (got {got})")
        at, text = entry["at"], entry["deal"]
        if not isinstance(at, int) or isinstance(at, bool) or not 0 <= at <= actions:
            raise record_error("deal", f"{where}: `at` must be an action count from 0 to {actions} "
                               f"(got {_kind(at)})")
        if out and at < out[-1][0]:
            raise record_error("deal", f"{where}: `at` is {at}, before the entry above it ({out[-1][0]})")
        if not isinstance(text, str):
            raise record_error("deal", f"{where}: `deal` must be a text in deal notation (got {_kind(text)})")
        try:
            Deal.parse(text)
        except NotationError as exc:
            d = exc.diagnostic
            raise record_error("deal", f"{where}: {d.message} (column {d.column})", hint=d.hint) from None
        out.append((at, text))
    return tuple(out)


def _check_incident(index: int, text: str, players: int) -> None:
    """Check the table incident ``actions[index]`` of a record of ``players`` players:
    ``incident KIND N`` with a kind of :data:`~tysiac_spec.ruleset.model.INCIDENT_KINDS` and a
    player of the table, or ``incident KIND`` naming nobody (the replay accepts it only for a
    rule charging the dealer, ``who: dealer``, as :meth:`Game.incident` accepts ``None``);
    whether the ruleset gives the kind a rule is the replay's question.

    Raises:
        RecordError: ``record.incident``, naming the entry (counted from 0) and what is wrong.
    """
    words = text.split()
    where = f"`actions[{index}]` `{shorten(text)}`"
    if len(words) not in (2, 3):
        raise record_error("incident", f"{where} is not a table incident: expected `incident KIND PLAYER`")
    kind, player = words[1], words[2] if len(words) == 3 else None
    if kind not in INCIDENT_KINDS:
        raise record_error("incident", f"{where}: unknown incident `{shorten(kind)}`",
                           hint="expected one of: " + ", ".join(INCIDENT_KINDS))
    if player is None:
        return
    if not (player.isascii() and player.isdigit() and len(player) <= 6) or int(player) >= players:
        raise record_error("incident", f"{where}: the player must be a seat from 0 to {players - 1}")


def ruleset_file_from(ruleset_file: str, saved_at: str | Path, *, base: str | Path | None = None) -> str:
    """How a file saved at ``saved_at`` (a record, a scoresheet) names ``ruleset_file``:
    relative to ``saved_at``'s folder, with ``/`` separators (``house/mine.yaml``), when the
    ruleset file lies in that folder or below (symbolic links resolved), so that the two move
    together; else its absolute path (symbolic links resolved), so that the saved file names
    it from anywhere (reading it then needs the ruleset's folder allowed,
    ``tysiac --rules-dir DIR``: :func:`~tysiac_spec.ruleset.registry.find`).

    Args:
        ruleset_file: the ruleset's path, relative to the folder of ``base`` when given (the
            file that named it), else to the current directory.
    """
    folder = Path(base).parent if base is not None else Path.cwd()
    try:
        rules = (folder / ruleset_file).resolve()
    except (OSError, RuntimeError):  # a symbolic-link loop
        return ruleset_file
    try:
        return rules.relative_to(Path(saved_at).resolve().parent).as_posix()
    except (OSError, ValueError, RuntimeError):  # elsewhere
        return str(rules)


def rules_dir_for(record: Record) -> Path | None:
    """The folder to allow (``tysiac --rules-dir DIR``) so that ``record``, read from its
    :attr:`~Record.source`, finds its ruleset file: the file's folder when the record names
    it by an absolute path outside the record's folder, else ``None`` (a shipped ruleset, or
    a file beside the record or below)."""
    named = record.ruleset_file
    if named is None or not Path(named).is_absolute() or record.source is None:
        return None
    folder = Path(named).parent
    try:
        if folder.resolve().is_relative_to(Path(record.source).resolve().parent):
            return None
    except (OSError, RuntimeError):
        pass
    return folder


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return safe_json.shown(value)


@lru_cache(maxsize=256)
def _named_file(file: str | None, cwd: str) -> str | None:
    """How a record names the ruleset file ``file`` (as loaded, relative to ``cwd``): ``None``
    for a shipped ruleset (in ``rulesets/``), its absolute path (symbolic links resolved) for
    another file, so that it is found again after a change of directory; ``file`` as it is
    when no such file exists (a ruleset loaded from text).  Kept per file name and directory
    (resolving the path costs more than the rest of a record, and a pickled game names its
    ruleset through :func:`record_of`)."""
    if file is None:
        return None
    try:
        path = (Path(cwd) / file).resolve()
        if path.parent == RULESETS_DIR.resolve():
            return None
        return str(path) if path.is_file() else file
    except (OSError, RuntimeError):
        return file


class Played(Protocol):
    """What :func:`record_of` reads of a game (a :class:`~tysiac_spec.engine.game.Game` is
    one; this module does not import it, so that the game can import the record)."""

    @property
    def ruleset(self) -> Ruleset:
        """The ruleset loaded with the options in force."""

    @property
    def players(self) -> int:
        """Players at the table."""

    @property
    def seed(self) -> int:
        """The seed of the game's random generator."""

    @property
    def history(self) -> Sequence[str]:
        """Every applied action in compact text, oldest first."""

    @property
    def stacked_deals(self) -> Sequence[tuple[int, Deal]]:
        """The deals set by hand, each with the number of actions applied before it."""


def record_of(game: Played, *, table: TableSetup | None = None) -> Record:
    """The record of ``game`` as it stands (also ``game.record``), with the seats and bots of
    ``table`` when given, and the deals set by hand (``deals``).  The ruleset's file is kept
    only when it is not a shipped ruleset, by its absolute path (so that the record, or a
    pickled game, finds it from any directory; :meth:`Record.saved_at` names it relative to
    the record's folder when it lies there)."""
    rules = game.ruleset
    return Record(
        ruleset=rules.id,
        ruleset_file=_named_file(rules.file, os.getcwd()),
        content_hash=rules.content_hash,
        options=dict(rules.selected),
        players=game.players,
        seed=game.seed,
        actions=tuple(game.history),
        table=table,
        deals=tuple((at, str(deal)) for at, deal in game.stacked_deals),
        position=None if (start := getattr(game, "start_position", None)) is None else str(start),
    )


def ruleset_of(record: Record) -> Ruleset:
    """The ruleset ``record`` was played with: its ``ruleset_file`` or shipped id loaded with
    its options, with a form for its player count, and checked unchanged by its content hash
    (the one home of how a record names its ruleset: the replay and a pickled game load it
    here).

    A ruleset named by a path in a record read from a file is looked up through
    :func:`~tysiac_spec.ruleset.registry.find` relative to the record's file, which refuses
    a file outside the record's folder (``registry.outside``).

    Raises:
        RecordError: ``record.ruleset`` (the ruleset cannot be loaded with the record's
            options, or has no form for its players; the loader's reason, cut to 400
            characters), ``registry.outside`` (a ruleset file outside the record's folder,
            not read), ``record.hash`` (the ruleset
            changed since the record was made: both hashes are named).
    """
    ref = record.ruleset_file or record.ruleset
    try:
        target: str | Path = ref
        if record.source is not None and registry.looks_like_path(ref):
            target = registry.find(ref, relative_to=record.source)
        rules = load_ruleset(target)
        if dict(rules.selected) != dict(record.options):  # (the defaults: the plain load, shared)
            rules = rules.with_options(dict(record.options))  # (the same document: no file read)
        rules.form(record.players)  # (a player count the ruleset has no form for: said first)
    except TysiacError as exc:
        raise loading_error(ref, exc) from None
    if rules.content_hash != record.content_hash:
        raise record_error(
            "hash",
            f"ruleset `{rules.id}` has changed since the game was recorded: its content hash is "
            f"{rules.content_hash}, the record's is {shorten(record.content_hash)}",
            hint="replay with the ruleset file the game was played with",
        )
    return rules


def loading_error(ref: str, exc: TysiacError) -> RecordError:
    """The error of a record's ruleset ``ref`` that cannot be loaded (or played at the record's
    table): ``registry.outside`` as it is, else ``record.ruleset`` with the reason."""
    code = exc.diagnostic.code if exc.diagnostic.code == "registry.outside" else "record.ruleset"
    reason = shorten(exc.diagnostic.message, 400)
    message = f"the record's ruleset `{shorten(ref, 120)}` cannot be loaded: {reason}"
    return RecordError(Diagnostic(code, message, hint=exc.diagnostic.hint))
