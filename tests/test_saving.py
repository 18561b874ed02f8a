"""Nothing typed is lost (issue 30 items 1, 8, 9, 11, 15): the scoresheet's and the game
record's files are written by :mod:`tysiac_spec.savefile` — an atomic replace guarded by a
version check, only to a regular file — and what a sheet file gives is bounded before any loop.

The two-writer cases run two real ``tysiac`` processes on one file; the hang cases run the
command in a subprocess with a time limit (a hang fails the test, no speed is asserted).
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path
from typing import IO

import pytest
from click.testing import CliRunner

from tysiac_spec.cli import main
from tysiac_spec.errors import EntryError, SaveConflictError, SaveError
from tysiac_spec.ruleset import load_ruleset
from tysiac_spec.savefile import check_writable, file_version, text_version, write_versioned
from tysiac_spec.scoresheet import DealEntry, Sheet, dealer_due, settle_sheet, start_state
from tysiac_spec.scoresheet.settle import redealt_dealer

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "NO_COLOR": "1", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": str(ROOT)}
HANG = 120
"""Seconds after which a run that should take one is taken for a hang."""

DEAL_1 = ["1", "100", "150", "8 107 5", "1:S"]  # P1 takes 107 + 40 for spades: 150 failed, -150
DEAL_1_OTHER = ["2", "110", "120", "24 26 70", "2:H"]  # P2 makes 120 (70 + 100 hearts): +120


def tysiac(*args: str, **kwargs: object) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-u", "-m", "tysiac_spec", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, cwd=ROOT, env=ENV, **kwargs,  # type: ignore[call-overload]
    )


def read_until(stream: IO[str] | None, marker: str) -> str:
    """The lines of ``stream`` up to the first one holding ``marker``."""
    assert stream is not None
    seen = []
    while True:
        line = stream.readline()
        assert line, "".join(seen) + f"\n(no `{marker}` before the end)"
        seen.append(line)
        if marker in line:
            return "".join(seen)


def send(proc: subprocess.Popen[str], lines: list[str]) -> None:
    assert proc.stdin is not None
    proc.stdin.write("\n".join(lines) + "\n")
    proc.stdin.flush()


# --------------------------------------------------------------------------- the helper


def test_a_write_with_a_stale_version_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    assert file_version(path) == ""
    first = write_versioned(path, "one\n", expected="")
    assert first == text_version("one\n") == file_version(path)
    second = write_versioned(path, "two\n", expected=first)
    with pytest.raises(SaveConflictError) as info:  # a writer that still holds `first`
        write_versioned(path, "three\n", expected=first)
    assert info.value.diagnostic.code == "save.conflict"
    assert info.value.diagnostic.message == (
        f"{path} was changed by another program since it was read (another session on the same "
        "file?); nothing was written to it, so its data is kept")
    assert (info.value.expected, info.value.found) == (first, second)
    assert path.read_text(encoding="utf-8") == "two\n"
    with pytest.raises(SaveConflictError, match="was created by another program"):
        write_versioned(path, "four\n", expected="")  # expected no file: one is there
    path.unlink()
    with pytest.raises(SaveConflictError, match="was removed by another program"):
        write_versioned(path, "five\n", expected=second)
    assert not path.exists()
    assert write_versioned(path, "six\n", expected=None) == text_version("six\n")  # no check asked
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]  # no temporary file left


def test_a_fifo_a_folder_and_a_missing_folder_are_refused_before_writing(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    for path, reason in (
        (fifo, "it is a FIFO (named pipe), not a regular file"),
        (tmp_path, "it is a folder, not a regular file"),
        (tmp_path / "no" / "s.json", f"the folder {tmp_path / 'no'} does not exist"),
    ):
        for write in (lambda p: write_versioned(p, "x", expected=None), lambda p: check_writable(p, "x"),
                      file_version):
            with pytest.raises(SaveError) as info:
                write(path)
            assert info.value.diagnostic.message.endswith(f"{path}: {reason}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe.json"]


# --------------------------------------------------------------------------- item 1: counts


def test_a_huge_redeals_count_is_reduced_over_the_dealers_cycle() -> None:
    for ruleset, players in (("pl-standard", 3), ("pl-standard", 4), ("ru-classic", 4), ("pl-standard", 2)):
        form = load_ruleset(ruleset).form(players)
        for dealer in range(players):
            walked = [dealer]  # the engine's redeal_dealer step by step, for small counts
            for _ in range(3 * players):
                walked.append(redealt_dealer(form, walked[-1], 1))
            for count in range(3 * players + 1):
                assert redealt_dealer(form, dealer, count) == walked[count]
            period = next(p for p in range(1, players + 1) if walked[players + p] == walked[players])
            big = 10**17  # what the integer limit lets a file give
            assert redealt_dealer(form, dealer, big) == walked[players + (big - players) % period]
            assert redealt_dealer(form, dealer, -5) == dealer


@pytest.mark.slow  # about 1 s of CPU (quick-loop budget, issue 25)
def test_a_sheet_with_10_to_the_17_redeals_settles_at_once(tmp_path: Path) -> None:
    rules = load_ruleset("pl-standard")
    form = rules.form(3)
    sheet = Sheet(ruleset="pl-standard", players=3, options=dict(rules.selected),
                  content_hash=rules.content_hash)
    due = redealt_dealer(form, 0, 10**17)
    entry = DealEntry(dealer=due, declarer=(due + 1) % 3, bid=100, contract=100,
                      points=tuple(100 if p == (due + 1) % 3 else 10 for p in range(3)), redeals=10**17)
    assert dealer_due(form, start_state(rules, form, sheet), entry) == due
    sheet.deals.append(entry)
    assert settle_sheet(rules, form, sheet)[-1].scores[(due + 1) % 3] == 100
    path = tmp_path / "s.json"
    path.write_text(sheet.to_json(), encoding="utf-8")
    proc = tysiac("score", "--sheet", str(path))
    out, _ = proc.communicate("quit\n", timeout=HANG)
    assert proc.returncode == 0, out
    assert "(1 deal)" in out and f"no change; the sheet is in {path}" in out


# --------------------------------------------------------------------------- item 8: FIFOs


@pytest.mark.slow  # about half a second of CPU a case (quick-loop budget, issue 25)
@pytest.mark.parametrize("command", ["score", "play"])
def test_a_fifo_as_the_sheet_or_the_save_is_refused_at_once(tmp_path: Path, command: str) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    flag = "--sheet" if command == "score" else "--save"
    proc = tysiac(command, "pl-standard", flag, str(fifo), *(["--seed", "1"] if command == "play" else []))
    out, _ = proc.communicate("quit\n", timeout=HANG)  # it used to block for ever writing to the FIFO
    assert proc.returncode == 1
    assert out.endswith(f"Error: cannot write {fifo}: it is a FIFO (named pipe), not a regular file\n")
    assert "Traceback" not in out


def test_score_says_sheet_saved_only_when_it_wrote_the_sheet(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    first = CliRunner().invoke(main, ["score", "pl-standard", "--sheet", str(path)], input="quit\n")
    assert first.exit_code == 0
    assert first.output.splitlines()[-1] == f"sheet saved to {path}"  # a new sheet: written at once
    before = path.read_bytes()
    again = CliRunner().invoke(main, ["score", "--sheet", str(path)], input="quit\n")
    assert again.exit_code == 0
    assert again.output.splitlines()[-1] == f"no change; the sheet is in {path}"
    assert path.read_bytes() == before


# --------------------------------------------------------------------------- item 9: two writers


@pytest.mark.slow  # about 2 s of CPU (quick-loop budget, issue 25)
def test_two_score_sessions_on_one_sheet_keep_both_deals(tmp_path: Path) -> None:
    path, other = tmp_path / "s.json", tmp_path / "mine.json"
    first = tysiac("score", "pl-standard", "--sheet", str(path))
    read_until(first.stdout, "(0 deals)")
    second = tysiac("score", "--sheet", str(path))  # the same sheet, opened before the first saves
    read_until(second.stdout, "(0 deals)")
    send(first, DEAL_1)
    read_until(first.stdout, f"sheet saved to {path}")
    send(second, [*DEAL_1_OTHER, str(other), "quit"])
    out, _ = second.communicate(timeout=HANG)
    assert f"not saved: {path} was changed by another program since it was read" in out
    assert f"sheet saved to {other}" in out, out
    assert second.returncode == 0
    first.communicate("quit\n", timeout=HANG)
    assert first.returncode == 0
    kept = json.loads(path.read_text(encoding="utf-8"))
    assert [(d["declarer"], d["contract"]) for d in kept["deals"]] == [(1, 150)]  # the first's deal
    assert other.exists(), out
    mine = json.loads(other.read_text(encoding="utf-8"))
    assert [(d["declarer"], d["contract"]) for d in mine["deals"]] == [(2, 120)]  # the second's


@pytest.mark.slow  # about 2 s of CPU (quick-loop budget, issue 25)
def test_a_second_resume_that_started_before_the_first_saved_writes_beside_it(tmp_path: Path) -> None:
    record = tmp_path / "g.json"
    made = tysiac("play", "pl-standard", "--seed", "3", "--save", str(record))
    made.communicate("quit\n", timeout=HANG)
    saved = len(json.loads(record.read_text(encoding="utf-8"))["actions"])
    first = tysiac("play", "--resume", str(record))
    read_until(first.stdout, "choices:")  # read, saved again at once (the same bytes), asking
    second = tysiac("play", "--resume", str(record))
    read_until(second.stdout, "choices:")  # both have read the record
    send(first, ["1", "quit"])
    first_out, _ = first.communicate(timeout=HANG)
    assert first.returncode == 0, first_out
    send(second, ["1", "1", "quit"])
    second_out, _ = second.communicate(timeout=HANG)
    assert second.returncode == 0, second_out
    beside = tmp_path / "g-2.json"
    assert (f"note: {record} was changed by another program since it was read (another session on "
            f"the same file?); nothing was written to it, so its data is kept, and this game is saved "
            f"to {beside} instead\n") in second_out  # one sentence, one line
    mine = json.loads(record.read_text(encoding="utf-8"))["actions"]
    theirs = json.loads(beside.read_text(encoding="utf-8"))["actions"]
    assert len(mine) > saved and len(theirs) > len(mine)  # both sessions' moves are on disk


# --------------------------------------------------------------------------- item 11: full disk


def _small_files() -> None:  # in the child: files above 300 bytes cannot be written (a full disk)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (300, 300))


@pytest.mark.slow  # about 2 s of CPU (quick-loop budget, issue 25)
def test_score_on_a_full_disk_says_so_before_the_first_question(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    proc = tysiac("score", "pl-standard", "--sheet", str(path), preexec_fn=_small_files)
    out, _ = proc.communicate("\n".join(DEAL_1) + "\n", timeout=HANG)
    assert proc.returncode == 1
    assert out == f"Error: cannot write {path}: File too large\n"
    assert not path.exists() and list(tmp_path.iterdir()) == []
    # an existing sheet: checked without touching it
    CliRunner().invoke(main, ["score", "pl-standard", "--sheet", str(path)], input="\n".join(DEAL_1) + "\n")
    before = path.read_bytes()
    proc = tysiac("score", "--sheet", str(path), preexec_fn=_small_files)
    out, _ = proc.communicate("\n".join(DEAL_1_OTHER) + "\n", timeout=HANG)
    assert proc.returncode == 1 and out == f"Error: cannot write {path}: File too large\n"
    assert path.read_bytes() == before


def test_a_failed_save_keeps_the_deal_and_asks_for_another_file(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import tysiac_spec.commands.score as score_command

    path, other = tmp_path / "s.json", tmp_path / "elsewhere.json"
    CliRunner().invoke(main, ["score", "pl-standard", "--sheet", str(path)], input="quit\n")
    real = score_command.write_versioned

    def full(target: Path, text: str, *, expected: str | None) -> str:
        if Path(target) == path:
            raise SaveError(f"cannot write {target}: No space left on device")
        return real(target, text, expected=expected)

    monkeypatch.setattr(score_command, "write_versioned", full)
    monkeypatch.setattr(score_command, "check_writable", lambda *a: None)  # full only after the check
    answers = [*DEAL_1, "", str(path), str(other), "quit"]  # again; an existing file; a new one
    result = CliRunner().invoke(main, ["score", "--sheet", str(path)], input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.count(f"not saved: cannot write {path}: No space left on device") == 2
    assert (f"the sheet and its last deal are kept: type another file to save it to (empty: try {path} "
            "again; `quit`: stop without saving)") in out
    assert f"{path} exists; give a new file" in out
    assert out.splitlines()[-1] == f"sheet saved to {other}"
    assert "totals: P0 10  P1 −150  P2 0" in out  # the result is shown once it is saved
    assert json.loads(other.read_text(encoding="utf-8"))["deals"][0]["contract"] == 150
    assert json.loads(path.read_text(encoding="utf-8"))["deals"] == []
    # giving up: the exit status says the sheet is not saved
    result = CliRunner().invoke(main, ["score", "--sheet", str(path)], input="\n".join([*DEAL_1, "quit"]) + "\n")
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == "the sheet's last changes are NOT saved (no file could be written)"


# --------------------------------------------------------------------------- item 15: names


@pytest.mark.parametrize(("names", "problem"), [
    (["2", "Ola", "Ela"], "`2` looks like a seat number; choose another name"),
    (["Ala", "P0", "Ela"], "`P0` looks like a seat number; choose another name"),
    (["Ala", "Ola", "ala"], "`ala` is given twice"),
])
def test_names_in_a_sheet_file_are_checked_as_names_are(tmp_path: Path, names: list[str], problem: str) -> None:
    path = tmp_path / "s.json"
    text = Sheet(ruleset="pl-standard", players=3, names=names).to_json()
    with pytest.raises(EntryError) as info:
        Sheet.from_json(text, name=str(path))
    assert info.value.diagnostic.message == f"{path} is malformed: in `names`, {problem}"
    given = CliRunner().invoke(main, ["score", "pl-standard", "--sheet", str(tmp_path / "new.json"),
                                      "--names", ",".join(names)], input="quit\n")
    assert given.exit_code == 2 and f"Invalid value for --names: {problem}" in given.output


# --------------------------------------------------------------------------- item 12: rules change

HOUSE = "id: my-house\nkind: house\nextends: pl-standard\nname: {en: My house}\n"


def _score(path: Path, *answers: str, ruleset: tuple[str, ...] = ()) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["score", *ruleset, "--sheet", str(path)], input="\n".join(answers) + "\n")
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def test_a_sheet_goes_on_under_changed_rules_from_its_next_deal(tmp_path: Path) -> None:
    house, path = tmp_path / "house.yaml", tmp_path / "s.json"
    house.write_text(HOUSE, encoding="utf-8")
    status, _ = _score(path, *DEAL_1, *DEAL_1_OTHER, "quit", ruleset=(str(house),))
    assert status == 0
    # a new name changes the ruleset's hash, not what scores: the sheet reopens as it was
    house.write_text(HOUSE.replace("My house", "Our house"), encoding="utf-8")
    status, out = _score(path, "quit")
    assert status == 0 and "(2 deals)" in out and out.splitlines()[-1] == f"no change; the sheet is in {path}"
    # the target lowered to 300: asked; no keeps the sheet as it is
    house.write_text(HOUSE + "match:\n  target: {value: 300, reason: House.}\n  finishing: {cap: 290}\n", encoding="utf-8")
    before = path.read_bytes()
    question = (f"the rules of `my-house` changed (match) since {path} was last saved; go on under the new "
                "rules from deal 3, the 2 deal(s) scored so far keeping their scores? (y/n, empty: n): ")
    result = CliRunner().invoke(main, ["score", "--sheet", str(path)], input="n\n")
    assert result.exit_code == 1
    assert result.stdout == question + "n\n"
    assert result.stderr.startswith(f"error[entry.sheet]: the rules of `my-house` changed (match) since {path} "
                                    "was last saved (ruleset hash ")
    assert path.read_bytes() == before
    # quit, as at every other question: stops, the sheet unchanged
    result = CliRunner().invoke(main, ["score", "--sheet", str(path)], input="quit\n")
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == question + f"quit\nstopped: {path} is not changed\n"
    assert path.read_bytes() == before
    # yes: deals 1 and 2 keep their scores, the change is written at once, deal 3 ends the match at 300
    status, out = _score(path, "y", "undo", "2", "100", "", "0 20 100", "")
    assert status == 0, out
    assert "deal 2 was scored under the earlier rules; it cannot be removed now" in out
    assert "totals: P0 30  P1 −100  P2 220" in out  # not over: 220 < 300
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["carried"]["scores"] == [[10, -150, 0], [30, -120, 120]]
    assert data["carried"]["state"]["scores"] == [30, -120, 120] and data["carried"]["state"]["dealer"] == 2
    assert data["settled"]["scores"][-1] == [30, -100, 220]
    status, out = _score(path, "2", "100", "", "0 20 100", "")
    assert "match over: P2 wins" in out  # 320 >= the new target 300 (the old one was 1000)
    rows = [line for line in out.splitlines() if line.startswith("│ 2 ")]
    assert "the rules changed after this deal" in rows[0]


def test_a_sheet_written_before_totals_were_kept_cannot_be_carried_over(tmp_path: Path) -> None:
    house, path = tmp_path / "house.yaml", tmp_path / "s.json"
    house.write_text(HOUSE, encoding="utf-8")
    _score(path, *DEAL_1, "quit", ruleset=(str(house),))
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["settled"], data["rules_hash"]  # as an older tysiac wrote it
    path.write_text(json.dumps(data), encoding="utf-8")
    house.write_text(HOUSE + "match:\n  target: {value: 300, reason: House.}\n  finishing: {cap: 290}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["score", "--sheet", str(path)], input="y\n")
    assert result.exit_code == 1
    assert (f"since {path} was last saved (ruleset hash {data['content_hash'][:12]} on the sheet" in result.stderr)
    assert result.stderr.splitlines()[0].endswith(
        "; the sheet holds no totals of all its deals under the earlier rules (it was written by an older "
        "tysiac, or edited since)")


def test_the_options_message_names_the_option_that_differs(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    _score(path, "quit", ruleset=("pl-standard", "-O", "five_rounds=up"))
    result = CliRunner().invoke(main, ["score", "pl-standard", "-O", "five_rounds=down", "--sheet", str(path)])
    assert result.exit_code == 1
    assert result.stderr == (f"error[entry.sheet]: {path} was started with -O five_rounds=up, not "
                             "-O five_rounds=down; options cannot change\n")


@pytest.mark.slow  # about 1 s of CPU (quick-loop budget, issue 25)
def test_a_huge_sparse_file_is_not_read_through_for_its_version(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    with open(path, "wb") as fh:
        fh.truncate(10**12)  # a terabyte of holes: hashing it would take hours
    version = file_version(path)
    assert version.startswith("stat:1000000000000:")
    result = subprocess.run([sys.executable, "-m", "tysiac_spec", "score", "--sheet", str(path)], input="",
                            capture_output=True, text=True, cwd=ROOT, env=ENV, timeout=HANG)
    assert result.returncode == 1
    assert "error[limit.sheet_bytes]" in result.stderr and "Traceback" not in result.stderr


def test_a_killed_saves_temporary_file_is_removed_by_the_next_save(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    old, fresh, other = tmp_path / ".s.json.abc123.tmp", tmp_path / ".s.json.def456.tmp", tmp_path / ".t.json.1.tmp"
    for tmp in (old, fresh, other):
        tmp.write_text("half a sheet", encoding="utf-8")
    os.utime(old, (1, 1))  # left by a save killed long ago
    os.utime(other, (1, 1))  # another file's
    write_versioned(path, "{}\n", expected="")
    assert sorted(p.name for p in tmp_path.iterdir()) == [fresh.name, other.name, "s.json"]
