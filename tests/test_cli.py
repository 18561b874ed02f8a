"""The `tysiac` command: list, validate, show, schema; user errors never show a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from tysiac_spec.cli import main
from tysiac_spec.ruleset import registry

ROOT = Path(__file__).resolve().parents[1]
TABLE = Path(__file__).parent / "data" / "table.yaml"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def test_list_shows_every_shipped_ruleset() -> None:
    code, out, _ = run("list", "--json")
    assert code == 0
    rows = json.loads(out)
    assert [r["id"] for r in rows] == [e.id for e in registry.entries()]
    assert all(r["status"] == "ok" for r in rows)


def test_validate_all_shipped_rulesets_passes() -> None:
    code, out, err = run("validate")
    assert code == 0, err
    assert out.count("ok  ") == len(registry.entries())


def test_validate_reports_diagnostics_and_exits_1(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(TABLE.read_text(encoding="utf-8").replace("step: 10", "step: ten"), encoding="utf-8")
    code, _, err = run("validate", str(bad))
    assert code == 1
    assert f"{bad}:16:9: error[schema.type]: `auction.step` must be an integer (got \"ten\")" in err
    assert "    step: ten\n          ^\n" in err
    assert "1 of 1 ruleset(s) invalid" in err
    assert "Traceback" not in err


def test_unknown_id_lists_known_ones() -> None:
    code, _, err = run("show", "pl-standrad")
    assert code == 1
    assert err.startswith("error[registry.unknown]: unknown ruleset `pl-standrad`; known: ")
    assert "core" in err


def test_show_yaml_and_json_with_options_and_players() -> None:
    code, out, _ = run("show", str(TABLE), "-O", "barrel=false", "--players", "2")
    assert code == 0
    doc = yaml.safe_load(out)
    assert list(doc["players"]) == [2]
    assert doc["auction"]["cap"] == 360
    assert doc["special"]["barrel"]["enabled"] is False
    assert doc["options"]["barrel"]["default"] is False
    assert out.startswith("# test-table for 2 players; options in force: ")
    code, out, _ = run("show", str(TABLE), "--format", "json")
    assert json.loads(out)["id"] == "test-table"


@pytest.mark.parametrize(("ruleset", "players", "options"), [
    ("pl-standard", 2, ["-O", "leftover_two_player=nobody"]),
    ("pl-standard", 4, []),
    ("ru-online", 3, ["-O", "golden_round=false"]),
])
def test_show_for_some_players_is_a_valid_ruleset_of_the_same_game(
    tmp_path: Path, ruleset: str, players: int, options: list[str]
) -> None:
    # `show --help` says the output is a valid ruleset; with --players it used to print
    # `players: 3` and `options_in_force`, which `validate` refused.  Now it validates and
    # plays the same seeded game as the ruleset it shows.
    from tysiac_spec import Game, load_ruleset
    from tysiac_spec.bots import RandomBot
    from tysiac_spec.commands._common import parse_option_args

    code, out, _ = run("show", ruleset, "-p", str(players), *options)
    assert code == 0
    shown = tmp_path / "shown.yaml"
    shown.write_text(out, encoding="utf-8")
    code, report, err = run("validate", str(shown))
    assert code == 0, err
    assert f"players: {players};" in report
    games = [Game(load_ruleset(ruleset, options=parse_option_args(options[1::2])), players=players, seed=5),
             Game(load_ruleset(str(shown)), players=players, seed=5)]
    for game in games:
        bot = RandomBot(5)
        while len(game.deal_scores) < 2 and not game.is_over:
            game.apply(bot.choose(game.view(game.current_player), game.legal_actions()))
    assert games[0].history == games[1].history and len(games[0].history) > 40
    assert games[0].deal_scores == games[1].deal_scores


def test_show_bad_option_is_a_clean_error() -> None:
    code, _, err = run("show", str(TABLE), "-O", "five_rounds=sideways")
    assert code == 1
    assert err.strip() == 'error[option.value]: option `five_rounds` of `test-table` cannot be "sideways"; valid: down, up'


def test_show_option_without_equals_is_a_usage_error() -> None:
    code, _, err = run("show", str(TABLE), "-O", "barrel")
    assert code == 2
    assert "expected NAME=VALUE, got 'barrel'" in err


def test_schema_command_prints_and_writes(tmp_path: Path) -> None:
    code, out, _ = run("schema")
    assert json.loads(out)["title"] == "tysiac-spec ruleset"
    target = tmp_path / "s.json"
    code, _, _ = run("schema", "-o", str(target))
    assert code == 0
    assert json.loads(target.read_text(encoding="utf-8")) == json.loads(out)


@pytest.mark.slow  # about half a second of CPU (quick-loop budget, issue 25)
def test_python_dash_m_runs_the_same_command() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tysiac_spec", "validate", str(TABLE)],
        capture_output=True, text=True, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "ok  test-table" in proc.stdout


def test_missing_file_is_a_clean_error() -> None:
    code, _, err = run("validate", "nowhere/none.yaml")
    assert code == 1
    assert err.startswith("error[registry.no-file]: ruleset file `nowhere/none.yaml` does not exist")


def test_show_output_is_a_valid_ruleset(tmp_path: Path) -> None:
    code, out, _ = run("show", str(TABLE), "-O", "barrel=false")
    assert code == 0
    again = tmp_path / "shown.yaml"
    again.write_text(out, encoding="utf-8")
    code, out, err = run("show", str(again))
    assert code == 0, err
    doc = yaml.safe_load(out)
    assert doc["options"]["barrel"]["default"] is False  # the value in force became the default
    assert doc["special"]["barrel"]["enabled"] is False


def test_output_file_errors_are_clean(tmp_path: Path) -> None:
    blocker = tmp_path / "afile"
    blocker.write_text("x", encoding="utf-8")
    code, _, err = run("schema", "-o", str(blocker / "x.json"))
    assert code == 1
    assert err == f"Error: cannot write {blocker / 'x.json'}: the folder {blocker} is not a folder\n"
    # with folders to make under it, the same words (play --save's check_folder)
    code, _, err = run("schema", "-o", str(blocker / "sub" / "x.json"))
    assert code == 1
    assert err == f"Error: cannot write {blocker / 'sub' / 'x.json'}: the folder {blocker} is not a folder\n"
    code, _, err = run("schema", "-o", str(tmp_path))
    assert code == 2 and "is a directory" in err  # rejected by the option type


def test_output_dash_is_stdout_and_modes_are_kept(tmp_path: Path) -> None:
    code, out, _ = run("schema", "-o", "-")
    assert code == 0 and json.loads(out)["title"] == "tysiac-spec ruleset"
    target = tmp_path / "s.json"
    target.write_text("{}", encoding="utf-8")
    target.chmod(0o600)
    run("schema", "-o", str(target))
    assert target.stat().st_mode & 0o777 == 0o600


def test_directory_and_non_yaml_paths_are_clean_errors(tmp_path: Path) -> None:
    code, _, err = run("validate", str(tmp_path))
    assert code == 1 and "is a directory; give a ruleset file (.yaml) in it" in err
    other = tmp_path / "notes.txt"
    other.write_text("hello", encoding="utf-8")
    code, _, err = run("validate", str(other))
    assert code == 1 and "ruleset files end in .yaml or .yml" in err


def test_seeds_are_bounded_as_a_record_keeps_them() -> None:
    result = CliRunner().invoke(main, ["play", "pl-standard", "--seed", "1" + "0" * 18], input="")
    assert result.exit_code == 2
    assert "Invalid value for '--seed': 1000000000000000000 is not in the range 0<=x<=999999999999999999." in result.output


def test_show_prints_null_for_nobody_and_deletes_with_the_marker(tmp_path: Path) -> None:
    # In the merge language `null` is the value none (nobody is forced to open) and
    # `{$delete: true}` removes the key, so the parent's seat 1 comes back.
    from tysiac_spec import load_ruleset

    for written, seat in (("null", None), ("{$delete: true}", 1)):
        house = tmp_path / "house.yaml"
        house.write_text(
            "id: h\nkind: house\nextends: pl-standard\nname: {en: H}\n"
            f"auction:\n  forced_seat: {written}\n  all_pass: redeal\n",
            encoding="utf-8",
        )
        code, out, err = run("show", str(house), "--players", "3")
        assert code == 0, err
        assert ("forced_seat: null" in out) is (seat is None)
        assert ("forced_seat" in yaml.safe_load(out)["auction"]) is (seat is None)
        assert load_ruleset(house).form(3).auction.forced_seat == seat


@pytest.mark.parametrize("command", ["play", "score"])
def test_a_base_ruleset_is_not_played(command: str) -> None:
    """``core`` defines no player count: play and score say so instead of a traceback."""
    code, _, err = run(command, "core")
    assert code == 1
    assert err.strip().endswith(
        "error[option.players]: ruleset `core` defines no player count: it is a base for other "
        "rulesets to extend, not a game to play"
    )


def test_ctrl_c_before_a_command_handles_it_is_one_line_and_status_130(monkeypatch: pytest.MonkeyPatch) -> None:
    # t8: Ctrl-C while a ruleset loads printed click's "Aborted!" with status 1
    import tysiac_spec.ruleset as ruleset  # `show` imports load_ruleset from it when it runs

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(ruleset, "load_ruleset", interrupted)
    code, out, err = run("show", "pl-standard")
    assert (code, out, err) == (130, "", "interrupted\n")


def test_show_names_the_options_in_force_as_option_takes_them() -> None:
    # t8: the header said `graduated_auction=False` though -O takes `false`
    code, out, _ = run("show", "pl-standard", "--players", "3", "-O", "graduated_auction=true")
    assert code == 0
    assert out.splitlines()[0] == (
        "# pl-standard for 3 players; options in force: five_rounds=down, graduated_auction=true, "
        "bid_limit=true, leftover_two_player=last_trick, finish_others=cap, first_lead_marriage=true, "
        "four_player_sitter=dealer"
    )


def test_an_option_given_twice_is_refused() -> None:
    # t8: the last of `-O x=true -O x=false` won silently
    code, _, err = run("show", "pl-standard", "-O", "graduated_auction=true", "-O", "graduated_auction=false")
    assert code == 2
    assert err.splitlines()[-1] == (
        "Error: Invalid value for --option: `graduated_auction` is given twice ('true' and 'false'); give it once"
    )


@pytest.mark.parametrize("command", [["docs", "pl-standard"], ["schema"], ["compare", "pl-standard", "ru-online"]])
def test_output_makes_missing_folders_as_help_says(tmp_path: Path, command: list[str]) -> None:
    # t8: -o made missing folders (play --save refuses them) and the help did not say so
    code, help_text, _ = run(*command[:1], "--help")
    assert code == 0 and "missing folders are made" in " ".join(help_text.split())
    target = tmp_path / "new" / "deeper" / "out.txt"
    code, _, err = run(*command, "-o", str(target))
    assert code == 0 and err == f"wrote {target}\n"
    assert target.stat().st_size > 1000
