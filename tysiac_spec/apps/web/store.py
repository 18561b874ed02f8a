"""Where the web tables live between restarts: the :class:`Store` protocol and
:class:`SqliteStore` (stdlib ``sqlite3``, WAL).

A table is stored as what rebuilds it exactly: the ruleset (a shipped id, or the uploaded
text), the options, the players, each match's seed and every action in the engine's notation
(the record of :mod:`tysiac_spec.engine.record`), plus the seats, the settings and the chat.
The room writes every accepted action (:meth:`Store.append_actions`, one commit) before any
client sees it, so a server killed at any moment restarts with every acknowledged action.
Secrets are stored only as SHA-256 hashes (:mod:`.auth`).

The schema is a portable subset (TEXT, INTEGER, REAL) so that a PostgreSQL store can run the
same statements behind the same protocol.  Migrations are numbered steps applied in order,
the version kept in ``PRAGMA user_version``.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

__all__ = ["MatchRow", "SeatRow", "SqliteStore", "Store", "TableRow"]


@dataclass(slots=True)
class SeatRow:
    """A seat: ``kind`` ``human`` or ``bot``; ``bot`` the bot's name for a bot seat, or the
    bot that plays a human seat handed to it (``None``: the human plays); ``token_hash`` the
    seat link's hash (human seats)."""

    seat: int
    kind: str
    bot: str | None
    name: str
    token_hash: str | None


@dataclass(slots=True)
class MatchRow:
    """One match at a table: its number (1, then a rematch adds 1), seed, winners when over,
    and its actions ``(seat, text)`` in order."""

    match_no: int
    seed: int
    winners: list[int] | None = None
    actions: list[tuple[int, str]] = field(default_factory=list)


@dataclass(slots=True)
class TableRow:
    """A table as stored: its ruleset (``ruleset_ref`` a shipped id, or ``upload`` with
    ``ruleset_text``), options, players, settings, host and watch token hashes, seats and the
    current match."""

    id: str
    ruleset_ref: str
    ruleset_text: str | None
    ruleset_hash: str
    options: dict[str, Any]
    players: int
    settings: dict[str, Any]
    host_token_hash: str
    watch_token_hash: str | None
    host_seat: int | None
    seats: list[SeatRow]
    match: MatchRow
    chat: list[tuple[int | None, str, float]] = field(default_factory=list)


class Store(Protocol):
    """What the web table needs from a database (SQLite now; PostgreSQL behind the same
    methods).  Every method commits before it returns."""

    def create_table(self, table: TableRow) -> None:
        """Store a new table with its seats and its first match (no actions yet)."""

    def append_actions(
        self, table_id: str, match_no: int, start: int, actions: Sequence[tuple[int, str]]
    ) -> None:
        """Store ``actions`` (``(seat, text)``) as numbers ``start + 1`` … of the match."""

    def end_match(self, table_id: str, match_no: int, winners: Sequence[int]) -> None:
        """Mark the match over with its winners."""

    def new_match(self, table_id: str, match_no: int, seed: int) -> None:
        """Start match ``match_no`` (a rematch) with ``seed``; it becomes the table's current one."""

    def update_seat(self, table_id: str, seat: SeatRow) -> None:
        """Store a seat's bot and name."""

    def update_settings(self, table_id: str, settings: dict[str, Any]) -> None:
        """Store the table's settings (chat, spectators, grace)."""

    def add_chat(self, table_id: str, seat: int | None, text: str, at: float) -> None:
        """Store a chat line."""

    def tables(self) -> Iterator[TableRow]:
        """Every table with its current match and the match's actions."""

    def match(self, table_id: str, match_no: int) -> MatchRow | None:
        """A match of a table with its actions (``None``: no such match)."""

    def save_house(self, house_id: str, text: str, base: str | None) -> None:
        """Store a house-rule file saved from the workbench under ``house_id`` (never changed
        afterwards: a new save is a new id)."""

    def house(self, house_id: str) -> str | None:
        """The text of a saved house-rule file (``None``: no such id)."""

    def houses(self) -> Iterator[tuple[str, str]]:
        """Every saved house-rule file: ``(id, text)``, oldest first."""

    def close(self) -> None:
        """Close the database."""


_MIGRATIONS: tuple[str, ...] = (
    # 1: tables, matches, seats, actions, chat
    """
    CREATE TABLE tables (
      id TEXT PRIMARY KEY,
      created_at REAL NOT NULL, updated_at REAL NOT NULL,
      status TEXT NOT NULL,
      ruleset_ref TEXT NOT NULL, ruleset_text TEXT, ruleset_hash TEXT NOT NULL,
      options_json TEXT NOT NULL, players INTEGER NOT NULL,
      settings_json TEXT NOT NULL,
      host_token_hash TEXT NOT NULL, watch_token_hash TEXT, host_seat INTEGER,
      current_match INTEGER NOT NULL DEFAULT 1
    );
    CREATE TABLE matches (
      table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
      match_no INTEGER NOT NULL, seed INTEGER NOT NULL,
      started_at REAL NOT NULL, ended_at REAL, winners_json TEXT,
      version INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (table_id, match_no)
    );
    CREATE TABLE seats (
      table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
      seat INTEGER NOT NULL, kind TEXT NOT NULL, bot TEXT, name TEXT NOT NULL, token_hash TEXT,
      last_seen_at REAL,
      PRIMARY KEY (table_id, seat)
    );
    CREATE TABLE actions (
      table_id TEXT NOT NULL, match_no INTEGER NOT NULL, n INTEGER NOT NULL,
      seat INTEGER NOT NULL, action TEXT NOT NULL, at REAL NOT NULL,
      PRIMARY KEY (table_id, match_no, n),
      FOREIGN KEY (table_id, match_no) REFERENCES matches(table_id, match_no) ON DELETE CASCADE
    );
    CREATE TABLE chat (
      table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
      n INTEGER NOT NULL, seat INTEGER, text TEXT NOT NULL, at REAL NOT NULL,
      PRIMARY KEY (table_id, n)
    );
    """,
    # 2: house-rule files saved from the workbench (/w/<id>)
    """
    CREATE TABLE houses (
      id TEXT PRIMARY KEY,
      created_at REAL NOT NULL,
      base TEXT,
      text TEXT NOT NULL
    );
    """,
)
"""The migrations, in order: ``user_version`` N means the first N have run."""

CHAT_KEPT = 50
"""Chat lines loaded back per table at start."""


class SqliteStore:
    """:class:`Store` on one SQLite file in WAL mode (``synchronous=NORMAL``: an application
    crash loses no commit; ``durable=True``: ``FULL``, a power loss neither).

    One connection, used from the server's event loop thread (each write is a short
    transaction, about 0.1 ms)."""

    def __init__(self, path: str | Path, *, durable: bool = False) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._migrate()

    def _migrate(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        for n in range(version, len(_MIGRATIONS)):
            self._db.execute("BEGIN")
            try:
                for statement in _MIGRATIONS[n].split(";"):
                    if statement.strip():
                        self._db.execute(statement)
                self._db.execute(f"PRAGMA user_version={n + 1}")
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    @property
    def version(self) -> int:
        """The schema version (``PRAGMA user_version``)."""
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def _tx(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> None:
        db = self._db
        db.execute("BEGIN")
        try:
            for sql, args in statements:
                db.execute(sql, args)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def create_table(self, table: TableRow) -> None:
        now = time.time()
        statements: list[tuple[str, Sequence[Any]]] = [
            (
                "INSERT INTO tables (id, created_at, updated_at, status, ruleset_ref, ruleset_text, "
                "ruleset_hash, options_json, players, settings_json, host_token_hash, watch_token_hash, "
                "host_seat, current_match) "
                "VALUES (?, ?, ?, 'playing', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    table.id,
                    now,
                    now,
                    table.ruleset_ref,
                    table.ruleset_text,
                    table.ruleset_hash,
                    json.dumps(table.options),
                    table.players,
                    json.dumps(table.settings),
                    table.host_token_hash,
                    table.watch_token_hash,
                    table.host_seat,
                    table.match.match_no,
                ),
            ),
            (
                "INSERT INTO matches (table_id, match_no, seed, started_at) VALUES (?, ?, ?, ?)",
                (table.id, table.match.match_no, table.match.seed, now),
            ),
        ]
        for s in table.seats:
            statements.append(
                (
                    "INSERT INTO seats (table_id, seat, kind, bot, name, token_hash) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (table.id, s.seat, s.kind, s.bot, s.name, s.token_hash),
                )
            )
        self._tx(statements)

    def append_actions(
        self, table_id: str, match_no: int, start: int, actions: Sequence[tuple[int, str]]
    ) -> None:
        if not actions:
            return
        now = time.time()
        db = self._db
        db.execute("BEGIN")
        try:
            db.executemany(
                "INSERT INTO actions (table_id, match_no, n, seat, action, at) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (table_id, match_no, start + i + 1, seat, text, now)
                    for i, (seat, text) in enumerate(actions)
                ],
            )
            db.execute(
                "UPDATE matches SET version = ? WHERE table_id = ? AND match_no = ?",
                (start + len(actions), table_id, match_no),
            )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def end_match(self, table_id: str, match_no: int, winners: Sequence[int]) -> None:
        now = time.time()
        self._tx(
            [
                (
                    "UPDATE matches SET ended_at = ?, winners_json = ? WHERE table_id = ? AND match_no = ?",
                    (now, json.dumps(list(winners)), table_id, match_no),
                ),
                ("UPDATE tables SET status = 'over', updated_at = ? WHERE id = ?", (now, table_id)),
            ]
        )

    def new_match(self, table_id: str, match_no: int, seed: int) -> None:
        now = time.time()
        self._tx(
            [
                (
                    "INSERT INTO matches (table_id, match_no, seed, started_at) VALUES (?, ?, ?, ?)",
                    (table_id, match_no, seed, now),
                ),
                (
                    "UPDATE tables SET current_match = ?, status = 'playing', updated_at = ? WHERE id = ?",
                    (match_no, now, table_id),
                ),
            ]
        )

    def update_seat(self, table_id: str, seat: SeatRow) -> None:
        self._tx(
            [
                (
                    "UPDATE seats SET bot = ?, name = ? WHERE table_id = ? AND seat = ?",
                    (seat.bot, seat.name, table_id, seat.seat),
                )
            ]
        )

    def update_settings(self, table_id: str, settings: dict[str, Any]) -> None:
        self._tx([("UPDATE tables SET settings_json = ? WHERE id = ?", (json.dumps(settings), table_id))])

    def add_chat(self, table_id: str, seat: int | None, text: str, at: float) -> None:
        self._tx(
            [
                (
                    "INSERT INTO chat (table_id, n, seat, text, at) VALUES "
                    "(?, (SELECT COALESCE(MAX(n), 0) + 1 FROM chat WHERE table_id = ?), ?, ?, ?)",
                    (table_id, table_id, seat, text, at),
                )
            ]
        )

    def match(self, table_id: str, match_no: int) -> MatchRow | None:
        row = self._db.execute(
            "SELECT seed, winners_json FROM matches WHERE table_id = ? AND match_no = ?", (table_id, match_no)
        ).fetchone()
        if row is None:
            return None
        actions = self._db.execute(
            "SELECT seat, action FROM actions WHERE table_id = ? AND match_no = ? ORDER BY n",
            (table_id, match_no),
        ).fetchall()
        return MatchRow(
            match_no, row[0], None if row[1] is None else json.loads(row[1]), [(s, a) for s, a in actions]
        )

    def tables(self) -> Iterator[TableRow]:
        rows = self._db.execute(
            "SELECT id, ruleset_ref, ruleset_text, ruleset_hash, options_json, players, settings_json, "
            "host_token_hash, watch_token_hash, host_seat, current_match FROM tables ORDER BY created_at"
        ).fetchall()
        for tid, ref, text, rhash, options, players, settings, host, watch, host_seat, current in rows:
            seats = [
                SeatRow(*r)
                for r in self._db.execute(
                    "SELECT seat, kind, bot, name, token_hash FROM seats WHERE table_id = ? ORDER BY seat",
                    (tid,),
                )
            ]
            match = self.match(tid, current)
            assert match is not None
            chat = self._db.execute(
                "SELECT seat, text, at FROM chat WHERE table_id = ? ORDER BY n DESC LIMIT ?", (tid, CHAT_KEPT)
            ).fetchall()
            yield TableRow(
                tid,
                ref,
                text,
                rhash,
                json.loads(options),
                players,
                json.loads(settings),
                host,
                watch,
                host_seat,
                seats,
                match,
                [(s, t, a) for s, t, a in reversed(chat)],
            )

    def save_house(self, house_id: str, text: str, base: str | None) -> None:
        self._tx(
            [
                (
                    "INSERT INTO houses (id, created_at, base, text) VALUES (?, ?, ?, ?)",
                    (house_id, time.time(), base, text),
                )
            ]
        )

    def house(self, house_id: str) -> str | None:
        row = self._db.execute("SELECT text FROM houses WHERE id = ?", (house_id,)).fetchone()
        return None if row is None else str(row[0])

    def houses(self) -> Iterator[tuple[str, str]]:
        rows = self._db.execute("SELECT id, text FROM houses ORDER BY created_at").fetchall()
        yield from ((str(i), str(t)) for i, t in rows)

    def close(self) -> None:
        self._db.close()
