"""``tysiac serve``: the web table (:mod:`tysiac_spec.apps.web`) on an embedded SQLite
database, with the rule books and the comparison."""

from __future__ import annotations

import os
import sys
import webbrowser
from pathlib import Path

import click

__all__ = ["default_db", "serve"]


def default_db() -> Path:
    """The default database: ``tysiac/web.sqlite3`` in the user's data folder
    (``$XDG_DATA_HOME``, else ``~/.local/share``; ``%LOCALAPPDATA%`` on Windows)."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "tysiac" / "web.sqlite3"


@click.command("serve")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on (0.0.0.0: every device on your network may connect).",
)
@click.option(
    "--port",
    default=8000,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="Port to listen on (0: any free port).",
)
@click.option(
    "--db",
    "db",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The SQLite database file (created if missing) [default: tysiac/web.sqlite3 in your data folder].",
)
@click.option(
    "--durable",
    is_flag=True,
    help="Flush every action to disk (SQLite synchronous=FULL): survives a power loss, slower.",
)
@click.option("--open", "open_browser", is_flag=True, help="Open the start page in the web browser.")
def serve(host: str, port: int, db: Path | None, durable: bool, open_browser: bool) -> None:
    """Serve the web table: create a table for any shipped ruleset or your own house-rule
    file, invite friends by link (or QR code), fill seats with bots and play in the browser.

    Every move is stored before anyone sees it; stopping the server (Ctrl-C) or a crash loses
    nothing, and the tables come back at the same move. The rule books are at /rules/<id>
    and the comparison at /compare. The HTTP API is described in the README.
    """
    from ..apps.web.server import CannotServe
    from ..apps.web.server import serve as run

    path = db or default_db()

    def ready(url: str) -> None:
        click.echo(f"tysiac serve: {url} (database {path}; Ctrl-C stops)", err=True)
        if open_browser:
            webbrowser.open(url)

    try:
        run(path, host=host, port=port, durable=durable, ready=ready)
    except CannotServe as exc:
        click.echo(f"tysiac serve: {exc}", err=True)
        sys.exit(1)
