"""Hostile inputs and a new user's frictions that the corpus of :mod:`tests.test_hostile`
cannot hold (issue 30): a ruleset in which nobody may bid, signals, a full disk, a console
that is not UTF-8, raised limits, a scheduler that never answers.  Each runs the real
``tysiac`` command in its own process where a process is what matters (signals, standard
output, encodings), the hang cases under a subprocess time limit."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tysiac_spec import load_ruleset
from tysiac_spec.engine import Game, Pass
from tysiac_spec.engine.auction import PASSED_OUT_MAX
from tysiac_spec.engine.record import Record

ROOT = Path(__file__).resolve().parent.parent
HANG_LIMIT = 120
"""Seconds after which a case that should end at once counts as hung (a busy machine runs
the tests two at a time; the cases end in a few seconds)."""


def tysiac(*args: str, env: dict[str, str] | None = None, stdin: str = "",
           timeout: float = HANG_LIMIT, **kw: Any) -> subprocess.CompletedProcess[Any]:
    """Run ``tysiac ARGS`` in its own process (this tree's package), under a time limit;
    ``kw`` overrides :func:`subprocess.run`'s arguments (output captured as text)."""
    full = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(ROOT), **(env or {})}
    given: dict[str, Any] = {"input": stdin, "text": True, "env": full, "timeout": timeout}
    if "stdout" not in kw:
        given["capture_output"] = True
    given.update(kw)
    return subprocess.run([sys.executable, "-m", "tysiac_spec", *args], **given)


def house(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"id: {name}\nkind: house\nextends: pl-standard\nname: {{en: {name}}}\n{text}",
                    encoding="utf-8")
    return path


# --------------------------------------------------------------------------- 2: nobody may bid

NOBODY_BIDS = "auction:\n  forced_seat: null\n  may_bid: \"false\"\n  all_pass: redeal\n"
NOBODY_CAN = "auction:\n  forced_seat: null\n  may_bid: \"bid > 1000\"\n  all_pass: redeal\n"
"""Nobody can bid either (every bid is at most 360), but the proof of ``validate`` does not
reach it: the engine stops the match."""


@pytest.mark.slow  # about 1 s of CPU (quick-loop budget, issue 25)
def test_validate_refuses_a_ruleset_where_no_deal_can_be_played(tmp_path: Path) -> None:
    path = house(tmp_path, "nobid", NOBODY_BIDS)
    r = tysiac("validate", str(path))
    assert r.returncode == 1
    assert r.stderr.splitlines()[0] == (
        f"{path}:7:13: error[auction.no-deal]: `auction.may_bid` (`false`) is always false: nobody "
        "may ever bid, nobody must open, and a deal everyone passes is dealt again "
        "(`auction.all_pass: redeal`), so no deal could ever be played"
    )
    # with a seat obliged to open at the compulsory bid, deals are played: accepted
    ok = house(tmp_path, "forced", "auction:\n  may_bid: \"false\"\n  all_pass: redeal\n")
    assert tysiac("validate", str(ok)).returncode == 0


def test_the_engine_stops_a_match_whose_deals_are_all_passed_out(tmp_path: Path) -> None:
    game = Game(load_ruleset(house(tmp_path, "nobody-can", NOBODY_CAN)), players=3, seed=5)
    passes = 0
    while not game.is_over:
        assert game.legal_actions() == [Pass()]
        game.apply(Pass())
        passes += 1
    assert passes == 3 * PASSED_OUT_MAX == 300
    assert game.passed_out == 100 and game.deal_scores == [] and game.winners == ()
    assert game.events[-1].kind == "all-pass.stopped"
    assert game.events[-1].text == (
        "100 deals in a row passed out and dealt again: nobody could bid, the match is stopped "
        "(auction.may_bid, auction.all_pass)"
    )
    assert sum(e.kind == "redeal" for e in game.events) == 100
    assert game.legal_actions() == []


@pytest.mark.slow  # about 1 s of CPU a case (quick-loop budget, issue 25)
@pytest.mark.parametrize("bots", ["heuristic", "random"])  # the generic engine and the fast path
def test_simulate_counts_passed_out_deals_against_max_deals(tmp_path: Path, bots: str) -> None:
    path = house(tmp_path, "nobody-can", NOBODY_CAN)
    r = tysiac("simulate", str(path), "-n", "2", "--max-deals", "7", "--bots", bots, "--json")
    assert r.returncode == 0, r.stderr
    import json

    data = json.loads(r.stdout)
    assert (data["matches"], data["unfinished"], data["deals"]) == (2, 2, 0)
    assert data["redeals"] == 14  # 7 a match: each counts against --max-deals
    r = tysiac("simulate", str(path), "-n", "1", "--bots", bots, "--json")
    data = json.loads(r.stdout)
    assert (data["unfinished"], data["redeals"]) == (1, 100)  # stopped by the engine


# --------------------------------------------------------------------------- 10: play on signals


def _play_until_prompt(save: Path, answered: int) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-u", "-m", "tysiac_spec", "play", "pl-standard", "--seed", "3", "--save", str(save)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(ROOT)},
    )
    assert proc.stdin is not None and proc.stdout is not None
    seen, prompts = "", 0
    while prompts <= answered:
        ch = proc.stdout.read(1)
        assert ch, seen
        seen += ch
        if seen.endswith("P0> "):
            prompts += 1
            if prompts <= answered:
                proc.stdin.write("1\n")
                proc.stdin.flush()
    return proc


@pytest.mark.slow  # about 1 s of CPU a case (quick-loop budget, issue 25)
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_play_saves_every_move_on_sigterm_and_sighup(tmp_path: Path, signum: int) -> None:
    """``kill``, ``timeout`` or a closed terminal: the record is saved as on Ctrl-C, with every
    move so far (the same record as the end of the input at the same prompt)."""
    save = tmp_path / "game.json"
    proc = _play_until_prompt(save, 6)
    proc.send_signal(signum)
    assert proc.wait(timeout=HANG_LIMIT) == 130
    assert proc.stdout is not None and proc.stderr is not None and proc.stdin is not None
    rest, err = proc.stdout.read(), proc.stderr.read()
    proc.stdin.close()
    proc.stdout.close()
    proc.stderr.close()
    assert f"interrupted: game saved to {save}" in rest
    assert err == ""
    saved = save.read_text(encoding="utf-8")
    assert len(Record.from_json(saved).actions) > 6
    other = tmp_path / "other.json"
    r = tysiac("play", "pl-standard", "--seed", "3", "--save", str(other), stdin="1\n" * 6)
    assert r.returncode == 0
    assert saved == other.read_text(encoding="utf-8")
    assert not list(tmp_path.glob(".game.json.*"))


# --------------------------------------------------------------------------- 5, 6: output


def _record(tmp_path: Path) -> Path:
    save = tmp_path / "game.json"
    assert tysiac("play", "pl-standard", "--seed", "3", "--save", str(save), stdin="1\n" * 4).returncode == 0
    return save


COMMANDS_PRINTING = [
    ["docs", "pl-standard"], ["list"], ["show", "pl-standard"], ["compare", "pl-standard", "ru-classic"],
    ["replay", "RECORD"], ["dsl-reference"], ["schema"],
]


@pytest.mark.slow  # about half a second of CPU a case (quick-loop budget, issue 25)
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", COMMANDS_PRINTING, ids=lambda a: a[0])
def test_output_on_a_full_disk_is_one_line_and_status_1(tmp_path: Path, args: list[str]) -> None:
    args = [str(_record(tmp_path)) if a == "RECORD" else a for a in args]
    with open("/dev/full", "w") as full:
        r = tysiac(*args, stdout=full, stderr=subprocess.PIPE)
    assert (r.returncode, r.stderr) == (1, "tysiac: cannot write the output: No space left on device\n")


def _shown_in(text: str, encoding: str) -> str:
    """``text`` as a console in ``encoding`` shows it: what it cannot encode as ``?``."""
    return text.encode(encoding, errors="replace").decode(encoding)


@pytest.mark.slow  # about 2 s of CPU a case (quick-loop budget, issue 25)
@pytest.mark.parametrize("args", [["docs", "pl-standard"], ["list"], ["show", "pl-standard"], ["replay", "RECORD"]],
                         ids=lambda a: a[0])
def test_a_console_that_is_not_utf8_gets_replacements(tmp_path: Path, args: list[str]) -> None:
    args = [str(_record(tmp_path)) if a == "RECORD" else a for a in args]
    utf8 = tysiac(*args, env={"PYTHONIOENCODING": "utf-8"})
    legacy = tysiac(*args, env={"PYTHONIOENCODING": "cp1250"}, text=False, input=b"")
    assert (legacy.returncode, legacy.stderr) == (0, b"")
    assert utf8.returncode == 0
    shown = legacy.stdout.decode("cp1250")
    if args[0] == "list":  # a table: rich draws it with plain characters for such a console
        assert "| pl-standard        | variant | 2,3,4   | Thousand — | core      | tysiac,    |" in shown
        assert "│" in utf8.stdout
    else:
        assert shown == _shown_in(utf8.stdout, "cp1250")
    if args[0] == "docs":
        assert "♥" in utf8.stdout and "♥" not in shown  # (a character cp1250 does not have)


@pytest.mark.slow  # about half a second of CPU (quick-loop budget, issue 25)
def test_play_on_a_console_that_is_not_utf8(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    r = tysiac("play", "pl-standard", "--seed", "3", "--save", str(save),
               env={"PYTHONIOENCODING": "cp1250"}, text=False, input=b"1\n" * 3)
    assert (r.returncode, r.stderr) == (0, b"")
    assert b"end of input: game saved to" in r.stdout


# --------------------------------------------------------------------------- 7: raised limits

CORPUS = ROOT / "tests" / "hostile" / "rulesets"


@pytest.mark.slow  # about half a second of CPU (quick-loop budget, issue 25)
def test_yaml_integer_limit_raised_above_what_python_converts() -> None:
    path = CORPUS / "huge-int.yaml"
    r = tysiac("validate", str(path), env={"TYSIAC_MAX_INT_DIGITS": "5000"})
    assert r.returncode == 1 and "Traceback" not in r.stderr
    lines = r.stderr.splitlines()
    assert lines[0] == f"{path}:7:11: error[yaml.too-large]: the integer has more digits than Python converts (5,000)"
    assert lines[3:] == ["  at: match.target", "1 of 1 ruleset(s) invalid"]


@pytest.mark.slow  # about 18 s of CPU (quick-loop budget, issue 25)
def test_yaml_depth_limit_raised_above_what_python_reads() -> None:
    path = CORPUS / "deep-nesting-flow.yaml"
    r = tysiac("validate", str(path), env={"TYSIAC_MAX_DEPTH": "2000"})
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.splitlines() == [
        f"{path}: error[limit.depth]: the nesting of a YAML or JSON document: deeper than this Python "
        "can read (10,001 levels)",
        "1 of 1 ruleset(s) invalid",
    ]  # no hint to raise the limit: that cannot help


@pytest.mark.slow  # about 1 s of CPU (quick-loop budget, issue 25)
def test_a_900_level_yaml_under_a_raised_depth_limit_names_its_depth(tmp_path: Path) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text("a:\n" + "".join("  " * i + "b:\n" for i in range(1, 900)) + "  " * 900 + "c: 1\n",
                    encoding="utf-8")
    r = tysiac("validate", str(path), env={"TYSIAC_MAX_DEPTH": "2000", "TYSIAC_MAX_RULESET_BYTES": "2000000"})
    assert r.stderr.splitlines() == [
        f"{path}: error[limit.depth]: the nesting of a YAML or JSON document: deeper than this Python "
        "can read (901 levels)",
        "1 of 1 ruleset(s) invalid",
    ]


@pytest.mark.parametrize("value", ["abc", "-5", "0", "1.5", ""])
def test_a_limit_variable_that_is_not_a_positive_number_is_refused(value: str) -> None:
    r = tysiac("validate", "pl-standard", env={"TYSIAC_MAX_DEPTH": value})
    assert (r.returncode, r.stdout) == (1, "")
    assert r.stderr == (
        f"tysiac: TYSIAC_MAX_DEPTH={value} is not a positive whole number (it sets the limit on the "
        "nesting of a YAML or JSON document, 64 levels by default)\n"
    )


# --------------------------------------------------------------------------- 13: one run


def test_validate_reports_yaml_schema_and_formula_mistakes_in_one_run() -> None:
    path = ROOT / "tests" / "invalid" / "four-mistakes-one-run.yaml"
    r = tysiac("validate", str(path))
    assert r.returncode == 1
    assert [line.split(": error", 1)[1] for line in r.stderr.splitlines() if ": error[" in line] == [
        '[yaml.float]: `10.5` is a float, but floats are not allowed: points are integers; write an '
        'integer or quote it as "10.5"',
        "[schema.unknown-key]: unknown key `minbid` in `auction`; did you mean `min_bid`?",
        '[schema.type]: `match.target` must be an integer (got "a thousand")',
        "[dsl.unknown-name]: unknown name `contrakt`; did you mean `contract`?",
    ]


# --------------------------------------------------------------------------- 14: tag characters


@pytest.mark.slow  # about half a second of CPU (quick-loop budget, issue 25)
def test_invisible_tag_characters_are_refused() -> None:
    path = CORPUS / "tag-characters.yaml"
    r = tysiac("validate", str(path))
    assert r.returncode == 1
    assert r.stderr.splitlines()[0] == (
        f"{path}:5:12: error[yaml.control-character]: the text holds the control character U+E0020 at "
        "position 7; rulesets hold printable text only (escape codes, lone surrogates, direction "
        "overrides and invisible characters are refused)"
    )
    assert "\U000e0020" not in r.stderr  # shown as an escape, never raw
    from tysiac_spec.text import has_control, printable

    assert has_control("a\U000e0041b") == "\U000e0041" and has_control("a\U000e0080b") is None
    assert printable("a\U000e0041b") == "a\\U000e0041b"


# --------------------------------------------------------------------------- 18: no scenarios


@pytest.mark.slow  # about half a second of CPU (quick-loop budget, issue 25)
def test_check_on_a_house_file_without_scenarios_says_so(tmp_path: Path) -> None:
    path = house(tmp_path, "mine", "")
    r = tysiac("check", str(path))
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout.splitlines() == [
        f"mine: no scenario file ({tmp_path / 'scenarios' / 'mine.yaml'})",
        f"no scenarios to check: mine has no scenario file ({tmp_path / 'scenarios' / 'mine.yaml'})",
    ]


# --------------------------------------------------------------------------- 19: temporary files


def _wait_for(condition: Any, what: str, proc: subprocess.Popen[str]) -> None:
    import time

    for _ in range(HANG_LIMIT * 20):
        if condition():
            return
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    pytest.fail(f"{what} never happened (status {proc.poll()})")


@pytest.mark.slow  # builds part of the site (a few seconds)
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_build_stopped_by_a_signal_removes_its_temporary_folder(tmp_path: Path, signum: int) -> None:
    out = tmp_path / "site"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tysiac_spec", "build", "-o", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(ROOT)},
    )
    temporary = lambda: [p for p in tmp_path.iterdir() if p.name.startswith(".site.")]  # noqa: E731
    _wait_for(lambda: any(any(p.iterdir()) for p in temporary()), "the temporary site", proc)
    proc.send_signal(signum)
    out_text, err = proc.communicate(timeout=HANG_LIMIT)
    assert (proc.returncode, out_text, err) == (130, "", "interrupted\n")
    assert list(tmp_path.iterdir()) == []  # neither the site nor its temporary folder


@pytest.mark.slow  # builds the site twice (seconds)
def test_a_killed_builds_temporary_folder_is_removed_by_the_next_build(tmp_path: Path) -> None:
    """SIGKILL (nothing can clean up) leaves ``.site.<pid>.<random>.tmp``; the next build
    removes it as its process has ended, and keeps one of a build still running."""
    out = tmp_path / "site"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tysiac_spec", "build", "-o", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(ROOT)},
    )
    temporary = lambda: [p for p in tmp_path.iterdir() if p.name.startswith(".site.")]  # noqa: E731
    _wait_for(lambda: any(any(p.iterdir()) for p in temporary()), "the temporary site", proc)
    proc.kill()
    proc.communicate(timeout=HANG_LIMIT)
    [left] = temporary()
    assert left.name.startswith(f".site.{proc.pid}.") and left.name.endswith(".tmp")
    live = tmp_path / f".site.{os.getpid()}.abc.tmp"
    live.mkdir()
    r = tysiac("build", "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["site", live.name])
    inside = out / f".tysiac-build.{proc.pid}.xyz.tmp"  # a killed rebuild's, inside the site
    (inside / "rules").mkdir(parents=True)
    r = tysiac("build", "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert not inside.exists()


@pytest.mark.slow  # about half a second of CPU (quick-loop budget, issue 25)
def test_a_save_interrupted_before_leaves_no_temporary_file(tmp_path: Path) -> None:
    """A save killed between its temporary file and the rename (SIGKILL: nothing can clean up)
    leaves ``.game.json.<pid>.<random>.tmp``; the next save beside it removes it, and keeps a
    temporary file of a writer still running."""
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    stale = tmp_path / f".game.json.{dead.stdout.strip()}.abc123.tmp"
    stale.write_text("{half a rec", encoding="utf-8")
    old = tmp_path / ".game.json.xyz.tmp"  # an older writer's name, with no process id
    old.write_text("{", encoding="utf-8")
    os.utime(old, (1, 1))
    live = tmp_path / f".game.json.{os.getpid()}.def456.tmp"
    live.write_text("{", encoding="utf-8")
    other = tmp_path / ".other.json.1.abc.tmp"
    other.write_text("{", encoding="utf-8")
    save = tmp_path / "game.json"
    assert tysiac("play", "pl-standard", "--seed", "3", "--save", str(save), stdin="").returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["game.json", live.name, other.name])


# --------------------------------------------------------------------------- 16: replay's sums


@pytest.mark.slow  # about 1 s of CPU (quick-loop budget, issue 25)
def test_replay_prints_a_bad_cuts_penalty_and_its_sums_add_up(tmp_path: Path) -> None:
    """ua-standard seed 189: the first deal's cut is bad three times in a row (SHR: the cutter
    pays 120); that charge is no deal's score, and replay writes it as its own change."""
    save = tmp_path / "cut.json"
    r = tysiac("play", "ua-standard", "--seed", "189", "--bots", "random", "--save", str(save), stdin="1\n" * 40)
    assert r.returncode == 0, r.stderr
    text = tysiac("replay", str(save)).stdout
    lines = text.splitlines()
    assert lines[4:11] == [
        "Deal 1: dealer P1",
        "  bad cut by P2: 9S at the bottom",
        "  bad cut by P2: 9D at the bottom",
        "  bad cut by P2: 9C at the bottom",
        "  bad cut 3 in a row: P2 −120",
        "  other score changes: P2 −120",
        "  totals: P0 0, P1 0, P2 −120",
    ]
    import re

    added = [0, 0, 0]
    for line in lines:
        if line.startswith(("  deal scores: ", "  other score changes: ")):
            for p, v in re.findall(r"P(\d) ([+-]?\d+)", line.replace("−", "-")):
                added[int(p)] += int(v)
    final = [int(v) for v in re.findall(r"P\d (-?\d+)", lines[-1])]
    assert lines[-1].startswith("Scores: ") and added == final


# --------------------------------------------------------------------------- 17: play at a terminal


def _at_a_terminal(tmp_path: Path, answers: list[str]) -> str:
    """A stacked pl-standard deal played from seat 1 (who opens at 100) on a terminal console
    60 columns wide, without colour; the output as printed."""
    import io

    from rich.console import Console

    from tysiac_spec.commands.play import run_match

    game = Game(load_ruleset("pl-standard"), players=3, seed=0)
    game.start_deal(hands={1: "AH KH QH 9H AS KS QS", 2: "TH JH TS JS 9S AD TD", 0: "KD QD JD 9D AC TC KC"},
                    talons=["QC JC 9C"], dealer=0)
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=60, no_color=True, color_system=None,
                      highlight=False, soft_wrap=True)
    it = iter(answers)

    def read(prompt: str) -> str:
        answer = next(it)
        console.print(prompt + answer)
        return answer

    run_match(game, seat=1, bots="random", seed=1, save_to=tmp_path / "g.json", console=console, read_line=read)
    return out.getvalue()


def test_play_at_a_terminal_wraps_choices_between_cards_and_shows_suit_symbols(tmp_path: Path) -> None:
    lines = _at_a_terminal(tmp_path, ["1", "1", "1", "1", "quit"]).splitlines()
    start = lines.index("choices: 1) give AH to 2  2) give KH to 2  3) give QH to 2")
    assert lines[start:start + 10] == [
        "choices: 1) give AH to 2  2) give KH to 2  3) give QH to 2",
        "         4) give 9H to 2  5) give QC to 2  6) give JC to 2",
        "         7) give 9C to 2  8) give AS to 2  9) give KS to 2",
        "         10) give QS to 2  11) give AH to 0",
        "         12) give KH to 0  13) give QH to 0",
        "         14) give 9H to 0  15) give QC to 0",
        "         16) give JC to 0  17) give 9C to 0",
        "         18) give AS to 0  19) give KS to 0",
        "         20) give QS to 0",
        "P1> 1",
    ]
    assert "your hand: hearts: A♥ K♥ Q♥ 9♥   spades: A♠ K♠ Q♠" in lines
    # the talon is shown until the exchange is made, then it is in the declarer's hand
    assert lines[start - 2] == "talon: Q♣ J♣ 9♣"
    play = lines.index("dealer: P0  phase: play")
    assert not any(line.startswith("talon:") for line in lines[play:])


@pytest.mark.slow  # about half a second of CPU (quick-loop budget, issue 25)
def test_play_at_the_end_of_a_deal_shows_the_points_taken(tmp_path: Path) -> None:
    r = tysiac("play", "pl-standard", "--seed", "3", "--save", str(tmp_path / "g.json"), stdin="1\n" * 30)
    lines = r.stdout.splitlines()
    end = lines.index("deal 1 scores: P0 −110  P1 +110  P2 +30")
    assert lines[end - 2:end] == ["  P0: contract 110 failed", "points taken: P0 37, P1 52 + marriages 60, P2 31"]


@pytest.mark.slow  # about 1 s of CPU (quick-loop budget, issue 25)
def test_replay_writes_events_in_words_not_codes(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    tysiac("play", "pl-standard", "--seed", "3", "--save", str(save), stdin="1\n" * 30)
    text = tysiac("replay", str(save)).stdout
    assert "  P0: contract 110 failed\n" in text and "contract.failed" not in text


# --------------------------------------------------------------------------- 3, 4: --scheduler


class _Server:
    """A TCP server on 127.0.0.1 in this process: ``http`` answers any request with a 404 (a
    web server, as the Dask dashboard is), else it accepts and never answers."""

    def __init__(self, http: bool) -> None:
        import socket
        import threading

        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.http, self.conns = http, []  # type: ignore[var-annotated]
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.conns.append(conn)
            if self.http:
                conn.recv(65536)
                conn.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found")

    def close(self) -> None:
        for c in [*self.conns, self.sock]:
            c.close()


@pytest.mark.slow  # waits out the scheduler timeout (10 s)
def test_a_scheduler_port_that_never_answers_is_an_error_not_a_hang() -> None:
    server = _Server(http=False)
    try:
        r = tysiac("simulate", "pl-standard", "-n", "1", "--scheduler", f"tcp://127.0.0.1:{server.port}", timeout=60)
    finally:
        server.close()
    assert r.returncode == 1
    assert r.stderr == (
        f"Error: cannot reach the Dask scheduler at tcp://127.0.0.1:{server.port}: it accepts connections "
        "but sent nothing in 10 s (a Dask scheduler answers at once); is it the scheduler's address and "
        "port (usually 8786)?\n"
    )


@pytest.mark.slow  # about 1 s of CPU (quick-loop budget, issue 25)
def test_a_scheduler_port_that_answers_http_is_named() -> None:
    server = _Server(http=True)
    try:
        r = tysiac("simulate", "pl-standard", "-n", "1", "--scheduler", f"tcp://127.0.0.1:{server.port}", timeout=60)
    finally:
        server.close()
    assert r.returncode == 1
    assert r.stderr == (
        f"Error: cannot use tcp://127.0.0.1:{server.port} as a Dask scheduler: it answers HTTP "
        "(HTTP/1.1 404 Not Found), as a web server such as the Dask dashboard (usually port 8787) does; "
        "give the scheduler's own port (usually 8786)\n"
    )


def test_a_real_scheduler_passes_the_probe() -> None:
    distributed = pytest.importorskip("distributed")
    from tysiac_spec.simulate import _probe_scheduler

    with distributed.LocalCluster(n_workers=0, processes=False, protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        assert _probe_scheduler(cluster.scheduler_address) is None


@pytest.mark.slow  # about 1 s of CPU (quick-loop budget, issue 25)
def test_play_stops_a_match_nobody_can_bid_in(tmp_path: Path) -> None:
    """The user is offered only `pass`, deal after deal: after 100 deals passed out in a row
    the engine stops the match, and play says so (it went on for ever)."""
    path = house(tmp_path, "nobody-can", NOBODY_CAN)
    save = tmp_path / "g.json"
    r = tysiac("play", str(path), "--seed", "1", "--save", str(save), stdin="1\n" * 150)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[-3:] == [
        "  100 deals in a row passed out and dealt again: nobody could bid, the match is stopped "
        "(auction.may_bid, auction.all_pass)",
        "match stopped without a winner: P0 0  P1 0  P2 0",
        f"record saved to {save}",
    ]
    assert sum(line == "the deal is redealt" for line in lines) == 99


# --------------------------------------------------------------------------- 10: a closed terminal


def _play_at_a_terminal(tmp_path: Path, answered: int, stdout_file: Path | None) -> tuple[int, Path]:
    """Run ``tysiac play`` at a pseudo-terminal, answer ``answered`` prompts, then close the
    terminal (its master side, as ``tmux kill-session`` does); the exit status and the save."""
    import pty
    import select
    import time

    save = tmp_path / "g.json"
    argv = [sys.executable, "-m", "tysiac_spec", "play", "pl-standard", "--seed", "5", "--save", str(save)]
    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(ROOT), "TERM": "dumb"}
    pid, master = pty.fork()
    if pid == 0:  # pragma: no cover - the child
        if stdout_file is not None:
            fd = os.open(stdout_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.dup2(fd, 1)
        os.execve(sys.executable, argv, env)
    seen, prompts, deadline = b"", 0, time.monotonic() + HANG_LIMIT
    prompt = b"P0> "
    while prompts <= answered and time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 1)
        if not ready:
            if stdout_file is not None and stdout_file.read_bytes().count(prompt) > prompts:
                pass  # (the prompt went to the file)
            else:
                continue
        else:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            seen += chunk
        total = seen.count(prompt) + (stdout_file.read_bytes().count(prompt) if stdout_file else 0)
        while prompts < total:
            prompts += 1
            if prompts <= answered:
                os.write(master, b"1\n")
    assert prompts > answered, seen
    time.sleep(0.5)  # (the last prompt is waiting for a line)
    os.close(master)
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status), save
        time.sleep(0.1)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    raise AssertionError("play did not end when its terminal was closed")


@pytest.mark.slow  # about half a second of CPU a case (quick-loop budget, issue 25)
@pytest.mark.parametrize("to_file", [False, True], ids=["terminal", "stdout-to-file"])
def test_play_saves_every_move_when_its_terminal_is_closed(tmp_path: Path, to_file: bool) -> None:
    """Closing the terminal gives SIGHUP, the end of the input and errors writing to it, in
    any order: every move so far is saved all the same."""
    out = tmp_path / "out.txt" if to_file else None
    status, save = _play_at_a_terminal(tmp_path, 11, out)
    assert status == 130
    assert len(Record.from_json(save.read_text(encoding="utf-8")).actions) > 11
    assert not list(tmp_path.glob(".g.json.*"))
    if out is not None:
        assert f"interrupted: game saved to {save}" in out.read_text(encoding="utf-8")


# --------------------------------------------------------------------------- 8: a FIFO for -o


@pytest.mark.slow  # about half a second of CPU a case (quick-loop budget, issue 25)
@pytest.mark.parametrize("args", [
    ["docs", "pl-standard"], ["schema"], ["dsl-reference"], ["compare", "pl-standard", "ru-classic"],
    ["compare", "pl-standard", "ru-classic", "--simulate", "2"],
], ids=["docs", "schema", "dsl-reference", "compare", "compare-simulate"])
def test_an_output_that_is_a_fifo_is_refused_not_a_hang(tmp_path: Path, args: list[str]) -> None:
    """Opening a FIFO nobody reads blocks for ever: ``-o`` refuses it as ``--save`` does."""
    fifo = tmp_path / "ff"
    os.mkfifo(fifo)
    r = tysiac(*args, "-o", "ff", cwd=tmp_path)
    assert r.returncode == 1
    assert r.stderr == "Error: cannot write ff: it is a FIFO (named pipe), not a regular file\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ff"]


# --------------------------------------------------------------------------- check --file RULESET


@pytest.mark.slow  # about 1 s of CPU (quick-loop budget, issue 25)
def test_check_file_on_a_ruleset_says_it_is_a_ruleset(tmp_path: Path) -> None:
    """By its top-level keys (a shipped ruleset), or by its ``$schema`` line alone."""
    r = tysiac("check", "--file", "rulesets/pl-standard.yaml", cwd=ROOT)
    assert (r.returncode, r.stdout) == (1, "0 of 0 scenario(s) passed; 1 scenario file(s) invalid\n")
    assert r.stderr == (
        "rulesets/pl-standard.yaml: error[scenario.is-ruleset]: the file is a ruleset, not a scenario file\n"
        "  hint: validate it with `tysiac validate rulesets/pl-standard.yaml`; `tysiac check "
        "rulesets/pl-standard.yaml` runs its scenarios (scenarios/pl-standard.yaml beside it)\n"
    )
    odd = tmp_path / "odd.yaml"
    odd.write_text("# yaml-language-server: $schema=../schemas/ruleset.schema.json\nscoring: {}\n",
                   encoding="utf-8")
    r = tysiac("check", "--file", str(odd))
    assert r.stderr.splitlines()[0] == f"{odd}: error[scenario.is-ruleset]: the file is a ruleset, not a scenario file"
    bad = tmp_path / "bad.yaml"  # a scenario file with a mistake keeps its schema errors
    bad.write_text("ruleset: pl-standard\nscenario: []\n", encoding="utf-8")
    r = tysiac("check", "--file", str(bad))
    assert "error[schema." in r.stderr and "is-ruleset" not in r.stderr
