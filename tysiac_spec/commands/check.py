"""``tysiac check``: run the scenario files (executable examples) of rulesets."""

from __future__ import annotations

import difflib
import json
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.markup import escape

from ..errors import TysiacError
from ._common import print_diagnostics, user_errors

if TYPE_CHECKING:  # the scenarios (and the engine) are imported when the command runs,
    # not when the shell completes its arguments
    from ..scenarios import Result, ScenarioFile

__all__ = ["check", "render_result"]

_HEADLINE = re.compile(r"(?:\S+: )?error\[")
"""A diagnostic's headline (``file:line:col: error[code]: …``, or ``error[code]: …``)."""


def _value(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def render_result(result: Result) -> list[str]:
    """The lines (rich markup) reporting one scenario: ``✓ name``, or ``✗ name`` with where it
    stopped, the expected and actual values, the message, the deal it started with (in deal
    notation, :mod:`tysiac_spec.engine.deal_notation`) and the state text."""
    sc = result.scenario
    if result.passed:
        return [f"[green]✓[/green] {escape(sc.name)}"]
    lines = [f"[red]✗[/red] {escape(sc.name)} [dim]({escape(sc.location)})[/dim]"]
    where = "setting up"
    if result.step is not None:
        step = sc.steps[result.step]
        where = f"step {result.step + 1}" + (f" (line {step.line})" if step.line else "")
    if result.status == "error":
        message = result.message
        if result.step is None:
            message = message.removeprefix("setting up: ")  # said once, by `where`
        if _HEADLINE.match(message):  # a diagnostic's headline says `error[code]` itself
            lines.append(f"    {where}: {escape(message)}")
        else:
            lines.append(f"    {where}: [red]error[/red]: {escape(message)}")
    else:
        lines.append(f"    {where}: {escape(result.message) or 'unexpected values'}")
    for m in result.mismatches:
        lines.append(f"      {escape(m.key)}: expected {escape(_value(m.expected))}")
        lines.append(f"      {' ' * len(m.key)}  actual   {escape(_value(m.actual))}")
    if result.deal:  # the starting deal in deal notation: `play --deal` or a `deal:` takes it back
        lines.append(f"    [dim]deal: {escape(result.deal)}[/dim]")
    if result.state:
        lines.append(f"    [dim]state: {escape(result.state)}[/dim]")
    return lines


def _files_for(refs: tuple[str, ...], files: tuple[Path, ...]) -> list[tuple[str, Path, Any]]:
    """``(label, scenario file, ruleset or None)`` for each thing to run."""
    from ..ruleset import load_ruleset, registry
    from ..scenarios import scenario_file_for, shipped_scenario_files

    out: list[tuple[str, Path, Any]] = [(str(f), f, None) for f in files]
    if not refs and not files:
        return [(p.stem, p, None) for p in shipped_scenario_files()]
    for ref in refs:
        path = scenario_file_for(ref)
        if path is None:
            rules = load_ruleset(ref)
            expected = registry.find(ref).parent / "scenarios" / f"{registry.find(ref).stem}.yaml"
            out.append((rules.id, expected, False))
            continue
        out.append((ref, path, load_ruleset(ref) if registry.looks_like_path(ref) else None))
    return out


def missing_scenario_message(name: str, known: set[str]) -> str:
    """``no scenario named `x```, with the closest names (or all, when there are few) so that
    a misspelt ``--scenario`` can be corrected."""
    if not known:
        return f"no scenario named `{name}`: the files checked have no scenarios"
    containing = [k for k in sorted(known) if name.lower() in k]
    close = containing[:3] or difflib.get_close_matches(name, sorted(known), n=3, cutoff=0.6)
    if close:
        return f"no scenario named `{name}`; did you mean " + " or ".join(f"`{c}`" for c in close) + "?"
    listing = ", ".join(sorted(known)) if len(known) <= 12 else f"{len(known)} names"
    return f"no scenario named `{name}` (the files checked have {listing}; `tysiac check ID` lists them)"


@click.command()
@click.argument("rulesets", nargs=-1, metavar="[ID|PATH]...")
@click.option(
    "--file", "files", multiple=True, type=click.Path(dir_okay=False, path_type=Path),
    help="Run this scenario file (repeatable).",
)
@click.option("--scenario", "-s", "names", multiple=True, metavar="NAME",
              help="Run only the scenario with this name (repeatable).")
@click.option("--quiet", "-q", is_flag=True, help="Print only failures and the summary.")
def check(rulesets: tuple[str, ...], files: tuple[Path, ...], names: tuple[str, ...], quiet: bool) -> None:
    """Run the scenarios (executable examples from the sources) of rulesets.

    By default every shipped scenario file (rulesets/scenarios/*.yaml) runs. A
    shipped ruleset id runs rulesets/scenarios/<id>.yaml; a ruleset file
    dir/x.yaml runs dir/scenarios/x.yaml; --file runs a given scenario file.
    Each scenario prints ✓ or ✗ with the expected and actual values; the exit
    status is 1 if any scenario fails or a scenario file has errors.
    """
    @user_errors
    def run() -> int:
        from rich.console import Console

        from ..scenarios import load_scenarios, run_file

        console = Console(highlight=False, soft_wrap=True)
        counts = {"passed": 0, "failed": 0, "error": 0}
        broken = 0
        seen_names: set[str] = set()
        without: list[str] = []  # why a file gave no scenario: none to run is said, not "0 of 0"
        for label, path, rules in _files_for(rulesets, files):
            if rules is False:
                if not quiet:
                    console.print(f"[dim]{escape(label)}: no scenario file ({escape(str(path))})[/dim]")
                without.append(f"{label} has no scenario file ({path})")
                continue
            try:
                loaded: ScenarioFile = load_scenarios(path, ruleset=rules)
            except TysiacError as exc:
                broken += 1
                print_diagnostics(exc.diagnostics)
                continue
            seen_names.update(s.name for s in loaded.scenarios)
            if not loaded.scenarios:
                without.append(f"{path} holds no scenarios")
            results = run_file(loaded, list(names) or None)
            if not results:
                continue
            if not quiet:
                console.print(f"[bold]{escape(loaded.ruleset.id)}[/bold] [dim]{escape(str(path))}[/dim]")
            for result in results:
                counts[result.status] += 1
                if quiet and result.passed:
                    continue
                for line in render_result(result):
                    console.print(line)
        missing = [n for n in names if n not in seen_names]
        for name in missing:
            console.print(f"[red]{escape(missing_scenario_message(name, seen_names))}[/red]")
        total = sum(counts.values())
        summary = f"{counts['passed']} of {total} scenario(s) passed"
        extra = [f"{counts[k]} {k}" for k in ("failed", "error") if counts[k]]
        if broken:
            extra.append(f"{broken} scenario file(s) invalid")
        if extra:
            summary += "; " + ", ".join(extra)
        bad = counts["failed"] + counts["error"] + broken + len(missing)
        if not total and not bad and without:
            summary = "no scenarios to check: " + "; ".join(without)
        console.print(f"[red]{summary}[/red]" if bad else f"[green]{summary}[/green]")
        return 1 if bad else 0

    status = run()
    if status:
        sys.exit(status)
