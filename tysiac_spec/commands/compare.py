"""``tysiac compare``: the matrix of rules that differ between resolved rulesets."""

from __future__ import annotations

from pathlib import Path

import click

from ..text import LANGUAGES
from ._common import emit, user_errors

__all__ = ["compare_cmd"]


@click.command("compare")
@click.argument("rulesets", nargs=-1, metavar="ID|PATH...")
@click.option("--all", "all_", is_flag=True,
              help="Compare every shipped ruleset that can be played (variants first, then house rules).")
@click.option("--format", "fmt", type=click.Choice(["text", "md", "html", "json"]), default="text",
              show_default=True, help="Plain text, Markdown, a standalone HTML page, or JSON.")
@click.option("--full", is_flag=True, help="Show identical rules too (marked =).")
@click.option("--lang", "-l", type=click.Choice(LANGUAGES), default="en", show_default=True,
              help="Language of the labels and values.")
@click.option(
    "--output", "-o", type=click.Path(dir_okay=False, path_type=Path),
    help="Write to this file (atomically) instead of standard output.",
)
def compare_cmd(
    rulesets: tuple[str, ...], all_: bool, fmt: str, full: bool, lang: str, output: Path | None
) -> None:
    """Compare rulesets (shipped ids or YAML files) rule by rule.

    First the key rules that differ, at a glance (bid step and limits, forfeit,
    duties in play, marriages, rounding, the finish, the 800 rule, barrel, bolts,
    …); then every rule that differs, grouped by phase of the game: each row a rule
    with its field path (auction.cap), each cell its value in words, per number
    of players where it depends on it. Rules that are the same everywhere are
    folded away unless --full.

    \b
    Examples:
      tysiac compare pl-standard ru-online cz-standard
      tysiac compare --all --format html -o compare.html
      tysiac compare pl-standard my-table.yaml --format json
    """
    from ..docs.compare import by_kind, compare, render_comparison
    from ..ruleset import load_ruleset, registry

    @user_errors
    def run() -> None:
        refs = list(rulesets)
        if all_:
            refs += [e.id for e in registry.entries() if e.id not in refs]
        loaded = [load_ruleset(ref) for ref in refs]
        if all_:
            loaded = loaded[:len(rulesets)] + by_kind([r for r in loaded[len(rulesets):]
                                                                  if r.player_counts])
        bases = [r.id for r in loaded if not r.player_counts]
        if bases:
            raise click.UsageError(
                f"`{bases[0]}` defines no player counts (a common base): it has no rules of play to "
                "compare; compare the rulesets that extend it"
            )
        if len(loaded) < 2:
            raise click.UsageError("give at least two rulesets (ids or paths), or --all")
        text = render_comparison(compare(loaded, lang=lang), fmt, full=full)
        emit(text if text.endswith("\n") else text + "\n", output)

    run()
