"""Compile the fast path's generated modules with mypyc (the ``[fast]`` extra).

    python -m tysiac_spec.fast.build                    # every shipped form the generator covers
    python -m tysiac_spec.fast.build pl-standard 3      # one form (options: -O name=value)
    python -m tysiac_spec.fast.build --views            # the modules that record views too

For each form it writes the generated source under :func:`~tysiac_spec.fast.cache_dir`
(``tysiac_fast_<content hash>.py``) and runs ``mypyc`` on it there; the extension module it
leaves beside the source is what :func:`~tysiac_spec.fast.compile` then loads for that form
(``runner.compiled`` is true).  Needs mypy (which ships mypyc), setuptools, a C compiler and
the Python headers; without them it says so and the pure-Python path goes on working.
With ``--views`` it also builds each form's module that records the players' views, which
the matches of bots that read their view play (:mod:`tysiac_spec.fast.views`).
Prints one line per form: the key, and ``built``, ``present`` or the failure.
"""

from __future__ import annotations

import argparse

from ..ruleset import load_ruleset
from . import _module_source, cache_dir, compile_form, mypyc
from .generate import generate, source_key

__all__ = ["build", "main"]

SHIPPED = (
    "pl-standard", "pl-tysiac-hd", "pl-online", "cz-standard", "ru-online", "ru-classic",
    "house-five-up", "house-ru-no-barrel", "ua-standard",
)


def build(ruleset: str, players: int, options: dict[str, object] | None = None, views: bool = False) -> str:
    """Build the mypyc module of one form (``views``: the one recording the views); returns a
    line of report."""
    if not mypyc.available():
        return f"{ruleset} {players}: mypyc is not installed (pip install 'tysiac-spec[fast]')"
    rules = load_ruleset(ruleset, options=options) if options else load_ruleset(ruleset)
    runner = compile_form(rules, players, views=views)
    if runner.fallback_reason:
        return f"{ruleset} {players}: engine fallback ({runner.fallback_reason})"
    form, pack = rules.form(players), tuple(rules.deck.cards)
    key = source_key(form, pack, views)
    name = f"tysiac_fast_{key}"
    folder = cache_dir()
    if mypyc.built(folder, name) is not None:
        return f"{ruleset} {players}: {key} present"
    failure = mypyc.compile_module(_module_source(generate(form, pack, views)), name, folder)
    if failure is not None:
        return f"{ruleset} {players}: {key} failed: {failure}"
    return f"{ruleset} {players}: {key} built"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("ruleset", nargs="?")
    parser.add_argument("players", nargs="?", type=int)
    parser.add_argument("-O", dest="options", action="append", default=[], help="An option, name=value.")
    parser.add_argument("--views", action="store_true",
                        help="Also build the modules recording the views (bots that read their view).")
    args = parser.parse_args(argv)
    forms: list[tuple[str, int, dict[str, object]]] = []
    if args.ruleset:
        options: dict[str, object] = {}
        for pair in args.options:
            k, _, v = pair.partition("=")
            options[k] = {"true": True, "false": False}.get(v, v)
        players = [args.players] if args.players else list(load_ruleset(args.ruleset).player_counts)
        forms = [(args.ruleset, n, options) for n in players]
    else:
        forms = [(rid, n, {}) for rid in SHIPPED for n in load_ruleset(rid).player_counts]
    failed = 0
    for rid, n, options in forms:
        for views in (False, True) if args.views else (False,):
            line = build(rid, n, options, views) + (" (views)" if views else "")
            failed += " failed" in line
            print(line, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
