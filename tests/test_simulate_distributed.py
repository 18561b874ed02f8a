"""Simulations on a Dask distributed cluster print the statistics of a local run for the
same seed (`tysiac simulate --scheduler`, `--backend dask`, `compare --simulate`).

One light local cluster for the module: one worker, one thread, in this process
(``processes=False``), no dashboard."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner

from tysiac_spec.cli import main
from tysiac_spec.simulate import TIMING_FIELDS, DistributedMissing, simulate

# skipped without Dask's distributed, which is imported only by the tests that start a cluster
# (about half a second of CPU, that every parallel worker would pay at collection)
if importlib.util.find_spec("distributed") is None:
    pytest.skip("could not import 'distributed'", allow_module_level=True)


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def untimed(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in TIMING_FIELDS}


TIMED_ROWS = ("seconds", "deals per second")


def untimed_text(text: str) -> list[str]:
    """The printed tables without the timing rows."""
    return [line for line in text.splitlines() if not any(f"│ {row} " in line for row in TIMED_ROWS)]


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    import distributed

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        yield cluster.scheduler_address


@pytest.mark.slow  # about half a second of CPU (quick-loop budget, issue 25)
def test_dask_run_gives_the_local_statistics(scheduler: str) -> None:
    local = simulate("ru-online", players=3, games=6, seed=5).as_dict()
    remote = simulate("ru-online", players=3, games=6, seed=5, scheduler=scheduler).as_dict()
    assert remote["backend"] == "dask" and local["backend"] == "local"
    assert untimed(remote) == untimed(local)
    assert remote["matches"] == 6 and remote["deals"] == local["deals"] > 6


@pytest.mark.slow  # a second Dask cluster run through the command
def test_cli_prints_the_same_statistics_on_dask(scheduler: str) -> None:
    args = ("simulate", "pl-standard", "--games", "5", "--seed", "9", "--bots", "heuristic,random,heuristic")
    code1, out1, err1 = run(*args, "--json")
    code2, out2, err2 = run(*args, "--json", "--scheduler", scheduler)
    assert code1 == code2 == 0, err1 + err2
    assert untimed(json.loads(out1)) == untimed(json.loads(out2))
    code1, text1, err1 = run(*args)
    code2, text2, err2 = run(*args, "--scheduler", scheduler)
    assert code1 == code2 == 0, err1 + err2
    assert "contracts made / declared" in text1 and untimed_text(text1) == untimed_text(text2)


@pytest.mark.slow  # a study on Dask
def test_study_on_dask_is_the_local_study(scheduler: str) -> None:
    args = ("compare", "pl-standard", "ru-classic", "--simulate", "3", "--seed", "2")
    code1, out1, err1 = run(*args)
    code2, out2, err2 = run(*args, "--scheduler", scheduler)
    assert code1 == code2 == 0, err1 + err2
    assert out1 == out2 and "contracts made" in out1


def test_without_distributed_the_dask_backend_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(DistributedMissing):
        simulate("pl-standard", players=3, games=1, backend="dask")
    code, _, err = run("simulate", "pl-standard", "--games", "1", "--backend", "dask")
    assert code == 1 and "pip install 'tysiac-spec[distributed]'" in err and "Traceback" not in err


def test_a_bad_scheduler_address_is_a_clear_error() -> None:
    code, _, err = run("simulate", "pl-standard", "--games", "1", "--scheduler", "nonsense")
    assert code == 1 and "Traceback" not in err
    assert "cannot reach the Dask scheduler at nonsense: missing port number in address 'nonsense'" in err
