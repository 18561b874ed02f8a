"""Shell completion (issue 16): commands, ruleset ids, option names and values, player counts,
through click's completion API (what ``_TYSIAC_COMPLETE=bash_complete`` runs)."""

from __future__ import annotations

import pytest
from click.shell_completion import ShellComplete
from click.testing import CliRunner

from tysiac_spec.cli import main


def complete(args: list[str], incomplete: str) -> list[tuple[str, str]]:
    shell = ShellComplete(main, {}, "tysiac", "_TYSIAC_COMPLETE")
    return [(c.value, c.type) for c in shell.get_completions(args, incomplete)]


def values(args: list[str], incomplete: str) -> list[str]:
    return [v for v, _ in complete(args, incomplete)]


def test_commands_complete() -> None:
    assert values([], "s") == ["schema", "score", "show", "simulate"]


@pytest.mark.parametrize("command", ["show", "play", "validate", "check", "simulate", "docs", "compare"])
def test_a_partial_ruleset_id_completes(command: str) -> None:
    assert values([command], "pl-") == ["pl-online", "pl-standard", "pl-tysiac-hd"]
    assert values([command], "ru-c") == ["ru-classic"]


def test_a_path_is_left_to_the_shell() -> None:
    assert complete(["show"], "./my") == [("./my", "file")]
    assert complete(["show"], "nothing-like-it") == [("nothing-like-it", "file")]


def test_an_option_value_completes_as_name_equals_value() -> None:
    assert values(["play", "pl-standard", "-O"], "five") == ["five_rounds=down", "five_rounds=up"]
    assert values(["play", "pl-standard", "--option"], "bid_limit=f") == ["bid_limit=false"]
    assert values(["show", "ru-online", "-O"], "rospis=") == [
        "rospis=unlimited", "rospis=penalty_after_3", "rospis=only_3", "rospis=three_with_penalty"]


def test_the_words_before_the_option_are_read() -> None:
    # the ruleset named before other options, and options before the ruleset
    assert values(["play", "--seed", "3", "pl-standard", "-O"], "five") == ["five_rounds=down", "five_rounds=up"]
    assert values(["simulate", "-O", "five_rounds=up", "pl-standard", "--players"], "") == ["2", "3", "4"]


def test_no_ruleset_or_an_unknown_one_completes_no_option() -> None:
    assert values(["play", "-O"], "") == []
    assert values(["play", "no-such-ruleset", "-O"], "") == []


def test_fixed_choices_complete_as_click_does() -> None:
    assert values(["play", "--bots"], "") == ["heuristic", "random"]


def test_the_bash_script_and_a_completion_run_through_the_environment() -> None:
    runner = CliRunner()
    script = runner.invoke(main, [], prog_name="tysiac", env={"_TYSIAC_COMPLETE": "bash_source"})
    assert script.exit_code == 0 and "_TYSIAC_COMPLETE=bash_complete" in script.stdout
    result = runner.invoke(main, [], prog_name="tysiac", env={
        "_TYSIAC_COMPLETE": "bash_complete", "COMP_WORDS": "tysiac play pl-standard -O five", "COMP_CWORD": "4"})
    assert result.stdout.split() == ["plain,five_rounds=down", "plain,five_rounds=up"]


def test_a_dangling_option_is_still_an_error_when_the_command_runs() -> None:
    result = CliRunner().invoke(main, ["play", "pl-standard", "-O"])
    assert result.exit_code == 2 and "Option '-O' requires an argument" in result.stderr
