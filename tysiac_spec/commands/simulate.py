"""``tysiac simulate``: play many bot matches of a ruleset and print statistics.

Tables (rich) on standard output, or one JSON object with ``--json``; a progress bar
on standard error while the matches run (hidden with ``--json`` or when standard error
is not a terminal).  Results depend only on the ruleset, options, player count, bots,
number of games and seed — not on ``--workers``, nor on ``--backend`` (``local``: this
process or a pool of processes; ``dask``: a Dask distributed cluster, a new local one or the
scheduler given by ``--scheduler``), nor on ``--engine`` (``auto``: the fast path where it can
play the run, else the generic engine; ``fast``; ``generic``; the "played by" row and the JSON's
``engine`` and ``fallback_reason`` say which played and why not the fast path).
``--workers`` above the CPUs this process may use is lowered to that number, with a note on
standard error.  SIGTERM and SIGHUP stop a run as Ctrl-C does: the worker processes stop, the
statistics of the finished matches are printed, and the exit status is 130.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import click

from ..run_choices import BACKENDS, DEFAULT_MAX_DEALS, ENGINES
from ._common import SEED_MAX, parse_option_args, user_errors

if TYPE_CHECKING:  # rich, the bots and the engine are imported when the command runs, not
    # when the shell completes its arguments
    from rich.table import Table

__all__ = ["BOTS_HELP", "ENGINE_HELP", "EXIT_INTERRUPTED", "simulate_cmd", "simulation_errors"]

BOTS_HELP = (
    "The bots: one for every seat, or one per seat separated by commas (heuristic,random,heuristic); "
    "a shipped bot (heuristic, random, strong: the determinized double-dummy bot, about 0.1 s "
    "of CPU a deal of pl-standard) or a class of yours following the Bot protocol, as "
    "MODULE:NAME (on PYTHONPATH) or path/to/bots.py:NAME, called as NAME(seed, form), or "
    "cmd:COMMAND, a program in any language speaking JSON lines on its standard input and output "
    "(tysiac_spec/bots/process.py; examples/bots/json_bot.py; TYSIAC_BOT_TIMEOUT seconds per "
    "answer, default 10). A bot that "
    "raises stops the run with one line (error[bot.raised]: the bot, its seat, the exception, its "
    "file:line); TYSIAC_BOT_TRACEBACK=1 adds the Python traceback."
)

ENGINE_HELP = (
    "What plays the matches: the fast path (the form compiled to specialised code; the shipped "
    "bots only, random, heuristic and strong, and the forms its generator covers), the generic "
    "engine, or auto: the fast path where "
    "it can play the run, else the engine (the statistics say why). The results do not depend on it."
)

EXIT_INTERRUPTED = 130
"""Exit status after Ctrl-C, SIGTERM or SIGHUP (the statistics of the finished matches are
still printed)."""


@contextmanager
def simulation_errors() -> Iterator[None]:
    """A bad ``--bots`` or ``--engine`` raised by a run as click's error naming the option; a
    missing ``distributed`` package or an unreachable scheduler as a one-line error."""
    from ..bots import BotError
    from ..simulate import ClusterError, DistributedMissing, EngineUnavailable, IncidentsError

    try:
        yield
    except BotError as exc:
        raise click.BadParameter(str(exc), param_hint="--bots") from None
    except IncidentsError as exc:
        raise click.BadParameter(str(exc), param_hint="--incidents") from None
    except EngineUnavailable as exc:
        raise click.BadParameter(str(exc), param_hint="--engine") from None
    except (DistributedMissing, ClusterError) as exc:
        raise click.ClickException(str(exc)) from None


def _tables(data: dict[str, Any], engine: str) -> list[Table]:
    from rich.table import Table

    summary = Table(title=f"{data['ruleset']}, {data['players']} players, {data['bots']} bots",
                    caption=f"played by the {engine}")
    summary.add_column("statistic")
    summary.add_column("value", justify="right")
    c, per = data["contracts"], data["deals_per_match"]
    rows = [
        ("matches", f"{data['matches']} ({data['unfinished']} unfinished after {data['max_deals']} deals)"
         if data["unfinished"] else str(data["matches"])),
        ("deals", str(data["deals"])),
        ("deals per match (mean / max)", f"{per['mean']:.1f} / {per['max']}"),
        ("contracts made / declared", f"{c['made']} / {c['declared']} ({100 * c['rate']:.1f} %)"),
        ("average winning bid", f"{data['bids']['average']:.1f}"),
        ("average contract", f"{c['average']:.1f}"),
        ("forfeits", str(data["forfeits"])),
        ("barrel entries / falls", f"{data['barrel']['entries']} / {data['barrel']['falls']}"),
        ("bolts (penalties)", f"{data['bolts']} ({data['bolt_penalties']})"),
        ("redeals", str(data["redeals"])),
        *((f"incident {kind} (rate {i['rate']:g})", f"{i['called']} called")
          for kind, i in data.get("incidents", {}).items()),
        ("seconds", f"{data['seconds']:.2f}"),
        ("deals per second", f"{data['deals_per_second']:.0f}"),
    ]
    for name, value in rows:
        summary.add_row(name, value)
    # with fixed partnerships the partners share their side's win: one row per side, so that
    # the win % add up to 100 (the JSON keeps the wins per seat and names the sides)
    side = data.get("sides")
    groups = ([tuple(p for p, s in enumerate(side) if s == k) for k in sorted(set(side))] if side
              else [(p,) for p in range(data["players"])])
    seats = Table(title="Sides (fixed partnerships)" if side else "Seats")
    seats.add_column("seats" if side else "seat", justify="right")
    seats.add_column("wins", justify="right")
    seats.add_column("win %", justify="right")
    seats.add_column("mean final score", justify="right")
    for group in groups:
        wins = data["wins"][group[0]]
        score = sum(data["mean_scores"][p] for p in group) / len(group)
        share = 100 * wins / data["matches"] if data["matches"] else 0.0
        seats.add_row("+".join(map(str, group)), str(wins), f"{share:.1f}", f"{score:.1f}")
    events = Table(title="Match events")
    events.add_column("event")
    events.add_column("count", justify="right")
    events.add_column("per match", justify="right")
    for kind, count in data["events"].items():
        events.add_row(kind, str(count), f"{count / data['matches']:.2f}" if data["matches"] else "-")
    return [summary, seats, events]


@click.command("simulate")
@click.argument("ruleset", metavar="ID|PATH")
@click.option(
    "--players", "-p", type=int, help="Players at the table (default: 3 if the ruleset has a 3-player form)."
)
@click.option(
    "--option", "-O", "options", multiple=True, metavar="NAME=VALUE",
    help="Set a table option of the ruleset (repeatable), e.g. -O five_rounds=up.",
)
@click.option("--games", "-n", type=click.IntRange(min=1), default=100, show_default=True,
              help="Matches to play.")
@click.option("--seed", "-s", type=click.IntRange(0, SEED_MAX), default=0, show_default=True,
              metavar="N", help="Seed of the run (0 to 10^18 - 1); match i is seeded from (seed, i).")
@click.option("--bots", default="heuristic", show_default=True, metavar="BOT[,BOT...]", help=BOTS_HELP)
@click.option("--workers", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes (the results do not depend on it); at most the number "
                   "of CPUs this process may use (a larger number is lowered, with a note).")
@click.option("--max-deals", type=click.IntRange(min=1), default=DEFAULT_MAX_DEALS, show_default=True,
              help="Stop a match after this many deals and count it as unfinished.")
@click.option("--backend", type=click.Choice(BACKENDS), default="local", show_default=True,
              help="Where the matches run: local processes, or a Dask distributed cluster (a new "
                   "local one of --workers processes; needs pip install 'tysiac-spec[distributed]'). "
                   "The results do not depend on it.")
@click.option("--scheduler", metavar="ADDRESS",
              help="The address of a running Dask scheduler (e.g. tcp://127.0.0.1:8786); implies "
                   "--backend dask.")
@click.option("--engine", type=click.Choice(ENGINES), default="auto", show_default=True, help=ENGINE_HELP)
@click.option("--incidents", default="", metavar="KIND=RATE[,...]",
              help="Inject table incidents at a rate, a probability per decision: "
                   "revoke=0.01,misdeal=0.005 (kinds: misdeal, exposed_card, talon_look, showing_hand "
                   "as the ruleset's deal.incidents rules them; revoke, a card not legal played, where "
                   "play.revoke.handling is penalise). Played by the generic engine only.")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as one JSON object.")
def simulate_cmd(
    ruleset: str,
    players: int | None,
    options: tuple[str, ...],
    games: int,
    seed: int,
    bots: str,
    workers: int,
    max_deals: int,
    backend: str,
    scheduler: str | None,
    engine: str,
    incidents: str,
    as_json: bool,
) -> None:
    """Play whole matches between bots and print statistics: deals per match, contracts
    made, average contract, forfeits, barrel, bolts, match rules that fired, wins per seat
    and speed.

    Random bots are played on the fast path (the form compiled to specialised code, the
    same games several times faster) where its generator covers the form; --engine says
    which plays, and the output says why not the fast path when it was not.

    Ctrl-C, SIGTERM or SIGHUP stop the run: the worker processes stop at once, the
    statistics of the matches finished so far are printed, and the exit status is 130."""
    @user_errors
    def run() -> bool:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        from ..ruleset import load_ruleset
        from ..simulate import simulate, usable_cpus

        opts = parse_option_args(options)
        rules = load_ruleset(ruleset, options=opts)
        counts = rules.player_counts or (3,)
        n = players if players is not None else (3 if 3 in counts else counts[0])
        err = Console(stderr=True)
        cpus = usable_cpus()
        jobs = min(workers, cpus) if scheduler is None else workers
        if jobs < workers:
            click.echo(
                f"note: --workers {workers} is more than the {cpus} CPU{'s' if cpus > 1 else ''} "
                f"this process may use; using {jobs} worker process{'es' if jobs > 1 else ''}",
                err=True,
            )
        show = not as_json and sys.stderr.isatty()
        with Progress(
            TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            console=err, disable=not show, transient=True,
        ) as bar:
            task = bar.add_task("matches", total=games)
            with simulation_errors():
                stats = simulate(
                    rules, players=n, games=games, seed=seed, bots=bots, options=opts, workers=jobs,
                    max_deals=max_deals, progress=lambda k: bar.advance(task, k), stop_on_interrupt=True,
                    backend=backend, scheduler=scheduler, engine=engine, incidents=incidents,
                )
        data = stats.as_dict()
        if stats.interrupted:
            click.echo(
                f"interrupted: {data['matches']} of {games} matches finished; their statistics follow",
                err=True,
            )
        if as_json:
            click.echo(json.dumps(data, ensure_ascii=False, indent=2))
            return stats.interrupted
        out = Console(highlight=False, soft_wrap=True)
        for table in _tables(data, stats.engine_text()):
            out.print(table)
        return stats.interrupted

    if run():
        sys.exit(EXIT_INTERRUPTED)
