"""`tysiac replay`: a recorded game printed deal by deal and trick by trick, verified against
its ruleset."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from tysiac_spec import load_ruleset
from tysiac_spec.bots import RandomBot
from tysiac_spec.cli import main
from tysiac_spec.commands.replay import chunks
from tysiac_spec.engine import Game
from tysiac_spec.engine.record import record_of, transcript


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
    assert err.startswith(f"{path}: error[record.json]: the record is not valid JSON")
