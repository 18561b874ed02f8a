"""``tysiac compare``: the matrix of rules that differ between resolved rulesets; with
``--simulate N``, a study of what the differences do (:mod:`tysiac_spec.study`): N bot matches
of each ruleset, figures side by side with 95 % intervals and tests, a progress bar on standard
error while it runs (when standard error is a terminal), and with ``--format html`` a page with
plots.  A study needs the ``study`` extra (SciPy for the statistics, matplotlib for the
plots); without it the command stops with the pip command, before any match is played."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..run_choices import BACKENDS, DEFAULT_MAX_DEALS, ENGINES
from ..text import LANGUAGES
from ._common import SEED_MAX, check_output, emit, user_errors, write_atomically
from .simulate import BOTS_HELP, ENGINE_HELP, EXIT_INTERRUPTED, simulation_errors

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
    help="Write to this file (atomically; missing folders are made) instead of standard output.",
)
@click.option("--simulate", "matches", type=click.IntRange(min=1), metavar="N",
              help="Play N bot matches of each ruleset and report what the rules do (contracts made, "
                   "bids, forfeits, match length, barrel, bolts, wins by seat) with 95 % intervals "
                   "and tests of the differences, instead of the rules that differ.")
@click.option("--players", "-p", type=int, default=3, show_default=True, help="With --simulate: players.")
@click.option("--seed", "-s", type=click.IntRange(0, SEED_MAX), default=0, show_default=True, metavar="N",
              help="With --simulate: the seed (every ruleset plays matches from the same seeds).")
@click.option("--bots", default="heuristic", show_default=True, metavar="BOT[,BOT...]",
              help="With --simulate: t" + BOTS_HELP[1:])
@click.option("--workers", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="With --simulate: worker processes (the results do not depend on it).")
@click.option("--backend", type=click.Choice(BACKENDS), default="local", show_default=True,
              help="With --simulate: local processes or a Dask cluster (as tysiac simulate).")
@click.option("--scheduler", metavar="ADDRESS", help="With --simulate: a running Dask scheduler.")
@click.option("--max-deals", type=click.IntRange(min=1), default=DEFAULT_MAX_DEALS, show_default=True,
              help="With --simulate: stop a match after this many deals (counted unfinished).")
@click.option("--engine", type=click.Choice(ENGINES), default="auto", show_default=True,
              help="With --simulate: w" + ENGINE_HELP[1:])
@click.option("--data", type=click.Path(dir_okay=False, path_type=Path),
              help="With --simulate: also write the study's figures as JSON to this file.")
@click.option("--site-page", is_flag=True,
              help="With --simulate --format html: links for a page of the site's studies/ folder "
                   "(the committed pages in docs/studies/, which tysiac build copies).")
def compare_cmd(
    rulesets: tuple[str, ...], all_: bool, fmt: str, full: bool, lang: str, output: Path | None,
    matches: int | None, players: int, seed: int, bots: str, workers: int, backend: str,
    scheduler: str | None, max_deals: int, engine: str, data: Path | None, site_page: bool,
) -> None:
    """Compare rulesets (shipped ids or YAML files) rule by rule.

    First the key rules that differ, at a glance (bid step and limits, forfeit,
    duties in play, marriages, rounding, the finish, the 800 rule, barrel, bolts,
    …); then every rule that differs, grouped by phase of the game: each row a rule
    with its field path (auction.cap), each cell its value in words, per number
    of players where it depends on it. Rules that are the same everywhere are
    folded away unless --full.

    With --simulate N: what the differences do instead. Each ruleset plays N bot
    matches from the same seeds; its figures are shown side by side with 95 %
    intervals (Wilson, Student's t), and each ruleset after the first is tested
    against the first (two-proportion z-test or Welch's t-test, Holm-adjusted);
    --format html adds plots. Random bots play on the fast path where it can (--engine).
    A study needs SciPy and, for the plots, matplotlib:
    pip install 'tysiac-spec[study]'.
    Ctrl-C stops the run (status 130); once every ruleset has begun, the figures of
    the matches finished so far are printed.

    \b
    Examples:
      tysiac compare pl-standard ru-online cz-standard
      tysiac compare --all --format html -o compare.html
      tysiac compare pl-standard my-table.yaml --format json
      tysiac compare pl-standard ru-classic --simulate 200 -j 2
      tysiac compare pl-standard ru-classic --simulate 4000 --format html -o study.html
      tysiac compare pl-standard ru-classic --simulate 50 --bots heuristic,random,heuristic
    """
    from ..docs.compare import by_kind, compare, render_comparison
    from ..ruleset import load_ruleset, registry

    @user_errors
    def run() -> bool:
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
        if matches is not None:
            studied = [str(r.file) if r.file else r.id for r in loaded]
            return _study(studied, matches, players, seed, bots, workers, backend, scheduler, max_deals, fmt,
                          output, data, site_page, engine)
        text = render_comparison(compare(loaded, lang=lang), fmt, full=full)
        emit(text if text.endswith("\n") else text + "\n", output)
        return False

    if run():
        sys.exit(EXIT_INTERRUPTED)


def _study(
    refs: list[str], matches: int, players: int, seed: int, bots: str, workers: int, backend: str,
    scheduler: str | None, max_deals: int, fmt: str, output: Path | None, data: Path | None,
    site_page: bool, engine: str = "auto",
) -> bool:
    """Run and print a study (``--simulate``); true when it was interrupted."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from ..simulate import usable_cpus
    from ..study import PlotsMissing, StatsMissing, render_study, require_stats, run_study

    for path in (output, data):  # refuse before the matches are played, not after
        check_output(path)
    try:
        require_stats()
    except StatsMissing as exc:
        raise click.ClickException(str(exc)) from None
    if fmt == "html":
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise click.ClickException(str(PlotsMissing())) from None
    jobs = workers if scheduler is not None else min(workers, usable_cpus())
    show = fmt != "json" and sys.stderr.isatty()
    with Progress(
        TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=Console(stderr=True), disable=not show, transient=True,
    ) as bar:
        task = bar.add_task("matches", total=matches * len(refs))
        with simulation_errors():
            study = run_study(
                refs, players=players, matches=matches, seed=seed, bots=bots, workers=jobs, backend=backend,
                scheduler=scheduler, max_deals=max_deals, progress=lambda k: bar.advance(task, k),
                stop_on_interrupt=True, engine=engine,
            )
    interrupted = any(s.interrupted for s in study.runs)
    if interrupted:
        click.echo("interrupted: the figures cover the matches finished before the stop", err=True)
    if len(study.runs) < len(refs):
        click.echo(f"interrupted before {refs[len(study.runs)]}: nothing to compare", err=True)
        return True
    if data is not None:
        write_atomically(data, json.dumps(study.as_dict(), ensure_ascii=False, indent=2) + "\n")
    links = {"home": "../index.html", "books_prefix": "../rules/", "compare": "../compare.html"}
    emit(render_study(study, fmt, links=links if site_page else None), output)
    return interrupted
