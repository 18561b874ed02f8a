"""Shell completion of ``tysiac``: ruleset ids, option names and values, player counts, bots
and scenario names.

Click completes the commands and the fixed choices (``play --bots``) itself; the functions here
are the ``shell_complete`` functions of the parameters that name a ruleset, a table option, a
player count, a seat list of bots or a scenario, whose values come from the shipped rulesets
and bots.  :func:`attach` gives them to a command's parameters by name (``ruleset`` and
``rulesets``: :func:`rulesets`; ``options``, the ``--option/-O NAME=VALUE`` of every command:
:func:`options`; ``players``: :func:`players`; ``bots``, the seat list of ``simulate`` and
``compare``: :func:`bots`; ``names``, ``check --scenario/-s``: :func:`scenarios`), so that
every command gets the same completion from this one place: ``cli.py`` calls it when it loads
a command, and a parameter made with its own ``shell_complete=`` or a fixed choice keeps it.

Turn it on in bash with ``eval "$(_TYSIAC_COMPLETE=bash_source tysiac)"`` (zsh:
``zsh_source``, fish: ``fish_source``; README, "Shell completion").  A completion never
fails: a ruleset that cannot be loaded completes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click
from click.shell_completion import CompletionItem, FishComplete, add_completion_class

__all__ = ["FishCommaComplete", "attach", "bots", "options", "players", "rulesets", "scenarios",
           "written_options"]

Complete = Callable[[click.Context, click.Parameter, str], list[CompletionItem]]


def rulesets(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The shipped ruleset ids and aliases starting with ``incomplete`` (with the ruleset's
    English name as help), then the files: a path (``./``, ``house/x.yaml``) is completed by
    the shell."""
    from ..ruleset import registry

    items = []
    for entry in registry.entries():
        for name in (entry.id, *entry.aliases):
            if name.startswith(incomplete):
                items.append(CompletionItem(name, help=entry.name))
    if not items or registry.looks_like_path(incomplete) or incomplete.startswith("."):
        items.append(CompletionItem(incomplete, type="file"))
    return items


def _ref(ctx: click.Context) -> str | None:
    ref = ctx.params.get("ruleset")
    if ref is None:
        refs = ctx.params.get("rulesets") or ()
        ref = refs[0] if refs else None
    return ref if isinstance(ref, str) else None


def _written(ref: str, key: str) -> Any:
    """The section ``key`` of the ruleset ``ref`` as its files write it, ``extends`` merged
    (:func:`tysiac_spec.ruleset._merge.resolve_extends`, parents found by
    :func:`tysiac_spec.ruleset.registry.find` as the loader finds them), as plain values:
    nothing compiled nor checked, so a TAB answers without loading the ruleset (the DSL, the
    model, the engine).  ``None`` when the file cannot be read or merged."""
    from ..errors import TysiacError
    from ..ruleset import registry
    from ..ruleset._merge import resolve_extends
    from ..ruleset._yaml import YMap, load_yaml_file, to_plain

    try:
        path = registry.find(ref)
        doc = load_yaml_file(str(path))
        if not isinstance(doc, YMap):
            return None
        root = str(path.parent)

        def lookup(parent: str, from_file: str | None) -> tuple[YMap, str | None]:
            found = registry.find(parent, relative_to=from_file or "<input>", root=root)
            return load_yaml_file(str(found)), str(found)

        return to_plain(resolve_extends(doc, file=str(path), lookup=lookup).get(key))
    except (TysiacError, OSError, RecursionError):
        return None


def written_options(ref: str) -> dict[str, Any] | None:
    """The table options of the ruleset ``ref`` as its files write them (:func:`_written`);
    ``None`` when the file cannot be read or merged."""
    options = _written(ref, "options")
    return options if isinstance(options, dict) else None


def _value(written: Any) -> Any:
    """A written value, or the ``value`` of its annotated form (``{value: …, source: …}``)."""
    return written.get("value") if isinstance(written, dict) else written


def options(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """``NAME=VALUE`` pairs of the named ruleset's table options starting with ``incomplete``:
    every value of a choice or true/false option, the default (and the bounds, where written)
    of an integer one; the option's English description as help.  Read from the files
    (:func:`written_options`), not the loaded ruleset."""
    ref = _ref(ctx)
    written = written_options(ref) if ref is not None else None
    if written is None:
        return []
    items = []
    for name, spec in written.items():
        if not isinstance(spec, dict):
            continue
        kind, default = _value(spec.get("type")), _value(spec.get("default"))
        if kind == "bool":
            values = ["true", "false"]
        elif kind == "choice":
            values = [str(c) for c in _value(spec.get("choices")) or ()]
        else:
            bounds = (default, _value(spec.get("minimum")), _value(spec.get("maximum")))
            values = [str(v) for v in dict.fromkeys(bounds) if v is not None]
        doc = spec.get("doc")
        text = str((doc or {}).get("en", "") if isinstance(doc, dict) else "").split("\n")[0][:80]
        for value in values:
            pair = f"{name}={value}"
            if pair.startswith(incomplete):
                items.append(CompletionItem(pair, help=text))
    return items


def players(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The player counts of the named ruleset starting with ``incomplete``: the keys of its
    ``players`` section as its files write it (:func:`_written`; the loader makes one form of
    each), ascending."""
    ref = _ref(ctx)
    written = _written(ref, "players") if ref is not None else None
    if not isinstance(written, dict):
        return []
    counts = sorted(int(n) for n in written if str(n).isdecimal())
    return [CompletionItem(str(n)) for n in counts if str(n).startswith(incomplete)]


def bots(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The shipped bots (:data:`tysiac_spec.run_choices.BOTS`, the names of
    :data:`tysiac_spec.bots.BUILTIN`) for the seat being typed in a seat list: the part after
    the last comma is completed, the seats before it are kept (``heuristic,r`` ->
    ``heuristic,random``).  A user's ``MODULE:NAME`` is not completed."""
    from ..run_choices import BOTS

    done, _, part = incomplete.rpartition(",")
    head = f"{done}," if done or incomplete.startswith(",") else ""
    return [CompletionItem(head + name) for name in sorted(BOTS) if name.startswith(part)]


def scenarios(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The names of the scenarios in the scenario files of the rulesets named earlier on the
    command line (``check pl-standard -s <TAB>``) and of its ``--file`` files, starting with
    ``incomplete``; nothing when no ruleset or file is named, or one cannot be loaded."""
    from ..errors import TysiacError
    from ..scenarios import load_scenarios, scenario_file_for

    paths = [p for p in ctx.params.get("files") or () if p is not None]
    names: dict[str, None] = {}
    try:
        for ref in ctx.params.get("rulesets") or ():
            path = scenario_file_for(ref)
            if path is not None:
                paths.append(path)
        for path in paths:
            names.update((s.name, None) for s in load_scenarios(path).scenarios)
    except (TysiacError, OSError, ValueError):
        return []
    return [CompletionItem(n) for n in names if n.startswith(incomplete)]


_BY_NAME: dict[str, Complete] = {"ruleset": rulesets, "rulesets": rulesets, "options": options,
                                 "players": players, "bots": bots, "names": scenarios}


def attach(command: click.Command) -> click.Command:
    """Give ``command``'s parameters named ``ruleset``, ``rulesets``, ``options``, ``players``,
    ``bots`` and ``names`` their completion (see the module docstring), unless a parameter has
    its own or is a fixed choice (``play --bots``); returns ``command``.

    The command's argument parsing is also made to read the words before an option whose
    value is being completed (``tysiac play pl-standard -O <TAB>``): click parses the words
    before it with the option last and no value, which fails and leaves every parameter
    unset, so the ruleset named before would be unknown (click 8.5).  Only the parsing for a
    completion (``resilient_parsing``) changes: the dangling option is set aside while the
    other words are parsed."""
    for param in command.params:
        complete = _BY_NAME.get(param.name or "")
        # click keeps a parameter's shell_complete= function here (click 8.0 to 8.x)
        own = type(param.type).shell_complete is not click.ParamType.shell_complete
        if complete is None or isinstance(param.type, click.Choice) or own:
            continue  # (a fixed choice, or a type that completes itself: play's --bots)
        if getattr(param, "_custom_shell_complete", None) is None:
            param._custom_shell_complete = complete
    if not getattr(command, "_completes_dangling", False):
        parse = command.parse_args

        def parse_args(ctx: click.Context, args: list[str]) -> list[str]:
            if ctx.resilient_parsing and args and _takes_value(command, args[-1]):
                return [*parse(ctx, args[:-1]), args[-1]]
            return parse(ctx, args)

        command.parse_args = parse_args  # type: ignore[method-assign]
        command._completes_dangling = True  # type: ignore[attr-defined]
    return command


def _takes_value(command: click.Command, word: str) -> bool:
    """Whether ``word`` is one of ``command``'s options that takes a value."""
    for param in command.params:
        if isinstance(param, click.Option) and word in (*param.opts, *param.secondary_opts):
            return not param.is_flag and not param.count
    return False


_FISH_SPLIT = 'string split "," $completion'


class FishCommaComplete(FishComplete):
    """Click's fish completion, keeping a value that holds a comma whole: click's script
    splits each answer ``type,value`` at every comma, so ``plain,heuristic,random`` (a seat
    list, ``-O`` pairs) came out as ``heuristic``; here it splits at the first comma only.
    Registered for ``fish`` when this module is imported (``cli.py`` does)."""

    source_template = FishComplete.source_template.replace(
        _FISH_SPLIT, 'string split --max 1 "," $completion')


add_completion_class(FishCommaComplete, "fish")
