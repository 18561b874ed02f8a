"""``tysiac docs``: the rule book of one resolved ruleset (Markdown or HTML, en/pl/ru/cs)."""

from __future__ import annotations

from pathlib import Path

import click

from ..text import LANGUAGES
from ._common import emit, parse_option_args, user_errors

__all__ = ["docs"]


@click.command("docs")
@click.argument("ruleset", metavar="ID|PATH")
@click.option("--players", "-p", type=int, help="Only the rules for this many players.")
@click.option(
    "--option", "-O", "options", multiple=True, metavar="NAME=VALUE",
    help="Set a table option of the ruleset (repeatable), e.g. -O five_rounds=up.",
)
@click.option("--lang", "-l", type=click.Choice(LANGUAGES), default="en", show_default=True,
              help="Language of the rule book.")
@click.option("--format", "fmt", type=click.Choice(["md", "html"]), default="md", show_default=True,
              help="Markdown, or a standalone HTML page (works offline).")
@click.option(
    "--output", "-o", type=click.Path(dir_okay=False, path_type=Path),
    help="Write to this file (atomically; missing folders are made) instead of standard output.",
)
def docs(
    ruleset: str, players: int | None, options: tuple[str, ...], lang: str, fmt: str, output: Path | None
) -> None:
    """Print the rule book of a ruleset (a shipped id or a YAML file), generated from its data.

    Chapters follow the order a player learns the game: cards, dealing, auction,
    talon and exchange, contract, play, marriages and trump, scoring, the match,
    special rules, table options and sources. Every rule shows its value in words,
    its formula, its sources and whether it is an assumption; the worked examples
    (the ruleset's scenario file) close the chapter they illustrate.

    \b
    Examples:
      tysiac docs pl-standard --lang pl
      tysiac docs ru-online --lang ru --format html -o ru-online.ru.html
      tysiac docs my-table.yaml --players 3 -O five_rounds=up
    """
    from ..docs.book import build_book, render_book
    from ..ruleset import load_ruleset

    @user_errors
    def run() -> None:
        rules = load_ruleset(ruleset, options=parse_option_args(options))
        book = build_book(rules, lang=lang, players=players)
        emit(render_book(book, fmt), output)

    run()
