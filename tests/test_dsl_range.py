"""A formula whose value leaves the DSL's range (docs/dsl.md, "Range of numbers") while a
game is played stops it with a DslError at the formula's file:line:col: in the engine, and
through `tysiac simulate` and `tysiac play` as a diagnostic with exit status 1, never a
traceback (OverflowError, ZeroDivisionError) or a run that never ends."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tysiac_spec import Game, load_ruleset
from tysiac_spec.cli import main
from tysiac_spec.errors import DslError

RANGE = "(-1,000,000,000,000 to 1,000,000,000,000)"

#: Every defender scores 3 * 10**12 at the end of the first played deal (3 players).  The
#: score has no bound the ruleset states, so validation (the range analysis,
#: tests/test_range_checks.py) lets it through and the engine stops it in play.
HUGE_DEFENDER = """\
id: house-huge-defender
kind: house
extends: pl-online
name: {en: Defenders score too much}
scoring:
  defender: "(player.score + 3000000) * 1000000"
"""

#: Scores square every deal: without the range they grow without end (the match never ends).
SQUARED = """\
id: house-squared
kind: house
extends: pl-online
name: {en: Squared scores}
scoring:
  declarer: "-(player.score - 2) * (player.score - 2)"
  defender: "-(player.score - 2) * (player.score - 2)"
"""

#: The bid cap of the first auction is already out of range.
HUGE_CAP = """\
id: house-huge-cap
kind: house
extends: pl-online
name: {en: A bid cap out of range}
auction:
  max_bid: >-
    120 + (player.score + 3000000) * 1000000
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _play_until_error(path: Path, *, seed: int = 1, limit: int = 5000) -> DslError:
    """Play the first legal action at every step until a DslError (at most ``limit`` steps)."""
    game = Game(load_ruleset(path), players=3, seed=seed)
    for _ in range(limit):
        try:
            game.apply(game.legal_actions()[0])
        except DslError as exc:
            return exc
    raise AssertionError(f"no DslError within {limit} actions")


def test_settling_a_deal_with_a_defender_score_out_of_range(tmp_path: Path) -> None:
    path = _write(tmp_path, HUGE_DEFENDER)
    error = _play_until_error(path)
    [diag] = error.diagnostics
    assert (diag.code, diag.file, diag.line, diag.column) == ("dsl.runtime", str(path), 6, 14)
    assert diag.path == ("scoring", "defender")
    assert str(error) == (
        f"{path}:6:14: error[dsl.runtime]: `(player.score + 3000000) * 1000000` gave "
        f"3,000,000,000,000, outside the range of formula numbers {RANGE}"
    )


def test_scores_that_grow_each_deal_stop_at_the_range(tmp_path: Path) -> None:
    error = _play_until_error(_write(tmp_path, SQUARED))
    diag = error.diagnostic
    assert diag.code == "dsl.runtime"
    assert (diag.line, diag.column) in ((6, 14), (7, 14))  # the declarer's or a defender's
    assert diag.message.startswith("`-(player.score - 2) * (player.score - 2)` gave -")
    assert diag.message.endswith(f", outside the range of formula numbers {RANGE}")


def _expected_cli_text(path: Path) -> str:
    return (
        f"{path}:7:11: error[dsl.runtime]: `(player.score + 3000000) * 1000000` gave "
        f"3,000,000,000,000, outside the range of formula numbers {RANGE}\n"
        "      120 + (player.score + 3000000) * 1000000\n"
        "            ^\n"
        "  at: auction.max_bid\n"
    )


@pytest.mark.parametrize("workers", ["1", "2"])
def test_simulate_prints_the_diagnostic_and_exits_1(tmp_path: Path, workers: str) -> None:
    path = _write(tmp_path, HUGE_CAP)
    result = CliRunner().invoke(main, ["simulate", str(path), "--games", "2", "--workers", workers])
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.endswith(_expected_cli_text(path))
    assert "Traceback" not in result.output


def test_play_prints_the_diagnostic_and_exits_1(tmp_path: Path) -> None:
    path = _write(tmp_path, HUGE_CAP)
    save = tmp_path / "game.json"
    result = CliRunner().invoke(
        main, ["play", str(path), "--seed", "1", "--save", str(save)], input="quit\n"
    )
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 1
    assert result.stderr.endswith(_expected_cli_text(path))
    assert "Traceback" not in result.output
