"""Small things users hit (issue 29 item 8): the fast path's cache in the platform's cache
folder, fish completion of comma lists, completion that loads no more than it completes,
``simulate --scheduler``'s worker count, the local Dask cluster's HTTP port."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from tysiac_spec.cli import _COMMANDS, main

ROOT = Path(__file__).resolve().parents[1]


def test_the_fast_cache_is_in_the_platform_cache_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from tysiac_spec.fast import cache_dir

    monkeypatch.delenv("TYSIAC_FAST_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    if sys.platform.startswith("linux"):
        assert cache_dir() == tmp_path / "xdg" / "tysiac-spec" / "fast"
    monkeypatch.setenv("TYSIAC_FAST_CACHE", str(tmp_path / "mine"))
    assert cache_dir() == tmp_path / "mine"


# --------------------------------------------------------------------------- completion


def test_the_command_table_gives_each_commands_short_help() -> None:
    ctx = click.Context(main)
    assert sorted(_COMMANDS) == main.list_commands(ctx)
    for name, (_module, _attribute, short) in _COMMANDS.items():
        command = main.get_command(ctx, name)
        assert command is not None and command.get_short_help_str() == short, name


def _modules_after_completion(words: str, cword: int) -> tuple[list[str], set[str]]:
    """The answer of one completion run through the environment, as a shell runs it, and
    the modules of the package (and of rich) it imported."""
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: sys.stderr.write(repr(sorted(m for m in sys.modules "
        "if m.startswith(('tysiac_spec', 'rich'))))))\n"
        "from tysiac_spec.cli import main\n"
        "main(prog_name='tysiac')\n"
    )
    env = {**os.environ, "_TYSIAC_COMPLETE": "bash_complete", "COMP_WORDS": words,
           "COMP_CWORD": str(cword)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=120, check=False)
    return done.stdout.split(), set(ast.literal_eval(done.stderr.strip().splitlines()[-1]))


def test_completing_a_command_name_imports_no_command() -> None:
    answer, modules = _modules_after_completion("tysiac s", 1)
    assert answer == ["plain,schema", "plain,score", "plain,serve", "plain,show", "plain,simulate"]
    assert sorted(m for m in modules if m.startswith("tysiac_spec.commands.")) == [
        "tysiac_spec.commands._complete"]
    assert "tysiac_spec.ruleset.model" not in modules


@pytest.mark.parametrize("words", ["tysiac simulate --engine ", "tysiac compare --backend ",
                                   "tysiac validate --", "tysiac check --"])
def test_completing_a_commands_argument_loads_no_engine(words: str) -> None:
    answer, modules = _modules_after_completion(words, len(words.split()))
    assert answer
    assert "tysiac_spec.engine" not in modules and "tysiac_spec.simulate" not in modules


@pytest.mark.parametrize(("words", "answer"), [
    ("tysiac play --", "plain,--players"), ("tysiac score --", "plain,--sheet"),
    ("tysiac play pl-standard -O ", "plain,five_rounds=up"),
    ("tysiac score ru-classic --players ", "plain,3"),
    ("tysiac simulate pl-standard --bots heuristic,r", "plain,heuristic,random"),
])
def test_completing_arguments_loads_no_ruleset_nor_engine(words: str, answer: str) -> None:
    # (issue 29: a TAB under 0.15 s) the command modules import the engine, the scoresheet and
    # rich when they run; option values and player counts are read from the files as written
    answers, modules = _modules_after_completion(words, len(words.split()) - (not words.endswith(" ")))
    assert answer in answers
    assert not {"tysiac_spec.engine", "tysiac_spec.scoresheet", "tysiac_spec.ruleset.model",
                "tysiac_spec.dsl", "rich"} & modules


def test_the_bot_names_that_complete_are_the_shipped_bots() -> None:
    from tysiac_spec.bots import BUILTIN
    from tysiac_spec.run_choices import BOTS

    assert sorted(BOTS) == sorted(BUILTIN)


def test_fish_keeps_a_value_with_a_comma_whole() -> None:
    script = CliRunner().invoke(main, [], prog_name="tysiac", env={"_TYSIAC_COMPLETE": "fish_source"})
    assert 'string split --max 1 "," $completion' in script.stdout
    assert 'string split "," $completion' not in script.stdout


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
def test_fish_completes_the_seat_after_the_last_comma(tmp_path: Path) -> None:
    wrapper = tmp_path / "tysiac"
    wrapper.write_text(f"#!/bin/sh\nexec {sys.executable} -m tysiac_spec \"$@\"\n", encoding="utf-8")
    wrapper.chmod(0o755)
    env = {**os.environ, "PATH": f"{tmp_path}{os.pathsep}{os.environ['PATH']}",
           "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}
    done = subprocess.run(
        ["fish", "--no-config", "-c", "_TYSIAC_COMPLETE=fish_source tysiac | source; "
         "complete -C 'tysiac simulate pl-standard --bots heuristic,r'"],
        capture_output=True, text=True, env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["heuristic,random"]


# --------------------------------------------------------------------------- Dask


distributed = pytest.importorskip("distributed")


@pytest.mark.slow  # a local cluster in this process: about 3 s
def test_simulate_on_a_scheduler_reports_its_worker_count() -> None:
    from tysiac_spec.simulate import simulate

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address="127.0.0.1:0") as cluster:
        stats = simulate("ru-online", players=3, games=2, seed=1, workers=4,
                         scheduler=cluster.scheduler_address).as_dict()
        result = CliRunner().invoke(main, ["simulate", "ru-online", "--games", "2", "-j", "4", "--json",
                                           "--scheduler", cluster.scheduler_address])
    assert stats["workers"] == 1 and stats["backend"] == "dask"
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["workers"] == 1


@pytest.mark.slow  # a local cluster in this process: about 3 s
def test_the_local_cluster_serves_http_on_a_free_port(monkeypatch: pytest.MonkeyPatch) -> None:
    from tysiac_spec import simulate as sim

    made: list[dict[str, object]] = []
    ports: list[int] = []
    real = distributed.LocalCluster

    def in_process(**kwargs: object) -> object:  # the same cluster, its workers in this process
        made.append(kwargs)
        cluster = real(**{**kwargs, "processes": False})
        ports.append(cluster.scheduler.http_server.port)
        return cluster

    monkeypatch.setattr(distributed, "LocalCluster", in_process)
    stats = sim.simulate("ru-online", players=3, games=2, seed=1, workers=1, backend="dask")
    assert stats.as_dict()["matches"] == 2
    assert made[0]["dashboard_address"] == "127.0.0.1:0" == sim.LOCAL_DASHBOARD
    assert made[0]["scheduler_kwargs"] == {"dashboard": False}
    assert ports and ports[0] not in (0, 8787)


def test_option_completion_read_from_the_files_says_what_the_loaded_ruleset_says() -> None:
    """``-O <TAB>`` reads the options as the files write them (no ruleset loaded): for every
    shipped ruleset the pairs are those of the loaded ruleset's options."""
    from click.shell_completion import ShellComplete

    from tysiac_spec.ruleset import load_ruleset, registry

    shell = ShellComplete(main, {}, "tysiac", "_TYSIAC_COMPLETE")
    checked = 0
    for entry in registry.entries():
        rules = load_ruleset(entry.id)
        expected = []
        for name, option in rules.options.items():
            if option.type == "bool":
                values = ["true", "false"]
            elif option.type == "choice":
                values = list(option.choices)
            else:
                values = [str(option.default)]
            expected += [f"{name}={v}" for v in values]
        got = [c.value for c in shell.get_completions(["show", entry.id, "-O"], "")]
        ints = {n for n, o in rules.options.items() if o.type == "int"}
        assert [g for g in got if g.split("=")[0] not in ints] == [
            e for e in expected if e.split("=")[0] not in ints], entry.id
        assert {g.split("=")[0] for g in got} == set(rules.options), entry.id
        checked += bool(rules.options)
    assert checked >= 8
