"""`tysiac score`: the real-table scoresheet — parsing, rejections, one scoresheet per shipped
ruleset with its special rules (totals worked out by hand from the sources), undo, and a
sheet that survives its process being killed between two deals."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tysiac_spec import load_ruleset
from tysiac_spec.cli import main
from tysiac_spec.errors import EntryError, LimitError
from tysiac_spec.scoresheet import (
    DealEntry,
    Sheet,
    parse_marriages,
    questions,
    settle_sheet,
    start_state,
)

ROOT = Path(__file__).resolve().parents[1]


def score(tmp_path: Path, ruleset: str, deals: list[list[str]], *args: str) -> tuple[str, dict]:
    """Run `tysiac score` with the deals' answers on stdin; the output and the saved sheet."""
    sheet = tmp_path / "sheet.json"
    lines = [line for deal in deals for line in deal]
    result = CliRunner().invoke(
        main, ["score", ruleset, "--sheet", str(sheet), *args], input="\n".join(lines) + "\n"
    )
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code == 0, result.output
    return result.output, json.loads(sheet.read_text(encoding="utf-8"))


def totals(out: str) -> list[str]:
    """Every `totals:` line printed, in order."""
    return [line for line in out.splitlines() if line.startswith("totals:")]


# --------------------------------------------------------------------------- entry checks


def _questions(ruleset: str, **options: str):  # type: ignore[no-untyped-def]
    rules = load_ruleset(ruleset, options=options)
    form = rules.form(3)
    sheet = Sheet(ruleset=ruleset, players=3)
    return {q.key: q for q in questions(rules, form, sheet, 0, start_state(rules, form, sheet))}


def test_impossible_entries_are_rejected_with_the_reason() -> None:
    qs = _questions("pl-standard")
    with pytest.raises(EntryError, match=r"card points must add up to the deck total 120 \(got 110\)"):
        qs["points"].parse("50 40 20", {})
    with pytest.raises(EntryError, match="give the card points of 3 players, in the order P0 P1 P2"):
        qs["points"].parse("60 60", {})
    with pytest.raises(EntryError, match="the contract 110 is below the bid 120"):
        qs["contract"].parse("110", {"bid": 120})
    with pytest.raises(EntryError, match="a raised contract is a multiple of 10"):
        qs["contract"].parse("125", {"bid": 120})
    assert qs["contract"].parse("", {"bid": 120}) == 120
    with pytest.raises(EntryError, match="bids are multiples of 10"):
        qs["bid"].parse("105", {})
    with pytest.raises(EntryError, match="no bid above 360 in this game"):
        qs["bid"].parse("370", {})
    with pytest.raises(EntryError) as info:
        qs["declarer"].parse("5", {})
    assert info.value.diagnostic.message == "`5` is not a player: give a seat 0 to 2, counting from 0"
    with pytest.raises(EntryError) as info:
        qs["declarer"].parse("²", {})  # a digit int() does not take: refused, not a traceback
    assert info.value.diagnostic.message == "`²` is not a player: give a seat 0 to 2, counting from 0"
    rules = load_ruleset("pl-standard")
    form = rules.form(3)
    with pytest.raises(EntryError, match="the hearts marriage is counted twice"):
        parse_marriages("1:H 2:♥", form, rules.deck, 3)
    with pytest.raises(EntryError, match="this ruleset has no ace marriage"):
        parse_marriages("1:A", form, rules.deck, 3)
    assert parse_marriages("1:H 2:spades", form, rules.deck, 3) == ((1, "hearts"), (2, "spades"))
    # ru-online: bids in fives up to 420 (S002), a player with no trick has no card points
    ru = _questions("ru-online")
    assert ru["bid"].parse("105", {}) == 105
    with pytest.raises(EntryError, match="P2 has 20 card points, so took a trick"):
        ru["no_trick"].parse("2", {"points": (40, 60, 20), "marriages": ()})


def test_sheet_json_round_trip_and_version_check(tmp_path: Path) -> None:
    sheet = Sheet(ruleset="pl-standard", players=3, names=["Ala", "Ola", "Ela"])
    sheet.deals.append(DealEntry(0, 1, 100, 120, (20, 80, 20), ((1, "spades"),)))
    again = Sheet.from_json(sheet.to_json())
    assert again == sheet
    bad = json.loads(sheet.to_json())
    bad["version"] = 99
    with pytest.raises(EntryError, match="has scoresheet version 99; this tool reads 1"):
        Sheet.from_json(json.dumps(bad), name="x.json")
    rules = load_ruleset("pl-standard")
    [row] = settle_sheet(rules, rules.form(3), again)
    # S000: 80 + 40 = 120 makes 120; defenders' 20 and 20 stand
    assert row.scores == (20, 120, 20)


def test_a_redeal_passes_the_deal_on_in_the_sheet() -> None:
    # examples/house/redeal-passes-on.yaml (`deal.redeal_dealer: next`): a sheet deal written
    # after one abandoned deal is dealt by the player after the due dealer, and the deal
    # after it by the next one; the sheet asks the engine (seating.redeal_dealer).
    house = Path(__file__).parent.parent / "examples" / "house" / "redeal-passes-on.yaml"
    rules = load_ruleset(str(house))
    sheet = Sheet(ruleset=str(house), players=3)
    sheet.deals.append(DealEntry(1, 2, 100, 100, (10, 10, 100), redeals=1))
    sheet.deals.append(DealEntry(2, 0, 100, 100, (100, 10, 10)))
    again = Sheet.from_json(sheet.to_json())
    assert again == sheet and json.loads(sheet.to_json())["deals"][0]["redeals"] == 1
    rows = settle_sheet(rules, rules.form(3), again)
    assert [r.scores for r in rows] == [(10, 10, 100), (110, 20, 110)]
    assert rows[-1].state.dealer == 0
    wrong = Sheet(ruleset=str(house), players=3, deals=[DealEntry(0, 2, 100, 100, (10, 10, 100), redeals=1)])
    with pytest.raises(EntryError, match=r"deal 1: the dealer is 0, but player 1 deals this deal after 1 redeal"):
        settle_sheet(rules, rules.form(3), wrong)
    # ru-classic: the same dealer deals again after a redeal.
    parent = load_ruleset("ru-classic")
    with pytest.raises(EntryError, match=r"the dealer is 1, but player 0 deals this deal after 1 redeal"):
        settle_sheet(parent, parent.form(3), sheet)


# --------------------------------------------------------------------------- one sheet per ruleset
#
# Seats: P0 P1 P2; deal k is dealt by P(k-1 mod 3).  Each deal is the list of answers to the
# questions the ruleset asks: declarer, [golden], [dark], bid, [rospis/bomb], [contract],
# card points (P0 P1 P2), marriages, [players without a trick].


def test_pl_standard_sheet(tmp_path: Path) -> None:
    out, sheet = score(tmp_path, "pl-standard", [
        # S000: 147 does not make 150 (no rounding for the declarer): P1 -150; defenders
        # rounded to tens, a 5 down (option five_rounds=down): 8 -> 10, 5 -> 0
        ["1", "100", "150", "8 107 5", "1:S"],
        # 24 -> 20, 26 -> 30 (S000's own examples); P2 makes 120 with 70 + hearts 100
        ["2", "110", "120", "24 26 70", "2:H"],
        # P0 takes every trick with hearts and diamonds: 120 + 180 = 300
        ["0", "120", "300", "120 0 0", "0:H 0:D"],
        ["0", "120", "300", "120 0 0", "0:H 0:D"],
        ["0", "120", "300", "120 0 0", "0:H 0:D"],
        # P0 at 930 as a defender would pass 1000 (75 -> 80): only the declarer may finish,
        # he is written 990 (S000); P2's 15 rounds down to 10
        ["1", "100", "", "76 29 15", ""],
        # P0 declares and finishes (110 makes 110)
        ["0", "100", "110", "110 5 5", ""],
    ])
    assert "rejected" not in out
    assert totals(out) == [
        "totals: P0 10  P1 −150  P2 0",
        "totals: P0 30  P1 −120  P2 120",
        "totals: P0 330  P1 −120  P2 120",
        "totals: P0 630  P1 −120  P2 120",
        "totals: P0 930  P1 −120  P2 120",
        "totals: P0 990  P1 −220  P2 130",
        "totals: P0 1100  P1 −220  P2 130",
    ]
    assert "P0: only the declarer may finish: 1010 → 990" in out
    assert "match over: P0 wins" in out
    assert len(sheet["deals"]) == 7


def test_house_five_up_sheet(tmp_path: Path) -> None:
    # house rules: a defender's 5 rounds up (25 -> 30, 35 -> 40, 5 -> 10), otherwise S000
    out, _ = score(tmp_path, "house-five-up", [
        ["1", "100", "", "25 80 15", ""],  # 80 < 100: -100; 25 -> 30, 15 -> 20
        ["2", "100", "", "35 45 40", ""],  # 40 < 100: -100; 35 -> 40, 45 -> 50
        ["0", "100", "120", "65 25 30", "0:S"],  # 65 + 40 = 105 < 120: -120; 25 -> 30
        ["1", "100", "", "5 100 15", ""],  # 100 makes 100; 5 -> 10, 15 -> 20
        ["2", "100", "", "45 55 20", "2:D"],  # 20 + 80 = 100 makes 100; 45 -> 50, 55 -> 60
    ])
    assert "rejected" not in out
    assert totals(out) == [
        "totals: P0 30  P1 −100  P2 20",
        "totals: P0 70  P1 −50  P2 −80",
        "totals: P0 −50  P1 −20  P2 −50",
        "totals: P0 −40  P1 80  P2 −30",
        "totals: P0 10  P1 140  P2 70",
    ]


def test_pl_tysiac_hd_sheet(tmp_path: Path) -> None:
    # S001: defenders are not rounded; at most 300 with 3 players; from 800 on (800 included)
    # a player scores only in deals he declared
    out, _ = score(tmp_path, "pl-tysiac-hd", [
        ["0", "310", "120", "300", "120 0 0", "0:H 0:D"],  # 310 rejected, then 120 raised to 300
        ["0", "120", "300", "120 0 0", "0:H 0:D"],
        ["0", "120", "200", "100 15 5", "0:H"],  # P0 reaches exactly 800
        ["1", "120", "", "40 50 30", ""],  # P1 fails; P0's 40 is not scored (800 rule)
        ["2", "110", "", "25 15 80", "2:S"],  # P2 makes 110 with 120; P0's 25 not scored
        ["0", "120", "200", "100 10 10", "0:H"],  # P0 declares and reaches 1000
    ])
    assert "rejected: no bid above 300 in this game (got 310)" in out
    assert out.count("rejected") == 1
    assert totals(out) == [
        "totals: P0 300  P1 0  P2 0",
        "totals: P0 600  P1 0  P2 0",
        "totals: P0 800  P1 15  P2 5",
        "totals: P0 800  P1 −105  P2 35",
        "totals: P0 800  P1 −90  P2 145",
        "totals: P0 1000  P1 −80  P2 155",
    ]
    assert "P0: at 800 (the 800 rule): +40 not scored" in out
    assert "match over: P0 wins" in out


def test_pl_online_sheet(tmp_path: Path) -> None:
    # S004: defenders rounded to tens; only *above* 800 does a defender stop scoring
    out, _ = score(tmp_path, "pl-online", [
        ["0", "120", "300", "120 0 0", "0:H 0:D"],
        ["0", "120", "300", "120 0 0", "0:H 0:D"],
        ["0", "120", "200", "100 15 5", "0:H"],  # 15 -> 10, 5 -> 0
        ["1", "120", "", "40 50 30", ""],  # P0 at exactly 800 still scores his 40
        ["2", "110", "", "25 15 80", "2:S"],  # P0 at 840: 25 -> 20 not scored
        ["0", "120", "160", "120 0 0", "0:S"],
    ])
    assert "rejected" not in out
    assert totals(out) == [
        "totals: P0 300  P1 0  P2 0",
        "totals: P0 600  P1 0  P2 0",
        "totals: P0 800  P1 10  P2 0",
        "totals: P0 840  P1 −110  P2 30",
        "totals: P0 840  P1 −100  P2 140",
        "totals: P0 1000  P1 −100  P2 140",
    ]
    assert "P0: at 840 (the 800 rule): +20 not scored" in out


def test_cz_standard_sheet(tmp_path: Path) -> None:
    # S003: one bomb per player, only on the compulsory 100: the bomber scores nothing, each
    # other player 60; defenders rounded up to fives; the 800 rule (800 included), which is
    # assumed to freeze a bomb's 60 too
    out, sheet = score(tmp_path, "cz-standard", [
        ["1", "100", "y"],  # P1's bomb
        ["0", "100", "n", "120", "90 21 9", "0:S"],  # 90 + 40 makes 120; 21 -> 25, 9 -> 10
        ["1", "100", "y", "cancel"],  # P1's second bomb: rejected at the question, the deal cancelled
        ["0", "120", "300", "120 0 0", "0:H 0:D"],
        ["0", "120", "300", "120 0 0", "0:H 0:D"],
        ["0", "120", "", "20 50 50", "0:H"],  # P0 at 900
        ["2", "100", "y"],  # P2's bomb: P0's 60 is frozen by the 800 rule
        ["0", "100", "n", "", "100 10 10", ""],
    ])
    assert "rejected: P1 has used all 1 forfeit(s) the table allows" in out
    assert out.count("rejected") == 1
    assert totals(out) == [
        "totals: P0 60  P1 0  P2 60",
        "totals: P0 180  P1 25  P2 70",
        "totals: P0 480  P1 25  P2 70",
        "totals: P0 780  P1 25  P2 70",
        "totals: P0 900  P1 75  P2 120",
        "totals: P0 900  P1 135  P2 120",
        "totals: P0 1000  P1 145  P2 130",
    ]
    assert [d["forfeit"] for d in sheet["deals"]] == [True, False, False, False, False, True, False]


def test_ru_classic_sheet(tmp_path: Path) -> None:
    # pagat (PAGx2/PAGx3, RH1): Rospisat' gives each opponent 60, the first two are free and
    # the third costs (120, assumed); defenders rounded to the nearest 5; three zero scores
    # cost 120 (assumed amount); nobody stands between 880 and 1000 (the barrel at 880)
    out, _ = score(tmp_path, "ru-classic", [
        ["1", "100", "y"],
        ["1", "100", "y"],
        ["1", "100", "y"],  # third rospis: -120
        ["2", "120", "n", "300", "0 0 120", "2:H 2:D"],  # P0, P1: zero points (1)
        ["2", "120", "n", "300", "0 0 120", "2:H 2:D"],  # zero points (2)
        ["2", "120", "n", "", "20 0 100", "2:S"],  # P2 900 -> 880, on the barrel; P1's third zero
        ["0", "120", "n", "", "90 7 23", "0:C"],  # 7 -> 5; P2's first attempt fails (free)
        ["2", "120", "n", "", "0 0 120", ""],  # P2 makes 120 from the barrel; P0's third zero
    ])
    assert "rejected" not in out
    assert totals(out) == [
        "totals: P0 60  P1 0  P2 60",
        "totals: P0 120  P1 0  P2 120",
        "totals: P0 180  P1 −120  P2 180",
        "totals: P0 180  P1 −120  P2 480",
        "totals: P0 180  P1 −120  P2 780",
        "totals: P0 200  P1 −240  P2 880",
        "totals: P0 320  P1 −235  P2 880",
        "totals: P0 200  P1 −235  P2 1000",
    ]
    assert "P2: 900 → 880 (barrel-floor)" in out
    assert "P2: on the barrel at 880" in out
    assert "P2: on the barrel: attempt 1 of 3 failed (+25 not scored)" in out
    assert "bolts: P0 2, P1 3; forfeits: P1 3; on the barrel: P2 (1 of 3 attempts used)" in out
    assert "P1: third bolt −120" in out
    assert "match over: P2 wins" in out


def test_ru_online_sheet(tmp_path: Path) -> None:
    # S002: a golden round of three deals opens the match (120 each, everything doubled, a
    # rospis worth 120 to each opponent); the dark game (120, doubled; a dark bolt counts
    # double; not with a negative score); rospis: minus the contract, 60 to each opponent;
    # samosval: 555 -> 0; bolts (no trick): every third costs 120; no rounding
    out, _ = score(tmp_path, "ru-online", [
        ["1", "", "n", "25 80 15", "1:H", ""],  # golden: P1 makes 180 >= 120: +240
        ["2", "y", "n", "40 30 50", "", ""],  # golden: P2 fails: -240
        ["0", "", "y"],  # golden rospis: -240, +120 each
        ["1", "y", "n", "20 100 0", "1:S", "2"],  # dark (P1 first hand): +240; P2's dark bolt counts 2
        ["2", "y", "cancel"],  # P2, first hand, negative: no dark game; the deal is cancelled
        ["1", "105", "n", "", "75 45 0", "", "2"],  # P1 not first hand: no dark question;
        # 660 - 105 = 555 -> 0 (samosval); P2's third bolt
    ])
    assert "rejected: P2 has a negative score: no dark game" in out
    assert "deal cancelled; nothing saved for it" in out
    assert out.count("rejected") == 1
    assert totals(out) == [
        "totals: P0 50  P1 240  P2 30",
        "totals: P0 130  P1 300  P2 −210",
        "totals: P0 −110  P1 420  P2 −90",
        "totals: P0 −70  P1 660  P2 −90",
        "totals: P0 5  P1 0  P2 −210",
    ]
    assert "── deal 3 (dealer P2, golden round: deal 3 of 3) ──" in out
    assert "golden deal: points ×2" in out
    assert "dark deal: points ×2" in out
    assert "P1: 555 → 0 (samosval)" in out
    assert "P2: third bolt −120" in out


def test_ru_online_barrel_deal_at_121_is_accepted(tmp_path: Path) -> None:
    # S002: at 880 or more a player is on the barrel; no auction for him, he must make 121
    # in one deal (bids otherwise in fives). The sheet takes the engine's deal: the player
    # on the barrel declares, at the goal 121, not raised (issue 26, item 8).
    out, _ = score(tmp_path, "ru-online", [
        ["1", "300", "n", "", "0 120 0", "1:H 1:D"],
        ["1", "300", "n", "", "0 120 0", "1:H 1:D"],
        ["1", "300", "n", "", "0 120 0", "1:H 1:D"],  # P1 900: on the barrel
        ["0", "1", "125", "120", "121", "n", "0 120 0", "1:H"],  # P1's barrel deal at 121
    ], "-O", "golden_round=false", "-O", "dark_game=false", "-O", "bolts=false")
    assert "rejected: P1 is on the barrel and takes this deal without an auction, not P0" in out
    assert ("rejected: a deal on the barrel is played at the barrel's goal, 121, without an "
            "auction (got 125)") in out
    assert "(got 120)" in out and out.count("rejected") == 3
    assert "contract (empty: the bid)" not in out.split("deal 4 (")[1]
    assert totals(out)[-1] == "totals: P0 0  P1 1021  P2 0"
    assert "P1: on the barrel: made 121 of 121" in out


def test_house_ru_no_barrel_sheet(tmp_path: Path) -> None:
    # house rules on S002: the ace marriage (200), no barrel at 880, no samosval at 555
    out, _ = score(tmp_path, "house-ru-no-barrel", [
        ["1", "n", "100", "n", "320", "0 120 0", "1:A", "0 2"],  # 120 + 200 makes 320
        # from deal 2 on the declarer is not the first hand: no dark question
        ["1", "100", "n", "235", "50 35 35", "1:A", ""],  # 555 stays 555
        ["1", "100", "n", "345", "10 105 5", "1:A 1:S", ""],  # 900: no barrel
        ["0", "100", "n", "", "100 20 0", "", "2"],  # P1 scores at 900
        ["1", "100", "n", "", "10 100 10", "", ""],  # 1020 >= 1001
    ], "-O", "golden_round=false")
    assert "rejected" not in out
    assert totals(out) == [
        "totals: P0 0  P1 320  P2 0",
        "totals: P0 50  P1 555  P2 35",
        "totals: P0 60  P1 900  P2 40",
        "totals: P0 160  P1 920  P2 40",
        "totals: P0 170  P1 1020  P2 50",
    ]
    assert "(samosval)" not in out and "on the barrel" not in out
    assert "match over: P1 wins" in out


# --------------------------------------------------------------------------- undo, reopen, kill


PL_DEALS = [
    ["1", "100", "150", "8 107 5", "1:S"],
    ["2", "110", "120", "24 26 70", "2:H"],
    ["0", "100", "", "60 40 20", ""],  # 60 < 100: P0 -100
]


def test_undo_flag_and_command_and_reopen(tmp_path: Path) -> None:
    out, sheet = score(tmp_path, "pl-standard", PL_DEALS)
    assert totals(out)[-1] == "totals: P0 −70  P1 −80  P2 140"
    assert len(sheet["deals"]) == 3
    # --undo removes the last deal and saves; the sheet is reopened from the file
    out, sheet = score(tmp_path, "pl-standard", [], "--undo")
    assert "removed deal 3" in out
    assert totals(out) == ["totals: P0 30  P1 −120  P2 120"]
    assert len(sheet["deals"]) == 2
    # the `undo` command at the declarer question, then deal 2 entered again differently
    out, sheet = score(tmp_path, "pl-standard", [["undo"], ["2", "110", "", "24 26 70", ""]])
    assert "removed deal 2" in out
    assert totals(out) == ["totals: P0 10  P1 −150  P2 0", "totals: P0 30  P1 −120  P2 −110"]
    assert [d["declarer"] for d in sheet["deals"]] == [1, 2]


def test_reopening_checks_ruleset_players_and_hash(tmp_path: Path) -> None:
    score(tmp_path, "pl-standard", PL_DEALS[:1])
    path = tmp_path / "sheet.json"
    runner = CliRunner()
    result = runner.invoke(main, ["score", "cz-standard", "--sheet", str(path)], input="")
    assert result.exit_code == 1
    assert f"error[entry.sheet]: {path} is a sheet for `pl-standard`, not `cz-standard`" in result.stderr
    result = runner.invoke(main, ["score", "pl-standard", "--players", "2", "--sheet", str(path)], input="")
    assert result.exit_code == 1
    assert "is a sheet for 3 players, not 2" in result.stderr
    data = json.loads(path.read_text(encoding="utf-8"))
    data["content_hash"] = "0123456789abcdef"  # the ruleset's text changed, what scores did not
    path.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(main, ["score", "pl-standard", "--sheet", str(path)], input="")
    assert result.exit_code == 0 and "(1 deal)" in result.output
    data["rules_hash"]["scoring"] = "0123456789abcdef"  # what scores changed too
    path.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(main, ["score", "pl-standard", "--sheet", str(path)], input="")
    assert result.exit_code == 1
    assert f"the rules of `pl-standard` changed (scoring) since {path} was last saved" in result.stderr
    assert "(ruleset hash 0123456789ab on the sheet" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.slow  # about half a second of CPU (quick-loop budget, issue 25)
def test_killed_between_deals_loses_nothing(tmp_path: Path) -> None:
    """A real `tysiac score` process is killed (SIGKILL) after two deals, in the middle of
    entering the third; reopening the sheet finds both deals, and the match goes on."""
    path = tmp_path / "sheet.json"
    proc = subprocess.Popen(
        [sys.executable, "-u", "-m", "tysiac_spec", "score", "pl-standard", "--sheet", str(path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("\n".join([*PL_DEALS[0], *PL_DEALS[1], "0", "110"]) + "\n")
    proc.stdin.flush()
    saved = 0
    seen: list[str] = []
    while True:  # read until deal 3's bid has been taken: deals 1 and 2 are on disk
        line = proc.stdout.readline()
        assert line, "".join(seen)
        seen.append(line)
        saved += line.startswith("sheet saved to")
        if saved == 2 and "bid: 110" in line:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL
    data = json.loads(path.read_text(encoding="utf-8"))
    assert [d["declarer"] for d in data["deals"]] == [1, 2]
    out, sheet = score(tmp_path, "pl-standard", [PL_DEALS[2]])
    assert "(2 deals)" in out
    assert totals(out) == ["totals: P0 −70  P1 −80  P2 140"]
    assert len(sheet["deals"]) == 3


def test_pl_standard_four_players_sitter(tmp_path: Path) -> None:
    # 4 players: the dealer sits out and scores 50 per ace in the musik plus a marriage lying
    # in it (KRO, ZAG; pl-standard's assumed 4-player rules); names may be used
    out, sheet = score(tmp_path, "pl-standard", [
        ["Ola", "100", "", "60 40 20", "", "AH KH QH"],  # Ala sits: 50 + 100
        ["2", "110", "120", "25 80 15", "2:D", "AS AC 9D"],  # Ola sits: 2 aces, 100
        ["2", "3", "100", "", "30 30 60", "2:S", "3:S", "9H 9S JD"],  # Ela sits: rejected twice
    ], "--players", "4", "--names", "Ala,Ola,Ela,Iza")
    assert out.count("rejected: Ela sits out this deal") == 1
    assert out.count("rejected: marriage points given for Ela, who does not play the deal") == 1
    assert totals(out) == [
        "totals: Ala 150  Ola −100  Ela 40  Iza 20",
        "totals: Ala 170  Ola 0  Ela 160  Iza 30",
        "totals: Ala 200  Ola 30  Ela 160  Iza 130",
    ]
    assert sheet["names"] == ["Ala", "Ola", "Ela", "Iza"]
    assert [d["dealer"] for d in sheet["deals"]] == [0, 1, 2]


@pytest.mark.parametrize(
    ("ruleset", "options"),
    [
        ("pl-standard", {}),
        ("pl-standard", {"four_player_sitter": "last_bidder"}),
        ("ru-classic", {"four_player_sitter": "opposite_dealer"}),
        ("ru-classic", {"four_player_sitter": "dealer_right"}),
    ],
)
def test_sheet_sitter_is_the_engines(ruleset: str, options: dict[str, str]) -> None:
    from tysiac_spec.engine import Game
    from tysiac_spec.scoresheet import sitter_of

    rules = load_ruleset(ruleset, options=options)
    for seed in range(4):
        game = Game(rules, players=4, seed=seed)
        assert sitter_of(rules.form(4), game.deal.dealer) == game.deal.sitter


# --------------------------------------------------------------------------- hand-edited sheets


def _sheet_file(tmp_path: Path, edit) -> tuple[Path, bytes]:  # type: ignore[no-untyped-def]
    """A one-deal pl-standard sheet (S000: P1 makes 120 with 80 + the hearts 100), edited."""
    sheet = Sheet(ruleset="pl-standard", players=3, content_hash=load_ruleset("pl-standard").content_hash)
    sheet.deals.append(DealEntry(0, 1, 120, 120, (20, 80, 20), ((1, "hearts"),)))
    data = json.loads(sheet.to_json())
    edit(data)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path, path.read_bytes()


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d["deals"][0].update(bid=True), "edited.json is malformed: deal 1: `bid` must be a whole number (got true)"),
        (lambda d: d["deals"][0].update(points="x"), "deal 1: `points` must be a list (got a text)"),
        (lambda d: d["deals"][0].update(bogus=1), "deal 1: unknown key `bogus` in a deal"),
        (lambda d: d["deals"].__setitem__(0, None), "deal 1: a deal must be a JSON object (got null)"),
        (lambda d: d.update(deals={}), "`deals` must be a list (got an object)"),
        (lambda d: d.update(names=["Ala", "Ola"]), "2 names for 3 players"),
        (lambda d: d.update(first_dealer=9), "`first_dealer` must be 0 to 2 (got 9)"),
        (lambda d: d["deals"][0].update(marriages=[[1, "hearts"], [1, "hearts"]]),
         "deal 1: the hearts marriage is counted twice"),
        (lambda d: d["deals"][0].update(dealer=2), "deal 1: the dealer is 2, but player 0 deals this deal"),
        (lambda d: d["deals"][0].update(declarer=7), "deal 1: the declarer 7 is not at the table (players 0..2)"),
        (lambda d: d["deals"][0].update(mode="weird"), "deal 1: the mode `weird` is not one of normal, dark"),
        (lambda d: d["deals"][0].update(bid=-100), "deal 1: the bid must not be negative (got -100)"),
        (lambda d: d["deals"][0].update(points=[50, 50, 50]),
         "deal 1: card points must add up to the deck total 120 (got 150)"),
        (lambda d: d["deals"][0].update(contract=100), "deal 1: the contract 100 is below the bid 120"),
        (lambda d: d["deals"][0].update(no_trick=[9]), "deal 1: player 9 in `no_trick` does not play"),
        (lambda d: d.update(players=5), "cannot be reopened: ruleset `pl-standard` has no 5-player form"),
    ],
)
def test_a_hand_edited_sheet_is_refused_with_the_deal_and_the_reason(
    tmp_path: Path, edit, message: str  # type: ignore[no-untyped-def]
) -> None:
    path, before = _sheet_file(tmp_path, edit)
    result = CliRunner().invoke(main, ["score", "pl-standard", "--sheet", str(path)], input="quit\n")
    assert result.exit_code == 1
    assert message in result.output
    assert "Traceback" not in result.output
    assert path.read_bytes() == before  # never rewritten


def test_a_sheet_that_is_not_utf8_is_refused_without_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "binary.json"
    path.write_bytes(b"\xff\xfe{")
    result = CliRunner().invoke(main, ["score", "pl-standard", "--sheet", str(path)], input="quit\n")
    assert result.exit_code == 1
    assert result.output == f"{path}: error[entry.sheet]: not a scoresheet: the file is not UTF-8 text (byte 0)\n"
    assert path.read_bytes() == b"\xff\xfe{"


def test_the_deal_count_is_singular_for_one_deal(tmp_path: Path) -> None:
    path, _ = _sheet_file(tmp_path, lambda d: None)
    result = CliRunner().invoke(main, ["score", "pl-standard", "--sheet", str(path)], input="quit\n")
    assert f"pl-standard, 3 players; sheet {path} (1 deal)\n" in result.output


def test_in_a_golden_deal_only_the_first_hand_declares(tmp_path: Path) -> None:
    # ru-online (S002): in each golden deal the player after the dealer plays 120 (the engine's
    # auction.py does the same); deal 2 is dealt by P1, so P2 is the first hand, not P1.
    out, data = score(tmp_path, "ru-online", [
        ["1", "", "n", "0 100 20", "", ""],            # deal 1: dealer P0, P1 plays 120 and fails
        ["1", "", "n", "cancel"],                     # deal 2: dealer P1: P1 is not the first hand
    ])
    assert ("rejected: in a golden deal the first hand (P2) is the declarer, not P1; "
            "answer n, or `cancel` and enter the deal again") in out
    assert len(data["deals"]) == 1
    bad = json.loads(json.dumps(data))
    bad["deals"].append(dict(bad["deals"][0], dealer=1))
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    result = CliRunner().invoke(main, ["score", "ru-online", "--sheet", str(path)], input="quit\n")
    assert result.exit_code == 1
    assert "deal 2: in a golden deal the first hand (player 2) is the declarer, not player 1" in result.output
    # pl-standard has neither a dark game nor a golden round
    for mode, message in (
        ("dark", "a dark game was given, but the ruleset (with these options) has none"),
        ("golden", "a golden-round deal was given, but the ruleset (with these options) has none"),
    ):
        pl, _ = _sheet_file(tmp_path, lambda d, m=mode: d["deals"][0].update(mode=m))
        result = CliRunner().invoke(main, ["score", "pl-standard", "--sheet", str(pl)], input="quit\n")
        assert result.exit_code == 1 and f"deal 1: {message}" in result.output


def test_quit_in_the_middle_of_a_deal_stops_without_it(tmp_path: Path) -> None:
    out, data = score(tmp_path, "pl-standard", [
        ["1", "120", "", "20 80 20", "1:H"],  # S000: 80 + 100 makes 120
        ["2", "100", "quit"],
    ])
    assert "deal 2 dropped (it was not complete)" in out
    assert "rejected" not in out
    assert len(data["deals"]) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--dealer", "5"], "Invalid value for --dealer: the first dealer is a player 0 to 2 (got 5)"),
        (["--dealer", "-1"], "the first dealer is a player 0 to 2 (got -1)"),
        (["--names", "Ala,Ola,ala"], "Invalid value for --names: `ala` is given twice"),
        (["--names", "Ala,1,Ela"], "`1` looks like a seat number; choose another name"),
    ],
)
def test_a_new_sheet_refuses_a_bad_dealer_or_names(tmp_path: Path, args: list[str], message: str) -> None:
    path = tmp_path / "new.json"
    result = CliRunner().invoke(main, ["score", "pl-standard", "--sheet", str(path), *args], input="quit\n")
    assert result.exit_code == 2
    assert message in result.output
    assert not path.exists()


def test_names_for_an_existing_sheet_are_not_silently_ignored(tmp_path: Path) -> None:
    score(tmp_path, "pl-standard", [["quit"]], "--names", "Ala,Ola,Ela")
    path = tmp_path / "sheet.json"
    result = CliRunner().invoke(main, ["score", "--sheet", str(path), "--names", "X,Y,Z"], input="quit\n")
    assert result.exit_code == 2
    assert "already names the players (Ala, Ola, Ela); names are given for a new sheet only" in result.output
    same = CliRunner().invoke(main, ["score", "--sheet", str(path), "--names", "Ala,Ola,Ela"], input="quit\n")
    assert same.exit_code == 0


# --------------------------------------------------------------------------- untrusted sheets

LIMIT_HINT = "  hint: if the input is meant to be this large, raise the limit: {}=N\n"


def test_prompts_say_that_seats_count_from_0(tmp_path: Path) -> None:
    out, _ = score(tmp_path, "pl-standard", [["1", "100", "", "20 80 20", "1:H"], ["cancel"]])
    assert "declarer (seat 0 to 2, counting from 0): 1\n" in out
    assert ("marriages declared as seat:suit, seats counting from 0 (e.g. 1:H 2:D = P1 hearts, "
            "P2 diamonds; empty: none): 1:H\n") in out
    (tmp_path / "named").mkdir()  # a sheet's folder is never made for it
    out, _ = score(tmp_path / "named", "ru-online", [["Ola", "", "n", "cancel"]], "--names", "Ala,Ola,Ela")
    assert "declarer (a name, or seat 0 to 2, counting from 0): Ola\n" in out
    rules = load_ruleset("pl-standard")
    with pytest.raises(EntryError) as info:
        parse_marriages("1H", rules.form(3), rules.deck, 3)
    assert info.value.diagnostic.message == (
        "`1H` is not a marriage: write seat:suit, seats counting from 0, e.g. `1:H 2:D = P1 hearts, P2 diamonds`"
    )


def test_a_sheet_over_the_deal_limit_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path, before = _sheet_file(tmp_path, lambda d: d.update(deals=d["deals"] * 5_001))
    with pytest.raises(LimitError) as info:
        Sheet.read(path)
    assert str(info.value) == (
        f"{path}: error[limit.sheet_deals]: a scoresheet: 5,001 deals, more than the limit of 5,000"
    )
    monkeypatch.setenv("TYSIAC_MAX_SHEET_DEALS", "2")
    path, before = _sheet_file(tmp_path, lambda d: d.update(deals=d["deals"] * 3))
    result = CliRunner().invoke(main, ["score", "pl-standard", "--sheet", str(path)], input="quit\n")
    assert result.exit_code == 1
    assert result.output == (
        f"{path}: error[limit.sheet_deals]: a scoresheet: 3 deals, more than the limit of 2\n  at: deals\n"
        + LIMIT_HINT.format("TYSIAC_MAX_SHEET_DEALS")
    )
    assert path.read_bytes() == before


def test_a_sheet_over_the_size_limit_is_refused_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TYSIAC_MAX_SHEET_BYTES", "1000")
    path, before = _sheet_file(tmp_path, lambda d: d.update(deals=d["deals"] * 5))
    size = path.stat().st_size
    result = CliRunner().invoke(main, ["score", "pl-standard", "--sheet", str(path)], input="quit\n")
    assert result.exit_code == 1
    assert result.output == (
        f"{path}: error[limit.sheet_bytes]: a scoresheet: {size:,} bytes, more than the limit of 1,000\n"
        + LIMIT_HINT.format("TYSIAC_MAX_SHEET_BYTES")
    )
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"format": "tysiac-scoresheet", "version": NaN}',
         "not a scoresheet: `NaN` is not a JSON value (NaN and Infinity are refused)"),
        ('{"format": "tysiac-scoresheet", "format": "tysiac-scoresheet"}',
         "not a scoresheet: the key `format` is given twice in one object"),
        ('{"format": "tysiac-scoresheet", "version": "' + "9" * 1_000 + '"}',
         f'x.json has scoresheet version "{"9" * 60}…(+940 characters)"; this tool reads 1'),
    ],
    ids=["nan", "duplicate", "long-version"],
)
def test_sheets_that_json_would_let_through_are_refused(text: str, message: str) -> None:
    with pytest.raises(EntryError) as info:
        Sheet.from_json(text, name="x.json")
    assert info.value.diagnostic.message == message
    assert "x.json" in info.value.diagnostic.headline()  # the file is named, in front or in the message


def test_names_from_a_sheet_are_shown_with_visible_control_characters(tmp_path: Path) -> None:
    path, _ = _sheet_file(tmp_path, lambda d: d.update(names=["A\x1b[2J", "B" * 100, "C"]))
    result = CliRunner().invoke(main, ["score", "--sheet", str(path)], input="quit\n")
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output
    assert f"── deal 2 (dealer {'B' * 40}…(+60 characters)) ──\n" in result.output
    assert "┃ A\\x1b[2J ┃" in result.output
    sheet = Sheet.read(path)
    assert sheet.name(0) == "A\\x1b[2J"
    assert sheet.names[0] == "A\x1b[2J"  # the sheet keeps the name as written


def test_a_ruleset_file_beside_the_sheet_is_named_relative_and_one_outside_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "sheets"
    folder.mkdir()
    rules = folder / "mine.yaml"
    rules.write_text("id: mine\nkind: house\nextends: pl-standard\nname: {en: Mine}\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["score", "sheets/mine.yaml", "--sheet", "sheets/s.json"], input="quit\n")
    assert result.exit_code == 0, result.output
    data = json.loads((folder / "s.json").read_text(encoding="utf-8"))
    assert data["ruleset_file"] == "mine.yaml"
    monkeypatch.chdir(folder.parent.parent)  # reopened from elsewhere: found beside the sheet
    path = folder / "s.json"
    result = CliRunner().invoke(main, ["score", "--sheet", str(path)], input="quit\n")
    assert result.exit_code == 0, result.output
    for ref in ("../outside.yaml", str(rules)):
        (tmp_path / "outside.yaml").write_text(rules.read_text(encoding="utf-8"), encoding="utf-8")
        inner = folder / "inner"
        inner.mkdir(exist_ok=True)
        other = inner / "s.json"
        other.write_text(json.dumps({**data, "ruleset_file": ref}), encoding="utf-8")
        result = CliRunner().invoke(main, ["score", "--sheet", str(other)], input="quit\n")
        assert result.exit_code == 1
        assert result.output == (
            f"error[registry.outside]: {other} cannot be reopened: `{ref}` is outside the folders a file "
            "may name: a shipped ruleset id, or a file in the naming file's folder or below\n"
            "  hint: copy the file beside the one that names it, or allow its folder on the command line: "
            f"tysiac --rules-dir {folder.resolve()} ...\n"
        )
    # named by the user on the command line, the file is used wherever it is
    result = CliRunner().invoke(main, ["score", str(rules), "--sheet", str(other)], input="quit\n")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(("bid", "contract", "problem"), [
    (999999999999999999, None, "bids are multiples of 5 (got 999999999999999999)"),
    (5000, None, "no bid above 420 in this game (got 5000)"),
    (123, None, "bids are multiples of 5 (got 123)"),
    (105, 123, "a raised contract is a multiple of 5 (got 123)"),
])
def test_reopening_a_sheet_checks_each_deal_s_bid_as_typed_entry_does(
    tmp_path: Path, bid: int, contract: int | None, problem: str
) -> None:
    # ru-online (S002) without the golden round: bids in fives from 100 up to 420
    deal = ["1", "n", "105", "n", "", "75 45 0", "", ""]  # P1 fails 105
    score(tmp_path, "ru-online", [deal, ["2", "n", "110", "n", "", "30 50 40", "", ""]],
          "-O", "golden_round=false")
    path = tmp_path / "sheet.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["deals"][1].update(bid=bid, contract=contract if contract is not None else bid)
    path.write_text(json.dumps(data), encoding="utf-8")
    before = path.read_bytes()
    result = CliRunner().invoke(main, ["score", "ru-online", "--sheet", str(path)], input="sheet\nquit\n")
    assert result.exit_code == 1
    assert result.output == (f"error[entry.sheet]: {path}: deal 2: {problem}\n"
                             "  hint: correct or delete that deal in the file (a text editor will do)\n")
    assert path.read_bytes() == before  # never rewritten


def test_a_number_too_large_is_called_so_and_yes_no_questions_show_their_default(tmp_path: Path) -> None:
    # a fresh user's trial: `bid: 999…9` was answered "must be a whole number"; `rospis? (y/n)`
    # took an empty answer without saying what it meant
    qs = _questions("ru-online", golden_round="false")
    with pytest.raises(EntryError) as info:
        qs["bid"].parse("9" * 40, {"declarer": 1})
    assert info.value.diagnostic.code == "entry.number"
    assert info.value.diagnostic.message == (
        "the bid is too large: at most 18 digits (got `999999999999999999999999…(+16 characters)`)")
    with pytest.raises(EntryError, match=r"the bid must be a whole number of points \(got `1_000`\)"):
        qs["bid"].parse("1_000", {"declarer": 1})
    assert qs["forfeit"].prompt == "rospis? (y/n, empty: n)"
    assert qs["dark"].prompt == "dark game? (y/n, empty: n)"
    assert qs["golden"].prompt == "golden-round deal? (y/n, empty: y)"
    out, sheet = score(tmp_path, "ru-online", [["1", "105", "", "", "75 45 0", "", ""]], "-O", "golden_round=false",
                       "-O", "dark_game=false")
    assert "rospis? (y/n, empty: n)" in out
    assert sheet["deals"][0]["forfeit"] is False


def test_a_sheet_in_a_missing_folder_is_refused_without_making_it(tmp_path: Path) -> None:
    sheet = tmp_path / "missing" / "s.json"
    result = CliRunner().invoke(main, ["score", "pl-standard", "--sheet", str(sheet)], input="quit\n")
    assert result.exit_code == 1
    assert result.output == f"Error: cannot write {sheet}: the folder {sheet.parent} does not exist\n"
    assert not sheet.parent.exists()


def test_a_named_contract_is_shown_by_its_name(tmp_path: Path) -> None:
    # examples/house/misere.yaml: the named contract `misere` (name Misère, value 120)
    out, data = score(tmp_path, str(ROOT / "examples/house/misere.yaml"), [
        ["0", "misere", "", "0 60 60", "0"],  # P0 took no trick: made, +120
        ["1", "misere", "", "0 60 60", ""],  # P1 took a trick: failed, -120
        ["2", "", "100", "", "", "20 30 70", ""],  # a numeric contract stays a number
        ["show"],
    ])
    assert [d.get("kind") for d in data["deals"]] == ["misere", "misere", None]
    assert "  P0: Misère 120 made" in out and "  P1: Misère 120 failed" in out
    assert "  P2: contract 100 failed" in out
    rows = [line.split("│")[1:3] for line in out.splitlines() if line.startswith("│ ") and "=" in line]
    assert [(n.strip(), what.strip()) for n, what in rows] == [
        ("1", "P0 Misère 120"), ("2", "P1 Misère 120"), ("3", "P2 100")]


def test_a_half_written_sheet_is_reported_at_file_line_and_column(tmp_path: Path) -> None:
    # the sheet as a crash might leave it: cut in the middle of a value
    path = tmp_path / "half.json"
    path.write_text('{\n "format": "tysiac-scoresheet",\n "version": 1,\n "players": fa', encoding="utf-8")
    result = CliRunner().invoke(main, ["score", "pl-standard", "--sheet", str(path)], input="quit\n")
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == f"{path}:4:13: error[entry.sheet]: not a scoresheet: Expecting value"
    assert "Traceback" not in result.output
