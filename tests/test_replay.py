"""`tysiac replay`: a recorded game printed deal by deal and trick by trick, verified against
its ruleset."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from tysiac_spec import load_ruleset
from tysiac_spec.bots import RandomBot
from tysiac_spec.cli import main
from tysiac_spec.commands.replay import chunks
from tysiac_spec.engine import Game
from tysiac_spec.engine.record import record_of
from tysiac_spec.transcript import transcript


def _recorded(tmp_path: Path, actions: int = 60) -> tuple[Path, Game]:
    game = Game(load_ruleset("pl-standard"), players=3, seed=5)
    bot = RandomBot(1)
    for _ in range(actions):
        game.apply(bot.choose(game.view(game.current_player), game.legal_actions()))
    path = tmp_path / "game.json"
    path.write_text(record_of(game).to_json(), encoding="utf-8")
    return path, game


def _run(*args: str, text: str = "") -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["replay", *args], input=text)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def test_replay_prints_the_transcript(tmp_path: Path) -> None:
    path, game = _recorded(tmp_path)
    code, out, _ = _run(str(path))
    assert code == 0
    assert out == transcript(game)
    assert "Deal 1: dealer P2" in out
    assert "  trick 1: P2 QS, P0 TS, P1 KS → P0" in out
    assert re.search(r"^  deal scores: P0 \+30, P1 \+80, P2 [−-]120$", out, flags=re.M)
    assert "Scores: " + ", ".join(f"P{p} {s}" for p, s in enumerate(game.scores)) in out


def test_step_pauses_per_deal_and_trick(tmp_path: Path) -> None:
    path, game = _recorded(tmp_path)
    pieces = list(chunks(transcript(game)))
    assert pieces[1].startswith("Deal 1: dealer P2")
    assert pieces[2].startswith("  trick 1: ")
    code, out, _ = _run(str(path), "--step", text="\n\nq\n")
    assert code == 0
    assert out == "\n".join(pieces[:3]) + "\n"
    code, out, _ = _run(str(path), "--step", text="")  # no input: no pauses, everything printed
    assert out == "\n".join(pieces) + "\n"


def test_changed_ruleset_is_reported_not_replayed(tmp_path: Path) -> None:
    path, _ = _recorded(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["content_hash"] = "feedfacefeedface"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = _run(str(path))
    assert code == 1
    assert out == ""
    assert "error[record.hash]: ruleset `pl-standard` has changed since the game was recorded" in err
    assert "Traceback" not in err


def test_illegal_action_in_a_record_is_reported(tmp_path: Path) -> None:
    path, _ = _recorded(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["actions"][1] = "bid 105"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = _run(str(path))
    assert code == 1
    assert f"error[record.action]: action 2 of {len(data['actions'])} `bid 105` cannot be replayed: " in err


def test_a_record_that_is_not_utf8_is_reported_without_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "binary.json"
    path.write_bytes(b"\xff\xfe{")
    code, out, err = _run(str(path))
    assert code == 1
    assert out == ""
    assert err == f"{path}: error[record.read]: not a game record: the file is not UTF-8 text (byte 0)\n"


def test_errors_name_the_record_file(tmp_path: Path) -> None:
    path, _ = _recorded(tmp_path)
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: len(text) // 2], encoding="utf-8")  # a truncated record
    code, _, err = _run(str(path))
    assert code == 1
    # where the parser stopped, as file:line:col in front (the line below, with a caret)
    with pytest.raises(json.JSONDecodeError) as stop:
        json.loads(text[: len(text) // 2])
    assert err.startswith(
        f"{path}:{stop.value.lineno}:{stop.value.colno}: error[record.json]: the record is not valid JSON: "
        f"{stop.value.msg}\n"
    )


def test_a_half_written_record_is_reported_at_its_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "half.json"
    path.write_text('{\n "format": "tysiac-record/1",\n "ruleset": "pl-st', encoding="utf-8")
    code, _, err = _run(str(path))
    assert code == 1
    assert err.splitlines() == [
        f"{path}:3:13: error[record.json]: the record is not valid JSON: Unterminated string starting at",
        '   "ruleset": "pl-st',
        "              ^",
    ]


# --------------------------------------------------------------------------- untrusted records

LIMIT_HINT = "  hint: if the input is meant to be this large, raise the limit: {}=N\n"


def _play_resume(path: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["play", "--resume", str(path)], input="")
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def _hostile(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "hostile.json"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_5000_digit_seed_is_refused_by_replay_and_resume(tmp_path: Path) -> None:
    path, _ = _recorded(tmp_path, actions=3)
    text = path.read_text(encoding="utf-8").replace('"seed": 5', '"seed": ' + "9" * 5_000)
    path.write_text(text, encoding="utf-8")
    expected = (f"{path}: error[limit.int_digits]: an integer in a file: 5,000 digits, more than the "
                "limit of 18\n" + LIMIT_HINT.format("TYSIAC_MAX_INT_DIGITS"))
    assert _run(str(path)) == (1, "", expected)
    assert _play_resume(path) == (1, expected)


def test_json_nested_100000_deep_is_refused_by_replay_and_resume(tmp_path: Path) -> None:
    path = _hostile(tmp_path, "[" * 100_000 + "]" * 100_000)
    expected = (f"{path}: error[limit.depth]: the nesting of a YAML or JSON document: 100,000 levels, "
                "more than the limit of 64\n" + LIMIT_HINT.format("TYSIAC_MAX_DEPTH"))
    assert _run(str(path)) == (1, "", expected)
    assert _play_resume(path) == (1, expected)


def test_nan_in_a_record_is_refused(tmp_path: Path) -> None:
    path, _ = _recorded(tmp_path, actions=3)
    path.write_text(path.read_text(encoding="utf-8").replace('"seed": 5', '"seed": NaN'), encoding="utf-8")
    expected = (f"{path}: error[record.json]: the record is not valid JSON: `NaN` is not a JSON value "
                "(NaN and Infinity are refused)\n")
    assert _run(str(path)) == (1, "", expected)
    assert _play_resume(path) == (1, expected)


def test_a_record_over_the_size_limit_is_refused_unread(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("TYSIAC_MAX_RECORD_BYTES", "1000")
    path, _ = _recorded(tmp_path)
    size = path.stat().st_size
    assert size > 1000
    expected = (f"{path}: error[limit.record_bytes]: a game record: {size:,} bytes, more than the limit "
                "of 1,000\n" + LIMIT_HINT.format("TYSIAC_MAX_RECORD_BYTES"))
    assert _run(str(path)) == (1, "", expected)
    assert _play_resume(path) == (1, expected)


@pytest.mark.slow  # writes and reads 50 MB
def test_a_50_mb_action_gives_a_short_message(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    path, _ = _recorded(tmp_path, actions=3)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["actions"][1] = "bid " + "1" * 50_000_000
    path.write_text(json.dumps(data), encoding="utf-8")
    size = path.stat().st_size
    # by default the file is too large to be read
    code, out, err = _run(str(path))
    assert (code, out) == (1, "")
    assert err == (f"{path}: error[limit.record_bytes]: a game record: {size:,} bytes, more than the "
                   "limit of 20,000,000\n" + LIMIT_HINT.format("TYSIAC_MAX_RECORD_BYTES"))
    # with the file size raised, the text is too long
    monkeypatch.setenv("TYSIAC_MAX_RECORD_BYTES", "60000000")
    code, out, err = _run(str(path))
    assert err == (f"{path}: error[limit.text_chars]: a single text value: 50,000,004 characters, more "
                   "than the limit of 20,000\n" + LIMIT_HINT.format("TYSIAC_MAX_TEXT_CHARS"))
    # with both raised, the action is read and refused, its text cut in the message
    monkeypatch.setenv("TYSIAC_MAX_TEXT_CHARS", "60000000")
    code, out, err = _run(str(path))
    assert code == 1
    assert err == (
        f"{path}: error[record.action]: action 2 of 3 `bid {'1' * 56}…(+49,999,944 characters)` cannot "
        f"be replayed: `bid {'1' * 56}…(+49,999,944 characters)` is not an action: expected a whole "
        f"number, got `{'1' * 60}…(+49,999,940 characters)`\n"
    )


def test_control_characters_of_a_record_are_shown_as_escapes(tmp_path: Path) -> None:
    path, _ = _recorded(tmp_path, actions=3)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["ruleset"] = "pl\x1b[2J\x07"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = _run(str(path))
    assert (code, out) == (1, "")
    assert err.startswith(
        f"{path}: error[record.ruleset]: the record's ruleset `pl\\x1b[2J\\x07` cannot be loaded: "
        "unknown ruleset `pl\\x1b[2J\\x07`; known: "
    )
    assert "\x1b" not in err and "\x07" not in err


def test_a_record_naming_a_ruleset_outside_its_folder_is_refused_by_replay_and_resume(tmp_path: Path) -> None:
    rules = tmp_path / "outside.yaml"
    rules.write_text("id: mine\nkind: house\nextends: pl-standard\nname: {en: Mine}\n", encoding="utf-8")
    game = Game(load_ruleset(rules), players=3, seed=5)
    (tmp_path / "games").mkdir()
    for ref in ("../outside.yaml", str(rules)):
        path = tmp_path / "games" / "game.json"
        data = json.loads(record_of(game).to_json())
        data["ruleset_file"] = ref
        path.write_text(json.dumps(data), encoding="utf-8")
        expected = (
            f"{path}: error[registry.outside]: the record's ruleset `{ref}` cannot be loaded: `{ref}` is "
            "outside the folders a file may name: a shipped ruleset id, or a file in the naming file's "
            "folder or below\n"
            "  hint: copy the file beside the one that names it, or allow its folder on the command "
            f"line: tysiac --rules-dir {tmp_path.resolve()} ...\n"
        )
        assert _run(str(path)) == (1, "", expected)
        code, out = _play_resume(path)
        assert code == 1 and out.endswith(expected.replace(f"{path}: ", ""))


@pytest.mark.slow  # about half a second of CPU (quick-loop budget, issue 25)
def test_a_game_saved_outside_the_current_folder_resumes_and_replays_with_the_printed_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ruleset given relative to the current folder and a record saved elsewhere: the record
    names the file by its absolute path, and the command `play` prints resumes the game (a
    record alone may not make the tool read a file outside its folder: it needs --rules-dir)."""
    work, saves = tmp_path / "work", tmp_path / "saves"
    (work / "house").mkdir(parents=True)
    saves.mkdir()
    rules = work / "house" / "mine.yaml"
    rules.write_text("id: mine\nkind: house\nextends: pl-standard\nname: {en: Mine}\n", encoding="utf-8")
    monkeypatch.chdir(work)
    save = saves / "y.json"
    result = CliRunner().invoke(main, ["play", "house/mine.yaml", "--seed", "5", "--save", str(save)],
                                input="quit\n")
    assert result.exit_code == 0, result.output
    folder = rules.parent.resolve()
    hint = f"resume with: tysiac --rules-dir {folder} play --resume {save}\n"
    assert result.output.endswith(f"game saved to {save}; {hint}")
    assert json.loads(save.read_text(encoding="utf-8"))["ruleset_file"] == str(rules.resolve())
    monkeypatch.chdir(tmp_path)
    code, out = _play_resume(save)  # without the folder allowed: refused, and told how to allow it
    assert code == 1
    assert out.endswith(f"allow its folder on the command line: tysiac --rules-dir {folder} ...\n")
    args = hint.removeprefix("resume with: tysiac ").split()
    result = CliRunner().invoke(main, args, input="")
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"resuming {save}: 0 actions; you are P0")
    replayed = CliRunner().invoke(main, ["--rules-dir", str(folder), "replay", str(save)])
    assert replayed.exit_code == 0, replayed.output
    assert replayed.stdout.startswith("Ruleset mine (Mine), 3 players, seed 5\n")
