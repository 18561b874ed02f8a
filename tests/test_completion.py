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
    assert values([], "s") == ["schema", "score", "serve", "show", "simulate"]


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
    assert values(["play", "--bots"], "") == ["heuristic", "random", "strong"]
    assert values(["play", "--bots"], "heuristic,") == []  # play takes one kind, not a seat list


@pytest.mark.parametrize("command", [["simulate", "pl-standard"], ["compare", "pl-standard", "ru-classic"]])
def test_a_seat_list_of_bots_completes_the_seat_after_the_last_comma(command: list[str]) -> None:
    assert values([*command, "--bots"], "") == ["heuristic", "random", "strong"]
    assert values([*command, "--bots"], "h") == ["heuristic"]
    assert values([*command, "--bots"], "heuristic,") == [
        "heuristic,heuristic", "heuristic,random", "heuristic,strong"]
    assert values([*command, "--bots"], "heuristic,random,r") == ["heuristic,random,random"]
    assert values([*command, "--bots"], "mybots.py:B") == []


def test_scenario_names_of_the_named_ruleset_complete() -> None:
    assert values(["check", "pl-standard", "-s"], "must-") == [
        "must-follow-the-led-suit", "must-beat-the-card-on-the-table", "must-overtrump-when-able"]
    assert values(["check", "examples/house/misere.yaml", "--scenario"], "misere-with") == [
        "misere-with-no-trick-wins-120", "misere-with-a-trick-loses-120"]
    assert values(["check", "--file", "examples/house/scenarios/misere.yaml", "-s"], "misere-o") == [
        "misere-outbids-a-number-and-nothing-outbids-it"]


def test_no_ruleset_or_an_unknown_one_completes_no_scenario() -> None:
    assert values(["check", "-s"], "") == []
    assert values(["check", "no-such-ruleset", "-s"], "") == []
    assert values(["check", "--file", "no/such/file.yaml", "-s"], "") == []


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
