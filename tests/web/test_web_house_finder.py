"""The saved house files of a web server are found by id (``extends: <id>``) only while that
server runs: :class:`~tysiac_spec.apps.web.server_state.ServerState` registers their finder
(:func:`tysiac_spec.ruleset.registry.add_finder`) and takes it away at shutdown or
:meth:`~tysiac_spec.apps.web.server_state.ServerState.close`, once."""

from __future__ import annotations

from pathlib import Path

import pytest
from webserver import InThread

from tysiac_spec.apps.web.server import create_app
from tysiac_spec.apps.web.store import SqliteStore
from tysiac_spec.ruleset import registry

pytest.importorskip("uvicorn")


def _running(db: Path, house: str) -> InThread:
    """A server over a new store holding the house ``house`` (saved before the start)."""
    store = SqliteStore(db)
    store.save_house(house, "extends: pl-standard\n", "pl-standard")
    return InThread(store)


def test_two_servers_started_and_stopped_in_one_process_leave_no_finder(tmp_path: Path) -> None:
    before = list(registry._FINDERS)
    first = _running(tmp_path / "first.db", "club-a")
    second = _running(tmp_path / "second.db", "club-b")
    a = first.app.state.server.house_files.folder
    b = second.app.state.server.house_files.folder
    assert len(registry._FINDERS) == len(before) + 2
    assert registry.found_elsewhere("club-a") == a / "club-a.yaml"
    assert registry.found_elsewhere("club-b") == b / "club-b.yaml"

    first.stop()
    assert registry.found_elsewhere("club-a") is None
    assert registry.found_elsewhere("club-b") == b / "club-b.yaml"
    assert not a.exists() and b.is_dir()

    second.stop()
    assert registry.found_elsewhere("club-b") is None
    assert not b.exists()
    assert registry._FINDERS == before

    first.app.state.server.close()  # (again, after the shutdown closed it: nothing more)
    second.app.state.server.close()
    assert registry._FINDERS == before


def test_a_state_closed_without_a_shutdown_forgets_its_houses_once(tmp_path: Path) -> None:
    before = list(registry._FINDERS)
    store = SqliteStore(tmp_path / "t.db")
    store.save_house("club-c", "extends: pl-standard\n", "pl-standard")
    state = create_app(store).state.server  # (never started: no lifespan ran)
    assert registry.found_elsewhere("club-c") == state.house_files.folder / "club-c.yaml"
    state.close()
    assert registry.found_elsewhere("club-c") is None
    assert not state.house_files.folder.exists()
    assert registry._FINDERS == before
    state.close()
    assert registry._FINDERS == before
    store.close()
