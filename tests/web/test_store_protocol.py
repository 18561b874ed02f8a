"""The web table reaches its database only through the :class:`Store` protocol, so another
database (PostgreSQL for a hosted instance) can be added without touching the rest.

A second store written here from the protocol's docstrings alone (Python dicts, no SQL) runs
the real application (:func:`create_app` under uvicorn, in this process): a table is made,
moves are played over the HTTP API with the bots answering, the server is stopped and a new
one started over the same store brings the table back at the same move.  The same moves over
:class:`SqliteStore` store the same actions, so the two stores are interchangeable."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from webserver import InThread

from tysiac_spec.apps.web.store import MatchRow, SeatRow, SqliteStore, TableRow

pytest.importorskip("uvicorn")


class DictStore:
    """:class:`Store` on Python dicts: what a new database must provide, and nothing else."""

    def __init__(self) -> None:
        self.rows: dict[str, TableRow] = {}
        self.matches: dict[tuple[str, int], MatchRow] = {}
        self.saved: dict[str, str] = {}
        self.closed = 0

    def create_table(self, table: TableRow) -> None:
        row = copy.deepcopy(table)
        self.rows[row.id] = row
        self.matches[row.id, row.match.match_no] = row.match

    def append_actions(self, table_id: str, match_no: int, start: int,
                       actions: Sequence[tuple[int, str]]) -> None:
        stored = self.matches[table_id, match_no].actions
        assert len(stored) == start, "actions are numbered on from the stored ones"
        stored.extend(actions)

    def end_match(self, table_id: str, match_no: int, winners: Sequence[int]) -> None:
        self.matches[table_id, match_no].winners = list(winners)

    def new_match(self, table_id: str, match_no: int, seed: int) -> None:
        self.matches[table_id, match_no] = self.rows[table_id].match = MatchRow(match_no, seed)

    def update_seat(self, table_id: str, seat: SeatRow) -> None:
        kept = self.rows[table_id].seats[seat.seat]
        kept.bot, kept.name = seat.bot, seat.name

    def update_settings(self, table_id: str, settings: dict[str, Any]) -> None:
        self.rows[table_id].settings = dict(settings)

    def add_chat(self, table_id: str, seat: int | None, text: str, at: float) -> None:
        self.rows[table_id].chat.append((seat, text, at))

    def tables(self) -> Iterator[TableRow]:
        yield from copy.deepcopy(list(self.rows.values()))

    def match(self, table_id: str, match_no: int) -> MatchRow | None:
        found = self.matches.get((table_id, match_no))
        return None if found is None else copy.deepcopy(found)

    def save_house(self, house_id: str, text: str, base: str | None) -> None:
        assert house_id not in self.saved, "a saved house file is never changed"
        self.saved[house_id] = text

    def house(self, house_id: str) -> str | None:
        return self.saved.get(house_id)

    def houses(self) -> Iterator[tuple[str, str]]:
        yield from list(self.saved.items())

    def close(self) -> None:
        self.closed += 1


def _play(server: InThread, moves: int) -> tuple[str, str, dict[str, Any]]:
    """A pl-standard table (one human, two random bots, seed 5) and ``moves`` of the human's
    moves, each the first legal action; ``(table, token, last state)``."""
    t = server.create(ruleset="pl-standard", players=3, seats=["human", "bot:random", "bot:random"], seed=5)
    table, token = t["table"], t["seats"][0]["token"]
    played = 0
    status, state = server.call("GET", f"/api/tables/{table}/state", token=token)
    assert status == 200, state
    while played < moves and not state["over"]:
        assert state["legal"], state  # (the bots have moved when the answer comes)
        status, state = server.call("POST", f"/api/tables/{table}/actions", token=token,
                                    body={"version": state["version"], "action": state["legal"][0]})
        assert status == 200, state
        played += 1
    return table, token, state


def test_a_store_written_from_the_protocol_alone_runs_and_restores_the_table() -> None:
    store = DictStore()
    server = InThread(store)
    try:
        table, token, before = _play(server, 12)
    finally:
        server.stop()
    assert store.closed == 1
    stored = store.matches[table, 1].actions
    assert len(stored) == before["version"] > 12  # the human's 12 moves and the bots' replies
    assert {seat for seat, _ in stored} == {0, 1, 2}

    again = InThread(store)
    try:
        status, after = again.call("GET", f"/api/tables/{table}/state", token=token)
    finally:
        again.stop()
    assert status == 200
    assert (after["version"], after["view"], after["legal"]) == (before["version"], before["view"], before["legal"])


def test_the_sqlite_store_and_the_protocol_store_keep_the_same_actions(tmp_path: Path) -> None:
    stores: list[Any] = [DictStore(), SqliteStore(tmp_path / "web.sqlite3")]
    kept = []
    for store in stores:
        server = InThread(store)
        try:
            _, _, state = _play(server, 8)
        finally:
            server.stop()
        kept.append((state["version"], state["view"]))
    assert kept[0] == kept[1]
    reopened = SqliteStore(tmp_path / "web.sqlite3")
    try:
        (row,) = list(reopened.tables())
        assert row.match.actions == stores[0].matches[next(iter(stores[0].rows)), 1].actions
    finally:
        reopened.close()
