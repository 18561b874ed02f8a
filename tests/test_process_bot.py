"""Bots in another process (issue 29 item 7): JSON lines over standard input and output
(``--bots cmd:COMMAND``, :mod:`tysiac_spec.bots.process`); the example bot plays whole
matches; a bot that is silent, answers nonsense or ends is one line of error, never a
traceback nor a hang."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tysiac_spec.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = f"cmd:{sys.executable} {ROOT / 'examples' / 'bots' / 'json_bot.py'}"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def _bot(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text("import json, sys\n" + body, encoding="utf-8")
    return f"cmd:{sys.executable} {path}"


@pytest.mark.slow  # a process per seat and match: about 3 s
def test_the_example_bot_plays_whole_matches() -> None:
    code, out, err = run("simulate", "pl-standard", "--games", "2", "--seed", "3", "--json",
                         "--bots", f"{EXAMPLE},random,heuristic")
    assert code == 0, err
    data = json.loads(out)
    assert (data["matches"], data["finished"]) == (2, 2)
    assert data["bots"] == f"{EXAMPLE},random,heuristic"


def test_a_silent_bot_is_stopped_at_its_timeout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TYSIAC_BOT_TIMEOUT", "0.5")
    bot = _bot(tmp_path, "silent", "for line in sys.stdin:\n    pass\n")
    code, out, err = run("simulate", "pl-standard", "--games", "1", "--bots", f"{bot},random,random")
    assert code == 1 and out == ""
    assert err.splitlines()[0] == (
        f"error[bot.raised]: bot `{bot}` in seat 0 raised BotProcessError: `{bot[4:]}` gave no "
        "answer within 0.5 s (TYSIAC_BOT_TIMEOUT sets the limit) (at tysiac_spec/bots/process.py:"
        + err.splitlines()[0].rsplit(":", 1)[1])
    assert "Traceback" not in err


def test_garbage_is_skipped_and_an_illegal_answer_is_named(tmp_path: Path) -> None:
    bot = _bot(tmp_path, "illegal", (
        "for line in sys.stdin:\n"
        "    if json.loads(line)['type'] == 'choose':\n"
        "        print('[1, 2', flush=True)\n"
        "        print('\\x00\\xff not json {', flush=True)\n"
        "        print('[\"a list\"]', flush=True)\n"
        "        print(json.dumps({'action': 'bid 5000'}), flush=True)\n"))
    code, _out, err = run("simulate", "pl-standard", "--games", "1", "--bots", f"{bot},random,random")
    assert code == 1
    assert err.splitlines()[0].startswith(
        f"error[bot.illegal]: bot `{bot}` in seat 0 returned {{'action': 'bid 5000'}} (a dict), "
        "which is not one of the ")


def test_a_bot_that_ends_is_named_with_its_exit_status(tmp_path: Path) -> None:
    bot = _bot(tmp_path, "quits", "sys.stdin.readline()\nsys.exit(3)\n")
    code, _out, err = run("simulate", "pl-standard", "--games", "1", "--bots", f"{bot},random,random")
    assert code == 1
    assert f"raised BotProcessError: the bot's process `{bot[4:]}` ended (exit status 3)" in err
    assert "Traceback" not in err


def test_a_command_that_cannot_start_is_a_bad_bots_value(tmp_path: Path) -> None:
    code, _out, err = run("simulate", "pl-standard", "--games", "1", "--bots",
                         f"cmd:{tmp_path / 'missing'},random,random")
    assert code == 2
    assert f"Invalid value for --bots: bot `cmd:{tmp_path / 'missing'}`: cannot start" in err


def test_play_takes_a_process_bot(tmp_path: Path) -> None:
    record = tmp_path / "g.json"
    result = CliRunner().invoke(main, ["play", "pl-standard", "--seed", "1", "--bots", EXAMPLE,
                                       "--save", str(record)], input="1\n1\nquit\n")
    assert result.exit_code == 0, result.output
    saved = json.loads(record.read_text(encoding="utf-8"))
    assert saved["table"]["bots"] == EXAMPLE
    assert len(saved["actions"]) >= 3  # the bots' moves and the user's
    bad = CliRunner().invoke(main, ["play", "pl-standard", "--bots", "cmd:"])
    assert bad.exit_code == 2 and "nor cmd:COMMAND" in bad.stderr
