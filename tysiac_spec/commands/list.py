"""``tysiac list``: the shipped rulesets, as a table or as JSON."""

from __future__ import annotations

import json
from typing import Any

import click

from ..errors import TysiacError
from ..ruleset import registry
from ._common import user_errors

__all__ = ["list_cmd"]


@click.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
@user_errors
def list_cmd(as_json: bool) -> None:
    """List the shipped rulesets: id, kind, player counts, name and parent."""
    from ..ruleset import load_ruleset  # (not at import: completion)

    rows: list[dict[str, Any]] = []
    for entry in registry.entries():
        try:
            rules = load_ruleset(entry.id)
            players = ",".join(str(n) for n in rules.player_counts) or "-"
            status = "ok"
        except TysiacError:
            players, status = "?", "invalid"
        rows.append(
            {
                "id": entry.id,
                "kind": entry.kind,
                "players": players,
                "name": entry.name,
                "extends": list(entry.extends),
                "aliases": list(entry.aliases),
                "status": status,
            }
        )
    if as_json:
        for row in rows:
            row["players"] = [int(n) for n in str(row["players"]).split(",") if n.isdigit()]
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title="Shipped rulesets")
    table.add_column("id", no_wrap=True)
    table.add_column("kind", no_wrap=True)
    table.add_column("players", no_wrap=True)
    table.add_column("name")
    table.add_column("extends")
    table.add_column("aliases")
    for row in rows:
        style = "red" if row["status"] != "ok" else None
        table.add_row(
            row["id"], row["kind"], row["players"], row["name"],
            ", ".join(row["extends"]), ", ".join(row["aliases"]), style=style,
        )
    Console(highlight=False, soft_wrap=True).print(table)
